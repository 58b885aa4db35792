package judge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// Questions is the pairs worth a judgment in a lint run, as questions:
// each tool's nearest candidates from the offline scoring (Candidates, at
// most perTool per tool), then every pair of two servers the cross-server
// band made confusable, then any other pair of the catalog that file
// holds a judgment for (a person's accept stays in force wherever it
// ranks). Each question carries the catalog's other names as siblings.
func Questions(cat *catalog.Catalog, sim similarity.Result, perTool float64, file *Records) []Pair {
	return QuestionsWith(cat, sim, similarity.WordNeighbours(cat.Tools, FuseDepth), perTool, file)
}

// QuestionsWith is Questions with the catalog's word neighbours already
// found (similarity.WordNeighbours to FuseDepth): the explorer replays on
// every change of the verdicts and finds them once per catalog.
func QuestionsWith(cat *catalog.Catalog, sim similarity.Result, words [][]int, perTool float64, file *Records) []Pair {
	tools := make([]Tool, len(cat.Tools))
	names := make([]string, len(cat.Tools))
	index := map[string]int{}
	for i, t := range cat.Tools {
		tools[i], names[i] = FromCatalog(t), t.Name
		if _, dup := index[t.Name]; !dup {
			index[t.Name] = i
		}
	}
	byRisk := make([][]int, len(cat.Tools))
	for i, list := range sim.Neighbours {
		if i >= len(byRisk) {
			break
		}
		for _, p := range list {
			other := p.J
			if other == i {
				other = p.I
			}
			byRisk[i] = append(byRisk[i], other)
		}
	}
	// The words' view covers the tools the scoring covered, no others (a
	// later tool of a repeated name is left out of similarity).
	scored := make([][]int, len(words))
	for i, list := range words {
		if i >= len(byRisk) || len(byRisk[i]) == 0 {
			continue
		}
		for _, j := range list {
			if j >= 0 && j < len(byRisk) && len(byRisk[j]) > 0 {
				scored[i] = append(scored[i], j)
			}
		}
	}
	nb := Fuse(len(cat.Tools), byRisk, scored)
	seen := map[[2]int]bool{}
	var out []Pair
	add := func(i, j int) {
		k := [2]int{min(i, j), max(i, j)}
		if i == j || seen[k] {
			return
		}
		seen[k] = true
		out = append(out, NewPair(tools[i], tools[j], siblings(names, i, j)))
	}
	for _, c := range Candidates(nb, perTool) {
		add(c[0], c[1])
	}
	// A pair of two servers flagged by the cross-server band is asked
	// whatever its rank: its verdict rests on the twins' band alone.
	for _, p := range sim.Confusable {
		if p.Band == similarity.BandCrossServer && p.I < len(tools) && p.J < len(tools) {
			add(p.I, p.J)
		}
	}
	if file != nil {
		for _, j := range file.All() {
			a, okA := index[j.A]
			b, okB := index[j.B]
			if okA && okB {
				add(a, b)
			}
		}
	}
	return out
}

// maxSiblings bounds the names a question lists: beyond it they add cost,
// not judgment.
const maxSiblings = 200

// siblings is every name but the i-th and j-th, at most maxSiblings.
func siblings(names []string, i, j int) []string {
	out := make([]string, 0, min(len(names), maxSiblings))
	for k, n := range names {
		if len(out) == maxSiblings {
			break
		}
		if k != i && k != j && n != names[i] && n != names[j] {
			out = append(out, n)
		}
	}
	return out
}

// ApplyOptions say where the judgments Apply writes came from, for the
// report's Judged section.
type ApplyOptions struct {
	// Judge is the model asked, "" when only replaying.
	Judge string
	// File is the judgments file read, as it is shown.
	File string
	// Asked is how many pairs were sent to the judge.
	Asked int
	// Err is what stopped the run early, nil when nothing did.
	Err error
}

