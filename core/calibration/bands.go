package calibration

import (
	"math"
	"slices"
	"toolscope/core/similarity"
)

// The risk scoring's two bands, fitted for their purpose: confusable, which
// fails the gate, where held-out precision reaches MinPrecision; review
// (the watch verdict), advisory, as low as MaxReviewRate pairs per tool
// allows, for recall.
const (
	MinPrecision  = 0.6
	MaxReviewRate = 0.6
)

// PrecisionThreshold is the lowest risk at which the pairs of ss at or
// above it reach precision p, counting only thresholds that flag at least
// minTP positives (a handful of pairs says little); +Inf when none does.
func PrecisionThreshold(ss []Scored, p float64, minTP int) float64 {
	sorted := slices.Clone(ss)
	slices.SortFunc(sorted, func(x, y Scored) int {
		if x.Risk != y.Risk {
			if x.Risk > y.Risk {
				return -1
			}
			return 1
		}
		return 0
	})
	best := math.Inf(1)
	tp, n := 0, 0
	for k, s := range sorted {
		n++
		if s.Positive {
			tp++
		}
		// Ties share one threshold: judge the run of equal risks whole.
		if k+1 < len(sorted) && sorted[k+1].Risk == s.Risk {
			continue
		}
		if tp >= minTP && float64(tp) >= p*float64(n) {
			best = s.Risk
		}
	}
	return best
}

// Bin is one row of a reliability table: the samples whose risk fell in
// [Low, High), their mean risk and the share that is positive.
type Bin struct {
	Low, High float64
	N         int
	MeanRisk  float64
	Positive  float64
}

// Reliability bins ss by risk, in tenths of the range from 0 to 1.
func Reliability(ss []Scored) []Bin {
	bins := make([]Bin, 10)
	pos := make([]int, 10)
	for k := range bins {
		bins[k].Low, bins[k].High = float64(k)/10, float64(k+1)/10
	}
	for _, s := range ss {
		k := min(int(s.Risk*10), 9)
		bins[k].N++
		bins[k].MeanRisk += s.Risk
		if s.Positive {
			pos[k]++
		}
	}
	for k := range bins {
		if bins[k].N > 0 {
			bins[k].MeanRisk /= float64(bins[k].N)
			bins[k].Positive = float64(pos[k]) / float64(bins[k].N)
		}
	}
	return bins
}

// Tools counts the distinct tools of samples (by group and name).
func Tools(ss []Sample) int {
	seen := map[[2]string]bool{}
	for _, s := range ss {
		seen[[2]string{s.Group, s.A}] = true
		seen[[2]string{s.Group, s.B}] = true
	}
	return len(seen)
}

// Samples takes the samples back out of scored ones.
func Samples(ss []Scored) []Sample {
	out := make([]Sample, len(ss))
	for k, s := range ss {
		out[k] = s.Sample
	}
	return out
}

// Platt fits risk' = 1/(1+exp(-(a·z+b))) to the labels of ss, z each
// sample's log-odds: the scale and shift that make held-out risks read as
// chances. Newton's method; deterministic.
func Platt(ss []Scored) (a, b float64) {
	a = 1
	for range 100 {
		var ga, gb, haa, hab, hbb float64
		for _, s := range ss {
			z := logit(s.Risk)
			mu := 1 / (1 + math.Exp(-(a*z + b)))
			y := 0.0
			if s.Positive {
				y = 1
			}
			ga += (mu - y) * z
			gb += mu - y
			w := mu * (1 - mu)
			haa += w * z * z
			hab += w * z
			hbb += w
		}
		det := haa*hbb - hab*hab
		if det == 0 {
			break
		}
		da := (hbb*ga - hab*gb) / det
		db := (haa*gb - hab*ga) / det
		a, b = a-da, b-db
		if math.Abs(da) < 1e-10 && math.Abs(db) < 1e-10 {
			break
		}
	}
	return a, b
}

