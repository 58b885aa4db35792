package similarity

import (
	"context"
	"math"
	"slices"
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
	explained, err := scores.WhatIfExplained(context.Background(), opts.Embedder, 3, text, nil)
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

// A pair between the edited tool and a drafted one is scored with both
// drafts: the risk a full re-score of the catalog with both descriptions
// replaced gives, within the what-if's approximation, and closer to it
// than the edited side alone. Without a draft for the partner (or with
// drafts that are ignored) the what-if is WhatIf's to the bit; both
// descriptions as they are give the scored risks to the bit.
func TestWhatIfBothDrafts(t *testing.T) {
	ctx := context.Background()
	cat := testcat.Sample(t, 40)
	opts := mockOptions(ScoringRisk)
	opts.RankLimit = 0
	scores, err := Score(ctx, cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	ranked := scores.Judge(scores.Thresholds()).Ranked
	cases := []struct {
		name         string
		pair         Pair
		textA, textB string
	}{
		{"riskiest pair, both told apart", ranked[0],
			"Converts a temperature between Celsius and Fahrenheit.",
			"Translates a sentence from English into French."},
		{"riskiest pair, both narrowed", ranked[0],
			cat.Tools[ranked[0].I].Description + " Use it only for the dashboards of one folder.",
			cat.Tools[ranked[0].J].Description + " Use it only when the user names a datasource."},
		{"second pair, both rewritten alike", ranked[1],
			"Lists the rows of a table in the project's database.",
			"Lists the rows of a table in the project's database, newest first."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := c.pair.I, c.pair.J
			riskOf := func(pairs []WhatIfPair) float64 {
				for _, p := range pairs {
					if p.J == b {
						return p.Similarity
					}
				}
				t.Fatalf("no pair with %d", b)
				return 0
			}
			alone, err := scores.WhatIf(ctx, opts.Embedder, a, c.textA)
			if err != nil {
				t.Fatal(err)
			}
			for _, others := range []map[int]string{nil, {}, {a: "ignored: the edited tool's own"}, {999: "ignored: no such tool"}} {
				got, err := scores.WhatIfExplained(ctx, opts.Embedder, a, c.textA, others)
				if err != nil {
					t.Fatal(err)
				}
				for i, p := range got {
					if p.J != alone[i].J || p.Similarity != alone[i].Similarity {
						t.Errorf("drafts %v: %s/%s %v, alone %v", others, p.A, p.B, p.Similarity, alone[i].Similarity)
					}
				}
			}
			// Both descriptions as they are give the scored risks.
			same, err := scores.WhatIfExplained(ctx, opts.Embedder, a, cat.Tools[a].Description, map[int]string{b: cat.Tools[b].Description})
			if err != nil {
				t.Fatal(err)
			}
			scored := map[[2]int]float64{}
			for _, p := range ranked {
				scored[[2]int{p.I, p.J}], scored[[2]int{p.J, p.I}] = p.Similarity, p.Similarity
			}
			for _, p := range same {
				if p.Similarity != scored[[2]int{p.I, p.J}] {
					t.Errorf("both unchanged: %s/%s %v, scored %v", p.A, p.B, p.Similarity, scored[[2]int{p.I, p.J}])
				}
			}
			both, err := scores.WhatIfExplained(ctx, opts.Embedder, a, c.textA, map[int]string{b: c.textB})
			if err != nil {
				t.Fatal(err)
			}
			edited := *cat
			edited.Tools = slices.Clone(cat.Tools)
			for i, text := range map[int]string{a: c.textA, b: c.textB} {
				tl := *cat.Tools[i]
				tl.Description, tl.HasDescription = text, true
				edited.Tools[i] = &tl
			}
			full, err := Score(ctx, &edited, opts)
			if err != nil {
				t.Fatal(err)
			}
			var want float64
			for _, p := range full.Judge(full.Thresholds()).Ranked {
				if p.I == a && p.J == b || p.I == b && p.J == a {
					want = p.Similarity
				}
			}
			gotBoth, gotAlone := riskOf(both), riskOf(pairsOf(alone))
			t.Logf("before %.4f, alone %.4f, both %.4f, full re-score %.4f", c.pair.Similarity, gotAlone, gotBoth, want)
			if d := math.Abs(gotBoth - want); d > 0.02 {
				t.Errorf("both drafts: %.4f, a full re-score %.4f", gotBoth, want)
			}
			if math.Abs(gotBoth-want) > math.Abs(gotAlone-want) {
				t.Errorf("both drafts (%.4f) further from the full re-score (%.4f) than one (%.4f)", gotBoth, want, gotAlone)
			}
		})
	}
}

// pairsOf wraps plain pairs as what-if pairs.
func pairsOf(ps []Pair) []WhatIfPair {
	out := make([]WhatIfPair, len(ps))
	for i, p := range ps {
		out[i].Pair = p
	}
	return out
}
