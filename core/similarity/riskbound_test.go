package similarity

import (
	"context"
	"math"
	"testing"

	"toolscope/core/internal/testcat"
	"toolscope/embed"
)

// TestRiskBoundNeverDropsAPairAtItsOwnRisk checks the kernel's first look
// against every pair's features worked out in full: at a bar equal to the
// pair's own log-odds the bound must let it through, one by one and from
// a tile alike; the sketch must bound the bag cosine and never be looser
// than the reaches; and at a bar a little above, the bound must drop
// pairs (else it would test nothing). Models with the traits' weights
// turned over check the traits' room.
func TestRiskBoundNeverDropsAPairAtItsOwnRisk(t *testing.T) {
	cat := testcat.Synth(t, 150)
	opts := DefaultOptions()
	opts.Embedder = embed.Mock{}
	scores, err := Score(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	base := scores.geo.risk
	turned := *base.model
	for _, f := range []Feature{FeatOpposite, FeatOtherAction, FeatNested, FeatGuided, FeatBag, FeatFull} {
		turned.Weights[f] = -turned.Weights[f]
	}
	for _, c := range []struct {
		name  string
		model *RiskModel
		above float64 // a bar this far above a pair's log-odds drops some
	}{{"fitted model", base.model, 1}, {"weights turned over", &turned, 10}} {
		t.Run(c.name, func(t *testing.T) {
			r := *base
			r.model = c.model
			r.termsRoom = max(0, c.model.Weights[FeatTerms])
			r.fullSpan = math.Abs(c.model.Weights[FeatFull])
			b := newRiskBound(&r)
			g := scores.geo
			n := g.n
			var full, sketch [tile * tile]float32
			dropped := 0
			for i0 := 0; i0 < n; i0 += tile {
				i1 := min(i0+tile, n)
				for j0 := i0; j0 < n; j0 += tile {
					j1 := min(j0+tile, n)
					b.tile(&r, full[:], sketch[:], span{i0, i1, j0, j1})
					for i := i0; i < i1; i++ {
						for j := max(j0, i+1); j < j1; j++ {
							adaptive := scores.features(i, j)[FeatAdaptive]
							x := r.features(i, j, adaptive, nil)
							z := c.model.Logit(x)
							at := (i-i0)*tile + j - j0
							pre := &[2]float32{full[at], sketch[at]}
							if b.below(&r, i, j, adaptive, z, nil) || b.below(&r, i, j, adaptive, z, pre) {
								t.Fatalf("%s/%s: dropped at its own log-odds %v", cat.Tools[i].Name, cat.Tools[j].Name, z)
							}
							bag := ceiling(sketch[at])
							if bag < x[FeatBag] || bag > r.reach[i]*r.reach[j]+2*sketchSlack {
								t.Fatalf("%s/%s: sketch bound %v for a bag cosine of %v, reaches %v", cat.Tools[i].Name, cat.Tools[j].Name, bag, x[FeatBag], r.reach[i]*r.reach[j])
							}
							if b.below(&r, i, j, adaptive, z+c.above, pre) {
								dropped++
							}
						}
					}
				}
			}
			if dropped == 0 {
				t.Fatalf("no pair dropped %v log-odds above its own: the bound bounds nothing", c.above)
			}
			t.Logf("%d of %d pairs dropped %v log-odds above their own", dropped, n*(n-1)/2, c.above)
		})
	}
}
