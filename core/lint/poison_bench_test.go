package lint

import (
	"fmt"
	"testing"

	"toolscope/core/internal/testcat"
	"toolscope/internal/measure"
)

// BenchmarkToolPoisoning runs the tool-poisoning rule alone over every
// tool of the benchmark catalogs (see BenchmarkAnalyze).
func BenchmarkToolPoisoning(b *testing.B) {
	for _, n := range []int{5000} {
		cat := testcat.Synth(b, n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			findings := 0
			cpu := measure.CPUTime()
			for b.Loop() {
				// A rule of its own each time, as each run of the command
				// has: the rule reads each distinct text once.
				rule := ToolPoisoningRule(DefaultPoisonPatterns)
				findings = 0
				for _, t := range cat.Tools {
					findings += len(rule.Check(t, nil))
				}
			}
			b.ReportMetric((measure.CPUTime()-cpu).Seconds()/float64(b.N)*1e3, "cpu-ms/op")
			b.ReportMetric(float64(findings), "findings")
		})
	}
}
