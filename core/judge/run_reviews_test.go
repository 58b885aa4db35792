package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// reviewRun is a review request for reviewCatalog's three tools, a
// loopback reviewer finding a problem in list_events and delete_event and
// none in ping, and what the run tells its front end.
func reviewRun(t *testing.T) (ReviewRunRequest, *heard, func() []map[string]any) {
	t.Helper()
	cat, _ := reviewTools(t)
	url, requests := reviewServer(t, map[string][]string{
		"list_events":  {`{"problems": [{"category": "unit", "param": "start", "note": "no format"}]}`},
		"delete_event": {`{"problems": [{"category": "destructive", "param": null, "note": "annotated not destructive"}]}`},
	})
	h := &heard{}
	req := ReviewRunRequest{Report: lint.NewReport(cat, nil, similarity.Result{}, lint.Gate{}), Catalog: cat,
		Path: filepath.Join(t.TempDir(), FileName), Cache: OpenCache(t.TempDir()), Asked: true,
		Model: reviewModel(t, url), Price: &Price{}, Budget: ReviewBudget{MaxCost: 1}, IO: h.io()}
	return req, h, requests
}

// TestRunReviewsAsksSaysRecordsAndReplays drives a whole review through
// the request: the estimate said first, the tools asked with a progress
// line, the reviews recorded and their problems found; then the file
// replaying them with no model, one the config ignores set aside.
func TestRunReviewsAsksSaysRecordsAndReplays(t *testing.T) {
	req, h, requests := reviewRun(t)
	req.Record = true
	res, err := RunReviews(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	endpoint := req.Model.Endpoint()
	wantLines := []string{
		"review by openai:rev at " + endpoint + ": 3 tools, 0 replayed, 3 to ask; estimate: " + EstimateReviews(ReviewToolsOf(req.Catalog), &Price{}).String("--judge-price"),
		"recorded 3 reviews in " + req.Path + " (3 in all)",
	}
	if !slices.Equal(h.lines, wantLines) {
		t.Errorf("said %q\nwant %q", h.lines, wantLines)
	}
	if len(h.progress) != 3 || h.progress[2] != "reviewed 3 of 3 tools" || h.cleared != 1 || len(h.asked) != 0 {
		t.Errorf("progress %q, cleared %d, asked %q", h.progress, h.cleared, h.asked)
	}
	rv := res.Report.Reviewed
	if len(requests()) != 3 || rv == nil || rv.Asked != 3 || rv.Problems != 2 || rv.Model != "openai:rev" || rv.File != req.Path {
		t.Fatalf("%d requests, reviewed %+v", len(requests()), rv)
	}
	if res.Budget.Spent != 0 || res.Budget.Yes {
		t.Errorf("budget %+v after a free review", res.Budget)
	}
	file, err := ReadFile(req.Path)
	if err != nil || file.ReviewCount() != 3 {
		t.Fatalf("recorded %d reviews: %v", file.ReviewCount(), err)
	}

	// No model and none asked for: the file replays, and the config's
	// ignore takes delete_event's finding aside.
	h2 := &heard{}
	ig := &ignores{tool: "delete_event"}
	replay := ReviewRunRequest{Report: req.Report, Catalog: req.Catalog, File: file, Path: req.Path, Ignores: ig, IO: h2.io()}
	again, err := RunReviews(context.Background(), replay)
	if err != nil || again.Report.Reviewed.Replayed != 3 || again.Report.Reviewed.Problems != 1 || len(h2.lines) != 0 {
		t.Fatalf("replay: %v, reviewed %+v, said %q", err, again.Report.Reviewed, h2.lines)
	}
	if s := again.Report.Suppressed; s == nil || len(s.Findings) != 1 || s.Findings[0].Tool != "delete_event" || !slices.Equal(ig.used, []int{7}) {
		t.Errorf("suppressed %+v, ignores used %v", s, ig.used)
	}
}

// TestRunReviewsHoldsTheBudget: over MaxCost, or at no known price, the
// run asks first (the catalogs before counted in) and sends nothing
// without a yes; a yes is kept for the run's next catalogs and the
// estimate is spent.
func TestRunReviewsHoldsTheBudget(t *testing.T) {
	req, _, _ := reviewRun(t)
	cost := *EstimateReviews(ReviewToolsOf(req.Catalog), &Price{In: 100, Out: 100}).Dollars
	cases := []struct {
		name   string
		price  *Price
		budget ReviewBudget
		why    string
	}{
		{"unknown price", nil, ReviewBudget{MaxCost: 1}, "the price is unknown"},
		{"over", &Price{In: 100, Out: 100}, ReviewBudget{MaxCost: cost / 2}, fmt.Sprintf("the estimate is over --max-cost $%.2f", cost/2)},
		{"over with the catalogs before", &Price{In: 100, Out: 100}, ReviewBudget{MaxCost: cost * 1.5, Spent: cost},
			fmt.Sprintf("with the $%.2f of the catalogs before, the estimate is over --max-cost $%.2f", cost, cost*1.5)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, yes := range []bool{false, true} {
				req, h, requests := reviewRun(t)
				req.Price, req.Budget, h.answer = c.price, c.budget, yes
				res, err := RunReviews(context.Background(), req)
				if !slices.Equal(h.asked, []string{c.why}) {
					t.Errorf("asked %q, want %q", h.asked, c.why)
				}
				if !yes {
					want := "review not run: " + c.why + " (pass --yes, or raise --max-cost)"
					if err == nil || err.Error() != want || len(requests()) != 0 || res.Budget != c.budget || len(h.lines) != 1 {
						t.Errorf("no: %v after %d requests, budget %+v, said %q", err, len(requests()), res.Budget, h.lines)
					}
					continue
				}
				spent := c.budget.Spent
				if c.price != nil {
					spent += cost
				}
				if err != nil || len(requests()) != 3 || !res.Budget.Yes || res.Budget.Spent != spent {
					t.Errorf("yes: %v after %d requests, budget %+v", err, len(requests()), res.Budget)
				}
			}
		})
	}
	// Interrupted: an error, and the estimate spent comes back all the same.
	req, _, _ = reviewRun(t)
	req.Price = &Price{In: 100, Out: 100}
	req.Budget = ReviewBudget{MaxCost: cost * 2}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := RunReviews(ctx, req)
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "review: ") || res.Report != nil || res.Budget.Spent != cost {
		t.Errorf("interrupted: %v, report %v, budget %+v", err, res.Report != nil, res.Budget)
	}
	// --yes, or a yes given before: nothing is asked.
	req, h, requests := reviewRun(t)
	req.Price, req.Budget = nil, ReviewBudget{Yes: true}
	if _, err := RunReviews(context.Background(), req); err != nil || len(h.asked) != 0 || len(requests()) != 3 {
		t.Errorf("--yes: %v, asked %q, %d requests", err, h.asked, len(requests()))
	}
}

