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
// guidance). The other tools' usual neighbours and the catalog's word
// rarities stay as scored, so a what-if risk can differ from a full
// re-lint by a little when the edit moves the tool far. Pairs come back
// riskiest first, A the edited tool. e must be the embedder the catalog
// was scored with.
func (s *Scores) WhatIf(ctx context.Context, e embed.Embedder, catalogIndex int, description string) ([]Pair, error) {
	explained, err := s.WhatIfExplained(ctx, e, catalogIndex, description)
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

// WhatIfExplained is WhatIf with each pair's main reasons, as a verdict
// gives them.
func (s *Scores) WhatIfExplained(ctx context.Context, e embed.Embedder, catalogIndex int, description string) ([]WhatIfPair, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.geo == nil || s.geo.risk == nil {
		return nil, errors.New("what-if needs the risk scoring")
	}
	k := slices.IndexFunc(s.tools, func(t *catalog.Tool) bool { return t.Index == catalogIndex })
	if k < 0 {
		return nil, fmt.Errorf("tool %d is not scored (a repeated name, or out of range)", catalogIndex)
	}
	edited := *s.tools[k]
	edited.Description, edited.HasDescription = description, true
	vs, err := e.Embed(ctx, []string{AdaptiveText(&edited), FullText(&edited, s.fullWords)})
	if err != nil {
		return nil, fmt.Errorf("embedding with %s: %w", e.ID(), err)
	}
	g, r := s.geo, s.geo.risk
	if len(vs) != 2 || len(vs[0]) != g.dim || len(vs[1]) != g.dim {
		return nil, fmt.Errorf("embedding with %s: vectors of the wrong shape", e.ID())
	}
	// The first sentence's cosine is computed as the kernel computes it
	// (the raw vectors' product over their norms), so an unchanged
	// description gives the scored risks to the bit.
	first, full := vs[0], unitRows(vs[1:], g.dim)
	var sq float64
	for _, x := range first {
		sq += float64(float64(x) * float64(x))
	}
	norm := math.Sqrt(sq)
	tools := slices.Clone(s.tools)
	tools[k] = &edited
	terms, vocab := tfidf(tools)
	bagged, _ := bags(tools, 0)
	mentions := guidedMentions(tools)

	marks := make([]uint8, g.vocab)
	for _, id := range g.tokens[k] {
		marks[id] = 1
	}
	n := len(s.tools)
	aff := make([]float64, n)
	for j := range n {
		if j == k {
			continue
		}
		var c float64
		if nj := g.norms[j]; norm != 0 && nj != 0 {
			c = g.dotWith(first, j) / (norm * nj)
		}
		aff[j] = c + g.weight*g.jaccard(marks, k, j)
	}
	usual := usualOf(aff, k, s.k)
	out := make([]WhatIfPair, 0, n-1)
	risks := make([]float64, n)
	for j := range n {
		if j == k {
			continue
		}
		var x Features
		x[FeatAdaptive] = 2*aff[j] - usual - g.usual[j]
		x[FeatFull] = float64(vecf32.Dot(full, r.full[j*g.dim:(j+1)*g.dim]))
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
