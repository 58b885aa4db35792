// Package similarity scores the pairs of a catalog's tools (SPEC §4.2):
// the scorings (risk, adaptive, cosine), the pair kernel that keeps only what
// a report can show, the risk model and its name traits, the hints that say
// how to tell a pair apart, and what-if rescoring of an edited description.
//
// Score embeds the catalog and compares every pair; (*Scores).Judge turns
// the kept pairs into verdicts for any thresholds without scoring again. The
// package knows nothing of rules or gates: it hands back pairs and verdicts.
package similarity

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"toolscope/embed"
)

// Scoring names how pairs are scored (SPEC §4.2).
type Scoring string

// The two scorings.
const (
	// ScoringCosine is the reference's: plain cosine of the full texts.
	ScoringCosine Scoring = "cosine"
	// ScoringAdaptive scores a pair against both tools' usual neighbours.
	ScoringAdaptive Scoring = "adaptive"
	// ScoringRisk is the confusion risk: a calibrated chance in [0, 1]
	// that a model takes one tool for the other (risk.go).
	ScoringRisk Scoring = "risk"
)

// Scorings are the scorings, the default first.
var Scorings = []Scoring{ScoringRisk, ScoringAdaptive, ScoringCosine}

// Explain says in one sentence, for a tool author, what a pair's score
// means under the scoring.
func (s Scoring) Explain() string {
	switch s {
	case ScoringRisk:
		return "The risk is the chance, from 0 to 1, that a model takes one tool for the other: a small model fitted on labelled pairs " +
			"weighs how alike the texts read (first sentences against each tool's usual neighbours, full descriptions, shared rare words), " +
			"how the names relate (opposite or different actions, one object inside the other), " +
			"whether each description already names the other with when to choose it, " +
			"and how much their words, parameters included, overlap against the rest of the catalog. " +
			"At the threshold or above a pair is confusable (the confident part, which fails the gate); from the review start below it, " +
			"on the review list (related, maybe confusable: advisory); under that, " + LowShown + ". " +
			"A pair's why lists the features that moved its risk most against the average pair (+ raises it, − lowers it); " +
			"its hint names the axis to make explicit and a sentence for each description that, added, takes the pair under the review start."
	case ScoringAdaptive:
		return "The adaptive score is how much closer two tools read to each other (name and first sentence, plus the words their names share) " +
			"than each usually reads to its three nearest neighbours: at the threshold or above, with an affinity of at least 0.75, " +
			"they stand out as a pair a model can take one for the other."
	case ScoringCosine:
		return "The cosine score is how alike two tools' full texts (name and description) read, from -1 to 1: " +
			"at the threshold or above, a model can take one for the other."
	}
	return ""
}

// Verdict says how close a flagged pair is.
type Verdict string

// The two verdicts. Confusable is the confident band and fails the gate;
// watch is the broad, advisory review list, which fails it only when the
// gate is asked to (--fail-on review, --strict).
const (
	Confusable Verdict = "confusable"
	Watch      Verdict = "watch"
)

// LowShown is the word for a pair under the review start, which has no
// verdict: the help, the explorer's panes and its notices all say it.
const LowShown = "low"

// RiskText writes a risk with two decimals, or with as many more (up to
// five) as it takes for the text not to read as at or over a threshold it
// is under, or under one it reaches: 0.066 under a review start of 0.0689
// is "0.066", never "0.07".
func RiskText(r float64, th *Thresholds) string {
	if th == nil {
		return fmt.Sprintf("%.2f", r)
	}
	bars := []float64{th.Confusability, th.ReviewStart()}
	if th.CrossServer > 0 {
		bars = append(bars, th.CrossServer)
	}
	for d := 2; d < 5; d++ {
		text := fmt.Sprintf("%.*f", d, r)
		shown, _ := strconv.ParseFloat(text, 64)
		ok := true
		for _, b := range bars {
			if (r < b) != (shown < b) {
				ok = false
			}
		}
		if ok {
			return text
		}
	}
	return fmt.Sprintf("%.5f", r)
}

// Shown is the verdict's word for people: the watch list is shown as
// "review" (JSON keeps "watch", a stable field value).
func (v Verdict) Shown() string {
	if v == Watch {
		return "review"
	}
	return string(v)
}

// BaselineState says how a result compares with a baseline, in SARIF's
// words: new (not in the baseline), unchanged, updated (in the baseline,
// but its severity, verdict or message moved) or absent (in the baseline,
// gone now). "" when no baseline was given.
type BaselineState string

// The baseline states.
const (
	BaselineNew       BaselineState = "new"
	BaselineUnchanged BaselineState = "unchanged"
	BaselineUpdated   BaselineState = "updated"
	BaselineAbsent    BaselineState = "absent"
)

