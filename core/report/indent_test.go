package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

var indentCases = []string{
	`{}`, `[]`, `""`, `0`, `null`,
	`{"a":[],"b":{},"c":[{}],"d":[[]]}`,
	`{"ok":true,"toolCount":2,"tools":[{"name":"a","n":-1.5e3},{"name":"b","tags":["x","y"]}]}`,
	`{"s":"a \"quoted\" {brace} [bracket], colon: here","t":"back\\slash\\","u":"\u2028 \u0000"}`,
	`["\\\"",{"k\"ey":"v"}]`,
	`{"deep":{"deeper":{"deepest":[1,2,[3,[4,{}]]]}}}`,
}

// The indenting is json.Indent's with two spaces, on any JSON text
// compacted as the encoder writes it, with or without its final newline.
func TestIndentCompact(t *testing.T) {
	for _, src := range indentCases {
		for _, nl := range []string{"", "\n"} {
			checkIndent(t, []byte(src+nl))
		}
	}
}

// writeIndented writes what the encoder writes with SetIndent.
func TestWriteIndented(t *testing.T) {
	v := map[string]any{"html": "<a href=\"x\">&</a>", "list": []int{}, "obj": map[string]any{"z": []string{"é", "\u202e"}}}
	var want, got bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := writeIndented(&got, v); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
	if err := writeIndented(&got, func() {}); err == nil {
		t.Error("a value JSON cannot hold: no error")
	}
}

func FuzzIndentCompact(f *testing.F) {
	for _, src := range indentCases {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !json.Valid(src) {
			return
		}
		checkIndent(t, src)
	})
}

func checkIndent(t *testing.T, src []byte) {
	t.Helper()
	var compact bytes.Buffer
	if err := json.Compact(&compact, src); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if bytes.HasSuffix(src, []byte("\n")) {
		compact.WriteByte('\n')
	}
	var want bytes.Buffer
	if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if got := indentCompact(nil, compact.Bytes()); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("%q:\n got %q\nwant %q", compact.Bytes(), got, want.Bytes())
	}
}
