package judge

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"toolscope/core/calibration"
	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/embed"
	_ "toolscope/embed/use" // the default embedder, as lint runs it
)

// An endpoint that answers as the reviewers did, reading the documented
// request, turns the development catalogs into confusable verdicts: every
// verdict is one the reviewers call confusable (the judge overrides the
// offline band), and the recall is the candidate set's, with at most 2.5
// pairs asked per tool. Both labelled sets are measured: fourteen
// catalogs with one reviewer's labels, five larger ones with two
// reviewers' averaged.
func TestOracleJudgeOnTheDevelopmentCatalogs(t *testing.T) {
	if testing.Short() {
		t.Skip("embeds 19 catalogs")
	}
	dir := "../calibration/testdata"
	one, err := calibration.ReadLabels(filepath.Join(dir, "confusion", "labels.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	two, err := calibration.ReadReviewers(filepath.Join(dir, "confusion-dev2", "labels-A.jsonl"), filepath.Join(dir, "confusion-dev2", "labels-B.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var current atomic.Value
	positive := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Messages []struct{ Content string } }
		json.NewDecoder(r.Body).Decode(&body)
		var pair struct{ A, B struct{ Name string } }
		json.Unmarshal([]byte(body.Messages[len(body.Messages)-1].Content), &pair)
		label := 0
		if positive[current.Load().(string)+"|"+min(pair.A.Name, pair.B.Name)+"|"+max(pair.A.Name, pair.B.Name)] {
			label = 3
		}
		answer, _ := json.Marshal(map[string]any{"label": label, "reason": "as reviewed"})
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": string(answer)}}}})
	}))
	defer srv.Close()
	m, err := New(Options{Model: "oracle", BaseURL: srv.URL + "/v1", Getenv: env{}.get})
	if err != nil {
		t.Fatal(err)
	}
	e, err := embed.Open("use", embed.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ tp, fp, fn, tools, requests int }
	measure := func(set string, labels []calibration.Label) tally {
		for _, l := range labels {
			if l.Label >= calibration.Positive {
				positive[l.Catalog+"|"+min(l.A, l.B)+"|"+max(l.A, l.B)] = true
			}
		}
		var n tally
		files, _ := filepath.Glob(filepath.Join(dir, set, "catalogs", "*.json"))
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".json")
			current.Store(name)
			cat, err := catalog.Load(f, nil)
			if err != nil {
				t.Fatal(err)
			}
			opts := lint.DefaultOptions()
			opts.Embedder = e
			opts.Neighbours = FuseDepth
			r, err := lint.Analyze(context.Background(), cat, opts)
			if err != nil {
				t.Fatal(err)
			}
			plan := NewPlan(m, Questions(cat, r.Similarity, DefaultPerTool, nil), nil, nil, 0)
			out := m.Execute(context.Background(), plan, nil, nil)
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			n.requests += out.Requests
			n.tools += len(cat.Tools)
			if per := float64(out.Requests) / float64(len(cat.Tools)); per > DefaultPerTool {
				t.Errorf("%s: %.2f pairs asked per tool; at most %.1f", name, per, DefaultPerTool)
			}
			r = Apply(r, cat, out.Results, ApplyOptions{Judge: m.ID(), Asked: out.Requests})
			got := map[string]bool{}
			for _, p := range r.Similarity.Confusable {
				got[name+"|"+min(p.A, p.B)+"|"+max(p.A, p.B)] = true
			}
			for k := range positive {
				if !strings.HasPrefix(k, name+"|") {
					continue
				}
				if got[k] {
					n.tp++
					delete(got, k)
				} else {
					n.fn++
				}
			}
			n.fp += len(got)
		}
		return n
	}
	f1 := func(n tally) float64 { return 2 * float64(n.tp) / float64(2*n.tp+n.fp+n.fn) }
	first, second := measure("confusion", one), measure("confusion-dev2", two)
	pooled := tally{first.tp + second.tp, first.fp + second.fp, first.fn + second.fn, first.tools + second.tools, first.requests + second.requests}
	for _, c := range []struct {
		set   string
		n     tally
		floor float64
	}{
		// Measured: 59 of 69 (F1 0.922), 50 of 73 (F1 0.813), pooled
		// 109 of 142 (F1 0.869). The floors leave room for small changes
		// in the offline ranking; the risk's view alone, unfused, gave
		// 0.913, 0.719 and 0.822, below the second and pooled floors.
		{"first set", first, 0.91},
		{"second set", second, 0.78},
		{"pooled", pooled, 0.85},
	} {
		t.Logf("%s: tp %d fp %d fn %d: F1 %.3f, %d requests for %d tools (%.2f per tool)", c.set, c.n.tp, c.n.fp, c.n.fn, f1(c.n), c.n.requests, c.n.tools, float64(c.n.requests)/float64(c.n.tools))
		if c.n.fp != 0 || f1(c.n) < c.floor {
			t.Errorf("%s: F1 %.3f with %d false positives; want %.2f or more and none", c.set, f1(c.n), c.n.fp, c.floor)
		}
	}
}
