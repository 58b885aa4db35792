package live

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// closeGrace is how long a stdio server gets to leave after its stdin
// closes, and again after SIGTERM.
const closeGrace = 2 * time.Second

// exitWait is how long a failure waits to learn whether the server exited,
// which explains a dropped connection better than the connection does.
// Once the server's stdout has ended it is almost surely exiting, and only
// its reaping is awaited: that gets longer, so a busy machine does not turn
// "the server exited (exit status 3)" into a vaguer message.
const (
	exitWait      = 300 * time.Millisecond
	exitWaitAtEOF = 5 * time.Second
)

// sdkMessageCap is the SDK's bound on one message or event, set above
// maxMessage so toolscope's own cap, which says what happened, acts first.
const sdkMessageCap = maxMessage + 1<<20

// maxPages stops a server whose cursors never end.
const maxPages = 10000

// Error is a failure talking to a server: which one, at which step, and
// what it wrote to stderr.
type Error struct {
	// Server names the server as Spec.String does.
	Server string
	// Step is "start", "initialize", "tools/list page 2", "connection".
	Step string
	Msg  string
	// Stderr is the tail of a stdio server's stderr ("" for HTTP).
	Stderr string
}

func (e *Error) Error() string {
	s := e.Server + ": " + e.Step + ": " + e.Msg
	if t := stderrExcerpt(e.Stderr); t != "" {
		s += "; server stderr: " + t
	}
	return s
}

// stderrExcerpt is the last few lines of a server's stderr, on one line.
func stderrExcerpt(s string) string {
	const lines, chars = 5, 600
	var keep []string
	all := strings.Split(s, "\n")
	for i := len(all) - 1; i >= 0 && len(keep) < lines; i-- {
		if l := strings.TrimSpace(all[i]); l != "" {
			keep = append(keep, l)
		}
	}
	for i, j := 0, len(keep)-1; i < j; i, j = i+1, j-1 {
		keep[i], keep[j] = keep[j], keep[i]
	}
	out := strings.Join(keep, " | ")
	if r := []rune(out); len(r) > chars {
		out = "…" + string(r[len(r)-chars:])
	}
	return out
}

// conn is one connected server.
type conn struct {
	spec    Spec
	session *mcp.ClientSession
	proc    *process // nil over HTTP
	pages   *pages
	secrets []string // header values and the like, scrubbed from messages
	skipped skipped  // lines on a stdio server's stdout that were no messages

	end     context.CancelCauseFunc // ends the context the session runs in
	listed  atomic.Bool             // a List has begun; earlier list_changed are moot
	closing atomic.Bool             // close was asked for; a lost connection is expected
	over    atomic.Pointer[string]  // what was cut at maxMessage bytes, said as the failure
	lost    chan struct{}           // closed when the session ends, for whatever reason

	// cut is cancelled when an answer is cut, so the request waiting for
	// it fails at once instead of at its timeout.
	cut     context.Context
	cutDone context.CancelFunc
}

// dial starts or reaches the server and runs the MCP handshake. changed is
// called on the server's notifications/tools/list_changed, ended when the
// connection drops without being closed.
func dial(ctx context.Context, spec Spec, opts Options, changed func(), ended func(error)) (*conn, error) {
	c := &conn{spec: spec, pages: newPages(), lost: make(chan struct{})}
	c.cut, c.cutDone = context.WithCancel(context.Background())
	spec, err := c.resolve(spec, opts)
	if err != nil {
		return nil, err
	}
	var transport mcp.Transport
	if spec.URL != "" {
		transport = c.httpTransport(spec, opts)
	} else {
		p, err := startProcess(append([]string{spec.Command}, spec.Args...), childEnv(spec.Env), orDefault(opts.grace, closeGrace))
		if err != nil {
			// The server as the config wrote it: the expanded command may
			// hold values from the environment.
			return nil, &Error{Server: c.spec.String(), Step: "start", Msg: c.scrub(err.Error())}
		}
		c.proc = p
		lines := &jsonLines{r: pipeReader{p}, skip: c.skipped.add, over: func() { c.overLimit(errOverLimit) }}
		transport = tappedTransport{&mcp.IOTransport{Reader: readCloser{lines, pipeReader{p}}, Writer: pipeWriter{p}, MaxLineLength: sdkMessageCap}, c.pages}
	}
	copts := hostCapabilities(opts.BareClient)
	copts.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) {
		if c.listed.Load() {
			changed()
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "toolscope", Version: version()}, copts)
	// The older SSE transport ties its event stream to the context Connect
	// is given, so that context lives as long as the connection; the
	// handshake's limit and the caller's cancellation end it only until
	// the handshake is done.
	life, end := context.WithCancelCause(context.WithoutCancel(ctx))
	c.end = end
	limit := time.AfterFunc(opts.initTimeout(), func() { end(context.DeadlineExceeded) })
	unbind := context.AfterFunc(ctx, func() { end(context.Cause(ctx)) })
	session, err := client.Connect(life, transport, &mcp.ClientSessionOptions{ProtocolVersion: opts.protocolVersion})
	limit.Stop()
	unbind()
	if err != nil {
		ferr := c.failure("initialize", err, life, opts.initTimeout())
		end(nil)
		if c.proc != nil {
			c.proc.close()
		}
		return nil, ferr
	}
	c.session = session
	go func() {
		err := session.Wait()
		close(c.lost)
		if !c.closing.Load() {
			ended(c.failure("connection", orLost(err), context.Background(), 0))
		}
	}()
	return c, nil
}

