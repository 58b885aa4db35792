package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK decodes a tools/list result into Go maps, which loses the key
// order authors wrote their parameters in (SPEC §1.3). So every message is
// also seen on the wire, before decoding, and the raw bytes of each
// tools/list result are kept: the catalog is built from those, exactly as if
// the same list had been read from a file.

// maxMessage bounds one recorded message; a bigger catalog is over the
// catalog loader's limit anyway.
const maxMessage = 64 << 20

const methodListTools = "tools/list"

// pages keeps the raw result of each tools/list response, by the cursor
// that asked for it.
type pages struct {
	mu    sync.Mutex
	asked map[jsonrpc.ID]string // tools/list requests in flight → cursor
	got   map[string]rawPage    // cursor → its latest answer
	n     int                   // answers received so far
}

type rawPage struct {
	raw []byte
	at  int // pages.n when it arrived
}

func newPages() *pages {
	return &pages{asked: map[jsonrpc.ID]string{}, got: map[string]rawPage{}}
}

// sent notes an outgoing message.
func (p *pages) sent(m jsonrpc.Message) {
	req, ok := m.(*jsonrpc.Request)
	if !ok || req.Method != methodListTools || !req.IsCall() {
		return
	}
	var params struct {
		Cursor string `json:"cursor"`
	}
	// Params are the SDK's own encoding; a cursor it cannot read back is
	// the first page.
	_ = json.Unmarshal(req.Params, &params)
	p.mu.Lock()
	p.asked[req.ID] = params.Cursor
	p.mu.Unlock()
}

// received notes an incoming message.
func (p *pages) received(m jsonrpc.Message) {
	resp, ok := m.(*jsonrpc.Response)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	cursor, ok := p.asked[resp.ID]
	if !ok {
		return
	}
	delete(p.asked, resp.ID)
	if resp.Error == nil {
		p.n++
		p.got[cursor] = rawPage{bytes.Clone(resp.Result), p.n}
	}
}

// seq counts the answers received so far; an answer whose at is above a
// seq taken before a request arrived after it.
func (p *pages) seq() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// page returns the raw result last received for cursor. The SDK may serve
// a page from its own cache (when the server allows it), and then the
// latest answer for that cursor is the one it cached.
func (p *pages) page(cursor string) (raw []byte, at int, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	pg, ok := p.got[cursor]
	return pg.raw, pg.at, ok
}

// receivedRaw decodes wire bytes (one message or a batch) and notes them.
func (p *pages) receivedRaw(data []byte) {
	for _, m := range decodeMessages(data) {
		p.received(m)
	}
}

func decodeMessages(data []byte) []jsonrpc.Message {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(data, &batch) != nil {
			return nil
		}
		var out []jsonrpc.Message
		for _, raw := range batch {
			if m, err := jsonrpc.DecodeMessage(raw); err == nil {
				out = append(out, m)
			}
		}
		return out
	}
	if m, err := jsonrpc.DecodeMessage(data); err == nil {
		return []jsonrpc.Message{m}
	}
	return nil
}

// tappedTransport shows every message of a connection to pages. It is used
// for stdio, whose connection has no hidden interface a wrapper would lose.
type tappedTransport struct {
	mcp.Transport
	pages *pages
}

func (t tappedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return tappedConn{c, t.pages}, nil
}

type tappedConn struct {
	mcp.Connection
	pages *pages
}

func (c tappedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if err == nil {
		c.pages.received(m)
	}
	return m, err
}

func (c tappedConn) Write(ctx context.Context, m jsonrpc.Message) error {
	c.pages.sent(m)
	return c.Connection.Write(ctx, m)
}

// httpTap sits under the SDK's Streamable HTTP client: it adds the
// configured headers, shows request and response bodies to pages, and caps
// what a response may make anyone hold: a JSON (or any other) body at
// maxMessage bytes, an event stream at maxMessage bytes an event. (The
// SDK's HTTP connection learns the session's protocol version through an
// unexported method, so wrapping the connection itself would break it.)
type httpTap struct {
	base    http.RoundTripper
	headers map[string]string
	// origin is the server's scheme and host: the headers (tokens) go
	// there only, never where a redirect or an SSE endpoint points
	// elsewhere.
	origin *url.URL
	pages  *pages
	// over is called when a response was cut at the limit, so the failure
	// that follows can say why.
	over func(why error)
	// standaloneGET: a GET is the standalone event stream of a Streamable
	// HTTP session, which carries the server's own messages, never the
	// answer a request waits for (over the older SSE transport it carries
	// every answer).
	standaloneGET bool
}

func (t *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if t.origin != nil && strings.EqualFold(req.URL.Scheme, t.origin.Scheme) && strings.EqualFold(req.URL.Host, t.origin.Host) {
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	if req.Method == http.MethodPost && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(io.LimitReader(body, maxMessage))
			body.Close()
			for _, m := range decodeMessages(data) {
				t.pages.sent(m)
			}
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	why := errOverLimit
	if t.standaloneGET && req.Method == http.MethodGet {
		why = errStreamOverLimit
	}
	over := func() { t.over(why) }
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "text/event-stream":
		resp.Body = &sseTee{ReadCloser: resp.Body, emit: t.pages.receivedRaw, over: over}
	case "application/json":
		resp.Body = &jsonTee{ReadCloser: &limitedBody{ReadCloser: resp.Body, over: over}, emit: t.pages.receivedRaw}
	default:
		resp.Body = &limitedBody{ReadCloser: resp.Body, over: over}
	}
	return resp, nil
}

