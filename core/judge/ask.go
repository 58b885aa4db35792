package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"toolscope/embed/openai"
)

// MalformedError is an answer that could not be read as a judgment, twice:
// the pair stays unjudged rather than given a guessed label.
type MalformedError struct {
	// Why says what was wrong with the last answer.
	Why string
}

func (e *MalformedError) Error() string { return "malformed answer (asked twice): " + e.Why }

// Request is the chat request for one pair, as documented: the rubric,
// then the pair as one JSON object; JSON answers asked for; temperature 0
// so that a judgment can be asked again and compared.
func (m *Model) Request(p Pair) map[string]any {
	return map[string]any{
		"model": m.name,
		"messages": []map[string]string{
			{"role": "system", "content": Rubric},
			{"role": "user", "content": p.message()},
		},
		"response_format": map[string]string{"type": "json_object"},
		"temperature":     0,
	}
}

// Ask judges one pair. A malformed answer is asked once more; a second one
// is a *MalformedError. Transport failures (after the transport's own
// retries) are returned as they are.
func (m *Model) Ask(ctx context.Context, p Pair) (Judgment, Usage, error) {
	ctx, cancel := m.bounded(ctx)
	defer cancel()
	var a Judgment
	used, err := m.askTwice(ctx, func() map[string]any { return m.Request(p) }, func(text string) (err error) {
		a, err = ParseAnswer(text)
		return err
	})
	if err != nil {
		return Judgment{}, used, err
	}
	a.A, a.B = p.A.Name, p.B.Name
	a.By, a.Prompt, a.Texts = m.ID(), PromptVersion, p.TextHash()
	return a, used, nil
}

// askTwice is the loop every question goes through (a pair judged, a
// tool's requests written, a tool reviewed): send payload's request and
// read the answer's text with parse; an answer that is no chat
// completion, or whose text parse refuses, is asked once more, and a
// second is a *MalformedError. Transport failures (after the transport's
// own retries) are returned as they are. ctx carries the question's
// deadline (bounded).
func (m *Model) askTwice(ctx context.Context, payload func() map[string]any, parse func(text string) error) (Usage, error) {
	var why string
	var used Usage
	for range 2 {
		r, err := m.chat(ctx, payload())
		var oerr *openai.Error
		if errors.As(err, &oerr) && oerr.Status == http.StatusOK {
			// The body was not a chat completion: malformed, ask again.
			why = oerr.Step
			continue
		}
		if err != nil {
			return used, err
		}
		if r.Usage != nil {
			used.PromptTokens += r.Usage.PromptTokens
			used.CompletionTokens += r.Usage.CompletionTokens
		}
		if err := parse(r.text()); err != nil {
			why = err.Error()
			continue
		}
		return used, nil
	}
	return used, &MalformedError{Why: why}
}

// maxReason bounds the text kept from an answer.
const maxReason = 600

// answerBody is a chat answer's text with what models wrap around the
// JSON asked for taken off: a leading <think> block (reasoning models), a
// Markdown code fence. The judge's answer and the probe's written
// requests are both read through it.
func answerBody(content string) (string, error) {
	s := strings.TrimSpace(content)
	if rest, ok := strings.CutPrefix(s, "<think>"); ok {
		_, after, found := strings.Cut(rest, "</think>")
		if !found {
			return "", errors.New("answer is an unfinished <think> block")
		}
		s = strings.TrimSpace(after)
	}
	if rest, ok := strings.CutPrefix(s, "```"); ok {
		rest = strings.TrimPrefix(rest, "json")
		body, ok := strings.CutSuffix(strings.TrimSpace(rest), "```")
		if !ok {
			return "", errors.New("answer opens a code fence and never closes it")
		}
		s = strings.TrimSpace(body)
	}
	return s, nil
}

// ParseAnswer reads the model's answer: one JSON object with an integer
// label from 0 to 3 and a non-empty reason; fix is optional but, when
// present, holds strings. A code fence around the object, or a leading
// <think> block, is tolerated; anything else that is not exactly that
// object is an error, never a guess.
func ParseAnswer(content string) (Judgment, error) {
	s, err := answerBody(content)
	if err != nil {
		return Judgment{}, err
	}
	if s == "" {
		return Judgment{}, errors.New("empty answer")
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var raw struct {
		Label  *json.RawMessage `json:"label"`
		Reason *string          `json:"reason"`
		Fix    *json.RawMessage `json:"fix"`
	}
	if err := dec.Decode(&raw); err != nil {
		return Judgment{}, fmt.Errorf("answer is not a JSON object: %s", clip(oneLine(err.Error()), 120))
	}
	if dec.More() {
		return Judgment{}, errors.New("answer has text after the JSON object")
	}
	if err := checkKeys([]byte(s)); err != nil {
		return Judgment{}, fmt.Errorf("answer names %w", err)
	}
	if raw.Label == nil {
		return Judgment{}, errors.New(`answer has no "label"`)
	}
	var label int
	switch l := string(bytes.TrimSpace(*raw.Label)); l {
	case "0", "1", "2", "3":
		label = int(l[0] - '0')
	default:
		return Judgment{}, fmt.Errorf("label %s is not 0, 1, 2 or 3", clip(l, 20))
	}
	if raw.Reason == nil || strings.TrimSpace(*raw.Reason) == "" {
		return Judgment{}, errors.New(`answer has no "reason"`)
	}
	j := Judgment{Label: label, Reason: clip(oneLine(*raw.Reason), maxReason)}
	if raw.Fix != nil && !bytes.Equal(bytes.TrimSpace(*raw.Fix), []byte("null")) {
		var f Fix
		if err := json.Unmarshal(*raw.Fix, &f); err != nil {
			return Judgment{}, errors.New(`"fix" is not {"a": sentence, "b": sentence}`)
		}
		f.A, f.B = clip(oneLine(f.A), maxReason), clip(oneLine(f.B), maxReason)
		if f.A != "" || f.B != "" {
			j.Fix = &f
		}
	}
	return j, nil
}

// clip cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
