package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/similarity"
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
// and adds the problems to the report as model-review findings
// (judge.RunReviews). Without a review asked for (r nil: the explorer's
// report off a terminal), only the reviews the judgments file or the
// cache hold are replayed. --max-cost holds over every catalog of the
// run. Errors are input errors.
func (r *reviewFlags) apply(ctx context.Context, j *judgeFlags, c judgeCall) (*lint.Report, error) {
	if r == nil {
		r = &reviewFlags{}
	}
	path := j.path(c.cfg, c.arg)
	file, err := j.read(path)
	if err != nil {
		return nil, err
	}
	req := judge.ReviewRunRequest{Report: c.report, Catalog: c.cat, File: file, Path: path, Record: j.record, Cache: j.cache(),
		Asked: r.asked(), Answers: r.answers, Requests: r.requests, MaxTools: r.maxTools,
		Budget: judge.ReviewBudget{MaxCost: r.maxCost, Yes: r.yes, Spent: r.spent}, IO: runIO(c.io, c.cmd)}
	if req.Asked && j.spec != "" {
		if req.Model, err = j.model(); err != nil {
			return nil, err
		}
		req.Price = j.priceFor(req.Model)
	}
	if c.cfg != nil {
		// (A nil *config.Config in the interface would not be nil.)
		req.Ignores = c.cfg
	}
	req.IO.CheckWrite = func(requests string) error {
		return checkWrites([][2]string{{"--review-requests " + requests, requests}}, [][2]string{{"the judgments file", path}})
	}
	res, err := judge.RunReviews(ctx, req)
	r.yes, r.spent = res.Budget.Yes, res.Budget.Spent
	if err != nil {
		return nil, err
	}
	return res.Report, nil
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
