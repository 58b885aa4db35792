package lint

import (
	"context"
	"fmt"
	"math"
	"testing"

	"toolscope/core/internal/testcat"
	"toolscope/core/similarity"
	"toolscope/embed"
	"toolscope/internal/measure"
)

// Benchmarks for SPEC §8's budgets: rules and similarity over 1,000, 5,000
// and 10,000 tools with the mock embedder, in both scorings, report-only
// (as the reference's figures were taken) and gating. Catalogs are made
// from the real ones in ../shared/catalogs, or from the copies in testdata
// when shared is absent; later copies of a name are renamed so every tool
// takes part.

var benchSizes = []int{1000, 5000, 10000}

func BenchmarkAnalyze(b *testing.B) {
	for _, n := range benchSizes {
		cat := testcat.Synth(b, n)
		for _, scoring := range []similarity.Scoring{similarity.ScoringRisk, similarity.ScoringCosine, similarity.ScoringAdaptive} {
			for _, mode := range []string{"report-only", "gate"} {
				b.Run(fmt.Sprintf("tools=%d/%s/%s", n, scoring, mode), func(b *testing.B) {
					opts := DefaultOptions()
					opts.Embedder = embed.Mock{}
					opts.Scoring = scoring
					opts.Neighbours = 0 // as the command line runs it: a report lists none
					if mode == "report-only" {
						inf := math.Inf(1)
						opts.Threshold = &inf
					}
					b.ReportAllocs()
					var peak uint64
					var r *Report
					cpu := measure.CPUTime()
					for b.Loop() {
						peak = max(peak, measure.PeakHeap(func() {
							var err error
							if r, err = Analyze(context.Background(), cat, opts); err != nil {
								b.Fatal(err)
							}
						}))
					}
					b.ReportMetric((measure.CPUTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
					b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
					b.ReportMetric(float64(r.Summary.Confusable+r.Summary.Watch), "verdicts")
				})
			}
		}
	}
}

func BenchmarkStructural(b *testing.B) {
	for _, n := range benchSizes {
		cat := testcat.Synth(b, n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			opts := DefaultOptions()
			b.ReportAllocs()
			for b.Loop() {
				Structural(cat, opts)
			}
		})
	}
}
