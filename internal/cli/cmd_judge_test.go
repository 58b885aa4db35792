package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/embed"
	"toolscope/fixtures"
)

const judgeCatalog = `[
 {"name": "search_logs", "description": "Searches recent log lines for a text; use for live troubleshooting.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "Text."}}}},
 {"name": "search_archived_logs", "description": "Searches archived log lines for a text; use for old incidents.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "Text."}}}},
 {"name": "get_weather", "description": "Current weather for one city; use for questions about right now.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City."}}}},
 {"name": "convert_currency", "description": "Converts an amount between two currencies; use for prices.", "inputSchema": {"type": "object", "properties": {"amount": {"type": "number", "description": "How much."}}}}
]`

// judgeServer answers every pair with label 0, except the pairs in
// confusable, which get 3; it counts requests.
func judgeServer(t *testing.T, confusable map[string]bool) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		var body struct{ Messages []struct{ Content string } }
		json.NewDecoder(r.Body).Decode(&body)
		var pair struct{ A, B struct{ Name string } }
		json.Unmarshal([]byte(body.Messages[len(body.Messages)-1].Content), &pair)
		label, reason := 0, "different jobs"
		if confusable[pair.A.Name+"|"+pair.B.Name] {
			label, reason = 3, "both search logs; live versus archived is unclear"
		}
		answer, _ := json.Marshal(map[string]any{"label": label, "reason": reason, "fix": map[string]string{"a": "For A.", "b": "For B."}})
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": string(answer)}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func lintJSON(t *testing.T, args ...string) (int, lint.Report, string) {
	t.Helper()
	code, out, errb := runCmd("", append([]string{"lint", "--embedder", "mock", "--format", "json", "--disable", "catalog-tokens"}, args...)...)
	var r lint.Report
	if code == 2 {
		return code, r, errb
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errb)
	}
	return code, r, errb
}

func confusableNames(r lint.Report) []string {
	var out []string
	for _, p := range r.Similarity.Confusable {
		out = append(out, p.A+"|"+p.B)
	}
	return out
}

func TestLintJudgeRecordsThenReplaysWithoutKeyOrServer(t *testing.T) {
	clearJudgeEnv(t)
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	os.WriteFile(cat, []byte(judgeCatalog), 0o644)
	srv, requests := judgeServer(t, map[string]bool{"search_archived_logs|search_logs": true})

	code, first, errb := lintJSON(t, "--judge", "openai:judge", "--judge-url", srv.URL+"/v1", "--judge-record", cat)
	if code != 1 {
		t.Fatalf("exit %d; want 1 (a judged confusable pair): %s", code, errb)
	}
	if !strings.Contains(errb, "estimate:") || !strings.Contains(errb, "$0.00") {
		t.Errorf("no estimate (free on loopback) before the run:\n%s", errb)
	}
	asked := int(requests.Load())
	if first.Judged == nil || first.Judged.Asked != asked || asked == 0 || asked > 10 {
		t.Fatalf("judged %+v after %d requests (4 tools: at most 10 pairs)", first.Judged, asked)
	}
	if got := confusableNames(first); len(got) != 1 || got[0] != "search_logs|search_archived_logs" {
		t.Fatalf("confusable %v", got)
	}
	if h := first.Similarity.Confusable[0].Hint; !strings.Contains(h, "judged confusable by openai:judge (label 3)") {
		t.Errorf("hint %q", h)
	}
	if len(first.Similarity.Watch) != 0 {
		t.Errorf("cleared pairs still watched: %v", first.Similarity.Watch)
	}
	path := filepath.Join(dir, "toolscope.judgments.jsonl")
	if data, err := os.ReadFile(path); err != nil || strings.Count(string(data), "\n") != asked+1 {
		t.Fatalf("judgments file: %v\n%s", err, data)
	}

	// CI: no judge, no key, no server. The file replays every judgment.
	srv.Close()
	code, second, errb := lintJSON(t, cat)
	if code != 1 || int(requests.Load()) != asked {
		t.Fatalf("replay: exit %d, %d requests: %s", code, int(requests.Load())-asked, errb)
	}
	if second.Judged.Replayed != asked || second.Judged.Asked != 0 || strings.Join(confusableNames(second), ",") != strings.Join(confusableNames(first), ",") {
		t.Fatalf("replay: %+v, confusable %v", second.Judged, confusableNames(second))
	}
	// The same command line with the server gone: the disk cache answers.
	code, third, errb := lintJSON(t, "--judge", "openai:judge", "--judge-url", srv.URL+"/v1", "--judgments", filepath.Join(dir, "none.jsonl"), cat)
	if code != 1 || third.Judged.Replayed != asked || third.Judged.Error != "" {
		t.Fatalf("cached: exit %d %+v: %s", code, third.Judged, errb)
	}
	// No judge and no file: this machine's cache still replays.
	code, fourth, errb := lintJSON(t, "--judgments", filepath.Join(dir, "none.jsonl"), cat)
	if code != 1 || fourth.Judged == nil || fourth.Judged.Replayed != asked {
		t.Fatalf("cache without --judge: exit %d %+v: %s", code, fourth.Judged, errb)
	}
	// --no-cache leaves it alone: the offline verdicts alone.
	if _, r, _ := lintJSON(t, "--no-cache", "--judgments", filepath.Join(dir, "none.jsonl"), cat); r.Judged != nil {
		t.Fatalf("--no-cache still replayed: %+v", r.Judged)
	}

	// A changed text makes that pair's judgment stale: unjudged, listed,
	// and the offline verdict stands.
	changed := strings.Replace(judgeCatalog, "use for old incidents", "use for incidents older than 30 days", 1)
	os.WriteFile(cat, []byte(changed), 0o644)
	_, fifth, errb := lintJSON(t, cat)
	if fifth.Judged == nil || len(fifth.Judged.Unjudged) == 0 {
		t.Fatalf("no unjudged pair after a text change: %+v %s", fifth.Judged, errb)
	}
	for _, u := range fifth.Judged.Unjudged {
		if u.A != "search_archived_logs" && u.B != "search_archived_logs" || !strings.Contains(u.Why, "texts changed") {
			t.Errorf("unjudged %+v", u)
		}
	}
	for _, p := range fifth.Judged.Pairs {
		if p.A == "search_archived_logs" || p.B == "search_archived_logs" {
			t.Errorf("a stale judgment still holds: %+v", p)
		}
	}
	// Text and Markdown show the section: cleared pairs with their reason,
	// unjudged pairs with why.
	for _, format := range []string{"text", "markdown"} {
		_, out, _ := runCmd("", "lint", "--embedder", "mock", "--disable", "catalog-tokens", "--format", format, cat)
		for _, want := range []string{"Judged (recorded judgments: 0 asked, ", "different jobs", "its texts changed since it was judged"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s output lacks %q:\n%s", format, want, out)
			}
		}
	}
}

