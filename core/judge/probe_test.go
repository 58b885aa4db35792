package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestTabulate(t *testing.T) {
	cases := []ProbeCase{
		{Tool: "a", Request: "r1", Picked: "a"}, {Tool: "a", Request: "r2", Picked: "b"}, {Tool: "a", Request: "r3", Picked: "b"},
		{Tool: "b", Request: "r4", Picked: "b"}, {Tool: "b", Request: "r5", Picked: NoPick},
		{Tool: "c", Request: "r6", Picked: "c"},
	}
	p := Tabulate("openai:m", []string{"a", "b", "c"}, cases)
	if p.Correct != 3 || p.Matrix["a"]["b"] != 2 || p.Matrix["b"][NoPick] != 1 || len(p.Matrix) != 3 {
		t.Fatalf("matrix %v correct %d", p.Matrix, p.Correct)
	}
	want := []string{"2 of 3 requests for a went to b", "1 of 2 requests for b went to no tool"}
	if len(p.Confusions) != 2 || p.Confusions[0].Sentence() != want[0] || p.Confusions[1].Sentence() != want[1] {
		t.Fatalf("confusions %+v", p.Confusions)
	}
	var text, md bytes.Buffer
	if err := p.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{text.String(), md.String()} {
		if !strings.Contains(s, "3 went to the tool they were meant for (50%)") {
			t.Errorf("no summary in\n%s", s)
		}
	}
	if !strings.Contains(text.String(), want[0]) || !strings.Contains(text.String(), "4 = (none)") {
		t.Errorf("text:\n%s", text.String())
	}
	if !strings.Contains(md.String(), "| `a` | `b` | 2 of 3 | 67% |") {
		t.Errorf("markdown:\n%s", md.String())
	}
}

func TestRequestNamesTool(t *testing.T) {
	for _, tc := range []struct {
		request, tool string
		want          bool
	}{
		{"use brave_local_search for pizza", "brave_local_search", true},
		{"do a brave local search for pizza", "brave_local_search", true},
		{"find pizza near me", "brave_local_search", false},
		{"what time is it", "time", true},
		{"show the latest build", "get-build", false},
	} {
		if got := names(tc.request, tc.tool); got != tc.want {
			t.Errorf("names(%q, %q) = %v", tc.request, tc.tool, got)
		}
	}
}

