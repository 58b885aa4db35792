package calibration

import (
	"strings"
	"unicode"
)

// The cross-server band: where a pair of tools from two different servers
// becomes confusable in a merged catalog. Across servers a pair that reads
// alike is most often the same job twice, so the band is fitted on the
// held-out risks of the twins alone, for F1: measured leaving one merge
// out at a time, it transfers better than a start held to the single
// catalogs' precision (docs/calibration.md).

// TwinThreshold is the cross-server band's start on held-out twin risks
// ss: the F1-best, the higher of equal ones, rounded like the single
// catalogs' bands.
func TwinThreshold(ss []Scored) float64 {
	return roundInGap(ss, BestRiskThreshold(ss))
}

// TwinFold is one merge held out: the start picked on the other merges'
// twins, and what it gives on this one.
type TwinFold struct {
	Set    string
	Start  float64
	Counts Counts
}

// TwinsLeaveOneSetOut picks the cross-server start without each merge in
// turn and tallies that merge at it.
func TwinsLeaveOneSetOut(ss []Scored) []TwinFold {
	var folds []TwinFold
	for _, g := range Groups(Samples(ss)) {
		var train, test []Scored
		for _, s := range ss {
			if s.Group == g {
				test = append(test, s)
			} else {
				train = append(train, s)
			}
		}
		t := TwinThreshold(train)
		folds = append(folds, TwinFold{Set: g, Start: t, Counts: TallyAt(test, t)})
	}
	return folds
}

// VocabularyDisjoint keeps, of twin samples ss, the negatives and the twins
// whose names share no word: the twins that share a job but not a
// vocabulary, the hardest kind to find.
func VocabularyDisjoint(ss []Scored) []Scored {
	var out []Scored
	for _, s := range ss {
		if !s.Positive || !sharesWord(s.A, s.B) {
			out = append(out, s)
		}
	}
	return out
}

// sharesWord reports whether two names share a word (split at
// non-letters and lower-to-upper case changes, lower-cased).
func sharesWord(a, b string) bool {
	words := map[string]bool{}
	for _, w := range nameWords(a) {
		words[w] = true
	}
	for _, w := range nameWords(b) {
		if words[w] {
			return true
		}
	}
	return false
}

func nameWords(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return out
}