func orLost(err error) error {
	if err == nil {
		return errors.New("the server closed the connection")
	}
	return err
}

// resolve expands a config's ${VAR} references and adds the bearer token
// from the environment to a lone URL.
func (c *conn) resolve(spec Spec, opts Options) (Spec, error) {
	getenv := opts.getenv()
	if spec.Config != "" {
		e := expander{getenv: getenv, workspace: workspaceOf(spec.Config), fromEnv: &c.secrets}
		fail := func(field string, err error) (Spec, error) {
			return spec, &Error{Server: spec.String(), Step: "config", Msg: field + ": " + err.Error()}
		}
		var err error
		if spec.Command, err = e.expand(spec.Command); err != nil {
			return fail("command", err)
		}
		if spec.URL, err = e.expand(spec.URL); err != nil {
			return fail("url", err)
		}
		args := make([]string, len(spec.Args))
		for i, a := range spec.Args {
			if args[i], err = e.expand(a); err != nil {
				return fail(fmt.Sprintf("args[%d]", i), err)
			}
		}
		spec.Args = args
		if spec.Env, err = expandMap(e, spec.Env); err != nil {
			return fail("env", err)
		}
		if spec.Headers, err = expandMap(e, spec.Headers); err != nil {
			return fail("headers", err)
		}
	}
	if spec.URL != "" && spec.Name == "" {
		if tok, ok := getenv(EnvBearer); ok && tok != "" && !hasHeader(spec.Headers, "Authorization") {
			h := make(map[string]string, len(spec.Headers)+1)
			for k, v := range spec.Headers {
				h[k] = v
			}
			h["Authorization"] = "Bearer " + tok
			spec.Headers = h
		}
	}
	for _, v := range spec.Headers {
		c.secrets = append(c.secrets, v)
		if _, tok, ok := strings.Cut(v, " "); ok {
			c.secrets = append(c.secrets, strings.TrimSpace(tok))
		}
	}
	for _, v := range spec.Env {
		c.secrets = append(c.secrets, v)
	}
	if u, err := url.Parse(spec.URL); err == nil {
		pw, _ := u.User.Password()
		c.secrets = append(c.secrets, u.RawQuery, pw)
	}
	c.secrets = slices.DeleteFunc(c.secrets, func(v string) bool { return len(v) < minSecret })
	// A message may quote a value escaped: as JSON (a multi-line value's
	// newlines as \n; encoding/json's HTML escapes too) or as Go's %q.
	for _, v := range c.secrets {
		html, _ := json.Marshal(v)
		for _, q := range []string{jsonv.Quote(v), string(html), strconv.Quote(v)} {
			if q = q[1 : len(q)-1]; q != v && !slices.Contains(c.secrets, q) {
				c.secrets = append(c.secrets, q)
			}
		}
	}
	// Longest first: a value that holds another must go whole, not leave
	// what surrounds the shorter one.
	slices.SortFunc(c.secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return spec, nil
}

func expandMap(e expander, m map[string]string) (map[string]string, error) {
	if m == nil {
		return nil, nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]string, len(m))
	for _, k := range keys {
		v, err := e.expand(m[k])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

func hasHeader(h map[string]string, name string) bool {
	for k := range h {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

func childEnv(extra map[string]string) []string {
	env := os.Environ()
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k])
	}
	return env
}

func (c *conn) httpTransport(spec Spec, opts Options) mcp.Transport {
	base := opts.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	origin, _ := url.Parse(spec.URL)
	hc := &http.Client{Transport: &httpTap{base: base, headers: spec.Headers, origin: origin, pages: c.pages, over: c.overLimit, standaloneGET: !spec.SSE}}
	// The SDK's own cap on an event (16 MiB) would refuse a page the
	// catalog limit allows; the tap's cap, at the limit, comes first.
	if spec.SSE {
		return &mcp.SSEClientTransport{Endpoint: spec.URL, HTTPClient: hc, MaxEventSize: sdkMessageCap}
	}
	return &mcp.StreamableClientTransport{Endpoint: spec.URL, HTTPClient: hc, MaxEventSize: sdkMessageCap}
}

// overLimit notes that what the server sent was cut at the size limit,
// why saying which, and fails the request waiting, whose failure then says
// why: the first cut's.
func (c *conn) overLimit(why error) {
	msg := why.Error()
	c.over.CompareAndSwap(nil, &msg)
	c.cutDone()
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}

// failure turns an SDK error at a step into an Error: a timeout says so
// with its limit, a dropped stdio connection says how the server exited,
// and the server's stderr comes along.
func (c *conn) failure(step string, err error, ctx context.Context, limit time.Duration) *Error {
	var msg string
	stopped := context.Cause(ctx)
	switch {
	case c.over.Load() != nil:
		msg = *c.over.Load()
	case errors.Is(stopped, context.DeadlineExceeded) || stopped == nil && errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("timed out after %s", limit)
	case stopped != nil:
		msg = "cancelled"
		if !errors.Is(stopped, context.Canceled) {
			msg += " (" + stopped.Error() + ")"
		}
	default:
		msg = sdkNoise.ReplaceAllString(err.Error(), "")
		if c.proc != nil {
			wait := time.Duration(0)
			if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || step == "connection" {
				wait = exitWait
			}
			if c.proc.stdoutEnded.Load() {
				wait = exitWaitAtEOF
			}
			st, ok := c.proc.awaitExit(wait)
			switch {
			case c.proc.closedLive.Load():
				// The SDK gave up on what the server wrote (a line that
				// is no message, too long to be judged and skipped) and
				// closed the connection, which ended the server.
				msg = sdkClosing.Replace(msg)
			case ok:
				msg = "the server exited (" + st + ")"
			}
		}
	}
	e := &Error{Server: c.spec.String(), Step: step, Msg: c.scrub(msg)}
	if c.proc != nil {
		e.Stderr = c.stderr()
	}
	return e
}

// sdkClosing words the SDK's message for a connection it closed itself.
var sdkClosing = strings.NewReplacer("connection closed: client is closing: ", "toolscope closed the connection: ", "client is closing: ", "toolscope closed the connection: ")

// sdkNoise is the SDK's wrapping of a failed call, which repeats the
// method the step already names.
var sdkNoise = regexp.MustCompile(`(calling|sending) "[^"]*": `)

// minSecret is the length from which a header or environment value is
// scrubbed: shorter ones (a port, "1", "true") are no secret and would
// blank out ordinary words.
const minSecret = 4

// redacted is what a scrubbed value reads as.
const redacted = "[redacted]"

// scrub removes header and environment values from a message: an SDK or
// HTTP error may quote a request, and secrets must never be echoed.
func (c *conn) scrub(s string) string { return c.scrubCut(s, false, false) }

// scrubCut is scrub for text cut out of a longer one, before its first
// byte (front) or after its last (back): the part of a value that a cut
// split is redacted too, so no piece of it shows.
func (c *conn) scrubCut(s string, front, back bool) string {
	if c.spec.URL != "" {
		s = strings.ReplaceAll(s, c.spec.URL, redactURL(c.spec.URL))
	}
	for _, v := range c.secrets {
		s = strings.ReplaceAll(s, v, redacted)
	}
	for _, v := range c.secrets {
		// The longest end of v that s starts with, the longest start of
		// v that s ends with.
		for n := len(v) - 1; front && n > 0; n-- {
			if strings.HasPrefix(s, v[len(v)-n:]) {
				s = redacted + s[n:]
				break
			}
		}
		for n := len(v) - 1; back && n > 0; n-- {
			if strings.HasSuffix(s, v[:n]) {
				s = s[:len(s)-n] + redacted
				break
			}
		}
	}
	return s
}

// list reads every page of the server's tools/list and returns them as one
// document, `{"tools":[...]}`, made of the entries' bytes exactly as the
// server sent them.
func (c *conn) list(ctx context.Context, pageTimeout time.Duration) ([]byte, error) {
	c.listed.Store(true)
	var doc bytes.Buffer
	doc.WriteString(`{"tools":[`)
	empty := true
	cursor := ""
	seen := map[string]bool{}
	for n := 1; ; n++ {
		step := fmt.Sprintf("tools/list page %d", n)
		if n > maxPages {
			return nil, &Error{Server: c.spec.String(), Step: step, Msg: fmt.Sprintf("more than %d pages", maxPages)}
		}
		before := c.pages.seq()
		pctx, cancel := context.WithTimeout(ctx, pageTimeout)
		uncut := context.AfterFunc(c.cut, cancel)
		_, err := c.session.ListTools(pctx, &mcp.ListToolsParams{Cursor: cursor})
		uncut()
		raw, at, ok := c.pages.page(cursor)
		if err != nil && !(ok && at > before) {
			// Only a failure with no answer is the server's: an answer the
			// SDK could not decode is read below, and the loader says
			// what is wrong with it.
			ferr := c.failure(step, err, pctx, pageTimeout)
			cancel()
			return nil, ferr
		}
		cancel()
		if !ok {
			return nil, &Error{Server: c.spec.String(), Step: step, Msg: "the answer was not seen on the wire"}
		}
		tools, next, err := splitPage(raw)
		if err != nil {
			return nil, &Error{Server: c.spec.String(), Step: step, Msg: err.Error()}
		}
		for _, tool := range tools {
			// One entry a line: the JSON reader's columns cost the
			// length of the line so far.
			if !empty {
				doc.WriteString(",\n")
			}
			doc.Write(tool)
			empty = false
		}
		if doc.Len() > catalog.MaxFileBytes {
			return nil, &Error{Server: c.spec.String(), Step: step, Msg: fmt.Sprintf("the tool list is over the %d MiB limit", catalog.MaxFileBytes>>20)}
		}
		if next == "" {
			break
		}
		if seen[next] || next == cursor {
			return nil, &Error{Server: c.spec.String(), Step: step, Msg: fmt.Sprintf("the server sent cursor %q again (its pages never end)", next)}
		}
		seen[next] = true
		cursor = next
	}
	doc.WriteString("]}")
	return doc.Bytes(), nil
}

// splitPage reads one tools/list result: the bytes of each entry of its
// tools array, and its nextCursor.
func splitPage(raw []byte) (tools []json.RawMessage, next string, err error) {
	var page struct {
		Tools      json.RawMessage `json:"tools"`
		NextCursor json.RawMessage `json:"nextCursor"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return nil, "", fmt.Errorf("the result is not a JSON object: %w", err)
	}
	if t := bytes.TrimSpace(page.Tools); len(t) == 0 || t[0] != '[' || json.Unmarshal(t, &tools) != nil {
		return nil, "", errors.New("the result has no tools array")
	}
	if nc := bytes.TrimSpace(page.NextCursor); len(nc) > 0 && string(nc) != "null" {
		if err := json.Unmarshal(nc, &next); err != nil {
			return nil, "", errors.New("nextCursor is not a string")
		}
	}
	return tools, next, nil
}

// close ends the session and, for stdio, the child; it returns once the
// child is reaped.
func (c *conn) close() {
	c.closing.Store(true)
	if c.session != nil {
		_ = c.session.Close()
	}
	c.end(nil)
	if c.proc != nil {
		c.proc.close()
	}
}

// alive reports whether the session still stands.
func (c *conn) alive() bool {
	select {
	case <-c.lost:
		return false
	default:
		return true
	}
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

// note says what the connection skipped, scrubbed; "" when nothing.
func (c *conn) note() string {
	return c.skipped.note(c.scrubCut)
}

// stderr is the tail of a stdio server's stderr, scrubbed of the values
// of its environment and headers: a server may print its own
// configuration, tokens included.
func (c *conn) stderr() string {
	if c.proc == nil {
		return ""
	}
	s, cut := c.proc.stderr.text()
	return c.scrubCut(s, cut, false)
}
