package calibration

import (
	"math"
	"slices"

	"toolscope/core/similarity"
)

// Twin evidence: what a cross-server pair's names and ranks add to its
// risk's log-odds before it is held to the cross-server start
// (similarity.RiskModel.TwinBonus). A logistic model over the risk's
// log-odds and the traits is fitted on the twins' held-out risks with
// the control's pairs as negatives; each trait's bonus is its weight over
// the risk's, so the evidence is told in the risk's own log-odds. The
// start is then picked on the evidence-adjusted risks as TwinThreshold
// picks it on the risks.

// TwinTraitsOf is each sample's twin evidence: its names' traits, and
// whether each tool is the other's riskiest match on the other's server
// among the samples of its group.
func TwinTraitsOf(ss []Scored) []similarity.TwinTraits {
	type side struct {
		group, tool, server string
	}
	best := map[side]float64{}
	for _, s := range ss {
		for _, k := range []side{{s.Group, s.ServerA + "\x00" + s.A, s.ServerB}, {s.Group, s.ServerB + "\x00" + s.B, s.ServerA}} {
			if v, ok := best[k]; !ok || s.Risk > v {
				best[k] = s.Risk
			}
		}
	}
	out := make([]similarity.TwinTraits, len(ss))
	for k, s := range ss {
		out[k] = similarity.NameTraits(s.A, s.ServerA, s.B, s.ServerB)
		if s.Risk >= best[side{s.Group, s.ServerA + "\x00" + s.A, s.ServerB}] && s.Risk >= best[side{s.Group, s.ServerB + "\x00" + s.B, s.ServerA}] {
			out[k][similarity.TraitMutual] = 1
		}
	}
	return out
}

// FitTwinBonus fits the traits' bonuses on twin samples ss and control
// samples (all negatives), with an L2 penalty lambda on the weights.
// Deterministic. A fit in which the risk carries no weight gives no
// bonus.
func FitTwinBonus(ss, controls []Scored, lambda float64) similarity.TwinTraits {
	all := append(slices.Clip(ss), controls...)
	traits := TwinTraitsOf(ss)
	traits = append(traits, TwinTraitsOf(controls)...)
	const p = len(similarity.TwinTraits{}) + 2 // bias, the risk's log-odds, the traits
	rows := make([][p]float64, len(all))
	for k, s := range all {
		rows[k][0], rows[k][1] = 1, logit(s.Risk)
		copy(rows[k][2:], traits[k][:])
	}
	w := make([]float64, p)
	for iter := 0; iter < 50; iter++ {
		grad := make([]float64, p)
		hess := make([][]float64, p)
		for i := range hess {
			hess[i] = make([]float64, p)
			if i > 0 {
				hess[i][i] = lambda
				grad[i] = lambda * w[i]
			}
		}
		for k, x := range rows {
			z := 0.0
			for i := range x {
				z += w[i] * x[i]
			}
			pr := 1 / (1 + math.Exp(-z))
			y := 0.0
			if all[k].Positive {
				y = 1
			}
			q := pr * (1 - pr)
			for i := range x {
				grad[i] += (pr - y) * x[i]
				for j := range x {
					hess[i][j] += q * x[i] * x[j]
				}
			}
		}
		step := solve(hess, grad)
		moved := 0.0
		for i := range w {
			w[i] -= step[i]
			moved = max(moved, math.Abs(step[i]))
		}
		if moved < 1e-10 {
			break
		}
	}
	var bonus similarity.TwinTraits
	if w[1] <= 0 {
		return bonus
	}
	for k := range bonus {
		bonus[k] = math.Round(w[k+2]/w[1]*1e4) / 1e4
	}
	return bonus
}

// WithEvidence is ss with each risk moved by its twin evidence under
// bonus: σ(logit(risk) + Σ bonus·traits), the value held to the start.
func WithEvidence(ss []Scored, bonus similarity.TwinTraits) []Scored {
	m := similarity.RiskModel{TwinBonus: bonus}
	traits := TwinTraitsOf(ss)
	out := slices.Clone(ss)
	for k := range out {
		out[k].Risk = 1 / (1 + math.Exp(-m.TwinLogit(ss[k].Risk, traits[k])))
	}
	return out
}

// TwinLambda is the L2 penalty FitTwins fits the bonuses with (the risk
// model's own, 1; `fit -twin-lambda` measures others).
var TwinLambda = 1.0

// FitTwins is the cross-server band on held-out twin risks ss and the
// control's risks: the traits' bonuses, and the start on the
// evidence-adjusted risks. With a control the start is the lowest at which
// the control stays within MaxControlRate pairs per tool: the control is
// the precision guard, and within it the band finds the most twins (the
// F1-best start on a few merges' twins moves with one pair more or less;
// docs/calibration.md). Without one, TwinThreshold's F1-best start.
func FitTwins(ss []Scored, controls ...Scored) (start float64, bonus similarity.TwinTraits) {
	bonus = FitTwinBonus(ss, controls, TwinLambda)
	adj, ctl := WithEvidence(ss, bonus), WithEvidence(controls, bonus)
	if len(ctl) == 0 {
		return TwinThreshold(adj), bonus
	}
	t := RateThreshold(ctl, Tools(Samples(ctl)), MaxControlRate)
	return roundInGap(append(slices.Clip(adj), ctl...), t), bonus
}
