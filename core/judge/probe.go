package judge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
)

// NoPick is the pick recorded when the model called no tool.
const NoPick = "(none)"

// writerPrompt asks for requests that need one tool, without naming it.
const writerPrompt = `You help test an LLM agent's tool catalog. You are given one tool of the catalog (name, description, input schema), the names of the others, and a number k.

Write k different, realistic requests a user could type to the agent that the given tool, and no other tool of the catalog, should serve. Write them as users do: plain language, about their task, sometimes terse or underspecified. Never mention the tool's name or any tool name, and do not describe the tool itself.

Answer with one JSON object and nothing else: {"requests": ["...", "..."]}`

// writerExamplesPrompt asks, for a tool with input_examples, for one
// request per example that leads to exactly that call, then free ones.
const writerExamplesPrompt = `You help test an LLM agent's tool catalog. You are given one tool of the catalog (name, description, input schema), the names of the others, "examples": a list of arguments the tool may be called with (example calls, not requests), and a number k.

First, for each example in order, write one realistic request a user could type to the agent that should lead it to call the given tool with exactly those arguments: the request gives every value the arguments hold, in the user's own words. Then write k more different, realistic requests that the given tool, and no other tool of the catalog, should serve (k may be 0). Write them as users do: plain language, about their task, sometimes terse or underspecified. Never mention the tool's name or any tool name, and do not describe the tool itself.

Answer with one JSON object and nothing else: {"fromExamples": ["one request per example, in order"], "requests": ["the k more"]}`

// Example is one request and the tool it is meant for: NoPick for a
// negative, a request no tool of the catalog fits.
type Example struct {
	Request string `json:"request"`
	Tool    string `json:"tool"`
}

// MaxExamplesBytes bounds an examples file.
const MaxExamplesBytes = 16 << 20

// ReadExamples reads a JSON-lines file of {"request", "tool"}; blank lines
// and lines starting with # are skipped. Tools must be in names, or null
// for a request no tool fits (a negative: Tool is NoPick); errors name
// the line.
func ReadExamples(data []byte, names []string) ([]Example, error) {
	var out []Example
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		var raw struct {
			Request string          `json:"request"`
			Tool    json.RawMessage `json:"tool"`
		}
		if err := dec.Decode(&raw); err != nil || dec.More() || raw.Tool == nil {
			return nil, fmt.Errorf("line %d: not {\"request\": TEXT, \"tool\": NAME or null}", n)
		}
		e := Example{Request: raw.Request, Tool: NoPick}
		if string(raw.Tool) != "null" {
			if json.Unmarshal(raw.Tool, &e.Tool) != nil {
				return nil, fmt.Errorf("line %d: \"tool\" is not a name or null", n)
			}
			if !slices.Contains(names, e.Tool) {
				return nil, fmt.Errorf("line %d: no tool %q in the catalog", n, clip(e.Tool, 64))
			}
		}
		if strings.TrimSpace(e.Request) == "" {
			return nil, fmt.Errorf("line %d: empty request", n)
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line too long or unreadable: %w", err)
	}
	return out, nil
}

// writeMessage is the request that has the model write k requests for t:
// the system prompt, the last user message, and n, how many of them are
// to be written from t's input examples (its first k). A tool without
// examples gets {"tool", "others", "k"}; one with examples also
// "examples", and k counts the free requests left.
func writeMessage(t Tool, siblings []string, k int) (system, user string, n int) {
	n = min(len(t.Examples), k)
	if n == 0 {
		msg, _ := json.Marshal(struct {
			Tool   Tool     `json:"tool"`
			Others []string `json:"others"`
			K      int      `json:"k"`
		}{t, siblings, k})
		return writerPrompt, string(msg), 0
	}
	msg, _ := json.Marshal(struct {
		Tool     Tool              `json:"tool"`
		Others   []string          `json:"others"`
		Examples []json.RawMessage `json:"examples"`
		K        int               `json:"k"`
	}{t, siblings, t.Examples[:n], k - n})
	return writerExamplesPrompt, string(msg), n
}

