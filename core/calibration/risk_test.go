package calibration

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/embed"
	"toolscope/embed/cache"
	"toolscope/embed/use"
)

// The risk model's tests read the labelled data committed in testdata:
// the fit reproduces the committed model, its leave-one-out figures stay
// above floors a little under what was measured, and every hint's fix,
// applied, takes its pair below the confusable threshold.

var (
	riskOnce  sync.Once
	riskEmbed embed.Embedder
	riskDev   []Sample
	// riskControls are the cross-server band's negative control.
	riskControls []Sample
	riskTwins    []Sample
	riskLoadErr  error
)

func riskData(t *testing.T) ([]Sample, []Sample, lint.Options) {
	t.Helper()
	if testing.Short() {
		t.Skip("embeds the labelled catalogs with the built-in encoder")
	}
	riskOnce.Do(func() {
		riskEmbed = cache.Wrap(use.New(), cache.Options{Dir: os.TempDir() + "/toolscope-calibration-test"})
		opts := lint.DefaultOptions()
		opts.Embedder = riskEmbed
		labels, err := ReadLabels("testdata/confusion/labels.jsonl")
		if err != nil {
			riskLoadErr = err
			return
		}
		if riskDev, err = ConfusionSamples(context.Background(), "testdata/confusion/catalogs", labels, opts); err != nil {
			riskLoadErr = err
			return
		}
		labels2, err := ReadReviewers("testdata/confusion-dev2/labels-A.jsonl", "testdata/confusion-dev2/labels-B.jsonl")
		if err != nil {
			riskLoadErr = err
			return
		}
		dev2, err := ConfusionSamples(context.Background(), "testdata/confusion-dev2/catalogs", labels2, opts)
		if err != nil {
			riskLoadErr = err
			return
		}
		riskDev = append(riskDev, dev2...)
		twins, err := ReadTwins("testdata/twins/twins.json")
		if err != nil {
			riskLoadErr = err
			return
		}
		if riskTwins, riskLoadErr = TwinSamples(context.Background(), "testdata/twins/catalogs", twins, opts); riskLoadErr != nil {
			return
		}
		riskControls, riskLoadErr = ControlSamples(context.Background(), "testdata/controls", opts)
	})
	if riskLoadErr != nil {
		t.Fatal(riskLoadErr)
	}
	opts := lint.DefaultOptions()
	opts.Embedder = riskEmbed
	return riskDev, riskTwins, opts
}

func TestRiskFitReproducesTheModel(t *testing.T) {
	dev, tw, _ := riskData(t)
	if len(dev) != 2317+12973 || len(tw) != 3209 {
		t.Fatalf("%d single-catalog and %d cross-server pairs, want 15290 and 3209", len(dev), len(tw))
	}
	got := FitRisk(append(slices.Clip(dev), tw...), 1, Fixed, riskControls...).Model
	want := similarity.DefaultRiskModel()
	if math.Abs(got.Threshold-want.Threshold) > 1e-9 || math.Abs(got.Watch-want.Watch) > 1e-9 {
		t.Errorf("bands %v and %v, committed %v and %v: run go run ./core/calibration/cmd/fit -write", got.Threshold, got.Watch, want.Threshold, want.Watch)
	}
	if math.Abs(got.Twins-want.Twins) > 1e-9 {
		t.Errorf("cross-server band %v, committed %v: run go run ./core/calibration/cmd/fit -write", got.Twins, want.Twins)
	}
	for k, n := range similarity.TraitNames() {
		if math.Abs(got.TwinBonus[k]-want.TwinBonus[k]) > 1e-3 {
			t.Errorf("%s twin bonus %v, committed %v: run go run ./core/calibration/cmd/fit -write", n, got.TwinBonus[k], want.TwinBonus[k])
		}
	}
	if math.Abs(got.Bias-want.Bias) > 1e-3 {
		t.Errorf("bias %v, committed %v: run go run ./core/calibration/cmd/fit -write", got.Bias, want.Bias)
	}
	for k, n := range similarity.FeatureNames() {
		if math.Abs(got.Weights[k]-want.Weights[k]) > 1e-3 {
			t.Errorf("%s weight %v, committed %v: run go run ./core/calibration/cmd/fit -write", n, got.Weights[k], want.Weights[k])
		}
	}
}

