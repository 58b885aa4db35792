package judge

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/safefile"
	"toolscope/core/termsafe"
)

// ReviewRunRequest is one catalog's model review, everything in it
// built: nothing is parsed here.
type ReviewRunRequest struct {
	// Report is the catalog's report so far; the problems are added to it
	// as model-review findings.
	Report  *lint.Report
	Catalog *catalog.Catalog
	// File, Path, Record and Cache are as a PairRunRequest's: the
	// judgments file's records as read, where it is, whether to write the
	// run's reviews into it, and the cache (nil: one in memory).
	File   *Records
	Path   string
	Record bool
	Cache  *Cache
	// Asked says a review was asked for (--review, a requests or an
	// answers file). Without it only the reviews the file or the cache
	// hold replay, and a catalog none of them is of keeps its report.
	Asked bool
	// Model is the reviewer asked, nil for none; Price its price for the
	// estimate, nil when unknown.
	Model *Model
	Price *Price
	// Answers is an answers file to replay as the reviewer's, "" for
	// none. Requests is a file to write the requests to instead of
	// sending them, "" for none.
	Answers  string
	Requests string
	// MaxTools caps the tools asked (0: no limit); the others stay
	// unreviewed.
	MaxTools int
	// Budget is --max-cost as it stands after the run's catalogs before.
	Budget ReviewBudget
	// Ignores are the project config's ignore entries, nil for none.
	Ignores Ignores
	IO      IO
}

// ReviewBudget is --max-cost held over a run of many catalogs.
type ReviewBudget struct {
	// MaxCost is the most the run's reviews may be estimated at before
	// IO.Confirm is asked; Yes skips the question (--yes, or a yes given
	// for a catalog before).
	MaxCost float64
	Yes     bool
	// Spent is the estimate of the reviews sent so far in the run.
	Spent float64
}

// Ignores are a project config's ignore entries, as *config.Config
// holds them.
type Ignores interface {
	// MatchIgnore finds the entry that covers f: its reason and index.
	MatchIgnore(f lint.Finding) (reason string, index int, ok bool)
	// MarkIgnoresUsed takes the entries at the indexes off r's list of
	// entries that matched nothing.
	MarkIgnoresUsed(r *lint.Report, used []int)
}

// ReviewRunResult is what a review run did.
type ReviewRunResult struct {
	// Report is the report with the model-review findings added, the one
	// given when there was nothing to review or replay.
	Report *lint.Report
	// Outcome is each tool's result, the requests sent and what stopped
	// the asking, if anything did.
	Outcome ReviewOutcome
	// Budget is the request's, with this run's estimate spent: the next
	// catalog's request takes it, whether this one failed or not.
	Budget ReviewBudget
}

// RunReviews reviews the catalog's tools, or replays their recorded
// reviews, and adds the problems to the report as model-review findings:
// the answers file first, then the reviews recorded; the rest, asked
// for, are written to the requests file, or sent to the model once the
// estimate is said and held to the budget. An error means no report: an
// unreadable answers file, a file that may not or could not be written,
// a review over the budget not agreed to, an interrupted run.
func RunReviews(ctx context.Context, req ReviewRunRequest) (ReviewRunResult, error) {
	req = req.withDefaults()
	res := ReviewRunResult{Report: req.Report, Budget: req.Budget}
	if !req.Asked && req.File.ReviewCount() == 0 && req.Cache.ReviewCount() == 0 {
		return res, nil
	}
	plan, answers, err := req.plan()
	if err != nil {
		return ReviewRunResult{Budget: req.Budget}, err
	}
	if !req.Asked && len(plan.Results) == 0 {
		// Reviews recorded, none of these tools': no section.
		return res, nil
	}
	res.Outcome = ReviewOutcome{Results: plan.Results}
	switch {
	case req.Requests != "":
		err = req.writeRequests(plan)
		res.Outcome.Results = plan.Results
	case req.Model != nil:
		res.Outcome, res.Budget, err = req.ask(ctx, plan)
	case req.Asked && plan.Count(Replayed) == 0 && answers.Len() == 0:
		req.IO.say("review: no model named and no review recorded for these texts: name one with --judge openai:MODEL, or write the requests with --review-requests FILE")
	}
	if err == nil {
		res.Report, err = req.apply(res.Outcome)
	}
	if err != nil {
		// No report; the budget spent holds for the run all the same.
		return ReviewRunResult{Budget: res.Budget}, err
	}
	return res, nil
}

func (req ReviewRunRequest) withDefaults() ReviewRunRequest {
	if req.File == nil {
		req.File = NewRecords()
	}
	if req.Cache == nil {
		req.Cache = OpenCache("")
	}
	return req
}

// by is the reviewer's name and endpoint, "" for none.
func (req ReviewRunRequest) by() (by, endpoint string) {
	if req.Model == nil {
		return "", ""
	}
	return req.Model.ID(), req.Model.Endpoint()
}

// plan reads the answers file, if one is given, and decides each tool's
// fate.
func (req ReviewRunRequest) plan() (*ReviewPlan, *Answers, error) {
	tools := ReviewToolsOf(req.Catalog)
	by, endpoint := req.by()
	var answers *Answers
	if req.Answers != "" {
		var err error
		if answers, err = ReadAnswers(req.Answers, tools, by); err != nil {
			return nil, nil, err
		}
	}
	plan := NewReviewPlan(tools, ReviewPlanOptions{By: by, Endpoint: endpoint, Ask: req.Model != nil || req.Requests != "",
		File: req.File, Cache: req.Cache, Answers: answers, MaxTools: req.MaxTools})
	return plan, answers, nil
}