func TestLintJudgeBudget(t *testing.T) {
	clearJudgeEnv(t)
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	cat := writeFile(t, "tools.json", judgeCatalog)
	srv, requests := judgeServer(t, nil)
	_, r, errb := lintJSON(t, "--judge", "openai:judge", "--judge-url", srv.URL+"/v1", "--judge-max-pairs", "2", cat)
	if r.Tokens == nil || len(r.Tokens.Tools) != 4 || r.Tokens.Total.O200k == 0 {
		t.Errorf("lint JSON without the token counts: %+v", r.Tokens)
	}
	if requests.Load() != 2 || r.Judged.Asked != 2 || len(r.Judged.Unjudged) == 0 {
		t.Fatalf("%d requests under a budget of 2; judged %+v", requests.Load(), r.Judged)
	}
	for _, u := range r.Judged.Unjudged {
		if !strings.Contains(u.Why, "--judge-max-pairs") {
			t.Errorf("unjudged %+v", u)
		}
	}
	if !strings.Contains(errb, "over --judge-max-pairs 2") {
		t.Errorf("the estimate line does not say what the budget leaves out:\n%s", errb)
	}
}

func TestExplorerJudgeFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--judge", "gpt-4"}, "is not openai:MODEL"},
		{[]string{"--judge", "openai:m", "--judge-url", "ftp://x"}, "--judge-url is not an http(s) URL"},
		{[]string{"--judge-url", "http://x/v1"}, "--judge-url needs --judge"},
	} {
		code, _, errb := runCmd("", tc.args...)
		if code != 2 || !strings.Contains(errb, tc.err) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errb, tc.err)
		}
	}
}

func TestLintJudgeFlagErrors(t *testing.T) {
	cat := writeFile(t, "c.json", judgeCatalog)
	bad := writeFile(t, "j.jsonl", "{not json}\n")
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--judge", "gpt-4"}, "is not openai:MODEL"},
		{[]string{"--judge-url", "http://x/v1"}, "--judge-url needs --judge"},
		{[]string{"--judge", "openai:m", "--judge-max-pairs", "-2"}, "-1: no limit"},
		{[]string{"--judge", "openai:m", "--judge-price", "cheap"}, "--judge-price"},
		{[]string{"--judgments", bad}, bad + ":1: not a judgment"},
	} {
		code, _, errb := runCmd("", append(append([]string{"lint", "--embedder", "mock"}, tc.args...), cat)...)
		if code != 2 || !strings.Contains(errb, tc.err) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errb, tc.err)
		}
	}
}

