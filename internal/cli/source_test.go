package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"toolscope/core/live/livetest"
)

// TestLintLiveSources runs `lint` on live MCP servers (in-process Streamable
// HTTP test servers), alone and merged from an mcp-config file.
func TestLintLiveSources(t *testing.T) {
	const token = "s3cret-for-the-test"
	plain := httptest.NewServer(livetest.Handler(livetest.Behaviour{PageSize: 2}))
	t.Cleanup(plain.Close)
	inner := livetest.Handler(livetest.Behaviour{})
	guarded := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(guarded.Close)
	t.Setenv("LIVE_TEST_TOKEN", token)
	config, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"ops":     map[string]any{"url": plain.URL},
		"guarded": map[string]any{"url": guarded.URL, "headers": map[string]string{"Authorization": "Bearer ${env:LIVE_TEST_TOKEN}"}},
	}})
	cfg := writeFile(t, "mcp.json", string(config))
	lint := []string{"lint", "--no-similarity", "--format", "json"}
	cases := []struct {
		name string
		args []string
		code int
		out  string // in stdout
		err  string // in stderr
	}{
		{"a URL", append(lint, plain.URL), 1, `"toolCount": 7`, ""},
		{"a header from the environment", append(lint, "--header", "Authorization: Bearer $LIVE_TEST_TOKEN", guarded.URL), 1, `"toolCount": 7`, ""},
		{"a missing token", append(lint, guarded.URL), 2, "", "initialize: Unauthorized"},
		{"a config merges its servers", append(lint, "--mcp-config", cfg), 1, `"toolCount": 14`, ""},
		{"merged names are qualified", append(lint, "--mcp-config", cfg), 1, `"guarded__get_volume_status"`, ""},
		{"one server of a config", append(lint, "--mcp-config", cfg, "--server", "guarded"), 1, `"toolCount": 7`, ""},
		{"an unknown server", append(lint, "--mcp-config", cfg, "--server", "nope"), 2, "", `no server "nope" (it has guarded, ops)`},
		{"a config and a CATALOG", append(lint, "--mcp-config", cfg, plain.URL), 2, "", "want CATALOG arguments or --mcp-config FILE, not both"},
		{"--server without a config", append(lint, "--server", "ops", plain.URL), 2, "", "--server picks servers of an --mcp-config file"},
		{"a header for stdio", append(lint, "--header", "A: b", "mcp:true"), 2, "", "--header is for an http(s):// CATALOG"},
		{"a malformed header", append(lint, "--header", "nocolon", plain.URL), 2, "", "a header is written 'Name: value'"},
		{"a zero timeout", append(lint, "--mcp-timeout", "0s", plain.URL), 2, "", "want a positive duration"},
		{"a step timeout", append(lint, "--mcp-timeout", "5s", plain.URL), 1, `"toolCount": 7`, ""},
		{"a config passed as CATALOG", append(lint, cfg), 2, "", "is an MCP server config, not a catalog: use --mcp-config"},
		{"a command that is not there", append(lint, "mcp:toolscope-no-such-server --flag"), 2, "", "mcp:toolscope-no-such-server --flag: start: executable file not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCmd("", c.args...)
			if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) {
				t.Errorf("exit %d, want %d\nstdout: %.400s\nstderr: %s", code, c.code, out, errOut)
			}
			if strings.Contains(out+errOut, token) {
				t.Errorf("the token was echoed")
			}
		})
	}
}

func TestCatalogArgs(t *testing.T) {
	cases := []struct {
		config     string
		positional []string
		arg        string
		rest       int
		ok         bool
	}{
		{"", []string{"cat.json"}, "cat.json", 0, true},
		{"", []string{"mcp:npx -y pkg", "tool", "{}"}, "mcp:npx -y pkg", 2, true},
		{"", nil, "", 0, false},
		{"mcp.json", []string{"tool", "{}"}, "", 2, true},
		{"mcp.json", nil, "", 0, true},
	}
	for _, c := range cases {
		l := &liveFlags{config: c.config}
		arg, rest, ok := l.catalogArgs(c.positional)
		if arg != c.arg || len(rest) != c.rest || ok != c.ok {
			t.Errorf("config %q, %q: got %q, %q, %v", c.config, c.positional, arg, rest, ok)
		}
	}
}

// TestNotesOfALiveSource: a stdio server that prints a banner where
// JSON-RPC goes is listed, and the skipped line is noted on stderr.
func TestNotesOfALiveSource(t *testing.T) {
	cfg := stdioConfig(t, livetest.Behaviour{Stdout: "Starting Time MCP server...\x1b[2J\n"})
	code, out, errOut := runCmd("", "lint", "--no-similarity", "--format", "json", "--mcp-config", cfg)
	want := `toolscope: note: server "ops" (` + cfg + `): skipped a line on stdout that is not a JSON-RPC message: "Starting Time MCP server...\x1b[2J"`
	if lines := withoutProgress(errOut); code != 1 || !strings.Contains(out, `"toolCount": 7`) || len(lines) != 1 || lines[0] != want {
		t.Errorf("exit %d, stderr %q\nwant exit 1, 7 tools and stderr %q", code, errOut, want)
	}
}
