// Package openai embeds texts with any OpenAI-compatible embeddings endpoint
// (POST {base}/embeddings): OpenAI itself, Ollama, vLLM, LM Studio,
// llama.cpp's server, Hugging Face TEI.
//
// Requests are batched, each with its own timeout under the caller's
// context; 429 and 5xx answers are retried with capped exponential backoff,
// honouring Retry-After. Every failure is one line naming the endpoint and
// the step, and the API key never appears in any of them.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
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
	// RequestTimeout bounds one attempt; the caller's context bounds all.
	RequestTimeout time.Duration
	// MaxAttempts caps the tries of one request (first try included).
	MaxAttempts int
	// BaseBackoff is the first wait before a retry; it doubles per retry.
	BaseBackoff time.Duration
	// MaxWait caps one wait between tries; a Retry-After asking for more
	// ends the retries at once.
	MaxWait time.Duration
	// Client sends the requests; nil is a plain http.Client.
	Client *http.Client
	// Getenv reads the environment; nil is os.Getenv.
	Getenv func(string) string
}

// Embedder is the openai:MODEL embedder. It is safe for concurrent use.
type Embedder struct {
	opts     Options
	endpoint string // where requests go
	shown    string // endpoint without credentials or query, for messages
	key      string
	keyVar   string // which variable the key came from
	// withheld names the config that chose the endpoint when a key was
	// there but not sent to it (see Options.BaseURLFrom).
	withheld string
	// wait sleeps between tries; tests replace it to run without sleeping.
	wait func(ctx context.Context, d time.Duration) error

	mu   sync.Mutex
	dims int
}

