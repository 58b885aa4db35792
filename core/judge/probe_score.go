package judge

import (
	"toolscope/core/catalog"
	"toolscope/core/lint"
)

// Measured is what the record measured of cat's pairs, for the score
// (lint.ScoreOf): every pair a request crossed, and every pair of the
// report's verdict lists the probe sent requests for, each only while
// neither tool's texts changed since the probe.
func (r *ProbeRecord) Measured(cat *catalog.Catalog, rep *lint.Report) []lint.ProbedPair {
	if r == nil {
		return nil
	}
	tools := map[string]Tool{}
	for _, t := range cat.Tools {
		if _, dup := tools[t.Name]; !dup {
			tools[t.Name] = FromCatalog(t)
		}
	}
	var out []lint.ProbedPair
	seen := map[string]bool{}
	add := func(a, b string) {
		ta, okA := tools[a]
		tb, okB := tools[b]
		key := lint.PairKey(a, b)
		if !okA || !okB || a == b || seen[key] {
			return
		}
		seen[key] = true
		if p, ok := r.RateOf(ta, tb); ok && !p.Stale {
			out = append(out, lint.ProbedPair{A: a, B: b, Count: p.Count(), Of: p.Of()})
		}
	}
	for _, c := range r.Cases {
		add(c.Tool, c.Picked)
	}
	for _, p := range rep.Similarity.Confusable {
		add(p.A, p.B)
	}
	for _, p := range rep.Similarity.Watch {
		add(p.A, p.B)
	}
	return out
}