func logit(p float64) float64 {
	p = min(max(p, 1e-15), 1-1e-15)
	return math.Log(p) - math.Log1p(-p)
}

// Rescale applies a Platt step to scored samples.
func Rescale(ss []Scored, a, b float64) []Scored {
	out := slices.Clone(ss)
	for k := range out {
		out[k].Risk = 1 / (1 + math.Exp(-(a*logit(out[k].Risk) + b)))
	}
	return out
}

// FoldPlatt folds a Platt step into m: its log-odds become a·z+b, so the
// model stays a logistic over the same features.
func FoldPlatt(m *similarity.RiskModel, a, b float64) {
	m.Bias = a*m.Bias + b
	for k := range m.Weights {
		m.Weights[k] *= a
	}
}

// Fitted is the risk model as the fit command writes it, with the
// held-out evidence its bands and its Platt step were taken from.
type Fitted struct {
	Model *similarity.RiskModel
	// Held is each group scored by the model fitted without it, raw.
	Held HeldOut
	// Scale and Shift are the Platt step, fitted on the single catalogs'
	// held-out log-odds and folded into Model.
	Scale, Shift float64
	// Controls are the negative control's cross-server pairs, scored by
	// Model: they are no training sample, only a check on the
	// cross-server band.
	Controls []Scored
}

// FitRisk fits the risk model on samples (single catalogs and twins sets)
// and sets its bands: each group is scored by the model fitted without it;
// a Platt step fitted on the single catalogs' held-out risks makes them
// read as chances; confusable starts where the pooled held-out risks,
// so rescaled, reach MinPrecision, review where they flag MaxReviewRate
// pairs per tool; the cross-server band starts where the F1 of the
// held-out twins with the controls (cross-server pairs of unrelated
// servers, all distinct) is best. The model fitted on every sample gets the Platt step and
// the bands. Deterministic.
func FitRisk(samples []Sample, lambda float64, fixed map[similarity.Feature]float64, controls ...Sample) Fitted {
	f := Fitted{Held: LeaveOneGroupOut(samples, lambda, fixed)}
	f.Scale, f.Shift = Platt(f.Held.Of(false))
	dev := f.Calibrated(false)
	f.Model = Fit(samples, lambda, fixed)
	FoldPlatt(f.Model, f.Scale, f.Shift)
	f.Model.Threshold, f.Model.Watch = Bands(dev)
	f.Controls = Apply(f.Model, controls)
	f.Model.Twins, f.Model.TwinBonus = FitTwins(f.Calibrated(true), f.Controls...)
	return f
}

// Calibrated is the held-out samples of one kind with the Platt step
// applied.
func (f Fitted) Calibrated(twins bool) []Scored {
	return Rescale(f.Held.Of(twins), f.Scale, f.Shift)
}

// Bands are the confusable and review starts that held-out risks ss give;
// confusable is +Inf when no risk reaches the precision. Each is rounded
// down to the fewest decimals that move no risk of ss across it.
func Bands(ss []Scored) (confusable, review float64) {
	confusable = roundInGap(ss, PrecisionThreshold(ss, MinPrecision, 5))
	review = min(confusable, roundInGap(ss, RateThreshold(ss, Tools(Samples(ss)), MaxReviewRate)))
	return confusable, review
}

// roundInGap rounds t to the fewest decimals (from two), down or else up,
// that leave every risk of ss on the side of t it was on.
func roundInGap(ss []Scored, t float64) float64 {
	if math.IsInf(t, 0) {
		return t
	}
	for scale := 100.0; scale <= 1e12; scale *= 10 {
		for _, r := range []float64{math.Floor(t*scale) / scale, math.Ceil(t*scale) / scale} {
			lo, hi := min(r, t), max(r, t)
			if !slices.ContainsFunc(ss, func(s Scored) bool { return s.Risk >= lo && s.Risk < hi }) {
				return r
			}
		}
	}
	return t
}
