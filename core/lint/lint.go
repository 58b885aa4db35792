// Package lint is the catalog lint (SPEC §4): structural rules over each
// tool, pairwise similarity between the tools a model reads, verdicts with
// a hint naming the axis to make explicit, and the CI gate.
//
// The work comes in stages so an interactive caller can show each as it
// lands: Structural runs the rule pack (fast, no embedder); Score embeds
// the catalog and compares every pair, keeping only what a report can show;
// (*Scores).Judge turns the kept pairs into verdicts for any thresholds
// without scoring again; NewReport assembles the gate. Analyze does all of
// it in one call.
package lint

import (
	"context"
	"math"

	"toolscope/core/catalog"
	"toolscope/core/similarity"
	"toolscope/core/tokens"
)

// Severity is how much a structural finding weighs at the gate.
type Severity string

// The two severities; error fails the gate by default.
const (
	SeverityError Severity = "error"
	SeverityWarn  Severity = "warn"
)

// Gate says what fails the gate beside confusable pairs, which always do:
// structural findings at or above FailOn, and the review list (the watch
// verdict) when Review is set (--fail-on review, --strict).
type Gate struct {
	FailOn Severity
	Review bool
}

// Report is the whole lint result; its JSON field names are stable.
type Report struct {
	// OK is the gate: no confusable pair, no finding at or above FailOn,
	// and no review pair when the gate counts them.
	OK         bool              `json:"ok"`
	ToolCount  int               `json:"toolCount"`
	Similarity similarity.Result `json:"similarity"`
	Structural []Finding         `json:"structural"`
	Summary    Summary           `json:"summary"`
	// Suppressed, when a project config was applied, holds what it
	// accepted: those results are not in the lists above and do not gate.
	Suppressed *Suppressed `json:"suppressed,omitempty"`
	// Baseline, when the run was compared with one, counts the results by
	// baseline state; the gate then fails only on new failing results.
	Baseline *BaselineSummary `json:"baseline,omitempty"`
	// Judged, when judgments were asked for or replayed, is what a chat
	// model or a person said of the pairs; their verdicts are already in
	// Similarity's lists.
	Judged *Judged `json:"judged,omitempty"`
	// Reviewed, when tools were reviewed by a chat model or reviews
	// replayed; the problems found are among Structural, rule
	// RuleModelReview.
	Reviewed *Reviewed `json:"reviewed,omitempty"`
	// Tokens is what the catalog's definitions cost in tokens, when
	// Options.MeasureTokens asked for it.
	Tokens *tokens.Catalog `json:"tokens,omitempty"`
	// Servers is each server's share of a catalog merged from several
	// (ShareByServer); nil for one catalog.
	Servers []ServerShare `json:"servers,omitempty"`
	// FailedOn lists what else failed the gate, set by the caller with
	// Fail: an empty catalog under --strict, stale config or baseline
	// entries, warnings over --max-warnings.
	FailedOn []string `json:"failedOn,omitempty"`
	// Score sums the report up for people, 0 to 100 (ScoreOf).
	Score *Score `json:"score,omitempty"`
	// Gate is what failed the gate.
	Gate `json:"-"`
}

// Fail fails the gate for a reason beyond the results, said in the
// RESULT line.
func (r *Report) Fail(reason string) {
	r.OK = false
	r.FailedOn = append(r.FailedOn, reason)
}

// Suppressed is what a project config (toolscope.yaml) accepted, each
// result with the config's reason in its Suppression.
type Suppressed struct {
	// Config names the config file.
	Config   string                   `json:"config"`
	Findings []Finding                `json:"findings"`
	Pairs    []similarity.PairFinding `json:"pairs"`
	// Unused lists the config's entries that matched nothing, to prune.
	Unused []string `json:"unused,omitempty"`
}

