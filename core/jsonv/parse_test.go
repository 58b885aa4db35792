package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseKeepsOrderTextAndPositions(t *testing.T) {
	v, err := Parse([]byte("{\n  \"b\": 1.0,\n  \"a\": [true, null, \"x\\u00e9\"],\n  \"b\": 1e2\n}"))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.JSON(); got != `{"b":1e2,"a":[true,null,"xé"]}` {
		t.Errorf("JSON() = %s", got)
	}
	if len(v.Dups) != 1 || v.Dups[0] != "b" {
		t.Errorf("Dups = %v, want [b]", v.Dups)
	}
	a := v.Get("a")
	if a.Pos.Line != 3 || a.Pos.Col != 8 {
		t.Errorf("a at %d:%d, want 3:8", a.Pos.Line, a.Pos.Col)
	}
	if !v.Get("b").IsInteger() {
		t.Errorf("1e2 should be an integer")
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"", "line 1 column 1: no JSON value"},
		{"{", "unexpected end of input"},
		{`{"a" 1}`, "line 1 column 6: unexpected '1', want ':'"},
		{"[1,]", "want a value"},
		{"[1] x", "after the JSON value"},
		{"\"a\xffb\"", "invalid UTF-8 (byte 0xff)"},
		{"01", "after the JSON value"},
		{"-", "malformed number"},
		{"1.", "want a digit after '.'"},
		{`"\q"`, `unknown escape \q`},
		{"\"\\\n\"", "unknown escape: a backslash before control character 0x0a"},
		{"\"a\nb\"", "raw line break"},
		{strings.Repeat("[", MaxDepth+1), "nesting deeper than 512"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) error = %v, want it to contain %q", c.in, err, c.want)
		}
	}
}

func TestParseDepthLimitExact(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Errorf("%d levels should parse: %v", MaxDepth, err)
	}
}

func TestSurrogatePairs(t *testing.T) {
	v, err := Parse([]byte(`["\ud83d\ude00", "\ud83d", "\ude00x"]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"😀", "\uFFFD", "\uFFFDx"}
	for i, w := range want {
		if v.Items[i].Text != w {
			t.Errorf("item %d = %q, want %q", i, v.Items[i].Text, w)
		}
	}
}

func TestEqualIsStrictEquality(t *testing.T) {
	parse := func(s string) *Value { v, _ := Parse([]byte(s)); return v }
	cases := []struct {
		a, b string
		eq   bool
	}{
		{"1", "1.0", true}, {"1", "\"1\"", false}, {"null", "null", true},
		{"true", "false", false}, {`"a"`, `"a"`, true}, {"1e2", "100", true},
	}
	for _, c := range cases {
		if got := Equal(parse(c.a), parse(c.b)); got != c.eq {
			t.Errorf("Equal(%s, %s) = %v", c.a, c.b, got)
		}
	}
}

// FuzzParse checks that Parse never panics, agrees with encoding/json on what
// is valid, and that its output re-parses to the same tree.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\u00e9"`, `[1e5,-0.5]`, `{"a":1,"a":2}`, "\xff", `[`, bom + "{\"a\":\n[1]}", bom + bom + "1"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		// encoding/json refuses the leading BOM that Parse skips.
		if (err == nil) != json.Valid(bytes.TrimPrefix(data, []byte(bom))) && err == nil {
			// encoding/json rejects what we accepted: a real disagreement.
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if err != nil {
			// Every caller prints it as one line of a message.
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("a two-line error for %q: %q", data, err)
			}
			return
		}
		again, err := Parse([]byte(v.JSON()))
		if err != nil {
			t.Fatalf("re-parse of %s: %v", v.JSON(), err)
		}
		if !Equal(v, again) {
			t.Fatalf("round trip changed %s", v.JSON())
		}
	})
}

