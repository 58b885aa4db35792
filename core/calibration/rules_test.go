package calibration

import "testing"

// A catalog of four tools: a-b is each one's riskiest pair, a-c is a's
// second and c's first, d pairs low with everyone.
func rulesCatalog(group string) []Scored {
	s := func(a, b string, risk float64, positive bool) Scored {
		return Scored{Sample: Sample{Group: group, A: a, B: b, Positive: positive}, Risk: risk}
	}
	return []Scored{
		s("a", "b", 0.9, true),
		s("a", "c", 0.6, false),
		s("b", "c", 0.3, false),
		s("a", "d", 0.1, false),
		s("b", "d", 0.05, false),
		s("c", "d", 0.2, true),
	}
}

func TestRankPlacesEachPairInBothNeighbourhoods(t *testing.T) {
	rs := Rank(rulesCatalog("g"))
	want := map[[2]string]Ranked{
		{"a", "b"}: {RankA: 1, RankB: 1, NextA: 0.6, NextB: 0.3},
		{"a", "c"}: {RankA: 2, RankB: 1, NextA: 0.9, NextB: 0.3},
		{"b", "c"}: {RankA: 2, RankB: 2, NextA: 0.9, NextB: 0.6},
		{"c", "d"}: {RankA: 3, RankB: 1, NextA: 0.6, NextB: 0.1},
	}
	for _, r := range rs {
		w, ok := want[[2]string{r.A, r.B}]
		if !ok {
			continue
		}
		if r.RankA != w.RankA || r.RankB != w.RankB || r.NextA != w.NextA || r.NextB != w.NextB {
			t.Errorf("%s/%s: ranks %d/%d next %g/%g, want %d/%d next %g/%g", r.A, r.B, r.RankA, r.RankB, r.NextA, r.NextB, w.RankA, w.RankB, w.NextA, w.NextB)
		}
	}
}

func TestRuleCandidates(t *testing.T) {
	rs := Rank(rulesCatalog("g"))
	tests := []struct {
		rule             Rule
		confusable, list []string // the pairs each kind admits, by A+B
	}{
		{Rule{}, []string{"ab", "ac", "bc", "ad", "bd", "cd"}, []string{"ab", "ac", "bc", "ad", "bd", "cd"}},
		{Rule{Mutual: 1, PerTool: 1}, []string{"ab"}, []string{"ab", "ac", "cd"}},
		{Rule{PerTool: 2, BothTop: true}, []string{"ab", "ac", "bc", "ad", "bd", "cd"}, []string{"ab", "ac", "bc"}},
		{Rule{Mutual: 2}, []string{"ab", "ac", "bc"}, []string{"ab", "ac", "bc", "ad", "bd", "cd"}},
		{Rule{Margin: 1.5, PerTool: 2}, []string{"ab"}, []string{"ab", "ac", "bc", "ad", "cd"}},
		{Rule{Margin: 1.05}, []string{"ab"}, []string{"ab", "ac", "bc", "ad", "bd", "cd"}}, // c-d: 0.2 < 1.05 × c's 0.6
	}
	for _, tt := range tests {
		var conf, list []string
		for _, r := range rs {
			if tt.rule.Candidate(r) {
				conf = append(conf, r.A+r.B)
			}
			if tt.rule.reviewCandidate(r) {
				list = append(list, r.A+r.B)
			}
		}
		if !equal(conf, tt.confusable) || !equal(list, tt.list) {
			t.Errorf("%+v: confusable %v review %v, want %v and %v", tt.rule, conf, list, tt.confusable, tt.list)
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func TestRuleJudgeAndNested(t *testing.T) {
	rs := Rank(rulesCatalog("g"))
	// At confusable 0.5 with mutual top-1 only a-b is confusable (a-c is
	// not a's first); the review list adds each tool's first from 0.15.
	u := Rule{Mutual: 1, PerTool: 1}
	conf, review, listed := u.Judge(rs, Starts{Confusable: 0.5, Review: 0.15})
	if conf != (Counts{TP: 1, FN: 1}) || review != (Counts{TP: 2, FP: 1}) || listed != 3 {
		t.Errorf("Judge: confusable %+v review %+v listed %d", conf, review, listed)
	}
	// Held out, a catalog is judged at the starts of the others: two
	// copies of the catalog place each other's bands the same way.
	pool := append(Rank(rulesCatalog("g1")), Rank(rulesCatalog("g2"))...)
	nc, _, _ := u.Nested(pool, pool)
	want, _, _ := u.Judge(Rank(rulesCatalog("g1")), u.Fit(Rank(rulesCatalog("g2"))))
	if nc != want.Add(want) {
		t.Errorf("Nested confusable %+v, want twice %+v", nc, want)
	}
}
