//go:build unix

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A cloned repository's toolscope.yaml that names an embeddings endpoint
// does not get the user's key sent there: only a URL the user trusts
// ($TOOLSCOPE_TRUSTED_URLS, or --embed-url) does.
func TestConfigEndpointGetsNoKeyUnlessTrusted(t *testing.T) {
	const key = "sk-user-secret-4711"
	var mu sync.Mutex
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		body, _ := io.ReadAll(r.Body)
		json.Unmarshal(body, &req)
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		data := make([]map[string]any, len(req.Input))
		for i, in := range req.Input {
			data[i] = map[string]any{"index": i, "embedding": []float32{float32(len(in)), float32(i + 1), 1}}
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	defer srv.Close()
	tests := []struct {
		name    string
		trusted string
		flag    bool
		sent    bool
	}{
		{"the config's URL", "", false, false},
		{"the config's URL, trusted", srv.URL + "/v1", false, true},
		{"the config's URL, another one trusted", "https://api.openai.com/v1", false, false},
		{"the same URL on the command line", "", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := t.TempDir()
			os.Mkdir(filepath.Join(repo, ".git"), 0o755)
			cat := filepath.Join(repo, "tools.json")
			os.WriteFile(cat, []byte(cleanCatalog), 0o644)
			os.WriteFile(filepath.Join(repo, "toolscope.yaml"), []byte(fmt.Sprintf("similarity:\n  embedder: openai:text-embedding-3-small\n  embed-url: %s/v1\n", srv.URL)), 0o644)
			t.Setenv("OPENAI_API_KEY", key)
			t.Setenv("TOOLSCOPE_EMBED_KEY", "")
			t.Setenv("TOOLSCOPE_TRUSTED_URLS", tt.trusted)
			mu.Lock()
			auths = nil
			mu.Unlock()
			args := []string{"lint", "--no-cache", "--threshold", "0.99", "--scoring", "cosine"}
			if tt.flag {
				args = append(args, "--embed-url", srv.URL+"/v1")
			}
			code, out, errOut := runCmd("", append(args, cat)...)
			mu.Lock()
			defer mu.Unlock()
			if len(auths) == 0 {
				t.Fatalf("no request reached the endpoint: exit %d\n%s\n%s", code, errOut, out)
			}
			for _, a := range auths {
				if got := a == "Bearer "+key; got != tt.sent {
					t.Errorf("key sent %v, want %v (Authorization %q)", got, tt.sent, a)
				}
			}
			if strings.Contains(out+errOut, key) {
				t.Error("the key shows in the output")
			}
		})
	}
}

// --write-baseline and init write whole files beside the target, never
// through a planted symlink, and refuse to replace what is not a regular
// file: the device, the FIFO and the symlink stay, and the run exits 2.
func TestWritesRefusePlantedFiles(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(outside, []byte("precious"), 0o644)
	lint := []string{"lint", "--no-similarity", "--write-baseline"}
	tests := []struct {
		name  string
		plant func(dir string) (string, error) // returns the path to write
		args  func(path string) []string
		code  int
		err   string
	}{
		{"a symlink at PATH.tmp", func(dir string) (string, error) {
			p := filepath.Join(dir, "baseline.json")
			return p, os.Symlink(outside, p+".tmp")
		}, func(p string) []string { return append(lint, p, demoPath) }, 0, ""},
		{"a symlink at PATH", func(dir string) (string, error) {
			p := filepath.Join(dir, "baseline.json")
			return p, os.Symlink(outside, p)
		}, func(p string) []string { return append(lint, p, demoPath) }, 2, "not a regular file (a symlink): not replaced"},
		{"a FIFO at PATH", func(dir string) (string, error) {
			p := filepath.Join(dir, "baseline.json")
			return p, syscall.Mkfifo(p, 0o644)
		}, func(p string) []string { return append(lint, p, demoPath) }, 2, "not a regular file (a FIFO): not replaced"},
		{"/dev/full", func(dir string) (string, error) { return deviceFull(t, dir), nil },
			func(p string) []string { return append(lint, p, demoPath) }, 2, "full: not a regular file (a device): not replaced"},
		{"init, a symlink at toolscope.yaml", func(dir string) (string, error) {
			return filepath.Join(dir, "toolscope.yaml"), os.Symlink(outside, filepath.Join(dir, "toolscope.yaml"))
		}, func(p string) []string { return []string{"init", filepath.Dir(p)} }, 2, "exists (--force replaces it)"},
		{"init --force, a symlink at toolscope.yaml", func(dir string) (string, error) {
			return filepath.Join(dir, "toolscope.yaml"), os.Symlink(outside, filepath.Join(dir, "toolscope.yaml"))
		}, func(p string) []string { return []string{"init", "--force", filepath.Dir(p)} }, 2, "not a regular file (a symlink): not replaced"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path, err := tt.plant(dir)
			if err != nil {
				t.Skip(err)
			}
			before, _ := os.Lstat(path)
			code, _, errOut := runCmd("", tt.args(path)...)
			if code != tt.code || !strings.Contains(errOut, tt.err) {
				t.Errorf("exit %d, want %d; stderr %q lacks %q", code, tt.code, errOut, tt.err)
			}
			if b, _ := os.ReadFile(outside); string(b) != "precious" {
				t.Fatalf("written through a symlink: %q", b)
			}
			after, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			if tt.code == 2 && after.Mode() != before.Mode() {
				t.Errorf("the planted %v became %v", before.Mode(), after.Mode())
			}
			if tt.code != 2 && !after.Mode().IsRegular() {
				t.Errorf("the baseline is %v, not a regular file", after.Mode())
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), ".") {
					t.Errorf("a temp file stays: %s", e.Name())
				}
			}
		})
	}
}

// deviceFull is a full device to write to: a copy of /dev/full in dir
// when the tests may make one (root), else /dev/full itself, in a
// directory the tests cannot write, so a regression cannot replace it.
func deviceFull(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "full")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, int(unix.Mkdev(1, 7))); err == nil {
		return p
	}
	if os.Getuid() == 0 {
		t.Fatal("root and no device node made: not touching /dev/full")
	}
	return "/dev/full"
}

// A baseline whose absent findings would make a SARIF log of more results
// than a run may hold is refused with one line, and no half log is
// written.
func TestHugeBaselineSARIFIsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"kind": "toolscope-baseline", "version": 1, "pairs": [], "findings": [`)
	for i := range 30_000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"rule": "description-missing-or-short", "tool": "gone_%d", "severity": "warn", "message": "m"}`, i)
	}
	b.WriteString("]}\n")
	base := writeFile(t, "baseline.json", b.String())
	clean := writeFile(t, "clean.json", cleanCatalog)
	code, out, errOut := runCmd("", "lint", "--no-similarity", "--baseline", base, "--format", "sarif", clean)
	if code != 2 || out != "" || !strings.Contains(errOut, "the SARIF log would hold 30000 results, over the 25000 a run may hold") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("exit %d, %d bytes out, stderr %q", code, len(out), errOut)
	}
	// JSON has no such limit.
	if code, _, errOut := runCmd("", "lint", "--no-similarity", "--baseline", base, "--format", "json", clean); code != 0 {
		t.Errorf("--format json: exit %d %s", code, errOut)
	}
}
