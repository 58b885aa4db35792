package similarity

import (
	"context"
	"fmt"
	"math"
	"testing"

	"toolscope/core/internal/testcat"
	"toolscope/embed"
)

// BenchmarkKernel times the pairwise passes alone (vectors already made),
// per pair, for tuning the kernel.
func BenchmarkKernel(b *testing.B) {
	for _, scoring := range []Scoring{ScoringCosine, ScoringAdaptive} {
		b.Run(fmt.Sprintf("tools=5000/%s", scoring), func(b *testing.B) {
			opts := DefaultOptions()
			opts.Embedder = embed.Mock{}
			opts.Scoring = scoring
			inf := math.Inf(1)
			opts.Threshold = &inf
			s, err := Score(context.Background(), testcat.Synth(b, 5000), opts)
			if err != nil {
				b.Fatal(err)
			}
			cpu := testcat.CPUTime()
			for b.Loop() {
				if err := s.scoreAll(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((testcat.CPUTime()-cpu).Nanoseconds())/float64(b.N)/float64(s.pairCount), "cpu-ns/pair")
		})
	}
}