// diff takes the recorded judgments too: a person's label 0 clears a pair
// the offline scoring calls confusable, so it is no new confusable pair.
func TestDiffReplaysJudgments(t *testing.T) {
	dir := t.TempDir()
	oldCat := filepath.Join(dir, "old.json")
	newCat := filepath.Join(dir, "new.json")
	os.WriteFile(oldCat, []byte(`[{"name": "search_logs", "description": "Searches recent log lines for a text.", "inputSchema": {"type": "object"}}]`), 0o644)
	twin := `[{"name": "search_logs", "description": "Searches recent log lines for a text.", "inputSchema": {"type": "object"}},
	 {"name": "search_log_lines", "description": "Searches recent log lines for a text.", "inputSchema": {"type": "object"}}]`
	os.WriteFile(newCat, []byte(twin), 0o644)
	args := []string{"diff", "--embedder", "mock", "--scoring", "cosine", "--format", "json", "--fail-on", "pairs", oldCat, newCat}
	code, out, errb := runCmd("", args...)
	if code != 1 || !strings.Contains(out, "search_log_lines") {
		t.Fatalf("without judgments: exit %d (want 1, a new confusable pair): %s%s", code, out, errb)
	}
	cat, err := catalog.Load(newCat, nil)
	if err != nil {
		t.Fatal(err)
	}
	pair := judge.NewPair(judge.FromCatalog(cat.Tools[0]), judge.FromCatalog(cat.Tools[1]), nil)
	recs := judge.NewRecords()
	recs.Add(judge.Judgment{A: pair.A.Name, B: pair.B.Name, Label: 0, Reason: "one is the other's alias, kept on purpose", By: judge.PersonBy, Texts: pair.TextHash()})
	if err := recs.WriteFile(filepath.Join(dir, judge.FileName)); err != nil {
		t.Fatal(err)
	}
	code, out, errb = runCmd("", args...)
	if code != 0 {
		t.Fatalf("with the person's judgment: exit %d (want 0): %s%s", code, out, errb)
	}
}

// The explorer's recorded judgments: the file's for the pair's current
// texts, nothing for texts changed since, nil with nothing recorded.
func TestExplorerRecorded(t *testing.T) {
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	catPath := filepath.Join(dir, "tools.json")
	os.WriteFile(catPath, []byte(judgeCatalog), 0o644)
	jf := &judgeFlags{}
	if jf.recorded(nil, catPath) != nil {
		t.Fatal("a lookup with nothing recorded")
	}
	cat, err := catalog.Load(catPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := cat.Tools[0], cat.Tools[1]
	pair := judge.NewPair(judge.FromCatalog(a), judge.FromCatalog(b), nil)
	recs := judge.NewRecords()
	recs.Add(judge.Judgment{A: pair.A.Name, B: pair.B.Name, Label: 2, Reason: "r", By: judge.PersonBy, Texts: pair.TextHash()})
	if err := recs.WriteFile(filepath.Join(dir, judge.FileName)); err != nil {
		t.Fatal(err)
	}
	find := jf.recorded(nil, catPath)
	if j, ok := find(a, b); !ok || j.Label != 2 {
		t.Fatalf("recorded %+v %v", j, ok)
	}
	changed := *b
	changed.Description += " Changed."
	if _, ok := find(a, &changed); ok {
		t.Error("a judgment of other texts was found")
	}
}

// The explorer's gate is lint's: with a judgments file beside the
// catalog, its header's confusable and review counts and its PASS/FAIL
// equal what lint replays without a key, whether the file clears the
// confusable pair, confirms it, flags another, or is stale.
func TestExplorerGateFollowsRecordedJudgments(t *testing.T) {
	tests := []struct {
		name  string
		label int
		pair  [2]int // catalog indexes
		stale bool
		want  int // lint's confusable count
	}{
		{name: "cleared", label: 0, pair: [2]int{0, 1}, want: 0},
		{name: "confirmed", label: 3, pair: [2]int{0, 1}, want: 1},
		{name: "another flagged", label: 2, pair: [2]int{0, 2}, want: 2},
		{name: "stale", label: 0, pair: [2]int{0, 1}, stale: true, want: 1},
	}
	header := regexp.MustCompile(`(\d+) confusable · (\d+) review.*(PASS|FAIL)`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
			dir := t.TempDir()
			catPath := filepath.Join(dir, "tools.json")
			os.WriteFile(catPath, []byte(judgeCatalog), 0o644)
			cat, err := catalog.Load(catPath, nil)
			if err != nil {
				t.Fatal(err)
			}
			pair := judge.NewPair(judge.FromCatalog(cat.Tools[tc.pair[0]]), judge.FromCatalog(cat.Tools[tc.pair[1]]), nil)
			texts := pair.TextHash()
			if tc.stale {
				// Judged when the first tool read otherwise.
				old := *cat.Tools[tc.pair[0]]
				old.Description = "An older description."
				texts = judge.NewPair(judge.FromCatalog(&old), pair.B, nil).TextHash()
			}
			recs := judge.NewRecords()
			recs.Add(judge.Judgment{A: pair.A.Name, B: pair.B.Name, Label: tc.label, Reason: "told apart by the reviewer", By: judge.PersonBy, Texts: texts})
			if err := recs.WriteFile(filepath.Join(dir, judge.FileName)); err != nil {
				t.Fatal(err)
			}
			code, r, errb := lintJSON(t, catPath)
			if len(r.Similarity.Confusable) != tc.want || (code == 0) != r.OK {
				t.Fatalf("lint: exit %d, confusable %v (want %d) %s", code, confusableNames(r), tc.want, errb)
			}
			lintGate := "FAIL"
			if r.OK {
				lintGate = "PASS"
			}

			m := openExplorer(t, 200, 45, "--embedder", "mock", "--disable", "catalog-tokens", catPath)
			got := header.FindStringSubmatch(ansi.Strip(m.View()))
			if got == nil {
				t.Fatalf("no counts in the header:\n%s", m.View())
			}
			if want := []string{strconv.Itoa(r.Summary.Confusable), strconv.Itoa(r.Summary.Watch), lintGate}; !slices.Equal(got[1:], want) {
				t.Errorf("explorer's header %q, lint's confusable, review and gate %q", got[1:], want)
			}
		})
	}
}

