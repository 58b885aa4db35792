package lint

import (
	"math"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/similarity"
	"toolscope/core/tokens"
)

// Score is a report summed up for people: each tool from 0 to 100 and the
// catalog from them (docs/lint.md, "The score"). It is a summary; the gate
// stays the gate.
type Score struct {
	// Catalog is 0.6 × the tools' mean + 0.4 × the worst tool, times the
	// catalog-wide findings' factors.
	Catalog int `json:"catalog"`
	// Tools is each tool's score by name.
	Tools map[string]int `json:"tools"`
	// Parts is each tool's score with what made it, in catalog order.
	Parts []ToolScore `json:"-"`
}

// ToolScore is one tool's score and its factors, each in (0, 1].
type ToolScore struct {
	Name  string
	Score int
	// Findings is the factor of the tool's findings, Pairs of its pairs,
	// Tokens of what its definition costs.
	Findings, Pairs, Tokens float64
	// NoDescription is set when the tool has no description: its findings
	// and tokens then score at most NoDescriptionCap.
	NoDescription bool
	// TokenCount is the definition's size in o200k_base tokens; 0 when it
	// was not counted, the definition too short to cost.
	TokenCount int
}

// ProbedPair is what a recorded probe measured of a pair whose texts have
// not changed since: of Of requests for either tool, Count went to the
// other.
type ProbedPair struct {
	A, B      string
	Count, Of int
}

// The score's weights (docs/lint.md lists them with the formula).
const (
	// errorFactor and warnFactor multiply a tool's score for each of its
	// findings; warnFloor is the least the warnings together leave.
	errorFactor = 0.3
	warnFactor  = 0.9
	warnFloor   = 0.7
	// confusableFactor multiplies a tool's score for each confusable pair
	// it is in; reviewFactor for each review pair, reviewFloor the least
	// those leave together (review pairs are advisory).
	confusableFactor = 0.5
	reviewFactor     = 0.9
	reviewFloor      = 0.7
	// probedFloor is the least a measured pair leaves: a rate of one half
	// is a coin toss between the two.
	probedFloor = 0.5
	// A definition past tokensFree tokens loses up to tokensCost of its
	// score, all of it at tokensFull.
	tokensFree = 600
	tokensFull = 2400
	tokensCost = 0.1
	// NoDescriptionCap is the most a tool without a description scores: a
	// model reads nothing but its name.
	NoDescriptionCap = 10
	// catalogErrorFactor and catalogWarnFactor multiply the catalog's score
	// for each finding about the catalog as a whole (too many tools, too
	// many tokens).
	catalogErrorFactor = 0.7
	catalogWarnFactor  = 0.9
	// meanWeight is the mean's part in the catalog's score; the worst
	// tool has the rest.
	meanWeight = 0.6
)

// ScoreOf scores a report of cat: each tool from its findings, its pairs
// (a fresh probe's measure outweighing the verdict) and its definition's
// tokens; the catalog from its tools. probed may be nil.
func ScoreOf(r *Report, cat *catalog.Catalog, probed []ProbedPair) *Score {
	return ScoreWith(r, cat, probed, nil)
}

// ScoreWith is ScoreOf with the definitions counted by m (nil: a meter of
// its own), unless the report's Tokens counts them.
func ScoreWith(r *Report, cat *catalog.Catalog, probed []ProbedPair, m *tokens.Meter) *Score {
	t := newToolFactors(cat, tokenCounts(r, cat, m))
	catalogFactor := t.findings(r.Structural)
	t.pairs(r.Similarity, probed)
	return t.score(catalogFactor)
}

// toolFactors is each tool's score in the making: its part so far, and
// the factors of its warnings and of its review pairs, which have floors
// of their own and so are multiplied apart until the end.
type toolFactors struct {
	first          map[string]int // where a name first stands
	parts          []ToolScore
	warns, reviews []float64
}

// newToolFactors starts every tool of cat at factors of 1, its tokens'
// factor from counts.
func newToolFactors(cat *catalog.Catalog, counts []int) *toolFactors {
	t := &toolFactors{
		first:   map[string]int{},
		parts:   make([]ToolScore, len(cat.Tools)),
		warns:   make([]float64, len(cat.Tools)),
		reviews: make([]float64, len(cat.Tools)),
	}
	for i, tool := range cat.Tools {
		if _, dup := t.first[tool.Name]; !dup {
			t.first[tool.Name] = i
		}
	}
	for i, tool := range cat.Tools {
		t.parts[i] = ToolScore{Name: tool.Name, Findings: 1, Pairs: 1, Tokens: tokensFactor(counts[i]), TokenCount: counts[i],
			NoDescription: strings.TrimSpace(tool.Description) == ""}
		t.warns[i], t.reviews[i] = 1, 1
	}
	return t
}

// findings weighs each finding on the tool it stands on, and returns the
// catalog's factor from those about the catalog as a whole.
func (t *toolFactors) findings(fs []Finding) float64 {
	catalogFactor := 1.0
	for _, f := range fs {
		i, ok := t.first[f.Tool]
		if !ok || f.Rule == RuleTooManyTools || f.Rule == RuleCatalogTokens {
			// A finding on the whole catalog, though it stands on a tool.
			catalogFactor *= pick(f.Severity == SeverityError, catalogErrorFactor, catalogWarnFactor)
			continue
		}
		if f.Severity == SeverityError {
			t.parts[i].Findings *= errorFactor
		} else {
			t.warns[i] *= warnFactor
		}
	}
	return catalogFactor
}

