package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// ClientOptions configure NewClient: one OpenAI-compatible endpoint, where
// its URL and key come from, and the retry policy. Zero durations and
// attempts take the package defaults.
type ClientOptions struct {
	// Model is the model name; it only appears in messages here.
	Model string
	// BaseURL is the API base given on the command line; "" reads URLVars
	// in order, then DefaultURL.
	BaseURL string
	// BaseURLFrom says where BaseURL came from when a file chose it (a
	// config's "path:line"), "" when the user did: such a URL gets no key
	// from the environment unless $TOOLSCOPE_TRUSTED_URLS lists it.
	BaseURLFrom string
	// URLFlag names the flag BaseURL came from, for messages.
	URLFlag string
	// URLVars and KeyVars are the environment variables read, in order.
	URLVars, KeyVars []string
	// Path is the endpoint under the base, e.g. "/embeddings"; a base that
	// already ends in it is used as it is.
	Path string
	// Serves says what the endpoint is, for a 404 message ("an embeddings
	// endpoint").
	Serves string
	Transport
	// MaxBodyBytes bounds one answer's body; 0 is 256 MiB (an embeddings
	// answer of 256 long vectors).
	MaxBodyBytes int
	// Getenv reads the environment; nil is os.Getenv.
	Getenv func(string) string
}

// Transport is how a client sends: the retry policy and the HTTP client.
// Zero durations and attempts take the package defaults.
type Transport struct {
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
}

// Client posts JSON requests to one OpenAI-compatible endpoint: each try
// under its own timeout, 429 and 5xx retried with capped, jittered
// exponential backoff honouring Retry-After. Its errors are one line naming
// the endpoint and the step, never the key. It is safe for concurrent use.
type Client struct {
	opts     ClientOptions
	endpoint string // where requests go
	shown    string // endpoint without credentials or query, for messages
	key      string
	// keyPattern finds the key echoed in another case or spaced out.
	keyPattern *regexp.Regexp
	keyVar     string // which variable the key came from
	// withheld names the config that chose the endpoint when a key was
	// there but not sent to it (see ClientOptions.BaseURLFrom).
	withheld string
	// wait sleeps between tries; tests replace it to run without sleeping.
	wait func(ctx context.Context, d time.Duration) error
}

// NewClient checks the options and reads the endpoint and key from the
// environment. It sends nothing.
func NewClient(opts ClientOptions) (*Client, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if opts.MaxAttempts < 0 || opts.RequestTimeout < 0 || opts.BaseBackoff < 0 || opts.MaxWait < 0 {
		return nil, errors.New("negative option (attempts and durations must be positive)")
	}
	setDefault(&opts.MaxAttempts, DefaultMaxAttempts)
	setDefault(&opts.RequestTimeout, DefaultRequestTimeout)
	setDefault(&opts.BaseBackoff, DefaultBaseBackoff)
	setDefault(&opts.MaxWait, DefaultMaxWait)
	setDefault(&opts.MaxBodyBytes, maxBodyBytes)
	if opts.Client == nil {
		opts.Client = &http.Client{}
	}

	base, from := opts.BaseURL, opts.URLFlag
	for _, v := range opts.URLVars {
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
	// Dot segments are resolved here, once: the path sent is the path
	// $TOOLSCOPE_TRUSTED_URLS is compared with (url.Parse has decoded
	// %2e%2e to "..").
	u.Path = strings.TrimRight(cleanPath(u.Path), "/")
	if !strings.HasSuffix(u.Path, opts.Path) {
		u.Path += opts.Path
	}
	u.RawPath = ""

	c := &Client{opts: opts, endpoint: u.String(), shown: showURL(u), wait: sleep}
	for _, v := range opts.KeyVars {
		if k := strings.TrimSpace(getenv(v)); k != "" {
			c.key, c.keyVar = k, v
			break
		}
	}
	if c.key != "" && opts.BaseURL != "" && opts.BaseURLFrom != "" && !Trusted(u, getenv(EnvTrusted)) {
		c.key, c.withheld = "", opts.BaseURLFrom
	}
	if c.key != "" {
		c.keyPattern = keyPattern(c.key)
		// The key is added by the transport, to requests for the
		// endpoint's own origin only: a redirect elsewhere (another port,
		// a subdomain, https to http) is followed without it.
		hc := *c.opts.Client
		base := hc.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		hc.Transport = &keyTransport{base: base, key: c.key, origin: u}
		c.opts.Client = &hc
	}
	return c, nil
}

// keyTransport sends the key with the requests for origin's scheme, host
// and port, and with no other.
type keyTransport struct {
	base   http.RoundTripper
	key    string
	origin *url.URL
}

func (t *keyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if sameOrigin(req.URL, t.origin) {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+t.key)
	}
	return t.base.RoundTrip(req)
}

// sameOrigin reports whether a and b have one scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(hostPort(a), hostPort(b))
}

