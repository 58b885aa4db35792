package similarity

import (
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"toolscope/core/vecf32"
)

// The pairwise kernel. Every pair (i < j) of the distinct tools is scored
// once, tile by tile so a block of vectors stays in cache, on every core;
// nothing of size N² is ever held. A sink keeps only what a report can
// show: the best pairs overall, the best verdict pairs of each kind (all of
// them counted), and each tool's nearest neighbours.

// tile is the side of the square blocks of pairs the kernel works through:
// a multiple of vecf32's 3 × 4 register tile.
const tile = 60

// span is one tile of pairs: rows i0 to i1 by columns j0 to j1, the ends
// left out.
type span struct{ i0, i1, j0, j1 int }

// scored is one kept pair: i < j index the distinct tools; s is the score,
// a the affinity (the cosine itself under the cosine scoring).
type scored struct {
	i, j int32
	s, a float64
}

// before orders pairs for ranking: score descending, then (i, j).
func before(p, q scored) bool {
	if p.s != q.s {
		return p.s > q.s
	}
	if p.i != q.i {
		return p.i < q.i
	}
	return p.j < q.j
}

// comparePairs is before as a sort comparison.
func comparePairs(p, q scored) int {
	switch {
	case before(p, q):
		return -1
	case before(q, p):
		return 1
	}
	return 0
}

// geometry is what the kernel scores pairs from.
type geometry struct {
	n, dim int
	vecs   []float32 // n rows of dim
	norms  []float64 // each row's Euclidean norm
	// exact sums each dot product in float64, in index order, which gives
	// the reference's bits (the cosine scoring with the mock embedder,
	// the parity path); otherwise products are float32 blocks (vecf32).
	exact bool
	// tokens holds each tool's distinct name-token ids, sorted, masks a
	// 128-bit summary of them (a pair whose masks share no bit shares no
	// token), and weight the Jaccard term's weight in the affinity (0
	// under cosine).
	tokens [][]int32
	masks  [][2]uint64
	vocab  int // token ids are below it
	weight float64
	// usual, when set, turns affinities into adaptive scores:
	// 2a - usual[i] - usual[j].
	usual []float64
	// risk, when set with usual, turns each pair's adaptive score into
	// its risk; the pair's affinity is then its first-sentence cosine.
	risk *riskGeo
	// bound, when set with risk, drops most pairs that can enter no list
	// before risk looks at them (riskbound.go).
	bound *riskBound
	// server numbers each tool's server in a catalog merged from several
	// (nil otherwise): a pair of two servers is judged by want's cross
	// band.
	server []int32
	// twin, when set, is the cross-server pairs' name evidence (twin.go):
	// a pair under the cross band's watch floor is kept as a candidate
	// only when its evidence can lift it to the start.
	twin *twinNames
}

// crossing reports whether pair (i, j) joins two servers of a merged
// catalog.
func (g *geometry) crossing(i, j int32) bool {
	return g.server != nil && g.server[i] != g.server[j]
}

// want says what a pass keeps.
type want struct {
	rank int // best pairs kept overall; <0 none, 0 all
	// floor: pairs scoring at least this (+Inf: none) with their affinity
	// at least affinityFloor are verdicts, confusable from threshold up,
	// watch below; all are counted and the best bandCap of each kind kept
	// (0: all).
	floor, threshold, affinityFloor float64
	// crossFloor and crossThreshold are floor and threshold for a pair of
	// two servers of a merged catalog (the same as them otherwise).
	crossFloor, crossThreshold float64
	// crossWatch is where a cross-server pair's watch verdict starts;
	// a pair from crossFloor up to it is a twin candidate, kept apart and
	// not counted (crossWatch == crossFloor: none).
	crossWatch float64
	bandCap    int
	neighbors  int // nearest kept per tool
	// byAffinity ranks neighbours by affinity, not score (the adaptive
	// scoring's first pass, which finds each tool's usual affinity).
	byAffinity bool
}

