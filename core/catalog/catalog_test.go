package catalog

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"toolscope/core/jsonv"
)

const schemaA = `{"type":"object","properties":{"id":{"type":"string"}}}`

func parse(t *testing.T, doc string) *Catalog {
	t.Helper()
	c, err := Parse("test.json", []byte(doc))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

// TestShapes: every shape of SPEC §1.1, each detected per entry.
func TestShapes(t *testing.T) {
	cases := []struct {
		name, doc  string
		format     Format
		entry      string
		wantSchema bool
	}{
		{"bare array of MCP tools", `[{"name":"a","description":"d","inputSchema":` + schemaA + `}]`, FormatMCP, "tools[0]", true},
		{"MCP tools/list result", `{"tools":[{"name":"a","description":"d","inputSchema":` + schemaA + `}]}`, FormatMCP, "tools[0]", true},
		{"JSON-RPC response", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","description":"d","inputSchema":` + schemaA + `}]}}`, FormatMCP, "result.tools[0]", true},
		{"plain entry without schema", `[{"name":"a","description":"d"}]`, FormatMCP, "tools[0]", false},
		{"OpenAI chat", `[{"type":"function","function":{"name":"a","description":"d","parameters":` + schemaA + `}}]`, FormatOpenAIChat, "tools[0]", true},
		{"OpenAI chat without type", `[{"function":{"name":"a","description":"d","parameters":` + schemaA + `}}]`, FormatOpenAIChat, "tools[0]", true},
		{"OpenAI responses", `[{"type":"function","name":"a","description":"d","parameters":` + schemaA + `}]`, FormatOpenAIResponses, "tools[0]", true},
		{"Anthropic", `[{"name":"a","description":"d","input_schema":` + schemaA + `}]`, FormatAnthropic, "tools[0]", true},
		{"Anthropic custom type", `[{"type":"custom","name":"a","description":"d","input_schema":` + schemaA + `}]`, FormatAnthropic, "tools[0]", true},
		{"Gemini object", `{"functionDeclarations":[{"name":"a","description":"d","parameters":` + schemaA + `}]}`, FormatGemini, "tools[0].functionDeclarations[0]", true},
		{"Gemini snake case", `[{"function_declarations":[{"name":"a","description":"d","parameters":` + schemaA + `}]}]`, FormatGemini, "tools[0].function_declarations[0]", true},
		{"Gemini inside tools", `{"tools":[{"functionDeclarations":[{"name":"a","description":"d","parameters":` + schemaA + `}]}]}`, FormatGemini, "tools[0].functionDeclarations[0]", true},
		{"one MCP tool on its own", `{"name":"a","description":"d","inputSchema":` + schemaA + `}`, FormatMCP, "tools[0]", true},
		{"one OpenAI chat tool on its own", `{"type":"function","function":{"name":"a","description":"d","parameters":` + schemaA + `}}`, FormatOpenAIChat, "tools[0]", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cat := parse(t, c.doc)
			if len(cat.Tools) != 1 {
				t.Fatalf("%d tools, want 1", len(cat.Tools))
			}
			tool := cat.Tools[0]
			if tool.Name != "a" || tool.Description != "d" || !tool.HasDescription || tool.Format != c.format || tool.Entry != c.entry {
				t.Errorf("got name %q desc %q format %s entry %s; want a, d, %s, %s", tool.Name, tool.Description, tool.Format, tool.Entry, c.format, c.entry)
			}
			if c.wantSchema && tool.Schema.JSON() != schemaA {
				t.Errorf("schema %s, want %s", tool.Schema.JSON(), schemaA)
			}
			if !c.wantSchema && tool.Schema != nil {
				t.Errorf("schema %s, want none", tool.Schema.JSON())
			}
		})
	}
}

func TestMixedEntriesKeepOrder(t *testing.T) {
	cat := parse(t, `[
	  {"name":"m","inputSchema":{}},
	  {"type":"function","function":{"name":"c","parameters":{}}},
	  {"functionDeclarations":[{"name":"g1"},{"name":"g2"}]},
	  {"type":"function","name":"r","parameters":{}},
	  {"name":"a","input_schema":{}}
	]`)
	var got []string
	for i, tool := range cat.Tools {
		got = append(got, tool.Name+":"+string(tool.Format))
		if tool.Index != i {
			t.Errorf("%s has index %d, want %d", tool.Name, tool.Index, i)
		}
	}
	want := []string{"m:mcp", "c:openai-chat", "g1:gemini", "g2:gemini", "r:openai-responses", "a:anthropic"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tools %v, want %v", got, want)
	}
}

// TestShapeFixturesMatchDemo: the demo written in every shape loads to the
// same tools: names, descriptions and schemas.
func TestShapeFixturesMatchDemo(t *testing.T) {
	demo, err := Load("../../fixtures/demo/ops-demo.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../fixtures/shapes/*.json")
	if len(files) < 6 {
		t.Fatalf("%d shape fixtures, want every shape", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			c, err := Load(f, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Tools) != len(demo.Tools) {
				t.Fatalf("%d tools, the demo has %d", len(c.Tools), len(demo.Tools))
			}
			for i, want := range demo.Tools {
				got := c.Tools[i]
				if got.Name != want.Name || got.Description != want.Description || !jsonv.Equal(got.Schema, want.Schema) {
					t.Errorf("tools[%d] = %s, want %s with the same description and schema", i, got.Name, want.Name)
				}
				if got.Pos.Line < 2 {
					t.Errorf("%s at line %d", got.Name, got.Pos.Line)
				}
			}
		})
	}
}

