package cli

import (
	"fmt"
	"io"
	"slices"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/report"
)

// pageFormats are the outputs about one catalog as a whole: the HTML page
// and the badge.
var pageFormats = []string{"html", "badge"}

// checkPageFormats refuses an HTML page or a badge over several catalogs
// linted apart: each is about one catalog (--merge makes them one).
func checkPageFormats(f *catalogFlags, targets int, merge bool) error {
	if targets < 2 || merge {
		return nil
	}
	formats := []string{f.format}
	for _, o := range f.outputs {
		formats = append(formats, o.format)
	}
	for _, p := range pageFormats {
		if slices.Contains(formats, p) {
			return fmt.Errorf("--format %s is about one catalog: lint %d catalogs one at a time, or as one with --merge", p, targets)
		}
	}
	return nil
}

// writePage writes one catalog's HTML page or badge.
func writePage(w io.Writer, format string, r *lint.Report, cat *catalog.Catalog, f *catalogFlags, probe *judge.ProbeRecord) error {
	if r.Score == nil {
		r.Score = lint.ScoreWith(r, cat, probe.Measured(cat, r), f.tokenMeter())
	}
	if format == "badge" {
		return report.WriteBadge(w, r.Score)
	}
	return report.WriteHTML(w, r, report.HTMLOptions{Source: cat.Source, Catalog: cat, Rules: ranRules(f), Probe: probe, Version: versionLine()})
}
