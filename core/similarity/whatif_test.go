package similarity

import (
	"context"
	"strings"
	"testing"
	"toolscope/core/internal/testcat"
)

// The explained what-if gives WhatIf's pairs, in its order, each with the
// reasons a verdict on its risk would give.
func TestWhatIfExplained(t *testing.T) {
	cat := testcat.Sample(t, 30)
	opts := mockOptions(ScoringRisk)
	scores, err := Score(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	text := cat.Tools[3].Description + " Use it only for dashboards."
	plain, err := scores.WhatIf(context.Background(), opts.Embedder, 3, text)
	if err != nil {
		t.Fatal(err)
	}
	explained, err := scores.WhatIfExplained(context.Background(), opts.Embedder, 3, text)
	if err != nil {
		t.Fatal(err)
	}
	if len(explained) != len(plain) {
		t.Fatalf("%d explained pairs, %d plain", len(explained), len(plain))
	}
	reasons := 0
	for i, p := range explained {
		if p.I != plain[i].I || p.J != plain[i].J || p.Similarity != plain[i].Similarity {
			t.Errorf("pair %d: explained %s/%s %v, plain %s/%s %v", i, p.A, p.B, p.Similarity, plain[i].A, plain[i].B, plain[i].Similarity)
		}
		if len(p.Reasons) > MaxReasons {
			t.Errorf("%s/%s: %d reasons, over %d", p.A, p.B, len(p.Reasons), MaxReasons)
		}
		reasons += len(p.Reasons)
		for _, r := range p.Reasons {
			if r.Text == "" || strings.Contains(r.Text, "  ") {
				t.Errorf("%s/%s: reason %q reads with a gap", p.A, p.B, r.Text)
			}
		}
	}
	if reasons == 0 {
		t.Error("no pair of the what-if has a reason")
	}
}