func TestDeclarationsTopLevelAndMeta(t *testing.T) {
	cat := parse(t, `[
	  {"name":"top","inputSchema":{},"askOrAssume":{"w":{"assume":"2h"}},"period":{"argument":"w","spelling":"lookback"},"wants":{"q":"x"}},
	  {"name":"meta","inputSchema":{},"_meta":{"askOrAssume":{"w":{"ask":"When?"}},"period":{"argument":"w","spelling":"lookback"}}},
	  {"type":"function","function":{"name":"inner","parameters":{},"askOrAssume":{"w":{"assume":"1h"}}}},
	  {"name":"both","inputSchema":{},"askOrAssume":{"w":{"assume":"top"}},"_meta":{"askOrAssume":{"w":{"assume":"meta"}}}},
	  {"name":"none","inputSchema":{}}
	]`)
	want := []struct{ ask, period, wants string }{
		{`{"w":{"assume":"2h"}}`, `{"argument":"w","spelling":"lookback"}`, `{"q":"x"}`},
		{`{"w":{"ask":"When?"}}`, `{"argument":"w","spelling":"lookback"}`, "null"},
		{`{"w":{"assume":"1h"}}`, "null", "null"},
		{`{"w":{"assume":"top"}}`, "null", "null"}, // a top-level key wins over _meta
		{"null", "null", "null"},
	}
	for i, w := range want {
		tool := cat.Tools[i]
		if got := [3]string{tool.AskOrAssume.JSON(), tool.Period.JSON(), tool.Wants.JSON()}; got != [3]string{w.ask, w.period, w.wants} {
			t.Errorf("%s: declarations %v, want %v", tool.Name, got, w)
		}
	}
	if m := cat.Tools[1].Meta; m == nil || !m.Has("period") {
		t.Error("_meta not kept")
	}
}

// TestFidelity: key order and number text survive loading (SPEC §1.3).
func TestFidelity(t *testing.T) {
	cat := parse(t, `[{"name":"a","inputSchema":{"type":"object","properties":{"zeta":{"type":"integer","maximum":1e2},"alpha":{"enum":[1.0,2.50]},"mid":{}}}}]`)
	s := cat.Tools[0].Schema
	var order []string
	for _, m := range s.Get("properties").Members {
		order = append(order, m.Key)
	}
	if !reflect.DeepEqual(order, []string{"zeta", "alpha", "mid"}) {
		t.Errorf("property order %v", order)
	}
	if got := s.Get("properties").JSON(); got != `{"zeta":{"type":"integer","maximum":1e2},"alpha":{"enum":[1.0,2.50]},"mid":{}}` {
		t.Errorf("number text or order lost: %s", got)
	}
}

