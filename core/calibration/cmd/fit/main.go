// Command fit fits the risk scoring's model (core/similarity/risk_model.go) on
// the labelled pairs in core/calibration/testdata (two sets of single
// catalogs and the cross-server twins), sets its Platt step and its bands,
// and reports the leave-one-catalog-out figures per set and pooled, with a
// reliability table. Run it from the repository root:
//
//	go run ./core/calibration/cmd/fit            # figures only
//	go run ./core/calibration/cmd/fit -write     # and rewrite the model
//	go run ./core/calibration/cmd/fit -catalogs ../shared/catalogs/mcp  # flags per tool, catalogs failing
//	go run ./core/calibration/cmd/fit -top 20    # the riskiest held-out pairs
//	go run ./core/calibration/cmd/fit -rules     # band rules by rank in each tool's neighbourhood
//	go run ./core/calibration/cmd/fit -candidates  # the judge's candidate set, held out
//	go run ./core/calibration/cmd/fit -twin-lambda 3  # the twin evidence fitted with another penalty
//
// It embeds with the built-in encoder through the vector cache, so a second
// run costs seconds. Newton's method on a fixed data set: every run gives
// the same model.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"toolscope/core/calibration"
	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/embed"
	"toolscope/embed/cache"
	"toolscope/embed/use"
)

// config is one run's settings, as the flags set them.
type config struct {
	data       string  // the directory holding confusion/ and twins/
	lambda     float64 // the L2 penalty on the weights
	write      bool    // rewrite out with the fitted model
	out        string  // the file -write writes
	catalogs   string  // report flagged pairs per tool on every catalog under it
	noCache    bool    // embed without the vector cache
	drop       string  // comma-separated features left out
	freeGuided bool    // fit the guided weight too
	top        int     // list this many riskiest held-out pairs
	fullWords  int     // cut the full texts' descriptions to this many words
	rules      bool    // measure band rules on each pair's neighbourhoods
	candidates bool    // measure the judge's candidate set
	dump       string  // write every held-out pair as JSON lines here
}

func main() {
	var c config
	flag.StringVar(&c.data, "data", "core/calibration/testdata", "`DIR` holding confusion/ and twins/")
	flag.Float64Var(&c.lambda, "lambda", 1, "L2 penalty on the weights")
	flag.BoolVar(&c.write, "write", false, "rewrite core/similarity/risk_model.go with the fitted model")
	flag.StringVar(&c.out, "out", "core/similarity/risk_model.go", "`FILE` -write writes")
	flag.StringVar(&c.catalogs, "catalogs", "", "also report flagged pairs per tool on every catalog under `DIR`")
	flag.BoolVar(&c.noCache, "no-cache", false, "embed without the vector cache")
	flag.BoolVar(&c.freeGuided, "free-guided", false, "fit the guided weight too, rather than fixing it by the rubric")
	flag.IntVar(&c.top, "top", 0, "list the `N` riskiest held-out pairs of the single catalogs with their labels")
	flag.StringVar(&c.drop, "drop", "", "comma-separated `FEATURES` to leave out (their weights stay 0), for ablation")
	flag.IntVar(&c.fullWords, "full-words", similarity.DefaultFullWords, "cut the full texts' descriptions to their first `N` words (0: whole)")
	flag.BoolVar(&c.rules, "rules", false, "also measure band rules that judge each pair against its tools' neighbourhoods (mutual top-k, margin, review per tool), held out")
	flag.BoolVar(&c.candidates, "candidates", false, "also measure, held out, how many confusable pairs the judge's candidates hold")
	flag.StringVar(&c.dump, "dump", "", "write every held-out pair of the single catalogs (set, catalog, names, label, features, risk) as JSON lines to `FILE`, and every twin and control pair (with servers and twin traits) to FILE-twins.jsonl, for offline study")
	flag.Float64Var(&calibration.TwinLambda, "twin-lambda", calibration.TwinLambda, "L2 penalty on the twin evidence's weights")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "fit:", err)
		os.Exit(1)
	}
}

