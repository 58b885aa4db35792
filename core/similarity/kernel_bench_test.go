package similarity

import (
	"context"
	"fmt"
	"math"
	"testing"

	"toolscope/core/internal/testcat"
	"toolscope/embed"
	"toolscope/internal/measure"
)

// BenchmarkKernel times the pairwise passes alone (vectors already made),
// per pair, for tuning the kernel: report-only, and the risk as a gate too.
func BenchmarkKernel(b *testing.B) {
	for _, c := range []struct {
		scoring Scoring
		gate    bool
	}{{ScoringCosine, false}, {ScoringAdaptive, false}, {ScoringRisk, false}, {ScoringRisk, true}} {
		mode := "report-only"
		if c.gate {
			mode = "gate"
		}
		b.Run(fmt.Sprintf("tools=5000/%s/%s", c.scoring, mode), func(b *testing.B) {
			opts := DefaultOptions()
			opts.Embedder = embed.Mock{}
			opts.Scoring = c.scoring
			opts.Neighbours = 0
			if !c.gate {
				inf := math.Inf(1)
				opts.Threshold = &inf
			}
			s, err := Score(context.Background(), testcat.Synth(b, 5000), opts)
			if err != nil {
				b.Fatal(err)
			}
			cpu := measure.CPUTime()
			for b.Loop() {
				// The first pass must find the usual affinities afresh:
				// with the last run's still set, it would score risks.
				s.geo.usual = nil
				if err := s.scoreAll(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((measure.CPUTime()-cpu).Nanoseconds())/float64(b.N)/float64(s.pairCount), "cpu-ns/pair")
		})
	}
}

// BenchmarkWordNeighbours times the judge's second view of a catalog: each
// tool's nearest by bag of words, through an inverted index.
func BenchmarkWordNeighbours(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			cat := testcat.Synth(b, n)
			for b.Loop() {
				WordNeighbours(cat.Tools, 20)
			}
		})
	}
}