// kept is what a pass returns.
type kept struct {
	ranked []scored // sorted, at most want.rank (all when 0)
	// band holds the best verdict pairs of each kind, sorted; complete
	// says whether it holds all of them (neither kind overflowed bandCap).
	band     []scored
	complete bool
	// confusable and watch count every verdict pair, kept or not.
	confusable, watch int
	neighbors         [][]scored // per tool, best first
}

// sink is one worker's share of what a pass keeps.
type sink struct {
	w    want
	rank bounded  // the best w.rank pairs
	all  []scored // every pair, when w.rank == 0
	// conf and watch keep the best verdict pairs of each kind; cand the
	// best twin candidates.
	conf, watch, cand bounded
	twin              *twinNames // the geometry's
	nb                []scored   // n rows of w.neighbors, best first
	nbLen             []int32
	// nbWorst is each row's last key once the row is full, -Inf before:
	// a pair below it cannot enter.
	nbWorst []float64
	// marks flags the current row's name tokens, by token id.
	marks []uint8
	// dense holds the current row's term and bag weights by id (risk only).
	dense  []float64
	dots   [tile * tile]float64
	dots32 [tile * tile]float32 // the float32 block, before dots
	// full and sketch hold a tile's full texts' cosines and bag sketches'
	// products, when the risk's bound works them out a tile at a time.
	full, sketch [tile * tile]float32
	// bars, under the risk scoring: the log-odds under which a pair can
	// enter no list of this sink (logitBar), for the ranking, the verdict
	// floor and each tool's neighbours. A pair under all of them need not
	// be scored to the end; each only rises as its list fills.
	bars            bool
	rankBar, floorZ float64
	crossZ          float64 // floorZ for a pair of two servers
	// twinBars, when set, lifts a cross-server pair's floor to what its
	// names' evidence lets it reach: a pair from crossFloor up to
	// crossWatch is kept only when reaches says so. twinStart is the
	// start's logit and watchZ the bar of crossWatch.
	twinBars          bool
	twinStart, watchZ float64
	server            []int32 // the geometry's
	// shared is the highest rank bar of every sink of the pass: a pair
	// under another worker's bar has that worker's whole ranking above
	// it, so it cannot be ranked either.
	shared *sharedBar
	nbBar  []float64
	x      Features // the pair's risk features, scratch
	// blockAt is where the current row's pairs start in full and sketch,
	// -1 when they are not worked out a tile at a time.
	blockAt int
}

func newSink(g *geometry, w want) *sink {
	n := g.n
	s := &sink{w: w, rank: newBounded(w.rank), conf: newBounded(w.bandCap), watch: newBounded(w.bandCap), cand: newBounded(w.bandCap), marks: make([]uint8, g.vocab), server: g.server, twin: g.twin}
	if w.neighbors > 0 {
		s.nb = make([]scored, n*w.neighbors)
		s.nbLen = make([]int32, n)
		s.nbWorst = make([]float64, n)
		for t := range s.nbWorst {
			s.nbWorst[t] = math.Inf(-1)
		}
	}
	if g.risk != nil && g.usual != nil {
		s.dense = make([]float64, g.risk.ids)
		s.bars, s.rankBar, s.floorZ, s.crossZ = true, math.Inf(1), math.Inf(1), math.Inf(1)
		if w.rank >= 0 {
			s.rankBar = math.Inf(-1)
		}
		if !math.IsInf(w.floor, 1) {
			s.floorZ = logitBar(w.floor)
		}
		if !math.IsInf(w.crossFloor, 1) {
			s.crossZ = logitBar(w.crossFloor)
		}
		if w.affinityFloor > math.Inf(-1) {
			s.floorZ, s.crossZ = math.Inf(-1), math.Inf(-1) // a verdict needs an affinity too: no shortcut
		}
		if s.twin != nil && w.crossWatch > w.crossFloor && !math.IsInf(s.crossZ, 0) && !math.IsInf(w.crossWatch, 0) {
			s.twinBars, s.twinStart, s.watchZ = true, logit(w.crossThreshold), logitBar(w.crossWatch)
		}
		s.nbBar = make([]float64, n)
		for t := range s.nbBar {
			s.nbBar[t] = math.Inf(1)
			if w.neighbors > 0 {
				s.nbBar[t] = math.Inf(-1)
			}
		}
	}
	return s
}