// writeRequests writes the requests the plan would send to the requests
// file, whole (safefile.Write), sends none, and says so.
func (req ReviewRunRequest) writeRequests(plan *ReviewPlan) error {
	if err := req.IO.checkWrite(req.Requests); err != nil {
		return err
	}
	model := ""
	if req.Model != nil {
		model = req.Model.name
	}
	ask := plan.Ask()
	var b bytes.Buffer
	if err := WriteRequests(&b, model, ask); err != nil {
		return err
	}
	if err := safefile.Write(req.Requests, b.Bytes()); err != nil {
		return fmt.Errorf("--review-requests %w", err)
	}
	plan.NotSent()
	req.IO.say("review: wrote %s to %s, sent none; %d replayed", count(len(ask), "request", "requests"), termsafe.Line(req.Requests), plan.Count(Replayed))
	return nil
}

// ask says what the review will cost, holds the budget, and sends the
// plan's requests. The budget returned has the estimate spent once the
// requests are sent, and a yes given kept.
func (req ReviewRunRequest) ask(ctx context.Context, plan *ReviewPlan) (ReviewOutcome, ReviewBudget, error) {
	m, b := req.Model, req.Budget
	out := ReviewOutcome{Results: plan.Results}
	ask := plan.Ask()
	est := EstimateReviews(ask, req.Price)
	req.IO.say("review by %s at %s: %d tools, %d replayed, %d to ask; estimate: %s", termsafe.Line(m.ID()), termsafe.Line(m.Endpoint()), len(plan.Results), plan.Count(Replayed), len(ask), est.String("--judge-price"))
	if len(ask) == 0 {
		return out, b, nil
	}
	if !b.Yes && (est.Dollars == nil || b.Spent+*est.Dollars > b.MaxCost) {
		why := b.overWhy(est)
		if !req.IO.confirm(why) {
			return out, b, fmt.Errorf("review not run: %s (pass --yes, or raise --max-cost)", why)
		}
		// Asked once for the run: the person said yes.
		b.Yes = true
	}
	if est.Dollars != nil {
		b.Spent += *est.Dollars
	}
	out = m.ExecuteReviews(ctx, plan, req.Cache, req.IO.progress("reviewed", "tool", "tools"))
	req.IO.clear()
	if ctx.Err() != nil {
		return out, b, fmt.Errorf("review: %w", context.Cause(ctx))
	}
	if out.Err != nil {
		req.IO.say("review stopped: %s; the tools it did not reach are unreviewed", errLine(out.Err))
	}
	req.IO.noteCache(req.Cache)
	return out, b, nil
}

// overWhy says why an estimate needs a yes: no price known, or over
// MaxCost, alone or with the catalogs before.
func (b ReviewBudget) overWhy(est Estimate) string {
	switch {
	case est.Dollars != nil && b.Spent > 0:
		return fmt.Sprintf("with the $%.2f of the catalogs before, the estimate is over --max-cost $%.2f", b.Spent, b.MaxCost)
	case est.Dollars != nil:
		return fmt.Sprintf("the estimate is over --max-cost $%.2f", b.MaxCost)
	}
	return "the price is unknown"
}

// apply records the reviews the outcome holds, with Record; says which
// tools are left unreviewed; and adds the findings to the report, those
// the config ignores aside.
func (req ReviewRunRequest) apply(out ReviewOutcome) (*lint.Report, error) {
	o := ApplyReviewsOptions{Err: out.Err}
	o.Model, _ = req.by()
	if req.File.ReviewCount() > 0 {
		o.File = req.Path
	}
	if req.Record {
		held := out.Reviews()
		recorded, err := RecordReviews(req.Path, held)
		if err != nil {
			return nil, err
		}
		o.File = req.Path
		req.IO.say("recorded %s in %s (%d in all)", count(len(held), "review", "reviews"), termsafe.Line(req.Path), recorded.ReviewCount())
	}
	req.IO.sayUnreviewed(out.Results)
	var used []int
	if req.Ignores != nil {
		o.Ignore = func(f lint.Finding) (string, bool) {
			reason, i, ok := req.Ignores.MatchIgnore(f)
			if ok {
				used = append(used, i)
			}
			return reason, ok
		}
	}
	reviewed := ApplyReviews(req.Report, req.Catalog, out.Results, o)
	if req.Ignores != nil {
		req.Ignores.MarkIgnoresUsed(reviewed, used)
	}
	return reviewed, nil
}

// sayUnreviewed says which tools are left unreviewed, one line per
// reason, naming the first few.
func (o IO) sayUnreviewed(results []ReviewResult) {
	var whys []string
	tools := map[string][]string{}
	for _, res := range results {
		if res.Status != Unjudged || res.Why == WhyReviewNotSent {
			continue
		}
		if _, ok := tools[res.Why]; !ok {
			whys = append(whys, res.Why)
		}
		tools[res.Why] = append(tools[res.Why], res.Tool.Name)
	}
	for _, why := range whys {
		names := tools[why]
		shown := names[:min(len(names), 5)]
		more := ""
		if len(names) > len(shown) {
			more = fmt.Sprintf(" and %d more", len(names)-len(shown))
		}
		o.say("review: %s unreviewed, %s: %s%s", count(len(names), "tool", "tools"), termsafe.Line(why), termsafe.Line(strings.Join(shown, ", ")), more)
	}
}
