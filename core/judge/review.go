package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/similarity"
)

// The review is the loop's third use: a chat model reads each tool as a
// reviewer would, with a rubric, and lists only the problems a capable
// model would trip on. Its answers become findings (rule model-review),
// are recorded in the judgments file beside the pairs' judgments, and
// replay without a model.

// ReviewPromptVersion names the review's rubric and request shape; it is
// part of every recorded review's key, so changing either asks again.
const ReviewPromptVersion = "review-1"

// ReviewRubric is the review's system message.
const ReviewRubric = `You review one tool of an LLM agent's catalog, as the agent's model will read it: its name, description, input schema and annotations, with the names and first sentences of the catalog's other tools.

List only the problems that would make a capable model go wrong: call this tool when it should not, call a sibling instead, leave out or misuse an argument, or send a wrong value. Leave out matters of style, nice-to-haves, and anything the name, the schema (types, enums, defaults, formats) or the rest of the description already makes clear. Most tools have no such problem; then the list is empty.

Give each problem one category:
unit: a parameter holds a quantity (a time, a timestamp, a duration, a size, an amount) and no unit or format is stated anywhere, so the model must guess.
shape: an object or array parameter whose contents are not stated (no properties or items, and no words about them).
purpose: the description does not say clearly enough what the tool acts on or returns to choose it (a bare "Run a query" that never names the system, dialect or scope).
destructive: the tool deletes, overwrites or resets something and does not say what exactly or whether it can be undone, or its annotations say otherwise.
sibling: another tool listed reads so alike that nothing says when to choose this one (name it in the note).
param: a parameter whose meaning or accepted values are unclear for another reason (which kind of id, an unexplained flag, parameters that conflict).
other: anything else that meets the bar above.

Answer with one JSON object and nothing else:
{"problems": [{"category": "<one of the categories>", "param": "<the parameter's name, dotted for a nested one, or null for the whole tool>", "note": "<at most 20 words: what the model would get wrong>"}]}
An empty list, {"problems": []}, is a valid and common answer.`

// ReviewCategories are the categories a problem may have, in the
// rubric's order.
var ReviewCategories = []string{"unit", "shape", "purpose", "destructive", "sibling", "param", "other"}

// MaxProblems bounds the problems one answer may list: the rubric asks
// for the few that matter, and more is read as an answer that did not
// follow it.
const MaxProblems = 12

// maxNote bounds a problem's note as it is kept.
const maxNote = 300

// maxSentence bounds a sibling's first sentence in a request.
const maxSentence = 200

// SentencedSiblings is how many of a tool's siblings its review request
// gives with their first sentences: those nearest it by their words (the
// judge's second view). The rest are named only: a sentence for each of
// 200 siblings would make a large catalog's review cost ten times as much,
// and the siblings a model could take for the tool are among the nearest.
const SentencedSiblings = 20

// Sibling is another tool of the catalog as a review request names it.
type Sibling struct {
	Name string `json:"name"`
	// Sentence is the sibling's first sentence, "" (left out) for one
	// named only.
	Sentence string `json:"sentence,omitempty"`
}

// ReviewTool is one review's question: the tool's texts and annotations,
// and its siblings' names and first sentences.
type ReviewTool struct {
	Tool
	// Annotations are the tool's MCP annotations as the catalog has
	// them, nil for none.
	Annotations json.RawMessage
	Siblings    []Sibling
	// schema is the parsed input schema, to check the params an answer
	// names and to place a finding.
	schema *jsonv.Value
	// Index is the tool's catalog index.
	Index int
}

// ReviewToolsOf is every tool of the catalog as a review asks about it,
// in catalog order: each with the catalog's other tools as siblings (at
// most maxSiblings, in catalog order, the nearest always among them), the
// SentencedSiblings nearest by their words with their first sentences.
func ReviewToolsOf(cat *catalog.Catalog) []ReviewTool {
	sentences := make([]string, len(cat.Tools))
	for i, t := range cat.Tools {
		sentences[i] = clip(oneLine(similarity.FirstSentence(t.Description)), maxSentence)
	}
	var near [][]int
	if len(cat.Tools) > SentencedSiblings+1 {
		near = similarity.WordNeighbours(cat.Tools, SentencedSiblings)
	}
	out := make([]ReviewTool, len(cat.Tools))
	for i, t := range cat.Tools {
		rt := ReviewTool{Tool: FromCatalog(t), schema: t.Schema, Index: i}
		if t.Annotations != nil {
			rt.Annotations = json.RawMessage(t.Annotations.JSON())
		}
		sentenced := func(k int) bool { return near == nil || slices.Contains(near[i], k) }
		room := maxSiblings
		if near != nil {
			room -= len(near[i])
		}
		rt.Siblings = make([]Sibling, 0, min(len(cat.Tools), maxSiblings))
		for k, s := range cat.Tools {
			if k == i || s.Name == t.Name {
				continue
			}
			switch {
			case sentenced(k):
				rt.Siblings = append(rt.Siblings, Sibling{Name: s.Name, Sentence: sentences[k]})
			case room > 0:
				rt.Siblings = append(rt.Siblings, Sibling{Name: s.Name})
				room--
			}
		}
		out[i] = rt
	}
	return out
}

