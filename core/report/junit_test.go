package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"toolscope/core/similarity"
)

// TestJUnit: one suite per catalog, one case per tool; an error finding
// and a confusable pair fail their tool's case, warnings and watch pairs
// are its output; the document parses back; a catalog-wide failure is a
// case of its own; control characters are spelled out.
func TestJUnit(t *testing.T) {
	r, cat := renderReport(t, similarity.ScoringCosine)
	cat.Tools[0].Name = "get\x1b[2Jvolume"
	r.Fail("no tools (strict)")
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, []JUnitRun{{Report: r, Catalog: cat}, {Report: r, Catalog: cat}}); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(doc.Suites) != 2 || doc.Tests != 2*(len(cat.Tools)+1) {
		t.Fatalf("suites %d, tests %d", len(doc.Suites), doc.Tests)
	}
	s := doc.Suites[0]
	failed := map[string][]string{}
	for _, c := range s.Cases {
		for _, f := range c.Failures {
			failed[c.Name] = append(failed[c.Name], f.Type)
		}
	}
	// Tool 0 (get_volume_status) is the confusable pair's first; the
	// duplicate of it has the error finding.
	if !strings.Contains(strings.Join(failed[`get\x1b[2Jvolume`], ","), sarifConfusableRule) {
		t.Errorf("the pair's first tool did not fail: %v", failed)
	}
	if !strings.Contains(strings.Join(failed["get_volume_status"], ","), "duplicate-name") {
		t.Errorf("the duplicate did not fail: %v", failed)
	}
	if got := failed["gate"]; len(got) != 1 {
		t.Errorf("the gate's own failure: %v", failed)
	}
	if s.Failures != len(failed) || doc.Failures != 2*len(failed) {
		t.Errorf("failures %d (document %d), want %d", s.Failures, doc.Failures, len(failed))
	}
	if bytes.Contains(buf.Bytes(), []byte("\x1b")) || !strings.Contains(buf.String(), "enum-in-prose") {
		t.Errorf("raw ESC, or the warnings missing:\n%s", buf.String())
	}
}