// errOverLimit ends a message that is over maxMessage bytes.
var errOverLimit = fmt.Errorf("the server's answer is over the %d MiB limit (reading stopped there)", maxMessage>>20)

// errStreamOverLimit is errOverLimit met on the standalone event stream: the
// listing it fails is not the cause.
var errStreamOverLimit = fmt.Errorf("the server's standalone event stream (its GET) sent an event over the %d MiB limit (reading stopped there)", maxMessage>>20)

// limitedBody fails a body once it is over max bytes (0: maxMessage), so
// whoever reads it to its end holds no more than that.
type limitedBody struct {
	io.ReadCloser
	max  int
	read int
	over func()
}

func (l *limitedBody) Read(b []byte) (int, error) {
	max := orMax(l.max)
	if l.read > max {
		return 0, errOverLimit
	}
	if len(b) > max+1-l.read {
		b = b[:max+1-l.read]
	}
	n, err := l.ReadCloser.Read(b)
	l.read += n
	if l.read > max {
		if l.over != nil {
			l.over()
		}
		return n, errOverLimit
	}
	return n, err
}

func orMax(max int) int {
	if max <= 0 {
		return maxMessage
	}
	return max
}

// jsonTee collects a JSON response body as the SDK reads it and emits it
// at its end.
type jsonTee struct {
	io.ReadCloser
	emit func([]byte)
	buf  []byte
	over bool
	done bool
}

func (j *jsonTee) Read(b []byte) (int, error) {
	n, err := j.ReadCloser.Read(b)
	if !j.over && len(j.buf)+n <= maxMessage {
		j.buf = append(j.buf, b[:n]...)
	} else {
		j.over, j.buf = true, nil
	}
	if err == io.EOF && !j.done && !j.over {
		j.done = true
		j.emit(j.buf)
	}
	return n, err
}

// sseTee reads the server-sent events of a response body as the SDK reads
// them, and emits each event's data. An event over max bytes (0:
// maxMessage), field names and line ends included, fails the body.
type sseTee struct {
	io.ReadCloser
	emit func([]byte)
	max  int
	over func()
	err  error // errOverLimit once an event was too big

	data    []byte // the current event's data
	hasData bool
	size    int // the current event's bytes so far

	field     []byte // the current line's field name, up to len("data")+1
	lineLen   int
	inValue   bool // the line's first colon was seen
	isData    bool // the line is a data field: its value goes to data
	skipSpace bool // the value's first space is not part of it
	skipLF    bool // the last line ended with CR; a following LF belongs to it
}

func (s *sseTee) Read(b []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.ReadCloser.Read(b)
	if ferr := s.feed(b[:n]); ferr != nil {
		return n, ferr
	}
	return n, err
}

func (s *sseTee) feed(b []byte) error {
	for _, c := range b {
		if s.err != nil {
			return s.err
		}
		s.size++
		if s.size > orMax(s.max) {
			s.err = errOverLimit
			if s.over != nil {
				s.over()
			}
			s.data = nil
			return s.err
		}
		if s.skipLF {
			s.skipLF = false
			if c == '\n' {
				continue
			}
		}
		switch c {
		case '\r':
			s.skipLF = true
			s.endLine()
		case '\n':
			s.endLine()
		default:
			s.lineLen++
			s.add(c)
		}
	}
	return nil
}

// add takes one byte of a line: the field name up to the first colon, then
// the value, kept only for a data field.
func (s *sseTee) add(c byte) {
	switch {
	case !s.inValue && c == ':':
		s.inValue = true
		if string(s.field) == "data" {
			s.isData, s.skipSpace = true, true
			s.startData()
		}
	case !s.inValue:
		if len(s.field) <= len("data") {
			s.field = append(s.field, c)
		}
	case s.isData:
		if s.skipSpace {
			s.skipSpace = false
			if c == ' ' {
				return
			}
		}
		s.data = append(s.data, c)
	}
}

// startData begins a data field's value: several are joined by newlines.
func (s *sseTee) startData() {
	if s.hasData {
		s.data = append(s.data, '\n')
	}
	s.hasData = true
}

// endLine ends one SSE line: a blank line dispatches the event, and a line
// that is only `data` adds an empty value.
func (s *sseTee) endLine() {
	if s.lineLen == 0 {
		if s.hasData {
			s.emit(s.data)
		}
		s.data, s.hasData, s.size = s.data[:0], false, 0
		return
	}
	if !s.inValue && string(s.field) == "data" {
		s.startData()
	}
	s.field, s.lineLen = s.field[:0], 0
	s.inValue, s.isData, s.skipSpace = false, false, false
}