// pairs weighs each verdict pair on both its tools, unless a probe
// measured the pair: then the measure stands instead.
func (t *toolFactors) pairs(sim similarity.Result, probed []ProbedPair) {
	measured := map[string]ProbedPair{}
	for _, p := range probed {
		if p.Of > 0 {
			measured[PairKey(p.A, p.B)] = p
		}
	}
	for _, list := range [][]similarity.PairFinding{sim.Confusable, sim.Watch} {
		for _, p := range list {
			if _, ok := measured[PairKey(p.A, p.B)]; ok {
				continue // the measure below outweighs the verdict
			}
			if p.Kind == similarity.Confusable {
				t.pair(p.A, p.B, confusableFactor, false)
			} else {
				t.pair(p.A, p.B, reviewFactor, true)
			}
		}
	}
	for _, p := range measured {
		t.pair(p.A, p.B, math.Max(probedFloor, 1-float64(p.Count)/float64(p.Of)), false)
	}
}

// pair multiplies both tools' pairs factor by f, or their review factor
// for a review pair.
func (t *toolFactors) pair(a, b string, f float64, review bool) {
	for _, name := range []string{a, b} {
		i, ok := t.first[name]
		if !ok {
			continue
		}
		if review {
			t.reviews[i] *= f
		} else {
			t.parts[i].Pairs *= f
		}
	}
}

// score sums the factors up: each tool's score, and the catalog's from
// the tools' mean and the worst, times catalogFactor.
func (t *toolFactors) score(catalogFactor float64) *Score {
	s := &Score{Tools: map[string]int{}}
	sum, worst := 0.0, 100.0
	for i := range t.parts {
		p := &t.parts[i]
		p.Findings *= math.Max(warnFloor, t.warns[i])
		p.Pairs *= math.Max(reviewFloor, t.reviews[i])
		// The cap comes before the pairs: a tool without a description
		// still loses by its pairs, and its twin with it.
		v := 100 * p.Findings * p.Tokens
		if p.NoDescription {
			v = math.Min(v, NoDescriptionCap)
		}
		v *= p.Pairs
		p.Score = int(math.Round(v))
		sum += float64(p.Score)
		worst = math.Min(worst, float64(p.Score))
		if _, seen := s.Tools[p.Name]; !seen {
			s.Tools[p.Name] = p.Score
		}
	}
	catalogScore := 100.0
	if len(t.parts) > 0 {
		catalogScore = meanWeight*sum/float64(len(t.parts)) + (1-meanWeight)*worst
	}
	s.Catalog = int(math.Round(catalogScore * catalogFactor))
	s.Parts = t.parts
	return s
}

// tokenCounts is each tool's definition in o200k_base tokens: the report's
// count when it holds one, else counted by m for the definitions that can
// cost: a token is at least a byte, so a definition of tokensFree bytes or
// fewer is free and left at 0 (counting every tool would cost a large
// catalog's text report a fifth more time).
func tokenCounts(r *Report, cat *catalog.Catalog, m *tokens.Meter) []int {
	if measured, ok := reportCounts(r, cat); ok {
		return measured
	}
	out := make([]int, len(cat.Tools))
	defs := tokens.Definitions(cat.Tools)
	var long []string
	var at []int
	for i, d := range defs {
		if len(d) > tokensFree {
			long = append(long, d)
			at = append(at, i)
		}
	}
	if len(long) == 0 {
		return out
	}
	for k, n := range meterCounts(m, long) {
		out[at[k]] = n
	}
	return out
}

// definitionCounts is every tool's definition in o200k_base tokens: the
// report's counts when it holds them, else counted by m.
func definitionCounts(r *Report, cat *catalog.Catalog, m *tokens.Meter) []int {
	if measured, ok := reportCounts(r, cat); ok {
		return measured
	}
	return meterCounts(m, tokens.Definitions(cat.Tools))
}

// reportCounts is each tool's o200k_base count as the report's Tokens
// holds it, when it holds one for every tool of cat.
func reportCounts(r *Report, cat *catalog.Catalog) ([]int, bool) {
	if r.Tokens == nil || len(r.Tokens.Tools) != len(cat.Tools) {
		return nil, false
	}
	out := make([]int, len(cat.Tools))
	for i, t := range r.Tokens.Tools {
		out[i] = t.O200k
	}
	return out, true
}

// meterCounts counts defs under o200k_base with m (nil: a meter of its
// own).
func meterCounts(m *tokens.Meter, defs []string) []int {
	if m == nil {
		m = tokens.NewMeter(nil)
	}
	n, err := m.Counts(tokens.O200k, defs)
	if err != nil {
		panic("lint: " + err.Error()) // o200k_base is embedded
	}
	return n
}

// tokensFactor is what a definition of n tokens keeps of its score.
func tokensFactor(n int) float64 {
	over := float64(n-tokensFree) / float64(tokensFull-tokensFree)
	return 1 - tokensCost*math.Min(1, math.Max(0, over))
}

func pick(cond bool, a, b float64) float64 {
	if cond {
		return a
	}
	return b
}

// Band names a score's band, for a badge's colour and a page's: "good"
// from 85, "fair" from 60, "poor" from 35, "bad" below.
func Band(score int) string {
	switch {
	case score >= 85:
		return "good"
	case score >= 60:
		return "fair"
	case score >= 35:
		return "poor"
	}
	return "bad"
}
