package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode"

	"toolscope/core/judge"
)

// The stand-in drives the probe's end-to-end checks:
//   - per-tool counts and argument issues: TestProbeChecksTheModelsArguments;
//   - two negatives, one over-trigger: TestProbeNegativesCountOverTriggers;
//   - under --repeats 10 only the order-dependent requests are unstable:
//     TestProbeRepeatsReportOnlyOrderDependentRequests;
//   - the helpful fix kept, the harmful one rejected, --write changing only
//     the kept tools: TestProbeFixKeepsTheHelpfulFixAndRejectsTheHarmfulOne;
//   - lint --min-accuracy replaying the record with no model reachable:
//     TestLintMinAccuracyReplaysTheRecordedProbe;
//   - probe diff: TestProbeDiffPairsTwoRecords.

// standIn is a deterministic model behind an OpenAI-compatible endpoint.
// Asked for a tool call, it picks the tool that shares the most words with
// the request (the tool's name split at _ and its description; a few
// small words are not counted), ties going to the tool listed first; with
// tool_choice auto and no shared word it calls none. Its arguments are
// scripted by request ("{}" when not). Asked as the judge, it answers
// label 2 with the scripted sentences for the pair ("a|b" by name).
type standIn struct {
	args  map[string]string
	fixes map[string][2]string

	mu sync.Mutex
	// sent counts the tool-call requests, judged the judge's.
	sent, judged int
}

// standInStop are the words the stand-in does not count.
var standInStop = map[string]bool{"a": true, "an": true, "the": true, "to": true, "for": true, "by": true, "of": true, "it": true, "use": true, "my": true, "me": true, "and": true, "is": true, "in": true}

// standInWords are text's words, lower case, small words left out.
func standInWords(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !standInStop[w] {
			out[w] = true
		}
	}
	return out
}

// standInPick is the stand-in's pick among tools, in the order listed:
// the name of the tool sharing most words with request, "" for none.
func standInPick(request string, tools []standInTool, auto bool) string {
	want := standInWords(request)
	best, bestN := "", -1
	for _, t := range tools {
		n := 0
		for w := range standInWords(strings.ReplaceAll(t.Name, "_", " ") + " " + t.Description) {
			if want[w] {
				n++
			}
		}
		if n > bestN {
			best, bestN = t.Name, n
		}
	}
	if auto && bestN == 0 {
		return ""
	}
	return best
}

type standInTool struct{ Name, Description string }

func (s *standIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Messages []struct{ Role, Content string }
		Tools    []struct{ Function standInTool }
		Choice   string `json:"tool_choice"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || len(body.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad request"}}`, 400)
		return
	}
	last := body.Messages[len(body.Messages)-1].Content
	message := map[string]any{"role": "assistant"}
	switch {
	case body.Tools != nil:
		tools := make([]standInTool, len(body.Tools))
		for i, t := range body.Tools {
			tools[i] = t.Function
		}
		s.mu.Lock()
		s.sent++
		s.mu.Unlock()
		if picked := standInPick(last, tools, body.Choice == judge.ChoiceAuto); picked != "" {
			args, ok := s.args[last]
			if !ok {
				args = "{}"
			}
			message["tool_calls"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": picked, "arguments": args}}}
		}
	case body.Messages[0].Content == judge.Rubric:
		var pair struct{ A, B struct{ Name string } }
		json.Unmarshal([]byte(last), &pair)
		s.mu.Lock()
		s.judged++
		s.mu.Unlock()
		fix := s.fixes[pair.A.Name+"|"+pair.B.Name]
		answer, _ := json.Marshal(map[string]any{"label": 2, "reason": "the texts share a verb", "fix": map[string]string{"a": fix[0], "b": fix[1]}})
		message["content"] = string(answer)
	default:
		http.Error(w, `{"error":{"message":"the stand-in writes no requests"}}`, 400)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": message}}, "usage": map[string]int{"prompt_tokens": 10, "completion_tokens": 2}})
}

// standInCatalog is the stand-in's catalog: two search tools a request
// about an error cannot tell apart, and mail and calendar tools a request
// to read mail or show a person's events cannot.
const standInCatalog = `[
 {"name": "search_files", "description": "Search files by name.", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
 {"name": "search_logs", "description": "Search logs by text.", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}, "since": {"type": "string"}}, "required": ["query"]}},
 {"name": "send_mail", "description": "Send mail to a person.", "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}, "body": {"type": "string"}}, "required": ["to", "body"]}},
 {"name": "read_calendar", "description": "Read calendar events.", "inputSchema": {"type": "object", "properties": {"day": {"type": "string"}}}}
]`

// standInExamples are the requests: "search the error", "read my mail"
// and "show events by person" tie between two tools (the first listed
// wins, so their picks hang on the order); two are meant for no tool, and
// "read me a poem" shares a word with read_calendar.
const standInExamples = `{"request": "search files named report", "tool": "search_files"}
{"request": "find files for the budget", "tool": "search_files"}
{"request": "search the error", "tool": "search_logs"}
{"request": "search logs for timeouts", "tool": "search_logs"}
{"request": "send mail to Ann", "tool": "send_mail"}
{"request": "mail the team", "tool": "send_mail"}
{"request": "read my mail", "tool": "send_mail"}
{"request": "read calendar today", "tool": "read_calendar"}
{"request": "show events by person", "tool": "read_calendar"}
{"request": "tell me a joke", "tool": null}
{"request": "read me a poem", "tool": null}
`

// newStandIn serves the stand-in with its scripted arguments and judge
// sentences: the search pair's help ("error" goes to search_logs), the
// mail and calendar pair's harm ("mail" goes to read_calendar too).
func newStandIn(t *testing.T) (*standIn, string) {
	t.Helper()
	s := &standIn{
		args: map[string]string{
			"search files named report": `{"query": "report"}`,
			"find files for the budget": `{}`,
			"search the error":          `{"query": "error"}`,
			"search logs for timeouts":  `{"query": "timeouts", "since": "yesterday"}`,
			"send mail to Ann":          `{"to": "Ann"}`,
			"mail the team":             `{"to": "team", "body": "hi"}`,
			"read my mail":              `{"to": "me", "body": "x"}`,
			"read calendar today":       `{"day": 5}`,
			"show events by person":     `{"to": "person"}`,
		},
		fixes: map[string][2]string{
			"search_files|search_logs": {"Use it for documents.", "Use it for error messages."},
			"read_calendar|send_mail":  {"Reads calendar mail invitations.", "Also shows events for a person."},
		},
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	clearJudgeEnv(t)
	return s, srv.URL + "/v1"
}

// probedStandIn serves the stand-in and records a probe of its catalog
// (written to a temporary tools.json, the record beside it) under
// --tool-choice auto: the explorer's tests start from that record.
func probedStandIn(t *testing.T) (s *standIn, url, cat string) {
	t.Helper()
	s, url = newStandIn(t)
	cat = filepath.Join(t.TempDir(), "tools.json")
	if err := os.WriteFile(cat, []byte(standInCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	ex := writeFile(t, "examples.jsonl", standInExamples)
	if code, _, errb := runCmd("", "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--record", cat); code != 0 {
		t.Fatalf("probe: exit %d: %s", code, errb)
	}
	return s, url, cat
}