// samples are the labelled pairs the model is fitted on: the two sets of
// single catalogs (one label per pair, and two reviewers' labels
// averaged), the cross-server twins, and the negative control's merges.
type samples struct {
	dev1, dev2, twins, controls []calibration.Sample
}

// heldOut is what the held-out figures read: the single catalogs' pairs
// and the twins', each scored by the model fitted without its catalog,
// and the set each single catalog belongs to.
type heldOut struct {
	dev, twins []calibration.Scored
	setOf      map[string]string
}

func run(c config) error {
	ctx := context.Background()
	var e embed.Embedder = use.New()
	e = cache.Wrap(e, cache.Options{Disabled: c.noCache})
	opts := lint.DefaultOptions()
	opts.Embedder = e
	opts.FullWords = c.fullWords
	ss, err := loadSamples(ctx, c.data, opts)
	if err != nil {
		return err
	}
	if err := dropFeatures(c.drop, ss.dev1, ss.dev2, ss.twins); err != nil {
		return err
	}
	setOf := map[string]string{}
	for _, s := range ss.dev1 {
		setOf[s.Group] = "dev1"
	}
	for _, s := range ss.dev2 {
		setOf[s.Group] = "dev2"
	}
	dev := append(slices.Clip(ss.dev1), ss.dev2...)
	all := append(slices.Clip(dev), ss.twins...)
	fixed := calibration.Fixed
	if c.freeGuided {
		fixed = nil
	}
	ss.print()

	fitted := calibration.FitRisk(all, c.lambda, fixed, ss.controls...)
	m := fitted.Model
	m.Embedder = e.ID()
	h := heldOut{dev: fitted.Calibrated(false), twins: fitted.Calibrated(true), setOf: setOf}
	reportHeldOut(fitted, h)
	if err := c.study(h, fitted.Controls); err != nil {
		return err
	}
	perCatalog(all, h, m)
	printModel(m, c.lambda, dev)
	if c.catalogs != "" {
		if err := perTool(ctx, c.catalogs, m, opts); err != nil {
			return err
		}
	}
	if c.rules {
		if err := measureRules(ctx, h, c.catalogs, m, opts); err != nil {
			return err
		}
		related(all, c.lambda, fixed, setOf)
	}
	if c.write {
		return writeModel(c.out, m)
	}
	return nil
}

// loadSamples reads the labels under data and embeds and measures their
// pairs.
func loadSamples(ctx context.Context, data string, opts lint.Options) (samples, error) {
	var ss samples
	labels1, err := calibration.ReadLabels(filepath.Join(data, "confusion", "labels.jsonl"))
	if err != nil {
		return ss, err
	}
	labels2, err := calibration.ReadReviewers(filepath.Join(data, "confusion-dev2", "labels-A.jsonl"), filepath.Join(data, "confusion-dev2", "labels-B.jsonl"))
	if err != nil {
		return ss, err
	}
	if ss.dev1, err = calibration.ConfusionSamples(ctx, filepath.Join(data, "confusion", "catalogs"), labels1, opts); err != nil {
		return ss, err
	}
	if ss.dev2, err = calibration.ConfusionSamples(ctx, filepath.Join(data, "confusion-dev2", "catalogs"), labels2, opts); err != nil {
		return ss, err
	}
	twins, err := calibration.ReadTwins(filepath.Join(data, "twins", "twins.json"))
	if err != nil {
		return ss, err
	}
	if ss.twins, err = calibration.TwinSamples(ctx, filepath.Join(data, "twins", "catalogs"), twins, opts); err != nil {
		return ss, err
	}
	ss.controls, err = calibration.ControlSamples(ctx, filepath.Join(data, "controls"), opts)
	return ss, err
}

// dropFeatures zeroes the features drop names (comma-separated) in every
// sample of sets, so their weights stay 0: an ablation.
func dropFeatures(drop string, sets ...[]calibration.Sample) error {
	for _, name := range strings.Split(drop, ",") {
		k := slices.Index(similarity.FeatureNames(), name)
		if name == "" {
			continue
		}
		if k < 0 {
			return fmt.Errorf("-drop: no feature %q (have %s)", name, strings.Join(similarity.FeatureNames(), ", "))
		}
		for _, ss := range sets {
			for i := range ss {
				ss[i].X[k] = 0
			}
		}
	}
	return nil
}

