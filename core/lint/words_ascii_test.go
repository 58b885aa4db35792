package lint

import (
	"slices"
	"testing"
)

var wordsCases = []string{
	"", "a", "sortDir", "SortDir", "getHTTPResponse", "list_projects", "page-size 10", "  spaced   out  ",
	"camelCaseID2Name", "x9Y", "ALLCAPS", "end.", "Returns the user's issues (max 100).", "a__b--c", "9lives",
}

// On ASCII text the fast split is the general one's.
func TestASCIIWordsOf(t *testing.T) {
	for _, s := range wordsCases {
		if got, want := asciiWordsOf(s), runeWordsOf(s); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
	if got := wordsOf("sortDir"); !slices.Equal(got, []string{"sort", "dir"}) {
		t.Errorf("sortDir: %q", got)
	}
}

func FuzzASCIIWordsOf(f *testing.F) {
	for _, s := range wordsCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isASCII(s) {
			return
		}
		if got, want := asciiWordsOf(s), runeWordsOf(s); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	})
}

// nameHas, which lowers no word, answers as the words wordsOf cuts.
func FuzzNameHas(f *testing.F) {
	for _, s := range wordsCases {
		f.Add(s, "dir")
	}
	f.Add("getHTTPResponse", "httpresponse")
	f.Add("Kelvin", "\u212aelvin")
	f.Fuzz(func(t *testing.T, name, w string) {
		words := []string{w, "id", "sort"}
		want := slices.ContainsFunc(wordsOf(name), func(x string) bool { return slices.Contains(words, x) })
		if got := nameHas(name, words...); got != want {
			t.Errorf("nameHas(%q, %q) = %v, want %v", name, words, got, want)
		}
	})
}
