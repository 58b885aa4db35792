package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/similarity"
	"toolscope/embed/openai"
)

func TestScriptedLabelsBecomeVerdicts(t *testing.T) {
	pairs := pairsOf(4)
	script := map[string][]step{}
	for i, p := range pairs {
		script[p.A.Name+"|"+p.B.Name] = []step{{label: i, reasonFor: "because " + p.A.Name}}
	}
	f := newFake(t, script)
	out := run(t, newModel(t, f, env{"TOOLSCOPE_JUDGE_KEY": "k1"}, nil), pairs, nil, nil, 0)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	for i, r := range out.Results {
		if r.Status != Asked || r.Judgment == nil {
			t.Fatalf("pair %d: status %s (%s)", i, r.Status, r.Why)
		}
		j := r.Judgment
		if j.Label != i || j.Confusable() != (i >= 2) || j.Reason != "because "+r.Pair.A.Name {
			t.Errorf("pair %d: label %d confusable %v reason %q", i, j.Label, j.Confusable(), j.Reason)
		}
		if j.Fix == nil || j.Fix.A != "Use A for "+j.A+"." || j.By != "openai:judge-test" || j.Prompt != PromptVersion || j.Texts != r.Pair.TextHash() {
			t.Errorf("pair %d: recorded %+v", i, j)
		}
	}
	if out.Requests != 4 || f.requests() != 4 || out.Usage.PromptTokens != 400 {
		t.Fatalf("requests %d, served %d, prompt tokens %d", out.Requests, f.requests(), out.Usage.PromptTokens)
	}
	if f.auth[0] != "Bearer k1" {
		t.Errorf("authorization %q", f.auth[0])
	}
}

// The request is the documented one: the rubric as system message, the
// pair as the last user message's one JSON object, JSON answers asked for.
func TestRequestIsTheDocumentedOne(t *testing.T) {
	f := newFake(t, nil)
	a := Tool{Name: "b_search", Description: "Search B.", InputSchema: json.RawMessage(`{"type":"object","properties":{"z":{},"a":{"type":"integer","maximum":1e3}}}`)}
	b := Tool{Name: "a_lookup", Description: "Look up A."}
	run(t, newModel(t, f, env{}, nil), []Pair{NewPair(a, b, []string{"a_lookup", "b_search", "c_other"})}, nil, nil, 0)
	body := f.bodies[0]
	if body["model"] != "judge-test" || body["temperature"] != 0.0 {
		t.Errorf("model %v temperature %v", body["model"], body["temperature"])
	}
	if rf, _ := body["response_format"].(map[string]any); rf["type"] != "json_object" {
		t.Errorf("response_format %v", body["response_format"])
	}
	msgs := body["messages"].([]any)
	if len(msgs) != 2 || msgs[0].(map[string]any)["role"] != "system" || msgs[0].(map[string]any)["content"] != Rubric {
		t.Fatalf("messages %v", msgs)
	}
	last := msgs[1].(map[string]any)
	want := `{"a":{"name":"a_lookup","description":"Look up A."},"b":{"name":"b_search","description":"Search B.","inputSchema":{"type":"object","properties":{"z":{},"a":{"type":"integer","maximum":1e3}}}},"siblings":["a_lookup","b_search","c_other"]}`
	if last["role"] != "user" || last["content"] != want {
		t.Fatalf("last message %v\nwant %s", last["content"], want)
	}
	if f.auth[0] != "" {
		t.Errorf("a key was sent with none set: %q", f.auth[0])
	}
}

