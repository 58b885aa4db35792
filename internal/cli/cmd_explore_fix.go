package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/tokens"
	"toolscope/tui"
)

// fixer is the explorer's F: probe --fix's loop for one pair the
// recorded probe saw confused. The judge (--judge) proposes the
// sentences, or the judgments file holds them; the probed model (the
// record's) is sent the pair's requests again, at the judge's endpoint.
// Both are nil without --judge or a probe record.
func (j *judgeFlags) fixer(rec *judge.ProbeRecord, cfg *config.Config, catalogArg string) (tui.FixFunc, tui.FixCostFunc) {
	if j.spec == "" || rec == nil {
		return nil, nil
	}
	jname, _ := judge.ParseSpec(j.spec)
	jm, err := judge.New(judge.Options{Model: jname, BaseURL: j.url, Concurrency: 1})
	if err != nil {
		return nil, nil
	}
	pname, err := judge.ParseSpec(rec.Model)
	if err != nil {
		return nil, nil
	}
	pm, err := judge.New(judge.Options{Model: pname, BaseURL: j.url, URLFlag: "--judge-url", Concurrency: judge.DefaultConcurrency})
	if err != nil {
		return nil, nil
	}
	file := j.records(cfg, catalogArg)
	jprice := j.priceFor(jm)
	var pprice *judge.Price
	if p, known := judge.PriceFor(pname, pm.Endpoint(), nil); known {
		pprice = &p
	}
	type plan struct {
		pair judge.Pair
		sent judge.FixSentences
		from string
		idx  []int
		defs []json.RawMessage
	}
	planFor := func(cat *catalog.Catalog, a, b *catalog.Tool) (plan, string) {
		tools, defs, _ := probeTools(cat)
		if stale := rec.Stale(tools); len(stale) > 0 {
			return plan{}, "the probe record is stale (" + strings.Join(stale[:min(len(stale), 3)], ", ") + "): probe again"
		}
		p := plan{pair: judge.NewPair(judge.FromCatalog(a), judge.FromCatalog(b), siblingsOf(cat, a, b)), idx: judge.Touching(rec.Cases, a.Name, b.Name), defs: defs}
		if file != nil {
			if jd, ok, _ := file.Replay(p.pair, jm.ID()); ok && jd.Fix != nil {
				p.sent, p.from = sentencesFor(jd, a.Name), "recorded"
			}
		}
		return p, ""
	}
	fix := func(ctx context.Context, cat *catalog.Catalog, a, b *catalog.Tool) (judge.FixTrial, error) {
		p, why := planFor(cat, a, b)
		if why != "" {
			return judge.FixTrial{}, fmt.Errorf("%s", why)
		}
		t, _, err := tryFix(ctx, jm, pm, p.pair, p.sent, p.from, cat, p.defs, rec.Cases, p.idx, judge.PickOptions{Choice: rec.Choice, Seed: rec.Seed}, a.Name)
		return t, err
	}
	cost := func(cat *catalog.Catalog, a, b *catalog.Tool) (string, bool) {
		p, why := planFor(cat, a, b)
		if why != "" {
			return why, false
		}
		judging := judge.Estimate{}
		asked := "sentences recorded"
		if p.from == "" {
			judging = judge.EstimatePairs([]judge.Pair{p.pair}, jprice)
			asked = "the judge asked"
		}
		retest := judge.EstimateProbe(nil, 0, len(p.idx), false, tokens.Measure(cat, 0, false).Total.O200k, pprice)
		total := judge.Cost(judging.Requests+retest.Requests, judging.InTokens+retest.InTokens, judging.OutTokens+retest.OutTokens, nil)
		if retest.Dollars != nil && (p.from != "" || judging.Dollars != nil) {
			d := *retest.Dollars
			if judging.Dollars != nil {
				d += *judging.Dollars
			}
			total.Dollars = &d
		}
		return fmt.Sprintf("%s, %d requests to %s sent again: %s", asked, len(p.idx), rec.Model, total.String("--judge-price")), true
	}
	return fix, cost
}

// siblingsOf is every name of cat but a's and b's.
func siblingsOf(cat *catalog.Catalog, a, b *catalog.Tool) []string {
	var out []string
	for _, t := range cat.Tools {
		if t != a && t != b {
			out = append(out, t.Name)
		}
	}
	return out
}
