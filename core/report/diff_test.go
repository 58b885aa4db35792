package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/diff"
)

// parseAs parses a catalog written inline, under a file name.
func parseAs(t *testing.T, name, js string) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Parse(name, []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A description that changed in white space only reads the same side by
// side: the report says so, since a tool-pinning hash changes all the same.
func TestWhitespaceOnlyDescription(t *testing.T) {
	for _, c := range []struct {
		old, new string
		note     bool
	}{
		{"Reads a file.", "Reads a file. ", true},
		{"Reads a file.", "Reads  a\nfile.", true},
		{"Reads a file.", "Reads the file.", false},
	} {
		r := diff.Compare(parseAs(t, "old.json", fmt.Sprintf(`[{"name": "t", "description": %q}]`, c.old)),
			parseAs(t, "new.json", fmt.Sprintf(`[{"name": "t", "description": %q}]`, c.new)))
		var text, md bytes.Buffer
		WriteDiffText(&text, r, diff.Fail{})
		WriteDiffMarkdown(&md, r, diff.Fail{})
		if len(r.Changes) != 1 || r.Summary.Descriptions != 1 {
			t.Fatalf("%q → %q: %+v", c.old, c.new, r.Changes)
		}
		for name, out := range map[string]string{"message": r.Changes[0].Message, "text": text.String(), "markdown": md.String()} {
			if got := strings.Contains(out, "white space only"); got != c.note {
				t.Errorf("%q → %q: %s says white space only: %v\n%s", c.old, c.new, name, got, out)
			}
		}
	}
}

func TestRenderers(t *testing.T) {
	old := parseAs(t, "old.json", `[{"name": "t", "description": "safe", "inputSchema": {"type": "object", "properties": {"a": {"enum": ["x", "y"]}}}}]`)
	new := parseAs(t, "new.json", `[{"name": "t", "description": "now \u001b[31mred\u001b[0m | piped", "inputSchema": {"type": "object", "properties": {"a": {"enum": ["x"]}}}}]`)
	r := diff.Compare(old, new)
	r.Gate(diff.Fail{Level: diff.LevelError})
	var text, md, js bytes.Buffer
	if err := WriteDiffText(&text, r, diff.Fail{Level: diff.LevelError}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "\x1b") {
		t.Errorf("a catalog's escape sequence reached the terminal:\n%q", text.String())
	}
	for _, want := range []string{"1 breaking", "✗ t.a  parameter a no longer takes \"y\"", "- safe", "RESULT: FAIL (1 breaking change)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	WriteDiffMarkdown(&md, r, diff.Fail{Level: diff.LevelError})
	if !strings.HasPrefix(md.String(), "### toolscope diff: ❌ FAIL (1 breaking change)") || !strings.Contains(md.String(), `piped`) || strings.Contains(md.String(), " | piped") {
		t.Errorf("markdown:\n%s", md.String())
	}
	WriteDiffJSON(&js, r)
	for _, want := range []string{`"kind": "enum-value-removed"`, `"breaking": true`, `"summary": {`, `"ok": false`} {
		if !strings.Contains(js.String(), want) {
			t.Errorf("json lacks %q", want)
		}
	}
}

// GitHub annotations: an error for what fails the gate, a warning for a
// breaking or text change that does not, a notice for the rest; at the
// tool's line in NEW, and on no file for a removed tool or a catalog from
// stdin.
func TestGitHub(t *testing.T) {
	old := parseAs(t, "old.json", `[{"name": "t", "description": "one", "inputSchema": {"type": "object", "properties": {"a": {"enum": ["x", "y"]}}}},
	 {"name": "gone", "description": "g"}, {"name": "same", "description": "s"}]`)
	new := parseAs(t, "tools.json", `[{"name": "same", "description": "s"},
	 {"name": "t", "description": "two", "inputSchema": {"type": "object", "properties": {"a": {"enum": ["x"]}, "b": {}}}}]`)
	cases := []struct {
		fail   diff.Fail
		source string
		want   []string
	}{
		{diff.Fail{Level: diff.LevelError}, "tools.json", []string{
			"::warning file=tools.json,line=2,col=3,title=toolscope diff description-changed::t: description changed: what a model reads of the tool is different%0Abefore: one%0Aafter: two",
			"::error file=tools.json,line=2,col=3,title=toolscope diff enum-value-removed::t.a: parameter a no longer takes \"y\"",
			"::notice file=tools.json,line=2,col=3,title=toolscope diff param-added::t.b: optional parameter b added",
			"::error title=toolscope diff tool-removed::gone: tool removed",
			"RESULT: FAIL (2 breaking changes)"}},
		{diff.Fail{Descriptions: true}, "tools.json", []string{
			"::error file=tools.json,line=2,col=3,title=toolscope diff description-changed::",
			"::warning file=tools.json,line=2,col=3,title=toolscope diff enum-value-removed::",
			"::warning title=toolscope diff tool-removed::",
			"RESULT: FAIL (1 description change)"}},
		{diff.Fail{Level: diff.LevelError}, "-", []string{"::error title=toolscope diff enum-value-removed::"}},
	}
	for _, c := range cases {
		new.Source = c.source
		r := diff.Compare(old, new)
		r.Gate(c.fail)
		var b bytes.Buffer
		if err := WriteDiffGitHub(&b, r, new, c.fail); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range c.want {
			if !strings.Contains(out, want) {
				t.Errorf("%+v: lacks %q:\n%s", c.fail, want, out)
			}
		}
		if n := strings.Count(out, "\n::"); n+1 != len(r.Changes) {
			t.Errorf("%+v: %d annotations for %d changes:\n%s", c.fail, n+1, len(r.Changes), out)
		}
	}
}

// Any two catalogs compare and render without a panic, and a catalog
// against itself has no changes.
func FuzzDiffRenderings(f *testing.F) {
	f.Add(`{"type": "object", "properties": {"a": {"enum": [1]}}, "required": ["a"]}`, `{"type": "object", "properties": {"a": {"type": ["string", "null"], "items": true}}}`)
	f.Add(`true`, `{"properties": 1, "required": "a"}`)
	f.Add(``, `{"type": "object", "required": ["a"]}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		// An empty side is a tool that declares no input schema.
		tool := func(schema string) []byte {
			if schema == "" {
				return []byte(`[{"name": "t"}]`)
			}
			return []byte(`[{"name": "t", "inputSchema": ` + schema + `}]`)
		}
		ca, err1 := catalog.Parse("a", tool(a))
		cb, err2 := catalog.Parse("b", tool(b))
		if err1 != nil || err2 != nil {
			return
		}
		r := diff.Compare(ca, cb)
		// Every rendering writes, and none lets a control character through
		// or breaks a GitHub annotation over lines.
		var text, md, gh, js bytes.Buffer
		if WriteDiffText(&text, r, diff.Fail{Level: diff.LevelError}) != nil || WriteDiffMarkdown(&md, r, diff.Fail{}) != nil ||
			WriteDiffGitHub(&gh, r, cb, diff.Fail{Level: diff.LevelError}) != nil || WriteDiffJSON(&js, r) != nil {
			t.Fatal("a rendering failed")
		}
		if strings.ContainsAny(text.String()+gh.String(), "\x1b\r") {
			t.Errorf("a control character in the output:\n%q\n%q", text.String(), gh.String())
		}
		lines := strings.Split(strings.TrimSuffix(gh.String(), "\n"), "\n")
		if n := len(lines) - 2; n != len(r.Changes) || !strings.HasPrefix(lines[len(lines)-1], "RESULT: ") {
			t.Errorf("%d GitHub lines for %d changes:\n%s", len(lines), len(r.Changes), gh.String())
		}
		if r := diff.Compare(ca, ca); len(r.Changes) != 0 {
			t.Errorf("a catalog differs from itself: %+v", r.Changes)
		}
	})
}