// Apply writes the run's judgments into the report's verdicts: a pair
// judged 2 or 3 is confusable, with the judge's reason as its hint and the
// judge's sentences as its fixes; a pair judged 0 or 1 leaves the
// confusable and watch lists; an unjudged pair keeps its offline verdict.
// A pair the project config accepted stays accepted. The gate is counted
// again, and the report gains its Judged section, described by o.
func Apply(r *lint.Report, cat *catalog.Catalog, results []Result, o ApplyOptions) *lint.Report {
	accepted := map[[2]string]bool{}
	if r.Suppressed != nil {
		for _, p := range r.Suppressed.Pairs {
			accepted[ordered(p.A, p.B)] = true
		}
	}
	v := newVerdicts(r.Similarity, cat)
	sec := &lint.Judged{Judge: o.Judge, File: o.File, Asked: o.Asked, Pairs: []lint.JudgedPair{}, Unjudged: []lint.UnjudgedPair{}}
	if o.Err != nil {
		sec.Error = o.Err.Error()
	}
	for _, res := range results {
		names := res.Pair.Names()
		if accepted[names] {
			// The config's accept holds whatever a judgment says; but a
			// pair judged (accepted in the explorer, say) for texts that
			// have changed since is listed, so that the review is redone.
			if res.Judgment == nil && strings.HasPrefix(res.Why, WhyStale) {
				sec.Unjudged = append(sec.Unjudged, lint.UnjudgedPair{A: names[0], B: names[1], Why: WhyStale, Offline: OfflineAccepted})
			}
			continue
		}
		kind, at := v.offline(names)
		if res.Judgment == nil {
			sec.Unjudged = append(sec.Unjudged, lint.UnjudgedPair{A: names[0], B: names[1], Why: res.Why, Offline: string(kind)})
			continue
		}
		j := res.Judgment
		if res.Status == Replayed {
			sec.Replayed++
		}
		sec.Pairs = append(sec.Pairs, judgedPair(j, res.Status, kind))
		if pf, ok := v.take(kind, at, j); ok && j.Confusable() {
			v.sim.Confusable = append(v.sim.Confusable, judgedFinding(pf, j))
			v.sim.ConfusableCount++
		}
	}
	// Best first, as the scoring lists them.
	slices.SortStableFunc(v.sim.Confusable, func(a, b similarity.PairFinding) int { return cmp.Compare(b.Similarity, a.Similarity) })
	slices.SortStableFunc(sec.Pairs, func(a, b lint.JudgedPair) int { return b.Label - a.Label })
	out := lint.NewReport(cat, r.Structural, v.sim, r.Gate)
	out.Suppressed, out.Baseline, out.Tokens, out.Judged = r.Suppressed, r.Baseline, r.Tokens, sec
	return out
}

// verdicts is a copy of the report's verdict lists as the judgments
// rewrite them.
type verdicts struct {
	sim   similarity.Result
	cat   *catalog.Catalog
	index map[string]int // each name's first tool
}

func newVerdicts(sim similarity.Result, cat *catalog.Catalog) *verdicts {
	index := map[string]int{}
	for i, t := range cat.Tools {
		if _, dup := index[t.Name]; !dup {
			index[t.Name] = i
		}
	}
	sim.Confusable = slices.Clone(sim.Confusable)
	sim.Watch = slices.Clone(sim.Watch)
	return &verdicts{sim: sim, cat: cat, index: index}
}

// offline is the pair's verdict as the lists hold it now, and its place
// in its list; "" and -1 when neither holds it.
func (v *verdicts) offline(names [2]string) (similarity.Verdict, int) {
	for i, p := range v.sim.Confusable {
		if ordered(p.A, p.B) == names {
			return similarity.Confusable, i
		}
	}
	for i, p := range v.sim.Watch {
		if ordered(p.A, p.B) == names {
			return similarity.Watch, i
		}
	}
	return "", -1
}

