package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"toolscope/embed/openai"
)

// Prefix starts the judge name that selects an OpenAI-compatible endpoint:
// openai:MODEL.
const Prefix = "openai:"

// The environment variables read, in order of preference; they follow the
// embedder's (--embed-url, $TOOLSCOPE_EMBED_URL) with JUDGE in place of
// EMBED.
const (
	EnvURL = "TOOLSCOPE_JUDGE_URL"
	EnvKey = "TOOLSCOPE_JUDGE_KEY"
)

// DefaultConcurrency is how many requests are in flight at once.
const DefaultConcurrency = 4

// DefaultDeadline is how long one question may take, all tries included:
// a server that answers a byte at a time cannot hold a pair for the
// retries' sum (5 tries of 120 s).
const DefaultDeadline = 3 * time.Minute

// MaxAnswerTokens is the max_tokens every request sends: a judgment is a
// few dozen tokens, k written requests a few hundred, and a reasoning
// model's thinking fits; an endpoint cannot bill more for one answer.
const MaxAnswerTokens = 4096

// maxAnswerBytes bounds one chat answer's body: MaxAnswerTokens of text,
// JSON-escaped, fit many times over.
const maxAnswerBytes = 1 << 20

// Options configure New. Zero values take the defaults.
type Options struct {
	// Model is the MODEL of openai:MODEL.
	Model string
	// BaseURL is --judge-url (or --url for probe); "" reads $TOOLSCOPE_JUDGE_URL,
	// then $OPENAI_BASE_URL, then OpenAI.
	BaseURL string
	// URLFlag names the flag BaseURL came from, for messages.
	URLFlag string
	// Concurrency bounds the requests in flight.
	Concurrency int
	// Deadline bounds one question (a pair judged, a tool's requests
	// written, a request's pick), every try and retry included; 0 is
	// DefaultDeadline.
	Deadline time.Duration
	// Transport is the retry policy and the HTTP client, as for the
	// embedder.
	openai.Transport
	// Getenv reads the environment; nil is os.Getenv.
	Getenv func(string) string
}

// Model is one chat model behind an OpenAI-compatible endpoint. It is safe
// for concurrent use.
type Model struct {
	name        string
	client      *openai.Client
	concurrency int
	// plain is set once the endpoint refused response_format: later
	// requests go without it.
	plain atomic.Bool
	// autoChoice is set once the endpoint refused tool_choice "required":
	// later requests ask for "auto".
	autoChoice atomic.Bool
	// completionTokens is set once the endpoint refused max_tokens (the
	// reasoning models want max_completion_tokens).
	completionTokens atomic.Bool
	deadline         time.Duration
}

// deadlineError is the cause of a question's context that ran out.
type deadlineError struct{ d time.Duration }

func (e deadlineError) Error() string {
	return fmt.Sprintf("no answer within %s (the deadline of one question, every try included)", e.d)
}

func (e deadlineError) Is(target error) bool { return target == context.DeadlineExceeded }

// bounded is ctx under the model's deadline for one question.
func (m *Model) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, m.deadline, deadlineError{m.deadline})
}

// New checks the options and reads the endpoint and key from the
// environment. It sends nothing.
func New(o Options) (*Model, error) {
	if strings.TrimSpace(o.Model) == "" {
		return nil, errors.New("no model named: use openai:MODEL (e.g. openai:gpt-4.1-mini)")
	}
	if o.Concurrency < 0 || o.Deadline < 0 {
		return nil, errors.New("negative concurrency or deadline")
	}
	if o.Deadline == 0 {
		o.Deadline = DefaultDeadline
	}
	if o.Concurrency == 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.URLFlag == "" {
		o.URLFlag = "--judge-url"
	}
	if o.RequestTimeout == 0 {
		// A chat answer takes longer than an embedding.
		o.RequestTimeout = 120 * time.Second
	}
	c, err := openai.NewClient(openai.ClientOptions{
		Model: o.Model, BaseURL: o.BaseURL, URLFlag: o.URLFlag,
		URLVars: []string{EnvURL, openai.EnvURLOpenAI}, KeyVars: []string{EnvKey, openai.EnvKeyOpenAI},
		Path: "/chat/completions", Serves: "a chat completions endpoint",
		Transport: o.Transport, MaxBodyBytes: maxAnswerBytes, Getenv: o.Getenv,
	})
	if err != nil {
		return nil, err
	}
	return &Model{name: o.Model, client: c, concurrency: o.Concurrency, deadline: o.Deadline}, nil
}

