package calibration

import (
	"slices"
	"testing"
)

// The cross-server band, each merge held out: the start picked on the
// other merges' twins, tallied on the one left out, pooled. Floors a
// little under what was measured (docs/calibration.md).
func TestTwinBandLeaveOneMergeOut(t *testing.T) {
	dev, tw, _ := riskData(t)
	f := FitRisk(append(slices.Clip(dev), tw...), 1, Fixed, riskControls...)
	twins := f.Calibrated(true)
	var sum Counts
	for _, fold := range TwinsLeaveOneSetOut(twins, f.Controls...) {
		sum = sum.Add(fold.Counts)
		t.Logf("%s: start %.4f, P %.2f R %.2f F1 %.2f", fold.Set, fold.Start, fold.Counts.Precision(), fold.Counts.Recall(), fold.Counts.F1())
	}
	disjoint := VocabularyDisjoint(twins)
	t.Logf("pooled: P %.2f R %.2f F1 %.2f; vocabulary-disjoint twins AUC %.3f", sum.Precision(), sum.Recall(), sum.F1(), RiskAUC(disjoint))
	if sum.F1() < 0.35 || sum.Precision() < 0.55 {
		t.Errorf("held out by merge, the cross-server band fell under its floors (F1 0.35, precision 0.55)")
	}
	if flagged, tools := TallyAt(f.Controls, f.Model.Twins).FP, Tools(Samples(f.Controls)); float64(flagged) > MaxControlRate*float64(tools) || tools < 50 {
		t.Errorf("the control (%d tools) has %d pairs flagged at the band, over %.2f per tool", tools, flagged, MaxControlRate)
	}
	if RiskAUC(disjoint) < 0.95 {
		t.Errorf("vocabulary-disjoint twins AUC %.3f, under 0.95", RiskAUC(disjoint))
	}
	if at := TallyAt(twins, f.Model.Twins); at.F1() <= TallyAt(twins, f.Model.Threshold).F1() {
		t.Errorf("the cross-server band finds no more twins than the catalog's band (F1 %.2f)", at.F1())
	}
}

func TestNameWords(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		share bool
	}{
		{"web_search_exa", "firecrawl_search", true},
		{"tavily_extract", "scrape_as_markdown", false},
		{"getIncident", "get_incident_", true},
		{"navigatePage", "browserbase_stagehand_navigate", true},
		{"query", "execute_sql", false},
		{"", "x", false},
	} {
		if got := sharesWord(tc.a, tc.b); got != tc.share {
			t.Errorf("sharesWord(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.share)
		}
	}
}
