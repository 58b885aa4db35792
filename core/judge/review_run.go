package judge

import (
	"context"
	"fmt"
	"slices"
)

// The reasons a tool stays unreviewed.
const (
	WhyReviewStale       = "its texts changed since it was reviewed"
	WhyReviewBudget      = "over the --review-max-tools budget"
	WhyAnswerStale       = "the answers file's answer is for other texts (written before the tool changed)"
	WhyReviewNotSent     = "not asked: the requests were written to a file"
	WhyReviewMalformed   = "the model's answer was malformed twice"
	WhyReviewRecordParam = "the recorded review names a parameter the tool does not have"
)

// ReviewAnswerTokens is the output assumed per review: most tools have no
// problem, and a problem is a short note.
const ReviewAnswerTokens = 150

// ReviewResult is one tool's outcome.
type ReviewResult struct {
	Tool   ReviewTool
	Status Status
	// Review is set when Status is Asked or Replayed.
	Review *Review
	// Why says why a tool is unreviewed.
	Why string
}

// ReviewPlan is what a review run will do, known before anything is sent.
type ReviewPlan struct {
	Results []ReviewResult
	ask     []int
}

// ReviewPlanOptions are what a review plan reads.
type ReviewPlanOptions struct {
	// By and Endpoint name the model asked ("" for none).
	By, Endpoint string
	// Ask makes every tool with no review that holds one to ask (a model
	// is named, or the requests are to be written).
	Ask bool
	// File is the judgments file's records, Cache the disk cache (either
	// may be nil); Answers the answers file's (ReadAnswers).
	File    *Records
	Cache   *Cache
	Answers *Answers
	// MaxTools caps the tools asked (0: no limit); the rest are
	// unreviewed.
	MaxTools int
}

// NewReviewPlan decides each tool's fate, as NewPlan does a pair's: an
// answer given in the answers file first, then a review of the current
// texts replayed (a person's, or with a model named that model's under
// the current prompt; with none, any), from the file then the cache;
// then, when asking, the first MaxTools of the rest are asked. A tool
// whose only reviews are of other texts is unreviewed, stale.
func NewReviewPlan(tools []ReviewTool, o ReviewPlanOptions) *ReviewPlan {
	p := &ReviewPlan{}
	for _, t := range tools {
		if v, ok := o.Answers.get(t); ok {
			p.Results = append(p.Results, ReviewResult{Tool: t, Status: Replayed, Review: &v})
			continue
		}
		v, ok, stale := replayReview(t, o)
		if ok {
			p.Results = append(p.Results, ReviewResult{Tool: t, Status: Replayed, Review: &v})
			continue
		}
		why := ""
		switch {
		case o.Answers.staleFor(t):
			why = WhyAnswerStale
		case stale:
			why = WhyReviewStale
		}
		switch {
		case !o.Ask && why != "":
			p.Results = append(p.Results, ReviewResult{Tool: t, Status: Unjudged, Why: why})
		case !o.Ask:
			// Never reviewed and nobody to ask.
		case o.MaxTools > 0 && len(p.ask) >= o.MaxTools:
			if why != "" {
				why += ", and it is "
			}
			p.Results = append(p.Results, ReviewResult{Tool: t, Status: Unjudged, Why: why + WhyReviewBudget})
		default:
			p.ask = append(p.ask, len(p.Results))
			p.Results = append(p.Results, ReviewResult{Tool: t, Status: Unjudged, Why: WhyNotAsked})
		}
	}
	return p
}

// replayReview finds a review that holds for t, as replay does for a
// pair.
func replayReview(t ReviewTool, o ReviewPlanOptions) (v Review, ok, stale bool) {
	if o.File != nil {
		v, ok, stale = o.File.ReplayReview(t, o.By)
		if ok && (o.By == "" || v.By == PersonBy || (v.By == o.By && v.Prompt == ReviewPromptVersion)) {
			return v, true, false
		}
	}
	if o.Cache == nil {
		return Review{}, false, stale
	}
	if o.By == "" {
		v, ok, s := o.Cache.ReplayReview(t, "")
		return v, ok, stale || s
	}
	if v, ok := o.Cache.LookupReview(t, o.By, ReviewPromptVersion, o.Endpoint); ok {
		return v, true, false
	}
	if v, ok, _ := o.Cache.ReplayReview(t, ""); ok && v.By == PersonBy {
		return v, true, false
	}
	return Review{}, false, stale
}

// Ask is the tools the run will send, in order.
func (p *ReviewPlan) Ask() []ReviewTool {
	out := make([]ReviewTool, len(p.ask))
	for i, at := range p.ask {
		out[i] = p.Results[at].Tool
	}
	return out
}

// Count is how many tools have the status.
func (p *ReviewPlan) Count(s Status) int {
	n := 0
	for _, r := range p.Results {
		if r.Status == s {
			n++
		}
	}
	return n
}

// NotSent marks the tools to ask as not asked because their requests
// were written to a file instead.
func (p *ReviewPlan) NotSent() {
	for _, at := range p.ask {
		p.Results[at].Why = WhyReviewNotSent
	}
	p.ask = nil
}

// ReviewOutcome is a review run's record, as Outcome is a judge run's.
type ReviewOutcome struct {
	Results  []ReviewResult
	Requests int
	Usage    Usage
	Err      error
}

// ExecuteReviews asks the plan's tools with the model's bounded
// concurrency, storing each review in cache (may be nil) as it arrives.
// The first request that fails for good stops the run; the tools it did
// not reach stay unreviewed.
func (m *Model) ExecuteReviews(ctx context.Context, plan *ReviewPlan, cache *Cache, progress func(done, total int)) ReviewOutcome {
	out := ReviewOutcome{Results: slices.Clone(plan.Results)}
	got := make([]Review, len(plan.ask))
	out.Requests, out.Usage, out.Err = m.askEach(ctx, len(plan.ask), progress, func(ctx context.Context, i int) (used Usage, err error) {
		got[i], used, err = m.Review(ctx, out.Results[plan.ask[i]].Tool)
		return used, err
	}, func(i int, why string, err error) {
		r := &out.Results[plan.ask[i]]
		switch {
		case err == nil:
			r.Status, r.Review, r.Why = Asked, &got[i], ""
			if cache != nil {
				cache.StoreReview(got[i], m.Endpoint())
			}
		case why != "":
			r.Why = WhyReviewMalformed + ": " + why
		default:
			r.Why = fmt.Sprintf("the request failed: %v", err)
		}
	})
	return out
}

// EstimateReviews counts the input tokens of the tools' review requests
// under o200k_base and assumes ReviewAnswerTokens out per tool.
func EstimateReviews(tools []ReviewTool, price *Price) Estimate {
	msgs := make([]string, len(tools))
	for i, t := range tools {
		msgs[i] = t.message()
	}
	return estimateRequests(ReviewRubric, msgs, ReviewAnswerTokens, price)
}

// Reviews is the reviews the outcome holds (asked or replayed), in
// catalog order: what --judge-record writes.
func (o ReviewOutcome) Reviews() []Review {
	var out []Review
	for _, r := range o.Results {
		if r.Review != nil {
			out = append(out, *r.Review)
		}
	}
	return out
}