// TestRunReviewsWritesTheRequests: with a requests file the requests are
// written (once the front end agreed to the path) and none is sent; a
// path refused writes nothing.
func TestRunReviewsWritesTheRequests(t *testing.T) {
	req, h, requests := reviewRun(t)
	req.Model = nil
	req.Requests = filepath.Join(t.TempDir(), "requests.jsonl")
	res, err := RunReviews(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"review: wrote 3 requests to " + req.Requests + ", sent none; 0 replayed"}
	if !slices.Equal(h.lines, want) || !slices.Equal(h.wrote, []string{req.Requests}) || len(requests()) != 0 {
		t.Errorf("said %q, checked %q, %d requests sent", h.lines, h.wrote, len(requests()))
	}
	data, err := os.ReadFile(req.Requests)
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for line := range strings.Lines(string(data)) {
		var rl RequestLine
		if err := json.Unmarshal([]byte(line), &rl); err != nil || rl.Request["model"] != nil {
			t.Fatalf("request line %q: %v", line, err)
		}
		tools = append(tools, rl.Tool)
	}
	if !slices.Equal(tools, []string{"list_events", "delete_event", "ping"}) || res.Report.Reviewed == nil || res.Report.Reviewed.Asked != 0 {
		t.Errorf("requests for %v, reviewed %+v", tools, res.Report.Reviewed)
	}

	req, h, _ = reviewRun(t)
	req.Requests = filepath.Join(t.TempDir(), "refused.jsonl")
	h.refuse = errors.New("would overwrite the catalog")
	if _, err := RunReviews(context.Background(), req); err != h.refuse || len(h.lines) != 0 {
		t.Errorf("refused: %v, said %q", err, h.lines)
	}
	if _, err := os.Stat(req.Requests); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused requests file was written: %v", err)
	}
}

// TestRunReviewsSaysWhatItLeftOut: the tools over MaxTools are named, one
// line per reason; a review asked for with no model and nothing recorded
// says how to get one; none asked for and none recorded leaves the report
// as it was.
func TestRunReviewsSaysWhatItLeftOut(t *testing.T) {
	req, h, _ := reviewRun(t)
	req.MaxTools = 1
	if _, err := RunReviews(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if n := len(h.lines); n != 2 || h.lines[1] != "review: 2 tools unreviewed, over the --review-max-tools budget: delete_event, ping" {
		t.Errorf("said %q", h.lines)
	}
	if !slices.Equal(h.progress, []string{"reviewed 1 of 1 tool"}) {
		t.Errorf("progress %q", h.progress)
	}

	req, h, _ = reviewRun(t)
	req.Model = nil
	res, err := RunReviews(context.Background(), req)
	want := "review: no model named and no review recorded for these texts: name one with --judge openai:MODEL, or write the requests with --review-requests FILE"
	if err != nil || !slices.Equal(h.lines, []string{want}) || res.Report.Reviewed == nil {
		t.Errorf("no model: %v, said %q, reviewed %+v", err, h.lines, res.Report.Reviewed)
	}

	req, h, _ = reviewRun(t)
	req.Model, req.Asked, req.Record = nil, false, true
	if res, err := RunReviews(context.Background(), req); err != nil || res.Report != req.Report || len(h.lines) != 0 {
		t.Errorf("none asked: %v, the same report %v, said %q", err, res.Report == req.Report, h.lines)
	}
}

// ignores is a config that ignores the model's findings at one tool, its
// entry at index 7.
type ignores struct {
	tool string
	used []int
}

func (g *ignores) MatchIgnore(f lint.Finding) (string, int, bool) {
	return "known", 7, f.Rule == lint.RuleModelReview && f.Tool == g.tool
}

func (g *ignores) MarkIgnoresUsed(_ *lint.Report, used []int) { g.used = append(g.used, used...) }