// Result is the similarity section of a report.
type Result struct {
	// Analyzed is false when similarity was skipped: no embedder, or fewer
	// than two distinct tools.
	Analyzed bool `json:"analyzed"`
	// Embedder is the embedder's ID, "" when none ran.
	Embedder string  `json:"embedder"`
	Scoring  Scoring `json:"scoring"`
	// Calibrated is false when the thresholds are the scoring's defaults
	// rather than the embedder's calibration or the user's choice.
	Calibrated bool       `json:"calibrated"`
	Thresholds Thresholds `json:"thresholds"`
	// PairCount is how many pairs were compared: N(N-1)/2 over the
	// distinct tools, whatever was kept.
	PairCount  int           `json:"pairCount"`
	Confusable []PairFinding `json:"confusable"`
	Watch      []PairFinding `json:"watch"`
	// Ranked is the top of the ranking (RankLimit pairs), score descending,
	// ties in catalog order.
	Ranked []Pair `json:"ranked"`
	// Neighbours holds, per tool (by catalog index), its nearest other
	// tools, best first; nil for a tool left out of similarity.
	Neighbours [][]Pair `json:"-"`
	// ConfusableCount and WatchCount count every verdict pair; the lists
	// above hold at most Options.VerdictLimit of each, best first, and
	// Truncated says they were cut.
	ConfusableCount int  `json:"-"`
	WatchCount      int  `json:"-"`
	Truncated       bool `json:"truncated,omitempty"`
	// Notes are caveats a reader must see beside the verdicts (an
	// uncalibrated embedder, one whose verdicts mean little).
	Notes []string `json:"notes,omitempty"`
}

// Thresholds are where verdicts start.
type Thresholds struct {
	// Confusability: a pair scoring at or above it is confusable. +Inf
	// means report-only (no verdicts); it is written as null in JSON.
	Confusability float64 `json:"confusability"`
	// WatchBand: a pair within it below Confusability is watch.
	WatchBand float64 `json:"watchBand"`
	// AffinityFloor (adaptive only): both verdicts also need the pair's
	// affinity at or above it.
	AffinityFloor float64 `json:"affinityFloor,omitempty"`
	// CrossServer (risk only, in a catalog merged from several servers):
	// a pair of tools from two different servers is confusable from it,
	// the band fitted on twins; 0 when there is no such band.
	CrossServer float64 `json:"crossServer,omitempty"`
}

// ReportOnly reports whether these thresholds give no verdicts at all.
func (t Thresholds) ReportOnly() bool { return math.IsInf(t.Confusability, 1) }

// ReviewStart is where the review band starts: the threshold less its
// band, never under 0.
func (t Thresholds) ReviewStart() float64 { return max(0, t.Confusability-t.WatchBand) }

// StartText writes where a band starts as the reports and the explorer
// all show it, after "from": two decimals (the review start 0.06891 is
// "0.07"). A score that would read as on a start it is under is the one
// given more digits, where it is shown, never the start.
func StartText(f float64) string {
	return strconv.FormatFloat(math.Round(f*1e9)/1e9, 'f', 2, 64)
}

// MarshalJSON writes a report-only threshold as null, as the reference does.
func (t Thresholds) MarshalJSON() ([]byte, error) {
	type plain struct {
		Confusability *float64 `json:"confusability"`
		WatchBand     float64  `json:"watchBand"`
		AffinityFloor float64  `json:"affinityFloor,omitempty"`
		CrossServer   float64  `json:"crossServer,omitempty"`
	}
	p := plain{WatchBand: t.WatchBand, AffinityFloor: t.AffinityFloor, CrossServer: t.CrossServer}
	if !t.ReportOnly() {
		c := t.Confusability
		p.Confusability = &c
	}
	return json.Marshal(p)
}

