package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/embed/openai"
)

// reviewCatalog has a nested object, an array of objects, annotations and
// a tool without a schema.
const reviewCatalog = `[
  {"name": "list_events", "description": "List events. Filters by time.",
   "inputSchema": {"type": "object", "properties": {
     "start": {"type": "string"},
     "filter": {"type": "object", "properties": {"name": {"type": "string"}}},
     "rows": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}}}}},
  {"name": "delete_event", "description": "Delete an event.", "annotations": {"destructiveHint": false},
   "inputSchema": {"type": "object", "properties": {"key": {"type": "string"}}}},
  {"name": "ping", "description": "Ping."}
]`

func reviewTools(t *testing.T) (*catalog.Catalog, []ReviewTool) {
	t.Helper()
	cat, err := catalog.Parse("c.json", []byte(reviewCatalog))
	if err != nil {
		t.Fatal(err)
	}
	return cat, ReviewToolsOf(cat)
}

func TestParseReviewIsStrict(t *testing.T) {
	_, tools := reviewTools(t)
	events := tools[0]
	many := `{"problems": [` + strings.TrimSuffix(strings.Repeat(`{"category": "other", "param": null, "note": "n"},`, MaxProblems+1), ",") + `]}`
	cases := []struct {
		name, answer string
		want         []Problem
		err          string
	}{
		{"none", `{"problems": []}`, []Problem{}, ""},
		{"a param", `{"problems": [{"category": "unit", "param": "start", "note": "no format for the time"}]}`, []Problem{{"unit", "start", "no format for the time"}}, ""},
		{"tool-level, null", `{"problems": [{"category": "purpose", "param": null, "note": "says nothing"}]}`, []Problem{{"purpose", "", "says nothing"}}, ""},
		{"tool-level, absent", `{"problems": [{"category": "purpose", "note": "says nothing"}]}`, []Problem{{"purpose", "", "says nothing"}}, ""},
		{"nested, dotted", `{"problems": [{"category": "param", "param": "filter.name", "note": "exact or prefix?"}]}`, []Problem{{"param", "filter.name", "exact or prefix?"}}, ""},
		{"through items, either spelling", `{"problems": [{"category": "param", "param": "rows.id", "note": "a"}, {"category": "param", "param": "rows[].id", "note": "b"}]}`, []Problem{{"param", "rows.id", "a"}, {"param", "rows[].id", "b"}}, ""},
		{"in a code fence", "```json\n{\"problems\": []}\n```", []Problem{}, ""},
		{"an extra key", `{"problems": [], "score": 3}`, nil, `unknown field "score"`},
		{"an extra key in a problem", `{"problems": [{"category": "unit", "param": "start", "note": "n", "severity": "high"}]}`, nil, `unknown field "severity"`},
		{"a bad category", `{"problems": [{"category": "style", "param": null, "note": "n"}]}`, nil, `category "style" is not one of`},
		{"a category in another case", `{"problems": [{"category": "Unit", "param": "start", "note": "n"}]}`, nil, `category "Unit"`},
		{"a param the tool lacks", `{"problems": [{"category": "unit", "param": "end", "note": "n"}]}`, nil, `param "end" is not a parameter of "list_events"`},
		{"a nested param the tool lacks", `{"problems": [{"category": "unit", "param": "filter.age", "note": "n"}]}`, nil, `param "filter.age"`},
		{"a param that is a number", `{"problems": [{"category": "unit", "param": 3, "note": "n"}]}`, nil, `"param" is neither`},
		{"no note", `{"problems": [{"category": "unit", "param": "start"}]}`, nil, `no "note"`},
		{"a blank note", `{"problems": [{"category": "unit", "param": "start", "note": "  "}]}`, nil, `no "note"`},
		{"no problems key", `{}`, nil, `no "problems"`},
		{"problems not a list", `{"problems": "none"}`, nil, "not the object asked for"},
		{"a key twice", `{"problems": [], "problems": [{"category": "unit", "param": "start", "note": "n"}]}`, nil, `"problems" twice`},
		{"a key in two cases", `{"problems": [], "Problems": []}`, nil, "one key spelled twice"},
		{"text after", `{"problems": []} I hope this helps`, nil, "text after"},
		{"prose", `There are no problems.`, nil, "not the object asked for"},
		{"empty", ``, nil, "empty answer"},
		{"too many", many, nil, "more than the 12 read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseReview(c.answer, events)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
	t.Run("a tool with no schema has no params", func(t *testing.T) {
		if _, err := ParseReview(`{"problems": [{"category": "param", "param": "q", "note": "n"}]}`, tools[2]); err == nil {
			t.Error("a param of a tool without a schema was read")
		}
	})
	t.Run("a long note is clipped", func(t *testing.T) {
		got, err := ParseReview(`{"problems": [{"category": "other", "param": null, "note": "`+strings.Repeat("w ", 1000)+`"}]}`, events)
		if err != nil {
			t.Fatal(err)
		}
		if n := len([]rune(got[0].Note)); n > maxNote+1 {
			t.Errorf("note of %d runes kept, want at most %d", n, maxNote+1)
		}
	})
}

// reviewServer is a loopback chat endpoint that answers each tool's
// review from answers (by the tool's name; the steps in turn, the last
// repeating), and keeps the requests.
func reviewServer(t *testing.T, answers map[string][]string) (url string, requests func() []map[string]any) {
	t.Helper()
	var mu sync.Mutex
	seen := map[string]int{}
	srv, bodies := chatServer(t, func(w http.ResponseWriter, _ *http.Request, body map[string]any) {
		msgs := body["messages"].([]any)
		var q struct{ Tool struct{ Name string } }
		json.Unmarshal([]byte(msgs[len(msgs)-1].(map[string]any)["content"].(string)), &q)
		mu.Lock()
		steps := answers[q.Tool.Name]
		n := min(seen[q.Tool.Name], len(steps)-1)
		seen[q.Tool.Name]++
		mu.Unlock()
		if len(steps) == 0 {
			w.Write([]byte(chatAnswer(`{"problems": []}`)))
			return
		}
		w.Write([]byte(chatAnswer(steps[n])))
	})
	return srv.URL, bodies
}

func reviewModel(t *testing.T, url string) *Model {
	t.Helper()
	m, err := New(Options{Model: "rev", BaseURL: url, Getenv: env{}.get, Transport: openai.Transport{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestReviewRunAgainstALoopbackEndpoint: the request carries the tool,
// its annotations and its siblings' first sentences; a malformed answer
// is asked once more and a second leaves the tool unreviewed; the
// reviews are cached and replay with no model named.
func TestReviewRunAgainstALoopbackEndpoint(t *testing.T) {
	cat, tools := reviewTools(t)
	url, requests := reviewServer(t, map[string][]string{
		"list_events":  {`{"problems": [{"category": "unit", "param": "start", "note": "no format"}]}`},
		"delete_event": {`{"problems": [{"category": "style", "param": null, "note": "n"}]}`, `{"problems": [{"category": "destructive", "param": null, "note": "annotated not destructive"}]}`},
		"ping":         {`{"problems": [{"category": "param", "param": "host", "note": "n"}]}`},
	})
	m := reviewModel(t, url)
	cache := OpenCache(t.TempDir())
	plan := NewReviewPlan(tools, ReviewPlanOptions{By: m.ID(), Endpoint: m.Endpoint(), Ask: true, Cache: cache})
	if got := len(plan.Ask()); got != 3 {
		t.Fatalf("%d tools to ask, want 3", got)
	}
	out := m.ExecuteReviews(context.Background(), plan, cache, nil)
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if len(requests()) != 5 {
		t.Errorf("%d requests, want 5 (delete_event and ping asked twice)", len(requests()))
	}
	first := requests()[0]
	var q struct {
		Tool     reviewTool
		Siblings []Sibling
	}
	msgs := first["messages"].([]any)
	if msgs[0].(map[string]any)["content"] != ReviewRubric {
		t.Error("the system message is not the rubric")
	}
	json.Unmarshal([]byte(msgs[1].(map[string]any)["content"].(string)), &q)
	if q.Tool.Name == "delete_event" && string(q.Tool.Annotations) != `{"destructiveHint":false}` {
		t.Errorf("annotations %s not sent", q.Tool.Annotations)
	}
	if len(q.Siblings) != 2 || q.Siblings[0].Sentence == "" {
		t.Errorf("siblings %+v, want the two others with their first sentences", q.Siblings)
	}
	status := map[string]Status{}
	for _, r := range out.Results {
		status[r.Tool.Name] = r.Status
	}
	if status["list_events"] != Asked || status["delete_event"] != Asked || status["ping"] != Unjudged {
		t.Errorf("statuses %v, want list_events and delete_event asked, ping unreviewed", status)
	}
	r := ApplyReviews(lint.NewReport(cat, nil, similarity.Result{}, lint.Gate{FailOn: lint.SeverityError}), cat, out.Results, ApplyReviewsOptions{Model: m.ID()})
	if r.Summary.Warnings != 2 || r.Reviewed.Asked != 2 || len(r.Reviewed.Unreviewed) != 1 {
		t.Errorf("warnings %d, reviewed %+v", r.Summary.Warnings, r.Reviewed)
	}

	// No model: the cache replays the same findings.
	again := NewReviewPlan(tools, ReviewPlanOptions{Cache: OpenCache(filepath.Dir(cache.Path()))})
	replayed := ApplyReviews(lint.NewReport(cat, nil, similarity.Result{}, lint.Gate{}), cat, again.Results, ApplyReviewsOptions{})
	if !reflect.DeepEqual(replayed.Structural, r.Structural) {
		t.Errorf("replayed %+v\nwant %+v", replayed.Structural, r.Structural)
	}
}

// TestReviewsRecordReplayAndGoStale: reviews written into a judgments
// file beside a judgment read back the same; with no model they replay;
// a tool whose texts changed is unreviewed, stale.
func TestReviewsRecordReplayAndGoStale(t *testing.T) {
	cat, tools := reviewTools(t)
	path := filepath.Join(t.TempDir(), FileName)
	judgment := Judgment{A: "delete_event", B: "list_events", Label: 1, Reason: "r", By: PersonBy, Texts: "sha256:00"}
	if _, err := Record(path, []Judgment{judgment}); err != nil {
		t.Fatal(err)
	}
	review := Review{Tool: "list_events", Problems: []Problem{{Category: "unit", Param: "start", Note: "no format"}}, By: "openai:rev", Prompt: ReviewPromptVersion, Texts: tools[0].TextHash()}
	empty := Review{Tool: "ping", Problems: []Problem{}, By: "openai:rev", Prompt: ReviewPromptVersion, Texts: tools[2].TextHash()}
	if _, err := RecordReviews(path, []Review{review, empty}); err != nil {
		t.Fatal(err)
	}
	file, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if file.Len() != 1 || file.ReviewCount() != 2 {
		t.Fatalf("read %d judgments and %d reviews, want 1 and 2", file.Len(), file.ReviewCount())
	}
	plan := NewReviewPlan(tools, ReviewPlanOptions{File: file})
	if plan.Count(Replayed) != 2 {
		t.Errorf("%d replayed, want 2", plan.Count(Replayed))
	}

	changed := strings.Replace(reviewCatalog, "List events. Filters by time.", "List events.", 1)
	cat2, err := catalog.Parse("c.json", []byte(changed))
	if err != nil {
		t.Fatal(err)
	}
	plan = NewReviewPlan(ReviewToolsOf(cat2), ReviewPlanOptions{File: file})
	r := ApplyReviews(lint.NewReport(cat2, nil, similarity.Result{}, lint.Gate{}), cat2, plan.Results, ApplyReviewsOptions{File: path})
	want := []lint.UnreviewedTool{{Tool: "list_events", Why: WhyReviewStale}}
	if !reflect.DeepEqual(r.Reviewed.Unreviewed, want) || len(r.Structural) != 0 {
		t.Errorf("unreviewed %+v and findings %+v, want list_events stale and no finding", r.Reviewed.Unreviewed, r.Structural)
	}
	_ = cat
}

// TestReviewRecordLinesAreChecked: a review line in a judgments file is
// read as strictly as a judgment.
func TestReviewRecordLinesAreChecked(t *testing.T) {
	for _, c := range []struct{ line, err string }{
		{`{"review":"t","problems":[],"by":"person","texts":"sha256:1","extra":1}`, `unknown field "extra"`},
		{`{"review":"t","problems":[{"category":"style","note":"n"}],"by":"person","texts":"sha256:1"}`, `category "style"`},
		{`{"review":"t","by":"person","texts":"sha256:1"}`, `needs "problems"`},
		{`{"review":"","problems":[],"by":"person","texts":"sha256:1"}`, `must name the tool`},
		{`{"review":"t","problems":[],"by":"person","texts":"x"}`, `text hash`},
		{`{"review":"t","problems":[],"by":"person","texts":"sha256:1","by":"openai:x"}`, `"by" twice`},
	} {
		if _, err := Parse([]byte(c.line)); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", c.line, err, c.err)
		}
	}
}

// TestRequestsAndAnswersFiles: the requests written for a run are the
// requests a model would be sent; answers given in a file for them
// replay as the reviewer's, read strictly, and one for changed texts is
// stale.
func TestRequestsAndAnswersFiles(t *testing.T) {
	_, tools := reviewTools(t)
	var b strings.Builder
	if err := WriteRequests(&b, "rev", tools[:2]); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d request lines, want 2", len(lines))
	}
	var rl RequestLine
	if err := json.Unmarshal([]byte(lines[0]), &rl); err != nil {
		t.Fatal(err)
	}
	m := reviewModel(t, "http://127.0.0.1:1")
	want, _ := json.Marshal(m.ReviewRequest(tools[0])["messages"])
	got, _ := json.Marshal(rl.Request["messages"])
	if rl.Tool != "list_events" || rl.Texts != tools[0].TextHash() || string(got) != string(want) || rl.Request["model"] != "rev" {
		t.Errorf("request line %s does not carry the request a model is sent", lines[0])
	}

	answers := `# answered by hand
{"tool": "list_events", "texts": "` + tools[0].TextHash() + `", "answer": {"problems": [{"category": "unit", "param": "start", "note": "no format"}]}}
{"tool": "delete_event", "texts": "sha256:old", "answer": "{\"problems\": []}"}
`
	a, err := parseAnswers([]byte(answers), tools, "")
	if err != nil {
		t.Fatal(err)
	}
	plan := NewReviewPlan(tools, ReviewPlanOptions{Answers: a})
	if plan.Count(Replayed) != 1 || plan.Results[0].Review.By != PersonBy || plan.Results[1].Why != WhyAnswerStale {
		t.Errorf("plan %+v, want list_events answered by a person and delete_event stale", plan.Results)
	}
	for _, c := range []struct{ line, err string }{
		{`{"tool": "nope", "texts": "sha256:1", "answer": {"problems": []}}`, "no tool"},
		{`{"tool": "list_events", "answer": {"problems": []}}`, `no "texts"`},
		{`{"tool": "list_events", "texts": "` + tools[0].TextHash() + `", "answer": {"problems": [{"category": "unit", "param": "end", "note": "n"}]}}`, `param "end"`},
		{`{"tool": "list_events", "texts": "sha256:1", "answer": {}, "score": 1}`, `unknown field "score"`},
		{`{"tool": "ping", "texts": "` + tools[2].TextHash() + `", "answer": {"problems": []}} {"tool": "ping"}`, "text after"},
	} {
		if _, err := parseAnswers([]byte(c.line), tools, ""); err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "1: ") {
			t.Errorf("%s: error %v, want line 1: %q", c.line, err, c.err)
		}
	}
	if _, err := ReadAnswers(filepath.Join(t.TempDir(), "none.jsonl"), tools, ""); err == nil {
		t.Error("a missing answers file was read")
	}
}

// TestApplyReviewsSaysAlsoOnce: a model's problem where a rule already
// reports names the rule, once per place; the finding is placed at its
// parameter and marked as the model's.
func TestApplyReviewsSaysAlsoOnce(t *testing.T) {
	cat, tools := reviewTools(t)
	rule := lint.Finding{Rule: "param-no-description", Tool: "list_events", Param: "rows[].id", ToolIndex: 0, Severity: lint.SeverityWarn, Message: "no description"}
	r := lint.NewReport(cat, []lint.Finding{rule}, similarity.Result{}, lint.Gate{FailOn: lint.SeverityWarn})
	v := Review{Tool: "list_events", By: "openai:rev", Texts: tools[0].TextHash(), Problems: []Problem{
		{Category: "param", Param: "rows.id", Note: "which id?"},
		{Category: "unit", Param: "rows.id", Note: "and a second"},
		{Category: "unit", Param: "start", Note: "no format"},
	}}
	got := ApplyReviews(r, cat, []ReviewResult{{Tool: tools[0], Status: Replayed, Review: &v}}, ApplyReviewsOptions{})
	if len(got.Structural) != 4 || len(r.Structural) != 1 {
		t.Fatalf("%d findings (the input %d), want 4 (1)", len(got.Structural), len(r.Structural))
	}
	first, second, third := got.Structural[1], got.Structural[2], got.Structural[3]
	if !reflect.DeepEqual(first.Also, []string{"param-no-description"}) || !strings.HasSuffix(first.Message, "(also reported by param-no-description)") {
		t.Errorf("first %+v: want it to name the rule", first)
	}
	if second.Also != nil || third.Also != nil {
		t.Errorf("said more than once: %+v, %+v", second, third)
	}
	if first.Rule != lint.RuleModelReview || first.By != "openai:rev" || first.Category != "param" || first.Severity != lint.SeverityWarn {
		t.Errorf("finding %+v not marked as the model's", first)
	}
	if third.Line != 4 {
		t.Errorf("start placed at line %d, want 4 (its key)", third.Line)
	}
	if got.OK || got.Summary.Warnings != 4 {
		t.Errorf("gate ok=%v warnings %d under fail-on warn, want a failed gate and 4", got.OK, got.Summary.Warnings)
	}
}

// TestReviewCacheKeepsJudgmentsReadable: review lines in the cache file
// sit beside judgments; neither is taken for damaged.
func TestReviewCacheKeepsJudgmentsReadable(t *testing.T) {
	_, tools := reviewTools(t)
	dir := t.TempDir()
	c := OpenCache(dir)
	c.Store(Judgment{A: "a", B: "b", Label: 2, Reason: "r", By: "openai:rev", Prompt: PromptVersion, Texts: "sha256:1"}, "http://x")
	c.StoreReview(Review{Tool: "ping", Problems: []Problem{}, By: "openai:rev", Prompt: ReviewPromptVersion, Texts: tools[2].TextHash()}, "http://x")
	again := OpenCache(dir)
	if again.Damaged() != 0 || again.Len() != 1 || again.ReviewCount() != 1 {
		t.Errorf("damaged %d, judgments %d, reviews %d; want 0, 1, 1", again.Damaged(), again.Len(), again.ReviewCount())
	}
	if _, ok := again.LookupReview(tools[2], "openai:rev", ReviewPromptVersion, "http://y"); ok {
		t.Error("a review answered at another endpoint was taken")
	}
	data, _ := os.ReadFile(filepath.Join(dir, CacheFile))
	if strings.Count(string(data), "\n") != 2 {
		t.Errorf("cache file %q, want two lines", data)
	}
}

// FuzzParseReview: whatever a model answers, an accepted review holds at
// most MaxProblems problems, each of a known category, with a note, at a
// parameter the tool has.
func FuzzParseReview(f *testing.F) {
	for _, s := range []string{`{"problems":[]}`, `{"problems":[{"category":"unit","param":"start","note":"n"}]}`, `{"problems":[{"category":"param","param":"rows[].id","note":"n"}]}`, "```\n{\"problems\":null}\n```"} {
		f.Add(s)
	}
	cat, err := catalog.Parse("c.json", []byte(reviewCatalog))
	if err != nil {
		f.Fatal(err)
	}
	events := ReviewToolsOf(cat)[0]
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseReview(s, events)
		if err != nil {
			return
		}
		if len(got) > MaxProblems {
			t.Fatalf("accepted %d problems", len(got))
		}
		for _, p := range got {
			if _, ok := ParamPos(events.schema, p.Param); !slices.Contains(ReviewCategories, p.Category) || strings.TrimSpace(p.Note) == "" || (p.Param != "" && !ok) {
				t.Fatalf("accepted %+v from %q", p, s)
			}
		}
	})
}

// FuzzParseAnswers: an answers file either fails with its line named or
// gives reviews of the catalog's tools as they are.
func FuzzParseAnswers(f *testing.F) {
	cat, err := catalog.Parse("c.json", []byte(reviewCatalog))
	if err != nil {
		f.Fatal(err)
	}
	tools := ReviewToolsOf(cat)
	f.Add([]byte(`{"tool":"ping","texts":"` + tools[2].TextHash() + `","answer":{"problems":[]}}` + "\n# c\n"))
	f.Add([]byte(`{"tool":"ping","texts":"sha256:1","answer":"{\"problems\":[]}","by":"openai:x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := parseAnswers(data, tools, "")
		if err != nil {
			if _, _, ok := strings.Cut(err.Error(), ": "); !ok {
				t.Fatalf("error %q names no line", err)
			}
			return
		}
		for _, v := range a.byKey {
			if !slices.ContainsFunc(tools, func(t ReviewTool) bool { return t.Name == v.Tool && t.TextHash() == v.Texts }) {
				t.Fatalf("an answer for no tool of the catalog: %+v", v)
			}
		}
	})
}

// TestParamPosLooksWhereTheSchemaPoints: a parameter is found through an
// array's items, anyOf/oneOf/allOf branches and local $refs, and not
// where the schema does not have it; a $ref to itself ends.
func TestParamPosLooksWhereTheSchemaPoints(t *testing.T) {
	schema := `{"type": "object", "$defs": {"F": {"type": "object", "properties": {"field": {"type": "string"}}}, "Loop": {"$ref": "#/$defs/Loop"}},
	 "properties": {
	  "filter": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {"name": {"type": "string"}}}]},
	  "sort": {"$ref": "#/$defs/F"},
	  "rows": {"type": "array", "items": {"allOf": [{"properties": {"id": {"type": "integer"}}}]}},
	  "loop": {"$ref": "#/$defs/Loop"},
	  "tags": {"type": "array", "items": {"type": "string"}},
	  "user.name": {"type": "string"}}}`
	cat, err := catalog.Parse("c.json", []byte(`[{"name": "t", "description": "d", "inputSchema": `+schema+`}]`))
	if err != nil {
		t.Fatal(err)
	}
	s := cat.Tools[0].Schema
	for path, want := range map[string]bool{
		"filter": true, "filter.name": true, "sort.field": true, "rows.id": true, "rows[].id": true, "tags[]": true, "tags": true,
		"filter.age": false, "sort.name": false, "loop.x": false, "rows.name": false, "": false, "name": false, "field": false, "rows..id": false, "user.name": true, "user": false,
	} {
		if _, ok := ParamPos(s, path); ok != want {
			t.Errorf("ParamPos(%q) = %v, want %v", path, ok, want)
		}
	}
}

// TestReviewAnswersAreBounded: a review request says max_tokens, and an
// answer over the size cap is refused, not read.
func TestReviewAnswersAreBounded(t *testing.T) {
	_, tools := reviewTools(t)
	huge := chatAnswer(`{"problems": [{"category": "other", "param": null, "note": "` + strings.Repeat("x", 2*maxAnswerBytes) + `"}]}`)
	srv, bodies := chatServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) { w.Write([]byte(huge)) })
	m := reviewModel(t, srv.URL)
	_, _, err := m.Review(context.Background(), tools[0])
	if err == nil || !strings.Contains(err.Error(), "response larger than 1 MiB") {
		t.Errorf("error %v, want the answer refused for its size", err)
	}
	if got := bodies()[0]["max_tokens"]; got != float64(MaxAnswerTokens) {
		t.Errorf("max_tokens %v, want %d", got, MaxAnswerTokens)
	}
}

// TestReviewSiblingsOfALargeCatalog: a review names at most 200 siblings,
// gives the 20 nearest by their words their first sentences, and keeps
// the nearest among them wherever they stand in the catalog.
func TestReviewSiblingsOfALargeCatalog(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 250 {
		fmt.Fprintf(&b, `{"name": "tool_%03d", "description": "Does thing number %d of the generic kind."},`, i, i)
	}
	b.WriteString(`{"name": "zebra_stripes_last", "description": "Counts zebra stripes on a savanna photo."},`)
	b.WriteString(`{"name": "zebra_stripes_first", "description": "Counts zebra stripes in a savanna video."}]`)
	cat, err := catalog.Parse("c.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	tools := ReviewToolsOf(cat)
	rt := tools[len(tools)-1]
	sentenced := 0
	twin := false
	for _, s := range rt.Siblings {
		if s.Sentence != "" {
			sentenced++
		}
		twin = twin || (s.Name == "zebra_stripes_last" && s.Sentence != "")
	}
	if len(rt.Siblings) != maxSiblings || sentenced < 1 || sentenced > SentencedSiblings || !twin {
		t.Errorf("%d siblings, %d with sentences, twin sentenced %v; want %d, 1 to %d, true", len(rt.Siblings), sentenced, twin, maxSiblings, SentencedSiblings)
	}
	// A generic tool shares its words with many: its 20 nearest.
	generic := 0
	for _, s := range tools[0].Siblings {
		if s.Sentence != "" {
			generic++
		}
	}
	if generic != SentencedSiblings {
		t.Errorf("tool_000: %d siblings with sentences, want %d", generic, SentencedSiblings)
	}
	small := ReviewToolsOf(mustCatalog(t, reviewCatalog))
	for _, s := range small[0].Siblings {
		if s.Sentence == "" {
			t.Errorf("a small catalog's sibling %s has no sentence", s.Name)
		}
	}
}

func mustCatalog(t *testing.T, text string) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Parse("c.json", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestAnswersFileAnswersEachToolOnce: a second answer for the same tool's
// texts is an error naming its line, not the last one silently kept.
func TestAnswersFileAnswersEachToolOnce(t *testing.T) {
	_, tools := reviewTools(t)
	line := `{"tool": "ping", "texts": "` + tools[2].TextHash() + `", "answer": {"problems": []}}`
	if _, err := parseAnswers([]byte(line+"\n"+line+"\n"), tools, ""); err == nil || !strings.HasPrefix(err.Error(), "2: ") || !strings.Contains(err.Error(), "answered twice") {
		t.Errorf("error %v, want line 2 answered twice", err)
	}
}