// Judged is the judge section of a report: the pairs a judgment holds
// for, and those left unjudged.
type Judged struct {
	// Judge is the model asked in this run ("openai:MODEL"); "" when the
	// recorded judgments were only replayed.
	Judge string `json:"judge"`
	// File is the judgments file read, "" for none.
	File string `json:"file,omitempty"`
	// Asked counts the pairs the model judged in this run, Replayed those
	// a recorded judgment answered.
	Asked    int `json:"asked"`
	Replayed int `json:"replayed"`
	// Pairs are the judged pairs, confusable first.
	Pairs []JudgedPair `json:"pairs"`
	// Unjudged are the pairs a judgment was wanted for and none holds;
	// their offline verdict stands.
	Unjudged []UnjudgedPair `json:"unjudged"`
	// Error is the request failure that stopped the asking, "" if none.
	Error string `json:"error,omitempty"`
}

// JudgedPair is one pair's judgment as the report shows it.
type JudgedPair struct {
	A string `json:"a"`
	B string `json:"b"`
	// Label is 0..3; 2 and 3 make the pair confusable, 0 and 1 clear it.
	Label int `json:"label"`
	// Verdict is "confusable" or "cleared".
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
	// FixA and FixB are the sentences the judge proposes for A's and B's
	// descriptions.
	FixA string `json:"fixA,omitempty"`
	FixB string `json:"fixB,omitempty"`
	// By is "openai:MODEL" or "person"; Status is "asked" or "replayed".
	By     string `json:"by"`
	Status string `json:"status"`
	// Offline is the verdict the offline scoring gave ("confusable",
	// "watch", or "" for none), which the judgment overrides.
	Offline string `json:"offline"`
}

// UnjudgedPair is a pair with no judgment that holds, and why.
type UnjudgedPair struct {
	A   string `json:"a"`
	B   string `json:"b"`
	Why string `json:"why"`
	// Offline is the verdict that stands.
	Offline string `json:"offline"`
}

// Summary counts what the report found.
type Summary struct {
	Confusable int `json:"confusable"`
	Watch      int `json:"watch"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
}

// Finding is one structural finding on one tool.
type Finding struct {
	Rule     string   `json:"rule"`
	Tool     string   `json:"tool"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	// Param names the parameter the finding is about, as a path for a
	// nested one ("filter.name", "tags[]").
	Param string `json:"param,omitempty"`
	// Params names every parameter a finding about several is about
	// (Param is the first of them); nil for a finding about one or none.
	Params []string `json:"params,omitempty"`
	// Suggestion says in a few words what to change; Fix, when the change
	// is mechanical, is it as JSON Patch operations on the catalog file
	// (docs/lint.md#fixes), which lint --fix applies.
	Suggestion string            `json:"suggestion,omitempty"`
	Fix        []catalog.PatchOp `json:"fix,omitempty"`
	// Line and Column locate the finding in the source (1-based): the
	// string or enum member it is about, else its parameter's key, else
	// the tool's entry.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// File is the file Line and Column are in when it is not the
	// catalog's: the mcp-config a config-* finding is about.
	File string `json:"file,omitempty"`
	// ToolIndex is the tool's catalog index.
	ToolIndex int `json:"-"`
	// BaselineState is set when the run was compared with a baseline.
	BaselineState similarity.BaselineState `json:"baselineState,omitempty"`
	// Suppression is the reason a project config gave for accepting it.
	Suppression string `json:"suppression,omitempty"`
	// By names the chat model whose review found it ("openai:MODEL", or
	// "person"), "" for a rule's; Category is the review's kind of
	// problem, and Also the rules that report the same place.
	By       string   `json:"by,omitempty"`
	Category string   `json:"category,omitempty"`
	Also     []string `json:"also,omitempty"`
}

// StageRules is the rule pack's progress stage, before the scoring's: it
// reports its start (Total 0) and counts tools.
const StageRules similarity.Stage = "rules"

// Options configure an analysis; the zero value is not useful, start from
// DefaultOptions.
type Options struct {
	// Options configure the similarity scoring; its Progress also hears
	// the rules' progress.
	similarity.Options
	// Gate says what fails the gate.
	Gate
	// Set is the rule set Rules was built from; Rules is the structural
	// pack; Disabled lists rule ids to skip.
	Set      RuleSet
	Rules    []Rule
	Disabled []string
	// MeasureTokens counts every tool's tokens into the report's Tokens
	// (asked for by the JSON output only).
	MeasureTokens bool
	// Tokens counts definitions for the report and the catalog-tokens
	// rule; nil counts in memory, once per Analyze. With a store it
	// answers what an earlier run counted.
	Tokens *tokens.Meter
	// measured gives Measure's count of this catalog when Analyze makes
	// one, waiting for it: the catalog-tokens rule then reads it rather
	// than writing every definition again.
	measured func() *tokens.Catalog
}

