package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"sort"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/live"
	"toolscope/core/safefile"
	"toolscope/core/termsafe"
	"toolscope/core/tokens"
)

// fixFlags are probe's --fix flags: the judge that proposes the
// sentences (lint's spellings), where its judgments are recorded, and
// whether kept sentences are written to the catalog.
type fixFlags struct {
	fix       *bool
	judge     *string
	url       *string
	price     *string
	judgments *string
	write     *bool
}

func addFixFlags(fs *flag.FlagSet) fixFlags {
	return fixFlags{
		fix:       fs.Bool("fix", false, "for each confused pair, test the judge's proposed sentences for both tools on the same requests, and keep them only when more go right and none goes wrong"),
		judge:     fs.String("judge", "", "the chat `MODEL` (openai:NAME) that proposes the sentences for --fix (default: the probed model)"),
		url:       fs.String("judge-url", "", "the judge's API base `URL` (default: the probed model's)"),
		price:     fs.String("judge-price", "", "the judge's price `IN,OUT` in dollars per million tokens (default: the probed model's when the judge is the probed model, else OpenAI list price if known)"),
		judgments: fs.String("judgments", "", "judgments `FILE` whose recorded sentences --fix reuses (default: "+judge.FileName+" beside toolscope.yaml, else in the catalog's directory)"),
		write:     fs.Bool("write", false, "append the kept sentences to the catalog file's descriptions (a catalog file only; for a live server they are printed)"),
	}
}

// check refuses the --fix flags given without --fix.
func (f fixFlags) check() error {
	if *f.fix {
		if *f.judge != "" {
			if _, err := judge.ParseSpec(*f.judge); err != nil {
				return fmt.Errorf("--judge %w", err)
			}
		}
		if *f.price != "" {
			if _, err := judge.ParsePrice(*f.price); err != nil {
				return fmt.Errorf("--judge-price: %w", err)
			}
		}
		return nil
	}
	for _, x := range []struct {
		name string
		set  bool
	}{{"--judge", *f.judge != ""}, {"--judge-url", *f.url != ""}, {"--judge-price", *f.price != ""}, {"--judgments", *f.judgments != ""}, {"--write", *f.write}} {
		if x.set {
			return fmt.Errorf("%s is for --fix; add --fix", x.name)
		}
	}
	return nil
}

// fixRun is what the fix loop needs of the probe that ran.
type fixRun struct {
	flags    fixFlags
	model    *judge.Model
	modelURL string
	price    *judge.Price
	maxCost  float64
	yes      bool
	cat      *catalog.Catalog
	arg      string
	cfgPath  string
	seed     uint64
	choice   string
	conc     int
	// writable is set when the catalog is a file --write may change.
	writable bool
	// judgments are the recorded sentences, read before the probe.
	judgments *judge.Records
}

