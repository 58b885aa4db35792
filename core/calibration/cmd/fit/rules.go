package main

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"toolscope/core/calibration"
	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// bandRules are the rules -rules measures: the model's one threshold, then
// conditions on each pair's place in its two tools' neighbourhoods.
var bandRules = []calibration.Rule{
	{Name: "one threshold (the model)"},
	{Name: "confusable: mutual top-1", Mutual: 1},
	{Name: "confusable: mutual top-2", Mutual: 2},
	{Name: "confusable: mutual top-3", Mutual: 3},
	{Name: "confusable: risk >= 1.25 x each tool's next-best", Margin: 1.25},
	{Name: "confusable: risk >= 1.5 x each tool's next-best", Margin: 1.5},
	{Name: "confusable: risk >= 2 x each tool's next-best", Margin: 2},
	{Name: "review: each tool's top-1 above a floor", PerTool: 1},
	{Name: "review: each tool's top-2 above a floor", PerTool: 2},
	{Name: "review: each tool's top-3 above a floor", PerTool: 3},
	{Name: "review: both tools' top-2 above a floor", PerTool: 2, BothTop: true},
	{Name: "review: both tools' top-3 above a floor", PerTool: 3, BothTop: true},
	{Name: "review: both tools' top-5 above a floor", PerTool: 5, BothTop: true},
	{Name: "mutual top-1 + review top-2", Mutual: 1, PerTool: 2},
	{Name: "mutual top-2 + review top-3", Mutual: 2, PerTool: 3},
}

// measureRules reports each band rule held out: on every single catalog at
// starts fitted on the others' held-out risks, per set and pooled; on the
// twins; and, with catalogs, how many real catalogs the rule's confusable
// verdict (starts fitted on every single catalog) fails.
func measureRules(ctx context.Context, h heldOut, catalogs string, m *similarity.RiskModel, opts lint.Options) error {
	dev, tw := calibration.Rank(h.dev), calibration.Rank(h.twins)
	subset := func(set string) []calibration.Ranked {
		var out []calibration.Ranked
		for _, r := range dev {
			if set == "pooled" || h.setOf[r.Group] == set {
				out = append(out, r)
			}
		}
		return out
	}
	var cats []*catalog.Catalog
	if catalogs != "" {
		var err error
		if cats, err = loadAll(catalogs); err != nil {
			return err
		}
	}
	var scored []*similarity.Scores
	for _, cat := range cats {
		o := opts.Options
		o.RiskModel, o.Scoring, o.VerdictLimit = m, similarity.ScoringRisk, 0
		s, err := similarity.Score(ctx, cat, o)
		if err != nil {
			return err
		}
		scored = append(scored, s)
	}
	fmt.Println("\nband rules, held out (each catalog judged at starts fitted on the other catalogs' held-out risks):")
	fmt.Println("  rule | dev1 confusable P R, review recall, pairs/tool | dev2 ... | pooled ... | twins at dev starts P R F1; per-fold F1 | starts (all dev) | catalogs failing")
	for _, u := range bandRules {
		var cells []string
		for _, set := range []string{"dev1", "dev2", "pooled"} {
			held := subset(set)
			c, w, n := u.Nested(dev, held)
			tools := calibration.Tools(calibration.Samples(scoredOf(held)))
			cells = append(cells, fmt.Sprintf("%.2f %.2f, %.2f, %.2f", c.Precision(), c.Recall(), w.Recall(), float64(n)/float64(tools)))
		}
		st := u.Fit(dev)
		tc, _, _ := u.Judge(tw, st)
		f1 := u.TwinsF1(tw)
		cells = append(cells, fmt.Sprintf("%.2f %.2f %.2f; %.2f", tc.Precision(), tc.Recall(), tc.F1(), f1.F1()))
		cells = append(cells, fmt.Sprintf("%.3f / %.3f", st.Confusable, st.Review))
		failing := "-"
		if len(scored) > 0 {
			fails := 0
			for _, s := range scored {
				if gateFails(s, u, st) {
					fails++
				}
			}
			failing = fmt.Sprintf("%d of %d", fails, len(scored))
		}
		cells = append(cells, failing)
		fmt.Printf("  %s | %s\n", u.Name, strings.Join(cells, " | "))
	}
	neighbourhoods(dev)
	return nil
}

