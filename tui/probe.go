package tui

import (
	"fmt"
	"strconv"
	"strings"

	"toolscope/core/catalog"
	chat "toolscope/core/judge"
	"toolscope/core/similarity"
)

// probeRates is what a recorded probe measured, read against the catalog
// shown: each tool's texts compared with the probed ones once per
// catalog, so a row's rate is two map lookups.
type probeRates struct {
	rec *chat.ProbeRecord
	// cat is the catalog changed was computed for; changed[i] is true when
	// tool i's texts are not the ones probed.
	cat     *catalog.Catalog
	changed []bool
	// width is the rate column's, as wide as the widest rate a pair of
	// the record can have, its stale mark included; 0 without a record.
	width int
}

func newProbeRates(rec *chat.ProbeRecord) *probeRates {
	r := &probeRates{rec: rec}
	if rec != nil {
		n := strconv.Itoa(rec.MostRequests())
		r.width = 2*len(n) + 2
	}
	return r
}

// follow reads the catalog's texts against the probe's when the catalog
// is not the one read last.
func (r *probeRates) follow(cat *catalog.Catalog) {
	if r.rec == nil || cat == r.cat {
		return
	}
	r.cat = cat
	r.changed = make([]bool, len(cat.Tools))
	for i, t := range cat.Tools {
		r.changed[i] = r.rec.Changed(chat.FromCatalog(t))
	}
}

// rate is the pair's measure, when the probe sent requests for both
// tools.
func (r *probeRates) rate(pr similarity.Pair) (chat.PairRate, bool) {
	if r.rec == nil || r.cat == nil || pr.I < 0 || pr.J < 0 || pr.I >= len(r.cat.Tools) || pr.J >= len(r.cat.Tools) {
		return chat.PairRate{}, false
	}
	got, ok := r.rec.Rate(r.cat.Tools[pr.I].Name, r.cat.Tools[pr.J].Name)
	got.Stale = ok && (r.changed[pr.I] || r.changed[pr.J])
	return got, ok
}

// cell is the pair's rate as the column shows it, right-aligned with the
// stale mark after it: "3/10 ", "3/10*", or blanks for a pair not probed.
func (r *probeRates) cell(pr similarity.Pair) (string, bool) {
	got, ok := r.rate(pr)
	if !ok {
		return strings.Repeat(" ", r.width), false
	}
	mark := " "
	if got.Stale {
		mark = "*"
	}
	return fmt.Sprintf("%*d/%d", r.width-2-len(strconv.Itoa(got.Of())), got.Count(), got.Of()) + mark, got.Stale
}

// text is the pair's measure in sentences for the detail and the
// comparison, "" when the probe did not cover both tools.
func (r *probeRates) text(pr similarity.Pair) string {
	got, ok := r.rate(pr)
	if !ok {
		return ""
	}
	s := got.Sentences()
	out := fmt.Sprintf("probe (%s, %s): %s; %s.", r.rec.Model, r.rec.Date.Format("2006-01-02"), s[0], s[1])
	if got.Stale {
		out += " Stale: a tool's texts changed since the probe; probe again to measure them."
	}
	return out
}
