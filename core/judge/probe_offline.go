package judge

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// The probe measures what the model picks; toolscope's static similarity
// check predicts which pairs it will mix up. Set side by side, the two say
// where the static check missed a confusion the model made, and where it
// flagged a pair the model always told apart.

// Verdicts of the offline check on one pair, as the probe's JSON writes
// them: similarity's own (confusable, watch) and none.
const (
	OfflineConfusable = string(similarity.Confusable)
	OfflineWatch      = string(similarity.Watch)
	OfflineNone       = "none"
)

// OfflineVerdict is the static check's word on one pair.
type OfflineVerdict struct {
	// Score is the pair's score under the scoring: the confusion risk
	// under the risk scoring.
	Score float64 `json:"score"`
	// Verdict is OfflineConfusable, OfflineWatch (shown as review) or
	// OfflineNone; for an accepted pair, the verdict before the config
	// accepted it.
	Verdict string `json:"verdict"`
	// Accepted is the project config's reason when it accepts the pair as
	// distinct (the gate then ignores it), "" otherwise.
	Accepted string `json:"accepted,omitempty"`
	// Below says the pair ranked under every pair the check kept: Score is
	// then the lowest kept score, which the pair's does not exceed.
	Below bool `json:"below,omitempty"`
}

// flagged reports whether the check, config applied, puts the pair on a
// list a reader sees: confusable or review, and not accepted.
func (v OfflineVerdict) flagged() bool {
	return v.Accepted == "" && v.Verdict != OfflineNone
}

// OfflineScores is the static check run on the probed catalog: every
// pair's score and verdict, by the pair's names.
type OfflineScores struct {
	Embedder   string
	Scoring    similarity.Scoring
	Thresholds similarity.Thresholds
	// Config is the project config applied, "" for none.
	Config string
	// Notes are the check's caveats (an uncalibrated embedder).
	Notes []string
	pairs map[[2]string]OfflineVerdict
	// floor is the lowest score kept when the ranking kept only its top
	// (every pair of a large catalog would not fit), nil when it kept all.
	floor *float64
}

