package lint

import (
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// The pairwise kernel. Every pair (i < j) of the distinct tools is scored
// once, tile by tile so a block of vectors stays in cache, on every core;
// nothing of size N² is ever held. A sink keeps only what a report can
// show: the best pairs overall, every pair at or above a floor, and each
// tool's nearest neighbours.

// tile is the side of the square blocks of pairs the kernel works through.
const tile = 64

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
	vecs   []float64 // n rows of dim
	norms  []float64 // each row's Euclidean norm
	// tokens holds each tool's distinct name-token ids, sorted, and weight
	// the Jaccard term's weight in the affinity (0 under cosine).
	tokens [][]int32
	weight float64
	// usual, when set, turns affinities into adaptive scores:
	// 2a - usual[i] - usual[j].
	usual []float64
}

// want says what a pass keeps.
type want struct {
	rank      int     // best pairs kept overall; <0 none, 0 all
	floor     float64 // keep every pair scoring at least this (+Inf none)
	neighbors int     // nearest kept per tool; by affinity when byAffinity
	// byAffinity ranks neighbours by affinity, not score (the adaptive
	// scoring's first pass, which finds each tool's usual affinity).
	byAffinity bool
}

// kept is what a pass returns.
type kept struct {
	ranked    []scored   // sorted, at most want.rank (all when 0)
	band      []scored   // every pair >= floor, sorted
	neighbors [][]scored // per tool, best first
}

// sink is one worker's share of what a pass keeps.
type sink struct {
	w     want
	heap  []scored // the best w.rank pairs, worst at the root
	all   []scored // every pair, when w.rank == 0
	band  []scored
	nb    []scored // n rows of w.neighbors
	nbLen []int32
	dots  [tile * tile]float64
}

func newSink(n int, w want) *sink {
	s := &sink{w: w}
	if w.neighbors > 0 {
		s.nb = make([]scored, n*w.neighbors)
		s.nbLen = make([]int32, n)
	}
	return s
}

// heapWorse orders the bounded heap: the root is the pair ranked last.
func heapWorse(p, q scored) bool { return before(q, p) }

func (s *sink) add(p scored) {
	switch {
	case s.w.rank == 0:
		s.all = append(s.all, p)
	case s.w.rank > 0:
		if len(s.heap) < s.w.rank {
			s.heap = append(s.heap, p)
			up(s.heap, len(s.heap)-1)
		} else if before(p, s.heap[0]) {
			s.heap[0] = p
			down(s.heap, 0)
		}
	}
	if p.s >= s.w.floor {
		s.band = append(s.band, p)
	}
	if s.w.neighbors > 0 {
		s.neighbor(p.i, p)
		s.neighbor(p.j, p)
	}
}

// neighbor offers p to tool t's nearest list (sorted, best first). Ties
// go to the lower other index.
func (s *sink) neighbor(t int32, p scored) {
	k := s.w.neighbors
	row := s.nb[int(t)*k : int(t+1)*k]
	n := int(s.nbLen[t])
	better := func(x, y scored) bool {
		xs, ys := x.s, y.s
		if s.w.byAffinity {
			xs, ys = x.a, y.a
		}
		if xs != ys {
			return xs > ys
		}
		return other(x, t) < other(y, t)
	}
	if n == k && !better(p, row[k-1]) {
		return
	}
	at := n
	if n == k {
		at = k - 1
	} else {
		s.nbLen[t]++
	}
	for at > 0 && better(p, row[at-1]) {
		row[at] = row[at-1]
		at--
	}
	row[at] = p
}

func other(p scored, t int32) int32 {
	if p.i == t {
		return p.j
	}
	return p.i
}

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
	var wg sync.WaitGroup
	for k := range sinks {
		sinks[k] = newSink(g.n, w)
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
		g.dotTile(&s.dots, i0, i1, j0, j1)
		for i := i0; i < i1; i++ {
			row := s.dots[(i-i0)*tile:]
			for j := max(j0, i+1); j < j1; j++ {
				s.add(g.score(i, j, row[j-j0]))
				count++
			}
		}
	}
	return count
}

// dotTile fills dots[(i-i0)*tile + (j-j0)] with the dot product of rows i
// and j, for j > i. Each product sums its terms in index order, as the
// reference does, so results match it to the last bit; four columns at a
// time share each load of row i.
func (g *geometry) dotTile(dots *[tile * tile]float64, i0, i1, j0, j1 int) {
	d := g.dim
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
			for k, x := range a {
				// The conversions forbid fusing into FMA, which would
				// change the last bit on some platforms.
				s0 += float64(x * b0[k])
				s1 += float64(x * b1[k])
				s2 += float64(x * b2[k])
				s3 += float64(x * b3[k])
			}
			out[j-j0], out[j+1-j0], out[j+2-j0], out[j+3-j0] = s0, s1, s2, s3
		}
		for ; j < j1; j++ {
			b := g.vecs[j*d : (j+1)*d]
			b = b[:len(a)]
			var s float64
			for k, x := range a {
				s += float64(x * b[k])
			}
			out[j-j0] = s
		}
	}
}

// score turns a dot product into the pair's score and affinity.
func (g *geometry) score(i, j int, dot float64) scored {
	var c float64
	if g.norms[i] != 0 && g.norms[j] != 0 {
		c = dot / (g.norms[i] * g.norms[j])
	}
	a := c
	if g.weight != 0 {
		a = c + g.weight*jaccard(g.tokens[i], g.tokens[j])
	}
	s := a
	if g.usual != nil {
		s = 2*a - g.usual[i] - g.usual[j]
	}
	return scored{i: int32(i), j: int32(j), s: s, a: a}
}

// jaccard is |x ∩ y| / |x ∪ y| of two sorted sets, 0 when both are empty.
func jaccard(x, y []int32) float64 {
	if len(x) == 0 && len(y) == 0 {
		return 0
	}
	inter := 0
	for p, q := 0, 0; p < len(x) && q < len(y); {
		switch {
		case x[p] == y[q]:
			inter++
			p++
			q++
		case x[p] < y[q]:
			p++
		default:
			q++
		}
	}
	return float64(inter) / float64(len(x)+len(y)-inter)
}

// merge combines the workers' sinks into one sorted result.
func merge(sinks []*sink, n int, w want) kept {
	var out kept
	for _, s := range sinks {
		out.ranked = append(out.ranked, s.heap...)
		out.ranked = append(out.ranked, s.all...)
		out.band = append(out.band, s.band...)
	}
	slices.SortFunc(out.ranked, comparePairs)
	if w.rank > 0 && len(out.ranked) > w.rank {
		out.ranked = out.ranked[:w.rank:w.rank]
	}
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