// print says how many pairs, positives, catalogs and tools each set has.
func (ss samples) print() {
	dev1, dev2, tw := ss.dev1, ss.dev2, ss.twins
	fmt.Printf("samples: dev1 %d pairs (%d positive) in %d catalogs, %d tools; dev2 %d pairs (%d positive) in %d catalogs, %d tools; twins %d cross-server pairs (%d positive) in %d sets\n",
		len(dev1), positives(dev1), len(calibration.Groups(dev1)), calibration.Tools(dev1),
		len(dev2), positives(dev2), len(calibration.Groups(dev2)), calibration.Tools(dev2),
		len(tw), positives(tw), len(calibration.Groups(tw)))
}

// reportHeldOut prints the fit's held-out figures: the Platt step and the
// bands, each set's leave-one-catalog-out figures, the twins' and the
// cross-server band's, and the risk's reliability before and after the
// Platt step.
func reportHeldOut(fitted calibration.Fitted, h heldOut) {
	m := fitted.Model
	conf, review := m.Threshold, m.Watch
	of := func(set string) []calibration.Scored {
		var out []calibration.Scored
		for _, s := range h.dev {
			if set == "pooled" || h.setOf[s.Group] == set {
				out = append(out, s)
			}
		}
		return out
	}
	fmt.Printf("\nPlatt step on the held-out log-odds: %.3f·z %+.3f\n", fitted.Scale, fitted.Shift)
	fmt.Printf("bands from the held-out risks: confusable from %.3f (precision >= %.1f), review from %.3f (at most %.1f pairs per tool)\n",
		conf, calibration.MinPrecision, review, calibration.MaxReviewRate)

	fmt.Println("\nleave-one-catalog-out (each catalog or twins set scored by the model fitted without it):")
	fmt.Println("  set     AUC    confusable P  R     review set recall  pairs/tool   nested: confusable P  R    review recall  pairs/tool")
	for _, set := range []string{"dev1", "dev2", "pooled"} {
		ss := of(set)
		c := calibration.TallyAt(ss, conf)
		r := calibration.TallyAt(ss, review)
		nc, nr, flagged := nested(h.dev, ss)
		tools := calibration.Tools(calibration.Samples(ss))
		fmt.Printf("  %-6s  %.3f  %.2f          %.2f  %.2f               %.2f         %.2f                  %.2f %.2f           %.2f\n", set,
			calibration.RiskAUC(ss), c.Precision(), c.Recall(), r.Recall(), float64(r.TP+r.FP)/float64(tools),
			nc.Precision(), nc.Recall(), nr.Recall(), float64(flagged)/float64(tools))
	}
	ct, rt, ft := fitted.Held.Tally(true), calibration.TallyAt(h.twins, conf), calibration.TallyAt(h.twins, review)
	fmt.Printf("  twins   AUC %.3f  per-fold F1-best threshold: P %.2f R %.2f F1 %.2f; at confusable P %.2f R %.2f F1 %.2f; at review P %.2f R %.2f F1 %.2f\n",
		calibration.RiskAUC(h.twins), ct.Precision(), ct.Recall(), ct.F1(), rt.Precision(), rt.Recall(), rt.F1(), ft.Precision(), ft.Recall(), ft.F1())
	twinBand(h.twins, fitted.Controls, m)

	for _, t := range []struct {
		name string
		ss   []calibration.Scored
	}{{"raw", fitted.Held.Of(false)}, {"after the Platt step", h.dev}} {
		fmt.Printf("\nreliability of the held-out risk, %s (single catalogs pooled):\n", t.name)
		fmt.Println("  risk        pairs   mean risk  positive")
		for _, b := range calibration.Reliability(t.ss) {
			fmt.Printf("  %.1f–%.1f  %6d   %.3f      %.3f\n", b.Low, b.High, b.N, b.MeanRisk, b.Positive)
		}
	}
}

