package similarity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"toolscope/core/catalog"
	"toolscope/core/vecf32"
	"toolscope/embed"
)

// WhatIf scores one tool, its description replaced, against every other
// tool under the risk scoring, without scoring the catalog again: it
// embeds the tool's two new texts and recomputes the pair features the
// description touches (the tool's first-sentence and full-text vectors,
// its usual neighbours, its word weights, the tools it names with
// guidance; the word rarities are counted again with the edit). The
// other tools' usual neighbours stay as scored, so a what-if risk can
// differ from a full re-lint by a little when the edit moves the tool far. Pairs come back
// riskiest first, A the edited tool. e must be the embedder the catalog
// was scored with.
func (s *Scores) WhatIf(ctx context.Context, e embed.Embedder, catalogIndex int, description string) ([]Pair, error) {
	explained, err := s.WhatIfExplained(ctx, e, catalogIndex, description, nil)
	out := make([]Pair, len(explained))
	for i := range explained {
		out[i] = explained[i].Pair
	}
	return out, err
}

// WhatIfPair is one pair of a what-if: the edited tool A, the other B, the
// risk, and the features that moved it most.
type WhatIfPair struct {
	Pair
	Reasons []Reason
}

// whatIfSide is one edited tool of a what-if: its place among the scored
// tools, its new first-sentence vector (raw) and that vector's norm, its
// new full-text vector (unit) and its usual affinity recomputed.
type whatIfSide struct {
	k     int
	first []float32
	norm  float64
	full  []float32
	usual float64
}