// pairKey is a pair's key whatever the order of its names.
func pairKey(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// NewOfflineScores reads a lint report's similarity: the scores from its
// ranking (which must hold every pair: RankLimit 0), the verdicts from its
// lists and, when a config was applied, the pairs it accepted.
func NewOfflineScores(r *lint.Report) *OfflineScores {
	sim := r.Similarity
	o := &OfflineScores{Embedder: sim.Embedder, Scoring: sim.Scoring, Thresholds: sim.Thresholds, Notes: sim.Notes, pairs: map[[2]string]OfflineVerdict{}}
	for _, p := range sim.Ranked {
		o.pairs[pairKey(p.A, p.B)] = OfflineVerdict{Score: p.Similarity, Verdict: OfflineNone}
	}
	if n := len(sim.Ranked); n > 0 && n < sim.PairCount {
		floor := sim.Ranked[n-1].Similarity
		o.floor = &floor
	}
	mark := func(list []similarity.PairFinding) {
		for _, p := range list {
			o.pairs[pairKey(p.A, p.B)] = OfflineVerdict{Score: p.Similarity, Verdict: string(p.Kind), Accepted: p.Suppression}
		}
	}
	mark(sim.Confusable)
	mark(sim.Watch)
	if r.Suppressed != nil {
		o.Config = r.Suppressed.Config
		mark(r.Suppressed.Pairs)
	}
	return o
}

// Renamed is the scores with every tool name passed through f (as a
// terminal shows the names).
func (o *OfflineScores) Renamed(f func(string) string) *OfflineScores {
	out := *o
	out.pairs = make(map[[2]string]OfflineVerdict, len(o.pairs))
	for k, v := range o.pairs {
		out.pairs[pairKey(f(k[0]), f(k[1]))] = v
	}
	return &out
}

// Verdict is the check's word on the pair a, b; false when it did not
// score the pair (a tool outside the catalog, or no tool).
func (o *OfflineScores) Verdict(a, b string) (OfflineVerdict, bool) {
	v, ok := o.pairs[pairKey(a, b)]
	return v, ok
}

// Offline is the probe set beside the offline check, in the probe's JSON.
type Offline struct {
	Embedder   string                `json:"embedder"`
	Scoring    similarity.Scoring    `json:"scoring"`
	Thresholds similarity.Thresholds `json:"thresholds"`
	// Config is the project config whose thresholds and accepted pairs
	// were applied, "" for none.
	Config string `json:"config,omitempty"`
	// Notes are the check's caveats, as lint reports them.
	Notes []string `json:"notes,omitempty"`
	// Missed are the pairs the model confused (a request for one went to
	// the other) that the check, config applied, did not flag: neither
	// confusable nor review, or accepted. Highest rate first.
	Missed []PairCheck `json:"missed"`
	// NeverConfused are the pairs the check found confusable (and the
	// config did not accept) whose requests, sent for both tools, never
	// went to the other. Highest score first.
	NeverConfused []PairCheck `json:"neverConfused"`
	Tally         Tally       `json:"tally"`
}

// Tally counts the pairs the probe covered (requests sent for both tools,
// or a request for one that went to the other) by what the model did and
// what the check said; the four counts add up to Pairs.
type Tally struct {
	Pairs int `json:"pairs"`
	// ConfusedFlagged: confused by the model, flagged offline.
	ConfusedFlagged int `json:"confusedFlagged"`
	// Missed: confused, not flagged (the Missed list).
	Missed int `json:"missed"`
	// NeverConfused: confusable offline, never confused (the list).
	NeverConfused int `json:"neverConfused"`
	// Neither: never confused, and not confusable offline.
	Neither int `json:"neither"`
}

// PairCheck is one pair's measure beside its offline verdict. A comes
// first in the catalog.
type PairCheck struct {
	Crossing
	// Rate is (AB+BA)/(OfA+OfB), and Low and High its 95% Wilson score
	// interval: on a handful of requests, the rate says little alone.
	Rate    float64        `json:"rate"`
	Low     float64        `json:"low"`
	High    float64        `json:"high"`
	Offline OfflineVerdict `json:"offline"`
}

// wilsonZ is the normal quantile of a two-sided 95% interval.
const wilsonZ = 1.959964

// Wilson is the 95% Wilson score interval of k successes in n trials:
// unlike the plain k/n ± z·SE, it stays inside [0, 1] and is not empty at
// 0 of n, which is what a probe of a few requests per tool mostly gives.
// For n = 0 it is [0, 1].
func Wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf, p, z2 := float64(n), float64(k)/float64(n), wilsonZ*wilsonZ
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := wilsonZ * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return max(0, centre-half), min(1, centre+half)
}

