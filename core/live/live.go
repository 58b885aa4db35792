// Package live reads tool catalogs from running MCP servers: a command
// started over stdio, a Streamable HTTP (or older HTTP+SSE) endpoint, or
// every server of an mcp-config file (Claude Desktop, Cursor, VS Code,
// Claude Code) merged as a host would see them.
//
// A live catalog is built from the raw bytes of the server's tools/list
// pages, so it is the same catalog the same list gives when read from a
// file: key order, number text and duplicate keys included.
package live

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// Defaults for Options.
const (
	// DefaultInitTimeout bounds starting a server and the MCP handshake;
	// generous because `npx -y` may download the server first.
	DefaultInitTimeout = 30 * time.Second
	// DefaultPageTimeout bounds one tools/list page.
	DefaultPageTimeout = 10 * time.Second
)

// EnvBearer names the environment variable whose value, when set, is sent
// as `Authorization: Bearer <value>` to a lone http(s):// source that has no
// Authorization header of its own. (Never to the servers of a config file:
// one token must not reach every server.)
const EnvBearer = "TOOLSCOPE_MCP_BEARER"

// Separator joins a config server's name and a tool's name in a merged
// catalog: `github__create_issue`. Provider name rules allow letters,
// digits, `_` and `-` only, so a dot would make every merged tool a
// finding; the double underscore is what Claude Code uses.
const Separator = "__"

// Options tune how servers are reached. The zero value is ready to use.
type Options struct {
	// InitTimeout bounds start and initialize (0: DefaultInitTimeout).
	InitTimeout time.Duration
	// PageTimeout bounds each tools/list page (0: DefaultPageTimeout).
	PageTimeout time.Duration
	// Getenv looks variables up for ${VAR} in config files and for
	// EnvBearer (nil: the process environment).
	Getenv Getenv
	// Transport carries HTTP requests (nil: http.DefaultTransport).
	Transport http.RoundTripper
	// BareClient declares no client capability. By default the client
	// declares roots, sampling and elicitation as hosts do (servers may
	// offer tools only to such clients) and answers their requests with
	// no roots, a refusal and a decline.
	BareClient bool
	// KeepGoing lists a config file's servers that can be listed when
	// others cannot: a server that fails to start, to shake hands or to
	// list is left out of the catalog and named by Failed, instead of
	// failing the List. (A lone server's failure still fails it.)
	KeepGoing bool

	// protocolVersion pins the version offered (tests reach the older
	// handshake with it); "" offers the SDK's latest.
	protocolVersion string
	// grace is how long a stdio server gets to leave after its stdin
	// closes, and again after SIGTERM (0: closeGrace).
	grace time.Duration
}

func (o Options) initTimeout() time.Duration { return orDefault(o.InitTimeout, DefaultInitTimeout) }
func (o Options) pageTimeout() time.Duration { return orDefault(o.PageTimeout, DefaultPageTimeout) }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

func (o Options) getenv() Getenv {
	if o.Getenv != nil {
		return o.Getenv
	}
	return os.LookupEnv
}

// Change is news from a live source. Err is nil when a server said its
// tools changed (list again to see them); otherwise the server's
// connection was lost, and Err says how (the next List starts it again).
type Change struct {
	Server string
	Err    error
}

// Source is one live server, or the servers of a config file, kept
// connected so the catalog can be listed again.
type Source struct {
	name  string
	specs []Spec
	opts  Options

	ctx    context.Context // cancelled by Close, to cut a List short
	cancel context.CancelFunc

	mu sync.Mutex // serialises List and Close, which may take seconds

	connsMu sync.Mutex // guards conns, so Stderr never waits for a List
	conns   []*conn    // one per spec; nil or lost ones are dialled again by List

	notifyMu sync.Mutex
	changes  chan Change
	closed   bool

	// pending holds, with KeepGoing, the errors of the servers that
	// failed to start when the source was opened, for the first List to
	// report instead of starting them again; failed is the last List's.
	pending []error
	failed  []Failure
}

// Failure is a config server left out of a catalog (Options.KeepGoing).
type Failure struct {
	// Server is the server's name in the config file.
	Server string
	Err    error
}

// Open starts or reaches one server and runs the MCP handshake.
func Open(ctx context.Context, spec Spec, opts Options) (*Source, error) {
	return open(ctx, spec.String(), []Spec{spec}, opts)
}

// OpenConfig reaches the named servers of a config file (every enabled one
// when names is empty), all at once; its catalog merges theirs with tool
// names qualified by server.
func OpenConfig(ctx context.Context, cfg *Config, names []string, opts Options) (*Source, error) {
	specs, err := cfg.Select(names)
	if err != nil {
		return nil, err
	}
	return open(ctx, cfg.Path, specs, opts)
}

