package baseline

import (
	"fmt"
	"testing"

	"toolscope/core/lint"
)

// BenchmarkApply compares a report of 100,000 findings and 10,000 pairs
// with a baseline of the same size, half of it changed.
func BenchmarkApply(b *testing.B) {
	mk := func(shift int) *lint.Report {
		var fs []lint.Finding
		var ps []lint.PairFinding
		for i := range 100_000 {
			fs = append(fs, finding("rule", fmt.Sprintf("tool_%d", i+shift), "p", lint.SeverityWarn, "m"))
		}
		for i := range 10_000 {
			ps = append(ps, pair(lint.Confusable, fmt.Sprintf("tool_%d", i+shift), fmt.Sprintf("tool_%d", i+shift+1)))
		}
		return report(fs, ps...)
	}
	base := FromReport(mk(0))
	c := cat("a")
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		r := mk(50_000)
		b.StartTimer()
		base.Apply(r, c, "b.json", false)
	}
}
