// Package openai embeds texts with any OpenAI-compatible embeddings endpoint
// (POST {base}/embeddings): OpenAI itself, Ollama, vLLM, LM Studio,
// llama.cpp's server, Hugging Face TEI.
//
// Requests are batched, each with its own timeout under the caller's
// context; 429 and 5xx answers are retried with capped exponential backoff,
// honouring Retry-After. Every failure is one line naming the endpoint and
// the step, and the API key never appears in any of them. That transport is
// Client, which the chat-model judge (core/judge) shares.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"toolscope/embed"
)

// Prefix starts the embedder name that selects this package: openai:MODEL.
const Prefix = "openai:"

// The environment variables read, in order of preference.
const (
	EnvURL       = "TOOLSCOPE_EMBED_URL"
	EnvURLOpenAI = "OPENAI_BASE_URL"
	EnvKey       = "TOOLSCOPE_EMBED_KEY"
	EnvKeyOpenAI = "OPENAI_API_KEY"
	// EnvTrusted lists the endpoints a config file may send the key to.
	EnvTrusted    = "TOOLSCOPE_TRUSTED_URLS"
	DefaultURL    = "https://api.openai.com/v1"
	maxErrorChars = 200
	// maxBodyBytes bounds a response: 256 inputs of 4,096 dims as JSON text
	// stay well under it.
	maxBodyBytes = 256 << 20
)

// Defaults for the zero values of Options.
const (
	DefaultBatchSize      = 256
	DefaultRequestTimeout = 60 * time.Second
	DefaultMaxAttempts    = 5
	DefaultBaseBackoff    = time.Second
	DefaultMaxWait        = 60 * time.Second
)

// Options configure New. Zero values take the defaults above.
type Options struct {
	// Model is the model name sent with every request (the MODEL of
	// openai:MODEL).
	Model string
	// BaseURL is the API base (--embed-url), e.g. http://localhost:11434/v1;
	// "" reads $TOOLSCOPE_EMBED_URL, then $OPENAI_BASE_URL, then DefaultURL.
	// A URL already ending in /embeddings is used as it is.
	BaseURL string
	// BaseURLFrom says where BaseURL came from when a file chose it (a
	// config's "path:line"), "" when the user did (the command line). A
	// file-chosen URL gets no key from the environment unless it is listed
	// in $TOOLSCOPE_TRUSTED_URLS: a cloned repository must not be able to
	// send the user's key to a server of its choosing.
	BaseURLFrom string
	// Dimensions, when positive, is sent as the request's "dimensions" (the
	// text-embedding-3 models shorten their vectors to it) and every vector
	// must have that length.
	Dimensions int
	// BatchSize is the most inputs sent in one request.
	BatchSize int
	// Transport is the retry policy and the HTTP client.
	Transport
	// Getenv reads the environment; nil is os.Getenv.
	Getenv func(string) string
}

// Embedder is the openai:MODEL embedder. It is safe for concurrent use.
type Embedder struct {
	opts   Options
	client *Client

	mu   sync.Mutex
	dims int
}

// New checks the options and reads the endpoint and key from the
// environment. It sends nothing.
func New(opts Options) (*Embedder, error) {
	if strings.TrimSpace(opts.Model) == "" {
		return nil, errors.New("no model named: use --embedder openai:MODEL (e.g. openai:text-embedding-3-small)")
	}
	if opts.Dimensions < 0 || opts.BatchSize < 0 || opts.MaxAttempts < 0 || opts.RequestTimeout < 0 || opts.BaseBackoff < 0 || opts.MaxWait < 0 {
		return nil, errors.New("negative option (dimensions, batch size, attempts and durations must be positive)")
	}
	setDefault(&opts.BatchSize, DefaultBatchSize)
	c, err := NewClient(ClientOptions{
		Model: opts.Model, BaseURL: opts.BaseURL, BaseURLFrom: opts.BaseURLFrom, URLFlag: "--embed-url",
		URLVars: []string{EnvURL, EnvURLOpenAI}, KeyVars: []string{EnvKey, EnvKeyOpenAI},
		Path: "/embeddings", Serves: "an embeddings endpoint",
		Transport: opts.Transport, Getenv: opts.Getenv,
	})
	if err != nil {
		return nil, err
	}
	return &Embedder{opts: opts, client: c}, nil
}

