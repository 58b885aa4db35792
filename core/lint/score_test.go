package lint

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/similarity"
	"toolscope/core/tokens"
)

// scoreCase is a catalog and a report about it built by hand, so that a
// test can make one thing worse and keep the rest.
type scoreCase struct {
	cat    *catalog.Catalog
	report *Report
	probed []ProbedPair
}

func (c scoreCase) score() *Score { return ScoreOf(c.report, c.cat, c.probed) }

// randomCase is a catalog of 2 to 8 tools with random findings, pairs and
// token counts.
func randomCase(rng *rand.Rand) scoreCase {
	n := 2 + rng.IntN(7)
	c := scoreCase{cat: &catalog.Catalog{}, report: &Report{Tokens: &tokens.Catalog{}}}
	for i := range n {
		name := fmt.Sprintf("tool_%d", i)
		desc := "Does a thing."
		if rng.IntN(6) == 0 {
			desc = ""
		}
		c.cat.Tools = append(c.cat.Tools, &catalog.Tool{Index: i, Name: name, Description: desc})
		c.report.Tokens.Tools = append(c.report.Tokens.Tools, tokens.Tool{Name: name, O200k: rng.IntN(3000)})
		for range rng.IntN(4) {
			c.report.Structural = append(c.report.Structural, randomFinding(rng, name))
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			switch rng.IntN(5) {
			case 0:
				c.report.Similarity.Confusable = append(c.report.Similarity.Confusable, pairFinding(c.cat, i, j, similarity.Confusable))
			case 1:
				c.report.Similarity.Watch = append(c.report.Similarity.Watch, pairFinding(c.cat, i, j, similarity.Watch))
			}
			if rng.IntN(6) == 0 {
				of := 1 + rng.IntN(10)
				c.probed = append(c.probed, ProbedPair{A: c.cat.Tools[i].Name, B: c.cat.Tools[j].Name, Count: rng.IntN(of + 1), Of: of})
			}
		}
	}
	if rng.IntN(5) == 0 {
		c.report.Structural = append(c.report.Structural, Finding{Rule: RuleCatalogTokens, Tool: c.cat.Tools[n-1].Name, Severity: SeverityWarn})
	}
	return c
}

func randomFinding(rng *rand.Rand, tool string) Finding {
	sev := SeverityWarn
	if rng.IntN(3) == 0 {
		sev = SeverityError
	}
	return Finding{Rule: "says-what-not-when", Tool: tool, Severity: sev}
}

func pairFinding(cat *catalog.Catalog, i, j int, kind similarity.Verdict) similarity.PairFinding {
	return similarity.PairFinding{Kind: kind, Pair: similarity.Pair{A: cat.Tools[i].Name, B: cat.Tools[j].Name, I: i, J: j}}
}

// clone copies a case deeply enough to change it.
func (c scoreCase) clone() scoreCase {
	cat := &catalog.Catalog{}
	for _, t := range c.cat.Tools {
		tc := *t
		cat.Tools = append(cat.Tools, &tc)
	}
	r := *c.report
	r.Structural = slices.Clone(r.Structural)
	r.Similarity.Confusable = slices.Clone(r.Similarity.Confusable)
	r.Similarity.Watch = slices.Clone(r.Similarity.Watch)
	tk := *r.Tokens
	tk.Tools = slices.Clone(tk.Tools)
	r.Tokens = &tk
	return scoreCase{cat: cat, report: &r, probed: slices.Clone(c.probed)}
}

// notRaised fails when any score of after is above before's: the
// catalog's, or a tool's that both have.
func notRaised(t *testing.T, what string, before, after *Score) {
	t.Helper()
	if after.Catalog > before.Catalog {
		t.Errorf("%s raised the catalog's score: %d -> %d", what, before.Catalog, after.Catalog)
	}
	for name, b := range before.Tools {
		if a, ok := after.Tools[name]; ok && a > b {
			t.Errorf("%s raised %s's score: %d -> %d", what, name, b, a)
		}
	}
}

// A worse description never raises a score: one more finding on the tool,
// a finding made an error, the description blanked, the definition grown.
func TestScoreWorseDescriptionNeverRaises(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	worse := []struct {
		name string
		make func(c scoreCase, i int)
	}{
		{"a warning more", func(c scoreCase, i int) {
			c.report.Structural = append(c.report.Structural, Finding{Rule: "enum-in-prose", Tool: c.cat.Tools[i].Name, Severity: SeverityWarn})
		}},
		{"an error more", func(c scoreCase, i int) {
			c.report.Structural = append(c.report.Structural, Finding{Rule: "tool-poisoning", Tool: c.cat.Tools[i].Name, Severity: SeverityError})
		}},
		{"a warning made an error", func(c scoreCase, i int) {
			for k, f := range c.report.Structural {
				if f.Tool == c.cat.Tools[i].Name && f.Severity == SeverityWarn {
					c.report.Structural[k].Severity = SeverityError
					return
				}
			}
		}},
		{"the description blanked", func(c scoreCase, i int) { c.cat.Tools[i].Description = "" }},
		{"the definition grown", func(c scoreCase, i int) { c.report.Tokens.Tools[i].O200k += 500 }},
	}
	for _, w := range worse {
		t.Run(w.name, func(t *testing.T) {
			for range 500 {
				c := randomCase(rng)
				i := rng.IntN(len(c.cat.Tools))
				before := c.score()
				d := c.clone()
				w.make(d, i)
				notRaised(t, w.name+" on "+c.cat.Tools[i].Name, before, d.score())
			}
		})
	}
}

