package baseline

import (
	"fmt"
	"testing"

	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// BenchmarkApply compares a report of 100,000 findings and 10,000 pairs
// with a baseline of the same size, half of it changed.
func BenchmarkApply(b *testing.B) {
	mk := func(shift int) *lint.Report {
		var fs []lint.Finding
		var ps []similarity.PairFinding
		for i := range 100_000 {
			fs = append(fs, finding("rule", fmt.Sprintf("tool_%d", i+shift), "p", lint.SeverityWarn, "m"))
		}
		for i := range 10_000 {
			ps = append(ps, pair(similarity.Confusable, fmt.Sprintf("tool_%d", i+shift), fmt.Sprintf("tool_%d", i+shift+1)))
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

// BenchmarkWriteLoad writes and reads back the baseline of a 2,000-tool
// catalog's size (15,000 findings, 300 pairs): what --write-baseline and
// --baseline add to a run.
func BenchmarkWriteLoad(b *testing.B) {
	var fs []lint.Finding
	for i := range 15_000 {
		fs = append(fs, finding("optional-param-undocumented", fmt.Sprintf("tool_%d", i/8), fmt.Sprintf("p%d", i%8), lint.SeverityWarn,
			"optional parameter 'p' never says what leaving it out means: add e.g. \"optional, defaults to ...\""))
	}
	var ps []similarity.PairFinding
	for i := range 300 {
		ps = append(ps, pair(similarity.Confusable, fmt.Sprintf("tool_%d", i), fmt.Sprintf("tool_%d", i+1)))
	}
	r := report(fs, ps...)
	path := b.TempDir() + "/b.json"
	b.ResetTimer()
	for b.Loop() {
		if err := FromReport(r).WriteFile(path); err != nil {
			b.Fatal(err)
		}
		f, err := Load(path)
		if err != nil {
			b.Fatal(err)
		}
		f.Apply(r, cat("a"), path, false)
	}
}