// take takes the judged pair out of the list of its offline verdict (at
// its place at), for the judgment to decide; a pair on neither list is
// found with its scores. False when a tool j names is not in the catalog.
func (v *verdicts) take(kind similarity.Verdict, at int, j *Judgment) (similarity.PairFinding, bool) {
	var pf similarity.PairFinding
	switch kind {
	case similarity.Confusable:
		pf = v.sim.Confusable[at]
		v.sim.Confusable = slices.Delete(v.sim.Confusable, at, at+1)
		v.sim.ConfusableCount = max(v.sim.ConfusableCount-1, 0)
	case similarity.Watch:
		pf = v.sim.Watch[at]
		v.sim.Watch = slices.Delete(v.sim.Watch, at, at+1)
		v.sim.WatchCount = max(v.sim.WatchCount-1, 0)
	default:
		ia, okA := v.index[j.A]
		ib, okB := v.index[j.B]
		if !okA || !okB {
			return pf, false
		}
		p := scored(v.sim, ia, ib)
		if p.A == "" {
			p.A, p.B = v.cat.Tools[p.I].Name, v.cat.Tools[p.J].Name
		}
		pf = similarity.PairFinding{Pair: p}
	}
	return pf, true
}

// judgedPair is a judgment as the Judged section lists it.
func judgedPair(j *Judgment, status Status, offline similarity.Verdict) lint.JudgedPair {
	jp := lint.JudgedPair{A: j.A, B: j.B, Label: j.Label, Verdict: j.Verdict(), Reason: j.Reason,
		By: j.By, Status: string(status), Offline: string(offline)}
	if j.Fix != nil {
		jp.FixA, jp.FixB = j.Fix.A, j.Fix.B
	}
	return jp
}

// judgedFinding is pf made confusable by j: the judge's reason is the
// hint and its sentences the fixes, in place of the scoring's.
func judgedFinding(pf similarity.PairFinding, j *Judgment) similarity.PairFinding {
	pf.Kind = similarity.Confusable
	pf.Hint = fmt.Sprintf("%s %s (label %d): %s", JudgedHint, j.By, j.Label, j.Reason)
	pf.Reasons = nil
	pf.Fixes = nil
	if j.Fix != nil {
		for _, f := range []similarity.Fix{{Tool: j.A, Other: j.B, Sentence: j.Fix.A}, {Tool: j.B, Other: j.A, Sentence: j.Fix.B}} {
			if f.Sentence != "" {
				pf.Fixes = append(pf.Fixes, f)
			}
		}
	}
	// The judge's sentences are the advice; the pair clears only when
	// both descriptions carry theirs.
	if len(pf.Fixes) > 0 {
		var adds []string
		for _, f := range pf.Fixes {
			adds = append(adds, fmt.Sprintf("add to %s %q", f.Tool, f.Sentence))
		}
		pf.Hint += "; " + strings.Join(adds, "; ") + "; the pair clears only when both descriptions say it"
	}
	return pf
}

// JudgedHint starts the hint of a pair a judgment made confusable.
const JudgedHint = "judged confusable by"

// OfflineAccepted is an unjudged pair's offline verdict when the project
// config accepts it.
const OfflineAccepted = "accepted"

// scored is the pair of tools i and j with its scores, from the
// neighbour lists or the ranking; without scores when neither holds it
// (a pair only the judgments file names).
func scored(sim similarity.Result, i, j int) similarity.Pair {
	for _, list := range [][]similarity.Pair{at(sim.Neighbours, i), at(sim.Neighbours, j), sim.Ranked} {
		for _, p := range list {
			if (p.I == i && p.J == j) || (p.I == j && p.J == i) {
				return p
			}
		}
	}
	return similarity.Pair{I: min(i, j), J: max(i, j)}
}

func at(lists [][]similarity.Pair, i int) []similarity.Pair {
	if i < 0 || i >= len(lists) {
		return nil
	}
	return lists[i]
}

func ordered(a, b string) [2]string {
	if b < a {
		a, b = b, a
	}
	return [2]string{a, b}
}
