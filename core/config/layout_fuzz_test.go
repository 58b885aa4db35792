package config

import (
	"bytes"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
)

// render is the library's rendering of data, as Marshal writes a config;
// nil when data is not one YAML document.
func render(data []byte) []byte {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || doc.Kind == 0 {
		return nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if enc.Encode(&doc) != nil || enc.Close() != nil {
		return nil
	}
	return b.Bytes()
}

// FuzzKeepLayout gives the layout pass any file as it was read and any
// rendering as the edit: the result holds the edit's values (the layout
// never changes what the config says), and a rendering given itself as
// the file comes back unchanged.
func FuzzKeepLayout(f *testing.F) {
	f.Add("version: 1\n\n# c\nignore:\n    - tool: a\n      reason: r\n", "version: 1\nignore:\n  - tool: a\n    reason: r\n  - tool: b\n    reason: s\n")
	f.Add("# only\n# comments\n", "strict: true\n")
	f.Add("a:\n      - x\n  # c\n      - y\n", "a:\n  - x\n  - y\n  - z\n")
	f.Add("a: 1\r\nb: |\n   text\n\n   more\n", "b: |\n  text\n\n  more\na: 1\n")
	f.Fuzz(func(t *testing.T, orig, edit string) {
		out := render([]byte(edit))
		if out == nil {
			return
		}
		var want any
		if yaml.Unmarshal(out, &want) != nil {
			return
		}
		got := keepLayout([]byte(orig), out)
		var back any
		if err := yaml.Unmarshal(got, &back); err != nil || !reflect.DeepEqual(back, want) {
			t.Fatalf("the layout changed what the file says (%v):\n%s\nfrom\n%s", err, got, out)
		}
		if again := keepLayout(out, out); !bytes.Equal(again, out) {
			t.Fatalf("a rendering given itself changed:\n%q\nto\n%q", out, again)
		}
	})
}