// Trusted reports whether list (the value of $TOOLSCOPE_TRUSTED_URLS: URLs
// separated by spaces or commas) holds u: same scheme, host and port, and
// u's path at or under the listed one, both with their dot segments
// resolved ("/ok/v1/../../other" is "/other"). Userinfo, query and
// fragment of either side do not count.
func Trusted(u *url.URL, list string) bool {
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		t, err := url.Parse(f)
		if err != nil || t.Host == "" {
			continue
		}
		if !strings.EqualFold(t.Scheme, u.Scheme) || !strings.EqualFold(hostPort(t), hostPort(u)) {
			continue
		}
		base, p := strings.TrimRight(cleanPath(t.Path), "/"), cleanPath(u.Path)
		if p == base || strings.HasPrefix(p, base+"/") {
			return true
		}
	}
	return false
}

// hostPort is u's host and port, the scheme's default port spelled out.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// ID is "openai:MODEL".
func (e *Embedder) ID() string { return Prefix + e.opts.Model }

// CacheID adds what else decides the vectors: the endpoint (one model name
// on two servers may be two models) and a requested length.
func (e *Embedder) CacheID() string {
	id := e.ID() + "@" + e.client.shown
	if e.opts.Dimensions > 0 {
		id += "#" + strconv.Itoa(e.opts.Dimensions)
	}
	return id
}

// Dimensions is the requested length, else the length of the first answer;
// 0 until then.
func (e *Embedder) Dimensions() int {
	if e.opts.Dimensions > 0 {
		return e.opts.Dimensions
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dims
}

// Calibration is never known for a remote model: ok is false for every
// scoring, and Uncalibrated says what to tell the user.
func (e *Embedder) Calibration(string) (embed.Calibration, bool) {
	return embed.Calibration{}, false
}

// Uncalibrated is the sentence to show while no thresholds were given.
func (e *Embedder) Uncalibrated() string {
	return e.ID() + " is uncalibrated: ranking is meaningful, verdicts need --threshold"
}

// Embed sends the texts in batches, in order, and returns one vector per
// text. Every vector has the same length, across batches and calls.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	batches := (len(texts) + e.opts.BatchSize - 1) / e.opts.BatchSize
	for b := range batches {
		chunk := texts[b*e.opts.BatchSize : min((b+1)*e.opts.BatchSize, len(texts))]
		where := ""
		if batches > 1 {
			where = fmt.Sprintf(" (batch %d of %d)", b+1, batches)
		}
		vecs, err := e.request(ctx, chunk, where)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// request sends one batch, retrying what may pass.
func (e *Embedder) request(ctx context.Context, texts []string, where string) ([][]float32, error) {
	payload := map[string]any{"model": e.opts.Model, "input": texts}
	if e.opts.Dimensions > 0 {
		payload["dimensions"] = e.opts.Dimensions
	}
	var vecs [][]float32
	err := e.client.Post(ctx, payload, where, func(body []byte) (err error) {
		vecs, err = e.decode(body, len(texts))
		return err
	})
	return vecs, err
}

// response is the part of the endpoint's answer read here.
type response struct {
	Data *[]struct {
		Index     *int   `json:"index"`
		Embedding vector `json:"embedding"`
	} `json:"data"`
}

// vector reads a JSON array of numbers straight into float32s: the generic
// decoder spends most of a large answer on reflection per number.
type vector []float32

// UnmarshalJSON is handed a syntactically valid JSON value.
func (v *vector) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = nil
		return nil
	}
	if len(b) < 2 || b[0] != '[' {
		return errors.New("embedding is not an array of numbers")
	}
	body := bytes.TrimSpace(b[1 : len(b)-1])
	if len(body) == 0 {
		*v = vector{}
		return nil
	}
	out := make(vector, 0, bytes.Count(body, []byte{','})+1)
	for tok := range bytes.SplitSeq(body, []byte{','}) {
		f, err := strconv.ParseFloat(string(bytes.TrimSpace(tok)), 32)
		if err != nil {
			return fmt.Errorf("embedding[%d] is not a float32 number", len(out))
		}
		out = append(out, float32(f))
	}
	*v = out
	return nil
}

