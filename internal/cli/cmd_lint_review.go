package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/safefile"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
)

// DefaultReviewMaxTools is --review-max-tools' default: the most tools
// one run sends for review.
const DefaultReviewMaxTools = 1000

// reviewFlags are lint's model review flags (docs/judge.md#the-review):
// the model, its URL and price, and the judgments file are the judge's.
type reviewFlags struct {
	review   bool
	requests string
	answers  string
	maxTools int
	maxCost  float64
	yes      bool
	// spent is the estimate of the reviews sent so far in the run, over
	// every catalog: --max-cost holds for the run.
	spent float64
}

func addReviewFlags(fs *flag.FlagSet) *reviewFlags {
	r := &reviewFlags{}
	fs.BoolVar(&r.review, "review", false, "have the --judge model review each tool as a reviewer would; its problems are model-review findings, recorded with --judge-record and replayed without a model (docs/judge.md)")
	fs.StringVar(&r.requests, "review-requests", "", "write the review requests this run would send to `FILE` (JSON lines) and send none")
	fs.StringVar(&r.answers, "review-answers", "", "replay the reviews answered in `FILE` (JSON lines, one per request) as the reviewer's")
	fs.IntVar(&r.maxTools, "review-max-tools", DefaultReviewMaxTools, "send at most `N` tools for review in one run (0: no limit); the others stay unreviewed")
	fs.Float64Var(&r.maxCost, "max-cost", 1, "ask before reviewing when the estimate, over every catalog of the run, is over this many `DOLLARS`")
	fs.BoolVar(&r.yes, "yes", false, "review without asking, whatever the estimate")
	return r
}

// check validates the flags for a run over catalogs catalogs (merged or
// not): a requests or answers file is one catalog's.
func (r *reviewFlags) check(catalogs int, merge bool) error {
	switch {
	case r == nil:
		return nil
	case catalogs > 1 && !merge && (r.requests != "" || r.answers != ""):
		return errors.New("--review-requests and --review-answers take one catalog (or several with --merge)")
	case r.maxTools < 0:
		return fmt.Errorf("--review-max-tools %d is negative", r.maxTools)
	case !finite(r.maxCost) || r.maxCost < 0:
		return fmt.Errorf("--max-cost %v is not a number of dollars, 0 or more", r.maxCost)
	case r.requests != "" && r.requests == r.answers:
		return errors.New("--review-requests and --review-answers name the same file")
	}
	return nil
}

// files adds the file the review writes and the one it reads to a run's,
// for checkWrites.
func (r *reviewFlags) files(writes, inputs [][2]string) ([][2]string, [][2]string) {
	if r.requests != "" {
		writes = append(writes, [2]string{"--review-requests " + r.requests, r.requests})
	}
	if r.answers != "" {
		inputs = append(inputs, [2]string{"the review answers", r.answers})
	}
	return writes, inputs
}

// asked reports whether a review was asked for: --review, or a requests
// or answers file.
func (r *reviewFlags) asked() bool {
	return r != nil && (r.review || r.requests != "" || r.answers != "")
}

