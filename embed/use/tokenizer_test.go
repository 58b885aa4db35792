package use

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

func testTokenizer(t testing.TB) *tokenizer {
	t.Helper()
	tok, err := newTokenizer(vocabTxt)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// The examples of models/use-lite.md §2 and §6, each checked there against
// the JavaScript tokenizer.
func TestTokenizerExamples(t *testing.T) {
	tok := testTokenizer(t)
	tests := []struct {
		name, in string
		want     []int
	}{
		{"piece split by score", "hello", []int{2002, 102}},
		{"each space becomes a word start", "x  y", []int{649, 30, 1029}},
		{"the +30 piece wins", "10:30", []int{320, 4177}},
		{"null scores count as 0", "a:b", []int{11, 57, 151}},
		{"a zero total is unset, so ▁ + : beats ▁:", ":", []int{30, 57}},
		{"smiley piece with null score", " :-) ", []int{30, 6600, 30}},
		{"emoji run collapses into one unknown", "😀😀x", []int{30, 0, 152}},
		{"tab is unknown", "x\ty", []int{649, 0, 48}},
		{"NFKC folds full-width letters", "Ｈｅｌｌｏ", []int{341, 4125}},
		{"NFKC opens ligatures", "ﬁne", []int{839}},
		{"empty text has no tokens", "", nil},
		{"duplicate piece: the last id wins", "”5", []int{30, 4464}},
		{"no-break and ideographic spaces become word starts", "a\u00a0b\u3000c", []int{11, 464, 598}},
		{"a lone space is two word starts", " ", []int{30, 30}},
		{"delete a file", "delete a file", []int{4158, 11, 1792}},
		{"sentence", "The quick brown fox jumps over the lazy dog.", []int{34, 2280, 3744, 1394, 152, 2009, 7, 132, 9, 6266, 959, 6}},
		{"accents, dash, unknown symbols and CJK", "Meet me at 10:30 — café ☕ 東京!", []int{502, 445, 84, 38, 320, 4177, 405, 976, 209, 1133, 30, 0, 30, 0, 78}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tok.encode(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("encode(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// testdata/tokens.json.gz holds 3,000 strings (real tool names and
// descriptions, and random mixes of pieces and awkward characters) with the
// ids the JavaScript tokenizer gave them.
func TestTokenizerMatchesJavaScript(t *testing.T) {
	f, err := os.Open("testdata/tokens.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var corpus []struct {
		S   string `json:"s"`
		IDs []int  `json:"ids"`
	}
	if err := json.NewDecoder(zr).Decode(&corpus); err != nil {
		t.Fatal(err)
	}
	if len(corpus) < 3000 {
		t.Fatalf("corpus has %d strings, want at least 3000", len(corpus))
	}
	tok := testTokenizer(t)
	bad := 0
	for _, c := range corpus {
		want := c.IDs
		if len(want) == 0 {
			want = nil
		}
		if got := tok.encode(c.S); !slices.Equal(got, want) {
			if bad++; bad <= 5 {
				t.Errorf("encode(%q)\n got %v\nwant %v", c.S, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d strings tokenized differently", bad, len(corpus))
	}
}

func TestNewTokenizerRejectsBadVocab(t *testing.T) {
	tests := []struct{ name, vocab string }{
		{"no tab", "\uFFFD 0\n"},
		{"score not a number", "\uFFFD\tzero\n"},
		{"too short", "\uFFFD\t0\n<s>\t0\n"},
		{"unknown piece not one unit", strings.Repeat("ab\t0\n", 8)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := newTokenizer(tt.vocab); err == nil {
				t.Error("accepted")
			}
		})
	}
}

func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{"hello", "x  y", "10:30", " :-) ", "😀😀x", "x\ty", "Ｈｅｌｌｏ", "", "\xff\xfe", "”5”5", strings.Repeat("ab ", 100)} {
		f.Add(s)
	}
	tok := testTokenizer(f)
	var pieces []string
	for line := range strings.Lines(vocabTxt) {
		piece, _, _ := strings.Cut(line, "\t")
		pieces = append(pieces, piece)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids := tok.encode(s)
		text := norm.NFKC.String(s)
		if text == "" {
			if len(ids) != 0 {
				t.Fatalf("%q normalises to nothing but gave %v", s, ids)
			}
			return
		}
		var joined strings.Builder
		unknown := false
		for i, id := range ids {
			if id < 0 || id >= len(pieces) || (id > unkID && id < reservedIDs) {
				t.Fatalf("id %d out of range", id)
			}
			if id == unkID {
				if i > 0 && ids[i-1] == unkID {
					t.Fatal("consecutive unknown ids")
				}
				unknown = true
				continue
			}
			joined.WriteString(pieces[id])
		}
		// Without unknowns the pieces spell the normalised text exactly;
		// with them, they spell part of it.
		want := "\u2581" + strings.ReplaceAll(text, " ", "\u2581")
		if !unknown && joined.String() != want {
			t.Fatalf("pieces spell %q, want %q", joined.String(), want)
		}
		if unknown && utf8.RuneCountInString(joined.String()) >= utf8.RuneCountInString(want) {
			t.Fatalf("pieces spell %q, all of %q despite an unknown", joined.String(), want)
		}
	})
}