// bar is the log-odds under which pair (i, j) can enter none of the
// sink's lists.
func (s *sink) bar(i, j int) float64 {
	floorZ := s.floorZ
	if s.server != nil && s.server[i] != s.server[j] {
		floorZ = s.crossZ
		if s.twinBars {
			// Under crossWatch a pair is kept only as a twin candidate.
			if need := s.twin.need(i, j, s.twinStart) - 1e-6; need > -20 {
				floorZ = min(s.watchZ, max(s.crossZ, need))
			}
		}
	}
	return min(s.rankBar, floorZ, s.nbBar[i], s.nbBar[j])
}

func (s *sink) add(p scored) {
	if s.w.rank == 0 {
		s.all = append(s.all, p)
	} else if s.w.rank > 0 {
		s.rank.offer(p)
		if s.bars && len(s.rank.h) == s.rank.limit {
			s.rankBar = logitBar(s.rank.h[0].s)
			if s.shared != nil {
				s.shared.raise(s.rankBar)
			}
		}
	}
	floor, threshold := s.w.floor, s.w.threshold
	crossing := s.server != nil && s.server[p.i] != s.server[p.j]
	if crossing {
		floor, threshold = s.w.crossFloor, s.w.crossThreshold
	}
	if crossing && p.s >= floor && p.s < s.w.crossWatch {
		if s.twin != nil && s.twin.reaches(p, threshold) {
			s.cand.offer(p)
		}
	} else if p.s >= floor && p.a >= s.w.affinityFloor {
		if p.s >= threshold {
			s.conf.offer(p)
		} else {
			s.watch.offer(p)
		}
	}
	if s.w.neighbors > 0 {
		key := p.s
		if s.w.byAffinity {
			key = p.a
		}
		if key >= s.nbWorst[p.i] {
			s.neighbor(p.i, p)
		}
		if key >= s.nbWorst[p.j] {
			s.neighbor(p.j, p)
		}
	}
}

// sharedBar is a log-odds bar the workers of a pass raise together.
type sharedBar struct{ bits atomic.Uint64 }

func newSharedBar() *sharedBar {
	b := new(sharedBar)
	b.bits.Store(math.Float64bits(math.Inf(-1)))
	return b
}

func (b *sharedBar) load() float64 { return math.Float64frombits(b.bits.Load()) }

// raise sets the bar to v if v is higher.
func (b *sharedBar) raise(v float64) {
	for {
		old := b.bits.Load()
		if math.Float64frombits(old) >= v || b.bits.CompareAndSwap(old, math.Float64bits(v)) {
			return
		}
	}
}

// bounded keeps the best limit pairs offered (all when limit is 0) in a
// heap whose root is the pair ranked last, and counts every offer.
type bounded struct {
	limit   int
	h       []scored
	offered int
}

func newBounded(limit int) bounded { return bounded{limit: limit} }

func (b *bounded) offer(p scored) {
	b.offered++
	switch {
	case b.limit <= 0:
		b.h = append(b.h, p)
	case len(b.h) < b.limit:
		b.h = append(b.h, p)
		up(b.h, len(b.h)-1)
	default:
		if p.s >= b.h[0].s && before(p, b.h[0]) {
			b.h[0] = p
			down(b.h, 0)
		}
	}
}

// neighbor offers p to tool t's nearest list (sorted, best first). Ties
// go to the lower other index.
func (s *sink) neighbor(t int32, p scored) {
	k := s.w.neighbors
	row := s.nb[int(t)*k : int(t+1)*k]
	n := int(s.nbLen[t])
	if n == k && !s.better(t, p, row[k-1]) {
		return
	}
	at := n
	if n == k {
		at = k - 1
	} else {
		s.nbLen[t]++
	}
	for at > 0 && s.better(t, p, row[at-1]) {
		row[at] = row[at-1]
		at--
	}
	row[at] = p
	if int(s.nbLen[t]) == k {
		s.nbWorst[t] = s.key(row[k-1])
		if s.bars {
			s.nbBar[t] = logitBar(s.nbWorst[t])
		}
	}
}