// apply reviews the catalog's tools, or replays their recorded reviews,
// and adds the problems to the report as model-review findings. Without
// a review asked for (r nil: the explorer's report off a terminal), only
// the reviews the judgments file or the cache hold are replayed. Errors
// are input errors.
func (r *reviewFlags) apply(ctx context.Context, j *judgeFlags, c judgeCall) (*lint.Report, error) {
	rep, cat, cfg, catalogArg, io, name := c.report, c.cat, c.cfg, c.arg, c.io, c.cmd
	if r == nil {
		r = &reviewFlags{}
	}
	path := j.path(cfg, catalogArg)
	file, err := j.read(path)
	if err != nil {
		return nil, err
	}
	store := j.cache()
	if !r.asked() && file.ReviewCount() == 0 && store.ReviewCount() == 0 {
		return rep, nil
	}
	tools := judge.ReviewToolsOf(cat)
	var m *judge.Model
	by, endpoint := "", ""
	if r.asked() && j.spec != "" {
		model, _ := judge.ParseSpec(j.spec)
		if m, err = judge.New(judge.Options{Model: model, BaseURL: j.url, Concurrency: j.concurrency}); err != nil {
			return nil, fmt.Errorf("--judge %s: %w", j.spec, err)
		}
		by, endpoint = m.ID(), m.Endpoint()
	}
	var answers *judge.Answers
	if r.answers != "" {
		if answers, err = judge.ReadAnswers(r.answers, tools, by); err != nil {
			return nil, err
		}
	}
	plan := judge.NewReviewPlan(tools, judge.ReviewPlanOptions{By: by, Endpoint: endpoint, Ask: m != nil || r.requests != "",
		File: file, Cache: store, Answers: answers, MaxTools: r.maxTools})
	if !r.asked() && len(plan.Results) == 0 {
		// Reviews recorded, none of these tools': no section.
		return rep, nil
	}
	out := judge.ReviewOutcome{Results: plan.Results}
	switch {
	case r.requests != "":
		if err := checkWrites([][2]string{{"--review-requests " + r.requests, r.requests}}, [][2]string{{"the judgments file", path}}); err != nil {
			return nil, err
		}
		ask := plan.Ask()
		var b bytes.Buffer
		if err := judge.WriteRequests(&b, strings.TrimPrefix(j.spec, judge.Prefix), ask); err != nil {
			return nil, err
		}
		if err := safefile.Write(r.requests, b.Bytes()); err != nil {
			return nil, fmt.Errorf("--review-requests %w", err)
		}
		plan.NotSent()
		out.Results = plan.Results
		fmt.Fprintf(io.err, "toolscope %s: review: wrote %s to %s, sent none; %d replayed\n", name, plural(len(ask), "request", "requests"), termsafe.Line(r.requests), plan.Count(judge.Replayed))
	case m != nil:
		if out, err = r.ask(ctx, j, m, plan, store, io, name); err != nil {
			return nil, err
		}
	case r.asked() && plan.Count(judge.Replayed) == 0 && answers.Len() == 0:
		fmt.Fprintf(io.err, "toolscope %s: review: no model named and no review recorded for these texts: name one with --judge openai:MODEL, or write the requests with --review-requests FILE\n", name)
	}
	shownFile := ""
	if file.ReviewCount() > 0 {
		shownFile = path
	}
	if j.record {
		held := out.Reviews()
		recorded, err := judge.RecordReviews(path, held)
		if err != nil {
			return nil, err
		}
		shownFile = path
		fmt.Fprintf(io.err, "toolscope %s: recorded %s in %s (%d in all)\n", name, plural(len(held), "review", "reviews"), termsafe.Line(path), recorded.ReviewCount())
	}
	noteUnreviewed(io, name, out.Results)
	var ignore func(lint.Finding) (string, bool)
	var used []int
	if cfg != nil {
		ignore = func(f lint.Finding) (string, bool) {
			reason, i, ok := cfg.MatchIgnore(f)
			if ok {
				used = append(used, i)
			}
			return reason, ok
		}
	}
	reviewed := judge.ApplyReviews(rep, cat, out.Results, judge.ApplyReviewsOptions{Model: by, File: shownFile, Err: out.Err, Ignore: ignore})
	if cfg != nil {
		cfg.MarkIgnoresUsed(reviewed, used)
	}
	return reviewed, nil
}

