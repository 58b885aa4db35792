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
	w, err := s.newWhatIf(catalogIndex, description, others)
	if err != nil {
		return nil, err
	}
	if err := w.embed(ctx, e); err != nil {
		return nil, err
	}
	aff := w.affinities(&w.sides[0])
	w.sides[0].usual = usualOf(aff, w.sides[0].k, s.k)
	for x := 1; x < len(w.sides); x++ {
		d := &w.sides[x]
		d.usual = usualOf(w.affinities(d), d.k, s.k)
	}
	out := w.pairs(aff)
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

// whatIf is one what-if under way: the scored catalog, its tools with the
// edited descriptions in, and the edited tools, the open one first.
type whatIf struct {
	s     *Scores
	tools []*catalog.Tool
	sides []whatIfSide
	side  map[int]int // scored place → sides
	marks []uint8     // the name tokens of the tool whose affinities are worked out
}

// newWhatIf puts the open tool's description, and the drafts of the
// tools scored, in a copy of the tools. The drafted tools come after the
// open one in catalog order, so a run does not depend on the map's order.
func (s *Scores) newWhatIf(catalogIndex int, description string, others map[int]string) (*whatIf, error) {
	at := func(index int) int {
		return slices.IndexFunc(s.tools, func(t *catalog.Tool) bool { return t.Index == index })
	}
	k := at(catalogIndex)
	if k < 0 {
		return nil, fmt.Errorf("tool %d is not scored (a repeated name, or out of range)", catalogIndex)
	}
	w := &whatIf{s: s, tools: slices.Clone(s.tools), sides: []whatIfSide{{k: k}}}
	replace := func(at int, text string) {
		t := *s.tools[at]
		t.Description, t.HasDescription = text, true
		w.tools[at] = &t
	}
	replace(k, description)
	indexes := make([]int, 0, len(others))
	for i := range others {
		indexes = append(indexes, i)
	}
	slices.Sort(indexes)
	for _, i := range indexes {
		if j := at(i); j >= 0 && j != k {
			replace(j, others[i])
			w.sides = append(w.sides, whatIfSide{k: j})
		}
	}
	return w, nil
}

// embed embeds the edited tools' two new texts and sets each side's
// vectors. The first sentence's norm is summed as the kernel sums it, so
// an unchanged description gives the scored risks to the bit.
func (w *whatIf) embed(ctx context.Context, e embed.Embedder) error {
	texts := make([]string, 0, 2*len(w.sides))
	for _, d := range w.sides {
		texts = append(texts, AdaptiveText(w.tools[d.k]), FullText(w.tools[d.k], w.s.fullWords))
	}
	vs, err := e.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embedding with %s: %w", e.ID(), err)
	}
	g := w.s.geo
	if len(vs) != len(texts) {
		return fmt.Errorf("embedding with %s: vectors of the wrong shape", e.ID())
	}
	for _, v := range vs {
		if len(v) != g.dim {
			return fmt.Errorf("embedding with %s: vectors of the wrong shape", e.ID())
		}
	}
	w.side = make(map[int]int, len(w.sides))
	for x := range w.sides {
		d := &w.sides[x]
		d.first, d.full = vs[2*x], unitRows(vs[2*x+1:2*x+2], g.dim)
		var sq float64
		for _, v := range d.first {
			sq += float64(float64(v) * float64(v))
		}
		d.norm = math.Sqrt(sq)
		w.side[d.k] = x
	}
	return nil
}

// affinities gives an edited tool's affinity to every tool, each other
// edited tool by its new vector. The first sentence's cosine is computed
// as the kernel computes it (the raw vectors' product over their norms).
func (w *whatIf) affinities(d *whatIfSide) []float64 {
	g := w.s.geo
	if w.marks == nil {
		w.marks = make([]uint8, g.vocab)
	}
	for _, id := range g.tokens[d.k] {
		w.marks[id] = 1
	}
	n := len(w.s.tools)
	aff := make([]float64, n)
	for j := range n {
		if j == d.k {
			continue
		}
		var c float64
		if o, ok := w.side[j]; ok {
			if q := &w.sides[o]; d.norm != 0 && q.norm != 0 {
				c = g.dotVecs(d.first, q.first) / (d.norm * q.norm)
			}
		} else if nj := g.norms[j]; d.norm != 0 && nj != 0 {
			c = g.dotWith(d.first, j) / (d.norm * nj)
		}
		aff[j] = c + g.weight*g.jaccard(w.marks, d.k, j)
	}
	for _, id := range g.tokens[d.k] {
		w.marks[id] = 0
	}
	return aff
}

// pairs scores the open tool against every other, aff being its
// affinities, with the word weights and guidance counted again on the
// edited tools.
func (w *whatIf) pairs(aff []float64) []WhatIfPair {
	s, g, r := w.s, w.s.geo, w.s.geo.risk
	k, n := w.sides[0].k, len(s.tools)
	terms, vocab := tfidf(w.tools)
	bagged, _ := bags(w.tools, 0)
	mentions := guidedMentions(w.tools)
	out := make([]WhatIfPair, 0, n-1)
	risks := make([]float64, n)
	for j := range n {
		if j == k {
			continue
		}
		var x Features
		usualJ, fullJ := g.usual[j], r.full[j*g.dim:(j+1)*g.dim]
		if o, ok := w.side[j]; ok {
			usualJ, fullJ = w.sides[o].usual, w.sides[o].full
		}
		x[FeatAdaptive] = 2*aff[j] - w.sides[0].usual - usualJ
		x[FeatFull] = float64(vecf32.Dot(w.sides[0].full, fullJ))
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
	return out
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
