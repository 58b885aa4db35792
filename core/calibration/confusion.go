package calibration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// Labelled pairs within one catalog (testdata/confusion): each line of the
// labels file rates one pair of one catalog by the rubric in rubric.txt,
// 1 (related, told apart) to 3 (often taken one for the other); pairs not
// listed are 0. A pair rated 2 or more is a positive.

// Label is one line of a labels file.
type Label struct {
	Catalog string `json:"catalog"`
	A       string `json:"a"`
	B       string `json:"b"`
	Label   int    `json:"label"`
	Why     string `json:"why"`
}

// Positive is the label from which a pair counts as confusable.
const Positive = 2

// ReadLabels reads a labels file, one JSON object a line.
func ReadLabels(path string) ([]Label, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Label
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var l Label
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if l.Catalog == "" || l.A == "" || l.B == "" || l.Label < 1 || l.Label > 3 {
			return nil, fmt.Errorf("%s:%d: want catalog, a, b and a label from 1 to 3", path, n)
		}
		out = append(out, l)
	}
	return out, sc.Err()
}

// ReadReviewers reads one labels file per reviewer of the same pairs and
// gives each pair the mean of their labels (a pair a reviewer left out
// counts 0), rounded down: a pair is positive when the mean is at least
// Positive. Pairs whose mean rounds to 0 are left out, as unlisted.
func ReadReviewers(paths ...string) ([]Label, error) {
	sums := map[[3]string]int{}
	var order [][3]string
	for _, path := range paths {
		ls, err := ReadLabels(path)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			a, b := l.A, l.B
			if b < a {
				a, b = b, a
			}
			k := [3]string{l.Catalog, a, b}
			if _, ok := sums[k]; !ok {
				order = append(order, k)
			}
			sums[k] += l.Label
		}
	}
	var out []Label
	for _, k := range order {
		if mean := sums[k] / len(paths); mean >= 1 {
			out = append(out, Label{Catalog: k[0], A: k[1], B: k[2], Label: mean})
		}
	}
	return out, nil
}

// Sample is one pair's features and whether it is a positive; Group is
// the catalog (or twins set) it belongs to, the unit left out in turn.
type Sample struct {
	Group string
	A, B  string
	// ServerA and ServerB are the tools' servers in a merged catalog.
	ServerA, ServerB string
	X                similarity.Features
	Positive         bool
	Label            int // the rubric label (0-3); twins: 3 for a twin, else 0
}

// Featurize scores a catalog under the risk scoring and returns every pair
// with its features; keep, when set, chooses the pairs (by the tools).
func Featurize(ctx context.Context, cat *catalog.Catalog, opts lint.Options, keep func(a, b *catalog.Tool) bool) ([]Sample, *similarity.Scores, error) {
	opts.Scoring = similarity.ScoringRisk
	opts.RankLimit = 0
	scores, err := similarity.Score(ctx, cat, opts.Options)
	if err != nil {
		return nil, nil, err
	}
	var out []Sample
	for _, p := range scores.Judge(scores.Thresholds()).Ranked {
		a, b := cat.Tools[p.I], cat.Tools[p.J]
		if keep != nil && !keep(a, b) {
			continue
		}
		x, ok := scores.Features(p.I, p.J)
		if !ok {
			continue
		}
		out = append(out, Sample{Group: cat.Source, A: a.Name, B: b.Name, ServerA: a.Server, ServerB: b.Server, X: x})
	}
	return out, scores, nil
}