// A pair judged with J during the session moves the explorer's counts and
// gate at once, to what lint then replays from the judgment cache.
func TestExplorerJudgmentMovesTheGate(t *testing.T) {
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	srv, _ := judgeServer(t, nil) // every pair: label 0
	dir := t.TempDir()
	catPath := filepath.Join(dir, "tools.json")
	os.WriteFile(catPath, []byte(judgeCatalog), 0o644)
	m := openExplorer(t, 200, 45, "--embedder", "mock", "--disable", "catalog-tokens", "--judge", "openai:m", "--judge-url", srv.URL, "--judge-price", "0,0", catPath)
	header := regexp.MustCompile(`(\d+) confusable · (\d+) review.*(PASS|FAIL)`)
	if got := header.FindStringSubmatch(ansi.Strip(m.View())); got == nil || got[1] != "1" || got[3] != "FAIL" {
		t.Fatalf("before the judgment: %q", got)
	}
	explorerKeys(m, runes("3"), runes("g"), keyHome, runes("J"), runes("y"))
	got := header.FindStringSubmatch(ansi.Strip(m.View()))
	code, r, errb := lintJSON(t, catPath)
	lintGate := "FAIL"
	if r.OK {
		lintGate = "PASS"
	}
	if want := []string{strconv.Itoa(r.Summary.Confusable), strconv.Itoa(r.Summary.Watch), lintGate}; got == nil || !slices.Equal(got[1:], want) || code != 0 {
		t.Errorf("after J: explorer's header %q, lint's (exit %d) %q %s\n%s", got, code, want, errb, m.View())
	}
}

// The cost of every review pair counts only the pairs the cache has not
// answered for this model.
func TestExplorerJudgeCostAll(t *testing.T) {
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	srv, n := judgeServer(t, nil)
	cat, err := catalog.Parse("tools.json", []byte(judgeCatalog))
	if err != nil {
		t.Fatal(err)
	}
	jf := &judgeFlags{spec: "openai:m", url: srv.URL, price: "1,1"}
	ask, _, costAll := jf.explorer()
	tt := cat.Tools
	pairs := [][2]*catalog.Tool{{tt[0], tt[1]}, {tt[2], tt[3]}}
	sibs := [][]string{{tt[2].Name, tt[3].Name}, {tt[0].Name, tt[1].Name}}
	if got := costAll(pairs, sibs); !strings.Contains(got, "2 not judged before") {
		t.Errorf("before any answer: %q", got)
	}
	if _, _, err := ask(t.Context(), tt[0], tt[1], sibs[0]); err != nil || n.Load() != 1 {
		t.Fatalf("ask: %v, %d requests", err, n.Load())
	}
	if got := costAll(pairs, sibs); !strings.Contains(got, "1 not judged before") {
		t.Errorf("after one answer: %q", got)
	}
	ask(t.Context(), tt[2], tt[3], sibs[1])
	if got := costAll(pairs, sibs); !strings.Contains(got, "judged them all before: no request") {
		t.Errorf("after both: %q", got)
	}
}