// cleanPath resolves the dot segments of an absolute URL path, keeping a
// trailing slash; "" stays "".
func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	c := path.Clean("/" + p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// Endpoint is the URL requests go to, without credentials or query.
func (c *Client) Endpoint() string { return c.shown }

// HasKey reports whether an API key was found in the environment.
func (c *Client) HasKey() bool { return c.key != "" }

// Post sends payload as JSON and hands a 200 answer's body to decode,
// retrying what may pass. where is added to messages (" (batch 2 of 4)").
// A decode error ends the request at once: it is the caller's to retry.
func (c *Client) Post(ctx context.Context, payload any, where string, decode func([]byte) error) error {
	body, err := json.Marshal(payload)
	if err != nil {
		return c.fail(where, &failure{step: "encode request: " + err.Error(), cause: err}, 0)
	}
	for attempt := 1; ; attempt++ {
		f := c.attempt(ctx, body, decode)
		if f == nil {
			return nil
		}
		if !f.retry || attempt >= c.opts.MaxAttempts {
			return c.fail(where, f, attempt)
		}
		d := c.backoff(attempt)
		if f.after > 0 {
			if f.after > c.opts.MaxWait {
				f.step += fmt.Sprintf("; the server asks to wait %s, more than the %s allowed", f.after, c.opts.MaxWait)
				return c.fail(where, f, attempt)
			}
			d = f.after
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
			f.step += fmt.Sprintf("; no time left to wait %s and retry", d.Round(time.Millisecond))
			return c.fail(where, f, attempt)
		}
		if err := c.wait(ctx, d); err != nil {
			return c.fail(where, &failure{step: "cancelled while waiting to retry", cause: err}, attempt)
		}
	}
}

// Error is a failed request: one line naming the endpoint and the step.
// It leaves the model's name to the caller, which says what it was doing.
type Error struct {
	// Endpoint is the URL without credentials or query.
	Endpoint string
	// Batch is " (batch 2 of 4)" when the work took several requests.
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

func (c *Client) fail(where string, f *failure, attempts int) error {
	return &Error{Endpoint: c.shown, Batch: where, Status: f.status,
		Step: c.scrub(f.step), Attempts: attempts, Err: f.cause}
}

// backoff is the wait before retry n (from 1): BaseBackoff doubled per
// retry, capped at MaxWait, with the upper half jittered so that runs
// retrying together spread out.
func (c *Client) backoff(n int) time.Duration {
	d := c.opts.BaseBackoff << min(n-1, 30)
	if d <= 0 || d > c.opts.MaxWait {
		d = c.opts.MaxWait
	}
	return d/2 + rand.N(d/2+1)
}

// attempt makes one try under its own timeout.
func (c *Client) attempt(ctx context.Context, body []byte, decode func([]byte) error) *failure {
	actx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return &failure{step: "build request: " + err.Error(), cause: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "toolscope")
	resp, err := c.opts.Client.Do(req)
	if err != nil {
		return c.transportFailure(ctx, "send", err)
	}
	defer resp.Body.Close()
	limit := c.opts.MaxBodyBytes
	data, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return c.transportFailure(ctx, "read response", err)
	}
	if len(data) > limit {
		return &failure{status: resp.StatusCode, step: "response larger than " + sizeText(limit)}
	}
	if resp.StatusCode != http.StatusOK {
		return c.statusFailure(resp, data)
	}
	if err := decode(data); err != nil {
		return &failure{status: resp.StatusCode, step: err.Error(), cause: err}
	}
	return nil
}

// transportFailure explains a request that got no complete answer. A timed
// out attempt is retried; the caller's own cancellation or deadline is not,
// nor a refused connection (nothing listens: say so at once).
func (c *Client) transportFailure(ctx context.Context, step string, err error) *failure {
	if ctx.Err() != nil {
		// The cause says which deadline it was, when the caller set one.
		cause := context.Cause(ctx)
		return &failure{step: step + ": " + cause.Error(), cause: cause}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &failure{step: fmt.Sprintf("%s: no answer within %s (request timeout)", step, c.opts.RequestTimeout), cause: err, retry: true}
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
func (c *Client) statusFailure(resp *http.Response, body []byte) *failure {
	f := &failure{status: resp.StatusCode, step: "HTTP " + resp.Status}
	msg := serverMessage(body)
	switch code := resp.StatusCode; {
	case (code == http.StatusUnauthorized || code == http.StatusForbidden) && c.withheld != "":
		f.step += ": the endpoint wants an API key, and the key in $" + c.keyVar + " is not sent to a URL that " + c.withheld + " chose: pass it with " + c.opts.URLFlag + ", or list it in $" + EnvTrusted
	case code == http.StatusUnauthorized && c.key == "":
		f.step += ": the endpoint wants an API key: set " + c.keyNames(" (or ", ")")
	case code == http.StatusUnauthorized:
		f.step += ": the key in $" + c.keyVar + " was refused"
	case code == http.StatusForbidden && c.key == "":
		f.step = "HTTP " + resp.Status + ": access denied (no key set: " + c.keyNames(" or ", "") + ")"
	case code == http.StatusForbidden:
		f.step += fmt.Sprintf(": the key in $%s may not use model %q", c.keyVar, c.opts.Model)
	case code == http.StatusNotFound:
		f.step += fmt.Sprintf(": no model %q here, or not %s (the base URL usually ends in /v1)", c.opts.Model, c.opts.Serves)
	case code == http.StatusTooManyRequests || code >= 500:
		f.retry = true
		f.after = retryAfter(resp.Header, time.Now())
	}
	if msg != "" {
		f.step += ": " + msg
	}
	return f
}

// keyNames lists the key variables: the first, then the others between
// open and close ("A (or B)", "A or B").
func (c *Client) keyNames(open, close string) string {
	vars := c.opts.KeyVars
	if len(vars) == 0 {
		return "an API key"
	}
	s := vars[0]
	for _, v := range vars[1:] {
		s += open + v + close
	}
	return s
}

// sizeText spells a byte limit: "256 MiB", "512 KiB".
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
