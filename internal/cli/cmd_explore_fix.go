package cli

import (
	"context"
	"fmt"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/probe"
	"toolscope/tui"
)

// fixer is the explorer's F: probe --fix's loop (core/probe's Fixer) for
// one pair the recorded probe saw confused. The judge (--judge) proposes
// the sentences, or the judgments file holds them; the probed model (the
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
	ef := exploreFixer{rec: rec, f: probe.Fixer{Judge: jm, Probed: pm, Judgments: j.records(cfg, catalogArg), Choice: rec.Choice, Seed: rec.Seed}, judgePrice: j.priceFor(jm)}
	if p, known := judge.PriceFor(pname, pm.Endpoint(), nil); known {
		ef.probedPrice = &p
	}
	return ef.fix, ef.cost
}

// exploreFixer is the explorer's fix of one pair at a time, from the
// probe record.
type exploreFixer struct {
	rec                     *judge.ProbeRecord
	f                       probe.Fixer
	judgePrice, probedPrice *judge.Price
}

// plan is the pair's plan, or why there is none: the record is stale for
// the catalog as it is now.
func (e exploreFixer) plan(cat *catalog.Catalog, a, b *catalog.Tool) (probe.Plan, string) {
	tools, _, _ := probe.Tools(cat)
	if stale := e.rec.Stale(tools); len(stale) > 0 {
		return probe.Plan{}, "the probe record is stale (" + strings.Join(stale[:min(len(stale), 3)], ", ") + "): probe again"
	}
	return e.f.Plan(cat, e.rec.Cases, a, b), ""
}

func (e exploreFixer) fix(ctx context.Context, cat *catalog.Catalog, a, b *catalog.Tool) (judge.FixTrial, error) {
	p, why := e.plan(cat, a, b)
	if why != "" {
		return judge.FixTrial{}, fmt.Errorf("%s", why)
	}
	t, _, err := e.f.Try(ctx, cat, e.rec.Cases, p)
	return t, err
}

// cost is the line F shows before it asks, and whether it may go on. A
// pair whose sentences are recorded costs only its re-test, whatever the
// judge's price.
func (e exploreFixer) cost(cat *catalog.Catalog, a, b *catalog.Tool) (string, bool) {
	p, why := e.plan(cat, a, b)
	if why != "" {
		return why, false
	}
	judging, retest := e.f.Cost(cat, []probe.Plan{p}, e.judgePrice, e.probedPrice)
	asked := "sentences recorded"
	if p.From == "" {
		asked = "the judge asked"
	}
	total := judge.Cost(judging.Requests+retest.Requests, judging.InTokens+retest.InTokens, judging.OutTokens+retest.OutTokens, nil)
	if retest.Dollars != nil && (p.From != "" || judging.Dollars != nil) {
		d := *retest.Dollars
		if p.From == "" {
			d += *judging.Dollars
		}
		total.Dollars = &d
	}
	return fmt.Sprintf("%s, %d requests to %s sent again: %s", asked, len(p.Touching), e.rec.Model, total.String("--judge-price")), true
}
