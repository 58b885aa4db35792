package use

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"
)

// The tokenizer reproduces the JavaScript runtime's SentencePiece-style
// unigram Viterbi exactly, quirks included (models/use-lite.md §2): the
// model was trained on its ids, and a reference vector only matches when
// every id does.

const (
	// reservedIDs are never matched as pieces; id 0 is the unknown token.
	reservedIDs = 6
	unkID       = 0
	// maxPieceRunes is the longest piece in the vocabulary, in code points.
	maxPieceRunes = 16
	// wordStart replaces every space, and starts every non-empty text.
	wordStart = '\u2581'
)

// tokenizer maps text to vocabulary ids.
type tokenizer struct {
	// width[id] is the piece's length in UTF-16 units, which is how far
	// the JavaScript backtrack steps back over it.
	width []int
	// children maps (node << 21 | rune) to the child node of a trie over
	// the pieces' code points; node 0 is the root.
	children map[uint64]int32
	// ends[node] is the piece ending at node, or -1.
	ends []int32
	// score[id] is the piece's log probability, as a JavaScript double.
	score []float64
}

// newTokenizer reads vocab.txt: one "piece\tscore" line per id.
func newTokenizer(vocab string) (*tokenizer, error) {
	lines := strings.Split(strings.TrimSuffix(vocab, "\n"), "\n")
	t := &tokenizer{
		width:    make([]int, len(lines)),
		score:    make([]float64, len(lines)),
		children: make(map[uint64]int32, 4*len(lines)),
		ends:     []int32{-1},
	}
	for id, line := range lines {
		piece, score, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("vocab line %d: no tab between piece and score", id+1)
		}
		s, err := strconv.ParseFloat(score, 64)
		if err != nil {
			return nil, fmt.Errorf("vocab line %d: score: %w", id+1, err)
		}
		t.width[id] = len(utf16.Encode([]rune(piece)))
		t.score[id] = s
		if id >= reservedIDs {
			t.insert(piece, int32(id))
		}
	}
	if len(lines) <= reservedIDs || t.width[unkID] != 1 || t.score[unkID] != 0 {
		return nil, fmt.Errorf("vocab: %d lines, want the reserved ids and pieces", len(lines))
	}
	return t, nil
}

// insert adds a piece to the trie; a piece seen again takes the later id,
// as the JavaScript trie does (”5 is ids 230, 238 and 4464; 4464 wins).
func (t *tokenizer) insert(piece string, id int32) {
	node := int32(0)
	for _, r := range piece {
		key := uint64(node)<<21 | uint64(r)
		child, ok := t.children[key]
		if !ok {
			child = int32(len(t.ends))
			t.ends = append(t.ends, -1)
			t.children[key] = child
		}
		node = child
	}
	t.ends[node] = id
}

// encode returns the ids of text. It never fails: code points no piece
// covers become the unknown id, one per run.
func (t *tokenizer) encode(text string) []int {
	text = norm.NFKC.String(text)
	if text == "" {
		return nil
	}
	syms := []rune(string(wordStart) + strings.ReplaceAll(text, " ", string(wordStart)))
	n := len(syms)

	// match[i*maxPieceRunes+L-1] is the id of the piece spelling
	// syms[i:i+L], or -1.
	match := make([]int32, n*maxPieceRunes)
	for i := range match {
		match[i] = -1
	}
	for i := range syms {
		node := int32(0)
		found := false
		for l := 1; l <= maxPieceRunes && i+l <= n; l++ {
			child, ok := t.children[uint64(node)<<21|uint64(syms[i+l-1])]
			if !ok {
				break
			}
			node = child
			if id := t.ends[node]; id >= 0 {
				match[i*maxPieceRunes+l-1] = id
				found = true
			}
		}
		if !found {
			// Only a start with no piece at all gets the unknown candidate.
			match[i*maxPieceRunes] = unkID
		}
	}

	// Viterbi as the JavaScript writes it: 0 means unset, so a path whose
	// total is exactly 0 is overwritten, and ties go to the later start.
	best := make([]float64, n+1)
	word := make([]int, n+1)
	for e := 1; e <= n; e++ {
		for start := max(0, e-maxPieceRunes); start < e; start++ {
			id := match[start*maxPieceRunes+e-start-1]
			if id < 0 {
				continue
			}
			s := t.score[id] + best[start] // the unknown id's score is 0
			if best[e] == 0 || s >= best[e] {
				best[e] = s
				word[e] = int(id)
			}
		}
	}

	// Backtrack from the end. A position no candidate ends at keeps word 0
	// and is stepped over one unit at a time, as unknowns.
	var ids []int
	for e := n; e > 0; e -= t.width[word[e]] {
		if word[e] == unkID && len(ids) > 0 && ids[len(ids)-1] == unkID {
			continue // runs of unknowns collapse into one
		}
		ids = append(ids, word[e])
	}
	for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
		ids[i], ids[j] = ids[j], ids[i]
	}
	return ids
}