// TestLeadingBOMIsSkipped: a file an editor saved with a byte order mark
// parses as without it, line 1 column 1 being the character after it; a
// BOM anywhere else is still refused.
func TestLeadingBOMIsSkipped(t *testing.T) {
	v, err := Parse([]byte(bom + `{"a": [1,` + "\n" + ` "é"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Pos != (Pos{Offset: 3, Line: 1, Col: 1}) {
		t.Errorf("the object at %+v, want offset 3, line 1 column 1", v.Pos)
	}
	if got := v.Get("a").Pos; got.Line != 1 || got.Col != 7 {
		t.Errorf("a's value at %d:%d, want 1:7", got.Line, got.Col)
	}
	if got := v.Get("a").Items[1].Pos; got.Line != 2 || got.Col != 2 {
		t.Errorf("the second item at %d:%d, want 2:2", got.Line, got.Col)
	}
	cases := []struct{ in, want string }{
		{bom, "line 1 column 1: no JSON value"},
		{bom + "{", "line 1 column 2: unexpected end of input"},
		{bom + "[1 x]", "line 1 column 4: unexpected 'x'"},
		{bom + bom + "1", `line 1 column 1: unexpected '\ufeff'`},
		{" " + bom + "1", `line 1 column 2: unexpected '\ufeff'`},
		{"[1]" + bom, `unexpected '\ufeff' after the JSON value`},
	}
	for _, c := range cases {
		if _, err := Parse([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) error = %v, want it to contain %q", c.in, err, c.want)
		}
	}
}

func TestColumnsOnALongLine(t *testing.T) {
	v, err := Parse([]byte(`["é", {"k": "ü"}, 3]` + "\n" + ` `))
	if err != nil {
		t.Fatal(err)
	}
	cols := []int{2, 7, 19}
	for i, want := range cols {
		if got := v.Items[i].Pos.Col; got != want {
			t.Errorf("item %d at column %d, want %d", i, got, want)
		}
	}
	if got := v.Items[1].Get("k").Pos.Col; got != 13 {
		t.Errorf("k's value at column %d, want 13", got)
	}
}

// BenchmarkParseMinified pins that a catalog on one line parses in linear
// time (columns are counted incrementally).
func BenchmarkParseMinified(b *testing.B) {
	entry := `{"name":"t","description":"déjà vu","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}},`
	data := []byte("[" + strings.Repeat(entry, 5000) + "1]")
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

func TestArticleType(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`[]`, "an array"}, {`{}`, "an object"}, {`null`, "null"},
		{`"s"`, "a string"}, {`1`, "a number"}, {`true`, "a boolean"},
	} {
		v, err := Parse([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.ArticleType(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.in, got, tc.want)
		}
	}
	var missing *Value
	if got := missing.ArticleType(); got != "an undefined" {
		t.Errorf("nil: got %q", got)
	}
}

// quoteByRunes is Quote as it was first written, a rune at a time: the
// reference AppendQuote must match byte for byte.
func quoteByRunes(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[r>>4])
				b.WriteByte("0123456789abcdef"[r&0xf])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", `""`},
		{"plain ascii", `"plain ascii"`},
		{"q\"b\\", `"q\"b\\"`},
		{"\n\r\t\b\f", `"\n\r\t\b\f"`},
		{"\x00\x01\x1f\x7f", "\"\\u0000\\u0001\\u001f\x7f\""},
		{"<&>\u2028\u2029", "\"<&>\u2028\u2029\""},
		{"é日本🔍", `"é日本🔍"`},
		{"bad\xffbyte", "\"bad\ufffdbyte\""},
		{"\xe6\x97", "\"\ufffd\ufffd\""},
		{"\ufffd kept", "\"\ufffd kept\""},
	} {
		if got := Quote(tc.in); got != tc.want || got != quoteByRunes(tc.in) {
			t.Errorf("Quote(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\x00\xff", "日本\u2028", "\xe6\x97"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Quote(s), quoteByRunes(s); got != want {
			t.Fatalf("Quote(%q) = %q, want %q", s, got, want)
		}
	})
}

// A CR alone ends a line, as LF and CRLF do: positions in a classic Mac
// file are its lines.
func TestCROnlyLines(t *testing.T) {
	for _, tc := range []struct{ name, doc string }{
		{"LF", "{\n\"a\": 1,\n\"b\": 2\n}"},
		{"CRLF", "{\r\n\"a\": 1,\r\n\"b\": 2\r\n}"},
		{"CR", "{\r\"a\": 1,\r\"b\": 2\r}"},
	} {
		v, err := Parse([]byte(tc.doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if p := v.Get("b").Pos; p.Line != 3 || p.Col != 6 {
			t.Errorf("%s: b at %d:%d, want 3:6", tc.name, p.Line, p.Col)
		}
	}
	_, err := Parse([]byte("{\r\"a\": 1,\r\"b\" 2\r}"))
	if se, ok := err.(*SyntaxError); !ok || se.Pos.Line != 3 {
		t.Errorf("error %v, want one on line 3", err)
	}
}

// JSONC (VS Code's mcp.json): comments and trailing commas read as
// space, positions those of the file; Parse itself still refuses them.
func TestParseJSONC(t *testing.T) {
	doc := "// servers for this workspace\n{\n  /* the one\n     we use */ \"servers\": {\n    \"gh\": {\"url\": \"https://x//y\", \"note\": \"/* kept */\",}, // trailing\n  },\n}\n"
	v, err := ParseJSONC([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	gh := v.Get("servers").Get("gh")
	if u, _ := gh.Get("url").Str(); u != "https://x//y" {
		t.Errorf("url %q", u)
	}
	if n, _ := gh.Get("note").Str(); n != "/* kept */" {
		t.Errorf("note %q", n)
	}
	if p := gh.Pos; p.Line != 5 || p.Col != 11 {
		t.Errorf("gh at %d:%d, want 5:11", p.Line, p.Col)
	}
	if _, err := Parse([]byte(doc)); err == nil {
		t.Error("Parse took comments")
	}
	for _, bad := range []string{"{\"a\": 1 /* open", "[1,,]", "{,}"} {
		if _, err := ParseJSONC([]byte(bad)); err == nil {
			t.Errorf("ParseJSONC(%q) took it", bad)
		}
	}
}

// ParseJSONC never panics, keeps the input's length (positions are the
// file's), and reads what Parse accepts as Parse does.
func FuzzParseJSONC(f *testing.F) {
	for _, s := range []string{`{"a": 1,}`, "// c\n[1, /* x */ 2,]", `{"s": "//not", "t": "/*no*/"}`, "{\"a\": 1 /* open", `[,]`, `"\\"//"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		stripped := stripJSONC(data)
		if len(stripped) != len(data) {
			t.Fatalf("length %d, want %d", len(stripped), len(data))
		}
		v, err := ParseJSONC(data)
		if w, werr := Parse(data); werr == nil {
			if err != nil || !Equal(v, w) {
				t.Fatalf("Parse read %q, ParseJSONC: %v", data, err)
			}
		}
	})
}

// Indent's text grows linearly with the value, whatever its nesting:
// past IndentDepth levels it is compact, so a value nested MaxDepth deep
// (each level would indent every line below it) stays within a constant
// factor of its compact text, and reads back as the same value. A
// shallow value is indented at every level.
func TestIndentGrowsLinearlyWithNesting(t *testing.T) {
	items := strings.Repeat("1,", 2000) + "1"
	for _, depth := range []int{1, IndentDepth, IndentDepth + 1, MaxDepth - 1} {
		in := strings.Repeat("[", depth) + items + strings.Repeat("]", depth)
		v, err := Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		out := v.Indent("  ")
		if bound := (2*IndentDepth + 4) * len(in); len(out) > bound {
			t.Errorf("depth %d: %d bytes indented from %d (bound %d)", depth, len(out), len(in), bound)
		}
		back, err := Parse([]byte(out))
		if err != nil || !Equal(v, back) {
			t.Errorf("depth %d: the indented text reads back as another value (%v)", depth, err)
		}
	}
	v, _ := Parse([]byte(`{"a": [1, {"b": []}]}`))
	if got, want := v.Indent("  "), "{\n  \"a\": [\n    1,\n    {\n      \"b\": []\n    }\n  ]\n}"; got != want {
		t.Errorf("shallow: %q, want %q", got, want)
	}
	deep := strings.Repeat("[", IndentDepth+3) + strings.Repeat("]", IndentDepth+3)
	v, _ = Parse([]byte(deep))
	if out := v.Indent(" "); !strings.Contains(out, "\n"+strings.Repeat(" ", IndentDepth+1)+"[[]]\n") {
		t.Errorf("past IndentDepth the rest is not compact on its line:\n%s", out)
	}
}

// AppendJSON appends what JSON writes, after what dst holds, whatever
// room dst has.
func TestAppendJSON(t *testing.T) {
	for _, src := range []string{`{"a": [1, "x<y", {"b": null}], "c": true}`, `"s"`, `[]`, `{}`, `-0.5e3`} {
		v, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, dst := range [][]byte{nil, []byte("prefix:"), make([]byte, 3, 100)} {
			want := string(dst) + v.JSON()
			if got := string(v.AppendJSON(dst)); got != want {
				t.Errorf("%s after %q: %q, want %q", src, dst, got, want)
			}
		}
	}
}
