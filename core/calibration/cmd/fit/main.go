// Command fit fits the risk scoring's model (core/similarity/risk_model.go) on
// the labelled pairs in core/calibration/testdata and reports its
// leave-one-catalog-out figures. Run it from the repository root:
//
//	go run ./core/calibration/cmd/fit            # figures only
//	go run ./core/calibration/cmd/fit -write     # and rewrite the model
//	go run ./core/calibration/cmd/fit -catalogs ../shared/catalogs  # flags per tool
//
// It embeds with the built-in encoder through the vector cache, so a second
// run costs seconds. Newton's method on a fixed data set: every run gives
// the same model.
package main

import (
	"bytes"
	"context"
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

func main() {
	data := flag.String("data", "core/calibration/testdata", "`DIR` holding confusion/ and twins/")
	lambda := flag.Float64("lambda", 1, "L2 penalty on the weights")
	write := flag.Bool("write", false, "rewrite core/similarity/risk_model.go with the fitted model")
	out := flag.String("out", "core/similarity/risk_model.go", "`FILE` -write writes")
	catalogs := flag.String("catalogs", "", "also report flagged pairs per tool on every catalog under `DIR`")
	noCache := flag.Bool("no-cache", false, "embed without the vector cache")
	free := flag.Bool("free-guided", false, "fit the guided weight too, rather than fixing it by the rubric")
	drop := flag.String("drop", "", "comma-separated `FEATURES` to leave out (their weights stay 0), for ablation")
	fullWords := flag.Int("full-words", 0, "cut the full texts' descriptions to their first `N` words (0: whole)")
	flag.Parse()
	if err := run(*data, *lambda, *write, *out, *catalogs, *noCache, *drop, *free, *fullWords); err != nil {
		fmt.Fprintln(os.Stderr, "fit:", err)
		os.Exit(1)
	}
}

func run(data string, lambda float64, write bool, out, catalogs string, noCache bool, drop string, freeGuided bool, fullWords int) error {
	ctx := context.Background()
	var e embed.Embedder = use.New()
	e = cache.Wrap(e, cache.Options{Disabled: noCache})
	opts := lint.DefaultOptions()
	opts.Embedder = e
	opts.FullWords = fullWords
	labels, err := calibration.ReadLabels(filepath.Join(data, "confusion", "labels.jsonl"))
	if err != nil {
		return err
	}
	dev, err := calibration.ConfusionSamples(ctx, filepath.Join(data, "confusion", "catalogs"), labels, opts)
	if err != nil {
		return err
	}
	twins, err := calibration.ReadTwins(filepath.Join(data, "twins", "twins.json"))
	if err != nil {
		return err
	}
	tw, err := calibration.TwinSamples(ctx, filepath.Join(data, "twins", "catalogs"), twins, opts)
	if err != nil {
		return err
	}
	for _, name := range strings.Split(drop, ",") {
		k := slices.Index(similarity.FeatureNames(), name)
		if name == "" {
			continue
		}
		if k < 0 {
			return fmt.Errorf("-drop: no feature %q (have %s)", name, strings.Join(similarity.FeatureNames(), ", "))
		}
		for _, ss := range [][]calibration.Sample{dev, tw} {
			for i := range ss {
				ss[i].X[k] = 0
			}
		}
	}
	all := append(slices.Clip(dev), tw...)
	fixed := calibration.Fixed
	if freeGuided {
		fixed = nil
	}
	fmt.Printf("samples: %d single-catalog pairs (%d positive) in %d catalogs, %d cross-server pairs (%d twins) in %d sets\n",
		len(dev), positives(dev), len(calibration.Groups(dev)), len(tw), positives(tw), len(calibration.Groups(tw)))

	held := calibration.LeaveOneGroupOut(all, lambda, fixed)
	report := func(name string, twins bool) {
		ss := held.Of(twins)
		c := held.Tally(twins)
		fmt.Printf("%-26s AUC %.3f  P %.2f  R %.2f  F1 %.2f  (TP %d FP %d FN %d)\n", name, calibration.RiskAUC(ss), c.Precision(), c.Recall(), c.F1(), c.TP, c.FP, c.FN)
	}
	fmt.Println("\nleave-one-group-out (each catalog or set scored by the model fitted without it, at the threshold its training data picked):")
	report("single catalogs", false)
	report("cross-server twins", true)
	fmt.Println("\nper held-out catalog:")
	for _, g := range calibration.Groups(all) {
		var ss []calibration.Scored
		for _, s := range held.Scored {
			if s.Group == g {
				ss = append(ss, s)
			}
		}
		c := calibration.TallyAt(ss, held.Thresholds[g])
		fmt.Printf("  %-32s AUC %.3f  threshold %.2f  TP %d FP %d FN %d\n", g, calibration.RiskAUC(ss), held.Thresholds[g], c.TP, c.FP, c.FN)
	}

	m := calibration.Fit(all, lambda, fixed)
	m.Embedder = e.ID()
	devScored := calibration.Apply(m, dev)
	// Watch starts at the F1-best risk on the single catalogs; confusable
	// (what fails the gate) where at most flagRate pairs per tool of them
	// are flagged, so the gate stays usable.
	m.Watch = round2(calibration.BestRiskThreshold(devScored))
	m.Threshold = max(m.Watch, round2(calibration.RateThreshold(devScored, devTools(dev), flagRate)))
	fmt.Printf("\nmodel fitted on all (lambda %g):\n  bias %+.3f\n", lambda, m.Bias)
	for k, n := range similarity.FeatureNames() {
		fmt.Printf("  %-12s weight %+.3f  mean %.3f\n", n, m.Weights[k], m.Means[k])
	}
	fmt.Printf("  confusable from %.2f, watch from %.2f\n", m.Threshold, m.Watch)
	for _, at := range []float64{m.Threshold, m.Watch} {
		c := calibration.TallyAt(devScored, at)
		ct := calibration.TallyAt(calibration.Apply(m, tw), at)
		fmt.Printf("  in sample at %.2f: single catalogs AUC %.3f P %.2f R %.2f F1 %.2f (%d flagged for %d tools); twins AUC %.3f P %.2f R %.2f F1 %.2f\n", at,
			calibration.RiskAUC(devScored), c.Precision(), c.Recall(), c.F1(), c.TP+c.FP, devTools(dev),
			calibration.RiskAUC(calibration.Apply(m, tw)), ct.Precision(), ct.Recall(), ct.F1())
	}
	for _, twins := range []bool{false, true} {
		for _, at := range []float64{m.Threshold, m.Watch} {
			c := calibration.TallyAt(held.Of(twins), at)
			kind := "single catalogs"
			if twins {
				kind = "cross-server twins"
			}
			fmt.Printf("  held out, %-18s flagged at %.2f: P %.2f R %.2f F1 %.2f (TP %d FP %d FN %d)\n", kind, at, c.Precision(), c.Recall(), c.F1(), c.TP, c.FP, c.FN)
		}
	}
	if catalogs != "" {
		if err := perTool(ctx, catalogs, m, opts); err != nil {
			return err
		}
	}
	if write {
		return writeModel(out, m)
	}
	return nil
}

// flagRate is how many confusable pairs per tool the labelled catalogs may
// have at the confusable threshold.
const flagRate = 0.15

// devTools counts the distinct tools of the single catalogs.
func devTools(ss []calibration.Sample) int {
	seen := map[[2]string]bool{}
	for _, s := range ss {
		seen[[2]string{s.Group, s.A}] = true
		seen[[2]string{s.Group, s.B}] = true
	}
	return len(seen)
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

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

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
	fmt.Printf("\nflagged pairs per tool (confusable at %.2f):\n", m.Threshold)
	fails, flagged, tools := 0, 0, 0
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
		tools += n
		fmt.Printf("  %-48s %5d tools  %5d confusable  %.3f per tool  %5d watch\n", filepath.Base(f), n, sim.ConfusableCount, float64(sim.ConfusableCount)/float64(max(1, n)), sim.WatchCount)
	}
	fmt.Printf("  %d catalogs, %d fail on similarity; %d confusable pairs for %d tools (%.3f per tool)\n", len(files), fails, flagged, tools, float64(flagged)/float64(max(1, tools)))
	return nil
}

func writeModel(path string, m *similarity.RiskModel) error {
	var b bytes.Buffer
	b.WriteString("// Code generated by go run ./core/calibration/cmd/fit -write; DO NOT EDIT.\n\npackage lint\n\n")
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
	fmt.Fprintf(&b, "\n\t\t},\n\t\tThreshold: %v,\n\t\tWatch: %v,\n\t\tEmbedder: %q,\n\t}\n}\n", m.Threshold, m.Watch, m.Embedder)
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
