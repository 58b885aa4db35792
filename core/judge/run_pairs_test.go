package judge

import (
	"context"
	"errors"
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
)

// heard is what a run told its front end through IO.
type heard struct {
	mu       sync.Mutex
	lines    []string
	progress []string
	cleared  int
	// asked holds the whys Confirm was asked with; answer is its answer.
	asked  []string
	answer bool
	// wrote holds the paths CheckWrite was asked about; refuse, its error.
	wrote  []string
	refuse error
}

func (h *heard) io() IO {
	return IO{
		Say:      func(line string) { h.mu.Lock(); h.lines = append(h.lines, line); h.mu.Unlock() },
		Progress: func(line string) { h.mu.Lock(); h.progress = append(h.progress, line); h.mu.Unlock() },
		Clear:    func() { h.mu.Lock(); h.cleared++; h.mu.Unlock() },
		Confirm:  func(why string) bool { h.asked = append(h.asked, why); return h.answer },
		CheckWrite: func(path string) error {
			h.wrote = append(h.wrote, path)
			return h.refuse
		},
	}
}

// pairRunReport is applyCatalog linted with a cosine scoring that keeps
// three neighbours a tool: the twins confusable offline, the weather
// pair not.
func pairRunReport(t *testing.T) (*catalog.Catalog, *lint.Report) {
	t.Helper()
	cat, err := catalog.Parse("c.json", []byte(applyCatalog))
	if err != nil {
		t.Fatal(err)
	}
	opts := lint.DefaultOptions()
	opts.Embedder = embed.Mock{}
	opts.Scoring = similarity.ScoringCosine
	opts.Neighbours = 3
	th := 0.99
	opts.Threshold = &th
	r, err := lint.Analyze(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	return cat, r
}

// TestRunPairsAsksSaysRecordsAndReplays drives whole pair runs through
// the request: a judge asked with a progress line, the estimate said
// first and the judgments recorded; then the file replaying them with no
// model and nothing said; a budget said in the estimate line; a judge
// that stops part-way; an interrupted run; a run with nothing to do.
func TestRunPairsAsksSaysRecordsAndReplays(t *testing.T) {
	cat, offline := pairRunReport(t)
	questions := len(Questions(cat, offline.Similarity, DefaultPerTool, nil))
	if questions != 6 {
		t.Fatalf("%d questions, want the 6 pairs of 4 tools", questions)
	}
	f := newFake(t, map[string][]step{
		"get_weather|get_forecast": {{label: 3}}, "get_forecast|get_weather": {{label: 3}},
		"search_logs|search_log_lines": {{label: 0}}, "search_log_lines|search_logs": {{label: 0}},
	})
	endpoint := f.URL + "/v1/chat/completions"
	path := filepath.Join(t.TempDir(), FileName)
	var h heard
	req := PairRunRequest{Report: offline, Catalog: cat, Path: path, Record: true, Cache: OpenCache(t.TempDir()),
		Model: newModel(t, f, env{}, func(o *Options) { o.Concurrency = 1 }), Price: &Price{}, IO: h.io()}
	res, err := RunPairs(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	wantLines := []string{
		"judge openai:judge-test at " + endpoint + ": 6 candidate pairs, 0 replayed, 6 to ask; estimate: " + EstimatePairs(Questions(cat, offline.Similarity, DefaultPerTool, nil), &Price{}).String("--judge-price"),
		"recorded 6 judgments in " + path + " (6 in all)",
	}
	if !slices.Equal(h.lines, wantLines) || !strings.HasSuffix(h.lines[0], "output tokens, about $0.00") {
		t.Errorf("said %q\nwant %q", h.lines, wantLines)
	}
	if want := []string{"judged 1 of 6 pairs", "judged 6 of 6 pairs"}; len(h.progress) != 6 || h.progress[0] != want[0] || h.progress[5] != want[1] || h.cleared != 1 {
		t.Errorf("progress %q cleared %d times, want six lines from %q to %q, cleared once", h.progress, h.cleared, want[0], want[1])
	}
	judged := res.Report.Judged
	if f.requests() != 6 || res.Outcome.Requests != 6 || judged == nil || judged.Asked != 6 || judged.Judge != "openai:judge-test" || judged.File != path {
		t.Fatalf("%d requests, outcome %d, judged %+v", f.requests(), res.Outcome.Requests, judged)
	}
	if got := confusable(res.Report); !slices.Equal(got, []string{"get_weather|get_forecast"}) || res.Report.OK {
		t.Errorf("confusable %v (ok %v), want the judged weather pair and the twins cleared", got, res.Report.OK)
	}
	file, err := ReadFile(path)
	if err != nil || file.Len() != 6 {
		t.Fatalf("recorded %d judgments: %v", file.Len(), err)
	}

	// No model: the file replays every judgment, and nothing is said.
	h = heard{}
	replayed, err := RunPairs(context.Background(), PairRunRequest{Report: offline, Catalog: cat, File: file, Path: path, IO: h.io()})
	if err != nil || replayed.Report.Judged.Replayed != 6 || replayed.Report.Judged.Judge != "" || len(h.lines)+len(h.progress) != 0 {
		t.Fatalf("replay: %v, judged %+v, said %q", err, replayed.Report.Judged, h.lines)
	}
	if got := confusable(replayed.Report); !slices.Equal(got, confusable(res.Report)) {
		t.Errorf("replayed confusable %v, want %v", got, confusable(res.Report))
	}

	// A budget: the estimate line says what it leaves out.
	h = heard{}
	budget := req
	budget.Record, budget.Cache, budget.MaxPairs, budget.IO = false, nil, 1, h.io()
	if _, err := RunPairs(context.Background(), budget); err != nil || !strings.Contains(h.lines[0], ": 6 candidate pairs, 0 replayed, 1 to ask, 5 over --judge-max-pairs 1; estimate: 1 request,") {
		t.Errorf("budget: %v, said %q", err, h.lines)
	}
	if !slices.Equal(h.progress, []string{"judged 1 of 1 pair"}) {
		t.Errorf("budget: progress %q", h.progress)
	}
}

// TestRunPairsSaysAJudgeThatStops: a request that fails stops the asking;
// the run says so, the report carries it, and the pairs not judged keep
// their offline verdict. A cache that cannot be written is noted.
func TestRunPairsSaysAJudgeThatStops(t *testing.T) {
	cat, offline := pairRunReport(t)
	f := newFake(t, map[string][]step{})
	for _, p := range Questions(cat, offline.Similarity, DefaultPerTool, nil) {
		f.script[p.A.Name+"|"+p.B.Name] = []step{{status: 400}}
	}
	notDir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notDir, nil, 0o644)
	var h heard
	res, err := RunPairs(context.Background(), PairRunRequest{Report: offline, Catalog: cat, Cache: OpenCache(notDir), Model: newModel(t, f, env{}, nil), IO: h.io()})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.lines) != 3 || !strings.HasPrefix(h.lines[2], "note: judgment cache "+notDir) || !strings.HasPrefix(h.lines[1], "judge stopped: POST "+f.URL+"/v1/chat/completions: HTTP 400") ||
		!strings.HasSuffix(h.lines[1], "; the pairs it did not judge keep their offline verdict") {
		t.Errorf("said %q", h.lines)
	}
	if res.Report.Judged.Error == "" || res.Report.Judged.Asked != 0 || !slices.Equal(confusable(res.Report), confusable(offline)) {
		t.Errorf("judged %+v, confusable %v; want the error and the offline verdicts", res.Report.Judged, confusable(res.Report))
	}
}

// TestRunPairsInterruptedOrIdle: an interrupted run has no report; a run
// with no model, no file and an empty cache returns the report as it was,
// saying nothing.
func TestRunPairsInterruptedOrIdle(t *testing.T) {
	cat, offline := pairRunReport(t)
	f := newFake(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := RunPairs(ctx, PairRunRequest{Report: offline, Catalog: cat, Model: newModel(t, f, env{}, nil)})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "judge: ") || res.Report != nil {
		t.Errorf("interrupted: %v, report %v", err, res.Report)
	}
	var h heard
	res, err = RunPairs(context.Background(), PairRunRequest{Report: offline, Catalog: cat, Path: filepath.Join(t.TempDir(), FileName), Record: true, IO: h.io()})
	if err != nil || res.Report != offline || len(h.lines) != 0 {
		t.Errorf("idle: %v, the same report %v, said %q", err, res.Report == offline, h.lines)
	}
}

func confusable(r *lint.Report) []string {
	var out []string
	for _, p := range r.Similarity.Confusable {
		out = append(out, p.A+"|"+p.B)
	}
	return out
}