func TestReadExamples(t *testing.T) {
	names := []string{"a", "b"}
	for _, tc := range []struct{ in, err string }{
		{"# mine\n{\"request\": \"x\", \"tool\": \"a\"}\n\n{\"request\": \"y\", \"tool\": \"b\"}\n", ""},
		{`{"request": "x", "tool": "c"}`, `line 1: no tool "c"`},
		{`{"request": " ", "tool": "a"}`, "line 1: empty request"},
		{"{\"request\": \"x\", \"tool\": \"a\"}\n{\"request\": 1}", "line 2: not"},
		{`{"request": "x", "tool": "a", "why": 1}`, "line 1: not"},
		{`{"request": "x"}`, "line 1: not"},
		{`{"request": "x", "tool": 3}`, `line 1: "tool" is not a name or null`},
	} {
		ex, err := ReadExamples([]byte(tc.in), names)
		if tc.err == "" {
			if err != nil || len(ex) != 2 || ex[1].Tool != "b" {
				t.Errorf("%q: %v %v", tc.in, ex, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: err %v; want %q", tc.in, err, tc.err)
		}
	}
}

func TestReadExamplesNegatives(t *testing.T) {
	ex, err := ReadExamples([]byte("{\"request\": \"tell me a joke\", \"tool\": null}\n{\"request\": \"x\", \"tool\": \"a\"}\n"), []string{"a"})
	if err != nil || len(ex) != 2 || ex[0].Tool != NoPick || ex[1].Tool != "a" {
		t.Fatalf("%+v %v", ex, err)
	}
}

func FuzzReadExamples(f *testing.F) {
	f.Add([]byte("{\"request\": \"x\", \"tool\": \"a\"}\n# c\n"))
	f.Add([]byte("{\"request\": \"no tool\", \"tool\": null}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ex, err := ReadExamples(data, []string{"a", "b"})
		if err != nil {
			return
		}
		for _, e := range ex {
			if strings.TrimSpace(e.Request) == "" || (e.Tool != "a" && e.Tool != "b" && e.Tool != NoPick) {
				t.Fatalf("accepted %+v", e)
			}
		}
	})
}

func TestParseRequests(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{`{"requests": ["a", "b"]}`, 2},
		{"```json\n[\"a\", \"b\", \"c\"]\n```", 3},
		{`["a"]`, 1},
		{`{"requests": []}`, 0},
		{`{"items": ["a"]}`, 0},
		{`requests: a, b`, 0},
		// A reasoning model's <think> block before the answer, as the
		// judge's answers may have.
		{"<think>the user wants\nrequests</think>\n{\"requests\": [\"a\", \"b\"]}", 2},
		{"<think>never closed {\"requests\": [\"a\"]}", 0},
		{"```json\n{\"requests\": [\"a\"]}", 0},
	} {
		got, err := parseRequests(tc.in)
		if len(got) != tc.want || (tc.want == 0) != (err != nil) {
			t.Errorf("%q: %v, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func FuzzParseRequests(f *testing.F) {
	f.Add(`{"requests": ["a"]}`)
	f.Add("```json\n[\"a\"]\n```")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseRequests(s)
		if err == nil && len(got) == 0 {
			t.Fatalf("%q: no requests and no error", s)
		}
	})
}

// A pick is the first tool call, or the older function_call, or none.
func TestPickReadsTheCall(t *testing.T) {
	for _, tc := range []struct {
		message string
		want    string
	}{
		{`{"tool_calls": [{"type": "function", "function": {"name": "b", "arguments": "{}"}}, {"type": "function", "function": {"name": "a"}}]}`, "b"},
		{`{"function_call": {"name": "a", "arguments": "{}"}}`, "a"},
		{`{"content": "I would rather not."}`, NoPick},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"choices": [{"message": %s}], "usage": {"prompt_tokens": 7, "completion_tokens": 3}}`, tc.message)
		}))
		m, err := New(Options{Model: "m", BaseURL: srv.URL, Getenv: env{}.get})
		if err != nil {
			t.Fatal(err)
		}
		call, used, err := m.Pick(context.Background(), "do it", []json.RawMessage{json.RawMessage(`{"type":"function","function":{"name":"a"}}`)}, "")
		srv.Close()
		if got := call.Name; err != nil || got != tc.want || used.PromptTokens != 7 {
			t.Errorf("%s: picked %q (%v), usage %+v; want %q", tc.message, got, err, used, tc.want)
		}
	}
}

func TestParseExampleRequests(t *testing.T) {
	for _, tc := range []struct {
		in         string
		fromEx, fr int
		bad        bool
	}{
		{`{"fromExamples": ["a", "b"], "requests": ["c"]}`, 2, 1, false},
		{"```json\n{\"fromExamples\": [\"a\"], \"requests\": []}\n```", 1, 0, false},
		{`{"fromExamples": ["a"]}`, 1, 0, false},
		{`{"requests": ["a"]}`, 0, 0, true},
		{`{"fromExamples": [], "requests": ["a"]}`, 0, 0, true},
		{`["a"]`, 0, 0, true},
		{`{"fromExamples": [1]}`, 0, 0, true},
	} {
		ex, free, err := parseExampleRequests(tc.in)
		if (err != nil) != tc.bad || len(ex) != tc.fromEx || len(free) != tc.fr {
			t.Errorf("%q: %v %v %v; want %d from examples, %d free, malformed %v", tc.in, ex, free, err, tc.fromEx, tc.fr, tc.bad)
		}
	}
}

func FuzzParseExampleRequests(f *testing.F) {
	f.Add(`{"fromExamples": ["a"], "requests": ["b"]}`)
	f.Add("```json\n{\"fromExamples\": [\"a\"]}\n```")
	f.Fuzz(func(t *testing.T, s string) {
		ex, _, err := parseExampleRequests(s)
		if err == nil && len(ex) == 0 {
			t.Fatalf("%q: no request from the examples and no error", s)
		}
	})
}

// A tool with input examples is asked for one request per example, up to
// k, and k counts the free ones left; the estimate counts that message.
func TestWriteMessageCarriesTheExamples(t *testing.T) {
	a := tool("a", "does a")
	a.Examples = []json.RawMessage{json.RawMessage(`{"q":"one"}`), json.RawMessage(`{"q":"two"}`), json.RawMessage(`{"q":"three"}`)}
	for _, tc := range []struct {
		k, n, free int
	}{{5, 3, 2}, {2, 2, 0}} {
		system, user, n := writeMessage(a, []string{"b"}, tc.k)
		var msg struct {
			Examples []json.RawMessage
			K        int
		}
		json.Unmarshal([]byte(user), &msg)
		if system != writerExamplesPrompt || n != tc.n || len(msg.Examples) != tc.n || msg.K != tc.free || string(msg.Examples[0]) != `{"q":"one"}` {
			t.Errorf("k %d: n %d, message %s", tc.k, n, user)
		}
	}
	plain := tool("b", "does b")
	if system, user, n := writeMessage(plain, nil, 5); system != writerPrompt || n != 0 || strings.Contains(user, "examples") {
		t.Errorf("a tool without examples: %s %s", system[:20], user)
	}
	with := EstimateProbe([]Tool{a, plain}, 5, 10, true, 100, nil)
	without := EstimateProbe([]Tool{tool("a", "does a"), plain}, 5, 10, true, 100, nil)
	if with.InTokens <= without.InTokens {
		t.Errorf("the estimate does not count the examples: %d with, %d without", with.InTokens, without.InTokens)
	}
}