func (s *sink) key(p scored) float64 {
	if s.w.byAffinity {
		return p.a
	}
	return p.s
}

// better orders tool t's neighbours: key descending, then the other
// tool's index.
func (s *sink) better(t int32, x, y scored) bool {
	if kx, ky := s.key(x), s.key(y); kx != ky {
		return kx > ky
	}
	return other(x, t) < other(y, t)
}

func other(p scored, t int32) int32 {
	if p.i == t {
		return p.j
	}
	return p.i
}

// heapWorse orders the bounded heap: the root is the pair ranked last.
func heapWorse(p, q scored) bool { return before(q, p) }

func up(h []scored, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !heapWorse(h[i], h[parent]) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func down(h []scored, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && heapWorse(h[r], h[l]) {
			m = r
		}
		if !heapWorse(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// run scores every pair on all cores and merges the workers' sinks.
// progress, when set, is called from this goroutine with pairs done.
func (g *geometry) run(ctx context.Context, w want, progress func(done int)) (kept, error) {
	blocks := (g.n + tile - 1) / tile
	workers := min(runtime.GOMAXPROCS(0), blocks)
	var next, done atomic.Int64
	sinks := make([]*sink, workers)
	shared := newSharedBar()
	var wg sync.WaitGroup
	for k := range sinks {
		sinks[k] = newSink(g, w)
		sinks[k].shared = shared
		wg.Add(1)
		go func(s *sink) {
			defer wg.Done()
			for {
				bi := int(next.Add(1) - 1)
				if bi >= blocks || ctx.Err() != nil {
					return
				}
				done.Add(int64(g.blockRow(s, bi)))
			}
		}(sinks[k])
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	if progress != nil {
		ticker := newTicker()
		defer ticker.Stop()
	wait:
		for {
			select {
			case <-finished:
				break wait
			case <-ticker.C:
				progress(int(done.Load()))
			}
		}
		progress(int(done.Load()))
	} else {
		<-finished
	}
	if err := ctx.Err(); err != nil {
		return kept{}, err
	}
	return merge(sinks, g.n, w), nil
}

// blockRow scores the pairs of rows block bi against itself and every later
// block, returning how many pairs it scored.
func (g *geometry) blockRow(s *sink, bi int) int {
	i0, i1 := bi*tile, min((bi+1)*tile, g.n)
	count := 0
	for j0 := i0; j0 < g.n; j0 += tile {
		j1 := min(j0+tile, g.n)
		g.dotTile(s, span{i0, i1, j0, j1})
		blocked := g.usual != nil && g.bound != nil && g.bound.blocked(g.risk)
		if blocked {
			g.bound.tile(g.risk, s.full[:], s.sketch[:], span{i0, i1, j0, j1})
		}
		for i := i0; i < i1; i++ {
			from := max(j0, i+1)
			if from >= j1 {
				continue
			}
			at := (i-i0)*tile + from - j0
			s.blockAt = -1
			if blocked {
				s.blockAt = at
			}
			g.row(s, i, s.dots[at:(i-i0)*tile+j1-j0], from)
			count += j1 - from
		}
	}
	return count
}

// row scores row i against the columns from, from+1, ... whose dot
// products are dots, and hands each pair to the sink.
func (g *geometry) row(s *sink, i int, dots []float64, from int) {
	if s.bars && s.shared != nil {
		s.rankBar = max(s.rankBar, s.shared.load())
	}
	ni := g.norms[i]
	var ui float64
	if g.usual != nil {
		ui = g.usual[i]
	}
	if g.weight != 0 {
		for _, id := range g.tokens[i] {
			s.marks[id] = 1
		}
	}
	if s.dense != nil {
		g.risk.setRow(s.dense, i)
	}
	for k, dot := range dots {
		j := from + k
		var c float64
		if nj := g.norms[j]; ni != 0 && nj != 0 {
			c = dot / (ni * nj)
		}
		a := c
		if g.weight != 0 {
			a = c + g.weight*g.jaccard(s.marks, i, j)
		}
		sc := a
		if g.usual != nil {
			sc = 2*a - ui - g.usual[j]
			if g.risk != nil {
				bar := s.bar(i, j)
				if g.bound != nil {
					var pre *[2]float32
					if s.blockAt >= 0 {
						pre = &[2]float32{s.full[s.blockAt+k], s.sketch[s.blockAt+k]}
					}
					if g.bound.below(g.risk, i, j, sc, bar, pre) {
						continue // it can enter no list
					}
				}
				z, ok := g.risk.eval(i, j, sc, s.dense, bar, &s.x)
				if !ok {
					continue // it can enter no list
				}
				sc, a = sigmoid(z), c
			}
		}
		s.add(scored{i: int32(i), j: int32(j), s: sc, a: a})
	}
	if g.weight != 0 {
		for _, id := range g.tokens[i] {
			s.marks[id] = 0
		}
	}
	if s.dense != nil {
		g.risk.clearRow(s.dense, i)
	}
}

// jaccard is |x ∩ y| / |x ∪ y| of tools i's and j's name tokens, 0 when
// both have none; marks flags i's tokens.
func (g *geometry) jaccard(marks []uint8, i, j int) float64 {
	mi, mj := g.masks[i], g.masks[j]
	if mi[0]&mj[0] == 0 && mi[1]&mj[1] == 0 {
		return 0
	}
	inter := 0
	for _, id := range g.tokens[j] {
		inter += int(marks[id])
	}
	return float64(inter) / float64(len(g.tokens[i])+len(g.tokens[j])-inter)
}

// jaccardOf is jaccard without marks: the two sorted sets merged, for a
// pair scored alone.
func (g *geometry) jaccardOf(i, j int) float64 {
	mi, mj := g.masks[i], g.masks[j]
	if mi[0]&mj[0] == 0 && mi[1]&mj[1] == 0 {
		return 0
	}
	a, b := g.tokens[i], g.tokens[j]
	inter := 0
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch {
		case a[x] < b[y]:
			x++
		case a[x] > b[y]:
			y++
		default:
			inter++
			x++
			y++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// dotTile fills dots[(i-i0)*tile + (j-j0)] with the dot product of rows i
// and j of sp, for j > i. On the exact path each product sums its terms in index
// order in float64, as the reference does, so results match it to the last
// bit; four columns at a time share each load of row i. Otherwise the
// block is one vecf32.DotBlock in float32 (its diagonal block computes
// both halves, which costs less than splitting it).
func (g *geometry) dotTile(s *sink, sp span) {
	i0, i1, j0, j1 := sp.i0, sp.i1, sp.j0, sp.j1
	if !g.exact {
		d := g.dim
		vecf32.DotBlock(vecf32.Block{Dst: s.dots32[:], Stride: tile, A: g.vecs[i0*d : i1*d], NA: i1 - i0, B: g.vecs[j0*d : j1*d], NB: j1 - j0, Dim: d})
		for i := range i1 - i0 {
			for j, v := range s.dots32[i*tile : i*tile+j1-j0] {
				s.dots[i*tile+j] = float64(v)
			}
		}
		return
	}
	d := g.dim
	dots := &s.dots
	for i := i0; i < i1; i++ {
		a := g.vecs[i*d : (i+1)*d]
		out := dots[(i-i0)*tile:]
		j := max(j0, i+1)
		for ; j+4 <= j1; j += 4 {
			b0 := g.vecs[j*d : (j+1)*d]
			b1 := g.vecs[(j+1)*d : (j+2)*d]
			b2 := g.vecs[(j+2)*d : (j+3)*d]
			b3 := g.vecs[(j+3)*d : (j+4)*d]
			b0, b1, b2, b3 = b0[:len(a)], b1[:len(a)], b2[:len(a)], b3[:len(a)]
			var s0, s1, s2, s3 float64
			for k, x32 := range a {
				// A product of two float32s is exact in float64, so the
				// sums are the reference's; the conversions also forbid
				// fusing into FMA, which would change the last bit on
				// some platforms.
				x := float64(x32)
				s0 += float64(x * float64(b0[k]))
				s1 += float64(x * float64(b1[k]))
				s2 += float64(x * float64(b2[k]))
				s3 += float64(x * float64(b3[k]))
			}
			out[j-j0], out[j+1-j0], out[j+2-j0], out[j+3-j0] = s0, s1, s2, s3
		}
		for ; j < j1; j++ {
			b := g.vecs[j*d : (j+1)*d]
			b = b[:len(a)]
			var s float64
			for k, x := range a {
				s += float64(float64(x) * float64(b[k]))
			}
			out[j-j0] = s
		}
	}
}

// dot is the dot product of rows i and j, with the bits dotTile gives it.
func (g *geometry) dot(i, j int) float64 {
	return g.dotWith(g.vecs[i*g.dim:(i+1)*g.dim], j)
}

// dotWith is the dot product of v with row j, summed as dotTile sums
// (both orders of a pair give the same bits).
func (g *geometry) dotWith(v []float32, j int) float64 {
	return g.dotVecs(v, g.vecs[j*g.dim:(j+1)*g.dim])
}

// dotVecs is the dot product of two vectors of the catalog's dimension,
// summed as dotTile sums.
func (g *geometry) dotVecs(v, b []float32) float64 {
	d := g.dim
	if !g.exact {
		var out [1]float32
		vecf32.DotBlock(vecf32.Block{Dst: out[:], Stride: 1, A: v, NA: 1, B: b, NB: 1, Dim: d})
		return float64(out[0])
	}
	var s float64
	for k, x := range v[:d] {
		s += float64(float64(x) * float64(b[k]))
	}
	return s
}

// merge combines the workers' sinks into one sorted result.
func merge(sinks []*sink, n int, w want) kept {
	var out kept
	rank, conf, watch, cand := newBounded(w.rank), newBounded(w.bandCap), newBounded(w.bandCap), newBounded(w.bandCap)
	for _, s := range sinks {
		for _, p := range s.rank.h {
			rank.offer(p)
		}
		out.ranked = append(out.ranked, s.all...)
		for _, p := range s.conf.h {
			conf.offer(p)
		}
		for _, p := range s.watch.h {
			watch.offer(p)
		}
		for _, p := range s.cand.h {
			cand.offer(p)
		}
		out.confusable += s.conf.offered
		out.watch += s.watch.offered
	}
	out.complete = out.confusable == len(conf.h) && out.watch == len(watch.h)
	out.ranked = append(out.ranked, rank.h...)
	slices.SortFunc(out.ranked, comparePairs)
	out.band = slices.Concat(conf.h, watch.h, cand.h)
	slices.SortFunc(out.band, comparePairs)
	if w.neighbors > 0 {
		out.neighbors = make([][]scored, n)
		base := sinks[0]
		for t := range n {
			k := w.neighbors
			for _, s := range sinks[1:] {
				for _, p := range s.nb[t*k : t*k+int(s.nbLen[t])] {
					base.neighbor(int32(t), p)
				}
			}
			out.neighbors[t] = base.nb[t*k : t*k+int(base.nbLen[t]) : t*k+int(base.nbLen[t])]
		}
	}
	return out
}

// usualAffinity is each tool's mean affinity to its k nearest others: the
// adaptive scoring's r(x).
func usualAffinity(neighbors [][]scored) []float64 {
	r := make([]float64, len(neighbors))
	for t, row := range neighbors {
		if len(row) == 0 {
			continue
		}
		var sum float64
		for _, p := range row {
			sum += p.a
		}
		r[t] = sum / float64(len(row))
	}
	return r
}

// noFloor keeps no pair by score.
var noFloor = math.Inf(1)