func TestMCPExtrasAndStrict(t *testing.T) {
	cat := parse(t, `[
	  {"name":"a","title":"Tool A","annotations":{"readOnlyHint":true},"outputSchema":{"type":"object"},"_meta":{"x":1},"inputSchema":{}},
	  {"type":"function","name":"b","parameters":{},"strict":true},
	  {"name":"c","description":null}
	]`)
	a := cat.Tools[0]
	if a.Title != "Tool A" || a.Annotations.JSON() != `{"readOnlyHint":true}` || a.OutputSchema.JSON() != `{"type":"object"}` || a.Meta.JSON() != `{"x":1}` || a.Raw == nil {
		t.Errorf("MCP extras lost: %+v", a)
	}
	if b := cat.Tools[1]; b.Strict == nil || !*b.Strict {
		t.Error("strict flag lost")
	}
	if c := cat.Tools[2]; c.HasDescription || cat.Tools[0].HasDescription {
		t.Error("a null or absent description counts as one")
	}
}

// An Anthropic tool keeps its input_examples, the argument objects in
// order; bad ones are one error naming the entry and the example.
func TestAnthropicInputExamples(t *testing.T) {
	cat := parse(t, `[
	  {"name":"a","input_schema":`+schemaA+`,"input_examples":[{"id":"vol-1"},{"id":"vol-2","extra":[1.50]}]},
	  {"name":"b","input_schema":{},"input_examples":null},
	  {"name":"c","input_schema":{}},
	  {"name":"d","inputSchema":{},"input_examples":"not read: MCP has none"}
	]`)
	var got []string
	for _, ex := range cat.Tools[0].InputExamples {
		got = append(got, ex.JSON())
	}
	if want := []string{`{"id":"vol-1"}`, `{"id":"vol-2","extra":[1.50]}`}; !reflect.DeepEqual(got, want) {
		t.Errorf("a's input_examples %q; want %q", got, want)
	}
	for _, tl := range cat.Tools[1:] {
		if tl.InputExamples != nil {
			t.Errorf("%s: input_examples %v; want none", tl.Name, tl.InputExamples)
		}
	}
	for _, tc := range []struct{ doc, err string }{
		{`[{"name":"a","input_schema":{},"input_examples":{"id":"x"}}]`, `test.json:1:2: tools[0]: tool "a": input_examples is an object, want an array of argument objects`},
		{`[{"name":"a","input_schema":{},"input_examples":[{"id":"x"},"find x"]}]`, `test.json:1:2: tools[0]: tool "a": input_examples[1] is a string, want an object of arguments`},
	} {
		_, err := Parse("test.json", []byte(tc.doc))
		if err == nil || err.Error() != tc.err {
			t.Errorf("%s: err %v; want %q", tc.doc, err, tc.err)
		}
	}
}

func TestPositions(t *testing.T) {
	cat := parse(t, "{\n  \"tools\": [\n    {\"name\": \"a\"},\n\n      {\"name\": \"b\"},\n    {\"functionDeclarations\": [\n      {\"name\": \"g\"}]}\n  ]\n}")
	want := []jsonv.Pos{{Line: 3, Col: 5}, {Line: 5, Col: 7}, {Line: 7, Col: 7}}
	for i, w := range want {
		if p := cat.Tools[i].Pos; p.Line != w.Line || p.Col != w.Col {
			t.Errorf("%s at %d:%d, want %d:%d", cat.Tools[i].Name, p.Line, p.Col, w.Line, w.Col)
		}
	}
}

func TestDuplicateKeys(t *testing.T) {
	cat := parse(t, `[{"name":"x","name":"a","inputSchema":{"properties":{"p":{"type":"string","type":"integer"},"p":{}},"required":["p"]}},{"name":"b"}]`)
	a := cat.Tools[0]
	if a.Name != "a" {
		t.Errorf("name %q: the last duplicate should win", a.Name)
	}
	if want := []string{"name", "inputSchema.properties.p"}; !reflect.DeepEqual(a.DuplicateKeys, want) {
		t.Errorf("DuplicateKeys %v, want %v", a.DuplicateKeys, want)
	}
	if len(cat.Tools[1].DuplicateKeys) != 0 {
		t.Errorf("b has duplicates %v", cat.Tools[1].DuplicateKeys)
	}
}

