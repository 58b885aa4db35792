// Package judge puts a chat model in the loop: it asks an OpenAI-compatible
// chat endpoint whether two tools of a catalog could be confused (judged
// pairs), which tool it would call for a request (probed picks), and keeps
// what it said as records that replay without a key.
//
// The request is stable and documented (docs/judge.md): one pair per
// /chat/completions request, the rubric as the system message, and the
// pair as the last user message, one JSON object
// {"a": TOOL, "b": TOOL, "siblings": [names]} where TOOL is
// {"name", "description", "inputSchema"} as the catalog has it. The answer
// is asked for as {"label": 0..3, "reason": "...", "fix": {"a", "b"}}.
package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"toolscope/core/catalog"
)

// PromptVersion names the rubric and the request's shape. It is part of
// every cached judgment's key, so changing either asks again.
const PromptVersion = "1"

// Rubric is the system message: how to label a pair and what to answer.
const Rubric = `You review the tool catalog of an LLM agent. You are shown two of its tools, A and B, as the model sees them (name, description, input schema), and the names of the catalog's other tools.

Decide how likely a capable model is to call one of the two when the user's request needed the other. Read the descriptions and the parameters; do not judge by the names alone.

Labels:
3 = often confused: the purposes overlap and nothing in the texts says when to choose which (near duplicates, an alias or deprecated twin, a general tool that swallows a specific one without guidance, the same action on an unclear axis such as live versus historical data).
2 = confusable on a realistic, underspecified request: a boundary exists but the model has to guess it (for example filling a form field versus typing text, extracting versus scraping, directions versus a distance matrix).
1 = related but told apart: same object or workflow, and the texts make the choice clear (create versus delete, one item versus the whole list when the texts say so, a lookup that must come before an action).
0 = unrelated or plainly different.

Opposite operations (create/delete, start/stop, add/remove, read/write, lock/unlock, enable/disable, upload/download) are at most 1 unless their texts really blur them.

Answer with one JSON object and nothing else:
{"label": <0, 1, 2 or 3>, "reason": "<one sentence: why, naming what blurs or separates them>", "fix": {"a": "<a sentence to add to A's description that tells the two apart>", "b": "<the same for B>"}}`

// Tool is a tool as the judge reads it: its texts as the catalog has them.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	// Examples are the tool's input_examples (argument objects, not
	// requests): the probe asks for a request written from each. They are
	// in no judge request and no text hash.
	Examples []json.RawMessage `json:"-"`
}

// FromCatalog takes a catalog tool's texts; the schema keeps the catalog's
// member order and number spellings.
func FromCatalog(t *catalog.Tool) Tool {
	out := Tool{Name: t.Name, Description: t.Description}
	if t.Schema != nil {
		out.InputSchema = json.RawMessage(t.Schema.JSON())
	}
	for _, ex := range t.InputExamples {
		out.Examples = append(out.Examples, json.RawMessage(ex.JSON()))
	}
	return out
}

// Pair is one question: two tools and the names of the catalog's others.
// New orders A and B by name, so a pair has one form whichever way it was
// found.
type Pair struct {
	A, B     Tool
	Siblings []string
	// texts is TextHash, when found once already (Hashed).
	texts string
}

// NewPair orders the two tools by name and keeps the siblings as given.
func NewPair(a, b Tool, siblings []string) Pair {
	if b.Name < a.Name {
		a, b = b, a
	}
	return Pair{A: a, B: b, Siblings: siblings}
}

// Names is the pair's two names, ordered.
func (p Pair) Names() [2]string { return [2]string{p.A.Name, p.B.Name} }

// TextHash identifies the pair's texts (both names, descriptions and
// schemas). The siblings are left out: a tool added elsewhere in the
// catalog does not make a judgment stale.
func (p Pair) TextHash() string {
	if p.texts != "" {
		return p.texts
	}
	return textHash(p.A, p.B)
}

// Hashed is the pair with its TextHash found and kept: a pair asked about
// many times (the explorer's replay) hashes its texts once.
func (p Pair) Hashed() Pair {
	p.texts = p.TextHash()
	return p
}

// TextHash identifies one tool's texts (its name, description and
// schema), as Pair.TextHash does a pair's: a probe record keeps it per
// tool, so that a measurement of texts changed since reads as stale.
func (t Tool) TextHash() string { return textHash(t) }

// textHash hashes the tools' names, descriptions and schemas in order.
func textHash(tools ...Tool) string {
	h := sha256.New()
	for _, t := range tools {
		for _, s := range []string{t.Name, t.Description, string(t.InputSchema)} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))[:32]
}

// message is the last user message: the documented JSON object.
func (p Pair) message() string {
	siblings := p.Siblings
	if siblings == nil {
		siblings = []string{}
	}
	b, err := json.Marshal(struct {
		A        Tool     `json:"a"`
		B        Tool     `json:"b"`
		Siblings []string `json:"siblings"`
	}{p.A, p.B, siblings})
	if err != nil {
		// Only an invalid InputSchema can fail; send it as a string instead.
		a, b := p.A, p.B
		a.InputSchema, b.InputSchema = quoteRaw(a.InputSchema), quoteRaw(b.InputSchema)
		out, _ := json.Marshal(map[string]any{"a": a, "b": b, "siblings": siblings})
		return string(out)
	}
	return string(b)
}

func quoteRaw(r json.RawMessage) json.RawMessage {
	if len(r) == 0 || json.Valid(r) {
		return r
	}
	q, _ := json.Marshal(string(r))
	return q
}

// Fix is the pair of sentences a judge proposes, one for each tool's
// description.
type Fix struct {
	A string `json:"a"`
	B string `json:"b"`
}

// PersonBy is the By of a judgment a person made (a triage accept).
const PersonBy = "person"

// Judgment is one recorded verdict on a pair.
type Judgment struct {
	// A and B are the pair's names, ordered.
	A string `json:"a"`
	B string `json:"b"`
	// Label is 0..3 as the rubric defines it.
	Label  int    `json:"label"`
	Reason string `json:"reason"`
	Fix    *Fix   `json:"fix,omitempty"`
	// By is the judge: "openai:MODEL", or "person".
	By string `json:"by"`
	// Prompt is the PromptVersion a model was asked with; "" for a person.
	Prompt string `json:"prompt,omitempty"`
	// Texts is the pair's TextHash when it was judged.
	Texts string `json:"texts"`
}

// Confusable is the judgment's verdict: label 2 or 3.
func (j Judgment) Confusable() bool { return j.Label >= 2 }

// Key is the judgment's cache key: the pair's names and texts, the judge
// and the prompt version. (The text hash covers the names already; they
// are spelled out so that two records of different pairs never share a
// key, whatever a hand-edited file holds.)
func (j Judgment) Key() string { return key(ordered(j.A, j.B), j.Texts, j.By, j.Prompt) }

func key(names [2]string, texts, by, prompt string) string {
	return strings.Join([]string{names[0], names[1], texts, by, prompt}, "\x00")
}

// Verdict is the word a judgment gives its pair.
func (j Judgment) Verdict() string {
	if j.Confusable() {
		return "confusable"
	}
	return "cleared"
}

// oneLine flattens text for a one-line message.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
