package similarity

import (
	"math"

	"toolscope/core/vecf32"
)

// The risk kernel's first look at a pair. eval gives up on a pair as soon
// as the features still to come could not lift its log-odds to the bar,
// but it bounds the bag cosine by the product of the two tools' reaches
// (bagReach), which is near 1 for most tools, and works out the name
// relation first. On a large catalog most pairs read alike enough to pass
// that bound (with the mock embedder, which reads every pair as alike,
// 85% of them at 5,000 tools as a gate) and go on to the bag's dot
// product; fewer than 1% of those end on any list.
//
// riskBound is a cheaper and tighter bound, tried before eval: the
// adaptive score, then the full texts' cosine, then a sketch of each
// tool's bag, with every name trait and guidance at its most favourable
// (nesting only where the two names' objects could nest, mayNest).
// The sketch splits a tool's reach into buckets by word id: two bags share
// a word only inside one bucket, so by Cauchy-Schwarz bucket by bucket
// their cosine is at most the sum over buckets of the two lengths'
// products, the sketches' dot product (never above the reaches' product).
// A bound only drops pairs whose log-odds is surely under the bar, so the
// pairs kept and their risks are what eval alone gives.

// sketchBuckets is the length of a bag sketch: a multiple of 16, so the
// dot product runs in whole vector blocks.
const sketchBuckets = 64

// sketchSlack covers the rounding of a sketch's float32 dot product (at
// most sketchBuckets terms, each a product of values rounded up), so the
// bound stays above the float64 cosine it bounds.
const sketchSlack = 1e-5

// riskBound is what the first look reads beside riskGeo.
type riskBound struct {
	// sketch holds each tool's bag sketch, sketchBuckets float32s: in
	// bucket b, the length of the tool's bag on the words with id ≡ b (mod
	// sketchBuckets) that another tool's bag holds too, rounded up.
	sketch []float32
	// traits is the most the name traits and guidance can add to the
	// log-odds (their positive weights), bagWeight the bag's weight when
	// positive (0 otherwise: the bag can only lower the risk).
	traits, bagWeight float64
	// nested is the nesting's part of traits, left out for a pair whose
	// names cannot nest (mayNest).
	nested float64
}

// mayNest is false when relate cannot find names a and b nested: their
// objects are as long, or a word of the shorter is missing from the
// longer's mask.
func mayNest(a, b *nameParts) bool {
	if len(a.object) == len(b.object) {
		return false
	}
	small, large := a, b
	if len(small.object) > len(large.object) {
		small, large = b, a
	}
	return len(small.object) == 0 || small.mask&^large.mask == 0
}

// newRiskBound builds the bound for r, once its bags and reaches are set.
func newRiskBound(r *riskGeo) *riskBound {
	m := r.model
	b := &riskBound{bagWeight: max(0, m.Weights[FeatBag])}
	for _, f := range []Feature{FeatOpposite, FeatOtherAction, FeatNested, FeatGuided} {
		b.traits += max(0, m.Weights[f])
	}
	b.nested = max(0, m.Weights[FeatNested])
	df := make([]int32, r.ids)
	for _, row := range r.bags {
		for _, t := range row {
			df[t.id]++
		}
	}
	b.sketch = make([]float32, len(r.bags)*sketchBuckets)
	for k, row := range r.bags {
		var sq [sketchBuckets]float64
		for _, t := range row {
			if df[t.id] > 1 {
				sq[t.id%sketchBuckets] += t.w * t.w
			}
		}
		sketch := b.sketch[k*sketchBuckets : (k+1)*sketchBuckets]
		for at, v := range sq {
			if v > 0 {
				sketch[at] = math.Nextafter32(float32(math.Sqrt(v)), float32(math.Inf(1)))
			}
		}
	}
	return b
}

// blockDim is the widest vectors whose full texts' cosines the kernel
// works out for a whole tile at once (the mock's are 32 wide): below it a
// tile's products cost less than those of the pairs that need them, one
// by one; above it (the built-in encoder's 512) the adaptive score alone
// drops most pairs, and the rest are worked out one by one.
const blockDim = 64

// blocked says whether the kernel works out the full texts' cosines and
// the bag sketches' products a tile at a time (tile below).
func (b *riskBound) blocked(r *riskGeo) bool { return r.dim <= blockDim }

// tile fills full and sketch, as dotTile fills dots, with the full texts'
// cosines and the bag sketches' products of the pairs of sp.
func (b *riskBound) tile(r *riskGeo, full, sketch []float32, sp span) {
	d, k := r.dim, sketchBuckets
	na, nb := sp.i1-sp.i0, sp.j1-sp.j0
	vecf32.DotBlock(vecf32.Block{Dst: full, Stride: tile, A: r.full[sp.i0*d : sp.i1*d], NA: na, B: r.full[sp.j0*d : sp.j1*d], NB: nb, Dim: d})
	vecf32.DotBlock(vecf32.Block{Dst: sketch, Stride: tile, A: b.sketch[sp.i0*k : sp.i1*k], NA: na, B: b.sketch[sp.j0*k : sp.j1*k], NB: nb, Dim: k})
}

// ceiling turns a sketches' product into a bound on the bag cosine.
func ceiling(product float32) float64 {
	return float64(product)*(1+sketchSlack) + sketchSlack
}

// below reports whether pair (i, j), of adaptive score adaptive, surely
// has its log-odds under bar. pre, when set, holds the pair's full texts'
// cosine and sketches' product from a tile (their rounding, which may
// differ from the pair's own, is covered by sketchSlack); otherwise they
// are worked out here. The name relation, which costs more than the
// bounds before it, comes last.
func (b *riskBound) below(r *riskGeo, i, j int, adaptive, bar float64, pre *[2]float32) bool {
	m := r.model
	z := m.Bias + m.Weights[FeatAdaptive]*adaptive + r.termsRoom
	reach := b.bagWeight * r.reach[i] * r.reach[j]
	traits := b.traits
	if b.nested > 0 && !mayNest(&r.parts[i], &r.parts[j]) {
		traits -= b.nested
	}
	if z+traits+reach+r.fullSpan < bar {
		return true
	}
	var bag float64
	if pre != nil {
		z += m.Weights[FeatFull]*float64(pre[0]) + r.fullSpan*sketchSlack
		bag = b.bagWeight * ceiling(pre[1])
	} else {
		z += m.Weights[FeatFull] * unitDot(r.full, r.dim, i, j)
		if z+traits+reach < bar {
			return true
		}
		s := b.sketch
		bag = b.bagWeight * ceiling(vecf32.Dot(s[i*sketchBuckets:(i+1)*sketchBuckets], s[j*sketchBuckets:(j+1)*sketchBuckets]))
	}
	if z+traits+bag < bar {
		return true
	}
	rel := relate(&r.parts[i], &r.parts[j])
	z += b2f(rel.opposite)*m.Weights[FeatOpposite] + b2f(rel.otherVerb)*m.Weights[FeatOtherAction] + b2f(rel.nested)*m.Weights[FeatNested]
	// Guidance, left out, only adds its weight when that is positive.
	z += max(0, m.Weights[FeatGuided])
	return z+bag < bar
}
