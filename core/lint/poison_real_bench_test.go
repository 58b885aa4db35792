package lint

import (
	"path/filepath"
	"testing"

	"toolscope/core/catalog"
	"toolscope/internal/measure"
	"toolscope/internal/realcat"
)

// BenchmarkToolPoisoningReal runs the tool-poisoning rule alone over 1,000
// real tools: every catalog of ../shared/catalogs merged, a tool from each
// in turn (internal/realcat), a fresh rule each time. Skipped when
// ../shared is absent.
func BenchmarkToolPoisoningReal(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "catalogs", "*", "*.json"))
	if len(files) == 0 {
		b.Skip("the shared catalogs are not beside the repository")
	}
	data, err := realcat.MergeFiles(files, 1000)
	if err != nil {
		b.Fatal(err)
	}
	cat, err := catalog.Parse("merged-1000.json", data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	findings := 0
	cpu := measure.CPUTime()
	for b.Loop() {
		// A rule of its own each time, as each run of the command has.
		rule := ToolPoisoningRule(DefaultPoisonPatterns)
		findings = 0
		for _, t := range cat.Tools {
			findings += len(rule.Check(t, nil))
		}
	}
	b.ReportMetric((measure.CPUTime()-cpu).Seconds()/float64(b.N)*1e3, "cpu-ms/op")
	b.ReportMetric(float64(findings), "findings")
}
