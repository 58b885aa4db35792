package probe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/termsafe"
	"toolscope/core/tokens"
)

// Fixer tries the judge's sentences for a pair the probe saw confused:
// the command line's fix loop goes through it for every pair, the
// explorer's F for one.
type Fixer struct {
	// Judge proposes the sentences, unless Judgments holds them (nil:
	// none recorded); Probed is sent the pair's requests again, with
	// Choice and Seed as the probe sent them.
	Judge, Probed *judge.Model
	Judgments     *judge.Records
	Choice        string
	Seed          uint64
}

// Plan is one pair's fix as planned before anything is paid for.
type Plan struct {
	// A and B are the pair's tools, A first in catalog order.
	A, B string
	Pair judge.Pair
	// Sentences are the recorded ones when From is "recorded"; with From
	// "" the judge is asked.
	Sentences judge.FixSentences
	From      string
	// Touching are the indexes of the cases sent again.
	Touching []int
	// Refused is why the fix is not tried at all.
	Refused string
}

// Plan plans the fix of the pair a, b of cat (a first in catalog order),
// tested on cases: the recorded sentences replayed when the judgments
// hold some for the pair's texts.
func (f Fixer) Plan(cat *catalog.Catalog, cases []judge.ProbeCase, a, b *catalog.Tool) Plan {
	var siblings []string
	for _, t := range cat.Tools {
		if t.Name != a.Name && t.Name != b.Name {
			siblings = append(siblings, t.Name)
		}
	}
	p := Plan{A: a.Name, B: b.Name, Pair: judge.NewPair(judge.FromCatalog(a), judge.FromCatalog(b), siblings), Touching: judge.Touching(cases, a.Name, b.Name)}
	if f.Judgments != nil {
		if j, ok, _ := f.Judgments.Replay(p.Pair, f.Judge.ID()); ok && j.Fix != nil {
			p.Sentences, p.From = sentencesFor(j, a.Name), "recorded"
		}
	}
	return p
}

// Cost is what the plans cost: the judge asked for the sentences not
// recorded (at judgePrice), and the requests that touch each pair sent
// again with cat (at probedPrice). A refused plan costs nothing.
func (f Fixer) Cost(cat *catalog.Catalog, plans []Plan, judgePrice, probedPrice *judge.Price) (judging, retesting judge.Estimate) {
	var ask []judge.Pair
	retests := 0
	for _, p := range plans {
		if p.Refused != "" {
			continue
		}
		if p.From == "" {
			ask = append(ask, p.Pair)
		}
		retests += len(p.Touching)
	}
	measured := tokens.Measure(cat, 0, false)
	return judge.EstimatePairs(ask, judgePrice), judge.EstimateProbe(nil, 0, retests, false, measured.Total.O200k, probedPrice)
}

// Try is one pair's fix: the sentences planned, else asked of the judge,
// held to lint's error rules, then the touching cases sent again to the
// probed model with both descriptions amended. A refused plan, a
// malformed answer, none with a sentence or a sentence refused rejects
// the fix without a re-test; a failed request is returned.
func (f Fixer) Try(ctx context.Context, cat *catalog.Catalog, cases []judge.ProbeCase, p Plan) (judge.FixTrial, judge.Usage, error) {
	var used judge.Usage
	if p.Refused != "" {
		return judge.Unproven(p.A, p.B, p.Refused), used, nil
	}
	sent, from := p.Sentences, p.From
	if from == "" {
		j, u, err := f.Judge.Ask(ctx, p.Pair)
		used = u
		var bad *judge.MalformedError
		switch {
		case errors.As(err, &bad):
			return judge.Unproven(p.A, p.B, "the judge's answer was malformed (asked twice): "+bad.Why), used, nil
		case err != nil:
			return judge.FixTrial{}, used, err
		case j.Fix == nil:
			return judge.Unproven(p.A, p.B, "the judge proposed no sentence"), used, nil
		}
		sent, from = sentencesFor(j, p.A), "asked"
	}
	// The sentences are untrusted text bound for the descriptions: they
	// are held to lint's error rules before anything is sent with them.
	if why := judge.NewSentenceGuard(cat).Refuse(map[string]string{p.A: sent.A, p.B: sent.B}); why != "" {
		t := judge.Unproven(p.A, p.B, why+"; not re-tested")
		t.Judgment = from
		return t, used, nil
	}
	t := judge.FixTrial{A: p.A, B: p.B, Sentences: sent, Judgment: from}
	t, u, err := f.Probed.Retest(ctx, t, cases, p.Touching, amended(cat, map[string]string{p.A: sent.A, p.B: sent.B}), judge.PickOptions{Choice: f.Choice, Seed: f.Seed})
	used = add(used, u)
	return t, used, err
}

// amended is the catalog's definitions with each tool's sentence added
// to its description.
func amended(cat *catalog.Catalog, sentences map[string]string) []json.RawMessage {
	_, defs, _ := Tools(cat)
	for name, s := range sentences {
		t, _ := cat.Lookup(name)
		nt := *t
		nt.Description = judge.Amend(t.Description, s)
		defs[t.Index] = json.RawMessage(tokens.Definition(&nt))
	}
	return defs
}

// sentencesFor is a judgment's sentences with a the pair's first tool in
// catalog order (a judgment orders its pair by name).
func sentencesFor(j judge.Judgment, a string) judge.FixSentences {
	if j.A == a {
		return judge.FixSentences{A: j.Fix.A, B: j.Fix.B}
	}
	return judge.FixSentences{A: j.Fix.B, B: j.Fix.A}
}

