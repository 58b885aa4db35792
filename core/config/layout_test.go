package config

import (
	"strings"
	"testing"
)

// An edit keeps the file's layout: comments (a file of comments alone
// too), blank lines, indentation, and a comment after a flow list; a new
// entry takes the indentation of the list it joins.
func TestEditsKeepTheLayout(t *testing.T) {
	tests := []editCase{
		{"comments alone", "# the team's review\n# of the ops tools\n",
			func(c *Config) error { return c.IgnoreFinding(Ignore{Tool: "x", Reason: "r"}) },
			"# the team's review\n# of the ops tools\n\nignore:\n  - tool: x\n    reason: r\n"},
		{"blank lines and an indented list",
			"version: 1\n\n# reviewed in March\nignore:\n    # legacy tools\n    - tool: a\n      reason: r\n\naccepted-pairs:\n    - tools: [a, b]   # the audit agent only\n      reason: x\n",
			func(c *Config) error { return c.IgnoreFinding(Ignore{Tool: "new", Reason: "why"}) },
			"version: 1\n\n# reviewed in March\nignore:\n    # legacy tools\n    - tool: a\n      reason: r\n    - tool: new\n      reason: why\n\naccepted-pairs:\n    - tools: [a, b]   # the audit agent only\n      reason: x\n"},
		{"a pair accepted under an indented list",
			"accepted-pairs:\n    - tools: [a, b]   # flow list comment\n      reason: x\n\nstrict: true\n",
			func(c *Config) error { return c.AcceptPair("c", "d", "y") },
			"accepted-pairs:\n    - tools: [a, b]   # flow list comment\n      reason: x\n    - tools: [c, d]\n      reason: y\n\nstrict: true\n"},
		{"an entry removed",
			"ignore:\n\n    - tool: a\n      reason: r\n\n    - tool: b   # keep this one\n      reason: s\n",
			func(c *Config) error { _, err := c.RemoveIgnore("", "a", ""); return err },
			"ignore:\n\n    - tool: b   # keep this one\n      reason: s\n"},
	}
	runEdits(t, tests)
}

// An unedited config marshals to its own text.
func TestMarshalUneditedIsTheFile(t *testing.T) {
	in := "version: 1\n\n# why\nignore:\n    - tool: a      # spaced\n      reason: r\n"
	c, err := Parse("c.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Marshal(); string(got) != in {
		t.Errorf("got:\n%s", got)
	}
	if strings.Count(in, "\n") == 0 {
		t.Fatal("unreachable")
	}
}

// Whatever the file's layout, an edited config reads back with the edit
// and the rest of its entries.
func FuzzEditKeepsMeaning(f *testing.F) {
	f.Add("version: 1\n\n# c\nignore:\n    - tool: a\n      reason: r\n", "new")
	f.Add("# only\n# comments\n", "x")
	f.Add("accepted-pairs:\n  - tools: [a,   b] #c\n    reason: x\n\n\nstrict: true\n", "get_*")
	f.Fuzz(func(t *testing.T, in, tool string) {
		c, err := Parse("c.yaml", []byte(in))
		if err != nil {
			return
		}
		before := len(c.Ignores)
		if err := c.IgnoreFinding(Ignore{Tool: tool, Reason: "fuzzed"}); err != nil {
			return
		}
		out, err := c.Marshal()
		if err != nil {
			return // a name YAML cannot hold (invalid UTF-8): an error, not a file
		}
		back, err := Parse("c.yaml", out)
		if err != nil {
			t.Fatalf("the edited config does not parse: %v\n%s", err, out)
		}
		if len(back.Ignores) != len(c.Ignores) || len(back.Ignores) < before || len(back.AcceptedPairs) != len(c.AcceptedPairs) || back.Strict != c.Strict {
			t.Errorf("read back %d ignores, %d pairs; want %d, %d\n%s", len(back.Ignores), len(back.AcceptedPairs), len(c.Ignores), len(c.AcceptedPairs), out)
		}
	})
}

// A flow list that an edit turns into a block list keeps its line
// comment, on its key's line.
func TestFlowListCommentKept(t *testing.T) {
	c, err := Parse("c.yaml", []byte("accepted-pairs: [{tools: [a, b], reason: x}] # reviewed in March\nstrict: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AcceptPair("c", "d", "y"); err != nil {
		t.Fatal(err)
	}
	out, _ := c.Marshal()
	if !strings.Contains(string(out), "accepted-pairs: # reviewed in March\n") {
		t.Errorf("the comment is lost:\n%s", out)
	}
	back, err := Parse("c.yaml", out)
	if err != nil || len(back.AcceptedPairs) != 2 || !back.Strict {
		t.Errorf("read back: %v %+v", err, back)
	}
}

// BenchmarkSaveLargeConfig edits a config of 5,000 ignore entries.
func BenchmarkSaveLargeConfig(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("version: 1\n\nignore:\n")
	for i := range 5000 {
		sb.WriteString("    # entry\n    - tool: tool_" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + "\n      reason: r\n\n")
	}
	c, err := Parse("c.yaml", []byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	if err := c.IgnoreFinding(Ignore{Tool: "new", Reason: "why"}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := c.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}

// Saving again and again keeps the one blank line before a trailing
// comment: the library writes it too, and it was once counted twice, so
// each save added a line.
func TestRepeatedSavesAddNoBlankLines(t *testing.T) {
	in := "version: 1\nignore:\n  - tool: a\n    reason: r\n\n# trailing note\n"
	for i := range 3 {
		c, err := Parse("c.yaml", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.IgnoreFinding(Ignore{Tool: "x" + string(rune('a'+i)), Reason: "r"}); err != nil {
			t.Fatal(err)
		}
		out, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		in = string(out)
	}
	if !strings.HasSuffix(in, "    reason: r\n\n# trailing note\n") || strings.Contains(in, "\n\n\n") {
		t.Errorf("after three saves:\n%q", in)
	}
}

// editCase is one edit of a config's text and the text it must give.
type editCase struct {
	name, in string
	edit     func(*Config) error
	want     string
}

// runEdits parses each case's text, makes its edit and checks the text
// written, and that it parses again.
func runEdits(t *testing.T, tests []editCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("c.yaml", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.edit(c); err != nil {
				t.Fatal(err)
			}
			got, err := c.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
			if _, err := Parse("c.yaml", got); err != nil {
				t.Errorf("the result does not parse: %v", err)
			}
		})
	}
}