func TestMalformedAnswerIsAskedOnceMoreThenUnjudged(t *testing.T) {
	pairs := pairsOf(3)
	f := newFake(t, map[string][]step{
		"t00|t01": {{content: "I think they are confusable"}, {label: 3}},
		"t02|t03": {{content: `{"label": 5, "reason": "x"}`}, {content: "```json\n{\"label\": 2}\n```"}},
		"t04|t05": {{rawBody: "<html>gateway</html>"}, {rawBody: `{"choices": []}`}},
	})
	out := run(t, newModel(t, f, env{}, nil), pairs, nil, nil, 0)
	got := byName(out)
	if r := got["t00|t01"]; r.Status != Asked || r.Judgment.Label != 3 {
		t.Errorf("retry after prose: %s %+v", r.Status, r.Judgment)
	}
	for _, id := range []string{"t02|t03", "t04|t05"} {
		r := got[id]
		if r.Status != Unjudged || r.Judgment != nil || !strings.HasPrefix(r.Why, WhyMalformed) {
			t.Errorf("%s: %s %q; want unjudged, malformed", id, r.Status, r.Why)
		}
		if f.seen[id] != 2 {
			t.Errorf("%s asked %d times; want 2", id, f.seen[id])
		}
	}
	mustContain(t, got["t02|t03"].Why, `no "reason"`)
	if out.Err != nil {
		t.Errorf("a malformed answer stopped the run: %v", out.Err)
	}
}

func TestEndpointTroublesAreRetried(t *testing.T) {
	pairs := pairsOf(4)
	f := newFake(t, map[string][]step{
		"t00|t01": {{status: 429, retryMs: "0.01"}, {label: 2}},
		"t02|t03": {{status: 503}, {status: 500}, {label: 3}},
		"t04|t05": {{hang: true}, {label: 0}},
		"t06|t07": {{hangup: true}, {label: 1}},
	})
	m := newModel(t, f, env{}, func(o *Options) { o.RequestTimeout = 200 * 1e6 })
	out := run(t, m, pairs, nil, nil, 0)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	want := map[string]int{"t00|t01": 2, "t02|t03": 3, "t04|t05": 0, "t06|t07": 1}
	tries := map[string]int{"t00|t01": 2, "t02|t03": 3, "t04|t05": 2, "t06|t07": 2}
	for id, r := range byName(out) {
		if r.Status != Asked || r.Judgment.Label != want[id] {
			t.Errorf("%s: %s %q", id, r.Status, r.Why)
		}
		if f.seen[id] != tries[id] {
			t.Errorf("%s: %d tries; want %d", id, f.seen[id], tries[id])
		}
	}
}

func TestFailedRequestStopsTheRun(t *testing.T) {
	pairs := pairsOf(6)
	script := map[string][]step{}
	for _, p := range pairs {
		script[p.A.Name+"|"+p.B.Name] = []step{{status: 401}}
	}
	f := newFake(t, script)
	out := run(t, newModel(t, f, env{}, func(o *Options) { o.Concurrency = 1 }), pairs, nil, nil, 0)
	var oerr *openai.Error
	if !errors.As(out.Err, &oerr) || oerr.Status != 401 {
		t.Fatalf("Err = %v; want the 401", out.Err)
	}
	mustContain(t, out.Err.Error(), "TOOLSCOPE_JUDGE_KEY")
	if f.requests() != 1 {
		t.Fatalf("%d requests after a refused key; want 1", f.requests())
	}
	for i, r := range out.Results {
		if r.Status != Unjudged || (i > 0 && r.Why != WhyNotAsked) {
			t.Errorf("pair %d: %s %q", i, r.Status, r.Why)
		}
	}
}

func TestConcurrencyIsBounded(t *testing.T) {
	f := newFake(t, nil)
	out := run(t, newModel(t, f, env{}, func(o *Options) { o.Concurrency = 2 }), pairsOf(12), nil, nil, 0)
	if out.Requests != 12 || f.peak > 2 {
		t.Fatalf("requests %d, peak in flight %d; want 12 and at most 2", out.Requests, f.peak)
	}
}

func TestBudgetStopsAsking(t *testing.T) {
	f := newFake(t, nil)
	m := newModel(t, f, env{}, nil)
	plan := NewPlan(m, pairsOf(5), nil, nil, 2)
	if len(plan.Ask()) != 2 || plan.Count(Unjudged) != 5 {
		t.Fatalf("plan asks %d; want 2", len(plan.Ask()))
	}
	out := run(t, m, pairsOf(5), nil, nil, 2)
	if f.requests() != 2 {
		t.Fatalf("%d requests under a budget of 2", f.requests())
	}
	for i, r := range out.Results {
		if (i < 2) != (r.Status == Asked) || (i >= 2 && r.Why != WhyBudget) {
			t.Errorf("pair %d: %s %q", i, r.Status, r.Why)
		}
	}
}