// UnmarshalJSON reads a null threshold back as report-only.
func (t *Thresholds) UnmarshalJSON(data []byte) error {
	var p struct {
		Confusability *float64 `json:"confusability"`
		WatchBand     float64  `json:"watchBand"`
		AffinityFloor float64  `json:"affinityFloor"`
		CrossServer   float64  `json:"crossServer"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*t = Thresholds{Confusability: math.Inf(1), WatchBand: p.WatchBand, AffinityFloor: p.AffinityFloor, CrossServer: p.CrossServer}
	if p.Confusability != nil {
		t.Confusability = *p.Confusability
	}
	return nil
}

// Pair is two tools and their score; A has the lower catalog index.
type Pair struct {
	A string `json:"a"`
	B string `json:"b"`
	// I and J are the catalog indexes of A and B.
	I int `json:"-"`
	J int `json:"-"`
	// Similarity is the scoring's score: the cosine, or the adaptive score.
	Similarity float64 `json:"similarity"`
	// Affinity is the adaptive scoring's affinity (nil under cosine); under
	// the risk scoring, the cosine of the names and first sentences.
	Affinity *float64 `json:"affinity,omitempty"`
	// Risk is the confusion risk in [0, 1] under the risk scoring (the
	// same value as Similarity, named for readers), nil otherwise.
	Risk *float64 `json:"risk,omitempty"`
}

// PairFinding is a pair with a verdict and the hint for telling them apart.
// Its JSON is the pair's fields between kind and hint.
type PairFinding struct {
	Kind Verdict `json:"kind"`
	Pair
	Hint string `json:"hint"`
	// Reasons are the features that moved the pair's risk most, largest
	// first (risk scoring only).
	Reasons []Reason `json:"reasons,omitempty"`
	// Fixes are the edits the hint proposes, ready to apply (risk
	// scoring): each description names the other with when to choose it.
	Fixes []Fix `json:"fixes,omitempty"`
	// Axis is the hint's structure, for a UI that marks the terms.
	Axis Axis `json:"-"`
	// BaselineState is set when the run was compared with a baseline.
	BaselineState BaselineState `json:"baselineState,omitempty"`
	// Suppression is the reason a project config gave for accepting it.
	Suppression string `json:"suppression,omitempty"`
	// Band is the band the pair was judged by: BandCrossServer for a pair
	// of two servers of a merged catalog judged by the cross-server band,
	// "" for the catalog's own.
	Band string `json:"band,omitempty"`
}

// BandCrossServer marks a pair judged by the cross-server band.
const BandCrossServer = "cross-server"

// Progress reports long work: Done of Total units of Stage.
type Progress struct {
	Stage Stage
	Done  int
	Total int
}

// Stage names a part of the analysis for progress.
type Stage string

// The stages of the scoring that report progress, in the order they run
// (a caller may run its own before them). Features and verdicts report
// their start (Total 0). Features is reading the names and descriptions the
// scoring weighs, after the embedding: on a large catalog it can take a
// while, and a line still saying embed 100% would read as a run stuck.
const (
	StageEmbed    Stage = "embed"
	StageFeatures Stage = "features"
	StageScore    Stage = "score"
	StageVerdicts Stage = "verdicts"
)

// Adaptive holds the adaptive scoring's constants (SPEC §4.2), options so
// calibration work can vary them.
type Adaptive struct {
	// JaccardWeight weighs the names' token overlap in the affinity.
	JaccardWeight float64
	// K is how many nearest neighbours set a tool's usual affinity.
	K int
	// Threshold and WatchBand are the scoring's default verdict start.
	Threshold, WatchBand float64
	// AffinityFloor is the least affinity a flagged pair needs.
	AffinityFloor float64
}

// DefaultAdaptive is the SPEC's adaptive scoring.
func DefaultAdaptive() Adaptive {
	return Adaptive{JaccardWeight: 0.3, K: 3, Threshold: -0.04, WatchBand: 0.05, AffinityFloor: 0.75}
}

// The cosine scoring's default verdict start, for embedders without a
// calibration.
const (
	DefaultCosineThreshold = 0.85
	DefaultCosineWatchBand = 0.05
)

// DefaultRankLimit is how many ranked pairs a report keeps by default.
const DefaultRankLimit = 1000

// DefaultNeighbours is how many nearest neighbours are kept per tool.
const DefaultNeighbours = 10

// DefaultVerdictLimit bounds each verdict list. An embedder that
// compresses everything (the mock puts most pairs of a large catalog above
// 0.94) would otherwise make the report grow with N²; the counts stay
// exact.
const DefaultVerdictLimit = 10000

// Options configure a scoring; the zero value is not useful, start from
// DefaultOptions.
type Options struct {
	// Embedder scores similarity; nil skips it (Analyzed false).
	Embedder embed.Embedder
	Scoring  Scoring
	// Threshold and WatchBand override the embedder's calibration when
	// set; Threshold +Inf makes similarity report-only.
	Threshold *float64
	WatchBand *float64
	Adaptive  Adaptive
	// RiskModel replaces the risk scoring's fitted model (calibration
	// work); nil is DefaultRiskModel.
	RiskModel *RiskModel
	// RankLimit bounds Ranked; 0 keeps every pair.
	RankLimit int
	// Neighbours is how many nearest neighbours to keep per tool.
	Neighbours int
	// VerdictLimit bounds each verdict list; 0 keeps them all.
	VerdictLimit int
	// DetailLimit, above 0, gives the reasons, fixes and hint of the
	// first DetailLimit pairs of each verdict list only (what a text
	// report shows); the others carry their tools, score, band and axis.
	// 0 details every pair.
	DetailLimit int
	// FullWords, above 0, cuts the description in the risk scoring's
	// full text to its first FullWords words (FullText): fewer tokens to
	// embed. 0 keeps it whole (the built-in encoder still reads only its
	// first 128 tokens). The risk model is fitted for one setting,
	// DefaultFullWords.
	FullWords int
	// Progress, when set, is called as embedding and scoring advance, from
	// the goroutine running the analysis.
	Progress func(Progress)
}

// DefaultOptions is the command line's defaults without an embedder.
func DefaultOptions() Options {
	return Options{
		Scoring:      ScoringRisk,
		Adaptive:     DefaultAdaptive(),
		RankLimit:    DefaultRankLimit,
		Neighbours:   DefaultNeighbours,
		VerdictLimit: DefaultVerdictLimit,
		FullWords:    DefaultFullWords,
	}
}

// DefaultFullWords is the full-text cut the risk model is fitted on: the
// first 24 words of the description (docs/calibration.md, "Fewer tokens").
const DefaultFullWords = 24
