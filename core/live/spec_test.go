package live

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		err  string
	}{
		{"npx -y @modelcontextprotocol/server-everything", []string{"npx", "-y", "@modelcontextprotocol/server-everything"}, ""},
		{"  a \t b\n", []string{"a", "b"}, ""},
		{`server --name 'two words' "and \"three\" words"`, []string{"server", "--name", "two words", `and "three" words`}, ""},
		{`a\ b c`, []string{"a b", "c"}, ""},
		{`'it'\''s'`, []string{"it's"}, ""},
		{`"a\nb"`, []string{`a\nb`}, ""},
		{`x'' ""`, []string{"x", ""}, ""},
		{`$HOME`, []string{"$HOME"}, ""},
		{"", nil, ""},
		{`'open`, nil, "unterminated single quote"},
		{`"open`, nil, "unterminated double quote"},
	}
	for _, tc := range cases {
		got, err := SplitWords(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("SplitWords(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("SplitWords(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestJoinWordsRoundTrips(t *testing.T) {
	for _, words := range [][]string{
		{"npx", "-y", "@scope/pkg@1.2.3"},
		{"node", "server.js", "--flag=a b", "it's", ""},
		{"a\tb", `back\slash`, `"quoted"`, "$VAR"},
	} {
		line := JoinWords(words)
		got, err := SplitWords(line)
		if err != nil || !slices.Equal(got, words) {
			t.Errorf("SplitWords(JoinWords(%q)) = %q (%v) via %s", words, got, err, line)
		}
	}
	if got := JoinWords([]string{"npx", "-y", "@scope/pkg"}); got != "npx -y @scope/pkg" {
		t.Errorf("plain words were quoted: %s", got)
	}
}

func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{"npx -y pkg", `a 'b c' "d\"e"`, `\`, `'`, "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := SplitWords(s)
		if err != nil {
			return
		}
		again, err := SplitWords(JoinWords(words))
		if err != nil || !slices.Equal(again, words) {
			t.Fatalf("round trip of %q: %q -> %q (%v)", s, words, again, err)
		}
	})
}

func TestParseArg(t *testing.T) {
	cases := []struct {
		arg    string
		live   bool
		want   Spec
		name   string
		errHas string
	}{
		{arg: "mcp:npx -y @modelcontextprotocol/server-everything", live: true,
			want: Spec{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}},
			name: "mcp:npx -y @modelcontextprotocol/server-everything"},
		{arg: "mcp:./srv 'a b'", live: true, want: Spec{Command: "./srv", Args: []string{"a b"}}, name: "mcp:./srv 'a b'"},
		{arg: "https://user:pw@example.com/mcp?key=abc", live: true,
			want: Spec{URL: "https://user:pw@example.com/mcp?key=abc"}, name: "https://example.com/mcp?…"},
		{arg: "HTTP://localhost:3000/mcp", live: true, want: Spec{URL: "HTTP://localhost:3000/mcp"}, name: "http://localhost:3000/mcp"},
		{arg: "mcp:", live: true, errHas: "mcp: needs a command"},
		{arg: "mcp:'x", live: true, errHas: "unterminated single quote"},
		{arg: "http://", live: true, errHas: "not a valid URL"},
		{arg: "catalog.json", live: false, errHas: "not a live source"},
		{arg: "-", live: false, errHas: "not a live source"},
	}
	for _, tc := range cases {
		if got := IsLive(tc.arg); got != tc.live {
			t.Errorf("IsLive(%q) = %v", tc.arg, got)
		}
		spec, err := ParseArg(tc.arg)
		if tc.errHas != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Errorf("ParseArg(%q) error %v, want %q", tc.arg, err, tc.errHas)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseArg(%q): %v", tc.arg, err)
			continue
		}
		if spec.Command != tc.want.Command || !slices.Equal(spec.Args, tc.want.Args) || spec.URL != tc.want.URL {
			t.Errorf("ParseArg(%q) = %+v, want %+v", tc.arg, spec, tc.want)
		}
		if got := spec.String(); got != tc.name {
			t.Errorf("ParseArg(%q).String() = %q, want %q", tc.arg, got, tc.name)
		}
	}
}

func TestSpecStringOfAConfigServerShowsNoCommand(t *testing.T) {
	s := Spec{Name: "github", Config: "claude.json", Command: "gh-mcp", Args: []string{"--token", "ghp_secret"}}
	if got := s.String(); got != `server "github" (claude.json)` {
		t.Errorf("String() = %q", got)
	}
}