func TestRiskLeaveOneOut(t *testing.T) {
	dev, tw, _ := riskData(t)
	f := FitRisk(append(slices.Clip(dev), tw...), 1, Fixed)
	single, twins := f.Calibrated(false), f.Calibrated(true)
	ct := f.Held.Tally(true)
	conf, review := TallyAt(single, f.Model.Threshold), TallyAt(single, f.Model.Watch)
	rate := float64(review.TP+review.FP) / float64(Tools(dev))
	t.Logf("single catalogs: AUC %.3f, confusable P %.2f R %.2f, review recall %.2f at %.2f pairs per tool; twins: AUC %.3f F1 %.2f",
		RiskAUC(single), conf.Precision(), conf.Recall(), review.Recall(), rate, RiskAUC(twins), ct.F1())
	if RiskAUC(single) < 0.89 || RiskAUC(twins) < 0.975 || ct.F1() < 0.5 {
		t.Errorf("leave-one-out AUC or F1 fell under their floors (AUC 0.89 and 0.975, twins F1 0.5)")
	}
	if conf.Precision() < MinPrecision || review.Recall() < 0.35 || rate > MaxReviewRate {
		t.Errorf("the bands missed their purpose: confusable precision under %.1f, or review recall under 0.35, or over %.1f pairs per tool", MinPrecision, MaxReviewRate)
	}
}

// Every flagged pair of the labelled catalogs and the demo: apply the
// sentences its hint proposes, score again, and a pair with both
// sentences is no longer flagged (under the watch start, so under the
// threshold too). A pair where the texts give a sentence for one side or
// none says so: its hint asks the author for the missing sentence, as one
// alone does not clear a pair.
func TestRiskHintsClearTheirPair(t *testing.T) {
	_, _, opts := riskData(t)
	files, _ := filepath.Glob("testdata/confusion/catalogs/*.json")
	files = append(files, "../../fixtures/demo/ops-demo.json")
	checked, asked := 0, 0
	for _, f := range files {
		cat, err := catalog.Load(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		scores, err := similarity.Score(context.Background(), cat, opts.Options)
		if err != nil {
			t.Fatal(err)
		}
		sim := scores.Judge(scores.Thresholds())
		for _, p := range append(sim.Confusable, sim.Watch...) {
			fixed, err := catalog.Load(f, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Fixes) < 2 {
				if !strings.Contains(p.Hint, "write in ") && !strings.Contains(p.Hint, "already names") && !strings.Contains(p.Hint, "describe the same job") {
					t.Errorf("%s: %s / %s has %d sentences and a hint that does not ask for the rest: %q", filepath.Base(f), p.A, p.B, len(p.Fixes), p.Hint)
				}
				asked++
				continue
			}
			for _, fx := range p.Fixes {
				if !fx.Apply(fixed.Tools) {
					t.Fatalf("fix names no tool: %+v", fx)
				}
			}
			again, err := similarity.Score(context.Background(), fixed, opts.Options)
			if err != nil {
				t.Fatal(err)
			}
			x, _ := again.Features(p.I, p.J)
			th := again.Thresholds()
			if risk := again.Model().Risk(x); risk >= th.Confusability-th.WatchBand {
				t.Errorf("%s: %s / %s: risk %.2f -> %.2f after %q", filepath.Base(f), p.A, p.B, *p.Risk, risk, p.Hint)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no flagged pair to check")
	}
	if asked*5 > checked+asked {
		t.Errorf("%d of %d flagged pairs lack a sentence: over a fifth", asked, checked+asked)
	}
	t.Logf("%d pairs with both sentences, each taken under the watch start by them; %d ask the author for one or both", checked, asked)
}
