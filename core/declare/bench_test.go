package declare

import (
	"testing"
	"time"

	"toolscope/core/catalog"
	"toolscope/fixtures"
)

// demoTool reads one tool of the bundled demo catalog.
func demoTool(b *testing.B, name string) *catalog.Tool {
	b.Helper()
	cat, err := catalog.Parse(fixtures.DemoName, fixtures.Demo())
	if err != nil {
		b.Fatal(err)
	}
	tool, ok := cat.Lookup(name)
	if !ok {
		b.Fatalf("the demo has no tool %s", name)
	}
	return tool
}

// BenchmarkResolve is the declarations' share of one keystroke in the
// explorer's arguments drawer (SPEC §8: a fresh render under 16 ms): the
// demo's three-form period, resolved and rendered to lines.
func BenchmarkResolve(b *testing.B) {
	rules, ref := Read(demoTool(b, "hist_volume_metrics"))
	if ref != nil {
		b.Fatal(ref)
	}
	args := mustJSON(b, `{"start_ms": 1772355600000, "end_ms": 1772442000000, "day": "2026-03-01"}`)
	zone := paris(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = Resolve(rules, args, now, zone).Lines()
	}
}

// BenchmarkResolveWallRange resolves a wall-range in a named zone, the
// costliest spelling (a zone lookup and two placements).
func BenchmarkResolveWallRange(b *testing.B) {
	rules, ref := Read(demoTool(b, "list_incidents"))
	if ref != nil {
		b.Fatal(ref)
	}
	args := mustJSON(b, `{"between": "2026-03-01T09:00..2026-03-01T17:30", "tz": "America/New_York"}`)
	b.ReportAllocs()
	for b.Loop() {
		_ = Resolve(rules, args, now, time.UTC).Lines()
	}
}

// BenchmarkRead judges the demo's richest declaration, as the lint does for
// every tool at load.
func BenchmarkRead(b *testing.B) {
	tool := demoTool(b, "hist_volume_metrics")
	b.ReportAllocs()
	for b.Loop() {
		if _, ref := Read(tool); ref != nil {
			b.Fatal(ref)
		}
	}
}
