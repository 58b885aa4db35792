package judge

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"toolscope/core/lint"
	"toolscope/core/similarity"
)

func TestWilsonInterval(t *testing.T) {
	// Reference values of the 95% Wilson score interval (z = 1.96).
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 0, 0, 1},
		{0, 10, 0, 0.2775},
		{5, 10, 0.2366, 0.7634},
		{10, 10, 0.7225, 1},
		{1, 6, 0.0301, 0.5635},
		{3, 100, 0.0103, 0.0845},
	} {
		lo, hi := Wilson(tc.k, tc.n)
		if math.Abs(lo-tc.lo) > 5e-4 || math.Abs(hi-tc.hi) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = %.4f–%.4f; want %.4f–%.4f", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// offlineReport is a lint report on tools a..d: every pair ranked, the
// verdicts given, and the pairs a config accepted.
func offlineReport(th float64, verdicts map[[2]string]similarity.Verdict, accepted map[[2]string]string) *lint.Report {
	names := []string{"a", "b", "c", "d"}
	r := &lint.Report{Similarity: similarity.Result{Embedder: "mock", Scoring: similarity.ScoringRisk, Thresholds: similarity.Thresholds{Confusability: th}}}
	score := 0.1
	for i, x := range names {
		for _, y := range names[i+1:] {
			score += 0.05
			p := similarity.Pair{A: x, B: y, Similarity: score}
			r.Similarity.Ranked = append(r.Similarity.Ranked, p)
			v, ok := verdicts[[2]string{x, y}]
			if !ok {
				continue
			}
			f := similarity.PairFinding{Kind: v, Pair: p}
			switch {
			case accepted[[2]string{x, y}] != "":
				f.Suppression = accepted[[2]string{x, y}]
				if r.Suppressed == nil {
					r.Suppressed = &lint.Suppressed{Config: "dir/toolscope.yaml"}
				}
				r.Suppressed.Pairs = append(r.Suppressed.Pairs, f)
			case v == similarity.Confusable:
				r.Similarity.Confusable = append(r.Similarity.Confusable, f)
			default:
				r.Similarity.Watch = append(r.Similarity.Watch, f)
			}
		}
	}
	return r
}

func TestCheckOfflineSortsThePairs(t *testing.T) {
	// a: 4 requests, one to b, one to no tool, one to "zz" (outside the
	// catalog); b: 2, one to c; c: 2, both its own; d: none sent.
	cases := []ProbeCase{
		{Tool: "a", Picked: "a"}, {Tool: "a", Picked: "b"}, {Tool: "a", Picked: NoPick}, {Tool: "a", Picked: "zz"},
		{Tool: "b", Picked: "b"}, {Tool: "b", Picked: "c"},
		{Tool: "c", Picked: "c"}, {Tool: "c", Picked: "c"},
	}
	p := Tabulate("m", []string{"a", "b", "c", "d"}, cases)
	type pairs = map[[2]string]similarity.Verdict
	for _, tc := range []struct {
		name     string
		th       float64
		verdicts pairs
		accepted map[[2]string]string
		missed   []string
		never    []string
		tally    Tally
		ab       OfflineVerdict
	}{
		{
			name: "nothing flagged: both confusions missed, a-c quiet, d's pairs uncovered",
			th:   0.9, missed: []string{"b-c", "a-b"}, never: []string{},
			tally: Tally{Pairs: 3, Missed: 2, Neither: 1},
			ab:    OfflineVerdict{Score: 0.15, Verdict: OfflineNone},
		},
		{
			name: "a-b review, a-c and c-d confusable: a-c never confused, c-d uncovered",
			th:   0.2, verdicts: pairs{{"a", "b"}: similarity.Watch, {"a", "c"}: similarity.Confusable, {"c", "d"}: similarity.Confusable},
			missed: []string{"b-c"}, never: []string{"a-c"},
			tally: Tally{Pairs: 3, ConfusedFlagged: 1, Missed: 1, NeverConfused: 1},
			ab:    OfflineVerdict{Score: 0.15, Verdict: OfflineWatch},
		},
		{
			name: "accepted pairs count as not flagged",
			th:   0.1, verdicts: pairs{{"a", "b"}: similarity.Confusable, {"a", "c"}: similarity.Confusable},
			accepted: map[[2]string]string{{"a", "b"}: "distinct", {"a", "c"}: "distinct"},
			missed:   []string{"b-c", "a-b"}, never: []string{},
			tally: Tally{Pairs: 3, Missed: 2, Neither: 1},
			ab:    OfflineVerdict{Score: 0.15, Verdict: OfflineConfusable, Accepted: "distinct"},
		},
		{
			name: "report-only: no lists",
			th:   math.Inf(1), missed: []string{}, never: []string{},
			ab: OfflineVerdict{Score: 0.15, Verdict: OfflineNone},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := p.CheckOffline(NewOfflineScores(offlineReport(tc.th, tc.verdicts, tc.accepted)))
			names := func(list []PairCheck) []string {
				out := []string{}
				for _, c := range list {
					out = append(out, c.A+"-"+c.B)
				}
				return out
			}
			o := got.Offline
			if !reflect.DeepEqual(names(o.Missed), tc.missed) || !reflect.DeepEqual(names(o.NeverConfused), tc.never) || o.Tally != tc.tally {
				t.Errorf("missed %v never %v tally %+v; want %v %v %+v", names(o.Missed), names(o.NeverConfused), o.Tally, tc.missed, tc.never, tc.tally)
			}
			for _, c := range got.Confusions {
				switch {
				case c.Picked == "b":
					if c.Offline == nil || !near(*c.Offline, tc.ab) {
						t.Errorf("a→b: offline %+v; want %+v", c.Offline, tc.ab)
					}
				case c.Picked == NoPick || c.Picked == "zz":
					if c.Offline != nil {
						t.Errorf("%s: a verdict for a pick outside the catalog", c.Sentence())
					}
				}
			}
		})
	}
	// The missed pairs, highest rate first: b-c (1 of 4), then a-b, which
	// rests on a's 4 and b's 2 requests, one of them crossing.
	got := p.CheckOffline(NewOfflineScores(offlineReport(0.9, nil, nil)))
	ab := got.Offline.Missed[1]
	if ab.AB != 1 || ab.OfA != 4 || ab.BA != 0 || ab.OfB != 2 || ab.Count() != 1 || ab.Of() != 6 {
		t.Errorf("a-b measured %+v", ab)
	}
	// The input is not changed.
	if p.Offline != nil || p.Confusions[0].Offline != nil {
		t.Error("CheckOffline changed the probe it was given")
	}
}