// study runs what the flags ask for offline study of the held-out pairs:
// the judge's candidates, the dump, the riskiest pairs.
func (c config) study(h heldOut, controls []calibration.Scored) error {
	if c.candidates {
		if err := measureCandidates(c.data, h); err != nil {
			return err
		}
	}
	if c.dump != "" {
		if err := dumpPairs(c.dump, h.dev, h.setOf); err != nil {
			return err
		}
		if err := dumpPairs(strings.TrimSuffix(c.dump, ".jsonl")+"-twins.jsonl", append(slices.Clip(h.twins), controls...), h.setOf); err != nil {
			return err
		}
	}
	if c.top > 0 {
		byRisk := slices.Clone(h.dev)
		slices.SortStableFunc(byRisk, func(p, q calibration.Scored) int { return cmp.Compare(q.Risk, p.Risk) })
		fmt.Printf("\nthe %d riskiest held-out pairs:\n", c.top)
		for _, s := range byRisk[:min(c.top, len(byRisk))] {
			fmt.Printf("  %.3f  label %d  %-24s %s / %s  %.2f\n", s.Risk, s.Label, s.Group, s.A, s.B, s.X)
		}
	}
	return nil
}

// perCatalog prints each held-out catalog's figures at the model's bands.
func perCatalog(all []calibration.Sample, h heldOut, m *similarity.RiskModel) {
	fmt.Println("\nper held-out catalog:")
	calibrated := append(slices.Clip(h.dev), h.twins...)
	for _, g := range calibration.Groups(all) {
		var ss []calibration.Scored
		for _, s := range calibrated {
			if s.Group == g {
				ss = append(ss, s)
			}
		}
		c, r := calibration.TallyAt(ss, m.Threshold), calibration.TallyAt(ss, m.Watch)
		fmt.Printf("  %-32s AUC %.3f  confusable TP %d FP %d FN %d  review TP %d FP %d\n", g, calibration.RiskAUC(ss), c.TP, c.FP, c.FN, r.TP, r.FP)
	}
}

// printModel prints the model fitted on all, and its figures in sample on
// the single catalogs dev at each band.
func printModel(m *similarity.RiskModel, lambda float64, dev []calibration.Sample) {
	fmt.Printf("\nmodel fitted on all (lambda %g):\n  bias %+.3f\n", lambda, m.Bias)
	for k, n := range similarity.FeatureNames() {
		fmt.Printf("  %-12s weight %+.3f  mean %.3f\n", n, m.Weights[k], m.Means[k])
	}
	devScored := calibration.Apply(m, dev)
	for _, at := range []float64{m.Threshold, m.Watch} {
		c := calibration.TallyAt(devScored, at)
		fmt.Printf("  in sample at %.3f: single catalogs AUC %.3f P %.2f R %.2f (%d flagged for %d tools)\n", at,
			calibration.RiskAUC(devScored), c.Precision(), c.Recall(), c.TP+c.FP, calibration.Tools(dev))
	}
}

// nested tallies each catalog of ss at the bands picked without it: the
// thresholds come from the pooled held-out risks of every other catalog,
// so no catalog's own labels place the bands it is measured at. It returns
// the confusable and the review-set tallies and how many pairs the review
// set flagged.
func nested(pool, ss []calibration.Scored) (conf, review calibration.Counts, flagged int) {
	for _, g := range calibration.Groups(calibration.Samples(ss)) {
		var rest, own []calibration.Scored
		for _, s := range pool {
			if s.Group != g {
				rest = append(rest, s)
			}
		}
		for _, s := range ss {
			if s.Group == g {
				own = append(own, s)
			}
		}
		c, r := calibration.Bands(rest)
		conf = conf.Add(calibration.TallyAt(own, c))
		t := calibration.TallyAt(own, r)
		review = review.Add(t)
		flagged += t.TP + t.FP
	}
	return conf, review, flagged
}

func positives(ss []calibration.Sample) int {
	n := 0
	for _, s := range ss {
		if s.Positive {
			n++
		}
	}
	return n
}