// fix runs the fix loop after the probe and, with Write, writes the kept
// sentences. The probe is paid for: it is reported whatever the fixes
// did, a failure noted and FixFailed set.
func (res *Result) fix(ctx context.Context, req Request) {
	fixes, used, err := fixAll(ctx, req, res.Probe)
	res.Probe.Usage = add(res.Probe.Usage, used)
	if err != nil {
		req.IO.say("fix: %s", oneLine(err))
		res.FixFailed = true
		return
	}
	res.Probe.Fixes = fixes
	if !req.Fix.Write {
		if len(Kept(fixes)) > 0 {
			req.IO.say("nothing written: --write appends the kept sentences to the catalog's descriptions")
		}
		return
	}
	written, err := write(req, fixes)
	switch {
	case err != nil:
		req.IO.say("--write: %s", oneLine(err))
		res.FixFailed = true
	case written != nil && req.Record != "" && res.RecordErr == nil:
		res.refreshRecord(req, written, fixes)
	}
}

// fixAll tries the judge's sentences for every confused pair of the
// probe p: the plans made and their cost estimated and confirmed first.
// A failed request stops the loop with an error; a malformed answer
// rejects that pair's fix.
func fixAll(ctx context.Context, req Request, p judge.Probe) ([]judge.FixTrial, judge.Usage, error) {
	var used judge.Usage
	pairs := judge.ConfusedPairs(p)
	trials := []judge.FixTrial{}
	if len(pairs) == 0 {
		return trials, used, nil
	}
	f, judgePrice, err := req.fixer()
	if err != nil {
		return nil, used, err
	}
	plans := make([]Plan, len(pairs))
	for i, cp := range pairs {
		plans[i] = req.plan(f, p.Cases, cp)
	}
	if err := req.gateFixes(f, plans, judgePrice); err != nil {
		return nil, used, err
	}
	for _, pl := range plans {
		t, u, err := f.Try(ctx, req.Catalog, p.Cases, pl)
		used = add(used, u)
		if err != nil {
			return nil, used, err
		}
		trials = append(trials, t)
	}
	return trials, used, nil
}

// fixer is the Fixer of the run, the judge built, and the judge's price.
func (req Request) fixer() (Fixer, *judge.Price, error) {
	jm, jprice := req.Model, req.Price
	if req.Fix.Judge != nil {
		var err error
		if jm, jprice, err = req.Fix.Judge(); err != nil {
			return Fixer{}, nil, err
		}
	}
	return Fixer{Judge: jm, Probed: req.Model, Judgments: req.Fix.Judgments, Choice: req.Choice, Seed: req.Seed}, jprice, nil
}

// plan is the pair's plan; with Write to a file, a pair whose tool has no
// description string to add a sentence to is refused: what --write could
// not write is not paid for.
func (req Request) plan(f Fixer, cases []judge.ProbeCase, cp judge.ConfusedPair) Plan {
	ta, _ := req.Catalog.Lookup(cp.A)
	tb, _ := req.Catalog.Lookup(cp.B)
	if req.Fix.Write && req.Fix.File != "" {
		for _, t := range []*catalog.Tool{ta, tb} {
			if !catalog.HasDescriptionString(t) {
				return Plan{A: cp.A, B: cp.B, Refused: fmt.Sprintf("--write: %s has no description string to add a sentence to; not asked", termsafe.Line(t.Name))}
			}
		}
	}
	return f.Plan(req.Catalog, cases, ta, tb)
}

// gateFixes says what the fixes will ask and send, and what it costs;
// over MaxCost, or at an unknown price, it asks before going on.
func (req Request) gateFixes(f Fixer, plans []Plan, judgePrice *judge.Price) error {
	judging, retesting := f.Cost(req.Catalog, plans, judgePrice, req.Price)
	recorded, ask, retests := 0, 0, 0
	for _, p := range plans {
		switch {
		case p.Refused != "":
			continue
		case p.From == "":
			ask++
		default:
			recorded++
		}
		retests += len(p.Touching)
	}
	total := judge.Cost(judging.Requests+retesting.Requests, judging.InTokens+retesting.InTokens, judging.OutTokens+retesting.OutTokens, nil)
	if judging.Dollars != nil && retesting.Dollars != nil {
		d := *judging.Dollars + *retesting.Dollars
		total.Dollars = &d
	}
	req.IO.say("fix: %d confused pairs, %d sentences recorded, %d to ask %s; %d requests to send again: %s",
		len(plans), recorded, ask, f.Judge.ID(), retests, total.String("--judge-price and --model-price"))
	if req.Yes || total.Dollars != nil && *total.Dollars <= req.MaxCost {
		return nil
	}
	why := "the price of the fixes is unknown"
	if total.Dollars != nil {
		why = fmt.Sprintf("the fixes' estimate is over --max-cost $%.2f", req.MaxCost)
	}
	if req.IO.confirm(why) {
		return nil
	}
	return fmt.Errorf("fixes not tried: %s (pass --yes, or raise --max-cost); the probe is reported without them", why)
}

// add is the tokens of both.
func add(a, b judge.Usage) judge.Usage {
	return judge.Usage{PromptTokens: a.PromptTokens + b.PromptTokens, CompletionTokens: a.CompletionTokens + b.CompletionTokens}
}
