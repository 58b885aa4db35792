package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// withBaseline marks r as compared with a baseline: the first finding
// new, the rest unchanged, the confusable pairs updated, and a finding
// and a pair on tools no longer in the catalog absent.
func withBaseline(r *lint.Report) *lint.Report {
	for i := range r.Structural {
		r.Structural[i].BaselineState = similarity.BaselineUnchanged
	}
	r.Structural[0].BaselineState = similarity.BaselineNew
	for i := range r.Similarity.Confusable {
		r.Similarity.Confusable[i].BaselineState = similarity.BaselineUpdated
	}
	for i := range r.Similarity.Watch {
		r.Similarity.Watch[i].BaselineState = similarity.BaselineUnchanged
	}
	r.Baseline = &lint.BaselineSummary{File: "base.json", New: 1, Absent: 2, NewFailing: 1,
		AbsentFindings: []lint.Finding{{Rule: lint.RuleEnumInProse, Tool: "gone", Param: "x", Severity: lint.SeverityWarn, Message: "m", ToolIndex: -1, BaselineState: similarity.BaselineAbsent}},
		AbsentPairs:    []similarity.PairFinding{{Kind: similarity.Confusable, Pair: similarity.Pair{A: "gone", B: "list_pools", I: -1, J: 2}, BaselineState: similarity.BaselineAbsent}}}
	r.OK = false
	return r
}

func TestSARIFBaselineStates(t *testing.T) {
	r, cat := renderReport(t, similarity.ScoringCosine)
	withBaseline(r)
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r, cat, SARIFOptions{Rules: lint.DefaultRules()}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	states := map[similarity.BaselineState]int{}
	for _, res := range log.Runs[0].Results {
		states[res.BaselineState]++
		if res.BaselineState == similarity.BaselineAbsent && (res.Kind != "pass" || res.Level != "none") {
			t.Errorf("an absent result must be a pass, not an alert: %+v", res)
		}
		if len(res.PartialFingerprints[lint.FingerprintVersion]) != 32 {
			t.Errorf("result %s without a fingerprint: %v", res.RuleID, res.PartialFingerprints)
		}
	}
	want := map[similarity.BaselineState]int{similarity.BaselineNew: 1, similarity.BaselineUnchanged: len(r.Structural) - 1 + len(r.Similarity.Watch),
		similarity.BaselineUpdated: len(r.Similarity.Confusable), similarity.BaselineAbsent: 2}
	for s, n := range want {
		if states[s] != n {
			t.Errorf("%d results %s, want %d (all: %v)", states[s], s, n, states)
		}
	}
}

// A result's fingerprint is its rule, tool and parameter (a pair's: its
// two names, in either order), whatever its message or line.
func TestFingerprintsIgnoreMessageAndOrder(t *testing.T) {
	f := lint.Finding{Rule: "r", Tool: "t", Param: "p", Message: "one", Line: 3}
	g := f
	g.Message, g.Line = "two", 9
	if lint.FindingKey(f) != lint.FindingKey(g) {
		t.Error("a reworded or moved finding changed its key")
	}
	g.Param = "q"
	if lint.FindingKey(f) == lint.FindingKey(g) {
		t.Error("two parameters share a key")
	}
	if lint.PairKey("a", "b") != lint.PairKey("b", "a") || lint.PairKey("a", "b") == lint.PairKey("a", "c") {
		t.Error("pair keys must be unordered and distinct")
	}
	// The separator keeps names from running together.
	if lint.PairKey("ab", "c") == lint.PairKey("a", "bc") {
		t.Error("pair keys collide across the boundary")
	}
}

func TestGitHubAnnotations(t *testing.T) {
	r, cat := renderReport(t, similarity.ScoringCosine)
	r.Structural[0].Message = "first line\nsecond: 100%"
	var buf bytes.Buffer
	if err := WriteGitHub(&buf, r, cat); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	annotations := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "::") {
			annotations++
		}
	}
	if want := len(r.Structural) + len(r.Similarity.Confusable) + len(r.Similarity.Watch); annotations != want {
		t.Errorf("%d annotations, want %d:\n%s", annotations, want, out)
	}
	for _, want := range []string{
		"::error file=catalogs/ops demo.json,line=6,col=3,title=toolscope duplicate-name::get_volume_status: ",
		"first line%0Asecond: 100%25",
		",title=toolscope confusable-pair::",
		"::notice file=catalogs/ops demo.json,line=",
		"RESULT: FAIL (",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("github output lacks %q:\n%s", want, out)
		}
	}
	// With a baseline only what it does not cover is annotated.
	buf.Reset()
	if err := WriteGitHub(&buf, withBaseline(r), cat); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n::"); n+1 != 1+len(r.Similarity.Confusable) {
		t.Errorf("with a baseline, %d annotations, want the new finding and the updated pairs:\n%s", n+1, buf.String())
	}
	if !strings.Contains(buf.String(), "Baseline base.json: 1 new (1 failing)") {
		t.Errorf("no baseline line:\n%s", buf.String())
	}
	// A catalog from stdin has no file to annotate: no file property.
	cat.Source = "-"
	buf.Reset()
	WriteGitHub(&buf, r, cat)
	if strings.Contains(buf.String(), "file=") {
		t.Errorf("stdin annotated with a file:\n%s", buf.String())
	}
}
