package judge

import (
	"cmp"
	"math"
	"slices"
)

// DefaultPerTool is how many pairs per tool a run asks at most: measured on
// held-out catalogs, each tool's three nearest candidates hold most of the
// pairs reviewers call confusable, and they come to about 2.1 distinct
// pairs per tool once shared pairs are counted once.
const DefaultPerTool = 2.5

// The candidates fuse two views of each tool's nearest others, the risk's
// and the bag of words' (similarity.WordNeighbours), by reciprocal rank:
// a pair scores Σ 1/(FuseK + r) over the views, r its better rank of the
// two tools' in that view (0 for a nearest), counting a view only when the
// pair is within its first FuseDepth. Measured on the two development sets
// with an endpoint answering as the reviewers did, leaving each catalog
// out, the fusion lifts the candidates' share of the confusable pairs at
// 2.5 pairs per tool from 0.70 to 0.77 (docs/judge.md); across FuseK
// 5–60 and FuseDepth 10 to every pair the pooled F1 stays in 0.855–0.875.
const (
	FuseK     = 10
	FuseDepth = 20
)

// Fuse gives each tool its others ranked by the reciprocal-rank fusion of
// views (each view: per tool, the indices of its nearest others, best
// first), fused score first, ties by index. A pair no view holds is not
// listed.
func Fuse(tools int, views ...[][]int) [][]Neighbour {
	type key = [2]int
	best := make([]map[key]int, len(views))
	for v, view := range views {
		best[v] = map[key]int{}
		for i, list := range view {
			if i >= tools {
				break
			}
			for r, j := range list[:min(len(list), FuseDepth)] {
				if j == i || j < 0 || j >= tools {
					continue
				}
				k := key{min(i, j), max(i, j)}
				if old, ok := best[v][k]; !ok || r < old {
					best[v][k] = r
				}
			}
		}
	}
	score := map[key]float64{}
	for _, b := range best {
		for k, r := range b {
			score[k] += 1 / float64(FuseK+r)
		}
	}
	out := make([][]Neighbour, tools)
	for k, s := range score {
		out[k[0]] = append(out[k[0]], Neighbour{Index: k[1], Score: s})
		out[k[1]] = append(out[k[1]], Neighbour{Index: k[0], Score: s})
	}
	for _, ns := range out {
		slices.SortFunc(ns, func(a, b Neighbour) int {
			if c := cmp.Compare(b.Score, a.Score); c != 0 {
				return c
			}
			return cmp.Compare(a.Index, b.Index)
		})
	}
	return out
}

// Neighbour is one of a tool's nearest others, by catalog index, with the
// offline score that ranked it.
type Neighbour struct {
	Index int
	Score float64
}

// Candidates picks the pairs worth asking from each tool's nearest others
// (neighbours[i], best first): every tool's nearest first, then every
// tool's second nearest, and so on, each round taken best score first, a
// pair counted once, until perTool × tools pairs (rounded down) are held.
// Pairs are returned as ordered index pairs (i < j).
func Candidates(neighbours [][]Neighbour, perTool float64) [][2]int {
	tools := 0
	for _, ns := range neighbours {
		if len(ns) > 0 {
			tools++
		}
	}
	limit := int(math.Floor(perTool * float64(tools)))
	seen := map[[2]int]bool{}
	var out [][2]int
	type cand struct {
		pair  [2]int
		score float64
	}
	for rank := 0; len(out) < limit; rank++ {
		var round []cand
		for i, ns := range neighbours {
			if rank >= len(ns) {
				continue
			}
			j := ns[rank].Index
			if j == i || j < 0 || j >= len(neighbours) {
				continue
			}
			p := [2]int{min(i, j), max(i, j)}
			round = append(round, cand{p, ns[rank].Score})
		}
		if len(round) == 0 {
			break
		}
		slices.SortStableFunc(round, func(a, b cand) int {
			if c := cmp.Compare(b.score, a.score); c != 0 {
				return c
			}
			if c := cmp.Compare(a.pair[0], b.pair[0]); c != 0 {
				return c
			}
			return cmp.Compare(a.pair[1], b.pair[1])
		})
		for _, c := range round {
			if len(out) >= limit {
				break
			}
			if !seen[c.pair] {
				seen[c.pair] = true
				out = append(out, c.pair)
			}
		}
	}
	return out
}
