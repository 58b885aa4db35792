package pipeline

import (
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