// A recorded run replays with no key and no server: no request, the same
// verdicts.
func TestReplayWithoutKeyOrServer(t *testing.T) {
	pairs := pairsOf(4)
	script := map[string][]step{"t00|t01": {{label: 3}}, "t02|t03": {{label: 0}}, "t04|t05": {{label: 2}}, "t06|t07": {{label: 1}}}
	f := newFake(t, script)
	first := run(t, newModel(t, f, env{}, nil), pairs, nil, nil, 0)
	recs := NewRecords()
	for _, r := range first.Results {
		recs.Add(*r.Judgment)
	}
	path := filepath.Join(t.TempDir(), FileName)
	if err := recs.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	f.Close()
	file, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	second := run(t, nil, pairs, file, nil, 0)
	if len(second.Results) != 4 {
		t.Fatalf("%d results on replay", len(second.Results))
	}
	for i, r := range second.Results {
		if r.Status != Replayed || r.Judgment.Label != first.Results[i].Judgment.Label || r.Judgment.Reason != first.Results[i].Judgment.Reason {
			t.Errorf("pair %d: %s %+v; first run %+v", i, r.Status, r.Judgment, first.Results[i].Judgment)
		}
	}
}

// Changing one tool's text makes its pair's judgment stale: unjudged when
// replaying, asked again (alone) with a model, the cache serving the rest.
func TestChangedTextInvalidatesOnlyItsPair(t *testing.T) {
	pairs := pairsOf(3)
	f := newFake(t, nil)
	m := newModel(t, f, env{}, nil)
	cache := OpenCache(t.TempDir())
	first := run(t, m, pairs, nil, cache, 0)
	file := NewRecords()
	for _, r := range first.Results {
		file.Add(*r.Judgment)
	}
	changed := append([]Pair(nil), pairs...)
	changed[1].B.Description += " Now also deletes."

	replayed := byName(run(t, nil, changed, file, nil, 0))
	if r := replayed["t02|t03"]; r.Status != Unjudged || r.Why != WhyStale {
		t.Errorf("changed pair on replay: %s %q", r.Status, r.Why)
	}
	if r := replayed["t00|t01"]; r.Status != Replayed {
		t.Errorf("unchanged pair on replay: %s", r.Status)
	}

	before := f.requests()
	again := byName(run(t, m, changed, nil, OpenCache(cache.Path()[:len(cache.Path())-len(CacheFile)-1]), 0))
	if f.requests()-before != 1 || again["t02|t03"].Status != Asked || again["t04|t05"].Status != Replayed {
		t.Fatalf("second run sent %d requests (want 1): %v", f.requests()-before, again)
	}
}

func TestPersonJudgmentWinsAndIsNeverAsked(t *testing.T) {
	pairs := pairsOf(1)
	file := NewRecords()
	file.Add(Judgment{A: "t00", B: "t01", Label: 1, Reason: "told apart by the date argument", By: PersonBy, Texts: pairs[0].TextHash()})
	file.Add(Judgment{A: "t00", B: "t01", Label: 3, Reason: "model", By: "openai:other", Prompt: PromptVersion, Texts: pairs[0].TextHash()})
	f := newFake(t, nil)
	for _, m := range []*Model{nil, newModel(t, f, env{}, nil)} {
		out := run(t, m, pairs, file, nil, 0)
		if r := out.Results[0]; r.Status != Replayed || r.Judgment.By != PersonBy || r.Judgment.Confusable() {
			t.Errorf("model %v: %s %+v", m != nil, r.Status, r.Judgment)
		}
	}
	if f.requests() != 0 {
		t.Fatalf("%d requests for a pair a person judged", f.requests())
	}
}