// ConfusionSamples featurizes each labelled catalog in dir (dir/<name>.json)
// and labels its pairs. Every labelled tool must exist.
func ConfusionSamples(ctx context.Context, dir string, labels []Label, opts lint.Options) ([]Sample, error) {
	byCat := map[string]map[[2]string]int{}
	for _, l := range labels {
		if byCat[l.Catalog] == nil {
			byCat[l.Catalog] = map[[2]string]int{}
		}
		byCat[l.Catalog][key(l.A, l.B)] = l.Label
	}
	names := make([]string, 0, len(byCat))
	for n := range byCat {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []Sample
	for _, name := range names {
		cat, err := catalog.Load(filepath.Join(dir, name+".json"), nil)
		if err != nil {
			return nil, err
		}
		cat.Source = name
		samples, _, err := Featurize(ctx, cat, opts, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		seen := map[[2]string]bool{}
		for k := range samples {
			kk := key(samples[k].A, samples[k].B)
			seen[kk] = true
			samples[k].Label = byCat[name][kk]
			samples[k].Positive = samples[k].Label >= Positive
		}
		for kk := range byCat[name] {
			if !seen[kk] {
				return nil, fmt.Errorf("%s: labelled pair %s / %s is not a pair of its tools", name, kk[0], kk[1])
			}
		}
		out = append(out, samples...)
	}
	return out, nil
}

// TwinSamples featurizes each twins set's merged catalog (tools named as
// served) and returns its cross-server pairs, twins positive.
func TwinSamples(ctx context.Context, dir string, twins *Twins, opts lint.Options) ([]Sample, error) {
	var out []Sample
	for _, s := range twins.Sets {
		cat, index, err := s.Merge(dir, AsServed)
		if err != nil {
			return nil, err
		}
		cat.Source = "twins:" + s.Name
		group := make([]int, len(cat.Tools))
		for g, members := range s.Groups {
			for _, m := range members {
				group[index[m]] = g + 1
			}
		}
		samples, _, err := Featurize(ctx, cat, opts, func(a, b *catalog.Tool) bool { return a.Server != b.Server })
		if err != nil {
			return nil, fmt.Errorf("set %s: %w", s.Name, err)
		}
		byName := map[string]int{}
		for _, t := range cat.Tools {
			byName[t.Name] = t.Index
		}
		for k := range samples {
			i, j := byName[samples[k].A], byName[samples[k].B]
			if group[i] != 0 && group[i] == group[j] {
				samples[k].Positive, samples[k].Label = true, 3
			}
		}
		out = append(out, samples...)
	}
	return out, nil
}

func key(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}

// Fixed are the weights set by the rubric rather than fitted: two
// descriptions that each name the other tool with when to choose it are
// what the rubric calls "clearly distinguished" (label 1). The labelled
// data agrees (the 3 such pairs of 5,526 are all labelled 1) but holds too
// few to fit the weight: such a pair loses 5 in log-odds.
var Fixed = map[similarity.Feature]float64{similarity.FeatGuided: -5}

// Fit fits a logistic model to samples by Newton's method with an L2
// penalty lambda on the weights (not the bias); the features in fixed keep
// their given weights. Deterministic.
func Fit(samples []Sample, lambda float64, fixed map[similarity.Feature]float64) *similarity.RiskModel {
	const p = len(similarity.Features{}) + 1
	w := make([]float64, p) // w[0] is the bias
	row := func(s Sample) []float64 {
		x := make([]float64, p)
		x[0] = 1
		copy(x[1:], s.X[:])
		return x
	}
	for iter := 0; iter < 50; iter++ {
		grad := make([]float64, p)
		hess := make([][]float64, p)
		for k := range hess {
			hess[k] = make([]float64, p)
		}
		for _, s := range samples {
			x := row(s)
			z := 0.0
			for k := range x {
				z += w[k] * x[k]
			}
			for f, fw := range fixed {
				z += fw * x[f+1]
				x[f+1] = 0 // not fitted
			}
			mu := 1 / (1 + math.Exp(-z))
			y := 0.0
			if s.Positive {
				y = 1
			}
			for k := range x {
				grad[k] += (mu - y) * x[k]
				for l := range x {
					hess[k][l] += mu * (1 - mu) * x[k] * x[l]
				}
			}
		}
		for k := 1; k < p; k++ {
			grad[k] += lambda * w[k]
			hess[k][k] += lambda
		}
		for f := range fixed {
			hess[f+1][f+1] = 1 // its row is zero: keep the system solvable
		}
		step := solve(hess, grad)
		moved := 0.0
		for k := range w {
			w[k] -= step[k]
			moved = math.Max(moved, math.Abs(step[k]))
		}
		if moved < 1e-10 {
			break
		}
	}
	m := &similarity.RiskModel{Bias: w[0]}
	copy(m.Weights[:], w[1:])
	for f, fw := range fixed {
		m.Weights[f] = fw
	}
	for _, s := range samples {
		for k := range m.Means {
			m.Means[k] += s.X[k] / float64(len(samples))
		}
	}
	return m
}

// solve solves h·x = g by Gaussian elimination with partial pivoting.
func solve(h [][]float64, g []float64) []float64 {
	n := len(g)
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
		copy(a[i], h[i])
		a[i][n] = g[i]
	}
	for c := 0; c < n; c++ {
		piv := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		a[c], a[piv] = a[piv], a[c]
		if a[c][c] == 0 {
			continue
		}
		for r := 0; r < n; r++ {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for k := c; k <= n; k++ {
				a[r][k] -= f * a[c][k]
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		if a[i][i] != 0 {
			x[i] = a[i][n] / a[i][i]
		}
	}
	return x
}

// Scored is a sample with a model's risk.
type Scored struct {
	Sample
	Risk float64
}

// Apply scores samples with m.
func Apply(m *similarity.RiskModel, samples []Sample) []Scored {
	out := make([]Scored, len(samples))
	for k, s := range samples {
		out[k] = Scored{Sample: s, Risk: m.Risk(s.X)}
	}
	return out
}

// asPairs turns scored samples into the AUC's pairs.
func asPairs(ss []Scored) []Pair {
	out := make([]Pair, len(ss))
	for k, s := range ss {
		out[k] = Pair{A: s.A, B: s.B, Score: s.Risk, Affinity: math.Inf(1), Twin: s.Positive}
	}
	return out
}

// RiskAUC is the ROC AUC of the risk over scored samples.
func RiskAUC(ss []Scored) float64 { return AUC(asPairs(ss)) }

// TallyAt counts the confusable verdict (risk ≥ t) against the labels.
func TallyAt(ss []Scored, t float64) Counts {
	return Verdict{Threshold: t, AffinityFloor: math.Inf(-1)}.Tally(asPairs(ss))
}

// BestRiskThreshold is the F1-best threshold on ss (of equal F1s, the
// higher).
func BestRiskThreshold(ss []Scored) float64 {
	v, _ := BestThreshold(asPairs(ss), math.Inf(-1))
	return v.Threshold
}

// RateThreshold is the lowest risk at which at most rate·tools of ss are
// flagged.
func RateThreshold(ss []Scored, tools int, rate float64) float64 {
	risks := make([]float64, len(ss))
	for k, s := range ss {
		risks[k] = s.Risk
	}
	slices.Sort(risks)
	slices.Reverse(risks)
	allowed := int(rate * float64(tools))
	if allowed >= len(risks) {
		return 0
	}
	// Flag the allowed riskiest: start just above the first one left out.
	return math.Nextafter(risks[allowed], math.Inf(1))
}

// Groups lists the samples' groups in first-seen order.
func Groups(samples []Sample) []string {
	var out []string
	for _, s := range samples {
		if !slices.Contains(out, s.Group) {
			out = append(out, s.Group)
		}
	}
	return out
}

// HeldOut is the leave-one-group-out result: each sample scored by the
// model fitted without its group, and the threshold that model's training
// data picked (per group).
type HeldOut struct {
	Scored     []Scored
	Thresholds map[string]float64
}

// LeaveOneGroupOut fits without each group in turn and scores that group.
// Each fold's threshold is the F1-best on its training samples among those
// of the kind judged (single-catalog or twins, by the held-out group).
func LeaveOneGroupOut(samples []Sample, lambda float64, fixed map[similarity.Feature]float64) HeldOut {
	out := HeldOut{Thresholds: map[string]float64{}}
	for _, g := range Groups(samples) {
		var train, test []Sample
		for _, s := range samples {
			if s.Group == g {
				test = append(test, s)
			} else {
				train = append(train, s)
			}
		}
		m := Fit(train, lambda, fixed)
		var kin []Sample
		for _, s := range train {
			if IsTwins(s.Group) == IsTwins(g) {
				kin = append(kin, s)
			}
		}
		t := BestRiskThreshold(Apply(m, kin))
		out.Thresholds[g] = t
		out.Scored = append(out.Scored, Apply(m, test)...)
	}
	return out
}

// IsTwins reports whether a group is a twins set.
func IsTwins(group string) bool { return strings.HasPrefix(group, "twins:") }

// Tally counts each held-out sample's verdict at its fold's threshold.
func (h HeldOut) Tally(twins bool) Counts {
	var c Counts
	for _, s := range h.Scored {
		if IsTwins(s.Group) != twins {
			continue
		}
		c = c.Add(TallyAt([]Scored{s}, h.Thresholds[s.Group]))
	}
	return c
}

// Of keeps the held-out samples of one kind.
func (h HeldOut) Of(twins bool) []Scored {
	var out []Scored
	for _, s := range h.Scored {
		if IsTwins(s.Group) == twins {
			out = append(out, s)
		}
	}
	return out
}