// A pair made worse never raises a score: a new review or confusable
// pair, a review pair made confusable, a probe that measured more
// crossings.
func TestScoreWorsePairNeverRaises(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		c := randomCase(rng)
		before := c.score()
		i, j := rng.IntN(len(c.cat.Tools)), rng.IntN(len(c.cat.Tools))
		if i == j {
			continue
		}
		d := c.clone()
		kind := []similarity.Verdict{similarity.Confusable, similarity.Watch}[rng.IntN(2)]
		if kind == similarity.Confusable {
			d.report.Similarity.Confusable = append(d.report.Similarity.Confusable, pairFinding(d.cat, i, j, kind))
		} else {
			d.report.Similarity.Watch = append(d.report.Similarity.Watch, pairFinding(d.cat, i, j, kind))
		}
		notRaised(t, "a new "+string(kind)+" pair", before, d.score())
		if len(c.probed) > 0 {
			e := c.clone()
			k := rng.IntN(len(e.probed))
			if e.probed[k].Count < e.probed[k].Of {
				e.probed[k].Count++
				notRaised(t, "one more crossing measured", before, e.score())
			}
		}
	}
}

// An added twin never raises the catalog's score: a copy of a tool under
// another name, with the tool's findings, its pairs and its tokens, and
// a confusable pair with the tool.
func TestScoreAddedTwinNeverRaisesTheCatalog(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		c := randomCase(rng)
		before := c.score()
		d := c.clone()
		k := rng.IntN(len(d.cat.Tools))
		orig := d.cat.Tools[k]
		twin := &catalog.Tool{Index: len(d.cat.Tools), Name: orig.Name + "_copy", Description: orig.Description}
		d.cat.Tools = append(d.cat.Tools, twin)
		d.report.Tokens.Tools = append(d.report.Tokens.Tools, tokens.Tool{Name: twin.Name, O200k: d.report.Tokens.Tools[k].O200k})
		for _, f := range c.report.Structural {
			if f.Tool == orig.Name && f.Rule != RuleCatalogTokens {
				f.Tool = twin.Name
				d.report.Structural = append(d.report.Structural, f)
			}
		}
		mirror := func(list []similarity.PairFinding) []similarity.PairFinding {
			for _, p := range list {
				switch orig.Name {
				case p.A:
					p.A = twin.Name
				case p.B:
					p.B = twin.Name
				default:
					continue
				}
				list = append(list, p)
			}
			return list
		}
		d.report.Similarity.Confusable = mirror(d.report.Similarity.Confusable)
		d.report.Similarity.Watch = mirror(d.report.Similarity.Watch)
		d.report.Similarity.Confusable = append(d.report.Similarity.Confusable, pairFinding(d.cat, k, twin.Index, similarity.Confusable))
		for _, p := range c.probed {
			switch orig.Name {
			case p.A:
				p.A = twin.Name
			case p.B:
				p.B = twin.Name
			default:
				continue
			}
			d.probed = append(d.probed, p)
		}
		after := d.score()
		if after.Catalog > before.Catalog {
			t.Fatalf("a twin of %s raised the catalog's score: %d -> %d\nbefore %v\nafter %v", orig.Name, before.Catalog, after.Catalog, before.Tools, after.Tools)
		}
	}
}

// Every score is within 0 to 100, whatever the report holds.
func TestScoreRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 500 {
		c := randomCase(rng)
		s := c.score()
		if s.Catalog < 0 || s.Catalog > 100 {
			t.Fatalf("catalog score %d", s.Catalog)
		}
		for name, v := range s.Tools {
			if v < 0 || v > 100 {
				t.Fatalf("%s scores %d", name, v)
			}
		}
	}
}