// decode reads a 200 answer: one vector per input, placed by index, all of
// one length (the one seen before, if any).
func (e *Embedder) decode(body []byte, n int) ([][]float32, error) {
	var r response
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("malformed response: %s", oneLine(err.Error()))
	}
	if r.Data == nil {
		if msg := serverMessage(body); msg != "" {
			return nil, fmt.Errorf("response has no data: %s", msg)
		}
		return nil, errors.New(`response has no "data"`)
	}
	data := *r.Data
	if len(data) != n {
		return nil, fmt.Errorf("response has %d embeddings for %d inputs", len(data), n)
	}
	out := make([][]float32, n)
	indexed := n > 0 && data[0].Index != nil
	for i, d := range data {
		at := i
		if (d.Index != nil) != indexed {
			return nil, fmt.Errorf("data[%d]: some embeddings carry an index and some do not", i)
		}
		if indexed {
			at = *d.Index
		}
		if at < 0 || at >= n || out[at] != nil {
			return nil, fmt.Errorf("data[%d]: index %d is out of range or repeated", i, at)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("data[%d]: empty or missing embedding", i)
		}
		out[at] = d.Embedding
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	want := e.opts.Dimensions
	if want == 0 {
		want = e.dims
	}
	for i, v := range out {
		switch {
		case want == 0:
			want = len(v)
		case len(v) != want && e.opts.Dimensions > 0:
			return nil, fmt.Errorf("input %d: embedding has %d dimensions, %d were requested (does the model support \"dimensions\"?)", i, len(v), want)
		case len(v) != want:
			return nil, fmt.Errorf("input %d: embedding has %d dimensions, earlier ones had %d", i, len(v), want)
		}
	}
	e.dims = want
	return out, nil
}

// serverMessage digs the human message out of an error body: OpenAI's
// {"error":{"message"}}, Ollama's {"error":"..."}, a bare {"message"}, or
// else the start of the body as text.
func serverMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	msg := ""
	if json.Unmarshal(body, &v) == nil {
		var nested struct {
			Message string `json:"message"`
		}
		var flat string
		switch {
		case json.Unmarshal(v.Error, &nested) == nil && nested.Message != "":
			msg = nested.Message
		case json.Unmarshal(v.Error, &flat) == nil && flat != "":
			msg = flat
		case v.Message != "":
			msg = v.Message
		case v.Detail != "":
			msg = v.Detail
		}
	} else {
		msg = string(body)
	}
	msg = oneLine(msg)
	if r := []rune(msg); len(r) > maxErrorChars {
		msg = string(r[:maxErrorChars]) + "…"
	}
	return msg
}

// retryAfter reads how long the server asks to wait: Retry-After in
// seconds or as an HTTP date, or the retry-after-ms some gateways send.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 && ms < 1e12 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 || s > 1e9 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// scrub removes the key from text bound for a user, in case a server
// echoed it: as it is, and in any case or spaced out ("SK-ABC…",
// "s k - a b c…"), as a server's error page may print it.
func (c *Client) scrub(s string) string {
	if c.key == "" {
		return s
	}
	s = strings.ReplaceAll(s, c.key, "[redacted]")
	if c.keyPattern != nil {
		s = c.keyPattern.ReplaceAllString(s, "[redacted]")
	}
	return s
}

// keyPattern matches key in any case with spaces, dots, dashes or
// underscores between its characters; nil for a key too short to tell
// from words.
func keyPattern(key string) *regexp.Regexp {
	if len(key) < 8 {
		return nil
	}
	var parts []string
	for _, r := range key {
		parts = append(parts, regexp.QuoteMeta(string(r)))
	}
	return regexp.MustCompile(`(?i)` + strings.Join(parts, `[\s._\-]*`))
}

// showURL is a URL fit for messages: no credentials, no query (either may
// hold a key).
func showURL(u *url.URL) string {
	c := *u
	c.User, c.RawQuery, c.ForceQuery, c.Fragment = nil, "", false, ""
	return c.String()
}

// oneLine flattens text for a one-line message, dropping control characters.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r < 0x20 || r == 0x7f
	}), " ")
}

func setDefault[T int | time.Duration](v *T, d T) {
	if *v == 0 {
		*v = d
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