// perTool lints every catalog under dir with m and reports confusable
// pairs per tool, and how many catalogs fail the gate on similarity.
func perTool(ctx context.Context, dir string, m *similarity.RiskModel, opts lint.Options) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	opts.RiskModel = m
	opts.Scoring = similarity.ScoringRisk
	opts.VerdictLimit = 0
	fmt.Printf("\nflagged pairs per tool (confusable from %.3f, review from %.3f):\n", m.Threshold, m.Watch)
	fails, flagged, reviewed, tools := 0, 0, 0, 0
	for _, f := range files {
		cat, err := catalog.Load(f, nil)
		if err != nil {
			fmt.Printf("  %-48s %v\n", filepath.Base(f), err)
			continue
		}
		scores, err := similarity.Score(ctx, cat, opts.Options)
		if err != nil {
			return err
		}
		sim := scores.Judge(scores.Thresholds())
		n := len(cat.Tools)
		if sim.ConfusableCount > 0 {
			fails++
		}
		flagged += sim.ConfusableCount
		reviewed += sim.WatchCount
		tools += n
		fmt.Printf("  %-48s %5d tools  %5d confusable  %.3f per tool  %5d review\n", filepath.Base(f), n, sim.ConfusableCount, float64(sim.ConfusableCount)/float64(max(1, n)), sim.WatchCount)
	}
	fmt.Printf("  %d catalogs, %d fail on similarity (%.0f%%); %d confusable pairs for %d tools (%.3f per tool), %d review (%.3f per tool)\n",
		len(files), fails, 100*float64(fails)/float64(max(1, len(files))), flagged, tools, float64(flagged)/float64(max(1, tools)), reviewed, float64(reviewed)/float64(max(1, tools)))
	return nil
}

func writeModel(path string, m *similarity.RiskModel) error {
	var b bytes.Buffer
	b.WriteString("// Code generated by go run ./core/calibration/cmd/fit -write; DO NOT EDIT.\n\npackage similarity\n\n")
	b.WriteString("// DefaultRiskModel is the risk model fitted on the labelled pairs in\n// core/calibration/testdata (docs/calibration.md).\n")
	b.WriteString("func DefaultRiskModel() *RiskModel {\n\treturn &RiskModel{\n")
	fmt.Fprintf(&b, "\t\tBias: %v,\n\t\tWeights: Features{", round4(m.Bias))
	for k, w := range m.Weights {
		fmt.Fprintf(&b, "\n\t\t\t%v, // %s", round4(w), similarity.FeatureNames()[k])
	}
	b.WriteString("\n\t\t},\n\t\tMeans: Features{")
	for k, w := range m.Means {
		fmt.Fprintf(&b, "\n\t\t\t%v, // %s", round4(w), similarity.FeatureNames()[k])
	}
	fmt.Fprintf(&b, "\n\t\t},\n\t\tThreshold: %v,\n\t\tWatch: %v,\n\t\tTwins: %v,\n\t\tTwinBonus: TwinTraits{", m.Threshold, m.Watch, m.Twins)
	for k, w := range m.TwinBonus {
		fmt.Fprintf(&b, "\n\t\t\t%v, // %s", w, similarity.TraitNames()[k])
	}
	fmt.Fprintf(&b, "\n\t\t},\n\t\tEmbedder: %q,\n\t}\n}\n", m.Embedder)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return err
	}
	return os.WriteFile(path, src, 0o644)
}

func round4(x float64) float64 { return float64(int64(x*1e4+sign(x)*0.5)) / 1e4 }

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// dumpPairs writes the held-out pairs as JSON lines.
func dumpPairs(path string, ss []calibration.Scored, setOf map[string]string) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	var traits []similarity.TwinTraits
	if len(ss) > 0 && ss[0].ServerA != "" {
		traits = calibration.TwinTraitsOf(ss)
	}
	for k, s := range ss {
		row := map[string]any{
			"set": setOf[s.Group], "catalog": s.Group, "a": s.A, "b": s.B,
			"label": s.Label, "positive": s.Positive, "x": s.X, "risk": s.Risk,
		}
		if traits != nil {
			row["serverA"], row["serverB"], row["traits"] = s.ServerA, s.ServerB, traits[k]
		}
		if err := enc.Encode(row); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