// CheckOffline sets the probe beside the offline check: each confusion
// between two tools of the catalog gets the pair's verdict, and Offline
// the missed and never-confused pairs with the tally.
func (p Probe) CheckOffline(o *OfflineScores) Probe {
	inCatalog := make(map[string]bool, len(p.Tools))
	for _, t := range p.Tools {
		inCatalog[t] = true
	}
	verdict := func(a, b string) (OfflineVerdict, bool) {
		if v, ok := o.Verdict(a, b); ok {
			return v, true
		}
		// A pair of the catalog under the kept ranking: not flagged, its
		// score at most the lowest kept.
		if o.floor != nil && a != b && inCatalog[a] && inCatalog[b] {
			return OfflineVerdict{Score: *o.floor, Verdict: OfflineNone, Below: true}, true
		}
		return OfflineVerdict{}, false
	}
	out := p
	out.Confusions = make([]Confusion, len(p.Confusions))
	for i, c := range p.Confusions {
		if v, ok := verdict(c.Tool, c.Picked); ok && c.Tool != c.Picked {
			c.Offline = &v
		}
		out.Confusions[i] = c
	}
	off := &Offline{Embedder: o.Embedder, Scoring: o.Scoring, Thresholds: o.Thresholds, Config: o.Config, Notes: o.Notes, Missed: []PairCheck{}, NeverConfused: []PairCheck{}}
	of := map[string]int{}
	for _, c := range p.Cases {
		of[c.Tool]++
	}
	for i, a := range p.Tools {
		if o.Thresholds.ReportOnly() {
			break // no verdicts to agree or disagree with
		}
		for _, b := range p.Tools[i+1:] {
			v, ok := verdict(a, b)
			if !ok || a == b {
				continue
			}
			c := PairCheck{Crossing: Crossing{A: a, B: b, AB: p.Matrix[a][b], OfA: of[a], BA: p.Matrix[b][a], OfB: of[b]}, Offline: v}
			confused := c.Count() > 0
			if !confused && (c.OfA == 0 || c.OfB == 0) {
				continue // not covered: no request for one of them
			}
			c.Rate = float64(c.Count()) / float64(c.Of())
			c.Low, c.High = Wilson(c.Count(), c.Of())
			off.Tally.Pairs++
			switch {
			case confused && v.flagged():
				off.Tally.ConfusedFlagged++
			case confused:
				off.Tally.Missed++
				off.Missed = append(off.Missed, c)
			case v.Verdict == OfflineConfusable && v.Accepted == "":
				off.Tally.NeverConfused++
				off.NeverConfused = append(off.NeverConfused, c)
			default:
				off.Tally.Neither++
			}
		}
	}
	slices.SortStableFunc(off.Missed, func(x, y PairCheck) int { return cmp.Compare(y.Rate, x.Rate) })
	slices.SortStableFunc(off.NeverConfused, func(x, y PairCheck) int { return cmp.Compare(y.Offline.Score, x.Offline.Score) })
	out.Offline = off
	return out
}

// scoreWord names a scoring's score for a reader: "risk", "cosine",
// "score".
func scoreWord(s similarity.Scoring) string {
	switch s {
	case similarity.ScoringRisk:
		return "risk"
	case similarity.ScoringCosine:
		return "cosine"
	}
	return "score"
}

// words is a verdict as a report line says it under the check o: "risk
// 0.69, confusable", "risk 0.05, not flagged", "risk 0.69, accepted in
// toolscope.yaml"; the score alone when the check gave no verdicts.
func (v OfflineVerdict) words(o *Offline) string {
	what := "not flagged"
	switch {
	case v.Accepted != "":
		what = "accepted in " + configName(o.Config)
	case o.Thresholds.ReportOnly():
		return fmt.Sprintf("%s %s", scoreWord(o.Scoring), v.score())
	case v.Verdict != OfflineNone:
		what = similarity.Verdict(v.Verdict).Shown()
	}
	return fmt.Sprintf("%s %s, %s", scoreWord(o.Scoring), v.score(), what)
}

// score is the verdict's score as a line shows it: "0.69", or "under
// 0.01" for a pair below the kept ranking.
func (v OfflineVerdict) score() string {
	if v.Below {
		return fmt.Sprintf("under %.2f", v.Score)
	}
	return fmt.Sprintf("%.2f", v.Score)
}

// configName is the config's file name, "the project config" when unknown.
func configName(path string) string {
	if path == "" {
		return "the project config"
	}
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		return path[i+1:]
	}
	return path
}

// suffix is what a confusion's line adds: " (offline: risk 0.69,
// confusable)", "" when the check did not score the pair.
func (c Confusion) suffix(o *Offline) string {
	if c.Offline == nil || o == nil {
		return ""
	}
	return " (offline: " + c.Offline.words(o) + ")"
}

