package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/judge"
	"toolscope/tui"
)

const probeCatalog = `[
 {"name": "alpha_search", "description": "Searches alpha.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
 {"name": "beta_lookup", "description": "Looks up beta.", "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}},
 {"name": "gamma", "description": "Does gamma.", "inputSchema": {"type": "object"}}
]`

// scriptedModel answers a probe: for a tool it writes the requests in
// written (the model's own words), and for a request it calls the tool in
// picks ("" calls none).
type scriptedModel struct {
	written map[string][]string
	picks   map[string]string
	// fromExamples are the requests written from a tool's input
	// examples, when the writing request carries them; asked keeps, per
	// tool, the writing request's system prompt, examples and k.
	fromExamples map[string][]string
	asked        map[string]writeAsked

	// noRequired refuses tool_choice "required" with a 400, as some
	// servers do.
	noRequired bool

	mu    sync.Mutex
	tools [][]any
	other int
}

func (s *scriptedModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Messages []struct{ Role, Content string }
		Tools    []any
		Choice   any `json:"tool_choice"`
	}
	json.NewDecoder(r.Body).Decode(&body)
	last := body.Messages[len(body.Messages)-1].Content
	message := map[string]any{"role": "assistant"}
	if body.Tools != nil && s.noRequired && body.Choice == "required" {
		http.Error(w, `{"error":{"message":"tool_choice required is not supported"}}`, 400)
		return
	}
	if body.Tools != nil {
		s.mu.Lock()
		s.tools = append(s.tools, body.Tools)
		if body.Choice != "required" {
			s.other++
		}
		s.mu.Unlock()
		picked, ok := s.picks[last]
		if !ok {
			http.Error(w, `{"error":{"message":"unscripted request"}}`, 500)
			return
		}
		if picked != "" {
			message["tool_calls"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": picked, "arguments": "{}"}}}
		}
	} else {
		var ask struct {
			Tool     struct{ Name string }
			Examples []json.RawMessage
			K        int
		}
		json.Unmarshal([]byte(last), &ask)
		answer := map[string]any{"requests": s.written[ask.Tool.Name]}
		if ask.Examples != nil {
			answer["fromExamples"] = s.fromExamples[ask.Tool.Name]
		}
		s.mu.Lock()
		if s.asked == nil {
			s.asked = map[string]writeAsked{}
		}
		s.asked[ask.Tool.Name] = writeAsked{system: body.Messages[0].Content, user: last, examples: ask.Examples, k: ask.K}
		s.mu.Unlock()
		b, _ := json.Marshal(answer)
		message["content"] = string(b)
	}
	json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": message}}})
}

// clearJudgeEnv leaves the judge's endpoint and key to the flags.
func clearJudgeEnv(t *testing.T) {
	for _, v := range []string{"TOOLSCOPE_JUDGE_URL", "OPENAI_BASE_URL", "TOOLSCOPE_JUDGE_KEY", "OPENAI_API_KEY"} {
		t.Setenv(v, "")
	}
}

// writeAsked is what a writing request asked for one tool.
type writeAsked struct {
	system, user string
	examples     []json.RawMessage
	k            int
}

func TestProbeMatrixMatchesTheScript(t *testing.T) {
	s := &scriptedModel{
		written: map[string][]string{
			"alpha_search": {"find me the a files", "where is that a thing", "look for a report", "use alpha_search please"},
			"beta_lookup":  {"what is record 7", "details of record 9", "show record 3"},
			"gamma":        {"do the g", "g it now", "gamma please do it", "run g"},
		},
		picks: map[string]string{
			"find me the a files":   "alpha_search",
			"where is that a thing": "beta_lookup",
			"look for a report":     "beta_lookup",
			"what is record 7":      "beta_lookup",
			"details of record 9":   "beta_lookup",
			"show record 3":         "alpha_search",
			"do the g":              "",
			"g it now":              "gamma",
			"run g":                 "gamma",
		},
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	clearJudgeEnv(t)
	cat := writeFile(t, "cat.json", probeCatalog)
	code, out, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "4", "--yes", "--format", "json", cat)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var got judge.Probe
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// The expected matrix comes from the script: requests that name their
	// tool are never sent.
	want := map[string]map[string]int{}
	for tool, reqs := range s.written {
		for _, q := range reqs {
			picked, sent := s.picks[q]
			if !sent {
				continue
			}
			if picked == "" {
				picked = judge.NoPick
			}
			if want[tool] == nil {
				want[tool] = map[string]int{}
			}
			want[tool][picked]++
		}
	}
	if !reflect.DeepEqual(got.Matrix, want) {
		t.Fatalf("matrix %v\nwant   %v", got.Matrix, want)
	}
	if len(got.Cases) != 9 || got.Correct != 5 || s.other != 0 {
		t.Fatalf("cases %d correct %d, requests without tool_choice required %d", len(got.Cases), got.Correct, s.other)
	}
	for _, tools := range s.tools {
		if len(tools) != 3 {
			t.Fatalf("a pick request carried %d tools; want the whole catalog", len(tools))
		}
	}
	if got.Confusions[0].Sentence() != "2 of 3 requests for alpha_search went to beta_lookup" {
		t.Errorf("first confusion %q", got.Confusions[0].Sentence())
	}
	for _, note := range []string{"alpha_search: 3 of 4 requests kept", "gamma: 3 of 4"} {
		if !strings.Contains(errb, note) {
			t.Errorf("stderr lacks %q:\n%s", note, errb)
		}
	}
	if !strings.Contains(errb, "requests, about") {
		t.Errorf("no estimate before the run:\n%s", errb)
	}

	// The same probe in text and Markdown carries the sentences.
	for _, format := range []string{"text", "markdown"} {
		code, out, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "4", "--yes", "--format", format, cat)
		if code != 0 || !strings.Contains(out, "alpha_search") || !strings.Contains(out, "beta_lookup") {
			t.Fatalf("%s: exit %d\n%s\n%s", format, code, out, errb)
		}
	}
}