// New checks the options and reads the endpoint and key from the
// environment. It sends nothing.
func New(opts Options) (*Embedder, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if strings.TrimSpace(opts.Model) == "" {
		return nil, errors.New("no model named: use --embedder openai:MODEL (e.g. openai:text-embedding-3-small)")
	}
	if opts.Dimensions < 0 || opts.BatchSize < 0 || opts.MaxAttempts < 0 || opts.RequestTimeout < 0 || opts.BaseBackoff < 0 || opts.MaxWait < 0 {
		return nil, errors.New("negative option (dimensions, batch size, attempts and durations must be positive)")
	}
	setDefault(&opts.BatchSize, DefaultBatchSize)
	setDefault(&opts.MaxAttempts, DefaultMaxAttempts)
	setDefault(&opts.RequestTimeout, DefaultRequestTimeout)
	setDefault(&opts.BaseBackoff, DefaultBaseBackoff)
	setDefault(&opts.MaxWait, DefaultMaxWait)
	if opts.Client == nil {
		opts.Client = &http.Client{}
	}

	base, from := opts.BaseURL, "--embed-url"
	for _, v := range []string{EnvURL, EnvURLOpenAI} {
		if base == "" {
			base, from = getenv(v), "$"+v
		}
	}
	if base == "" {
		base, from = DefaultURL, "the default URL"
	}
	u, err := url.Parse(strings.TrimSpace(base))
	if err != nil {
		// The parser's message quotes the URL, which may hold credentials.
		return nil, fmt.Errorf("%s is not a valid URL", from)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s is not an http(s) URL: %q (it starts with http:// or https://)", from, showURL(u))
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if !strings.HasSuffix(u.Path, "/embeddings") {
		u.Path += "/embeddings"
	}
	u.RawPath = ""

	e := &Embedder{opts: opts, endpoint: u.String(), shown: showURL(u), wait: sleep}
	for _, v := range []string{EnvKey, EnvKeyOpenAI} {
		if k := strings.TrimSpace(getenv(v)); k != "" {
			e.key, e.keyVar = k, v
			break
		}
	}
	if e.key != "" && opts.BaseURL != "" && opts.BaseURLFrom != "" && !Trusted(u, getenv(EnvTrusted)) {
		e.key, e.withheld = "", opts.BaseURLFrom
	}
	return e, nil
}

// Trusted reports whether list (the value of $TOOLSCOPE_TRUSTED_URLS: URLs
// separated by spaces or commas) holds u: same scheme, host and port, and
// u's path at or under the listed one. Userinfo, query and fragment of
// either side do not count.
func Trusted(u *url.URL, list string) bool {
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		t, err := url.Parse(f)
		if err != nil || t.Host == "" {
			continue
		}
		if !strings.EqualFold(t.Scheme, u.Scheme) || !strings.EqualFold(hostPort(t), hostPort(u)) {
			continue
		}
		base := strings.TrimRight(t.Path, "/")
		if u.Path == base || strings.HasPrefix(u.Path, base+"/") {
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
	id := e.ID() + "@" + e.shown
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

// Error is a failed request: one line naming the endpoint and the step.
// It leaves the embedder's name to the caller, which says what it was
// embedding with.
type Error struct {
	// Endpoint is the URL without credentials or query.
	Endpoint string
	// Batch is " (batch 2 of 4)" when the texts took several requests.
	Batch string
	// Status is the HTTP status, 0 when none arrived.
	Status int
	// Step says what went wrong, in words; it never holds the key.
	Step string
	// Attempts counts the tries made.
	Attempts int
	// Err is the underlying cause (a context error, a network error), if any.
	Err error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("POST %s%s: %s", e.Endpoint, e.Batch, e.Step)
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (gave up after %d attempts)", e.Attempts)
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// failure is one attempt's outcome when it is not a success.
type failure struct {
	status int
	step   string
	cause  error
	retry  bool
	// after is the wait the server asked for (Retry-After), 0 if none.
	after time.Duration
}

// request sends one batch, retrying what may pass.
func (e *Embedder) request(ctx context.Context, texts []string, where string) ([][]float32, error) {
	payload := map[string]any{"model": e.opts.Model, "input": texts}
	if e.opts.Dimensions > 0 {
		payload["dimensions"] = e.opts.Dimensions
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, e.fail(where, &failure{step: "encode request: " + err.Error(), cause: err}, 0)
	}
	for attempt := 1; ; attempt++ {
		vecs, f := e.attempt(ctx, body, len(texts))
		if f == nil {
			return vecs, nil
		}
		if !f.retry || attempt >= e.opts.MaxAttempts {
			return nil, e.fail(where, f, attempt)
		}
		d := e.backoff(attempt)
		if f.after > 0 {
			if f.after > e.opts.MaxWait {
				f.step += fmt.Sprintf("; the server asks to wait %s, more than the %s allowed", f.after, e.opts.MaxWait)
				return nil, e.fail(where, f, attempt)
			}
			d = f.after
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
			f.step += fmt.Sprintf("; no time left to wait %s and retry", d.Round(time.Millisecond))
			return nil, e.fail(where, f, attempt)
		}
		if err := e.wait(ctx, d); err != nil {
			return nil, e.fail(where, &failure{step: "cancelled while waiting to retry", cause: err}, attempt)
		}
	}
}

func (e *Embedder) fail(where string, f *failure, attempts int) error {
	return &Error{Endpoint: e.shown, Batch: where, Status: f.status,
		Step: e.scrub(f.step), Attempts: attempts, Err: f.cause}
}

// backoff is the wait before retry n (from 1): BaseBackoff doubled per
// retry, capped at MaxWait, with the upper half jittered so that runs
// retrying together spread out.
func (e *Embedder) backoff(n int) time.Duration {
	d := e.opts.BaseBackoff << min(n-1, 30)
	if d <= 0 || d > e.opts.MaxWait {
		d = e.opts.MaxWait
	}
	return d/2 + rand.N(d/2+1)
}

// attempt makes one try under its own timeout.
func (e *Embedder) attempt(ctx context.Context, body []byte, n int) ([][]float32, *failure) {
	actx, cancel := context.WithTimeout(ctx, e.opts.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, e.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, &failure{step: "build request: " + err.Error(), cause: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "toolscope")
	if e.key != "" {
		req.Header.Set("Authorization", "Bearer "+e.key)
	}
	resp, err := e.opts.Client.Do(req)
	if err != nil {
		return nil, e.transportFailure(ctx, "send", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
	if err != nil {
		return nil, e.transportFailure(ctx, "read response", err)
	}
	if len(data) > maxBodyBytes {
		return nil, &failure{status: resp.StatusCode, step: fmt.Sprintf("response larger than %d MiB", maxBodyBytes>>20)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, e.statusFailure(resp, data)
	}
	vecs, err := e.decode(data, n)
	if err != nil {
		return nil, &failure{status: resp.StatusCode, step: err.Error()}
	}
	return vecs, nil
}

// transportFailure explains a request that got no complete answer. A timed
// out attempt is retried; the caller's own cancellation or deadline is not,
// nor a refused connection (nothing listens: say so at once).
func (e *Embedder) transportFailure(ctx context.Context, step string, err error) *failure {
	if ctx.Err() != nil {
		return &failure{step: step + ": " + ctx.Err().Error(), cause: ctx.Err()}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &failure{step: fmt.Sprintf("%s: no answer within %s (request timeout)", step, e.opts.RequestTimeout), cause: err, retry: true}
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err // its text repeats the URL, which may carry credentials
	}
	if errors.Is(err, syscall.ECONNREFUSED) {
		return &failure{step: step + ": connection refused: is the server running at this address?", cause: err}
	}
	return &failure{step: step + ": " + err.Error(), cause: err, retry: true}
}

// statusFailure explains a non-200 answer.
func (e *Embedder) statusFailure(resp *http.Response, body []byte) *failure {
	f := &failure{status: resp.StatusCode, step: "HTTP " + resp.Status}
	msg := serverMessage(body)
	switch code := resp.StatusCode; {
	case (code == http.StatusUnauthorized || code == http.StatusForbidden) && e.withheld != "":
		f.step += ": the endpoint wants an API key, and the key in $" + e.keyVar + " is not sent to a URL that " + e.withheld + " chose: pass it with --embed-url, or list it in $" + EnvTrusted
	case code == http.StatusUnauthorized && e.key == "":
		f.step += ": the endpoint wants an API key: set " + EnvKey + " (or " + EnvKeyOpenAI + ")"
	case code == http.StatusUnauthorized:
		f.step += ": the key in $" + e.keyVar + " was refused"
	case code == http.StatusForbidden:
		f.step += fmt.Sprintf(": the key in $%s may not use model %q", e.keyVar, e.opts.Model)
		if e.key == "" {
			f.step = "HTTP " + resp.Status + ": access denied (no key set: " + EnvKey + " or " + EnvKeyOpenAI + ")"
		}
	case code == http.StatusNotFound:
		f.step += fmt.Sprintf(": no model %q here, or not an embeddings endpoint (the base URL usually ends in /v1)", e.opts.Model)
	case code == http.StatusTooManyRequests || code >= 500:
		f.retry = true
		f.after = retryAfter(resp.Header, time.Now())
	}
	if msg != "" {
		f.step += ": " + msg
	}
	return f
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

// scrub removes the key from text bound for a user, in case a server echoed it.
func (e *Embedder) scrub(s string) string {
	if e.key == "" {
		return s
	}
	return strings.ReplaceAll(s, e.key, "[redacted]")
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
