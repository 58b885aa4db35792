package lint

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/validate"
)

// One catalog's patterns share one compile budget: a thousand distinct
// patterns of 4,090 characters nested 31 deep, each within every limit
// alone, are compiled until the budget's length is spent, and each one
// left out gets a finding saying so.
func TestPatternsShareOneBudget(t *testing.T) {
	const n = 1000
	var tools []map[string]any
	for i := range n {
		body := strings.Repeat("(a?", 31) + fmt.Sprintf("x%d", i) + strings.Repeat(")", 31)
		p := body + strings.Repeat("b", 4090-len(body))
		tools = append(tools, map[string]any{"name": fmt.Sprintf("tool_%d", i), "description": "Does one thing; use it when asked for that thing.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string", "pattern": p}}}})
	}
	data, _ := json.Marshal(tools)
	cat, err := catalog.Parse("c.json", data)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultOptions()
	opts.Rules = []Rule{PatternRule()}
	skipped := 0
	for _, f := range Structural(cat, opts) {
		if f.Rule == RulePatternNotECMA && strings.Contains(f.Message, "is not compiled (lint's budget for compiling one catalog's patterns") {
			skipped++
		}
	}
	// The length budget holds 256 of them; the time budget may hold fewer
	// on a slow machine, never more.
	if want := n - validate.LintPatternChars/4090; skipped < want {
		t.Errorf("%d patterns left out, want at least %d", skipped, want)
	}
	if skipped == n {
		t.Error("no pattern was compiled")
	}
}

// type-not-a-name flags each entry of a type union that is not a string,
// and a type that is neither a name nor a list; names, known or not, pass.
func TestTypeNotANameRule(t *testing.T) {
	tests := []struct {
		schema string
		want   []string // "param: message start"
	}{
		{`{"type": "object", "properties": {"a": {"type": ["string", "null"]}, "b": {"type": "strng"}}}`, nil},
		{`{"type": "object", "properties": {"a": {"type": [1, "string"]}}}`, []string{`a: type [1,"string"] holds 1, which is no type name`}},
		{`{"type": "object", "properties": {"a": {"type": [{}, "string", true]}}}`, []string{`a: type [{},"string",true] holds {}`, `a: type [{},"string",true] holds true`}},
		{`{"type": "object", "properties": {"a": {"type": 3}}}`, []string{`a: type 3 is a number, not a type name`}},
		{`{"type": "object", "properties": {"a": {"type": "array", "items": {"type": [null]}}}}`, []string{`a[]: type [null] holds null`}},
	}
	for _, tt := range tests {
		cat, err := catalog.Parse("c.json", []byte(`[{"name": "t", "description": "d", "inputSchema": `+tt.schema+`}]`))
		if err != nil {
			t.Fatal(err)
		}
		got := TypeNotANameRule().Check(cat.Tools[0], nil)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %d findings, want %d: %+v", tt.schema, len(got), len(tt.want), got)
			continue
		}
		for i, f := range got {
			if s := f.Param + ": " + f.Message; !strings.HasPrefix(s, tt.want[i]) {
				t.Errorf("%s: finding %q, want it to start %q", tt.schema, s, tt.want[i])
			}
		}
	}
}