// TextHash identifies what a review read of the tool itself: its name,
// description, schema and annotations. The siblings are left out, as a
// pair's are: a tool added elsewhere does not make a review stale.
func (t ReviewTool) TextHash() string {
	if len(t.Annotations) == 0 {
		return t.Tool.TextHash()
	}
	return textHash(t.Tool, Tool{Name: "annotations", Description: string(t.Annotations)})
}

// reviewTool is a tool as a review request carries it.
type reviewTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
}

// message is the last user message: {"tool": {...}, "siblings": [...]}.
func (t ReviewTool) message() string {
	siblings := t.Siblings
	if siblings == nil {
		siblings = []Sibling{}
	}
	rt := reviewTool{Name: t.Name, Description: t.Description, InputSchema: quoteRaw(t.InputSchema), Annotations: quoteRaw(t.Annotations)}
	b, _ := json.Marshal(struct {
		Tool     reviewTool `json:"tool"`
		Siblings []Sibling  `json:"siblings"`
	}{rt, siblings})
	return string(b)
}

// ReviewRequest is the chat request for one tool's review: the rubric,
// then the tool as one JSON object, JSON answers asked for, temperature 0.
// (max_tokens is added as it is sent.)
func (m *Model) ReviewRequest(t ReviewTool) map[string]any {
	return reviewPayload(m.name, t)
}

func reviewPayload(model string, t ReviewTool) map[string]any {
	return map[string]any{
		"model": model,
		"messages": []map[string]string{
			{"role": "system", "content": ReviewRubric},
			{"role": "user", "content": t.message()},
		},
		"response_format": map[string]string{"type": "json_object"},
		"temperature":     0,
	}
}

// Problem is one problem a review found.
type Problem struct {
	Category string `json:"category"`
	// Param is the parameter's name as the answer gave it (dotted for a
	// nested one), "" for the whole tool.
	Param string `json:"param,omitempty"`
	Note  string `json:"note"`
}

// Review is one recorded review of a tool.
type Review struct {
	// Tool is the tool's name.
	Tool     string    `json:"review"`
	Problems []Problem `json:"problems"`
	// By is "openai:MODEL", or "person" for a review by hand.
	By string `json:"by"`
	// Prompt is the ReviewPromptVersion a model was asked with.
	Prompt string `json:"prompt,omitempty"`
	// Texts is the tool's ReviewTool.TextHash when it was reviewed.
	Texts string `json:"texts"`
}

// Key is the review's key: the tool's name and texts, the reviewer and
// the prompt version.
func (r Review) Key() string { return reviewKey(r.Tool, r.Texts, r.By, r.Prompt) }

func reviewKey(tool, texts, by, prompt string) string {
	return strings.Join([]string{"review", tool, texts, by, prompt}, "\x00")
}

// Review asks the model to review one tool. A malformed answer (not
// exactly the object asked for, a category not in the rubric, a param
// the tool does not have, more than MaxProblems) is asked once more; a
// second is a *MalformedError.
func (m *Model) Review(ctx context.Context, t ReviewTool) (Review, Usage, error) {
	ctx, cancel := m.bounded(ctx)
	defer cancel()
	var problems []Problem
	used, err := m.askTwice(ctx, func() map[string]any { return m.ReviewRequest(t) }, func(text string) (err error) {
		problems, err = ParseReview(text, t)
		return err
	})
	if err != nil {
		return Review{}, used, err
	}
	return Review{Tool: t.Name, Problems: problems, By: m.ID(), Prompt: ReviewPromptVersion, Texts: t.TextHash()}, used, nil
}