// heading says which check the pairs are set beside: "use-lite, risk
// scoring, confusable from 0.44, toolscope.yaml applied".
func (o *Offline) heading() string {
	s := fmt.Sprintf("%s, %s scoring", o.Embedder, o.Scoring)
	if o.Thresholds.ReportOnly() {
		s += ", report-only (no verdicts)"
	} else {
		s += fmt.Sprintf(", confusable from %.2f", o.Thresholds.Confusability)
	}
	if o.Config != "" {
		s += ", " + configName(o.Config) + " applied"
	}
	return s
}

// pair is the pair's two names as a report line shows them.
func (c PairCheck) pair() string { return c.A + " ↔ " + c.B }

// measure is the pair's rate in words, with how many requests it rests
// on and its interval: "3 of 6 requests for either went to the other
// (95% interval 19–81%)".
func (c PairCheck) measure() string {
	return fmt.Sprintf("%d of %s for either went to the other (95%% interval %s)", c.Count(), count(c.Of(), "request", "requests"), c.interval())
}

func (c PairCheck) interval() string {
	return fmt.Sprintf("%.0f–%.0f%%", 100*c.Low, 100*c.High)
}

// line is the tally in one sentence.
func (t Tally) line() string {
	return fmt.Sprintf("Of %s probed: %d confused and flagged offline, %d confused but not flagged, %d flagged confusable but never confused, %d neither.",
		count(t.Pairs, "pair", "pairs"), t.ConfusedFlagged, t.Missed, t.NeverConfused, t.Neither)
}

// writeOfflineText is the text report's agreement section.
func (p Probe) writeOfflineText(b *strings.Builder) {
	o := p.Offline
	if o == nil {
		return
	}
	fmt.Fprintf(b, "\nOffline check (%s):\n", o.heading())
	for _, n := range o.Notes {
		fmt.Fprintf(b, "  Note: %s.\n", n)
	}
	if o.Thresholds.ReportOnly() {
		b.WriteString("  No verdicts to compare with: the threshold is off.\n")
		return
	}
	list := func(title string, pairs []PairCheck) {
		if len(pairs) == 0 {
			fmt.Fprintf(b, "  %s: none.\n", title)
			return
		}
		fmt.Fprintf(b, "  %s:\n", title)
		for _, c := range pairs {
			fmt.Fprintf(b, "    %s: %s; offline: %s\n", c.pair(), c.measure(), c.Offline.words(o))
		}
	}
	list("Confused by the model, not flagged offline (look at these first)", o.Missed)
	list("Flagged confusable offline, never confused", o.NeverConfused)
	fmt.Fprintf(b, "  %s\n", o.Tally.line())
}

// writeOfflineMarkdown is the Markdown report's agreement section.
func (p Probe) writeOfflineMarkdown(b *strings.Builder) {
	o := p.Offline
	if o == nil {
		if p.OfflineError != "" {
			fmt.Fprintf(b, "\nOffline check not run: %s\n", mdEscape(p.OfflineError))
		}
		return
	}
	fmt.Fprintf(b, "\n#### Offline check\n\n%s.\n", mdEscape(o.heading()))
	for _, n := range o.Notes {
		fmt.Fprintf(b, "\n> Note: %s.\n", mdEscape(n))
	}
	if o.Thresholds.ReportOnly() {
		b.WriteString("\nNo verdicts to compare with: the threshold is off.\n")
		return
	}
	table := func(title string, pairs []PairCheck) {
		fmt.Fprintf(b, "\n**%s**", title)
		if len(pairs) == 0 {
			b.WriteString(": none.\n")
			return
		}
		b.WriteString("\n\n| pair | requests for either that went to the other | 95% interval | offline |\n|---|---:|---:|---|\n")
		for _, c := range pairs {
			fmt.Fprintf(b, "| `%s` ↔ `%s` | %d of %d | %s | %s |\n", mdCode(c.A), mdCode(c.B), c.Count(), c.Of(), c.interval(), mdEscape(c.Offline.words(o)))
		}
	}
	table("Confused by the model, not flagged offline", o.Missed)
	table("Flagged confusable offline, never confused", o.NeverConfused)
	fmt.Fprintf(b, "\n%s\n", o.Tally.line())
}
