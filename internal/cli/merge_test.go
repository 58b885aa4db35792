package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMergeNames(t *testing.T) {
	p := filepath.FromSlash
	for _, tc := range []struct {
		args, want []string
	}{
		// One catalog a folder: the folder names the server.
		{[]string{p("servers/github/tools.json"), p("servers/slack/tools.json")}, []string{"github", "slack"}},
		// Catalogs side by side in one folder: each file names its server.
		{[]string{p("catalogs/tavily-mcp.json"), p("catalogs/exa-mcp-server.json"), p("other/neon/tools.json")}, []string{"tavily-mcp", "exa-mcp-server", "neon"}},
		// In the working directory: the file's name.
		{[]string{"a.json", p("x/b.json")}, []string{"a", "x"}},
		// A name given twice is numbered from its second use.
		{[]string{p("one/github/tools.json"), p("two/github/tools.json"), p("three/github/tools.json")}, []string{"github", "github2", "github3"}},
		{[]string{p("a/tools.json"), p("a/tools.yaml")}, []string{"tools", "tools2"}},
		// A numbered name that is given too is never reused.
		{[]string{p("one/github/tools.json"), p("two/github/tools.json"), p("x/github2/tools.json")}, []string{"github", "github3", "github2"}},
		{[]string{p("x/github2/tools.json"), p("one/github/tools.json"), p("two/github/tools.json")}, []string{"github2", "github", "github3"}},
	} {
		if got := mergeNames(tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("mergeNames(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// Three catalogs whose servers would be github, github and github2 merge
// with three server names and no duplicate-name error.
func TestMergeNamesNeverCollide(t *testing.T) {
	dir := t.TempDir()
	cat := `[{"name": "search_issues", "description": "Searches the issues of one repository by text and returns the twenty best matches."}]`
	var args []string
	for _, d := range []string{"one/github", "two/github", "x/github2"} {
		args = append(args, writeFileAt(t, filepath.Join(dir, filepath.FromSlash(d), "tools.json"), cat))
	}
	_, out, errOut := runCmd("", append([]string{"lint", "--no-config", "--no-similarity", "--format", "json", "--merge"}, args...)...)
	var r struct {
		Structural []struct{ Rule, Tool string }
		Servers    []struct{ Server string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	var servers []string
	for _, s := range r.Servers {
		servers = append(servers, s.Server)
	}
	slices.Sort(servers)
	if !slices.Equal(servers, []string{"github", "github2", "github3"}) {
		t.Errorf("servers %v, want github, github2, github3", servers)
	}
	for _, f := range r.Structural {
		if f.Rule == "duplicate-name" {
			t.Errorf("duplicate-name on %s", f.Tool)
		}
	}
}

// writeFileAt writes data at path, its folders made, and returns path.
func writeFileAt(t *testing.T, path, data string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
