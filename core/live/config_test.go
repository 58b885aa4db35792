package live

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"toolscope/core/live/livetest"
)

func TestParseConfig(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []Spec
		err       string
	}{
		{name: "claude desktop", doc: `{"mcpServers":{
			"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"],"env":{"DEBUG":"1"}},
			"remote":{"url":"https://example.com/mcp","headers":{"Authorization":"Bearer ${env:TOKEN}"}}}}`,
			want: []Spec{
				{Name: "fs", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}, Env: map[string]string{"DEBUG": "1"}},
				{Name: "remote", URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer ${env:TOKEN}"}},
			}},
		{name: "vscode", doc: `{"inputs":[],"servers":{"a":{"type":"stdio","command":"srv"},"b":{"type":"sse","url":"http://h/sse"},"c":{"type":"http","url":"http://h/mcp"}}}`,
			want: []Spec{{Name: "a", Command: "srv"}, {Name: "b", URL: "http://h/sse", SSE: true}, {Name: "c", URL: "http://h/mcp"}}},
		{name: "saved with a byte order mark", doc: "\ufeff" + `{"mcpServers":{"fs":{"command":"srv"}}}`, want: []Spec{{Name: "fs", Command: "srv"}}},
		{name: "an error after a byte order mark", doc: "\ufeff" + `{"mcpServers":{"x":1}}`, err: "cfg.json:1:20: mcpServers.x: is number, want an object"},
		{name: "windsurf serverUrl", doc: `{"mcpServers":{"w":{"serverUrl":"https://w/mcp"}}}`, want: []Spec{{Name: "w", URL: "https://w/mcp"}}},
		{name: "not json", doc: `{"mcpServers":`, err: "cfg.json:1:15: not valid JSON"},
		{name: "no servers key", doc: `{"tools":[]}`, err: `want an object with "mcpServers"`},
		{name: "empty", doc: `{"mcpServers":{}}`, err: "mcpServers is empty"},
		{name: "server not an object", doc: `{"mcpServers":{"x":1}}`, err: "cfg.json:1:20: mcpServers.x: is number, want an object"},
		{name: "args not strings", doc: `{"mcpServers":{"x":{"command":"c","args":["a",2]}}}`, err: "mcpServers.x: args[1] is number, want a string"},
		{name: "env not strings", doc: `{"servers":{"x":{"command":"c","env":{"K":true}}}}`, err: "servers.x: env.K is boolean, want a string"},
		{name: "both", doc: `{"mcpServers":{"x":{"command":"c","url":"http://u"}}}`, err: "has both command and url"},
		{name: "neither", doc: `{"mcpServers":{"x":{"args":[]}}}`, err: "has neither command nor url"},
		{name: "unknown type", doc: `{"mcpServers":{"x":{"type":"ws","url":"ws://u"}}}`, err: `type "ws" is not one of "http", "sse"`},
		{name: "http type with a command", doc: `{"mcpServers":{"x":{"type":"http","command":"c"}}}`, err: "a command is a stdio server"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseConfig("cfg.json", []byte(tc.doc))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Servers) != len(tc.want) {
				t.Fatalf("%d servers, want %d", len(cfg.Servers), len(tc.want))
			}
			for i, w := range tc.want {
				g := cfg.Servers[i]
				if g.Name != w.Name || g.Command != w.Command || !slices.Equal(g.Args, w.Args) || g.URL != w.URL || g.SSE != w.SSE ||
					!mapsEqual(g.Env, w.Env) || !mapsEqual(g.Headers, w.Headers) || g.Config != "cfg.json" {
					t.Errorf("server %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestConfigSelect(t *testing.T) {
	cfg, err := ParseConfig("cfg.json", []byte(`{"mcpServers":{"a":{"command":"a"},"off":{"command":"o","disabled":true},"b":{"command":"b"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	names := func(specs []Spec) string {
		var out []string
		for _, s := range specs {
			out = append(out, s.Name)
		}
		return strings.Join(out, ",")
	}
	if got, _ := cfg.Select(nil); names(got) != "a,b" {
		t.Errorf("Select() = %s, want the enabled servers a,b", names(got))
	}
	if got, _ := cfg.Select([]string{"b", "off", "b"}); names(got) != "b,off" {
		t.Errorf("Select(b,off,b) = %s, want b,off", names(got))
	}
	if _, err := cfg.Select([]string{"nope"}); err == nil || err.Error() != `cfg.json: no server "nope" (it has a, b, off)` {
		t.Errorf("Select(nope) error %v", err)
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers":{"a":{"command":"x","args":["1"],"env":{"K":"V"}}}}`,
		`{"servers":{"b":{"type":"sse","url":"http://h","headers":{"A":"B"}}}}`,
		`{"mcpServers":{"c":{"url":1}}}`, `[]`, `{"mcpServers":[]}`,
		"\ufeff" + `{"mcpServers":{"d":{"command":"x"}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig("f.json", data)
		if err != nil {
			return
		}
		for _, s := range cfg.Servers {
			if (s.Command == "") == (s.URL == "") {
				t.Fatalf("server %q has %q and %q: want exactly one", s.Name, s.Command, s.URL)
			}
		}
	})
}

// TestConfigMergesServers lists a config of a stdio and an HTTP server,
// as a host would: names qualified by server, every tool marked with it.
func TestConfigMergesServers(t *testing.T) {
	srv := httptest.NewServer(livetest.Handler(livetest.Behaviour{PageSize: 4}))
	t.Cleanup(srv.Close)
	behaviour, _ := json.Marshal(livetest.Behaviour{PageSize: 3})
	doc, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"ops local": map[string]any{"command": "${TEST_BINARY}", "env": map[string]string{livetest.EnvBehaviour: string(behaviour)}},
		"ops-http":  map[string]any{"url": srv.URL, "headers": map[string]string{"X-Trace": "${TRACE:-none}"}},
		"broken":    map[string]any{"command": "toolscope-no-such-server", "disabled": true},
	}})
	path := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	if err := os.WriteFile(path, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(transport{})
	opts.Getenv = fakeEnv(map[string]string{"TEST_BINARY": os.Args[0]})
	s, err := OpenConfig(context.Background(), cfg, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	cat, err := s.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := len(livetest.Tools())
	if len(cat.Tools) != 2*n {
		t.Fatalf("%d tools, want %d", len(cat.Tools), 2*n)
	}
	if cat.Source != path {
		t.Errorf("source %q, want the config %q", cat.Source, path)
	}
	first, last := cat.Tools[0], cat.Tools[2*n-1]
	if first.Name != "ops_local__get_volume_status" || first.Server != "ops local" || first.Entry != "ops_local.tools[0]" {
		t.Errorf("first tool %q from %q at %q", first.Name, first.Server, first.Entry)
	}
	if last.Name != "ops-http__unmount_volume" || last.Server != "ops-http" || last.Index != 2*n-1 {
		t.Errorf("last tool %q from %q index %d", last.Name, last.Server, last.Index)
	}
	if got := QualifiedName("ops local", "x"); got != "ops_local__x" {
		t.Errorf("QualifiedName = %q", got)
	}

	// The disabled server is used when named, and its failure names it.
	_, err = OpenConfig(context.Background(), cfg, []string{"ops-http", "broken"}, opts)
	want := `server "broken" (` + path + `): start: executable file not found in $PATH`
	if err == nil || err.Error() != want {
		t.Errorf("OpenConfig(broken) error %v, want %q", err, want)
	}
}

func TestConfigVariableMissing(t *testing.T) {
	cfg, err := ParseConfig("cfg.json", []byte(`{"mcpServers":{"gh":{"url":"https://h/mcp","headers":{"Authorization":"Bearer ${env:GH_TOKEN}"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(transport{})
	opts.Getenv = fakeEnv(nil)
	_, err = OpenConfig(context.Background(), cfg, nil, opts)
	want := `server "gh" (cfg.json): config: headers: Authorization: environment variable GH_TOKEN is not set`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, maxConfigBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ path, want string }{
		{filepath.Join(dir, "missing.json"), "missing.json: cannot read: no such file or directory"},
		{dir, ": cannot read: is a directory"},
		{big, "big.json: over the 4 MiB limit for an mcp-config"},
	}
	for _, tc := range cases {
		if _, err := LoadConfig(tc.path); err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("LoadConfig(%s): %v, want …%s", tc.path, err, tc.want)
		}
	}
}

// VS Code's mcp.json is JSON with comments: its comments and trailing
// commas are read, and an error in it is still located.
func TestParseConfigJSONC(t *testing.T) {
	doc := "{\n  // the workspace's servers\n  \"servers\": {\n    \"gh\": {\"command\": \"npx\", \"args\": [\"-y\", \"x@1.0.0\",], /* pinned */},\n  },\n}\n"
	c, err := ParseConfig("mcp.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Servers) != 1 || c.Servers[0].Name != "gh" || len(c.Servers[0].Args) != 2 {
		t.Errorf("servers %+v", c.Servers)
	}
	_, err = ParseConfig("mcp.json", []byte("{\n  // note\n  \"servers\": {\"gh\": {\"command\": }}\n}"))
	if err == nil || !strings.Contains(err.Error(), "mcp.json:3:") {
		t.Errorf("error %v, want one at mcp.json:3", err)
	}
}