// neighbourhoods reports what each tool's nearest partners hold, with no
// floor: the pairs among either tool's top k (or both tools'), per tool,
// and the share of the positives they hold; then the labels of the pairs
// from 0.3 and how many of them each tool's riskiest partner is.
func neighbourhoods(dev []calibration.Ranked) {
	tools := calibration.Tools(calibration.Samples(scoredOf(dev)))
	fmt.Println("\neach tool's nearest partners by risk, no floor (single catalogs pooled, held out):")
	for k := 1; k <= 3; k++ {
		for _, mutual := range []bool{false, true} {
			var c calibration.Counts
			for _, r := range dev {
				in := min(r.RankA, r.RankB) <= k
				if mutual {
					in = max(r.RankA, r.RankB) <= k
				}
				c = c.Add(calibration.Count(in, r.Positive))
			}
			which := "either tool's"
			if mutual {
				which = "both tools'"
			}
			fmt.Printf("  among %s top-%d: %.2f pairs per tool, recall %.2f (%d of %d)\n", which, k, float64(c.TP+c.FP)/float64(tools), c.Recall(), c.TP, c.TP+c.FN)
		}
	}
	labels, mutual := [4]int{}, 0
	for _, r := range dev {
		if r.Risk >= 0.3 {
			labels[min(max(r.Label, 0), 3)]++
			if max(r.RankA, r.RankB) == 1 {
				mutual++
			}
		}
	}
	fmt.Printf("  from risk 0.3: %d pairs labelled 0/1/2/3: %d/%d/%d/%d; %d of them each tool's riskiest partner\n",
		labels[0]+labels[1]+labels[2]+labels[3], labels[0], labels[1], labels[2], labels[3], mutual)
}

// gateFails reports whether the rule's confusable verdict flags a pair of
// the scored catalog: the pairs at or above the start, placed in their
// tools' neighbourhoods by the kept nearest neighbours.
func gateFails(s *similarity.Scores, u calibration.Rule, st calibration.Starts) bool {
	if math.IsInf(st.Confusable, 1) {
		return false
	}
	th := s.Thresholds()
	th.Confusability, th.WatchBand = st.Confusable, 0
	sim := s.Judge(th)
	place := func(i, j int) (rank int, next float64) {
		row := sim.Neighbours[i]
		rank = len(row) + 1
		for k, p := range row {
			other := p.J
			if other == i {
				other = p.I
			}
			if other == j && rank > len(row) {
				rank = k + 1
			} else if next == 0 {
				next = p.Similarity
			}
		}
		return rank, next
	}
	for _, f := range sim.Confusable {
		ra, na := place(f.I, f.J)
		rb, nb := place(f.J, f.I)
		r := calibration.Ranked{RankA: ra, RankB: rb, NextA: na, NextB: nb}
		r.Risk = f.Similarity
		if u.Candidate(r) {
			return true
		}
	}
	return false
}

func loadAll(dir string) ([]*catalog.Catalog, error) {
	var out []*catalog.Catalog
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		cat, err := catalog.Load(p, nil)
		if err != nil {
			fmt.Printf("  %-48s %v\n", filepath.Base(p), err)
			return nil
		}
		out = append(out, cat)
		return nil
	})
	return out, err
}

func scoredOf(rs []calibration.Ranked) []calibration.Scored {
	out := make([]calibration.Scored, len(rs))
	for k, r := range rs {
		out[k] = r.Scored
	}
	return out
}

// related measures one threshold per band on a risk fitted, on the same
// features, for "related" (label 1 or more) rather than "confusable"
// (label 2 or more), held out the same way: does a ranking of related
// pairs make a better review list of the confusable ones? The twins keep
// their labels. Figures are against the confusable labels.
func related(all []calibration.Sample, lambda float64, fixed map[similarity.Feature]float64, setOf map[string]string) {
	type key struct{ group, a, b string }
	truth := map[key]bool{}
	rel := slices.Clone(all)
	for k, s := range rel {
		truth[key{s.Group, s.A, s.B}] = s.Positive
		if !calibration.IsTwins(s.Group) {
			rel[k].Positive = s.Label >= 1
		}
	}
	held := calibration.LeaveOneGroupOut(rel, lambda, fixed)
	relabel := func(ss []calibration.Scored) []calibration.Scored {
		for k, s := range ss {
			ss[k].Positive = truth[key{s.Group, s.A, s.B}]
		}
		return ss
	}
	dev, tw := calibration.Rank(relabel(held.Of(false))), calibration.Rank(relabel(held.Of(true)))
	fmt.Println("\none threshold per band on a risk fitted for label >= 1, held out (against the confusable labels):")
	u := calibration.Rule{}
	var cells []string
	for _, set := range []string{"dev1", "dev2", "pooled"} {
		var own []calibration.Ranked
		for _, r := range dev {
			if set == "pooled" || setOf[r.Group] == set {
				own = append(own, r)
			}
		}
		c, w, n := u.Nested(dev, own)
		tools := calibration.Tools(calibration.Samples(scoredOf(own)))
		cells = append(cells, fmt.Sprintf("%s: confusable P %.2f R %.2f, review recall %.2f at %.2f pairs/tool, AUC %.3f", set,
			c.Precision(), c.Recall(), w.Recall(), float64(n)/float64(tools), calibration.RiskAUC(scoredOf(own))))
	}
	f1 := u.TwinsF1(tw)
	cells = append(cells, fmt.Sprintf("twins: AUC %.3f, per-fold F1 %.2f", calibration.RiskAUC(scoredOf(tw)), f1.F1()))
	fmt.Println("  " + strings.Join(cells, "\n  "))
}
