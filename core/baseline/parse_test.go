package baseline

import (
	"fmt"
	"strings"
	"testing"
)

// A key twice in one object, or a second JSON value, is an error naming
// its line and column; the same key in two objects is fine.
func TestParseRefusesDuplicateKeysAndASecondValue(t *testing.T) {
	head := `{"kind": "toolscope-baseline", "version": 1,` + "\n"
	finding := `{"rule": "r", "tool": "t", "severity": "warn", "message": "m"}`
	tests := []struct {
		name, in, err string
	}{
		{"the same key in two objects", head + `"findings": [` + finding + `, ` + finding + `], "pairs": []}`, ""},
		{"a top-level key twice", head + `"findings": [],` + "\n" + `  "findings": [` + finding + `], "pairs": []}`, `3:3: key "findings" appears twice in its object`},
		{"a finding's key twice", head + `"findings": [` + "\n" + `{"rule": "r", "tool": "t", "severity": "warn", "tool": "u", "message": "m"}], "pairs": []}`, `3:48: key "tool" appears twice in its object`},
		{"the version twice", `{"kind": "toolscope-baseline", "version": 1, "version": 1, "findings": [], "pairs": []}`, `1:46: key "version" appears twice`},
		{"a second value", head + `"findings": [], "pairs": []}` + "\n\n " + `{"kind": "x"}`, "4:2: text after the JSON value"},
		{"cut short", head + `"findings": [` + "\n", "2:14: unexpected end of input"},
		{"cut short after a key", `{"kind"`, "1:8: unexpected end of input"},
		{"a stray brace", head + `"findings": [], "pairs": []}}"`, "2:29: text after the JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Parse: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("Parse = %v, want %q", err, tt.err)
			}
		})
	}
}

// A key repeated far into a large object is found, and a large object
// of distinct keys passes.
func TestDuplicateKeyInALargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 100_000 {
		fmt.Fprintf(&b, `"k%d": %d, `, i, i)
	}
	distinct := b.String() + `"last": 0}`
	if err := duplicateKey([]byte(distinct)); err != nil {
		t.Errorf("distinct keys: %v", err)
	}
	dup := b.String() + `"k\u0035": 0}`
	if err := duplicateKey([]byte(dup)); err == nil || !strings.Contains(err.Error(), `key "k5" appears twice`) {
		t.Errorf("a repeated key spelled with an escape: %v", err)
	}
}
