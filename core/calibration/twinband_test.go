package calibration

import (
	"slices"
	"testing"
)

// The cross-server band, each merge held out: the evidence and the start
// fitted on the other merges' twins, tallied on the one left out, pooled.
// Floors a little under what was measured (docs/calibration.md), and the
// band with evidence must beat the band on the risk alone in both
// precision and recall.
func TestTwinBandLeaveOneMergeOut(t *testing.T) {
	dev, tw, _ := riskData(t)
	f := FitRisk(append(slices.Clip(dev), tw...), 1, Fixed, riskControls...)
	twins := f.Calibrated(true)
	var sum, risk Counts
	for _, fold := range TwinsLeaveOneSetOut(twins, f.Controls...) {
		sum = sum.Add(fold.Counts)
		t.Logf("%s: start %.4f, bonus %.2f, P %.2f R %.2f F1 %.2f", fold.Set, fold.Start, fold.Bonus, fold.Counts.Precision(), fold.Counts.Recall(), fold.Counts.F1())
	}
	for _, fold := range TwinsLeaveOneSetOutRisk(twins, f.Controls...) {
		risk = risk.Add(fold.Counts)
	}
	bonus := f.Model.TwinBonus
	disjoint := VocabularyDisjoint(twins)
	t.Logf("pooled: P %.2f R %.2f F1 %.2f (risk alone P %.2f R %.2f F1 %.2f); vocabulary-disjoint twins AUC %.3f",
		sum.Precision(), sum.Recall(), sum.F1(), risk.Precision(), risk.Recall(), risk.F1(), RiskAUC(WithEvidence(disjoint, bonus)))
	if sum.F1() < 0.50 || sum.Precision() < 0.70 {
		t.Errorf("held out by merge, the cross-server band fell under its floors (F1 0.50, precision 0.70)")
	}
	if sum.Precision() <= risk.Precision() || sum.Recall() <= risk.Recall() {
		t.Errorf("the evidence does not raise both precision and recall held out: P %.2f R %.2f, risk alone P %.2f R %.2f",
			sum.Precision(), sum.Recall(), risk.Precision(), risk.Recall())
	}
	controls := WithEvidence(f.Controls, bonus)
	if flagged, tools := TallyAt(controls, f.Model.Twins).FP, Tools(Samples(f.Controls)); float64(flagged) > MaxControlRate*float64(tools) || tools < 50 {
		t.Errorf("the control (%d tools) has %d pairs flagged at the band, over %.2f per tool", tools, flagged, MaxControlRate)
	}
	if auc := RiskAUC(WithEvidence(disjoint, bonus)); auc < 0.95 {
		t.Errorf("vocabulary-disjoint twins AUC %.3f, under 0.95", auc)
	}
	if RiskAUC(WithEvidence(twins, bonus)) < RiskAUC(twins) {
		t.Errorf("the evidence lowers the twins' AUC: %.3f, risk alone %.3f", RiskAUC(WithEvidence(twins, bonus)), RiskAUC(twins))
	}
	if at := TallyAt(WithEvidence(twins, bonus), f.Model.Twins); at.F1() <= TallyAt(twins, f.Model.Threshold).F1() {
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
