package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/lint"
)

// reviewerServer is a loopback chat endpoint: a review request for a tool
// named in problems is answered with them ({"problems": [...]}, as JSON
// text), any other tool with none, and a pair judge's request with label
// 0. It counts the review requests.
func reviewerServer(t *testing.T, problems map[string]json.RawMessage) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var reviews atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Messages []struct{ Content string } }
		json.NewDecoder(r.Body).Decode(&body)
		var q struct{ Tool *struct{ Name string } }
		json.Unmarshal([]byte(body.Messages[len(body.Messages)-1].Content), &q)
		answer := `{"label": 0, "reason": "different jobs"}`
		if q.Tool != nil {
			reviews.Add(1)
			answer = `{"problems": []}`
			if p, ok := problems[q.Tool.Name]; ok {
				answer = `{"problems": ` + string(p) + `}`
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": answer}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &reviews
}

// modelFindings are a report's model-review findings as
// "tool|param|category|by: message".
func modelFindings(r lint.Report) []string {
	var out []string
	for _, f := range r.Structural {
		if f.Rule == lint.RuleModelReview {
			out = append(out, fmt.Sprintf("%s|%s|%s|%s: %s", f.Tool, f.Param, f.Category, f.By, f.Message))
		}
	}
	return out
}

type scripted struct {
	Catalog  string          `json:"catalog"`
	Tool     string          `json:"tool"`
	Problems json.RawMessage `json:"problems"`
}

func readScripted(t *testing.T) []scripted {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "review", "scripted.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []scripted
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if line := sc.Bytes(); len(line) > 0 && line[0] != '#' {
			var s scripted
			if err := json.Unmarshal(line, &s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
	}
	return out
}

// TestLintReviewOfRealCatalogs: a loopback reviewer answers scripted
// problems for tools of real catalogs; each surfaces as a model-review
// finding at its tool and parameter, marked with its category and the
// model; recorded, the same findings replay with no endpoint.
func TestLintReviewOfRealCatalogs(t *testing.T) {
	clearJudgeEnv(t)
	all := readScripted(t)
	byCatalog := map[string][]scripted{}
	var names []string
	for _, s := range all {
		if _, ok := byCatalog[s.Catalog]; !ok {
			names = append(names, s.Catalog)
		}
		byCatalog[s.Catalog] = append(byCatalog[s.Catalog], s)
	}
	if len(names) < 5 {
		t.Fatalf("%d catalogs scripted, want several", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
			problems := map[string]json.RawMessage{}
			type want struct{ tool, param, category string }
			var wanted []want
			for _, s := range byCatalog[name] {
				problems[s.Tool] = s.Problems
				var ps []struct {
					Category string
					Param    *string
				}
				json.Unmarshal(s.Problems, &ps)
				for _, p := range ps {
					w := want{tool: s.Tool, category: p.Category}
					if p.Param != nil {
						w.param = *p.Param
					}
					wanted = append(wanted, w)
				}
			}
			srv, reviews := reviewerServer(t, problems)
			cat := filepath.Join("testdata", "review", name+".json")
			file := filepath.Join(t.TempDir(), "j.jsonl")
			code, first, errb := lintJSON(t, "--review", "--judge", "openai:rev", "--judge-url", srv.URL+"/v1", "--judgments", file, "--judge-record", cat)
			if code == 2 {
				t.Fatalf("exit 2: %s", errb)
			}
			if !strings.Contains(errb, "review by openai:rev at") || !strings.Contains(errb, "estimate:") {
				t.Errorf("no estimate before the review:\n%s", errb)
			}
			if first.Reviewed == nil || first.Reviewed.Asked != first.ToolCount || int(reviews.Load()) != first.ToolCount {
				t.Fatalf("reviewed %+v after %d requests, want every one of %d tools asked once", first.Reviewed, reviews.Load(), first.ToolCount)
			}
			for _, w := range wanted {
				found := slices.ContainsFunc(first.Structural, func(f lint.Finding) bool {
					return f.Rule == lint.RuleModelReview && f.Tool == w.tool && f.Param == w.param && f.Category == w.category &&
						f.By == "openai:rev" && f.Severity == lint.SeverityWarn && f.Message != ""
				})
				if !found {
					t.Errorf("no model-review finding at %s %q (%s): %v", w.tool, w.param, w.category, modelFindings(first))
				}
			}
			if got := len(modelFindings(first)); got != len(wanted) {
				t.Errorf("%d model-review findings, want %d", got, len(wanted))
			}

			// CI: no endpoint, a fresh cache; the judgments file replays.
			srv.Close()
			t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
			code, second, errb := lintJSON(t, "--review", "--judgments", file, cat)
			if code == 2 {
				t.Fatalf("replay: exit 2: %s", errb)
			}
			if !reflect.DeepEqual(modelFindings(second), modelFindings(first)) || second.Reviewed.Replayed != first.ToolCount {
				t.Errorf("replayed %v (%+v)\nwant %v", modelFindings(second), second.Reviewed, modelFindings(first))
			}
		})
	}
}

const reviewSmallCatalog = `[
 {"name": "get_events", "description": "Lists events.", "inputSchema": {"type": "object", "properties": {"since": {"type": "string"}, "key": {"type": "string"}}}},
 {"name": "wipe", "description": "Clears it.", "inputSchema": {"type": "object", "properties": {}}}
]`

// TestLintReviewWithoutAnEndpoint: the requests a run would send are
// written to a file and nothing is sent; answers given in a file replay
// as the reviewer's, the findings the same as a model's answers give; a
// tool changed since is unreviewed and says so.
func TestLintReviewWithoutAnEndpoint(t *testing.T) {
	dir, cat := reviewSetup(t)
	requests := filepath.Join(dir, "requests.jsonl")
	code, r, errb := lintJSON(t, "--review-requests", requests, cat)
	if code == 2 || !strings.Contains(errb, "wrote 2 requests to") || len(modelFindings(r)) != 0 {
		t.Fatalf("exit %d, findings %v: %s", code, modelFindings(r), errb)
	}
	data, err := os.ReadFile(requests)
	if err != nil {
		t.Fatal(err)
	}
	script := map[string]json.RawMessage{
		"get_events": json.RawMessage(`[{"category": "unit", "param": "since", "note": "a date or a duration?"}, {"category": "param", "param": "key", "note": "a file or a project?"}]`),
		"wipe":       json.RawMessage(`[{"category": "destructive", "param": null, "note": "says not what it clears"}]`),
	}
	var answers bytes.Buffer
	for line := range strings.Lines(string(data)) {
		var rl judge.RequestLine
		if err := json.Unmarshal([]byte(line), &rl); err != nil {
			t.Fatalf("request line %q: %v", line, err)
		}
		if rl.Request["messages"] == nil || rl.Prompt != judge.ReviewPromptVersion {
			t.Errorf("request line %q has no request", line)
		}
		fmt.Fprintf(&answers, `{"tool": %q, "texts": %q, "by": "openai:rev", "answer": {"problems": %s}}`+"\n", rl.Tool, rl.Texts, script[rl.Tool])
	}
	answersFile := filepath.Join(dir, "answers.jsonl")
	os.WriteFile(answersFile, answers.Bytes(), 0o644)
	code, fromFile, errb := lintJSON(t, "--review-answers", answersFile, "--judgments", filepath.Join(dir, "j.jsonl"), "--judge-record", cat)
	if code == 2 {
		t.Fatal(errb)
	}

	srv, _ := reviewerServer(t, script)
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	_, fromModel, errb := lintJSON(t, "--review", "--judge", "openai:rev", "--judge-url", srv.URL+"/v1", "--judgments", filepath.Join(dir, "other.jsonl"), cat)
	if len(modelFindings(fromFile)) != 3 || !reflect.DeepEqual(modelFindings(fromFile), modelFindings(fromModel)) {
		t.Errorf("from the answers file %v\nfrom the model %v\n%s", modelFindings(fromFile), modelFindings(fromModel), errb)
	}

	// A tool changed since: its recorded review is stale, and says so.
	os.WriteFile(cat, []byte(strings.Replace(reviewSmallCatalog, "Clears it.", "Clears the cache.", 1)), 0o644)
	code, stale, errb := lintJSON(t, "--judgments", filepath.Join(dir, "j.jsonl"), cat)
	if code == 2 {
		t.Fatal(errb)
	}
	want := []lint.UnreviewedTool{{Tool: "wipe", Why: judge.WhyReviewStale}}
	if stale.Reviewed == nil || !reflect.DeepEqual(stale.Reviewed.Unreviewed, want) || len(modelFindings(stale)) != 2 {
		t.Errorf("reviewed %+v, findings %v; want wipe stale and get_events' two", stale.Reviewed, modelFindings(stale))
	}
	if !strings.Contains(errb, "wipe") || !strings.Contains(errb, judge.WhyReviewStale) {
		t.Errorf("stderr does not say the review is stale:\n%s", errb)
	}
	// An answer for texts the tool no longer has is stale too.
	code, _, errb = lintJSON(t, "--review-answers", answersFile, "--judgments", filepath.Join(dir, "none.jsonl"), cat)
	if code == 2 || !strings.Contains(errb, judge.WhyAnswerStale) {
		t.Errorf("exit %d; stderr does not say the answer is stale:\n%s", code, errb)
	}
}

// TestLintReviewCostFirst: the estimate is said before any review request;
// over --max-cost off a terminal nothing is sent and the run stops.
func TestLintReviewCostFirst(t *testing.T) {
	_, cat := reviewSetup(t)
	srv, reviews := reviewerServer(t, nil)
	code, _, errb := lintJSON(t, "--review", "--judge", "openai:rev", "--judge-url", srv.URL+"/v1", "--judge-price", "100000,100000", "--max-cost", "0.5", cat)
	if code != 2 || reviews.Load() != 0 || !strings.Contains(errb, "estimate:") || !strings.Contains(errb, "over --max-cost $0.50") {
		t.Errorf("exit %d after %d review requests:\n%s", code, reviews.Load(), errb)
	}
	code, _, errb = lintJSON(t, "--review", "--judge", "openai:rev", "--judge-url", srv.URL+"/v1", "--judge-price", "100000,100000", "--max-cost", "0.5", "--yes", cat)
	if code == 2 || reviews.Load() != 2 {
		t.Errorf("--yes: exit %d after %d review requests:\n%s", code, reviews.Load(), errb)
	}
	code, _, errb = lintJSON(t, "--review", "--judge", "openai:rev", "--judge-url", srv.URL+"/v1", "--review-max-tools", "1", "--no-cache", cat)
	if code == 2 || reviews.Load() != 3 || !strings.Contains(errb, judge.WhyReviewBudget) {
		t.Errorf("--review-max-tools 1: exit %d after %d review requests in all:\n%s", code, reviews.Load(), errb)
	}

	// --max-cost holds for the run: two catalogs of $0.12 each, $0.20 allowed.
	other := filepath.Join(t.TempDir(), "more.json")
	os.WriteFile(other, []byte(strings.NewReplacer("Lists events.", "Lists the events.", "Clears it.", "Clears all.").Replace(reviewSmallCatalog)), 0o644)
	code, _, errb = runCmd("", "lint", "--embedder", "mock", "--no-cache", "--review", "--judge", "openai:rev", "--judge-url", srv.URL+"/v1",
		"--judge-price", "100,100", "--max-cost", "0.2", cat, other)
	if code != 2 || reviews.Load() != 5 || !strings.Contains(errb, "with the $0.12 of the catalogs before") {
		t.Errorf("two catalogs: exit %d after %d review requests in all:\n%s", code, reviews.Load(), errb)
	}

	// A requests file is one catalog's.
	if code, _, errb := runCmd("", "lint", "--review-requests", filepath.Join(t.TempDir(), "r.jsonl"), cat, other); code != 2 || !strings.Contains(errb, "take one catalog") {
		t.Errorf("--review-requests over two catalogs: exit %d: %s", code, errb)
	}

	// Nor the judgments file.
	judgments := filepath.Join(t.TempDir(), "j.jsonl")
	os.WriteFile(judgments, []byte("# kept\n"), 0o644)
	code, _, errb = runCmd("", "lint", "--embedder", "mock", "--judgments", judgments, "--review-requests", judgments, cat)
	if kept, _ := os.ReadFile(judgments); code != 2 || string(kept) != "# kept\n" || !strings.Contains(errb, "would overwrite the judgments file") {
		t.Errorf("--review-requests onto the judgments file: exit %d: %s", code, errb)
	}

	// The requests file may not overwrite an input.
	before, _ := os.ReadFile(cat)
	code, _, errb = runCmd("", "lint", "--embedder", "mock", "--review-requests", cat, cat)
	if after, _ := os.ReadFile(cat); code != 2 || !bytes.Equal(before, after) || !strings.Contains(errb, "would overwrite the catalog") {
		t.Errorf("--review-requests onto the catalog: exit %d: %s", code, errb)
	}
}

// TestLintReviewEscapesItsText: a model's note and a recorded reviewer's
// name carrying terminal escapes and a bidi override reach no output raw,
// in any format, and each marks the finding as the model's.
func TestLintReviewEscapesItsText(t *testing.T) {
	_, cat := reviewSetup(t)
	srv, _ := reviewerServer(t, map[string]json.RawMessage{
		"get_events": json.RawMessage(`[{"category": "unit", "param": "since", "note": "evil \u001b[2J\u001b]8;;http://x\u0007 \u202egnp.exe"}]`),
	})
	for _, format := range []string{"text", "markdown", "github", "junit", "sarif", "json", "html"} {
		code, out, errb := runCmd("", "lint", "--embedder", "mock", "--format", format, "--review", "--judge", "openai:rev\u001b[31m", "--judge-url", srv.URL+"/v1", cat)
		if code == 2 {
			t.Fatalf("%s: %s", format, errb)
		}
		for _, raw := range []string{"\x1b", "\u202e", "\a"} {
			if strings.Contains(out, raw) || strings.Contains(errb, raw) {
				t.Errorf("%s: %q reached the output raw", format, raw)
			}
		}
		by := "openai:rev"
		if format == "github" {
			by = "openai%3Arev" // a title property's colon is escaped
		}
		if !strings.Contains(out, "model-review") || !strings.Contains(out, by) {
			t.Errorf("%s: the finding is not marked as the model's:\n%s", format, out)
		}
	}
}

// TestExplorerReplaysRecordedReviews: the explorer lists the reviews the
// judgments file holds for the tools' current texts as lint replays them,
// and none when it holds none.
func TestExplorerReplaysRecordedReviews(t *testing.T) {
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	cat, err := catalog.Parse("tools.json", []byte(reviewSmallCatalog))
	if err != nil {
		t.Fatal(err)
	}
	jf := &judgeFlags{}
	if jf.reviewFindings(judge.NewRecords()) != nil {
		t.Error("findings from no review")
	}
	tools := judge.ReviewToolsOf(cat)
	file := judge.NewRecords()
	file.AddReview(judge.Review{Tool: "wipe", By: "openai:rev", Prompt: judge.ReviewPromptVersion, Texts: tools[1].TextHash(),
		Problems: []judge.Problem{{Category: "destructive", Note: "says not what it clears"}}})
	file.AddReview(judge.Review{Tool: "get_events", By: "openai:rev", Prompt: judge.ReviewPromptVersion, Texts: "sha256:old",
		Problems: []judge.Problem{{Category: "unit", Param: "since", Note: "stale"}}})
	found := jf.reviewFindings(file)(cat)
	if len(found) != 1 || found[0].Tool != "wipe" || found[0].By != "openai:rev" || found[0].ToolIndex != 1 {
		t.Errorf("explorer findings %+v, want wipe's one (get_events' review is stale)", found)
	}
}

// TestLintReviewMeetsTheConfigsIgnores: toolscope.yaml can ignore a
// model's finding as any other (rule model-review); it leaves the lists,
// counts nowhere, and the ignore is not reported as matching nothing.
func TestLintReviewMeetsTheConfigsIgnores(t *testing.T) {
	dir, cat := reviewSetup(t)
	os.WriteFile(filepath.Join(dir, "toolscope.yaml"), []byte(`ignore:
  - rule: model-review
    tool: wipe
    reason: the server's docs say what it clears
`), 0o644)
	tools := judge.ReviewToolsOf(mustParse(t, reviewSmallCatalog))
	answers := filepath.Join(dir, "answers.jsonl")
	os.WriteFile(answers, []byte(fmt.Sprintf(`{"tool": "wipe", "texts": %q, "answer": {"problems": [{"category": "destructive", "param": null, "note": "says not what it clears"}]}}
{"tool": "get_events", "texts": %q, "answer": {"problems": [{"category": "unit", "param": "since", "note": "a date or a duration?"}]}}
`, tools[1].TextHash(), tools[0].TextHash())), 0o644)
	code, r, errb := lintJSON(t, "--review-answers", answers, cat)
	if code == 2 {
		t.Fatal(errb)
	}
	if got := modelFindings(r); len(got) != 1 || !strings.HasPrefix(got[0], "get_events|since|unit") {
		t.Errorf("model findings %v, want get_events' only", got)
	}
	if r.Suppressed == nil || len(r.Suppressed.Findings) != 1 || r.Suppressed.Findings[0].Tool != "wipe" || r.Suppressed.Findings[0].Suppression == "" {
		t.Errorf("suppressed %+v, want wipe's finding with the reason", r.Suppressed)
	}
	if len(r.Suppressed.Unused) != 0 || r.Reviewed == nil || r.Reviewed.Problems != 1 {
		t.Errorf("unused %v, reviewed %+v", r.Suppressed.Unused, r.Reviewed)
	}
}

func mustParse(t *testing.T, text string) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Parse("tools.json", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestLintWithoutReviewsShowsNoSection: a cache holding other tools'
// reviews adds nothing to a lint that asks for none.
func TestLintWithoutReviewsShowsNoSection(t *testing.T) {
	clearJudgeEnv(t)
	cacheDir := t.TempDir()
	t.Setenv("TOOLSCOPE_CACHE_DIR", cacheDir)
	judge.OpenCache(cacheDir).StoreReview(judge.Review{Tool: "elsewhere", Problems: []judge.Problem{}, By: "openai:rev", Prompt: judge.ReviewPromptVersion, Texts: "sha256:1"}, "http://x")
	cat := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(cat, []byte(reviewSmallCatalog), 0o644)
	code, r, errb := lintJSON(t, cat)
	if code == 2 || r.Reviewed != nil {
		t.Errorf("exit %d, reviewed %+v: %s", code, r.Reviewed, errb)
	}
}

// reviewSetup is a fresh cache, no judge in the environment, and the
// small catalog in a directory of its own.
func reviewSetup(t *testing.T) (dir, cat string) {
	t.Helper()
	clearJudgeEnv(t)
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	dir = t.TempDir()
	cat = filepath.Join(dir, "tools.json")
	if err := os.WriteFile(cat, []byte(reviewSmallCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, cat
}

// TestExplorersReportOffATerminalReplaysReviews: the explorer's report
// off a terminal is lint's, the recorded reviews' findings included.
func TestExplorersReportOffATerminalReplaysReviews(t *testing.T) {
	dir, cat := reviewSetup(t)
	tools := judge.ReviewToolsOf(mustParse(t, reviewSmallCatalog))
	_, err := judge.RecordReviews(filepath.Join(dir, judge.FileName), []judge.Review{{Tool: "wipe", By: "openai:rev", Prompt: judge.ReviewPromptVersion,
		Texts: tools[1].TextHash(), Problems: []judge.Problem{{Category: "destructive", Note: "says not what it clears"}}}})
	if err != nil {
		t.Fatal(err)
	}
	const line = "[model-review (destructive, by openai:rev)] wipe"
	code, explorer, errb := runCmd("", "--embedder", "mock", cat)
	if code == 2 || !strings.Contains(explorer, line) {
		t.Errorf("explorer's report (exit %d) lacks %q:\n%s%s", code, line, explorer, errb)
	}
	code, linted, errb := runCmd("", "lint", "--embedder", "mock", cat)
	if code == 2 || !strings.Contains(linted, line) {
		t.Errorf("lint (exit %d) lacks %q:\n%s%s", code, line, linted, errb)
	}
}
