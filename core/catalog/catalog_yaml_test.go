package catalog

import (
	"strings"
	"testing"
)

// A YAML file given as a catalog is told it is YAML, by its name or its
// first line; other text that is not JSON is not.
func TestYAMLIsNamed(t *testing.T) {
	cases := []struct {
		source, text string
		yaml         bool
	}{
		{"tools.yaml", "tools:\n  - name: a\n", true},
		{"tools.YML", "x", true},
		{"tools.json", "tools:\n  - name: a\n", true},
		{"tools.json", "---\ntools: []\n", true},
		{"tools.json", "# the tools\n", true},
		{"tools.json", "- name: a\n", true},
		{"tools.json", "\ufeff  my-key_2: 1\r\n", true},
		{"tools.json", "hello world\n", false},
		{"tools.json", "{\"tools\": [}", false},
		{"tools.json", "key with spaces: 1\n", false},
		{"-", "", false},
	}
	for _, c := range cases {
		_, err := Parse(c.source, []byte(c.text))
		if err == nil {
			t.Fatalf("%q parsed", c.text)
		}
		if got := strings.Contains(err.Error(), "this reads as YAML"); got != c.yaml {
			t.Errorf("%s %q: %v", c.source, c.text, err)
		}
	}
}