// The formula's parts, each on its own: what a clean tool, a warning, an
// error, a pair, a measure and a missing description give.
func TestScoreParts(t *testing.T) {
	tool := func(name, desc string) *catalog.Tool { return &catalog.Tool{Name: name, Description: desc} }
	two := func() *catalog.Catalog {
		return &catalog.Catalog{Tools: []*catalog.Tool{tool("a", "Reads a."), tool("b", "Reads b.")}}
	}
	confusable := similarity.PairFinding{Kind: similarity.Confusable, Pair: similarity.Pair{A: "a", B: "b", J: 1}}
	tests := []struct {
		name    string
		cat     *catalog.Catalog
		report  Report
		probed  []ProbedPair
		a, b    int
		catalog int
	}{
		{"clean", two(), Report{}, nil, 100, 100, 100},
		{"a warning", two(), Report{Structural: []Finding{{Tool: "a", Severity: SeverityWarn}}}, nil, 90, 100, 93},
		{"warnings floor at 70", two(), Report{Structural: slices.Repeat([]Finding{{Tool: "a", Severity: SeverityWarn}}, 9)}, nil, 70, 100, 79},
		{"an error", two(), Report{Structural: []Finding{{Tool: "a", Severity: SeverityError}}}, nil, 30, 100, 51},
		{"a confusable pair", two(), Report{Similarity: similarity.Result{Confusable: []similarity.PairFinding{confusable}}}, nil, 50, 50, 50},
		{"a probe that measured no crossing outweighs the verdict", two(), Report{Similarity: similarity.Result{Confusable: []similarity.PairFinding{confusable}}},
			[]ProbedPair{{A: "a", B: "b", Count: 0, Of: 10}}, 100, 100, 100},
		{"a probe that measured crossings", two(), Report{}, []ProbedPair{{A: "b", B: "a", Count: 2, Of: 10}}, 80, 80, 80},
		{"no description", &catalog.Catalog{Tools: []*catalog.Tool{tool("a", " "), tool("b", "Reads b.")}}, Report{}, nil, NoDescriptionCap, 100, 37},
		{"a catalog-wide finding", two(), Report{Structural: []Finding{{Rule: RuleTooManyTools, Tool: "b", Severity: SeverityError}}}, nil, 100, 100, 70},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.report.Tokens = &tokens.Catalog{Tools: []tokens.Tool{{Name: "a", O200k: 50}, {Name: "b", O200k: 50}}}
			s := ScoreOf(&tt.report, tt.cat, tt.probed)
			if s.Tools["a"] != tt.a || s.Tools["b"] != tt.b || s.Catalog != tt.catalog {
				t.Errorf("a %d, b %d, catalog %d; want %d, %d, %d", s.Tools["a"], s.Tools["b"], s.Catalog, tt.a, tt.b, tt.catalog)
			}
		})
	}
}

// A long definition costs up to a tenth of the score, none below 600
// tokens.
func TestScoreTokens(t *testing.T) {
	for _, tt := range []struct{ n, want int }{{0, 100}, {600, 100}, {1500, 95}, {2400, 90}, {9000, 90}} {
		cat := &catalog.Catalog{Tools: []*catalog.Tool{{Name: "a", Description: "Reads a."}}}
		r := &Report{Tokens: &tokens.Catalog{Tools: []tokens.Tool{{Name: "a", O200k: tt.n}}}}
		if got := ScoreOf(r, cat, nil).Tools["a"]; got != tt.want {
			t.Errorf("%d tokens: score %d, want %d", tt.n, got, tt.want)
		}
	}
}

func TestBand(t *testing.T) {
	for _, tt := range []struct {
		score int
		want  string
	}{{100, "good"}, {85, "good"}, {84, "fair"}, {60, "fair"}, {59, "poor"}, {35, "poor"}, {34, "bad"}, {0, "bad"}} {
		if got := Band(tt.score); got != tt.want {
			t.Errorf("Band(%d) = %s, want %s", tt.score, got, tt.want)
		}
	}
}

// Without the report's token counts the score counts only the definitions
// long enough to cost, and scores as it does with every count.
func TestScoreCountsOnlyLongDefinitions(t *testing.T) {
	cat := &catalog.Catalog{Tools: []*catalog.Tool{
		{Index: 0, Name: "short", Description: "Reads a."},
		{Index: 1, Name: "long", Description: strings.Repeat("Reads the volume's many metrics and their history. ", 150)},
		{Index: 2, Name: "middle", Description: strings.Repeat("word ", 120)},
	}}
	measured := tokens.Measure(cat, 0, false)
	with := ScoreOf(&Report{Tokens: &measured}, cat, nil)
	without := ScoreOf(&Report{}, cat, nil)
	if !maps.Equal(with.Tools, without.Tools) || with.Catalog != without.Catalog {
		t.Errorf("scored without the counts %v (%d), with them %v (%d)", without.Tools, without.Catalog, with.Tools, with.Catalog)
	}
	meter := tokens.NewMeter(nil)
	for range 2 { // the second time, every count from the meter's memory
		metered := ScoreWith(&Report{}, cat, nil, meter)
		if !maps.Equal(with.Tools, metered.Tools) || with.Catalog != metered.Catalog {
			t.Errorf("scored with a meter %v (%d), with the report's counts %v (%d)", metered.Tools, metered.Catalog, with.Tools, with.Catalog)
		}
	}
	if without.Tools["long"] >= 100 || without.Parts[0].TokenCount != 0 || without.Parts[1].TokenCount != measured.Tools[1].O200k {
		t.Errorf("long scores %d with %d tokens counted, short %d counted; want a charge, the count %d, and 0", without.Tools["long"], without.Parts[1].TokenCount, without.Parts[0].TokenCount, measured.Tools[1].O200k)
	}
}
