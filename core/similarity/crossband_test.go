package similarity

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/internal/testcat"
)

// onServers is cat's tools spread over n servers in turn, as a merged
// catalog of n servers holds them.
func onServers(cat *catalog.Catalog, n int) *catalog.Catalog {
	merged := &catalog.Catalog{Source: "merged"}
	for k, tl := range cat.Tools {
		q := *tl
		q.Server = fmt.Sprintf("s%d", k%n)
		merged.Tools = append(merged.Tools, &q)
	}
	return merged
}

// A catalog merged from several servers: every pair of two servers is
// judged by the cross-server band, every pair inside one server by the
// catalog's own bands, exactly as when the catalog stands alone. The
// verdicts are checked against every pair's risk (the whole ranking).
func TestCrossServerBand(t *testing.T) {
	ctx := context.Background()
	cat := testcat.Sample(t, 90)
	opts := mockOptions(ScoringRisk)
	opts.RankLimit, opts.VerdictLimit = 0, 0
	alone, err := judged(ctx, cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	risks := make([]float64, len(alone.Ranked))
	for k, p := range alone.Ranked {
		risks[k] = p.Similarity
	}
	// Bands placed inside the mock's risks, so each verdict is exercised:
	// the catalog's confusable start at its 20th riskiest pair, review
	// from its 60th; across servers, confusable from the 120th.
	m := DefaultRiskModel()
	m.Threshold, m.Watch, m.Twins = risks[19], risks[59], risks[119]
	opts.RiskModel = m
	alone, err = judged(ctx, cat, opts)
	if err != nil {
		t.Fatal(err)
	}

	merged := onServers(cat, 3)
	server := map[string]string{}
	for _, tl := range merged.Tools {
		server[tl.Name] = tl.Server
	}
	both, err := judged(ctx, merged, opts)
	if err != nil {
		t.Fatal(err)
	}
	if both.Thresholds.CrossServer != m.Twins || alone.Thresholds.CrossServer != 0 {
		t.Fatalf("cross-server start %v merged, %v alone; want %v and 0", both.Thresholds.CrossServer, alone.Thresholds.CrossServer, m.Twins)
	}
	if data, _ := json.Marshal(alone.Thresholds); strings.Contains(string(data), "crossServer") {
		t.Errorf("a single catalog's thresholds carry a cross-server band: %s", data)
	}

	got := func(sim Result) map[[2]string]verdict {
		out := map[[2]string]verdict{}
		for _, p := range slices.Concat(sim.Confusable, sim.Watch) {
			out[[2]string{p.A, p.B}] = verdict{p.Kind, p.Band}
		}
		return out
	}
	// The catalog's review start as the thresholds hold it (the band is
	// rounded to nine decimals).
	watch := alone.Thresholds.Confusability - alone.Thresholds.WatchBand
	// Across servers a pair is confusable when its risk with its twin
	// evidence reaches the start; the evidence is worked out here from
	// the names and the whole ranking (each tool's best on each server).
	lifted, candidates := 0, 0
	want := func(ranked []Pair, crossing func(a, b string) bool) map[[2]string]verdict {
		best := map[[2]string]float64{}
		for _, p := range ranked {
			if crossing(p.A, p.B) {
				best[[2]string{p.A, server[p.B]}] = max(best[[2]string{p.A, server[p.B]}], p.Similarity)
				best[[2]string{p.B, server[p.A]}] = max(best[[2]string{p.B, server[p.A]}], p.Similarity)
			}
		}
		out := map[[2]string]verdict{}
		for _, p := range ranked {
			conf, floor, band := m.Threshold, watch, ""
			isConf := p.Similarity >= conf
			if crossing(p.A, p.B) {
				conf, floor, band = m.Twins, min(watch, m.Twins), BandCrossServer
				x := NameTraits(p.A, server[p.A], p.B, server[p.B])
				if p.Similarity >= best[[2]string{p.A, server[p.B]}] && p.Similarity >= best[[2]string{p.B, server[p.A]}] {
					x[TraitMutual] = 1
				}
				isConf = m.TwinLogit(p.Similarity, x) >= logit(m.Twins)
				if isConf && p.Similarity < m.Twins {
					lifted++
				}
				if isConf && p.Similarity < floor {
					candidates++ // kept by the kernel apart from the review list
				}
			}
			switch {
			case isConf:
				out[[2]string{p.A, p.B}] = verdict{Confusable, band}
			case p.Similarity >= floor:
				out[[2]string{p.A, p.B}] = verdict{Watch, band}
			}
		}
		return out
	}
	never := func(a, b string) bool { return false }
	across := func(a, b string) bool { return server[a] != server[b] }
	if g, w := got(alone), want(alone.Ranked, never); !mapsEqual(g, w) {
		t.Errorf("alone: %d verdicts, want %d", len(g), len(w))
	}
	g, w := got(both), want(both.Ranked, across)
	if !mapsEqual(g, w) {
		t.Errorf("merged: %d verdicts, want %d", len(g), len(w))
	}
	crossed, inside := 0, 0
	for k, v := range w {
		if v.band != "" {
			crossed++
		} else if v != (verdict{}) {
			inside++
			if alone := want(alone.Ranked, never)[k]; alone != v {
				t.Errorf("%v inside one server moved: %v alone, %v merged", k, alone, v)
			}
		}
	}
	if lifted == 0 || candidates == 0 {
		t.Fatalf("%d cross-server pairs under the start lifted by their evidence, %d of them under the review start: the evidence is not exercised", lifted, candidates)
	}
	if crossed == 0 || inside == 0 {
		t.Fatalf("%d cross-server and %d one-server verdicts: the bands are not both exercised", crossed, inside)
	}
	if both.ConfusableCount != countKind(w, Confusable) || both.WatchCount != countKind(w, Watch) {
		t.Errorf("counts %d/%d, want %d/%d", both.ConfusableCount, both.WatchCount, countKind(w, Confusable), countKind(w, Watch))
	}

	// Judged again at other thresholds (as the explorer does), the kept
	// pairs answer, or the pairs are scored again, with the same rule.
	scores, err := Score(ctx, merged, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, twins := range []float64{risks[40], risks[200], m.Twins} {
		th := scores.Thresholds()
		th.CrossServer = twins
		m2 := *m
		m2.Twins = twins
		sim := scores.Judge(th)
		saved := m
		m = &m2
		if g, w := got(sim), want(sim.Ranked, across); !mapsEqual(g, w) {
			t.Errorf("judged with the cross-server start at %v: %d verdicts, want %d", twins, len(g), len(w))
		}
		m = saved
	}

	// A threshold of the user's own applies to every pair.
	at := m.Threshold
	opts.Threshold = &at
	user, err := judged(ctx, merged, opts)
	if err != nil {
		t.Fatal(err)
	}
	if user.Thresholds.CrossServer != 0 {
		t.Errorf("--threshold kept a cross-server band: %v", user.Thresholds.CrossServer)
	}
	if g, w := got(user), want(user.Ranked, never); !mapsEqual(g, w) {
		t.Errorf("with a threshold of the user's: %d verdicts, want %d", len(g), len(w))
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// verdict is a pair's verdict and the band that gave it.
type verdict struct {
	kind Verdict
	band string
}

func countKind[K comparable](m map[K]verdict, kind Verdict) int {
	n := 0
	for _, v := range m {
		if v.kind == kind {
			n++
		}
	}
	return n
}
