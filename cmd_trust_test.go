package main

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
	"testing"
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
