package calibration

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// The cross-server band: where a pair of tools from two different servers
// becomes confusable in a merged catalog. Across servers a pair that reads
// alike is most often the same job twice, so the band is fitted on merged
// catalogs: the F1-best start on the twins' held-out risks, among the
// starts at which a negative control (servers that share no job, every
// cross-server pair distinct) is flagged no more per tool than
// MaxControlRate, so that a merge of unrelated servers is not failed for
// their generic verbs (docs/calibration.md).
//
// MaxControlRate is about what the catalog's own band flags on real
// single catalogs (0.047 confusable pairs per tool).
const MaxControlRate = 0.05

// TwinThreshold is the cross-server band's start on held-out twin risks
// ss and control risks: the F1-best on ss (the higher of equal ones) at or
// above the lowest start that keeps the controls within MaxControlRate
// pairs per tool, rounded like the single catalogs' bands.
func TwinThreshold(ss []Scored, controls ...Scored) float64 {
	floor := 0.0
	if len(controls) > 0 {
		floor = RateThreshold(controls, Tools(Samples(controls)), MaxControlRate)
	}
	best, bestF1 := math.Inf(1), -1.0
	for _, t := range append([]float64{floor}, risksOf(ss)...) {
		if t < floor {
			continue
		}
		if f := TallyAt(ss, t).F1(); f > bestF1 || (f == bestF1 && t > best) {
			best, bestF1 = t, f
		}
	}
	return roundInGap(append(slices.Clip(ss), controls...), best)
}

func risksOf(ss []Scored) []float64 {
	out := make([]float64, len(ss))
	for k, s := range ss {
		out[k] = s.Risk
	}
	return out
}

// TwinFold is one merge held out: the start (and, with evidence, the
// bonuses) picked on the other merges' twins, and what it gives on this
// one.
type TwinFold struct {
	Set    string
	Start  float64
	Bonus  similarity.TwinTraits
	Counts Counts
}

// TwinsLeaveOneSetOut fits the cross-server band (FitTwins: evidence and
// start) without each merge in turn (with the controls) and tallies that
// merge by it.
func TwinsLeaveOneSetOut(ss []Scored, controls ...Scored) []TwinFold {
	return twinFolds(ss, controls, true)
}

// TwinsLeaveOneSetOutRisk is TwinsLeaveOneSetOut on the risk alone, no
// evidence: the band as a start on the risk.
func TwinsLeaveOneSetOutRisk(ss []Scored, controls ...Scored) []TwinFold {
	return twinFolds(ss, controls, false)
}

func twinFolds(ss, controls []Scored, evidence bool) []TwinFold {
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
		if !evidence {
			t := TwinThreshold(train, controls...)
			folds = append(folds, TwinFold{Set: g, Start: t, Counts: TallyAt(test, t)})
			continue
		}
		t, bonus := FitTwins(train, controls...)
		folds = append(folds, TwinFold{Set: g, Start: t, Bonus: bonus, Counts: TallyAt(WithEvidence(test, bonus), t)})
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

// ControlSamples are the negative control's cross-server pairs: the sets
// of dir/controls.json merged from dir/catalogs, every pair distinct
// (groups "control:<set>").
func ControlSamples(ctx context.Context, dir string, opts lint.Options) ([]Sample, error) {
	sets, err := ReadTwins(filepath.Join(dir, "controls.json"))
	if err != nil {
		return nil, err
	}
	for _, s := range sets.Sets {
		if len(s.Groups) > 0 {
			return nil, fmt.Errorf("%s: set %s has groups: a control's pairs are all distinct", dir, s.Name)
		}
	}
	out, err := TwinSamples(ctx, filepath.Join(dir, "catalogs"), sets, opts)
	for k := range out {
		out[k].Group = "control:" + strings.TrimPrefix(out[k].Group, "twins:")
	}
	return out, err
}
