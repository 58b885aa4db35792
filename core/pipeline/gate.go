package pipeline

import (
	"fmt"

	"toolscope/core/baseline"
	"toolscope/core/lint"
	"toolscope/core/termsafe"
)

// GateRequest is what a run's flags ask of the gate beyond each report's
// own.
type GateRequest struct {
	// FailOnStale fails a catalog whose config or baseline holds entries
	// that matched nothing.
	FailOnStale bool
	// MaxWarnings fails the catalogs with warnings when the run has more
	// than it, over every catalog (-1: no limit).
	MaxWarnings int
	// Note says a line on the way ("PATH: the catalog has no tools").
	Note func(line string)
}

// Gate adds to each catalog's gate what the request asks, and reports
// whether the run passes: an empty catalog is noted and fails under
// Setup.Strict; stale entries fail under FailOnStale; warnings over
// MaxWarnings fail the catalogs that have them.
func Gate(runs []*Linted, g GateRequest) bool {
	warnings := 0
	for _, r := range runs {
		if len(r.Catalog.Tools) == 0 {
			if g.Note != nil {
				g.Note(fmt.Sprintf("%s: the catalog has no tools", termsafe.Line(r.Path)))
			}
			if r.Setup.Strict {
				r.Report.Fail("no tools (strict)")
			}
		}
		if g.FailOnStale {
			if n := StaleEntries(r.Report); n > 0 {
				r.Report.Fail(fmt.Sprintf("%d stale config or baseline entries (--fail-on stale)", n))
			}
		}
		warnings += r.Report.Summary.Warnings
	}
	if g.MaxWarnings >= 0 && warnings > g.MaxWarnings {
		for _, r := range runs {
			if r.Report.Summary.Warnings > 0 {
				r.Report.Fail(fmt.Sprintf("warnings in the run: %d, over --max-warnings %d", warnings, g.MaxWarnings))
			}
		}
	}
	ok := true
	for _, r := range runs {
		ok = ok && r.Report.OK
	}
	return ok
}

// StaleEntries counts what a report's config and baseline hold that
// matched nothing: ignore and accept entries unused, baseline entries
// absent.
func StaleEntries(r *lint.Report) int {
	n := 0
	if r.Suppressed != nil {
		n += len(r.Suppressed.Unused)
	}
	if r.Baseline != nil {
		n += r.Baseline.Absent
	}
	return n
}

// Baseline is the baseline of a run: one catalog's results as they are,
// several catalogs' each under its path.
func Baseline(runs []*Linted) *baseline.File {
	if len(runs) == 1 {
		b := baseline.FromReport(runs[0].Report)
		b.Remember(runs[0].Catalog)
		return b
	}
	b := baseline.NewMulti()
	for _, r := range runs {
		b.Add(r.Path, r.Report, r.Catalog)
	}
	return b
}

// Accept applies a baseline read from path to every catalog of the run:
// what it holds no longer fails the gate.
func Accept(runs []*Linted, b *baseline.File, path string) {
	for _, r := range runs {
		b.For(r.Path).Apply(r.Report, r.Catalog, path, r.Setup.Strict)
	}
}