// ParseSpec reads a --judge or --model value, openai:MODEL, into the model
// name.
func ParseSpec(spec string) (string, error) {
	model, ok := strings.CutPrefix(spec, Prefix)
	if !ok || strings.TrimSpace(model) == "" {
		return "", fmt.Errorf("%q is not openai:MODEL (e.g. openai:gpt-4.1-mini, or openai:llama3.1 with a local server's URL)", spec)
	}
	return model, nil
}

// ID is "openai:MODEL", the By of the model's judgments.
func (m *Model) ID() string { return Prefix + m.name }

// Endpoint is where requests go, without credentials.
func (m *Model) Endpoint() string { return m.client.Endpoint() }

// HasKey reports whether an API key was found.
func (m *Model) HasKey() bool { return m.client.HasKey() }

// chatResponse is the part of a chat completion read here.
type chatResponse struct {
	Choices []struct {
		Message struct {
			Content   *string `json:"content"`
			ToolCalls []struct {
				Function functionCall `json:"function"`
			} `json:"tool_calls"`
			// FunctionCall is the older, single-call form.
			FunctionCall *functionCall `json:"function_call"`
		} `json:"message"`
	} `json:"choices"`
	Usage *Usage `json:"usage"`
}

// text is the first choice's content, "" when it has none (the caller
// has checked that a choice came back).
func (r *chatResponse) text() string {
	if c := r.Choices[0].Message.Content; c != nil {
		return *c
	}
	return ""
}

// functionCall is a tool call as a chat completion carries it: the name,
// and the arguments as a JSON text (some servers send the object itself).
type functionCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// arguments is the call's arguments as the text the model sent: a JSON
// string's contents, or the object itself when a server sent one; "" for
// none.
func (f functionCall) arguments() string { return argumentsText(f.Arguments) }

// argumentsText is the text a model sent as a call's arguments: a JSON
// string's contents, else the JSON itself; "" for none or null.
func argumentsText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// Usage is what the endpoint says a request cost, when it says.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// chat sends one request and returns the first choice's message. A 400
// that names response_format is sent again once without it (some servers
// do not support JSON mode), one that names tool_choice again with
// tool_choice "auto" (some do not support "required"), and the model
// remembers either.
func (m *Model) chat(ctx context.Context, payload map[string]any) (chatResponse, error) {
	if m.plain.Load() {
		delete(payload, "response_format")
	}
	if _, ok := payload["tool_choice"]; ok && m.autoChoice.Load() {
		payload["tool_choice"] = "auto"
	}
	if m.completionTokens.Load() {
		payload["max_completion_tokens"] = MaxAnswerTokens
	} else {
		payload["max_tokens"] = MaxAnswerTokens
	}
	var r chatResponse
	decode := func(body []byte) error {
		r = chatResponse{}
		if err := json.Unmarshal(body, &r); err != nil {
			return fmt.Errorf("malformed response: %s", oneLine(err.Error()))
		}
		if len(r.Choices) == 0 {
			return errors.New(`response has no "choices"`)
		}
		return nil
	}
	err := m.client.Post(ctx, payload, "", decode)
	var oerr *openai.Error
	if !errors.As(err, &oerr) || oerr.Status != http.StatusBadRequest {
		return r, err
	}
	_, jsonMode := payload["response_format"]
	choice, _ := payload["tool_choice"].(string)
	switch {
	case strings.Contains(oerr.Step, "max_tokens") && !m.completionTokens.Load():
		m.completionTokens.Store(true)
		delete(payload, "max_tokens")
		payload["max_completion_tokens"] = MaxAnswerTokens
	case jsonMode && strings.Contains(oerr.Step, "response_format"):
		m.plain.Store(true)
		delete(payload, "response_format")
	case choice == "required" && strings.Contains(oerr.Step, "tool_choice"):
		m.autoChoice.Store(true)
		payload["tool_choice"] = "auto"
	default:
		return r, err
	}
	return r, m.client.Post(ctx, payload, "", decode)
}