// runFixes tries the judge's sentences for every confused pair of the
// probe: the sentences replayed from the judgments file or asked (the
// cost estimated and confirmed first), then the requests that touch the
// pair sent again with both descriptions amended. A failed request stops
// the loop with an error; a malformed answer rejects that pair's fix.
func (r fixRun) runFixes(ctx context.Context, p judge.Probe, io stdio) ([]judge.FixTrial, judge.Usage, error) {
	var used judge.Usage
	pairs := judge.ConfusedPairs(p)
	trials := []judge.FixTrial{}
	if len(pairs) == 0 {
		return trials, used, nil
	}
	jm := r.model
	jprice := r.price
	if *r.flags.judge != "" && *r.flags.judge != r.model.ID() || *r.flags.url != "" {
		spec := *r.flags.judge
		if spec == "" {
			spec = r.model.ID()
		}
		name, _ := judge.ParseSpec(spec)
		url := *r.flags.url
		if url == "" {
			url = r.modelURL
		}
		m, err := judge.New(judge.Options{Model: name, BaseURL: url, URLFlag: "--judge-url", Concurrency: r.conc})
		if err == nil {
			err = missingKey(m, "--judge-url")
		}
		if err != nil {
			return nil, used, err
		}
		jm, jprice = m, nil
	}
	if *r.flags.price != "" {
		pr, _ := judge.ParsePrice(*r.flags.price)
		jprice = &pr
	}
	if pr, known := judge.PriceFor(trimPrefix(jm.ID()), jm.Endpoint(), jprice); known {
		jprice = &pr
	} else {
		jprice = nil
	}
	file := r.judgments
	names := make([]string, len(r.cat.Tools))
	for i, t := range r.cat.Tools {
		names[i] = t.Name
	}
	type planned struct {
		pair judge.Pair
		sent judge.FixSentences
		from string
		idx  []int
		// refused is why the fix is not tried at all.
		refused string
	}
	plan := make([]planned, len(pairs))
	var ask []judge.Pair
	retests, recorded := 0, 0
	for i, cp := range pairs {
		ta, _ := r.cat.Lookup(cp.A)
		tb, _ := r.cat.Lookup(cp.B)
		siblings := make([]string, 0, len(names))
		for _, n := range names {
			if n != cp.A && n != cp.B {
				siblings = append(siblings, n)
			}
		}
		pl := planned{pair: judge.NewPair(judge.FromCatalog(ta), judge.FromCatalog(tb), siblings), idx: judge.Touching(p.Cases, cp.A, cp.B)}
		if *r.flags.write && r.writable {
			// What --write could not write is not paid for.
			for _, t := range []*catalog.Tool{ta, tb} {
				if pl.refused == "" && !catalog.HasDescriptionString(t) {
					pl.refused = fmt.Sprintf("--write: %s has no description string to add a sentence to; not asked", termsafe.Line(t.Name))
				}
			}
		}
		if pl.refused != "" {
			plan[i] = pl
			continue
		}
		if j, ok, _ := file.Replay(pl.pair, jm.ID()); ok && j.Fix != nil {
			pl.sent, pl.from = sentencesFor(j, cp.A), "recorded"
			recorded++
		} else {
			ask = append(ask, pl.pair)
		}
		plan[i] = pl
		retests += len(pl.idx)
	}
	defs := make([]json.RawMessage, len(r.cat.Tools))
	for i, t := range r.cat.Tools {
		defs[i] = json.RawMessage(tokens.Definition(t))
	}
	measured := tokens.Measure(r.cat, 0, false)
	judging := judge.EstimatePairs(ask, jprice)
	retesting := judge.EstimateProbe(nil, 0, retests, false, measured.Total.O200k, r.price)
	total := judge.Cost(judging.Requests+retesting.Requests, judging.InTokens+retesting.InTokens, judging.OutTokens+retesting.OutTokens, nil)
	if judging.Dollars != nil && retesting.Dollars != nil {
		d := *judging.Dollars + *retesting.Dollars
		total.Dollars = &d
	}
	fmt.Fprintf(io.err, "toolscope probe: fix: %d confused pairs, %d sentences recorded, %d to ask %s; %d requests to send again: %s\n",
		len(pairs), recorded, len(ask), jm.ID(), retests, total.String("--judge-price and --model-price"))
	if !r.yes && (total.Dollars == nil || *total.Dollars > r.maxCost) {
		why := "the price of the fixes is unknown"
		if total.Dollars != nil {
			why = fmt.Sprintf("the fixes' estimate is over --max-cost $%.2f", r.maxCost)
		}
		if !confirm(io, why) {
			return nil, used, fmt.Errorf("fixes not tried: %s (pass --yes, or raise --max-cost); the probe is reported without them", why)
		}
	}
	for i := range plan {
		pl := &plan[i]
		cp := pairs[i]
		if pl.refused != "" {
			trials = append(trials, judge.Unproven(cp.A, cp.B, pl.refused))
			continue
		}
		t, u, err := tryFix(ctx, jm, r.model, pl.pair, pl.sent, pl.from, r.cat, defs, p.Cases, pl.idx, judge.PickOptions{Choice: r.choice, Seed: r.seed}, cp.A)
		used.PromptTokens += u.PromptTokens
		used.CompletionTokens += u.CompletionTokens
		if err != nil {
			return nil, used, err
		}
		trials = append(trials, t)
	}
	return trials, used, nil
}

// tryFix is one pair's fix: the sentences given (from "recorded"), else
// asked of the judge jm, then the cases at idx sent again to the probed
// model pm with both descriptions amended. a is the pair's first tool in
// catalog order. A malformed answer, or none with a sentence, rejects the
// fix without a re-test; a failed request is returned.
func tryFix(ctx context.Context, jm, pm *judge.Model, pair judge.Pair, sent judge.FixSentences, from string, cat *catalog.Catalog, defs []json.RawMessage, cases []judge.ProbeCase, idx []int, o judge.PickOptions, a string) (judge.FixTrial, judge.Usage, error) {
	var used judge.Usage
	b := pair.A.Name
	if b == a {
		b = pair.B.Name
	}
	if from == "" {
		j, u, err := jm.Ask(ctx, pair)
		used = u
		var bad *judge.MalformedError
		switch {
		case errors.As(err, &bad):
			return judge.Unproven(a, b, "the judge's answer was malformed (asked twice): "+bad.Why), used, nil
		case err != nil:
			return judge.FixTrial{}, used, err
		case j.Fix == nil:
			return judge.Unproven(a, b, "the judge proposed no sentence"), used, nil
		}
		sent, from = sentencesFor(j, a), "asked"
	}
	// The sentences are untrusted text bound for the descriptions: they
	// are held to lint's error rules before anything is sent with them.
	if why := judge.NewSentenceGuard(cat).Refuse(map[string]string{a: sent.A, b: sent.B}); why != "" {
		t := judge.Unproven(a, b, why+"; not re-tested")
		t.Judgment = from
		return t, used, nil
	}
	amended := make([]json.RawMessage, len(defs))
	copy(amended, defs)
	for _, s := range []struct{ tool, sentence string }{{a, sent.A}, {b, sent.B}} {
		t, _ := cat.Lookup(s.tool)
		nt := *t
		nt.Description = judge.Amend(t.Description, s.sentence)
		amended[t.Index] = json.RawMessage(tokens.Definition(&nt))
	}
	t := judge.FixTrial{A: a, B: b, Sentences: sent, Judgment: from}
	t, u, err := pm.Retest(ctx, t, cases, idx, amended, o)
	used.PromptTokens += u.PromptTokens
	used.CompletionTokens += u.CompletionTokens
	return t, used, err
}

