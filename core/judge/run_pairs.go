package judge

import (
	"context"
	"fmt"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/termsafe"
)

// PairRunRequest is one catalog's pair judging, everything in it built:
// nothing is parsed here.
type PairRunRequest struct {
	// Report is the catalog's report so far: its scoring picks the pairs
	// asked about, and the judgments are written into its verdicts.
	Report  *lint.Report
	Catalog *catalog.Catalog
	// File is the judgments file's records as read (nil: none), and Path
	// where that file is: the report names it when it holds judgments,
	// and Record writes the run's judgments into it.
	File   *Records
	Path   string
	Record bool
	// Cache is the judgment cache; nil keeps one in memory for the run.
	Cache *Cache
	// Model is the judge asked, nil to replay only; Price its price for
	// the estimate, nil when unknown.
	Model *Model
	Price *Price
	// MaxPairs caps the pairs asked (0: no limit); the others stay
	// unjudged.
	MaxPairs int
	IO       IO
}

// PairRunResult is what a pair run did.
type PairRunResult struct {
	// Report is the report with the judgments applied, the one given when
	// there was nothing to judge or replay.
	Report *lint.Report
	// Outcome is each pair's result, the requests sent and what stopped
	// the asking, if anything did.
	Outcome Outcome
}

// RunPairs judges or replays the report's candidate pairs and writes the
// judgments into its verdicts. With a model it says the estimate first,
// then asks (a judge that fails part-way is said and set in the report;
// the pairs it did not judge keep their offline verdict). An error means
// no report: the run was interrupted, or the judgments file could not be
// written.
func RunPairs(ctx context.Context, req PairRunRequest) (PairRunResult, error) {
	req = req.withDefaults()
	if req.Model == nil && req.File.Len() == 0 && req.Cache.Len() == 0 {
		return PairRunResult{Report: req.Report}, nil
	}
	questions := Questions(req.Catalog, req.Report.Similarity, DefaultPerTool, req.File)
	plan := NewPlan(req.Model, questions, req.File, req.Cache, req.MaxPairs)
	out := Outcome{Results: plan.Results}
	o := ApplyOptions{}
	if req.Model != nil {
		var err error
		if out, err = req.ask(ctx, plan, len(questions)); err != nil {
			return PairRunResult{}, err
		}
		o.Judge = req.Model.ID()
	}
	if req.File.Len() > 0 {
		o.File = req.Path
	}
	if req.Record {
		if err := req.record(out.Results); err != nil {
			return PairRunResult{}, err
		}
		o.File = req.Path
	}
	for _, res := range out.Results {
		if res.Status == Asked {
			o.Asked++
		}
	}
	o.Err = out.Err
	return PairRunResult{Report: Apply(req.Report, req.Catalog, out.Results, o), Outcome: out}, nil
}

func (req PairRunRequest) withDefaults() PairRunRequest {
	if req.File == nil {
		req.File = NewRecords()
	}
	if req.Cache == nil {
		req.Cache = OpenCache("")
	}
	return req
}

// ask says what the plan will ask and cost, then asks, a progress line
// on the way. An interrupted run is an error: what was judged is cached.
func (req PairRunRequest) ask(ctx context.Context, plan *Plan, questions int) (Outcome, error) {
	m := req.Model
	ask := plan.Ask()
	line := fmt.Sprintf("judge %s at %s: %d candidate pairs, %d replayed, %d to ask", termsafe.Line(m.ID()), termsafe.Line(m.Endpoint()), questions, plan.Count(Replayed), len(ask))
	over := 0
	for _, res := range plan.Results {
		if strings.Contains(res.Why, WhyBudget) {
			over++
		}
	}
	if over > 0 {
		line += fmt.Sprintf(", %d over --judge-max-pairs %d", over, req.MaxPairs)
	}
	req.IO.say("%s; estimate: %s", line, EstimatePairs(ask, req.Price).String("--judge-price"))
	out := Outcome{Results: plan.Results}
	if len(ask) > 0 {
		out = m.Execute(ctx, plan, req.Cache, req.IO.progress("judged", "pair", "pairs"))
		req.IO.clear()
		if ctx.Err() != nil {
			return Outcome{}, fmt.Errorf("judge: %w", context.Cause(ctx))
		}
	}
	if out.Err != nil {
		req.IO.say("judge stopped: %s; the pairs it did not judge keep their offline verdict", errLine(out.Err))
	}
	req.IO.noteCache(req.Cache)
	return out, nil
}

// record writes the judgments the run holds (asked or replayed) into the
// judgments file, and says so.
func (req PairRunRequest) record(results []Result) error {
	var held []Judgment
	for _, res := range results {
		if res.Judgment != nil {
			held = append(held, *res.Judgment)
		}
	}
	recorded, err := Record(req.Path, held)
	if err != nil {
		return err
	}
	req.IO.say("recorded %s in %s (%d in all)", count(len(held), "judgment", "judgments"), termsafe.Line(req.Path), recorded.Len())
	return nil
}