func open(ctx context.Context, name string, specs []Spec, opts Options) (*Source, error) {
	sctx, cancel := context.WithCancel(context.Background())
	s := &Source{name: name, specs: specs, opts: opts, ctx: sctx, cancel: cancel,
		conns: make([]*conn, len(specs)), changes: make(chan Change, 16)}
	errs := s.connectAll(ctx)
	if s.keepGoing() {
		s.pending = errs
		return s, nil
	}
	if err := firstError(errs); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// keepGoing reports whether a server's failure leaves it out of the
// catalog rather than failing the List: KeepGoing on a config's servers.
func (s *Source) keepGoing() bool {
	return s.opts.KeepGoing && len(s.specs) > 0 && s.specs[0].Name != ""
}

// Failed names the servers the last List left out (Options.KeepGoing),
// in the config's order, each with why.
func (s *Source) Failed() []Failure {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.failed)
}

// String names the source: the command line, the URL without credentials,
// or the config file.
func (s *Source) String() string { return s.name }

// connectAll dials every server not connected, concurrently, and
// returns each one's error.
func (s *Source) connectAll(ctx context.Context) []error {
	ctx, stop := s.bound(ctx)
	defer stop()
	return s.all(func(i int) error {
		if c := s.conn(i); c != nil {
			if c.alive() {
				return nil
			}
			c.close()
			s.setConn(i, nil)
		}
		spec := s.specs[i]
		c, err := dial(ctx, spec, s.opts,
			func() { s.notify(Change{Server: spec.String()}) },
			func(err error) { s.notify(Change{Server: spec.String(), Err: err}) })
		if err != nil {
			return err
		}
		s.setConn(i, c)
		return nil
	})
}

func (s *Source) conn(i int) *conn {
	s.connsMu.Lock()
	defer s.connsMu.Unlock()
	return s.conns[i]
}

func (s *Source) setConn(i int, c *conn) {
	s.connsMu.Lock()
	defer s.connsMu.Unlock()
	s.conns[i] = c
}

// connected is a snapshot of the connections.
func (s *Source) connected() []*conn {
	s.connsMu.Lock()
	defer s.connsMu.Unlock()
	return slices.Clone(s.conns)
}

// bound ties ctx to the source's life, so Close interrupts work in flight.
func (s *Source) bound(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

// each runs f for every server at once and returns the first error in
// server order, noting how many others failed too.
func (s *Source) each(f func(i int) error) error {
	return firstError(s.all(f))
}

// all runs f for every server at once and returns each one's error.
func (s *Source) all(f func(i int) error) []error {
	errs := make([]error, len(s.specs))
	var wg sync.WaitGroup
	for i := range s.specs {
		wg.Go(func() { errs[i] = f(i) })
	}
	wg.Wait()
	return errs
}

// firstError is the first error in server order, noting how many others
// failed too.
func firstError(errs []error) error {
	var first error
	others := 0
	for _, err := range errs {
		switch {
		case err == nil:
		case first == nil:
			first = err
		default:
			others++
		}
	}
	if others > 0 {
		return fmt.Errorf("%w (and %d more servers failed)", first, others)
	}
	return first
}

// List reads every page of every server's tools/list and returns the
// catalog. A server whose connection was lost is started again first. For a
// config file the tools of all servers are merged in server order, each
// named `server__tool` and marked with its server.
func (s *Source) List(ctx context.Context) (*catalog.Catalog, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return nil, errors.New(s.name + ": the source is closed")
	}
	dialed := s.pending
	s.pending = nil
	if dialed == nil {
		dialed = s.connectAll(ctx)
	}
	keepGoing := s.keepGoing()
	if !keepGoing {
		if err := firstError(dialed); err != nil {
			return nil, err
		}
	}
	ctx, stop := s.bound(ctx)
	defer stop()
	cats := make([]*catalog.Catalog, len(s.specs))
	errs := s.all(func(i int) error {
		if i < len(dialed) && dialed[i] != nil {
			return dialed[i]
		}
		doc, err := s.conn(i).list(ctx, s.opts.pageTimeout())
		if err != nil {
			return err
		}
		cat, err := catalog.Parse(s.specs[i].String(), doc)
		// Positions would point into a document nobody can open: a live
		// tool has none, and renderers leave the line out.
		var ce *catalog.Error
		if errors.As(err, &ce) {
			ce.Pos = nil
		}
		if err != nil {
			return err
		}
		for _, t := range cat.Tools {
			t.Pos = jsonv.Pos{}
		}
		cats[i] = cat
		return nil
	})
	s.failed = nil
	if keepGoing {
		// Cut short by Close, a signal or the caller: no server is to
		// blame, and the servers' errors say how it was cut.
		if err := ctx.Err(); err != nil {
			return nil, cmp.Or(firstError(errs), err)
		}
		for i, err := range errs {
			if err != nil {
				s.failed = append(s.failed, Failure{Server: s.specs[i].Name, Err: err})
			}
		}
		return s.merge(cats), nil
	}
	if err := firstError(errs); err != nil {
		return nil, err
	}
	if len(s.specs) == 1 && s.specs[0].Name == "" {
		return cats[0], nil
	}
	return s.merge(cats), nil
}

