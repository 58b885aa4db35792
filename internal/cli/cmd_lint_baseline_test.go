package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The baseline flow CI uses: accept today's results, then fail only on
// what a change adds.
func TestLintBaseline(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "baseline.json")
	lint := []string{"lint", "--embedder", "mock", "--scoring", "cosine"}
	code, out, errOut := runCmd("", append(lint, "--write-baseline", base, demoPath)...)
	if code != 0 || errOut != "" || !strings.Contains(out, "wrote the baseline "+base) {
		t.Fatalf("--write-baseline: exit %d, %s\n%.400s", code, errOut, out)
	}
	first, _ := os.ReadFile(base)
	// The same catalog against it passes; writing again gives the same file.
	if code, out, _ := runCmd("", append(lint, "--baseline", base, "--write-baseline", base, demoPath)...); code != 0 {
		t.Errorf("the baselined catalog: exit %d\n%.600s", code, out)
	}
	if again, _ := os.ReadFile(base); string(again) != string(first) {
		t.Error("a second run wrote a different baseline")
	}
	// The demo reversed, with a new undescribed tool: only that fails.
	data, err := os.ReadFile(demoPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Tools []json.RawMessage }
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	tools := doc.Tools
	changed := []json.RawMessage{json.RawMessage(`{"name": "zz_new_tool", "inputSchema": {"type": "object"}}`)}
	for i := len(tools) - 1; i >= 0; i-- {
		changed = append(changed, tools[i])
	}
	js, _ := json.Marshal(changed)
	path := writeFile(t, "changed.json", string(js))
	code, out, _ = runCmd("", append(lint, "--baseline", base, "--format", "json", path)...)
	var r struct {
		OK       bool `json:"ok"`
		Baseline struct {
			New, NewFailing, Absent int
		} `json:"baseline"`
		Structural []struct{ Tool, BaselineState string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if code != 1 || r.OK || r.Baseline.NewFailing == 0 {
		t.Errorf("a new undescribed tool must fail: exit %d %+v", code, r.Baseline)
	}
	for _, f := range r.Structural {
		if (f.Tool == "zz_new_tool") != (f.BaselineState == "new") {
			t.Errorf("finding on %s is %s", f.Tool, f.BaselineState)
		}
	}
	// SARIF marks every result.
	_, out, _ = runCmd("", append(lint, "--baseline", base, "--format", "sarif", path)...)
	if strings.Count(out, `"baselineState"`) != strings.Count(out, `"ruleId"`) {
		t.Errorf("SARIF results without a baselineState")
	}
	// Errors: a missing or broken baseline is an input error, in one line.
	broken := writeFile(t, "broken.json", `{"kind": "toolscope-baseline", "version": 1, "extra": true}`)
	for _, c := range []struct{ file, want string }{
		{filepath.Join(dir, "nope.json"), "nope.json: cannot read"},
		{broken, `broken.json: 1:60: unknown field "extra"`},
	} {
		code, _, errOut := runCmd("", append(lint, "--baseline", c.file, demoPath)...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("--baseline %s: exit %d %q, want %q", c.file, code, errOut, c.want)
		}
	}
}

// With a config and a baseline, every SARIF result has a baselineState,
// the accepted ones too, which carry their suppression.
func TestLintSARIFConfigAndBaseline(t *testing.T) {
	_, out, errOut := runCmd("", "lint", "--embedder", "mock", "--config", "testdata/lint/toolscope.yaml", "--baseline", "testdata/lint/baseline.json", "--format", "sarif", "testdata/lint/tools.json")
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID        string
				BaselineState string
				Suppressions  []struct{ Kind, Justification string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("%v %s", err, errOut)
	}
	suppressed := 0
	for _, res := range log.Runs[0].Results {
		if res.BaselineState == "" {
			t.Errorf("a %s result without a baselineState", res.RuleID)
		}
		if len(res.Suppressions) > 0 {
			suppressed++
			if res.Suppressions[0].Kind != "external" || res.Suppressions[0].Justification == "" {
				t.Errorf("suppression %+v", res.Suppressions)
			}
		}
	}
	if suppressed == 0 {
		t.Error("the config's accepted pair is not in the SARIF as suppressed")
	}
}

// The run that creates a baseline says what it wrote, in one line, not a
// report of results it just accepted ("0 new, 26 unchanged"); a file
// output still gets the report.
func TestWriteBaselineSaysWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.json")
	sarif := filepath.Join(dir, "out.sarif")
	code, out, errOut := runCmd("", "lint", "--embedder", "mock", "--write-baseline", path, "--format", "text", "--format", "sarif="+sarif, "fixtures/demo/ops-demo.json")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "toolscope lint: wrote the baseline "+path+": ") ||
		!strings.Contains(out, "findings and") || !strings.Contains(out, "--baseline "+path+"` now fails only on new ones") || strings.Contains(out, "unchanged") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	if data, err := os.ReadFile(sarif); err != nil || !strings.Contains(string(data), `"2.1.0"`) {
		t.Errorf("the SARIF file: %v", err)
	}
	// Against an existing baseline, the report as always.
	code, out, _ = runCmd("", "lint", "--embedder", "mock", "--baseline", path, "--write-baseline", path, "fixtures/demo/ops-demo.json")
	if code != 0 || !strings.Contains(out, "Baseline "+path+": 0 new") {
		t.Errorf("with --baseline: exit %d\n%.400s", code, out)
	}
	// JSON to stdout stays the report: scripts read it.
	code, out, _ = runCmd("", "lint", "--embedder", "mock", "--format", "json", "--write-baseline", filepath.Join(dir, "c.json"), "fixtures/demo/ops-demo.json")
	if code != 0 || !strings.HasPrefix(out, "{") {
		t.Errorf("json: exit %d %.200s", code, out)
	}
}
