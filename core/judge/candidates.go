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