// Write asks the model for k requests that need t, given the other tools'
// names: for a tool with input examples, one written from each (up to k)
// to lead to exactly that call, and free ones for the rest. Requests that
// name the tool are dropped (so the answer may hold fewer than k); a
// malformed answer is asked once more.
func (m *Model) Write(ctx context.Context, t Tool, siblings []string, k int) ([]ProbeCase, error) {
	ctx, cancel := m.bounded(ctx)
	defer cancel()
	system, msg, n := writeMessage(t, siblings, k)
	payload := func() map[string]any {
		return map[string]any{
			"model": m.name,
			"messages": []map[string]string{
				{"role": "system", "content": system},
				{"role": "user", "content": msg},
			},
			"response_format": map[string]string{"type": "json_object"},
			"temperature":     0.7,
		}
	}
	var out []ProbeCase
	_, err := m.askTwice(ctx, payload, func(text string) error {
		var fromExamples, free []string
		var err error
		if n > 0 {
			fromExamples, free, err = parseExampleRequests(text)
		} else {
			free, err = parseRequests(text)
		}
		if err != nil {
			return err
		}
		out = nil
		keep := func(requests []string, from string, most int) {
			kept := 0
			for _, q := range requests {
				q = oneLine(q)
				if q != "" && len(q) <= MaxRequestBytes && !names(q, t.Name) && kept < most {
					out = append(out, ProbeCase{Tool: t.Name, Request: q, From: from})
					kept++
				}
			}
		}
		keep(fromExamples, FromInputExample, n)
		keep(free, FromWritten, k-n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// MaxRequestBytes bounds a written request: a user's request is a
// sentence or two, and each is sent again with the whole catalog.
const MaxRequestBytes = 1000

// WriteAll has the model write k requests for every tool, with bounded
// concurrency: written[i] is tool i's cases, their picks to come (nil when
// the model's answer was malformed twice, with the reason in
// malformed[i]). The first other failure stops the run and is returned.
func (m *Model) WriteAll(ctx context.Context, tools []Tool, k int, progress func(done, total int)) (written [][]ProbeCase, malformed []string, err error) {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	written = make([][]ProbeCase, len(tools))
	malformed = make([]string, len(tools))
	var (
		mu   sync.Mutex
		done int
	)
	err = parallel(ctx, len(tools), m.concurrency, func(ctx context.Context, i int) error {
		others := make([]string, 0, len(names)-1)
		others = append(append(others, names[:i]...), names[i+1:]...)
		qs, err := m.Write(ctx, tools[i], others, k)
		var bad *MalformedError
		switch {
		case errors.As(err, &bad):
			malformed[i] = bad.Why
		case err != nil:
			return err
		default:
			written[i] = qs
		}
		mu.Lock()
		done++
		if progress != nil {
			progress(done, len(tools))
		}
		mu.Unlock()
		return nil
	})
	return written, malformed, err
}

// parseRequests reads the written requests: {"requests": [...]} as asked,
// or a bare array of strings, in a code fence or not.
func parseRequests(content string) ([]string, error) {
	s, err := answerBody(content)
	if err != nil {
		return nil, err
	}
	var wrapped struct {
		Requests []string `json:"requests"`
	}
	var bare []string
	switch {
	case json.Unmarshal([]byte(s), &wrapped) == nil && len(wrapped.Requests) > 0:
		return wrapped.Requests, nil
	case json.Unmarshal([]byte(s), &bare) == nil && len(bare) > 0:
		return bare, nil
	}
	return nil, errors.New(`answer is not {"requests": [...]}`)
}

// parseExampleRequests reads the requests written for a tool with input
// examples: {"fromExamples": [...], "requests": [...]}, the first not
// empty, in a code fence or not.
func parseExampleRequests(content string) (fromExamples, free []string, err error) {
	var answer struct {
		FromExamples []string `json:"fromExamples"`
		Requests     []string `json:"requests"`
	}
	s, err := answerBody(content)
	if err != nil {
		return nil, nil, err
	}
	if json.Unmarshal([]byte(s), &answer) != nil || len(answer.FromExamples) == 0 {
		return nil, nil, errors.New(`answer is not {"fromExamples": [...], "requests": [...]}`)
	}
	return answer.FromExamples, answer.Requests, nil
}

// names reports whether a request mentions the tool: its name, or its
// words joined by spaces (brave_local_search as "brave local search").
func names(request, tool string) bool {
	r := strings.ToLower(request)
	n := strings.ToLower(tool)
	spaced := strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(n)
	return strings.Contains(r, n) || (strings.Contains(spaced, " ") && strings.Contains(r, spaced))
}

// Tool choices a probe may send: a tool call required (the default), or
// left to the model, which may then call none (what a negative tests).
const (
	ChoiceRequired = "required"
	ChoiceAuto     = "auto"
)

// Call is the tool call a model made: the tool's name (NoPick for none)
// and its arguments as the model sent them ("" for none).
type Call struct {
	Name      string
	Arguments string
}

// Pick sends request with tools (the catalog, in the order given) and
// tool_choice choice ("" is ChoiceRequired), and returns the call the
// model made first (Name NoPick if it called none).
func (m *Model) Pick(ctx context.Context, request string, tools []json.RawMessage, choice string) (Call, Usage, error) {
	ctx, cancel := m.bounded(ctx)
	defer cancel()
	if choice == "" {
		choice = ChoiceRequired
	}
	payload := map[string]any{
		"model":       m.name,
		"messages":    []map[string]string{{"role": "user", "content": request}},
		"tools":       tools,
		"tool_choice": choice,
		"temperature": 0,
	}
	r, err := m.chat(ctx, payload)
	used := Usage{}
	if err != nil {
		return Call{}, used, err
	}
	if r.Usage != nil {
		used = *r.Usage
	}
	msg := r.Choices[0].Message
	switch {
	case len(msg.ToolCalls) > 0 && msg.ToolCalls[0].Function.Name != "":
		f := msg.ToolCalls[0].Function
		return Call{Name: f.Name, Arguments: f.arguments()}, used, nil
	case msg.FunctionCall != nil && msg.FunctionCall.Name != "":
		return Call{Name: msg.FunctionCall.Name, Arguments: msg.FunctionCall.arguments()}, used, nil
	}
	return Call{Name: NoPick}, used, nil
}

// ProbeCase is one request sent and the tool the model picked.
type ProbeCase struct {
	Tool    string `json:"tool"`
	Request string `json:"request"`
	Picked  string `json:"picked"`
	// From says where the request came from (FromWritten, ...); "" is
	// not said.
	From string `json:"from,omitempty"`
	// Repeat numbers the sending, from 1: the first in catalog order,
	// the others in orders shuffled from the seed (Order); 0 in a record
	// that does not say.
	Repeat int `json:"repeat,omitempty"`
	// Arguments is the call's arguments as the model sent them: the
	// JSON object, a JSON string of the text when it is not JSON, null
	// when no tool was called.
	Arguments json.RawMessage `json:"arguments"`
	// ArgumentIssues are the boundary's objections to the arguments,
	// checked against the tool called, one line each; empty when it
	// accepts them (or no tool of the catalog was called).
	ArgumentIssues []string `json:"argumentIssues"`
}

// Right reports whether the request went where it was meant to: to its
// tool, or for a negative (Tool NoPick) to none.
func (c ProbeCase) Right() bool { return c.Picked == c.Tool }

// Negative reports whether the request is meant for no tool.
func (c ProbeCase) Negative() bool { return c.Tool == NoPick }

// ArgumentsJSON is the arguments text as a case keeps it: the JSON
// itself when it parses ({} for an empty text), else a JSON string of
// the text.
func ArgumentsJSON(text string) json.RawMessage {
	t := strings.TrimSpace(text)
	if t == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(t)) {
		var b bytes.Buffer
		if json.Compact(&b, []byte(t)) == nil {
			return json.RawMessage(b.Bytes())
		}
	}
	q, _ := json.Marshal(text)
	return json.RawMessage(q)
}

// ArgumentsText is the text the model sent, from a case's Arguments: a
// JSON string's contents, else the JSON itself; "" for null.
func (c ProbeCase) ArgumentsText() string { return argumentsText(c.Arguments) }

// Where a probe's request came from.
const (
	// FromWritten: the model wrote it from the tool's texts.
	FromWritten = "written"
	// FromInputExample: the model wrote it from one of the tool's
	// input_examples, to lead to exactly that call.
	FromInputExample = "input_examples"
	// FromExamples: the --examples file gave it.
	FromExamples = "examples"
)

// caseSources are the values From may take.
var caseSources = []string{FromWritten, FromInputExample, FromExamples}

// Confusion is how often requests meant for Tool went to Picked.
type Confusion struct {
	Tool   string  `json:"tool"`
	Picked string  `json:"picked"`
	Count  int     `json:"count"`
	Of     int     `json:"of"`
	Rate   float64 `json:"rate"`
	// Low and High are the rate's 95% Wilson interval.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Offline is the static check's verdict on the pair, when it ran and
	// Picked is a tool of the catalog.
	Offline *OfflineVerdict `json:"offline,omitempty"`
}

// Probe is a probe's result: every case, the matrix and the confusions.
type Probe struct {
	Model string `json:"model"`
	// Tools is the catalog's tool names, the matrix's order.
	Tools []string    `json:"tools"`
	Cases []ProbeCase `json:"cases"`
	// Matrix[intended][picked] counts the cases.
	Matrix map[string]map[string]int `json:"matrix"`
	// Confusions lists every (tool, other pick) with a count, highest rate
	// first.
	Confusions []Confusion `json:"confusions"`
	// Correct counts the cases that went to their tool.
	Correct int `json:"correct"`
	// FromInputExamples counts the cases the model wrote from a tool's
	// input_examples.
	FromInputExamples int `json:"fromInputExamples"`
	// Accuracy is Correct of every case, with its 95% Wilson interval.
	Accuracy Share `json:"accuracy"`
	// PerTool counts, per tool of the catalog in its order, the requests
	// meant for it, those that went to it, and of those the calls whose
	// arguments the boundary accepts.
	PerTool []ToolTally `json:"perTool"`
	// Negatives are the requests meant for no tool.
	Negatives Negatives `json:"negatives"`
	// ToolChoice is the tool choice sent (ChoiceRequired, ChoiceAuto).
	ToolChoice string `json:"toolChoice,omitempty"`
	// Repeats is how many times each request was sent (1 for once), and
	// Seed what the orders after the first were shuffled from.
	Repeats int    `json:"repeats"`
	Seed    uint64 `json:"seed"`
	// Unstable lists every request whose picks differ across its repeats.
	Unstable []Unstable `json:"unstable"`
	// Fixes are the fixes tried (probe --fix): empty when no pair was
	// confused, nil (null) when none was asked for.
	Fixes []FixTrial `json:"fixes"`
	Usage Usage      `json:"usage"`
	// Offline sets the picks beside toolscope's static similarity check
	// on the same catalog (CheckOffline); nil when it did not run, with
	// the reason in OfflineError.
	Offline      *Offline `json:"offline,omitempty"`
	OfflineError string   `json:"offlineError,omitempty"`
}

// Tabulate builds the matrix and the confusions from the cases.
func Tabulate(model string, tools []string, cases []ProbeCase) Probe {
	p := Probe{Model: model, Tools: tools, Cases: cases, Matrix: map[string]map[string]int{}}
	of := map[string]int{}
	for _, c := range cases {
		row := p.Matrix[c.Tool]
		if row == nil {
			row = map[string]int{}
			p.Matrix[c.Tool] = row
		}
		row[c.Picked]++
		of[c.Tool]++
		if c.Right() {
			p.Correct++
		}
		if c.From == FromInputExample {
			p.FromInputExamples++
		}
	}
	for tool, row := range p.Matrix {
		if tool == NoPick {
			continue // negatives are over-triggers, counted apart
		}
		for picked, n := range row {
			if picked != tool {
				lo, hi := Wilson(n, of[tool])
				p.Confusions = append(p.Confusions, Confusion{Tool: tool, Picked: picked, Count: n, Of: of[tool], Rate: float64(n) / float64(of[tool]), Low: lo, High: hi})
			}
		}
	}
	slices.SortFunc(p.Confusions, func(a, b Confusion) int {
		switch {
		case a.Rate != b.Rate:
			if a.Rate > b.Rate {
				return -1
			}
			return 1
		case a.Tool != b.Tool:
			return strings.Compare(a.Tool, b.Tool)
		}
		return strings.Compare(a.Picked, b.Picked)
	})
	if p.Cases == nil {
		p.Cases = []ProbeCase{}
	}
	if p.Confusions == nil {
		p.Confusions = []Confusion{}
	}
	p.tally()
	return p
}

// Sentence is a confusion in words: "3 of 5 requests for a went to b".
func (c Confusion) Sentence() string {
	picked := c.Picked
	if picked == NoPick {
		picked = "no tool"
	}
	return fmt.Sprintf("%d of %s for %s went to %s", c.Count, count(c.Of, "request", "requests"), c.Tool, picked)
}

// PickOptions say how PickAll sends: the tool choice, and the seed the
// orders of the repeats after the first are shuffled from.
type PickOptions struct {
	Choice   string
	Seed     uint64
	Progress func(done, total int)
}

// MaxRepeats bounds --repeats.
const MaxRepeats = 100

// Order is the order the catalog's n tools are sent in on repeat: the
// catalog's own on repeat 1 (and 0, a record that does not say), a
// shuffle drawn from seed and repeat on the others, the same on every
// run.
func Order(n int, seed uint64, repeat int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if repeat > 1 {
		r := rand.New(rand.NewPCG(seed, uint64(repeat)))
		r.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	return order
}

// Ordered is tools in the order of repeat (Order).
func Ordered(tools []json.RawMessage, seed uint64, repeat int) []json.RawMessage {
	out := make([]json.RawMessage, len(tools))
	for i, j := range Order(len(tools), seed, repeat) {
		out[i] = tools[j]
	}
	return out
}

// PickAll sends every case's request with bounded concurrency, the tools
// in its repeat's order, and fills in the picks and their arguments. The
// first failed request stops the run and is returned; the cases picked
// so far are kept.
func (m *Model) PickAll(ctx context.Context, cases []ProbeCase, tools []json.RawMessage, o PickOptions) (Usage, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		used  Usage
		first error
		done  int
	)
	orders := map[int][]json.RawMessage{}
	for _, c := range cases {
		if orders[c.Repeat] == nil {
			orders[c.Repeat] = Ordered(tools, o.Seed, c.Repeat)
		}
	}
	err := parallel(ctx, len(cases), m.concurrency, func(ctx context.Context, i int) error {
		call, u, err := m.Pick(ctx, cases[i].Request, orders[cases[i].Repeat], o.Choice)
		mu.Lock()
		defer mu.Unlock()
		used.PromptTokens += u.PromptTokens
		used.CompletionTokens += u.CompletionTokens
		if err != nil {
			if first == nil {
				first = err
			}
			return err
		}
		cases[i].Picked = call.Name
		cases[i].Arguments = nil
		if call.Name != NoPick {
			cases[i].Arguments = ArgumentsJSON(call.Arguments)
		}
		done++
		if o.Progress != nil {
			o.Progress(done, len(cases))
		}
		return nil
	})
	if first != nil {
		return used, first
	}
	return used, err
}

// parallel runs fn for 0..n-1 with at most conc at once, stopping at the
// first error, which it returns.
func parallel(ctx context.Context, n, conc int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		next  = make(chan int)
	)
	for range min(conc, max(n, 1)) {
		wg.Go(func() {
			for i := range next {
				if err := fn(ctx, i); err != nil {
					once.Do(func() { first = err; cancel() })
				}
			}
		})
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return first
}
