package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"toolscope/embed/openai"
)

// step is one scripted answer of the fake server for a pair.
type step struct {
	label     int    // the label answered
	content   string // answer content instead of a label, if set
	status    int    // an HTTP status instead of an answer, if set
	retryMs   string // Retry-After (seconds, as text) sent with status
	hang      bool   // never answer: the client's timeout ends the try
	hangup    bool   // close the connection without answering
	rawBody   string // a 200 body that is not a chat completion
	noFormat  bool   // refuse response_format with a 400
	reasonFor string // reason text; default "scripted"
}

// fake is an in-process OpenAI-compatible chat endpoint that answers each
// pair ("a|b") by its script, one step per request, the last step
// repeating.
type fake struct {
	*httptest.Server
	t *testing.T

	mu       sync.Mutex
	script   map[string][]step
	seen     map[string]int
	bodies   []map[string]any
	inFlight int
	peak     int
	auth     []string
}

func newFake(t *testing.T, script map[string][]step) *fake {
	f := &fake{t: t, script: script, seen: map[string]int{}}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fake) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.Error(w, `{"error":{"message":"no route"}}`, http.StatusNotFound)
		return
	}
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, `{"error":"bad json"}`, http.StatusBadRequest)
		return
	}
	msgs, _ := body["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)
	var pair struct {
		A, B struct{ Name string }
	}
	json.Unmarshal([]byte(last["content"].(string)), &pair)
	id := pair.A.Name + "|" + pair.B.Name

	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	steps := f.script[id]
	n := f.seen[id]
	f.seen[id]++
	f.inFlight++
	f.peak = max(f.peak, f.inFlight)
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.inFlight--
		f.mu.Unlock()
	}()

	s := step{label: 1}
	if len(steps) > 0 {
		s = steps[min(n, len(steps)-1)]
	}
	if _, asked := body["response_format"]; asked && s.noFormat {
		http.Error(w, `{"error":{"message":"response_format is not supported"}}`, http.StatusBadRequest)
		return
	}
	switch {
	case s.hang:
		<-r.Context().Done()
		return
	case s.hangup:
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	case s.status != 0:
		if s.retryMs != "" {
			w.Header().Set("Retry-After", s.retryMs)
		}
		http.Error(w, `{"error":{"message":"scripted failure"}}`, s.status)
		return
	case s.rawBody != "":
		w.Write([]byte(s.rawBody))
		return
	}
	content := s.content
	if content == "" {
		reason := s.reasonFor
		if reason == "" {
			reason = "scripted"
		}
		b, _ := json.Marshal(map[string]any{"label": s.label, "reason": reason,
			"fix": map[string]string{"a": "Use A for " + pair.A.Name + ".", "b": "Use B for " + pair.B.Name + "."}})
		content = string(b)
	}
	json.NewEncoder(w).Encode(map[string]any{
		"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}},
		"usage":   map[string]int{"prompt_tokens": 100, "completion_tokens": 20},
	})
}

type env map[string]string

func (e env) get(k string) string { return e[k] }

// newModel points a model at the fake with quick retries; vars is the
// environment (a key, or none).
func newModel(t *testing.T, f *fake, vars env, tune func(*Options)) *Model {
	t.Helper()
	o := Options{Model: "judge-test", BaseURL: f.URL + "/v1", Getenv: vars.get, Concurrency: 3,
		Transport: openai.Transport{MaxAttempts: 4, BaseBackoff: time.Millisecond, MaxWait: 5 * time.Second, RequestTimeout: 5 * time.Second}}
	if tune != nil {
		tune(&o)
	}
	m, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// tool makes a catalog-like tool with a small schema.
func tool(name, desc string) Tool {
	return Tool{Name: name, Description: desc, InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}
}

// pairsOf builds n pairs t0|t1, t2|t3, ... with the others as siblings.
func pairsOf(n int) []Pair {
	var names []string
	for i := range 2 * n {
		names = append(names, fmt.Sprintf("t%02d", i))
	}
	out := make([]Pair, n)
	for i := range n {
		out[i] = NewPair(tool(names[2*i], "does "+names[2*i]), tool(names[2*i+1], "does "+names[2*i+1]), names)
	}
	return out
}

func run(t *testing.T, m *Model, pairs []Pair, file *Records, cache *Cache, maxPairs int) Outcome {
	t.Helper()
	plan := NewPlan(m, pairs, file, cache, maxPairs)
	if m == nil {
		return Outcome{Results: plan.Results}
	}
	return m.Execute(context.Background(), plan, cache, nil)
}

func byName(out Outcome) map[string]Result {
	m := map[string]Result{}
	for _, r := range out.Results {
		m[r.Pair.A.Name+"|"+r.Pair.B.Name] = r
	}
	return m
}

func mustContain(t *testing.T, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Fatalf("%q does not contain %q", s, sub)
	}
}