// ask says what the review will cost, holds --max-cost, and sends the
// plan's requests.
func (r *reviewFlags) ask(ctx context.Context, j *judgeFlags, m *judge.Model, plan *judge.ReviewPlan, store *judge.Cache, io stdio, name string) (judge.ReviewOutcome, error) {
	out := judge.ReviewOutcome{Results: plan.Results}
	ask := plan.Ask()
	est := judge.EstimateReviews(ask, j.priceFor(m))
	fmt.Fprintf(io.err, "toolscope %s: review by %s at %s: %d tools, %d replayed, %d to ask; estimate: %s\n", name, termsafe.Line(m.ID()), termsafe.Line(m.Endpoint()), len(plan.Results), plan.Count(judge.Replayed), len(ask), est.String("--judge-price"))
	if len(ask) == 0 {
		return out, nil
	}
	if !r.yes && (est.Dollars == nil || r.spent+*est.Dollars > r.maxCost) {
		why := "the price is unknown"
		switch {
		case est.Dollars != nil && r.spent > 0:
			why = fmt.Sprintf("with the $%.2f of the catalogs before, the estimate is over --max-cost $%.2f", r.spent, r.maxCost)
		case est.Dollars != nil:
			why = fmt.Sprintf("the estimate is over --max-cost $%.2f", r.maxCost)
		}
		if !confirmAs(io, name, why) {
			return out, fmt.Errorf("review not run: %s (pass --yes, or raise --max-cost)", why)
		}
		// Asked once for the run: the person said yes.
		r.yes = true
	}
	if est.Dollars != nil {
		r.spent += *est.Dollars
	}
	var progress func(done, total int)
	if io.errTTY {
		progress = func(done, total int) {
			fmt.Fprintf(io.err, "\r\x1b[Ktoolscope %s: reviewed %d of %s", name, done, plural(total, "tool", "tools"))
		}
	}
	out = m.ExecuteReviews(ctx, plan, store, progress)
	if io.errTTY {
		fmt.Fprint(io.err, "\r\x1b[K")
	}
	if ctx.Err() != nil {
		return out, fmt.Errorf("review: %w", context.Cause(ctx))
	}
	if out.Err != nil {
		fmt.Fprintf(io.err, "toolscope %s: review stopped: %s; the tools it did not reach are unreviewed\n", name, oneLine(out.Err))
	}
	if store.Err() != nil {
		fmt.Fprintf(io.err, "toolscope %s: note: %s\n", name, oneLine(store.Err()))
	}
	return out, nil
}

// confirmAs asks on a terminal whether cmd should go on; off a terminal
// the answer is no.
func confirmAs(io stdio, cmd, why string) bool {
	f, ok := io.in.(*os.File)
	if !ok || !io.errTTY || !isTerminal(f) {
		return false
	}
	fmt.Fprintf(io.err, "toolscope %s: %s. Run it? [y/N] ", cmd, why)
	line, _ := bufio.NewReader(f).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes"
}

// noteUnreviewed says on stderr which tools are left unreviewed, one line
// per reason, naming the first few.
func noteUnreviewed(io stdio, name string, results []judge.ReviewResult) {
	var whys []string
	tools := map[string][]string{}
	for _, res := range results {
		if res.Status != judge.Unjudged || res.Why == judge.WhyReviewNotSent {
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
		fmt.Fprintf(io.err, "toolscope %s: review: %s unreviewed, %s: %s%s\n", name, plural(len(names), "tool", "tools"), termsafe.Line(why), termsafe.Line(strings.Join(shown, ", ")), more)
	}
}

// reviewFindings replays, for the explorer, the recorded reviews of a
// catalog's tools (the judgments file as read, then the cache) as lint
// does without a model: the findings to list beside the rules'. nil when
// neither holds a review.
func (j *judgeFlags) reviewFindings(file *judge.Records) func(*catalog.Catalog) []lint.Finding {
	store := j.cache()
	if file.ReviewCount() == 0 && store.ReviewCount() == 0 {
		return nil
	}
	return func(cat *catalog.Catalog) []lint.Finding {
		plan := judge.NewReviewPlan(judge.ReviewToolsOf(cat), judge.ReviewPlanOptions{File: file, Cache: store})
		empty := lint.NewReport(cat, nil, similarity.Result{}, lint.Gate{})
		return judge.ApplyReviews(empty, cat, plan.Results, judge.ApplyReviewsOptions{}).Structural
	}
}

// withFindings is the explorer's source findings with more beside them.
func withFindings(first, more func(*catalog.Catalog) []lint.Finding) func(*catalog.Catalog) []lint.Finding {
	switch {
	case first == nil:
		return more
	case more == nil:
		return first
	}
	return func(cat *catalog.Catalog) []lint.Finding { return append(first(cat), more(cat)...) }
}
