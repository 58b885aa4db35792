package calibration

import (
	"cmp"
	"math"
	"slices"
)

// Band rules beyond one global threshold: each pair is judged against its
// two tools' neighbourhoods too. A rule's thresholds are chosen on the
// held-out risks of the training catalogs only (Nested), so the figures
// say what the rule does on a catalog it never saw.

// Ranked is a scored pair with its place in each tool's neighbourhood
// (within its group): RankA is B's rank among A's pairs by risk (1 for
// A's riskiest), NextA the highest risk of A's other pairs; likewise for B.
type Ranked struct {
	Scored
	RankA, RankB int
	NextA, NextB float64
}

// Rank places each pair of ss in its tools' neighbourhoods, group by
// group. Ties in risk keep the input order. Only the pairs in ss count:
// for the twins, whose within-server pairs are not samples, a tool's
// neighbourhood is its cross-server pairs.
func Rank(ss []Scored) []Ranked {
	out := make([]Ranked, len(ss))
	type end struct{ group, tool string }
	lists := map[end][]int{}
	for k, s := range ss {
		out[k] = Ranked{Scored: s}
		lists[end{s.Group, s.A}] = append(lists[end{s.Group, s.A}], k)
		lists[end{s.Group, s.B}] = append(lists[end{s.Group, s.B}], k)
	}
	for e, list := range lists {
		slices.SortStableFunc(list, func(x, y int) int { return cmp.Compare(ss[y].Risk, ss[x].Risk) })
		for r, k := range list {
			next := 0.0
			if r == 0 && len(list) > 1 {
				next = ss[list[1]].Risk
			} else if r > 0 {
				next = ss[list[0]].Risk
			}
			if ss[k].A == e.tool {
				out[k].RankA, out[k].NextA = r+1, next
			} else {
				out[k].RankB, out[k].NextB = r+1, next
			}
		}
	}
	return out
}

// Rule is a band rule. Confusable: a pair at or above the threshold that
// is among each tool's top Mutual by risk (0: any rank) and whose risk is
// at least Margin times each tool's next-best (0: no margin). Review: the
// confusable pairs, and each pair among either tool's top PerTool (0: any
// rank) at or above the review floor; with BothTop, among both tools'.
type Rule struct {
	Name    string
	Mutual  int
	Margin  float64
	PerTool int
	BothTop bool
}

// Candidate reports whether r may be confusable under the rule.
func (u Rule) Candidate(r Ranked) bool {
	if u.Mutual > 0 && max(r.RankA, r.RankB) > u.Mutual {
		return false
	}
	return u.Margin == 0 || r.Risk >= u.Margin*max(r.NextA, r.NextB)
}

// reviewCandidate reports whether r may be on the review list.
func (u Rule) reviewCandidate(r Ranked) bool {
	if u.BothTop {
		return u.PerTool == 0 || max(r.RankA, r.RankB) <= u.PerTool
	}
	return u.PerTool == 0 || min(r.RankA, r.RankB) <= u.PerTool
}

// Starts are a rule's thresholds as chosen on training risks.
type Starts struct{ Confusable, Review float64 }

// Fit chooses the rule's starts on rs: confusable where the candidates at
// or above it reach MinPrecision (at least 5 positives), review where the
// review candidates flag at most MaxReviewRate pairs per tool.
func (u Rule) Fit(rs []Ranked) Starts {
	var conf, review []Scored
	for _, r := range rs {
		if u.Candidate(r) {
			conf = append(conf, r.Scored)
		}
		if u.reviewCandidate(r) {
			review = append(review, r.Scored)
		}
	}
	c := PrecisionThreshold(conf, MinPrecision, 5)
	tools := Tools(Samples(scoredOf(rs)))
	return Starts{Confusable: c, Review: min(c, RateThreshold(review, tools, MaxReviewRate))}
}

// Judge tallies rs under the rule at st: the confusable verdict, the
// review list (confusable included) and how many pairs it holds.
func (u Rule) Judge(rs []Ranked, st Starts) (conf, review Counts, listed int) {
	for _, r := range rs {
		c := u.Candidate(r) && r.Risk >= st.Confusable
		w := c || (u.reviewCandidate(r) && r.Risk >= st.Review)
		conf = conf.Add(Count(c, r.Positive))
		review = review.Add(Count(w, r.Positive))
		if w {
			listed++
		}
	}
	return conf, review, listed
}

// Count tallies one pair: flagged or not, positive or not.
func Count(flagged, positive bool) Counts {
	switch {
	case flagged && positive:
		return Counts{TP: 1}
	case flagged:
		return Counts{FP: 1}
	case positive:
		return Counts{FN: 1}
	}
	return Counts{}
}

func scoredOf(rs []Ranked) []Scored {
	out := make([]Scored, len(rs))
	for k, r := range rs {
		out[k] = r.Scored
	}
	return out
}

// Nested judges each group of held by the rule with starts fitted on the
// other groups of pool (held's groups among them), and sums the tallies.
func (u Rule) Nested(pool, held []Ranked) (conf, review Counts, listed int) {
	for _, g := range Groups(Samples(scoredOf(held))) {
		var rest, own []Ranked
		for _, r := range pool {
			if r.Group != g {
				rest = append(rest, r)
			}
		}
		for _, r := range held {
			if r.Group == g {
				own = append(own, r)
			}
		}
		c, w, n := u.Judge(own, u.Fit(rest))
		conf, review, listed = conf.Add(c), review.Add(w), listed+n
	}
	return conf, review, listed
}

// TwinsF1 is the rule's confusable verdict on the twins, each set at the
// F1-best threshold of the other sets' candidates: the protocol of the
// per-fold F1 of the plain risk.
func (u Rule) TwinsF1(rs []Ranked) Counts {
	var sum Counts
	for _, g := range Groups(Samples(scoredOf(rs))) {
		var rest []Scored
		var own []Ranked
		for _, r := range rs {
			if r.Group == g {
				own = append(own, r)
			} else if u.Candidate(r) {
				rest = append(rest, r.Scored)
			}
		}
		t := math.Inf(1)
		if len(rest) > 0 {
			t = BestRiskThreshold(rest)
		}
		c, _, _ := u.Judge(own, Starts{Confusable: t, Review: t})
		sum = sum.Add(c)
	}
	return sum
}
