package judge

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Status is what a run did with a pair.
type Status string

// The statuses of a pair in a run.
const (
	// Asked: the model judged it in this run.
	Asked Status = "asked"
	// Replayed: a recorded judgment of the same texts answered it.
	Replayed Status = "replayed"
	// Unjudged: it has no judgment that holds; Why says why, and the
	// offline verdict stands.
	Unjudged Status = "unjudged"
)

// Result is one pair's outcome.
type Result struct {
	Pair   Pair
	Status Status
	// Judgment is set when Status is Asked or Replayed.
	Judgment *Judgment
	// Why says why a pair is unjudged.
	Why string
}

// The reasons a pair stays unjudged.
const (
	WhyStale     = "its texts changed since it was judged"
	WhyBudget    = "over the --judge-max-pairs budget"
	WhyNotAsked  = "not asked: an earlier request failed"
	WhyMalformed = "the model's answer was malformed twice"
)

// Plan is what a run will do, known before anything is sent: the pairs
// replayed, the pairs to ask, and those left out.
type Plan struct {
	Results []Result
	// ask holds the indexes in Results of the pairs to ask, in order.
	ask []int
}

// Ask is the pairs the run will send, in order.
func (p *Plan) Ask() []Pair {
	out := make([]Pair, len(p.ask))
	for i, at := range p.ask {
		out[i] = p.Results[at].Pair
	}
	return out
}

// Count is how many pairs have the status.
func (p *Plan) Count(s Status) int {
	n := 0
	for _, r := range p.Results {
		if r.Status == s {
			n++
		}
	}
	return n
}

// NewPlan decides each pair's fate. file holds the recorded judgments (the
// repository's judgments file), cache the disk cache (may be nil). With no
// model (m nil) only judgments of the current texts replay, from the file
// (a person's before a model's), then from the cache; a pair the file
// judged only for other texts is unjudged (stale), and a pair never judged
// is left out of the results.
// With a model, a person's judgment or the model's own (same prompt
// version) replays from either source, and every other pair is asked, the
// first maxPairs of them (0 for no limit), the rest unjudged.
func NewPlan(m *Model, pairs []Pair, file *Records, cache *Cache, maxPairs int) *Plan {
	p := &Plan{}
	by, endpoint := "", ""
	if m != nil {
		by, endpoint = m.ID(), m.Endpoint()
	}
	for _, pair := range pairs {
		if j, ok := replay(pair, by, endpoint, file, cache); ok {
			p.Results = append(p.Results, Result{Pair: pair, Status: Replayed, Judgment: &j})
			continue
		}
		stale := file != nil && file.Judged(pair.Names())
		switch {
		case m == nil && stale:
			p.Results = append(p.Results, Result{Pair: pair, Status: Unjudged, Why: WhyStale})
		case m == nil:
			// Never judged and nobody to ask: the offline verdict alone.
		case maxPairs > 0 && len(p.ask) >= maxPairs:
			why := WhyBudget
			if stale {
				why = WhyStale + ", and it is " + WhyBudget
			}
			p.Results = append(p.Results, Result{Pair: pair, Status: Unjudged, Why: why})
		default:
			p.ask = append(p.ask, len(p.Results))
			p.Results = append(p.Results, Result{Pair: pair, Status: Unjudged, Why: WhyNotAsked})
		}
	}
	return p
}

// replay finds a judgment that holds for pair: a person's or, with a
// judge named, that judge's under the current prompt; with none, any
// recorded one, the file's first.
func replay(pair Pair, by, endpoint string, file *Records, cache *Cache) (Judgment, bool) {
	if file != nil {
		if j, ok, _ := file.Replay(pair, by); ok && (by == "" || j.By == PersonBy || (j.By == by && j.Prompt == PromptVersion)) {
			return j, true
		}
	}
	if cache == nil {
		return Judgment{}, false
	}
	if by == "" {
		j, ok, _ := cache.Replay(pair, "")
		return j, ok
	}
	if j, ok := cache.Lookup(pair, by, PromptVersion, endpoint); ok {
		return j, true
	}
	if j, ok, _ := cache.Replay(pair, ""); ok && j.By == PersonBy {
		return j, true
	}
	return Judgment{}, false
}

// Outcome is a run's record: the plan's results filled in, what was sent,
// and the first request that failed, if one did (the run stops asking
// then: the rest stay unjudged).
type Outcome struct {
	Results []Result
	// Requests counts the pairs sent (a malformed answer's second try is
	// not counted again).
	Requests int
	Usage    Usage
	Err      error
}

// Execute asks the plan's pairs with bounded concurrency, storing each
// judgment in cache (may be nil) as it arrives. progress, if set, is
// called after each pair with the count done and the total.
func (m *Model) Execute(ctx context.Context, plan *Plan, cache *Cache, progress func(done, total int)) Outcome {
	out := Outcome{Results: append([]Result(nil), plan.Results...)}
	got := make([]Judgment, len(plan.ask))
	out.Requests, out.Usage, out.Err = m.askEach(ctx, len(plan.ask), progress, func(ctx context.Context, i int) (used Usage, err error) {
		got[i], used, err = m.Ask(ctx, out.Results[plan.ask[i]].Pair)
		return used, err
	}, func(i int, why string, err error) {
		r := &out.Results[plan.ask[i]]
		switch {
		case err == nil:
			r.Status, r.Judgment, r.Why = Asked, &got[i], ""
			if cache != nil {
				cache.Store(got[i], m.Endpoint())
			}
		case why != "":
			r.Why = WhyMalformed + ": " + why
		default:
			r.Why = fmt.Sprintf("the request failed: %v", err)
		}
	})
	return out
}

// askEach is the run every use of the loop makes: n questions asked with
// the model's bounded concurrency (ask asks the i-th), each outcome
// settled under one lock: settle gets the error, and for an answer
// malformed twice its why (the question stays unanswered, the run goes
// on). The first other failure stops the run and is returned; a question
// cancelled by it (or by the caller) is neither counted nor settled.
// progress, if set, hears each question done.
func (m *Model) askEach(ctx context.Context, n int, progress func(done, total int), ask func(ctx context.Context, i int) (Usage, error), settle func(i int, why string, err error)) (requests int, used Usage, err error) {
	var (
		mu   sync.Mutex
		done int
	)
	err = parallel(ctx, n, m.concurrency, func(ctx context.Context, i int) error {
		u, err := ask(ctx, i)
		mu.Lock()
		defer mu.Unlock()
		used.PromptTokens += u.PromptTokens
		used.CompletionTokens += u.CompletionTokens
		var malformed *MalformedError
		switch {
		case err == nil:
			settle(i, "", nil)
		case errors.As(err, &malformed):
			settle(i, malformed.Why, err)
		case ctx.Err() != nil:
			// Cancelled, after another request failed or by the caller:
			// not asked.
			return err
		default:
			requests++
			settle(i, "", err)
			return err
		}
		requests++
		done++
		if progress != nil {
			progress(done, n)
		}
		return nil
	})
	return requests, used, err
}
