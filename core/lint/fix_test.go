package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/core/catalog"
)

// findingKey names a finding across a fix: a rename changes the tool's
// name, not its place.
func findingKey(f Finding) string {
	return fmt.Sprintf("%s@%d.%s", f.Rule, f.ToolIndex, f.Param)
}

// relint applies ops to data and lints the result with set's rules.
func relint(t *testing.T, name string, data []byte, ops []catalog.PatchOp, set RuleSet) []Finding {
	t.Helper()
	fixed, err := catalog.ApplyPatch(data, ops)
	if err != nil {
		t.Fatalf("%s: the fixes do not apply: %v", name, err)
	}
	cat, err := catalog.Parse(name, fixed)
	if err != nil {
		t.Fatalf("%s: the fixed catalog does not load: %v", name, err)
	}
	opts := DefaultOptions()
	opts.Rules = RulesOf(set)
	return Structural(cat, opts)
}

// checkFixed fails for a fixed finding still there or an error that was
// not there before.
func checkFixed(t *testing.T, what string, before, after []Finding, fixed []Finding) {
	t.Helper()
	had := map[string]bool{}
	for _, f := range before {
		had[findingKey(f)] = true
	}
	still := map[string]bool{}
	for _, f := range after {
		still[findingKey(f)] = true
		if f.Severity == SeverityError && !had[findingKey(f)] {
			t.Errorf("%s: a new error: %s %s: %s", what, f.Rule, f.Tool, f.Message)
		}
	}
	for _, f := range fixed {
		if still[findingKey(f)] {
			t.Errorf("%s: %s on %s (%s) is still there after its fix %v", what, f.Rule, f.Tool, f.Param, f.Fix)
		}
	}
}

// TestEveryProposedFixApplies applies every fix toolscope proposes on the
// shared real catalogs, all at once (as lint --fix does) and, on the
// smaller catalogs, one at a time: each removes its finding and none adds
// an error.
func TestEveryProposedFixApplies(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/catalogs/*/*.json")
	if len(files) == 0 {
		t.Skip("no shared catalogs at ../../../shared/catalogs beside the repository")
	}
	total := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		cat, err := catalog.Parse(file, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, set := range []RuleSet{RuleSetRecommended, RuleSetAll} {
			opts := DefaultOptions()
			opts.Rules = RulesOf(set)
			before := Structural(cat, opts)
			var fixed []Finding
			var all []catalog.PatchOp
			for _, f := range before {
				if len(f.Fix) > 0 {
					fixed = append(fixed, f)
					all = append(all, f.Fix...)
				}
			}
			if len(fixed) == 0 {
				continue
			}
			total += len(fixed)
			name := filepath.Base(file)
			checkFixed(t, name+" ("+string(set)+", all fixes)", before, relint(t, name, data, all, set), fixed)
			if len(cat.Tools) > 300 {
				continue
			}
			for _, f := range fixed {
				checkFixed(t, fmt.Sprintf("%s (%s, %s on %s)", name, set, f.Rule, f.Tool), before, relint(t, name, data, f.Fix, set), []Finding{f})
			}
		}
	}
	t.Logf("%d fixes applied", total)
}

// TestFixesAreCompleteAndStated pins which findings carry a fix: a
// mechanical one the catalog states, never a guess.
func TestFixesAreCompleteAndStated(t *testing.T) {
	for _, tc := range []struct {
		name, catalog string
		rule          string
		fix           string // the fix's ops as JSON, "" for none
		suggestion    string // in the suggestion
	}{
		{"a dotted name, MCP", `{"tools": [{"name": "math.sum", "description": "Adds numbers up and returns their sum.", "inputSchema": {"type": "object"}}]}`,
			RuleNameLimits, `[{"op":"test","path":"/tools/0/name","value":"math.sum"},{"op":"replace","path":"/tools/0/name","value":"math_sum"}]`, `"name": "math_sum"`},
		{"a dotted name, OpenAI chat", `[{"type": "function", "function": {"name": "math.sum", "description": "Adds numbers up and returns their sum.", "parameters": {"type": "object"}}}]`,
			RuleNameLimits, `[{"op":"test","path":"/0/function/name","value":"math.sum"},{"op":"replace","path":"/0/function/name","value":"math_sum"}]`, `"name": "math_sum"`},
		{"a rename onto a taken name is no fix", `{"tools": [{"name": "math.sum", "description": "Adds numbers up and returns their sum."}, {"name": "math_sum", "description": "Adds numbers up and returns their sum, too."}]}`,
			RuleNameLimits, ``, `"math_sum" is taken`},
		{"two renames onto one name are no fix", `{"tools": [{"name": "math.sum", "description": "Adds numbers up and returns their sum."}, {"name": "math sum", "description": "Adds numbers up and returns their sum, too."}]}`,
			RuleNameLimits, ``, `is taken`},
		{"a name over 64 characters is not cut", `{"tools": [{"name": "` + strings.Repeat("a", 70) + `", "description": "Adds numbers up and returns their sum."}]}`,
			RuleNameLimits, ``, `at most 64 characters`},
		{"values listed in prose, Gemini", `[{"functionDeclarations": [{"name": "rank", "description": "Ranks the ports by one figure of their traffic.", "parameters": {"type": "object", "properties": {"metric": {"type": "string", "description": "avg_iops | peak_iops | mbps"}}}}]}]`,
			RuleEnumInProse, `[{"op":"add","path":"/0/functionDeclarations/0/parameters/properties/metric/enum","value":["avg_iops","peak_iops","mbps"]}]`, `"enum"`},
		{"a time with no unit: a question, no period guessed", `{"tools": [{"name": "schedule", "description": "Schedules a downtime for the monitors of one scope.", "inputSchema": {"type": "object", "properties": {"start": {"type": "number"}, "end": {"type": "number"}}}}]}`,
			RuleQuantityUnit, ``, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, err := catalog.Parse("t.json", []byte(tc.catalog))
			if err != nil {
				t.Fatal(err)
			}
			opts := DefaultOptions()
			opts.Rules = AllRules()
			var got *Finding
			for _, f := range Structural(cat, opts) {
				if f.Rule == tc.rule {
					got = &f
					break
				}
			}
			if got == nil {
				t.Fatalf("no %s finding", tc.rule)
			}
			fix := ""
			if got.Fix != nil {
				fix = string(jsonRaw(got.Fix))
			}
			if fix != tc.fix {
				t.Errorf("fix %s, want %s", fix, tc.fix)
			}
			if !strings.Contains(got.Suggestion, tc.suggestion) || (tc.suggestion == "" && got.Suggestion != "") {
				t.Errorf("suggestion %q, want it to hold %q", got.Suggestion, tc.suggestion)
			}
			if tc.rule == RuleQuantityUnit && (strings.Contains(got.Message, "epoch") || !strings.Contains(got.Message, "which is it?")) {
				t.Errorf("message %q asserts a unit or asks nothing", got.Message)
			}
		})
	}
}