func TestProbeExamplesAndCostGate(t *testing.T) {
	s := &scriptedModel{picks: map[string]string{"q1": "gamma", "q2": "alpha_search"}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	clearJudgeEnv(t)
	cat := writeFile(t, "cat.json", probeCatalog)
	ex := writeFile(t, "ex.jsonl", `{"request": "q1", "tool": "alpha_search"}`+"\n"+`{"request": "q2", "tool": "alpha_search"}`+"\n")
	// A remote model with no known price is not run off a terminal.
	code, _, errb := runCmd("", "probe", "--model", "openai:unknown-model", "--url", "https://example.invalid/v1", "--examples", ex, cat)
	if code != 2 || !strings.Contains(errb, "not run: the price is unknown") {
		t.Fatalf("exit %d: %s", code, errb)
	}
	code, _, errb = runCmd("", "probe", "--model", "openai:gpt-4.1", "--url", "https://example.invalid/v1", "--examples", ex, "--max-cost", "0", cat)
	if code != 2 || !strings.Contains(errb, "over --max-cost $0.00") {
		t.Fatalf("exit %d: %s", code, errb)
	}
	// A loopback server costs nothing: it runs without --yes. This one
	// refuses tool_choice "required": the picks are asked with "auto".
	s.noRequired = true
	code, out, errb := runCmd("", "probe", "--model", "openai:m", "--url", srv.URL+"/v1", "--examples", ex, "--format", "json", cat)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var got judge.Probe
	json.Unmarshal([]byte(out), &got)
	if want := map[string]map[string]int{"alpha_search": {"gamma": 1, "alpha_search": 1}}; !reflect.DeepEqual(got.Matrix, want) {
		t.Fatalf("matrix %v; want %v", got.Matrix, want)
	}
	if s.other != 2 {
		t.Fatalf("%d picks asked with tool_choice auto after the refusal; want 2", s.other)
	}
	bad := writeFile(t, "bad.jsonl", `{"request": "q", "tool": "nope"}`)
	code, _, errb = runCmd("", "probe", "--model", "openai:m", "--url", srv.URL+"/v1", "--examples", bad, cat)
	if code != 2 || !strings.Contains(errb, `line 1: no tool "nope"`) {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, args := range [][]string{{"probe", cat}, {"probe", "--model", "gpt-4", cat}, {"probe", "--model", "openai:m", "--k", "0", cat}, {"probe", "--model", "openai:m", "--probe-file", "p.json", cat}} {
		if code, _, _ := runCmd("", args...); code != 2 {
			t.Errorf("%v: exit %d; want 2", args, code)
		}
	}
}

// probe --record writes the probe file beside the catalog, and the
// explorer opened on the catalog shows the measured rate beside the pair's
// risk; a tool edited since makes it stale, and --probe-file names
// another file on both sides.
func TestProbeRecordShowsInTheExplorer(t *testing.T) {
	s := &scriptedModel{
		written: map[string][]string{
			"alpha_search": {"find me the a files", "where is that a thing", "look for a report"},
			"beta_lookup":  {"what is record 7", "details of record 9", "show record 3"},
			"gamma":        {"do the g", "g it now"},
		},
		picks: map[string]string{
			"find me the a files": "alpha_search", "where is that a thing": "beta_lookup", "look for a report": "beta_lookup",
			"what is record 7": "beta_lookup", "details of record 9": "beta_lookup", "show record 3": "alpha_search",
			"do the g": "gamma", "g it now": "gamma",
		},
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	clearJudgeEnv(t)
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	os.WriteFile(cat, []byte(probeCatalog), 0o644)
	code, _, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "3", "--record", cat)
	recorded := filepath.Join(dir, judge.ProbeFileName)
	if code != 0 || !strings.Contains(errb, "recorded 8 requests for 3 tools in "+recorded) {
		t.Fatalf("exit %d: %s", code, errb)
	}
	rec, err := judge.ReadProbeFile(recorded)
	if err != nil || rec == nil || rec.Model != "openai:scripted" || len(rec.Cases) != 8 || len(rec.Tools) != 3 {
		t.Fatalf("the probe file: %+v, %v", rec, err)
	}

	rowOf := func(m *tui.Model, pair string) string {
		for _, l := range strings.Split(ansi.Strip(m.View()), "\n") {
			if strings.Contains(l, pair) {
				return l
			}
		}
		return ""
	}
	// alpha_search's 3 requests, 2 to beta_lookup; beta_lookup's 3, 1 to
	// alpha_search: 3 of 6.
	m := openExplorer(t, 80, 24, "--embedder", "mock", cat)
	explorerKeys(m, runes("3"), runes("g"))
	if row := rowOf(m, "alpha_search ↔ beta_lookup"); !strings.Contains(row, "3/6   alpha_search ↔ beta_lookup") {
		t.Errorf("the ranking's row %q lacks the rate 3/6:\n%s", row, ansi.Strip(m.View()))
	}
	// gamma's 2 requests stayed, and so did beta_lookup's with it: 0 of 5.
	if row := rowOf(m, "beta_lookup ↔ gamma") + rowOf(m, "gamma ↔ beta_lookup"); !strings.Contains(row, "0/5   ") {
		t.Errorf("the row of beta_lookup and gamma %q lacks the rate 0/5", row)
	}

	// beta_lookup's description changes: its pairs' measures are stale.
	os.WriteFile(cat, []byte(strings.Replace(probeCatalog, "Looks up beta.", "Looks up one beta record by id.", 1)), 0o644)
	m = openExplorer(t, 80, 24, "--embedder", "mock", cat)
	explorerKeys(m, runes("3"), runes("g"))
	if row := rowOf(m, "alpha_search ↔ beta_lookup"); !strings.Contains(row, "3/6*  alpha_search ↔ beta_lookup") {
		t.Errorf("the edited pair's row %q is not marked stale", row)
	}

	// --probe-file on both sides; the default place is then not read.
	other := filepath.Join(t.TempDir(), "probe.json")
	os.Remove(recorded)
	if code, _, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "3", "--record", "--probe-file", other, cat); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if _, err := os.Stat(recorded); err == nil {
		t.Fatal("--probe-file wrote the default file too")
	}
	m = openExplorer(t, 80, 24, "--embedder", "mock", "--probe-file", other, cat)
	explorerKeys(m, runes("3"), runes("g"))
	if row := rowOf(m, "alpha_search ↔ beta_lookup"); !strings.Contains(row, "3/6") {
		t.Errorf("--probe-file: row %q lacks the rate", row)
	}

	// A bad probe file stops the explorer with one line naming it.
	os.WriteFile(recorded, []byte("{\n  \"probe\": 1,\n  \"model\": \"m\",\n  \"dat\": 1\n}\n"), 0o644)
	code, _, errb = runCmd("", "--embedder", "mock", cat)
	if code != 2 || !strings.Contains(errb, recorded+`:4:3: the record: unknown field "dat"`) || strings.Count(errb, "\n") != 1 {
		t.Errorf("a bad probe file: exit %d %q", code, errb)
	}
	code, _, errb = runCmd("", "--embedder", "mock", "--probe-file", filepath.Join(dir, "missing.json"), cat)
	if code != 2 || !strings.Contains(errb, "missing.json: no such file") {
		t.Errorf("a missing --probe-file: exit %d %q", code, errb)
	}
}

// An Anthropic catalog's input_examples: the writing request for a tool
// that has them carries its first K examples and asks for one request per
// example, then free ones for the rest of K; the report counts the
// requests written from examples, and the record says where each came
// from.
func TestProbeWritesRequestsFromInputExamples(t *testing.T) {
	const anthropicCatalog = `[
 {"name": "alpha_search", "description": "Searches alpha.", "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}},
  "input_examples": [{"q": "quarterly revenue"}, {"q": "churn by region"}]},
 {"name": "beta_lookup", "description": "Looks up beta.", "input_schema": {"type": "object", "properties": {"id": {"type": "string"}}},
  "input_examples": [{"id": "7"}, {"id": "9"}, {"id": "11"}, {"id": "13"}]},
 {"name": "gamma", "description": "Does gamma.", "input_schema": {"type": "object"}}
]`
	s := &scriptedModel{
		fromExamples: map[string][]string{
			"alpha_search": {"how did quarterly revenue do", "use alpha_search for churn by region"},
			"beta_lookup":  {"what is record 7", "details of record 9", "show record 11"},
		},
		written: map[string][]string{
			"alpha_search": {"find me the a files"},
			"gamma":        {"do the g", "g it now", "run g"},
		},
		picks: map[string]string{
			"how did quarterly revenue do": "alpha_search", "find me the a files": "beta_lookup",
			"what is record 7": "beta_lookup", "details of record 9": "alpha_search", "show record 11": "beta_lookup",
			"do the g": "gamma", "g it now": "gamma", "run g": "gamma",
		},
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	clearJudgeEnv(t)
	cat := writeFile(t, "anthropic.json", anthropicCatalog)
	record := filepath.Join(t.TempDir(), "probe.json")
	code, out, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "3", "--format", "json", "--record", "--probe-file", record, cat)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}

	// What each writing request asked.
	for _, tc := range []struct {
		tool     string
		examples string
		k        int
	}{
		{"alpha_search", `[{"q":"quarterly revenue"},{"q":"churn by region"}]`, 1},
		{"beta_lookup", `[{"id":"7"},{"id":"9"},{"id":"11"}]`, 0},
		{"gamma", ``, 3},
	} {
		a := s.asked[tc.tool]
		got, _ := json.Marshal(a.examples)
		if a.examples == nil {
			got = nil
		}
		if string(got) != tc.examples || a.k != tc.k {
			t.Errorf("%s: asked with examples %s and k %d; want %s and %d", tc.tool, got, a.k, tc.examples, tc.k)
		}
		withExamples := strings.Contains(a.system, "for each example in order, write one realistic request") && strings.Contains(a.system, "exactly those arguments")
		if withExamples != (tc.examples != "") || !strings.Contains(a.system, "Never mention the tool's name") {
			t.Errorf("%s: system prompt %q", tc.tool, a.system)
		}
	}

	var got judge.Probe
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// alpha_search: one of its two example requests named the tool and
	// was dropped; beta_lookup: three from examples; gamma: three free.
	from := map[string]map[string]int{}
	for _, c := range got.Cases {
		if from[c.Tool] == nil {
			from[c.Tool] = map[string]int{}
		}
		from[c.Tool][c.From]++
	}
	want := map[string]map[string]int{
		"alpha_search": {judge.FromInputExample: 1, judge.FromWritten: 1},
		"beta_lookup":  {judge.FromInputExample: 3},
		"gamma":        {judge.FromWritten: 3},
	}
	if !reflect.DeepEqual(from, want) || got.FromInputExamples != 4 || len(got.Cases) != 8 {
		t.Errorf("cases by origin %v, %d from input_examples of %d; want %v, 4 of 8", from, got.FromInputExamples, len(got.Cases), want)
	}
	rec, err := judge.ReadProbeFile(record)
	if err != nil || rec == nil || !reflect.DeepEqual(rec.Cases, got.Cases) {
		t.Errorf("the record's cases differ from the report's: %v", err)
	}
	code, text, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "3", cat)
	if code != 0 || !strings.Contains(text, "8 requests for 3 tools (4 written from input_examples)") {
		t.Errorf("exit %d: the text report does not count the requests from examples:\n%s%s", code, text, errb)
	}
}

// When every written request names its tool, nothing is sent: the probe
// fails in one line, and the record kept from before stays as it was.
func TestProbeWithNothingToSendKeepsTheRecord(t *testing.T) {
	s := &scriptedModel{written: map[string][]string{
		"alpha_search": {"use alpha_search"}, "beta_lookup": {"call beta_lookup"}, "gamma": {"gamma it"},
	}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	clearJudgeEnv(t)
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	os.WriteFile(cat, []byte(probeCatalog), 0o644)
	recorded := filepath.Join(dir, judge.ProbeFileName)
	before := []byte("kept from the last probe")
	os.WriteFile(recorded, before, 0o644)
	code, out, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "1", "--record", cat)
	if code != 2 || out != "" || !strings.Contains(errb, "toolscope probe: no request to send") {
		t.Errorf("exit %d, stdout %q, stderr %s; want exit 2 and one line", code, out, errb)
	}
	if after, _ := os.ReadFile(recorded); string(after) != string(before) {
		t.Errorf("the record was replaced: %q", after)
	}
	if len(s.tools) != 0 {
		t.Errorf("%d requests sent with the catalog", len(s.tools))
	}
}
