package similarity

import (
	"math"
	"slices"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// The bag feature: each tool's words (its name's, its description's, and
// its top-level parameters' names, descriptions and enum values) weighted
// by how rare each is in the catalog, and the cosine of two tools' bags.
// The parameters carry what a name and a description leave out: two tools
// that take the same rare arguments do the same job more often than their
// prose says.

// bagStopWords carry nothing of what a tool does.
var bagStopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"can": true, "for": true, "from": true, "has": true, "have": true, "if": true, "in": true,
	"into": true, "is": true, "it": true, "its": true, "of": true, "on": true, "or": true,
	"that": true, "the": true, "this": true, "to": true, "was": true, "which": true, "will": true,
	"with": true, "you": true, "your": true,
}

// bagWords splits text into its words: runs of ASCII letters and digits,
// camelCase split, lower-cased, plurals folded (singular); a word must
// start with a letter and have two characters or more, and is not a stop
// word.
func bagWords(text string, out []string) []string {
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := []byte(text[start:end])
		for k, c := range w {
			if c >= 'A' && c <= 'Z' {
				w[k] = c + 'a' - 'A'
			}
		}
		start = -1
		if len(w) < 2 || w[0] < 'a' || w[0] > 'z' {
			return
		}
		s := singular(string(w))
		if !bagStopWords[s] {
			out = append(out, s)
		}
	}
	for k := 0; k < len(text); k++ {
		c := text[k]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		switch {
		case !alnum:
			flush(k)
		case start < 0:
			start = k
		case c >= 'A' && c <= 'Z' && (text[k-1] >= 'a' && text[k-1] <= 'z' || text[k-1] >= '0' && text[k-1] <= '9'):
			flush(k)
			start = k
		}
	}
	flush(len(text))
	return out
}

// bagOf lists a tool's words: its name's, less those in common (dropped
// by common), then its description's and its top-level parameters'.
func bagOf(t *catalog.Tool, common map[string]bool) []string {
	var ws []string
	for _, w := range bagWords(t.OwnName(), nil) {
		if !common[w] {
			ws = append(ws, w)
		}
	}
	ws = bagWords(t.Description, ws)
	props := t.Schema.Get("properties")
	if !props.Is(jsonv.Object) {
		return ws
	}
	for _, m := range props.Members {
		ws = bagWords(m.Key, ws)
		if d, ok := m.Value.Get("description").Str(); ok {
			ws = bagWords(d, ws)
		}
		if enum := m.Value.Get("enum"); enum.Is(jsonv.Array) {
			for _, v := range enum.Items {
				if s, ok := v.Str(); ok {
					ws = bagWords(s, ws)
				}
			}
		}
	}
	return ws
}

// bags gives each tool its bag as a unit vector: a word's weight is
// (1 + ln tf)·(ln((1+n)/(1+df)) + 1), tf its count in the bag, df how many
// of the n tools' bags hold it. A name word found in half the names or more
// (of a catalog of four tools or more) is the catalog's, not the tool's,
// and left out. Word ids start at first, so that a row's bag and its
// terms (whose ids run below first) can share one dense array; end is one
// past the last id.
func bags(tools []*catalog.Tool, first int32) (rows [][]termWeight, end int) {
	n := len(tools)
	common := map[string]bool{}
	if n >= 4 {
		inNames := map[string]int{}
		for _, t := range tools {
			ws := bagWords(t.OwnName(), nil)
			slices.Sort(ws)
			for _, w := range slices.Compact(ws) {
				inNames[w]++
			}
		}
		for w, c := range inNames {
			if 2*c >= n {
				common[w] = true
			}
		}
	}
	ids := map[string]int32{}
	var df []int
	counts := make([]map[int32]float64, n)
	for k, t := range tools {
		counts[k] = map[int32]float64{}
		for _, w := range bagOf(t, common) {
			id, ok := ids[w]
			if !ok {
				id = int32(len(df))
				ids[w] = id
				df = append(df, 0)
			}
			if counts[k][id] == 0 {
				df[id]++
			}
			counts[k][id]++
		}
	}
	out := make([][]termWeight, n)
	for k, c := range counts {
		row := make([]termWeight, 0, len(c))
		for id, tf := range c {
			row = append(row, termWeight{first + id, (1 + math.Log(tf)) * (math.Log(float64(1+n)/float64(1+df[id])) + 1)})
		}
		out[k] = unitRow(row)
	}
	return out, int(first) + len(df)
}

// WordNeighbours gives each tool (by index in tools) its k nearest others
// by the cosine of their bags of words, best first, ties by index; a tool
// sharing no word with another has it nowhere in its list. It is the
// second view of a catalog that the judge's candidates fuse with the risk
// (core/judge): words the encoder reads past, such as a rare parameter
// both tools take, find pairs the risk ranks low.
func WordNeighbours(tools []*catalog.Tool, k int) [][]int {
	out := make([][]int, len(tools))
	if k <= 0 {
		return out
	}
	rows, end := bags(tools, 0)
	// postings[id] lists the tools whose bag holds the word, with its weight.
	postings := make([][]termWeight, end)
	for i, row := range rows {
		for _, t := range row {
			postings[t.id] = append(postings[t.id], termWeight{int32(i), t.w})
		}
	}
	dots := make([]float64, len(tools))
	var touched []int
	for i, row := range rows {
		touched = touched[:0]
		for _, t := range row {
			for _, p := range postings[t.id] {
				j := int(p.id)
				if j == i {
					continue
				}
				if dots[j] == 0 {
					touched = append(touched, j)
				}
				dots[j] += t.w * p.w
			}
		}
		// The k best by insertion: k is small, touched may be the catalog.
		better := func(a, b int) bool { return dots[a] > dots[b] || dots[a] == dots[b] && a < b }
		top := make([]int, 0, min(k, len(touched)))
		for _, j := range touched {
			if len(top) == k && !better(j, top[k-1]) {
				continue
			}
			if len(top) < k {
				top = append(top, j)
			} else {
				top[k-1] = j
			}
			for r := len(top) - 1; r > 0 && better(top[r], top[r-1]); r-- {
				top[r], top[r-1] = top[r-1], top[r]
			}
		}
		out[i] = top
		for _, j := range touched {
			dots[j] = 0
		}
	}
	return out
}