// TestBadInput: every bad input of SPEC §1.4 gives one line naming the
// file, the entry when there is one, and what is wrong.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	plain := filepath.Join(dir, "plain.json")
	if err := os.WriteFile(plain, []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := func(name string) string { return filepath.Join("../../fixtures/broken", name) }
	cases := []struct {
		name, path string
		want       []string
	}{
		{"not JSON", broken("not-json.json"), []string{"not-json.json:2:66: tools[0]: not valid JSON: unexpected ','"}},
		{"empty file", broken("empty.json"), []string{"empty.json:1:1: not valid JSON: no JSON value"}},
		{"unknown shape", broken("unknown-shape.json"), []string{"unknown-shape.json: unknown shape"}},
		{"tools not an array", broken("tools-not-array.json"), []string{"tools is an object, want an array"}},
		{"a bare string", broken("string-document.json"), []string{"the document is a string"}},
		{"JSON-RPC error", broken("jsonrpc-error.json"), []string{"JSON-RPC error response: Method not found"}},
		{"entry without a name", broken("no-name.json"), []string{"no-name.json:4:3: tools[2]: no name"}},
		{"name not a string", broken("name-not-string.json"), []string{"name-not-string.json:3:3: tools[1]: name is a number, want a string"}},
		{"Gemini declaration without a name", broken("gemini-no-name.json"), []string{"gemini-no-name.json:2:44: tools[0].functionDeclarations[1]: no name"}},
		{"entry not an object", broken("entry-not-object.json"), []string{"tools[1]: entry is a string"}},
		{"function not an object", broken("openai-function-not-object.json"), []string{"tools[0]: function is a string"}},
		{"description not a string", broken("description-not-string.json"), []string{`tools[0]: tool "get_volume_status": description is an array`}},
		{"provider built-in tool", broken("builtin-tool.json"), []string{`tools[1]: unknown tool type "web_search_preview"`}},
		{"invalid UTF-8", broken("invalid-utf8.json"), []string{"invalid-utf8.json:1:61: tools[0]: not valid JSON: invalid UTF-8 (byte 0xe9)"}},
		{"nesting deeper than 512", broken("too-deep.json"), []string{"too-deep.json:1:553: tools[0]: not valid JSON: nesting deeper than 512 levels"}},
		{"over 64 MiB", big, []string{"big.json: file is 67108865 bytes, over the 64 MiB limit"}},
		{"missing file", filepath.Join(dir, "nope.json"), []string{"nope.json: cannot read: no such file or directory"}},
		{"unreadable path", filepath.Join(plain, "x.json"), []string{"x.json: cannot read: not a directory"}},
		{"directory", dir, []string{"is a directory, want a catalog file"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(c.path, nil)
			if err == nil {
				t.Fatal("loaded")
			}
			msg := err.Error()
			if _, ok := err.(*Error); !ok || strings.ContainsAny(msg, "\n\r") {
				t.Errorf("not one *Error line: %T %q", err, msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestStdin(t *testing.T) {
	c, err := Load("-", strings.NewReader(`[{"name":"a"}]`))
	if err != nil || c.Source != "stdin" || len(c.Tools) != 1 {
		t.Errorf("Load(-) = %v, %v", c, err)
	}
	if _, err := Load("-", nil); err == nil || !strings.HasPrefix(err.Error(), "stdin: ") {
		t.Errorf("Load(-, nil) = %v, want a stdin error", err)
	}
	if _, err := Load("-", strings.NewReader(`[{"name":"a"},{"name":`)); err == nil || !strings.Contains(err.Error(), "stdin:1:23: tools[1]: not valid JSON") {
		t.Errorf("truncated stdin: %v", err)
	}
}

func TestSyntaxErrorEntry(t *testing.T) {
	cases := []struct{ doc, entry string }{
		{`[{"name":"a"},{"name":"b",}]`, "tools[1]"},
		{`{"tools":[{"name":"a\"],["},{"x":[1,2,]}]}`, "tools[1]"},
		{`{"jsonrpc":"2.0","result":{"tools":[{},{},{"name":tru}]}}`, "result.tools[2]"},
		{`{"other":[{"a":1},{"b":}]}`, ""},
		{`[1,2`, ""},
	}
	for _, c := range cases {
		_, err := Parse("t", []byte(c.doc))
		e, ok := err.(*Error)
		if !ok || e.Entry != c.entry {
			t.Errorf("%s: error %v, want entry %q", c.doc, err, c.entry)
		}
	}
}

func TestLookupAndNearest(t *testing.T) {
	cat := parse(t, `[{"name":"get_volume_status"},{"name":"hist_volume_status"},{"name":"list_volumes"},{"name":"get_volume_status"}]`)
	if tool, ok := cat.Lookup("get_volume_status"); !ok || tool.Index != 0 {
		t.Error("Lookup should find the first tool of a name")
	}
	if _, ok := cat.Lookup("nope"); ok {
		t.Error("Lookup found a missing tool")
	}
	if got := cat.Nearest("get_volume_statu", 2); !reflect.DeepEqual(got, []string{"get_volume_status", "hist_volume_status"}) {
		t.Errorf("Nearest = %v", got)
	}
	if got := cat.Nearest("volumes", 1); !reflect.DeepEqual(got, []string{"list_volumes"}) {
		t.Errorf("Nearest(substring) = %v", got)
	}
}

// zeros is n bytes of spaces, or for ever when n < 0; read counts what
// was read.
type zeros struct{ n, read int64 }

func (z *zeros) Read(b []byte) (int, error) {
	if z.n >= 0 && z.read >= z.n {
		return 0, io.EOF
	}
	if z.n >= 0 && int64(len(b)) > z.n-z.read {
		b = b[:z.n-z.read]
	}
	for i := range b {
		b[i] = ' '
	}
	z.read += int64(len(b))
	return len(b), nil
}

func TestReadLimited(t *testing.T) {
	cases := []struct {
		name string
		n    int64
		ok   bool
	}{
		{"empty", 0, true},
		{"small", 10, true},
		{"exactly the limit", MaxFileBytes, true},
		{"one byte over", MaxFileBytes + 1, false},
		{"endless", -1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			z := &zeros{n: c.n}
			data, err := ReadLimited("src", z, 0)
			if c.ok {
				if err != nil || int64(len(data)) != c.n {
					t.Fatalf("got %d bytes, %v; want %d bytes", len(data), err, c.n)
				}
				return
			}
			want := "src: over the 64 MiB input limit (reading stopped there)"
			var ce *Error
			if !errors.As(err, &ce) || err.Error() != want {
				t.Fatalf("error %v, want %q", err, want)
			}
			if z.read > MaxFileBytes+1 {
				t.Errorf("read %d bytes, want no more than the limit and one", z.read)
			}
		})
	}
}

// TestLeadingBOMIsSkipped: a catalog saved with a byte order mark reads as
// without it; positions count from the character after the mark.
func TestLeadingBOMIsSkipped(t *testing.T) {
	c := parse(t, "\ufeff[{\"name\":\"a\"},\n {\"name\":\"b\"}]")
	if len(c.Tools) != 2 || c.Tools[0].Pos.Line != 1 || c.Tools[0].Pos.Col != 2 || c.Tools[1].Pos.Col != 2 {
		t.Errorf("tools %+v, want a at 1:2 and b at 2:2", c.Tools)
	}
	_, err := Parse("test.json", []byte("\ufeff[{\"name\":\"a\"},\n {\"name\":\"b\",}]"))
	if want := "test.json:2:14: tools[1]: not valid JSON: unexpected '}', want a string key"; err == nil || err.Error() != want {
		t.Errorf("Parse error = %v, want %q", err, want)
	}
}

// Reading a catalog with a large array costs an allocation or so per
// item (its value), not a path string per item: the duplicate-key walk
// spells a path only for a duplicate found.
func TestLargeArrayAllocations(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString(`[{"name": "get_x", "description": "Returns the x of a thing by its id.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}, "x-data": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"a": [1]}`)
	}
	b.WriteString(`], "x-dup": [{"k": 1, "k": 2}]}]`)
	data := []byte(b.String())
	cat, err := Parse("t.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if got := cat.Tools[0].DuplicateKeys; len(got) != 1 || got[0] != "x-dup[0].k" {
		t.Errorf("duplicate keys %q, want x-dup[0].k", got)
	}
	allocs := testing.AllocsPerRun(2, func() {
		if _, err := Parse("t.json", data); err != nil {
			t.Fatal(err)
		}
	})
	// Each item is an object, its member and a one-item array: about
	// five allocations of the tree's own.
	if per := allocs / n; per > 6 {
		t.Errorf("%.1f allocations per array item, want at most 6", per)
	}
}
