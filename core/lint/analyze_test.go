package lint

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"toolscope/core/catalog"
	"toolscope/core/internal/testcat"
	"toolscope/core/similarity"
	"toolscope/embed"
)

func TestSkippedSimilarity(t *testing.T) {
	cat := testcat.Parse(t, testcat.List(testcat.Tool("a", testcat.Long+" for x", ""), testcat.Tool("b", testcat.Long+" for y", "")))
	r, err := Analyze(context.Background(), cat, DefaultOptions())
	if err != nil || r.Similarity.Analyzed || !r.OK || r.Similarity.Ranked == nil || !r.Similarity.Thresholds.ReportOnly() || r.Similarity.Scoring != similarity.ScoringRisk {
		t.Errorf("no embedder: %v %+v, want analyzed false, ok, empty lists", err, r)
	}
	one := testcat.Parse(t, testcat.List(testcat.Tool("a", testcat.Long+" for x", ""), testcat.Tool("a", "dup", "")))
	r, err = Analyze(context.Background(), one, mockOptions(similarity.ScoringAdaptive))
	if err != nil || r.Similarity.Analyzed || r.Similarity.PairCount != 0 || r.OK {
		t.Errorf("one distinct tool: %v %+v, want analyzed false and the duplicate failing the gate", err, r)
	}
}

func TestVerdictLimitKeepsTheGate(t *testing.T) {
	cat := testcat.Sample(t, 120)
	opts := mockOptions(similarity.ScoringCosine)
	full, err := Analyze(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.VerdictLimit = 5
	cut, err := Analyze(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	if full.Summary.Confusable <= 5 || full.Summary.Watch <= 5 {
		t.Fatalf("the test needs more than 5 verdicts of each kind, got %+v", full.Summary)
	}
	if cut.Summary != full.Summary {
		t.Errorf("summary with limit %+v, without %+v", cut.Summary, full.Summary)
	}
	if cut.OK || full.OK {
		t.Errorf("confusable pairs must fail the gate")
	}
}

func mockOptions(scoring similarity.Scoring) Options {
	o := DefaultOptions()
	o.Embedder = embed.Mock{}
	o.Scoring = scoring
	return o
}

func TestProgress(t *testing.T) {
	cat := testcat.Sample(t, 150)
	for _, scoring := range []similarity.Scoring{similarity.ScoringCosine, similarity.ScoringAdaptive} {
		opts := mockOptions(scoring)
		last := map[similarity.Stage]similarity.Progress{}
		var order []similarity.Stage
		opts.Progress = func(p similarity.Progress) {
			if p.Done > p.Total || p.Done < last[p.Stage].Done {
				t.Errorf("%s progress went %+v -> %+v", scoring, last[p.Stage], p)
			}
			if len(order) == 0 || order[len(order)-1] != p.Stage {
				order = append(order, p.Stage)
			}
			last[p.Stage] = p
		}
		if _, err := Analyze(context.Background(), cat, opts); err != nil {
			t.Fatal(err)
		}
		// Every stage says when it starts, so a long one is never shown
		// as the one before it.
		if want := []similarity.Stage{StageRules, similarity.StageEmbed, similarity.StageFeatures, similarity.StageScore, similarity.StageVerdicts}; !slices.Equal(order, want) {
			t.Errorf("%s: stages %v, want %v", scoring, order, want)
		}
		passes := map[similarity.Scoring]int{similarity.ScoringCosine: 1, similarity.ScoringAdaptive: 2}[scoring]
		if e, s := last[similarity.StageEmbed], last[similarity.StageScore]; e.Done != e.Total || e.Total == 0 || s.Done != s.Total || s.Total != passes*150*149/2 {
			t.Errorf("%s: last progress embed %+v score %+v", scoring, e, s)
		}
	}
}

func ExampleAnalyze() {
	cat, _ := catalog.Parse("ops.json", []byte(`[
  {"name": "get_volume_status", "description": "Live status of one volume."},
  {"name": "hist_volume_status", "description": "Recorded status of one volume."},
  {"name": "list_pools", "description": "Lists storage pools."}]`))
	opts := DefaultOptions()
	opts.Embedder = embed.Mock{}
	opts.Scoring = similarity.ScoringCosine
	r, _ := Analyze(context.Background(), cat, opts)
	for _, p := range r.Similarity.Confusable {
		fmt.Printf("%s %s %.4f %s %v\n", p.A, p.B, p.Similarity, p.Axis.Kind, p.Axis.Qualifiers)
	}
	fmt.Println("ok:", r.OK)
	// Output:
	// get_volume_status hist_volume_status 0.9614 qualifier [get hist]
	// ok: false
}

// The review list (watch) is advisory: it fails the gate only when the
// gate is asked to count it; confusable pairs and errors always do.
func TestReviewFailsOnlyWhenAsked(t *testing.T) {
	cat := testcat.Parse(t, testcat.List(testcat.Tool("a", testcat.Long+" for x", ""), testcat.Tool("b", testcat.Long+" for y", "")))
	watch := similarity.PairFinding{Kind: similarity.Watch, Pair: similarity.Pair{A: "a", B: "b", J: 1}}
	confusable := watch
	confusable.Kind = similarity.Confusable
	cases := []struct {
		name string
		sim  similarity.Result
		gate Gate
		ok   bool
	}{
		{"review pairs, default gate", similarity.Result{Watch: []similarity.PairFinding{watch}}, Gate{FailOn: SeverityError}, true},
		{"review pairs, --fail-on review", similarity.Result{Watch: []similarity.PairFinding{watch}}, Gate{FailOn: SeverityError, Review: true}, false},
		{"review pairs, --strict", similarity.Result{Watch: []similarity.PairFinding{watch}}, Gate{FailOn: SeverityWarn, Review: true}, false},
		{"review counted beyond the list", similarity.Result{WatchCount: 3}, Gate{FailOn: SeverityError, Review: true}, false},
		{"no review pair, --fail-on review", similarity.Result{}, Gate{FailOn: SeverityError, Review: true}, true},
		{"a confusable pair, default gate", similarity.Result{Confusable: []similarity.PairFinding{confusable}}, Gate{FailOn: SeverityError}, false},
	}
	for _, c := range cases {
		if r := NewReport(cat, nil, c.sim, c.gate); r.OK != c.ok {
			t.Errorf("%s: ok %v, want %v", c.name, r.OK, c.ok)
		}
	}
}
