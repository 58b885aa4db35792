package tui

import (
	"testing"

	"toolscope/core/similarity"
)

// A pair's risk never reads as at or over a threshold it is under, and a
// verdict that is not its band's says why.
func TestRiskTextAndBandNote(t *testing.T) {
	th := similarity.Thresholds{Confusability: 0.44, WatchBand: 0.44 - 0.06891}
	confusable := &similarity.PairFinding{Kind: similarity.Confusable}
	review := &similarity.PairFinding{Kind: similarity.Watch}
	cases := []struct {
		risk   float64
		v      *similarity.PairFinding
		judged bool
		text   string
		note   string
	}{
		{0.066, nil, false, "0.066", " (just under review, from 0.06891)"},
		{0.0688, nil, false, "0.0688", " (just under review, from 0.06891)"},
		{0.069, review, false, "0.07", ""},
		{0.35, review, false, "0.35", ""},
		{0.437, review, false, "0.437", " (just under confusable, from 0.44)"},
		{0.44, confusable, false, "0.44", ""},
		{0.51, confusable, false, "0.51", ""},
		{0.02, nil, false, "0.02", ""},
		{0.35, confusable, true, "0.35", " (judged; the risk alone: review)"},
		{0.51, nil, true, "0.51", " (judged; the risk alone: confusable)"},
		{0.03, review, false, "0.03", " (the risk alone: low)"},
	}
	for _, tc := range cases {
		if got := similarity.RiskText(tc.risk, &th); got != tc.text {
			t.Errorf("RiskText(%v) = %q, want %q", tc.risk, got, tc.text)
		}
		if got := bandNote(tc.risk, th, tc.v, tc.judged); got != tc.note {
			t.Errorf("bandNote(%v, %v, judged %v) = %q, want %q", tc.risk, tc.v, tc.judged, got, tc.note)
		}
	}
	if got := similarity.RiskText(0.066, nil); got != "0.07" {
		t.Errorf("without thresholds: %q", got)
	}
}

// The pairs pane writes thresholds as the reports do: "from" and two
// decimals, the review start 0.06891 as 0.07.
func TestThresholdTextReadsAsTheReports(t *testing.T) {
	for _, tc := range []struct {
		th      similarity.Thresholds
		scoring similarity.Scoring
		want    string
	}{
		{similarity.Thresholds{Confusability: 0.44, WatchBand: 0.44 - 0.06891}, similarity.ScoringRisk, "confusable from 0.44 · review from 0.07"},
		{similarity.Thresholds{Confusability: 0.44, WatchBand: 0.44 - 0.06891, CrossServer: 0.0417}, similarity.ScoringRisk, "confusable from 0.44 · review from 0.07 · across servers from 0.04"},
		{similarity.Thresholds{Confusability: 0.85, WatchBand: 0.05}, similarity.ScoringCosine, "confusable from 0.85 · review band 0.05"},
		{similarity.Thresholds{Confusability: 0.3, WatchBand: 0.05, AffinityFloor: 0.75}, similarity.ScoringAdaptive, "confusable from +0.30 · review band 0.05"},
	} {
		if got := thresholdText(tc.th, tc.scoring); got != tc.want {
			t.Errorf("%s %+v: %q, want %q", tc.scoring, tc.th, got, tc.want)
		}
	}
}
