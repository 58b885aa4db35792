package catalog

import (
	"strings"
	"testing"
)

func TestAppendToDescriptionsKeepsEveryOtherByte(t *testing.T) {
	src := "[\n  {\"name\": \"a\",   \"description\": \"Does a. \\u00e9\\n\", \"inputSchema\": {\"type\": \"object\"}},\n" +
		"  {\"type\": \"function\", \"function\": {\"name\": \"b\", \"description\": \"Does b.\", \"parameters\": {}}},\n" +
		"  {\"name\": \"c\", \"description\": \"Does c.\"}\n]\n"
	cat, err := Parse("tools.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := AppendToDescriptions([]byte(src), cat, map[string]string{"a": "Use it for \"x\" <y>.", "b": "Not for a."})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(src, `\n", "inputSchema"`, `\n Use it for \"x\" <y>.", "inputSchema"`, 1), `"Does b."`, `"Does b. Not for a."`, 1)
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	back, err := Parse("tools.json", out)
	if err != nil {
		t.Fatal(err)
	}
	if back.Tools[0].Description != "Does a. é\n Use it for \"x\" <y>." || back.Tools[1].Description != "Does b. Not for a." || back.Tools[2].Description != "Does c." {
		t.Errorf("descriptions %q %q %q", back.Tools[0].Description, back.Tools[1].Description, back.Tools[2].Description)
	}
	for _, tc := range []struct {
		add map[string]string
		src string
		err string
	}{
		{map[string]string{"z": "x"}, src, `no tool "z"`},
		{map[string]string{"d": "x"}, `[{"name": "d", "inputSchema": {}}]`, `tool "d" has no description string`},
	} {
		c, err := Parse("t.json", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := AppendToDescriptions([]byte(tc.src), c, tc.add); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: %v; want %q", tc.add, err, tc.err)
		}
	}
}

func FuzzAppendToDescriptions(f *testing.F) {
	f.Add([]byte(`[{"name": "a", "description": "x\"y\\"}, {"name": "b", "description": ""}]`), "one more.")
	f.Add([]byte(`{"tools": [{"name": "a", "description": "d", "inputSchema": {}}]}`), "\u2028 \"q\"")
	f.Fuzz(func(t *testing.T, data []byte, sentence string) {
		cat, err := Parse("f.json", data)
		if err != nil || len(cat.Tools) == 0 {
			return
		}
		first := cat.Tools[0]
		out, err := AppendToDescriptions(data, cat, map[string]string{first.Name: sentence})
		if err != nil {
			return
		}
		back, err := Parse("f.json", out)
		if err != nil {
			t.Fatalf("the written catalog does not parse: %v\n%s", err, out)
		}
		if len(back.Tools) != len(cat.Tools) {
			t.Fatalf("%d tools, then %d", len(cat.Tools), len(back.Tools))
		}
		sep := " "
		if first.Description == "" {
			sep = ""
		}
		if got, _ := back.Lookup(first.Name); got.Description != first.Description+sep+sentence && strings.ToValidUTF8(sentence, "\uFFFD") == sentence {
			t.Fatalf("description %q; want %q", got.Description, first.Description+sep+sentence)
		}
		for i, tl := range back.Tools[1:] {
			if tl.Description != cat.Tools[i+1].Description && tl.Name != first.Name {
				t.Fatalf("tool %s changed", tl.Name)
			}
		}
	})
}