// sentencesFor is a judgment's sentences with a the pair's first tool in
// catalog order (a judgment orders its pair by name).
func sentencesFor(j judge.Judgment, a string) judge.FixSentences {
	if j.A == a {
		return judge.FixSentences{A: j.Fix.A, B: j.Fix.B}
	}
	return judge.FixSentences{A: j.Fix.B, B: j.Fix.A}
}

func trimPrefix(id string) string {
	name, _ := judge.ParseSpec(id)
	return name
}

// keptSentences are the kept fixes' sentences by tool, in catalog order
// of the fixes; a tool kept in two fixes has both, in order.
func keptSentences(trials []judge.FixTrial) map[string]string {
	out := map[string]string{}
	for _, t := range trials {
		if !t.Kept {
			continue
		}
		for _, s := range [][2]string{{t.A, t.Sentences.A}, {t.B, t.Sentences.B}} {
			if s[1] != "" {
				out[s[0]] = judge.Amend(out[s[0]], s[1])
			}
		}
	}
	return out
}

// writeFixes appends the kept sentences to the catalog file's
// descriptions, under the file's lock, keeping every other byte; the file
// must still hold the texts the probe read. It returns the catalog as
// written, nil when nothing was. For a live server (or stdin) it prints
// the sentences with the tool each belongs to.
func (r fixRun) writeFixes(trials []judge.FixTrial, io stdio) (*catalog.Catalog, error) {
	kept := keptSentences(trials)
	if len(kept) == 0 {
		fmt.Fprintln(io.err, "toolscope probe: no fix kept: nothing written")
		return nil, nil
	}
	tools := make([]string, 0, len(kept))
	for t := range kept {
		tools = append(tools, t)
	}
	sort.Slice(tools, func(i, j int) bool {
		a, _ := r.cat.Lookup(tools[i])
		b, _ := r.cat.Lookup(tools[j])
		return a.Index < b.Index
	})
	if !r.writable {
		fmt.Fprintln(io.err, "toolscope probe: the catalog is not a file: the kept sentences, to add to the server's descriptions:")
		for _, t := range tools {
			fmt.Fprintf(io.err, "  %s: %s\n", termsafe.Line(t), termsafe.Line(kept[t]))
		}
		return nil, nil
	}
	unlock, err := safefile.Lock(r.arg)
	if err != nil {
		return nil, err
	}
	defer unlock()
	data, source, err := catalog.Read(r.arg, nil)
	if err != nil {
		return nil, err
	}
	now, err := catalog.Parse(source, data)
	if err != nil {
		return nil, fmt.Errorf("%s changed since the probe read it: %w", r.arg, err)
	}
	for _, name := range tools {
		was, _ := r.cat.Lookup(name)
		is, ok := now.Lookup(name)
		if !ok || judge.FromCatalog(is).TextHash() != judge.FromCatalog(was).TextHash() {
			return nil, fmt.Errorf("%s changed since the probe read it (tool %s): nothing written; probe again", r.arg, termsafe.Line(name))
		}
	}
	// Sentences kept in two fixes meet in one description: the whole is
	// held to lint's error rules again.
	if why := judge.NewSentenceGuard(now).RefuseWhole(kept); why != "" {
		return nil, fmt.Errorf("%s: nothing written", why)
	}
	out, err := catalog.AppendToDescriptions(data, now, kept)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: nothing written", r.arg, err)
	}
	if err := safefile.Write(r.arg, out); err != nil {
		return nil, err
	}
	written, err := catalog.Parse(source, out)
	if err != nil {
		return nil, fmt.Errorf("%s as written: %w", r.arg, err)
	}
	for _, t := range tools {
		fmt.Fprintf(io.err, "toolscope probe: wrote to %s's description: %s\n", termsafe.Line(t), termsafe.Line(kept[t]))
	}
	return written, nil
}

// isCatalogFile reports whether the CATALOG argument is a file --write
// may change: not the demo, stdin, a live server or an --mcp-config.
func isCatalogFile(arg string, l *liveFlags) bool {
	return arg != "" && arg != "-" && l.config == "" && !live.IsLive(arg)
}
