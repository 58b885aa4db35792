package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"toolscope/core/termsafe"
)

// A review can be done without an endpoint: the requests a run would
// send are written to a file (WriteRequests), any model or a person
// answers them, and the answers file is read back (ReadAnswers) and
// replayed as the reviewer's. docs/judge.md documents both formats.

// RequestLine is one line of a requests file: the tool, the text hash an
// answer must carry, the prompt version, and the chat request as it would
// be sent.
type RequestLine struct {
	Tool    string         `json:"tool"`
	Texts   string         `json:"texts"`
	Prompt  string         `json:"prompt"`
	Request map[string]any `json:"request"`
}

// WriteRequests writes one RequestLine per tool, JSON lines, the
// request's "model" being model (left out when "").
func WriteRequests(w io.Writer, model string, tools []ReviewTool) error {
	var b bytes.Buffer
	for _, t := range tools {
		payload := reviewPayload(model, t)
		if model == "" {
			delete(payload, "model")
		}
		payload["max_tokens"] = MaxAnswerTokens
		line, err := json.Marshal(RequestLine{Tool: t.Name, Texts: t.TextHash(), Prompt: ReviewPromptVersion, Request: payload})
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	_, err := w.Write(termsafe.EscapeJSON(b.Bytes()))
	return err
}

// answerLine is one line of an answers file.
type answerLine struct {
	Tool  *string `json:"tool"`
	Texts *string `json:"texts"`
	By    string  `json:"by"`
	// Answer is the review's answer: the object asked for, or the text a
	// model answered (a JSON string), read as ParseReview reads it.
	Answer json.RawMessage `json:"answer"`
}

// Answers are the reviews an answers file gives, by tool and texts.
type Answers struct {
	byKey map[string]Review
	// stale names the tools answered for other texts only.
	stale map[string]bool
}

// get is the answer for t's current texts.
func (a *Answers) get(t ReviewTool) (Review, bool) {
	if a == nil {
		return Review{}, false
	}
	v, ok := a.byKey[t.Name+"\x00"+t.TextHash()]
	return v, ok
}

// staleFor reports whether t was answered for other texts only.
func (a *Answers) staleFor(t ReviewTool) bool {
	if a == nil {
		return false
	}
	_, ok := a.get(t)
	return !ok && a.stale[t.Name]
}

// Len is the number of answers that hold for the catalog.
func (a *Answers) Len() int {
	if a == nil {
		return 0
	}
	return len(a.byKey)
}

// ReadAnswers reads an answers file against the catalog's tools: JSON
// lines of {"tool", "texts", "answer", "by"} (blank lines and # comments
// skipped). Each answer is read as strictly as a model's; by defaults to
// by (the model named, else "person"). A line naming a tool the catalog
// lacks, or malformed, is an error naming the file and line; an answer
// for other texts than the tool's now leaves the tool unreviewed, stale.
func ReadAnswers(path string, tools []ReviewTool, by string) (*Answers, error) {
	data, err := readBounded(path, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("answers %s: no such file", path)
	}
	if err != nil {
		return nil, fmt.Errorf("answers %w", err)
	}
	a, err := parseAnswers(data, tools, by)
	if err != nil {
		return nil, fmt.Errorf("answers %s:%w", path, err)
	}
	return a, nil
}

// parseAnswers reads answers-file text; errors start with the line
// number.
func parseAnswers(data []byte, tools []ReviewTool, by string) (*Answers, error) {
	if by == "" {
		by = PersonBy
	}
	byName := map[string][]int{}
	for i, t := range tools {
		byName[t.Name] = append(byName[t.Name], i)
	}
	a := &Answers{byKey: map[string]Review{}, stale: map[string]bool{}}
	err := scanLines(data, func(line []byte) error { return a.add(line, tools, byName, by) },
		func(n int, err error) error { return fmt.Errorf("%d: %w", n, err) })
	if err != nil {
		return nil, err
	}
	return a, nil
}

// add reads one answer line.
func (a *Answers) add(line []byte, tools []ReviewTool, byName map[string][]int, by string) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var l answerLine
	if err := dec.Decode(&l); err != nil {
		return fmt.Errorf("not {tool, texts, answer}: %s", clip(oneLine(err.Error()), 120))
	}
	if err := checkKeys(line); err != nil {
		return fmt.Errorf("the answer names %w", err)
	}
	switch {
	case dec.More():
		return errors.New("text after the answer")
	case l.Tool == nil || *l.Tool == "":
		return errors.New(`no "tool"`)
	case l.Texts == nil || *l.Texts == "":
		return errors.New(`no "texts" (copy it from the requests file)`)
	case len(bytes.TrimSpace(l.Answer)) == 0:
		return errors.New(`no "answer"`)
	}
	at, ok := byName[*l.Tool]
	if !ok {
		return fmt.Errorf("the catalog has no tool %s", clip(termsafe.Line(*l.Tool), 80))
	}
	text := string(l.Answer)
	var s string
	if json.Unmarshal(l.Answer, &s) == nil {
		text = s
	}
	if l.By != "" {
		by = l.By
	}
	for _, i := range at {
		t := tools[i]
		if t.TextHash() != *l.Texts {
			continue
		}
		problems, err := ParseReview(text, t)
		if err != nil {
			return err
		}
		if _, twice := a.byKey[t.Name+"\x00"+t.TextHash()]; twice {
			return fmt.Errorf("%s is answered twice", clip(termsafe.Line(t.Name), 80))
		}
		a.byKey[t.Name+"\x00"+t.TextHash()] = Review{Tool: t.Name, Problems: problems, By: by, Prompt: ReviewPromptVersion, Texts: t.TextHash()}
		return nil
	}
	a.stale[*l.Tool] = true
	return nil
}