// ParseReview reads a review's answer strictly: one JSON object with the
// one key "problems", a list of at most MaxProblems objects, each with a
// "category" from ReviewCategories, a "param" that is null, absent or a
// parameter of t (dotted for a nested one), and a non-empty "note", and
// no other key. A code fence or a leading <think> block is tolerated, as
// for the judge's answers; anything else is an error, never a guess.
func ParseReview(content string, t ReviewTool) ([]Problem, error) {
	s, err := answerBody(content)
	if err != nil {
		return nil, err
	}
	if s == "" {
		return nil, errors.New("empty answer")
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	var raw struct {
		Problems *[]json.RawMessage `json:"problems"`
	}
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("answer is not the object asked for: %s", clip(oneLine(err.Error()), 120))
	}
	if dec.More() {
		return nil, errors.New("answer has text after the JSON object")
	}
	if err := checkKeys([]byte(s)); err != nil {
		return nil, fmt.Errorf("answer names %w", err)
	}
	if raw.Problems == nil {
		return nil, errors.New(`answer has no "problems" list`)
	}
	if n := len(*raw.Problems); n > MaxProblems {
		return nil, fmt.Errorf("answer lists %d problems, more than the %d read", n, MaxProblems)
	}
	out := make([]Problem, 0, len(*raw.Problems))
	for i, item := range *raw.Problems {
		p, err := parseProblem(item)
		if err == nil {
			err = t.checkParam(p.Param)
		}
		if err != nil {
			return nil, fmt.Errorf("problems[%d]: %w", i, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// parseProblem reads one problem object, strictly.
func parseProblem(item json.RawMessage) (Problem, error) {
	dec := json.NewDecoder(bytes.NewReader(item))
	dec.DisallowUnknownFields()
	var raw struct {
		Category *string          `json:"category"`
		Param    *json.RawMessage `json:"param"`
		Note     *string          `json:"note"`
	}
	if err := dec.Decode(&raw); err != nil {
		return Problem{}, fmt.Errorf("not {category, param, note}: %s", clip(oneLine(err.Error()), 120))
	}
	var p Problem
	switch {
	case raw.Category == nil:
		return p, errors.New(`no "category"`)
	case !slices.Contains(ReviewCategories, *raw.Category):
		return p, fmt.Errorf("category %s is not one of %s", clip(jsonv.Quote(*raw.Category), 40), strings.Join(ReviewCategories, ", "))
	case raw.Note == nil || strings.TrimSpace(*raw.Note) == "":
		return p, errors.New(`no "note"`)
	}
	p.Category, p.Note = *raw.Category, clip(oneLine(*raw.Note), maxNote)
	if raw.Param != nil && !bytes.Equal(bytes.TrimSpace(*raw.Param), []byte("null")) {
		if err := json.Unmarshal(*raw.Param, &p.Param); err != nil {
			return p, errors.New(`"param" is neither a parameter's name nor null`)
		}
		p.Param = strings.TrimSpace(p.Param)
	}
	return p, nil
}

// checkParam refuses a param the tool does not have. A nested parameter
// is named by its path, dotted ("filter.name"); an array's items may be
// stepped through with or without "[]" ("rows.id", "rows[].id").
func (t ReviewTool) checkParam(param string) error {
	if param == "" {
		return nil
	}
	if _, ok := ParamPos(t.schema, param); !ok {
		return fmt.Errorf("param %s is not a parameter of %s", clip(jsonv.Quote(param), 80), clip(jsonv.Quote(t.Name), 80))
	}
	return nil
}

// ParamPos finds a parameter by its path in a schema: each segment a
// name under "properties", looked for in the schema itself and in what
// it stands for (an array's "items", the branches of "anyOf", "oneOf" and
// "allOf", a local "$ref"), so that "filter.name" is found under a
// nullable filter and "rows.id" under an array of rows ("rows[].id" too).
// ok is false when the schema has no such parameter; pos is its key's
// place in the source (zero for a live server's).
func ParamPos(schema *jsonv.Value, path string) (pos jsonv.Pos, ok bool) {
	return findParam(schema, schema, strings.Split(path, "."))
}

// maxSchemaDepth bounds the search through a schema's branches and
// references (a $ref may point back at itself).
const maxSchemaDepth = 16

func findParam(root, node *jsonv.Value, segs []string) (jsonv.Pos, bool) {
	name := strings.TrimSuffix(segs[0], "[]")
	name = strings.TrimSuffix(name, "[]")
	if name == "" {
		return jsonv.Pos{}, false
	}
	for _, holder := range holders(root, node, 0, nil) {
		props := holder.Get("properties")
		if !props.Is(jsonv.Object) {
			continue
		}
		whole := strings.Join(segs, ".")
		for _, m := range props.Members {
			if m.Key == whole && len(segs) > 1 {
				// A key with dots in it ("user.name"), named whole.
				return m.Pos, true
			}
			if m.Key != name {
				continue
			}
			if len(segs) == 1 {
				return m.Pos, true
			}
			if pos, ok := findParam(root, m.Value, segs[1:]); ok {
				return pos, true
			}
		}
	}
	return jsonv.Pos{}, false
}

// holders is node and every schema it stands for, depth first.
func holders(root, node *jsonv.Value, depth int, out []*jsonv.Value) []*jsonv.Value {
	if !node.Is(jsonv.Object) || depth > maxSchemaDepth {
		return out
	}
	out = append(out, node)
	if items := node.Get("items"); items != nil {
		out = holders(root, items, depth+1, out)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if list := node.Get(k); list.Is(jsonv.Array) {
			for _, branch := range list.Items {
				out = holders(root, branch, depth+1, out)
			}
		}
	}
	if ref, ok := node.Get("$ref").Str(); ok {
		out = holders(root, pointer(root, ref), depth+1, out)
	}
	return out
}

// pointer resolves a local reference ("#/$defs/Filter") in root; nil for
// any other.
func pointer(root *jsonv.Value, ref string) *jsonv.Value {
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil
	}
	node := root
	for seg := range strings.SplitSeq(rest, "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if node = node.Get(seg); node == nil {
			return nil
		}
	}
	return node
}