func TestJSONModeRefusedFallsBackOnce(t *testing.T) {
	pairs := pairsOf(2)
	f := newFake(t, map[string][]step{"t00|t01": {{noFormat: true, label: 2}}, "t02|t03": {{noFormat: true, label: 1}}})
	out := run(t, newModel(t, f, env{}, func(o *Options) { o.Concurrency = 1 }), pairs, nil, nil, 0)
	for _, r := range out.Results {
		if r.Status != Asked {
			t.Fatalf("%s: %s %q", r.Pair.A.Name, r.Status, r.Why)
		}
	}
	// First pair: refused, then plain; second pair: plain at once.
	if f.requests() != 3 {
		t.Fatalf("%d requests; want 3", f.requests())
	}
	if _, ok := f.bodies[2]["response_format"]; ok {
		t.Error("response_format sent again after the endpoint refused it")
	}
}

func TestParseAnswer(t *testing.T) {
	for _, tc := range []struct {
		in, err string
		label   int
		fix     bool
	}{
		{in: `{"label": 2, "reason": "r", "fix": {"a": "x", "b": "y"}}`, label: 2, fix: true},
		{in: "```json\n{\"label\":0,\"reason\":\"unrelated\"}\n```", label: 0},
		{in: "<think>hmm</think>\n{\"label\":3,\"reason\":\"dup\",\"fix\":null}", label: 3},
		{in: `{"label": "2", "reason": "r"}`, err: "not 0, 1, 2 or 3"},
		{in: `{"label": 2.0, "reason": "r"}`, err: "not 0, 1, 2 or 3"},
		{in: `{"label": 4, "reason": "r"}`, err: "not 0, 1, 2 or 3"},
		{in: `{"label": -1, "reason": "r"}`, err: "not 0, 1, 2 or 3"},
		{in: `{"reason": "r"}`, err: `no "label"`},
		{in: `{"label": 1, "reason": "  "}`, err: `no "reason"`},
		{in: `{"label": 1, "reason": "r"} and more`, err: "text after"},
		{in: `{"label": 1, "reason": "r", "fix": "add when"}`, err: `"fix" is not`},
		{in: "", err: "empty answer"},
		{in: "<think>never ends", err: "unfinished"},
		{in: "```json\n{\"label\":1}", err: "never closes"},
	} {
		j, err := ParseAnswer(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v; want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || j.Label != tc.label || (j.Fix != nil) != tc.fix {
			t.Errorf("%q: %+v, %v", tc.in, j, err)
		}
	}
}

func TestCandidates(t *testing.T) {
	n := func(pairs ...float64) []Neighbour {
		var out []Neighbour
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, Neighbour{int(pairs[i]), pairs[i+1]})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		nb      [][]Neighbour
		perTool float64
		want    [][2]int
	}{
		{"mutual nearest counted once, then second round by score",
			[][]Neighbour{n(1, .9, 2, .5), n(0, .9, 3, .7), n(3, .6, 0, .5), n(2, .6, 1, .7)}, 1.0,
			[][2]int{{0, 1}, {2, 3}, {1, 3}, {0, 2}}},
		{"budget cuts a round, best score first",
			[][]Neighbour{n(1, .9, 2, .5), n(0, .9, 3, .7), n(3, .6, 0, .5), n(2, .6, 1, .7)}, 0.75,
			[][2]int{{0, 1}, {2, 3}, {1, 3}}},
		{"tools out of similarity do not count",
			[][]Neighbour{n(1, .9), n(0, .9), nil, nil}, 2.5,
			[][2]int{{0, 1}}},
		{"self and out of range skipped", [][]Neighbour{n(0, 1, 5, 1, 1, .2), n(0, .2)}, 2.5, [][2]int{{0, 1}}},
	} {
		got := Candidates(tc.nb, tc.perTool)
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v; want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v; want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

func TestFuse(t *testing.T) {
	// Tool 0's nearest by risk is 1, by words 2; tool 3 is nowhere near 0.
	byRisk := [][]int{{1, 2}, {0, 2}, {1, 0}, {2}}
	byWords := [][]int{{2, 1}, {2}, {0, 1}, {}}
	got := Fuse(4, byRisk, byWords)
	score := func(ranks ...int) float64 {
		s := 0.0
		for _, r := range ranks {
			s += 1 / float64(FuseK+r)
		}
		return s
	}
	want := [][]Neighbour{
		// 0–2 is first by words (both ways) and second by risk for 0,
		// 0–1 first by risk and second by words for 0.
		{{1, score(0, 1)}, {2, score(1, 0)}},
		{{2, score(0, 0)}, {0, score(0, 1)}},
		{{1, score(0, 0)}, {0, score(1, 0)}, {3, score(0)}},
		{{2, score(0)}},
	}
	for i := range want {
		if !slices.EqualFunc(got[i], want[i], func(a, b Neighbour) bool {
			return a.Index == b.Index && math.Abs(a.Score-b.Score) < 1e-12
		}) {
			t.Errorf("tool %d: %v; want %v", i, got[i], want[i])
		}
	}
	// Ties are by index; a pair's better rank of the two tools' counts;
	// only the first FuseDepth of a view count.
	deep := make([]int, FuseDepth+1)
	for k := range deep {
		deep[k] = k + 1
	}
	far := Fuse(FuseDepth+2, [][]int{deep})
	if len(far[0]) != FuseDepth || far[0][FuseDepth-1].Index != FuseDepth {
		t.Errorf("a view's depth: tool 0 keeps %d, last %v", len(far[0]), far[0][len(far[0])-1])
	}
	if len(far[FuseDepth+1]) != 0 {
		t.Errorf("the pair past the depth is listed: %v", far[FuseDepth+1])
	}
}

// The fused candidates reach a pair the risk ranks low when the two tools
// share rare words.
func TestQuestionsReachWordNeighbours(t *testing.T) {
	cat, err := catalog.Parse("t.json", []byte(`[
		{"name": "alpha", "description": "Send an invoice reminder email to a customer", "input_schema": {"type": "object", "properties": {"invoice_id": {"type": "string"}}}},
		{"name": "beta", "description": "Send an invoice reminder email to a customer now", "input_schema": {"type": "object", "properties": {"invoice_id": {"type": "string"}}}},
		{"name": "gamma", "description": "Nudge the payer about a zorblax", "input_schema": {"type": "object", "properties": {"zorblax_ref": {"type": "string"}}}},
		{"name": "delta", "description": "Archive the zorblax ledger", "input_schema": {"type": "object", "properties": {"zorblax_ref": {"type": "string"}}}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	// A risk view that ranks gamma and delta far apart (each other last).
	sim := similarity.Result{Neighbours: [][]similarity.Pair{
		{{I: 0, J: 1}, {I: 0, J: 2}, {I: 0, J: 3}},
		{{I: 0, J: 1}, {I: 1, J: 2}, {I: 1, J: 3}},
		{{I: 0, J: 2}, {I: 1, J: 2}, {I: 2, J: 3}},
		{{I: 0, J: 3}, {I: 1, J: 3}, {I: 2, J: 3}},
	}}
	qs := Questions(cat, sim, 0.5, nil)
	var got []string
	for _, q := range qs {
		got = append(got, q.A.Name+"/"+q.B.Name)
	}
	if !slices.Contains(got, "delta/gamma") || !slices.Contains(got, "alpha/beta") || len(got) != 2 {
		t.Errorf("questions %v; want alpha/beta and delta/gamma", got)
	}
}

func TestRecordsFile(t *testing.T) {
	good := `{"a":"x","b":"y","label":1,"reason":"r","by":"person","texts":"sha256:00"}`
	for _, tc := range []struct{ in, err string }{
		{"# c\n\n" + good + "\n", ""},
		{good + "\n{\"a\":\"x\"", "line 2"},
		{`{"a":"x","b":"x","label":1,"reason":"r","by":"person","texts":"sha256:00"}`, "two different"},
		{`{"a":"x","b":"y","label":7,"reason":"r","by":"person","texts":"sha256:00"}`, "label 7"},
		{`{"a":"x","b":"y","label":1,"reason":"","by":"person","texts":"sha256:00"}`, "reason"},
		{`{"a":"x","b":"y","label":1,"reason":"r","texts":"sha256:00"}`, `"by"`},
		{`{"a":"x","b":"y","label":1,"reason":"r","by":"person","texts":"md5"}`, "texts"},
		{`{"a":"x","b":"y","label":1,"reason":"r","by":"person","texts":"sha256:00","extra":1}`, "unknown field"},
	} {
		r, err := Parse([]byte(tc.in))
		if tc.err == "" {
			if err != nil || r.Len() != 1 {
				t.Errorf("%q: %v", tc.in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: err %v; want %q", tc.in, err, tc.err)
		}
	}
	// Encode then Parse is the same set, ordered by names.
	r := NewRecords()
	r.Add(Judgment{A: "z", B: "m", Label: 2, Reason: "r", Fix: &Fix{A: "for z", B: "for m"}, By: "openai:x", Prompt: "1", Texts: "sha256:1"})
	r.Add(Judgment{A: "a", B: "b", Label: 0, Reason: "r", By: PersonBy, Texts: "sha256:2"})
	back, err := Parse(r.Encode())
	if err != nil {
		t.Fatal(err)
	}
	all := back.All()
	if len(all) != 2 || all[0].A != "a" || all[1].A != "m" || all[1].Fix.A != "for m" {
		t.Fatalf("round trip: %+v", all)
	}
}

func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{`{"label":2,"reason":"r","fix":{"a":"x","b":"y"}}`, "```json\n{}\n```", "<think></think>{}", `{"label":1e400}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		j, err := ParseAnswer(s)
		if err == nil && (j.Label < 0 || j.Label > 3 || strings.TrimSpace(j.Reason) == "") {
			t.Fatalf("accepted %q as %+v", s, j)
		}
	})
}

func FuzzParseRecords(f *testing.F) {
	f.Add([]byte(`{"a":"x","b":"y","label":1,"reason":"r","by":"person","texts":"sha256:00"}` + "\n# c\n"))
	f.Add([]byte(`{"review":"t","problems":[{"category":"unit","param":"p","note":"n"}],"by":"person","texts":"sha256:00"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			return
		}
		for _, j := range r.All() {
			if j.A >= j.B || j.Label < 0 || j.Label > 3 {
				t.Fatalf("accepted %+v", j)
			}
		}
		if _, err := Parse(r.Encode()); err != nil {
			t.Fatalf("re-reading an encoded set: %v", err)
		}
	})
}

// Runs recording at once keep each other's judgments, and a newer
// judgment by the same judge replaces the older one of its pair.
func TestRecordMergesUnderALock(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			j := Judgment{A: fmt.Sprintf("a%02d", i), B: "z", Label: 1, Reason: "r", By: PersonBy, Texts: "sha256:1"}
			if _, err := Record(path, []Judgment{j}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	recs, err := Record(path, []Judgment{{A: "a00", B: "z", Label: 3, Reason: "newer", By: PersonBy, Texts: "sha256:2"}})
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path)
	if err != nil || back.Len() != 12 || recs.Len() != 12 {
		t.Fatalf("%d judgments kept (%d returned), %v; want 12", back.Len(), recs.Len(), err)
	}
	if all := back.All(); all[0].Reason != "newer" || all[0].Texts != "sha256:2" {
		t.Errorf("the newer judgment did not replace the older: %+v", all[0])
	}
	// A symlink at the path is refused, not followed.
	link := filepath.Join(t.TempDir(), FileName)
	if err := os.Symlink(path, link); err != nil {
		t.Skip(err)
	}
	if _, err := Record(link, nil); err == nil {
		t.Error("recorded through a symlink")
	}
}

// A person's accept is a label-1 judgment of the pair's texts; Update
// merges it into the file under the lock, Remove takes only the person's
// judgment of that pair out again, and a changed text makes it stale.
func TestPersonAcceptRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	a := Tool{Name: "search_logs", Description: "Search recent logs.", InputSchema: json.RawMessage(`{}`)}
	b := Tool{Name: "archive_search", Description: "Search archived logs.", InputSchema: json.RawMessage(`{}`)}
	model := Judgment{A: "archive_search", B: "search_logs", Label: 3, Reason: "both search logs", By: "openai:m", Prompt: PromptVersion, Texts: NewPair(a, b, nil).TextHash()}
	if _, err := Record(path, []Judgment{model}); err != nil {
		t.Fatal(err)
	}
	accept := PersonAccept(a, b, "the archive is only for audits")
	if accept.A != "archive_search" || accept.Label != 1 || accept.By != PersonBy || accept.Texts != model.Texts {
		t.Fatalf("the accept's judgment: %+v", accept)
	}
	file, err := Update(path, func(r *Records) { r.Replace(accept) })
	if err != nil || file.Len() != 2 {
		t.Fatalf("after the accept: %v, %d judgments", err, file.Len())
	}
	if j, ok, _ := file.Replay(NewPair(a, b, nil), ""); !ok || j.By != PersonBy {
		t.Errorf("replay prefers %+v %v; want the person's", j, ok)
	}
	changed := b
	changed.Description += " Older than 30 days."
	if _, ok, stale := file.Replay(NewPair(a, changed, nil), ""); ok || !stale {
		t.Errorf("after a text change: found %v, stale %v; want stale", ok, stale)
	}
	if _, err = Update(path, func(r *Records) {
		if n := r.Remove("search_logs", "archive_search", PersonBy); n != 1 {
			t.Errorf("removed %d", n)
		}
	}); err != nil {
		t.Fatal(err)
	}
	again, err := ReadFile(path)
	if err != nil || again.Len() != 1 || again.All()[0].By != "openai:m" {
		t.Errorf("after the undo the file holds %v (%v); want the model's judgment only", again.All(), err)
	}
}

// Without a scoring (similarity off) nothing is asked, whatever words the
// tools share; a tool the scoring left out (a repeated name) is in no
// question.
func TestQuestionsFollowTheScoring(t *testing.T) {
	cat, err := catalog.Parse("t.json", []byte(`[
		{"name": "alpha", "description": "Send an invoice reminder email", "input_schema": {"type": "object"}},
		{"name": "beta", "description": "Send an invoice reminder email now", "input_schema": {"type": "object"}},
		{"name": "alpha", "description": "Send an invoice reminder email again", "input_schema": {"type": "object"}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	if qs := Questions(cat, similarity.Result{}, DefaultPerTool, nil); len(qs) != 0 {
		t.Errorf("%d questions without a scoring", len(qs))
	}
	sim := similarity.Result{Neighbours: [][]similarity.Pair{{{I: 0, J: 1}}, {{I: 0, J: 1}}, nil}}
	qs := Questions(cat, sim, DefaultPerTool, nil)
	if len(qs) != 1 || qs[0].Names() != [2]string{"alpha", "beta"} || qs[0].A.Description != "Send an invoice reminder email" {
		t.Errorf("questions %+v; want alpha (the first) and beta only", qs)
	}
}

// In a merged catalog, a pair of two servers the cross-server band made
// confusable is asked even when no tool's candidates hold it; a pair the
// catalog's own band flagged is not added.
func TestQuestionsAskCrossServerPairs(t *testing.T) {
	cat, err := catalog.Parse("t.json", []byte(`[
		{"name": "a__search", "description": "Search the web", "input_schema": {"type": "object"}},
		{"name": "a__fetch", "description": "Fetch a page", "input_schema": {"type": "object"}},
		{"name": "b__web_search", "description": "Look things up online", "input_schema": {"type": "object"}},
		{"name": "b__crawl", "description": "Crawl a site", "input_schema": {"type": "object"}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	sim := similarity.Result{
		Neighbours: [][]similarity.Pair{{{I: 0, J: 1}}, {{I: 0, J: 1}}, {{I: 2, J: 3}}, {{I: 2, J: 3}}},
		Confusable: []similarity.PairFinding{
			{Kind: similarity.Confusable, Pair: similarity.Pair{A: "a__search", B: "b__web_search", I: 0, J: 2}, Band: similarity.BandCrossServer},
			{Kind: similarity.Confusable, Pair: similarity.Pair{A: "a__fetch", B: "b__crawl", I: 1, J: 3}},
		},
	}
	var got []string
	for _, q := range Questions(cat, sim, 0.5, nil) {
		got = append(got, q.A.Name+"/"+q.B.Name)
	}
	if !slices.Contains(got, "a__search/b__web_search") || slices.Contains(got, "a__fetch/b__crawl") {
		t.Errorf("questions %v; want the cross-server pair asked and the other left to the candidates", got)
	}
}