// DefaultOptions is the command line's defaults without an embedder.
func DefaultOptions() Options {
	return Options{
		Options: similarity.DefaultOptions(),
		Gate:    Gate{FailOn: SeverityError},
		Set:     RuleSetRecommended,
		Rules:   DefaultRules(),
	}
}

// Analyze runs the whole lint: rules, similarity, verdicts and the gate.
// It fails only when embedding fails or ctx ends.
func Analyze(ctx context.Context, cat *catalog.Catalog, opts Options) (*Report, error) {
	// With an embedder, the rules run beside the similarity, which leaves
	// a core idle while it embeds and prepares its features; their
	// progress is then said once, as the first stage, not from beside the
	// scoring's.
	var findings []Finding
	rules := make(chan struct{})
	if opts.Tokens == nil {
		opts.Tokens = tokens.NewMeter(nil)
	}
	quiet := opts
	if opts.Embedder != nil {
		if opts.Progress != nil {
			opts.Progress(similarity.Progress{Stage: StageRules, Total: len(cat.Tools)})
		}
		quiet.Progress = nil
	}
	// The token counts are made beside the rules and the similarity: the
	// catalog-tokens rule, on the last tool, waits for them.
	var measured *tokens.Catalog
	counted := make(chan struct{})
	if opts.MeasureTokens {
		go func() {
			defer close(counted)
			m := opts.Tokens.Measure(cat, 0, false)
			measured = &m
		}()
	} else {
		close(counted)
	}
	go func() {
		defer close(rules)
		withCounts := quiet
		withCounts.measured = func() *tokens.Catalog {
			<-counted
			return measured
		}
		findings = Structural(cat, withCounts)
		<-counted
	}()
	if opts.Embedder == nil {
		<-rules
	}
	defer func() { <-rules }()
	// Without an embedder there are no verdicts: report-only thresholds.
	sim := similarity.Result{Scoring: opts.Scoring, Thresholds: similarity.Thresholds{Confusability: math.Inf(1)}}
	if opts.Embedder != nil {
		scores, err := similarity.Score(ctx, cat, opts.Options)
		if err != nil {
			return nil, err
		}
		if opts.Progress != nil {
			opts.Progress(similarity.Progress{Stage: similarity.StageVerdicts})
		}
		sim = scores.Judge(scores.Thresholds())
	}
	<-rules
	r := NewReport(cat, findings, sim, opts.Gate)
	r.Tokens = measured
	return r, nil
}

// NewReport assembles a report and its gate from the stages' results.
func NewReport(cat *catalog.Catalog, findings []Finding, sim similarity.Result, gate Gate) *Report {
	r := &Report{ToolCount: len(cat.Tools), Similarity: sim, Structural: findings, Gate: gate}
	if r.Structural == nil {
		r.Structural = []Finding{}
	}
	if r.Similarity.Confusable == nil {
		r.Similarity.Confusable = []similarity.PairFinding{}
	}
	if r.Similarity.Watch == nil {
		r.Similarity.Watch = []similarity.PairFinding{}
	}
	if r.Similarity.Ranked == nil {
		r.Similarity.Ranked = []similarity.Pair{}
	}
	failing := 0
	for _, f := range findings {
		if f.Severity == SeverityError {
			r.Summary.Errors++
		} else {
			r.Summary.Warnings++
		}
		if f.Severity == SeverityError || gate.FailOn == SeverityWarn {
			failing++
		}
	}
	r.Summary.Confusable = max(len(sim.Confusable), sim.ConfusableCount)
	r.Summary.Watch = max(len(sim.Watch), sim.WatchCount)
	r.OK = r.Summary.Confusable == 0 && failing == 0 && !(gate.Review && r.Summary.Watch > 0)
	return r
}
