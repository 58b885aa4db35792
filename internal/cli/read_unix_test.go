//go:build unix

package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"toolscope/core/safefile"
)

// TestEndlessFIFOStopsAtTheLimit: a FIFO fed for ever is read no further
// than the limit.
func TestEndlessFIFOStopsAtTheLimit(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "catalog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	go func() {
		// The writer stops when the reader closes its end.
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		_, _ = io.Copy(f, &endless{})
	}()
	code, _, errOut := runCmd("", "lint", "--no-similarity", fifo)
	want := "toolscope lint: " + fifo + ": over the 64 MiB input limit"
	if lines := withoutProgress(errOut); code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and one line starting %q", code, errOut, want)
	}
}

// TestRecordFilesAreReadBounded: a repository's record files (the
// judgments, the probe record) planted as a symlink to /dev/zero, a FIFO
// no one writes to, or a sparse 20 GB file end the run at once with one
// line and exit 2: nothing is read whole, nothing waits.
func TestRecordFilesAreReadBounded(t *testing.T) {
	plant := map[string]func(t *testing.T, path string){
		"/dev/zero": func(t *testing.T, path string) {
			if _, err := os.Stat("/dev/zero"); err != nil {
				t.Skip("no /dev/zero here")
			}
			if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
		},
		"FIFO": func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Skipf("no FIFO here: %v", err)
			}
		},
		"sparse 20 GB": func(t *testing.T, path string) {
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(20 << 30); err != nil {
				t.Skipf("no sparse file here: %v", err)
			}
		},
	}
	files := []struct {
		file string
		args []string
		want string
	}{
		{"toolscope.judgments.jsonl", []string{"lint", "--no-similarity"}, "toolscope lint: judgments "},
		{"toolscope.probe.json", nil, "toolscope: probe "},
	}
	for _, f := range files {
		for name, make := range plant {
			t.Run(f.file+" "+name, func(t *testing.T) {
				dir := t.TempDir()
				cat := filepath.Join(dir, "catalog.json")
				data, err := os.ReadFile(demoPath)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(cat, data, 0o644); err != nil {
					t.Fatal(err)
				}
				make(t, filepath.Join(dir, f.file))
				code, _, errOut := runCmd("", append(f.args, "--no-config", cat)...)
				lines := withoutProgress(errOut)
				if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], f.want+filepath.Join(dir, f.file)) {
					t.Errorf("exit %d, stderr %q; want exit 2 and one line starting %q", code, errOut, f.want)
				}
			})
		}
	}
}

// TestFIFOWithNoWriterIsGivenUp: a catalog FIFO no one opens for writing
// ends the run with one line instead of waiting for ever.
func TestFIFOWithNoWriterIsGivenUp(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "catalog.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	defer func(d time.Duration) { safefile.OpenTimeout = d }(safefile.OpenTimeout)
	safefile.OpenTimeout = 50 * time.Millisecond
	code, _, errOut := runCmd("", "lint", "--no-similarity", fifo)
	want := "toolscope lint: " + fifo + ": cannot read: no writer came to the FIFO"
	if lines := withoutProgress(errOut); code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and one line starting %q", code, errOut, want)
	}
}