// WhatIfExplained is WhatIf with each pair's main reasons, as a verdict
// gives them, and with other tools' drafts: others maps a catalog index
// to a description that stands for the tool's own in the what-if (a
// draft for the edited tool itself, or for a tool not scored, is
// ignored). A pair between the edited tool and a drafted one is scored
// with both new texts: both tools' vectors, both usual affinities, both
// word weights and guidance. The approximation is WhatIf's: the tools
// without a draft keep their usual neighbours as scored.
func (s *Scores) WhatIfExplained(ctx context.Context, e embed.Embedder, catalogIndex int, description string, others map[int]string) ([]WhatIfPair, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.geo == nil || s.geo.risk == nil {
		return nil, errors.New("what-if needs the risk scoring")
	}
	at := func(index int) int {
		return slices.IndexFunc(s.tools, func(t *catalog.Tool) bool { return t.Index == index })
	}
	k := at(catalogIndex)
	if k < 0 {
		return nil, fmt.Errorf("tool %d is not scored (a repeated name, or out of range)", catalogIndex)
	}
	tools := slices.Clone(s.tools)
	replace := func(at int, text string) {
		t := *s.tools[at]
		t.Description, t.HasDescription = text, true
		tools[at] = &t
	}
	replace(k, description)
	// The edited tools, the open one first, the drafted ones in catalog
	// order so a run does not depend on the map's order.
	sides := []whatIfSide{{k: k}}
	indexes := make([]int, 0, len(others))
	for i := range others {
		indexes = append(indexes, i)
	}
	slices.Sort(indexes)
	for _, i := range indexes {
		if j := at(i); j >= 0 && j != k {
			replace(j, others[i])
			sides = append(sides, whatIfSide{k: j})
		}
	}
	texts := make([]string, 0, 2*len(sides))
	for _, d := range sides {
		texts = append(texts, AdaptiveText(tools[d.k]), FullText(tools[d.k], s.fullWords))
	}
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embedding with %s: %w", e.ID(), err)
	}
	g, r := s.geo, s.geo.risk
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("embedding with %s: vectors of the wrong shape", e.ID())
	}
	for _, v := range vs {
		if len(v) != g.dim {
			return nil, fmt.Errorf("embedding with %s: vectors of the wrong shape", e.ID())
		}
	}
	// The first sentence's cosine is computed as the kernel computes it
	// (the raw vectors' product over their norms), so an unchanged
	// description gives the scored risks to the bit.
	n := len(s.tools)
	side := make(map[int]int, len(sides)) // scored place → sides
	for x := range sides {
		d := &sides[x]
		d.first, d.full = vs[2*x], unitRows(vs[2*x+1:2*x+2], g.dim)
		var sq float64
		for _, v := range d.first {
			sq += float64(float64(v) * float64(v))
		}
		d.norm = math.Sqrt(sq)
		side[d.k] = x
	}
	// affinities gives an edited tool's affinity to every tool, each
	// other edited tool by its new vector.
	marks := make([]uint8, g.vocab)
	affinities := func(d *whatIfSide) []float64 {
		for _, id := range g.tokens[d.k] {
			marks[id] = 1
		}
		aff := make([]float64, n)
		for j := range n {
			if j == d.k {
				continue
			}
			var c float64
			if o, ok := side[j]; ok {
				if q := &sides[o]; d.norm != 0 && q.norm != 0 {
					c = g.dotVecs(d.first, q.first) / (d.norm * q.norm)
				}
			} else if nj := g.norms[j]; d.norm != 0 && nj != 0 {
				c = g.dotWith(d.first, j) / (d.norm * nj)
			}
			aff[j] = c + g.weight*g.jaccard(marks, d.k, j)
		}
		for _, id := range g.tokens[d.k] {
			marks[id] = 0
		}
		return aff
	}
	aff := affinities(&sides[0])
	sides[0].usual = usualOf(aff, k, s.k)
	for x := 1; x < len(sides); x++ {
		sides[x].usual = usualOf(affinities(&sides[x]), sides[x].k, s.k)
	}
	terms, vocab := tfidf(tools)
	bagged, _ := bags(tools, 0)
	mentions := guidedMentions(tools)
	out := make([]WhatIfPair, 0, n-1)
	risks := make([]float64, n)
	for j := range n {
		if j == k {
			continue
		}
		var x Features
		usualJ, fullJ := g.usual[j], r.full[j*g.dim:(j+1)*g.dim]
		if o, ok := side[j]; ok {
			usualJ, fullJ = sides[o].usual, sides[o].full
		}
		x[FeatAdaptive] = 2*aff[j] - sides[0].usual - usualJ
		x[FeatFull] = float64(vecf32.Dot(sides[0].full, fullJ))
		x[FeatTerms] = sparseDot(terms[k], terms[j])
		x[FeatBag] = sparseDot(bagged[k], bagged[j])
		i1, j1 := k, j
		if j < k {
			i1, j1 = j, k
		}
		rel := relate(&r.parts[i1], &r.parts[j1])
		x[FeatOpposite] = b2f(rel.opposite)
		x[FeatOtherAction] = b2f(rel.otherVerb)
		x[FeatNested] = b2f(rel.nested)
		x[FeatGuided] = b2f(mentions[k][j] && mentions[j][k])
		risks[j] = s.model.Risk(x)
		out = append(out, WhatIfPair{
			Pair: Pair{A: s.tools[k].Name, B: s.tools[j].Name, I: s.tools[k].Index, J: s.tools[j].Index, Similarity: risks[j], Risk: &risks[j]},
			Reasons: s.model.reasons(x, reasonContext{a: r.parts[i1], b: r.parts[j1], nameA: s.tools[i1].Name, nameB: s.tools[j1].Name,
				shared: sharedTerms(terms[i1], terms[j1], vocab, MaxHintTerms)}),
		})
	}
	slices.SortStableFunc(out, func(p, q WhatIfPair) int {
		switch {
		case p.Similarity > q.Similarity:
			return -1
		case p.Similarity < q.Similarity:
			return 1
		}
		return 0
	})
	return out, nil
}

// usualOf is tool k's mean affinity to its kk nearest others.
func usualOf(aff []float64, k, kk int) float64 {
	others := make([]float64, 0, len(aff)-1)
	for j, a := range aff {
		if j != k {
			others = append(others, a)
		}
	}
	slices.Sort(others)
	slices.Reverse(others)
	kk = max(1, min(kk, len(others)))
	var sum float64
	for _, a := range others[:kk] {
		sum += a
	}
	return sum / float64(kk)
}