func near(a, b OfflineVerdict) bool {
	return math.Abs(a.Score-b.Score) < 1e-9 && a.Verdict == b.Verdict && a.Accepted == b.Accepted
}

// A ranking that kept only its top: a pair of the catalog under it is not
// flagged and scores under the lowest kept ("risk under 0.15"), still
// counted and listed when the model confused it; a name outside the
// catalog still gets nothing.
func TestCheckOfflineBelowTheKeptRanking(t *testing.T) {
	r := offlineReport(0.3, map[[2]string]similarity.Verdict{{"c", "d"}: similarity.Confusable}, nil)
	r.Similarity.PairCount = len(r.Similarity.Ranked)
	// Keep the top three of the six pairs (scores rise along the list, so
	// keep its end, best first, as a ranking does).
	ranked := r.Similarity.Ranked
	r.Similarity.Ranked = []similarity.Pair{ranked[5], ranked[4], ranked[3]}
	o := NewOfflineScores(r)
	cases := []ProbeCase{{Tool: "a", Picked: "b"}, {Tool: "a", Picked: "zz"}, {Tool: "b", Picked: "b"}, {Tool: "c", Picked: "c"}, {Tool: "d", Picked: "d"}}
	got := Tabulate("m", []string{"a", "b", "c", "d"}, cases).CheckOffline(o)
	var ab *Confusion
	for i, c := range got.Confusions {
		switch c.Picked {
		case "b":
			ab = &got.Confusions[i]
		case "zz":
			if c.Offline != nil {
				t.Errorf("a name outside the catalog has a verdict: %+v", c.Offline)
			}
		}
	}
	floor := ranked[3].Similarity
	if ab == nil || ab.Offline == nil || !ab.Offline.Below || ab.Offline.Score != floor || ab.Offline.Verdict != OfflineNone {
		t.Fatalf("a→b: %+v; want below %.2f, not flagged", ab, floor)
	}
	if s := ab.suffix(got.Offline); s != fmt.Sprintf(" (offline: risk under %.2f, not flagged)", floor) {
		t.Errorf("a→b's line adds %q", s)
	}
	if len(got.Offline.Missed) != 1 || got.Offline.Missed[0].A != "a" || got.Offline.Tally.Pairs != 6 {
		t.Errorf("missed %+v, tally %+v; want a↔b missed and all 6 pairs of the covered tools counted", got.Offline.Missed, got.Offline.Tally)
	}
	// Every pair kept: nothing is below.
	r.Similarity.Ranked = ranked
	if v, ok := NewOfflineScores(r).Verdict("a", "b"); !ok || v.Below {
		t.Errorf("with every pair ranked: %+v %v", v, ok)
	}
}

// A pair's check in JSON has the documented fields, flat: a, b, ab, ofA,
// ba, ofB, rate, low, high, offline.
func TestPairCheckJSON(t *testing.T) {
	c := PairCheck{Crossing: Crossing{A: "a", B: "b", AB: 1, OfA: 5, BA: 0, OfB: 5}, Rate: 0.1, Low: 0.02, High: 0.4, Offline: OfflineVerdict{Score: 0.05, Verdict: OfflineNone}}
	data, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"a", "ab", "b", "ba", "high", "low", "ofA", "ofB", "offline", "rate"}; !slices.Equal(keys, want) {
		t.Errorf("keys %v; want %v", keys, want)
	}
}
