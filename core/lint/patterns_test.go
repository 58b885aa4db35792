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
