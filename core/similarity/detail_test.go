package similarity

import (
	"context"
	"reflect"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/internal/testcat"
)

// With a DetailLimit the first pairs of each verdict list are the ones a
// full run gives, hints and all; the pairs past it keep their tools,
// score, band and axis, and carry no reasons, fixes or hint. Over every
// scoring, and across servers.
func TestDetailLimitDetailsTheFirstPairs(t *testing.T) {
	ctx := context.Background()
	base := testcat.Sample(t, 90)
	merged := onServers(base, 3)
	const limit = 3
	for _, scoring := range []Scoring{ScoringRisk, ScoringCosine, ScoringAdaptive} {
		for name, cat := range map[string]*catalog.Catalog{"one": base, "merged": merged} {
			opts := mockOptions(scoring)
			full, err := judged(ctx, cat, opts)
			if err != nil {
				t.Fatal(err)
			}
			opts.DetailLimit = limit
			some, err := judged(ctx, cat, opts)
			if err != nil {
				t.Fatal(err)
			}
			lists := [][2][]PairFinding{{full.Confusable, some.Confusable}, {full.Watch, some.Watch}}
			if len(full.Confusable)+len(full.Watch) <= 2*limit {
				t.Fatalf("%s, %s: %d and %d verdicts, too few to test", scoring, name, len(full.Confusable), len(full.Watch))
			}
			for _, l := range lists {
				want, got := l[0], l[1]
				if len(got) != len(want) {
					t.Fatalf("%s, %s: %d pairs, want %d", scoring, name, len(got), len(want))
				}
				for k := range want {
					if k < limit {
						if !reflect.DeepEqual(got[k], want[k]) {
							t.Errorf("%s, %s: pair %d is %+v, want %+v", scoring, name, k, got[k], want[k])
						}
						if want[k].Hint == "" {
							t.Errorf("%s, %s: pair %d has no hint in the full run", scoring, name, k)
						}
						continue
					}
					bare := want[k]
					bare.Hint, bare.Reasons, bare.Fixes = "", nil, nil
					if !reflect.DeepEqual(got[k], bare) {
						t.Errorf("%s, %s: pair %d past the limit is %+v, want %+v", scoring, name, k, got[k], bare)
					}
				}
			}
		}
	}
}