// The explorer's replay keeps its questions between calls, and asks again
// when the judgments file gains a pair (an accept): a pair far from every
// tool's nearest, judged confusable by a person after the first replay,
// is confusable at the next.
func TestExplorerReplayFollowsTheFile(t *testing.T) {
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	cat, err := catalog.Parse("demo.json", fixtures.Demo())
	if err != nil {
		t.Fatal(err)
	}
	opts := lint.DefaultOptions()
	opts.Embedder = embed.Mock{}
	opts.Neighbours = judgeNeighbours
	r, err := lint.Analyze(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	recs := judge.NewRecords()
	recs.Add(judge.PersonAccept(judge.FromCatalog(cat.Tools[0]), judge.FromCatalog(cat.Tools[1]), "told apart"))
	replay := (&judgeFlags{}).replayerOf("judgments.jsonl", recs)
	asked := map[[2]string]bool{}
	for _, q := range judge.Questions(cat, r.Similarity, judge.DefaultPerTool, recs) {
		asked[q.Names()] = true
	}
	var far [2]int
	for i := range cat.Tools {
		for j := i + 1; j < len(cat.Tools); j++ {
			a, b := cat.Tools[i].Name, cat.Tools[j].Name
			if !asked[[2]string{min(a, b), max(a, b)}] {
				far = [2]int{i, j}
			}
		}
	}
	if far == [2]int{} {
		t.Fatal("every pair of the demo is a question")
	}
	confusable := func(out *lint.Report) bool {
		for _, p := range out.Similarity.Confusable {
			if p.I == far[0] && p.J == far[1] || p.I == far[1] && p.J == far[0] {
				return true
			}
		}
		return false
	}
	if confusable(replay(r, cat)) {
		t.Fatal("the far pair is confusable before any judgment")
	}
	j := judge.PersonAccept(judge.FromCatalog(cat.Tools[far[0]]), judge.FromCatalog(cat.Tools[far[1]]), "a person says they are the same job")
	j.Label = 3
	recs.Replace(j)
	if !confusable(replay(r, cat)) {
		t.Error("the person's judgment of the far pair was not replayed")
	}
}

// The judgment cache replays what it holds for a catalog's tools, and a
// catalog whose tools it never saw pays nothing for it: no judge
// section, no neighbours kept for questions nobody asks.
func TestLintCacheOfOtherCatalogsIsNotAJudge(t *testing.T) {
	clearJudgeEnv(t)
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	os.WriteFile(cat, []byte(judgeCatalog), 0o644)
	other := filepath.Join(t.TempDir(), "other.json")
	os.WriteFile(other, []byte(`[{"name": "send_invoice", "description": "Sends one invoice to its customer by email; use once the invoice is final."},
 {"name": "void_invoice", "description": "Voids one invoice so that it can no longer be paid; use for a mistaken invoice."}]`), 0o644)
	srv, requests := judgeServer(t, map[string]bool{"search_archived_logs|search_logs": true})
	if code, _, errb := lintJSON(t, "--judge", "openai:judge", "--judge-url", srv.URL+"/v1", cat); code != 1 || requests.Load() == 0 {
		t.Fatalf("exit %d after %d requests: %s", code, requests.Load(), errb)
	}
	srv.Close()
	code, again, errb := lintJSON(t, cat)
	if code != 1 || again.Judged == nil || again.Judged.Replayed != int(requests.Load()) {
		t.Fatalf("the cache did not replay on its catalog: exit %d, judged %+v\n%s", code, again.Judged, errb)
	}
	code, r, errb := lintJSON(t, other)
	if code != 0 || r.Judged != nil {
		t.Errorf("another catalog: exit %d, judged %+v; want no judge section\n%s", code, r.Judged, errb)
	}
	if _, out, _ := runCmd("", "lint", "--embedder", "mock", "--no-config", other); strings.Contains(out, "Judged") {
		t.Errorf("the text report has a judge section:\n%s", out)
	}
}
