package report

import (
	"strings"
	"testing"
)

// Workflow commands escape what the runner would read as syntax: % and LF
// everywhere, and ',' and ':' in property values too; a CR, like every
// control character but LF and tab, is spelled out before that.
func TestGitHubAnnotationEscaping(t *testing.T) {
	cases := []struct {
		name string
		a    GitHubAnnotation
		want string
	}{
		{"plain", GitHubAnnotation{Level: "error", File: "tools.json", Line: 6, Col: 3, Title: "toolscope duplicate-name", Message: "m"},
			"::error file=tools.json,line=6,col=3,title=toolscope duplicate-name::m\n"},
		{"no file", GitHubAnnotation{Level: "notice", Line: 6, Title: "t", Message: "m"},
			"::notice title=t::m\n"},
		{"no column", GitHubAnnotation{Level: "warning", File: "f", Line: 2, Title: "t", Message: "m"},
			"::warning file=f,line=2,title=t::m\n"},
		{"message", GitHubAnnotation{Level: "error", Title: "t", Message: "100% a,b: c\r\nd"},
			"::error title=t::100%25 a,b: c\\r%0Ad\n"},
		{"properties", GitHubAnnotation{Level: "error", File: "a,b:c%.json\n", Title: "x: y, z", Message: "m"},
			"::error file=a%2Cb%3Ac%25.json%0A,title=x%3A y%2C z::m\n"},
		{"control characters", GitHubAnnotation{Level: "error", Title: "t", Message: "\x1b[31mred"},
			"::error title=t::\\x1b[31mred\n"},
	}
	for _, c := range cases {
		var b strings.Builder
		if err := c.a.Write(&b); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		if strings.Count(b.String(), "\n") != 1 {
			t.Errorf("%s: not one line: %q", c.name, b.String())
		}
	}
}

// Annotations name the catalog as the runner matches it against the pull
// request's files: relative to the workspace, cleaned.
func TestGitHubFile(t *testing.T) {
	cases := []struct{ path, workspace, want string }{
		{"tools.json", "", "tools.json"},
		{"./catalogs/../tools.json", "/w", "tools.json"},
		{"/w/repo/catalogs/tools.json", "/w/repo", "catalogs/tools.json"},
		{"/elsewhere/tools.json", "/w/repo", "/elsewhere/tools.json"},
		{"/w/repo2/tools.json", "/w/repo", "/w/repo2/tools.json"},
		{"/w/repo/tools.json", "", "/w/repo/tools.json"},
	}
	for _, c := range cases {
		if got := ghFile(c.path, c.workspace); got != c.want {
			t.Errorf("ghFile(%q, %q) = %q, want %q", c.path, c.workspace, got, c.want)
		}
	}
}
