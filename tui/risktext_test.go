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
		{0.066, nil, false, "0.066", " (just under review at 0.06891)"},
		{0.0688, nil, false, "0.0688", " (just under review at 0.06891)"},
		{0.069, review, false, "0.07", ""},
		{0.35, review, false, "0.35", ""},
		{0.437, review, false, "0.437", " (just under confusable at 0.44)"},
		{0.44, confusable, false, "0.44", ""},
		{0.51, confusable, false, "0.51", ""},
		{0.02, nil, false, "0.02", ""},
		{0.35, confusable, true, "0.35", " (judged; the risk alone: review)"},
		{0.51, nil, true, "0.51", " (judged; the risk alone: confusable)"},
		{0.03, review, false, "0.03", " (the risk alone: low)"},
	}
	for _, tc := range cases {
		if got := riskText(tc.risk, &th); got != tc.text {
			t.Errorf("riskText(%v) = %q, want %q", tc.risk, got, tc.text)
		}
		if got := bandNote(tc.risk, th, tc.v, tc.judged); got != tc.note {
			t.Errorf("bandNote(%v, %v, judged %v) = %q, want %q", tc.risk, tc.v, tc.judged, got, tc.note)
		}
	}
	if got := riskText(0.066, nil); got != "0.07" {
		t.Errorf("without thresholds: %q", got)
	}
}