// merge joins the servers' catalogs, qualifying names by server.
func (s *Source) merge(cats []*catalog.Catalog) *catalog.Catalog {
	out := &catalog.Catalog{Source: s.name}
	for i, c := range cats {
		if c == nil {
			continue
		}
		prefix := serverPrefix(s.specs[i].Name)
		for _, t := range c.Tools {
			q := *t
			q.Index = len(out.Tools)
			q.Name = prefix + Separator + t.Name
			q.Entry = prefix + "." + t.Entry
			q.Server = s.specs[i].Name
			q.ServedName = t.Name
			out.Tools = append(out.Tools, &q)
		}
	}
	return out
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// serverPrefix makes a config server's name fit provider name rules, as
// hosts do: every run of other characters becomes one `_`.
func serverPrefix(name string) string {
	return unsafeName.ReplaceAllString(name, "_")
}

// QualifiedName is the name a server's tool goes by in a merged catalog.
func QualifiedName(server, tool string) string {
	return serverPrefix(server) + Separator + tool
}

// Changes delivers list_changed notifications and lost connections. It is
// closed by Close. Notifications arriving faster than they are read are
// coalesced, never blocking the connection.
func (s *Source) Changes() <-chan Change { return s.changes }

func (s *Source) notify(c Change) {
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	if s.closed {
		return
	}
	select {
	case s.changes <- c:
	default:
	}
}

// Stderr returns the tail of what the stdio servers wrote to stderr, each
// line marked with its server when there are several.
func (s *Source) Stderr() string {
	var b strings.Builder
	for i, c := range s.connected() {
		if c == nil {
			continue
		}
		text := c.stderr()
		if len(s.specs) == 1 {
			return text
		}
		for _, line := range strings.SplitAfter(text, "\n") {
			if line != "" {
				fmt.Fprintf(&b, "[%s] %s", s.specs[i].Name, line)
			}
		}
		if text != "" && !strings.HasSuffix(text, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Notes are warnings about the servers that did not stop the listing, one
// line each naming its server: lines a stdio server wrote on stdout that
// were not JSON-RPC messages and were skipped. The text is the servers';
// pass it through termsafe before showing it.
func (s *Source) Notes() []string {
	var out []string
	for i, c := range s.connected() {
		if c == nil {
			continue
		}
		if n := c.note(); n != "" {
			out = append(out, s.specs[i].String()+": "+n)
		}
	}
	return out
}

// Close ends every session and child process (each one reaped before
// Close returns) and closes Changes. It is safe to call more than once.
func (s *Source) Close() error {
	s.cancel()
	s.mu.Lock()
	defer s.mu.Unlock()
	// The closed connections stay, so Stderr still tells what the servers
	// said; List refuses to run once the source is closed.
	var wg sync.WaitGroup
	for _, c := range s.connected() {
		if c != nil {
			wg.Go(c.close)
		}
	}
	wg.Wait()
	s.notifyMu.Lock()
	if !s.closed {
		s.closed = true
		close(s.changes)
	}
	s.notifyMu.Unlock()
	return nil
}

// ParseHeader reads a `Name: value` header line, expanding `$VAR` and
// `${VAR}` in the value from getenv (nil: the process environment), so a
// token can stay out of the command line: --header 'Authorization: Bearer
// $TOKEN'. Errors name the header and the variable, never a value.
func ParseHeader(line string, getenv Getenv) (name, value string, err error) {
	name, value, ok := strings.Cut(line, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return "", "", errors.New("a header is written 'Name: value'")
	}
	if getenv == nil {
		getenv = os.LookupEnv
	}
	value, err = expander{getenv: getenv}.expand(strings.TrimSpace(value))
	if err != nil {
		return "", "", fmt.Errorf("header %s: %w", name, err)
	}
	return name, value, nil
}
