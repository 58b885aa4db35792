//lint:file-ignore SA1019 the test server asks its client what hosts are asked, roots and sampling included

// Package livetest is an MCP server for tests of live catalogs, built with
// the same SDK toolscope's client uses. It serves a small ops catalog whose
// tools carry declarations in `_meta`, titles, annotations and output
// schemas, with input schemas in a deliberate (non-alphabetical) key order,
// and it misbehaves on request: pages forced small, a slow tools/list, a
// crash in the middle of the list, tools that change after the first list.
//
// Over HTTP, Handler serves it in-process (with httptest). Over stdio, a
// test binary re-executes itself: its TestMain calls MainIfAsked, and the
// test starts os.Args[0] with the behaviour in the EnvBehaviour variable.
package livetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EnvBehaviour carries a JSON Behaviour to a re-executed test binary.
const EnvBehaviour = "TOOLSCOPE_LIVETEST"

// CrashStatus is the exit status of a stdio server told to crash.
const CrashStatus = 3

// Behaviour selects how the server misbehaves. The zero value is a
// well-behaved server that lists every tool on one page.
type Behaviour struct {
	// PageSize is the number of tools per tools/list page (0: all).
	PageSize int `json:"pageSize,omitempty"`
	// SlowList delays every tools/list answer.
	SlowList time.Duration `json:"slowList,omitempty"`
	// CrashMidList ends the server when it is asked for page 2: a stdio
	// server writes to stderr and exits with CrashStatus, an HTTP one drops
	// the connection.
	CrashMidList bool `json:"crashMidList,omitempty"`
	// ChangeAfterList adds the tool Added once a full list was served,
	// which sends notifications/tools/list_changed.
	ChangeAfterList bool `json:"changeAfterList,omitempty"`
	// Legacy offers only protocol versions before 2026-07-28 (stateful
	// sessions, the standalone SSE stream over HTTP).
	Legacy bool `json:"legacy,omitempty"`
	// Stderr is written to stderr at start (stdio).
	Stderr string `json:"stderr,omitempty"`
	// Stdout is written to stdout at start, before any message, as by a
	// server that prints a banner where JSON-RPC goes (stdio).
	Stdout string `json:"stdout,omitempty"`
	// ExitAtStart, when non-zero, makes a stdio server write Stderr and
	// exit with this status before answering anything.
	ExitAtStart int `json:"exitAtStart,omitempty"`
	// Linger keeps a stdio server alive after its stdin closes, ignoring
	// SIGTERM, so only SIGKILL ends it.
	Linger bool `json:"linger,omitempty"`
	// Grandchild starts a long sleep in the server's process group and
	// writes "grandchild <pid>" to stderr (stdio).
	Grandchild bool `json:"grandchild,omitempty"`
	// JSONResponse answers Streamable HTTP requests with application/json
	// bodies instead of event streams.
	JSONResponse bool `json:"jsonResponse,omitempty"`
	// FloodChanges, after the first full list, makes a stdio server write
	// that many notifications/tools/list_changed at once, then add the
	// tool Added (whose own notification comes last).
	FloodChanges int `json:"floodChanges,omitempty"`
	// PidFile, when set, is where a stdio server writes its process id
	// once it is asked for tools/list, so a test knows the listing began.
	PidFile string `json:"pidFile,omitempty"`
	// AskClient makes every tools/list first ask the client for its
	// roots, a sampling and an elicitation, and list one more tool,
	// AnswersTool, whose description tells the capabilities the client
	// declared and how each request was answered.
	AskClient bool `json:"askClient,omitempty"`
	// Extra adds that many generated tools (extra_0000, ...), for
	// benchmarks of big catalogs.
	Extra int `json:"extra,omitempty"`
}

// AnswersTool is the tool AskClient adds.
const AnswersTool = "client_answers"

// Added is the name of the tool ChangeAfterList adds.
const Added = "archive_volume"

// tool is one served tool: everything but the schemas as Go values, the
// schemas as raw JSON so their key order and number text go on the wire as
// written.
type tool struct {
	name, title, description string
	input, output            string
	meta                     map[string]string
	annotations              *mcp.ToolAnnotations
}

func yes() *bool { b := true; return &b }

var catalog = []tool{
	{
		name:        "get_volume_status",
		description: "Current status of one volume: state, size and attached host.",
		input:       `{"type":"object","properties":{"volume_id":{"type":"string","pattern":"^vol-[0-9a-f]{8}$","description":"The volume id, like vol-0a1b2c3d."},"window":{"type":"string","description":"How far back to look, like 24h."},"pool":{"type":"string","enum":["gold","silver"]}},"required":["volume_id"]}`,
		meta: map[string]string{
			"askOrAssume": `{"pool":{"assume":"gold"},"window":{"ask":"Which window?","choices":["24h","7d"]}}`,
			"period":      `{"argument":"window","spelling":"lookback"}`,
		},
		annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	},
	{
		name:        "hist_volume_status",
		description: "Status history of one volume, for incidents after the fact.",
		input:       `{"type":"object","properties":{"volume_id":{"type":"string"},"from":{"type":"string"},"to":{"type":"string"}},"required":["volume_id","from"]}`,
	},
	{
		name:        "list_volumes",
		title:       "List volumes",
		description: "Every volume in a pool, when you need to find one by name.",
		input:       `{"type":"object","properties":{"pool":{"type":"string"},"limit":{"type":"integer","maximum":1.50e3}}}`,
		output:      `{"type":"object","properties":{"volumes":{"type":"array","items":{"type":"string"}}}}`,
		annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, Title: "Volumes"},
	},
	{
		name:        "resize_volume",
		description: "Grow a volume; only after checking its status first.",
		input:       `{"type":"object","properties":{"volume_id":{"type":"string"},"size_gb":{"type":"number","minimum":1.0}},"required":["volume_id","size_gb"]}`,
		annotations: &mcp.ToolAnnotations{DestructiveHint: yes()},
	},
	{
		name:        "snapshot_volume",
		description: "Snapshot a volume before a risky change.",
		input:       `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"},"mid":{"type":"boolean"}}}`,
		meta:        map[string]string{"wants": `["zeta"]`},
	},
	{
		name:  "tag_volume",
		input: `{"type":"object","properties":{"tag":{"type":"string"},"tag":{"type":"number"}}}`,
	},
	{
		name:        "unmount_volume",
		description: "Detach a volume from its host when it must move.",
		input:       `{"type":"object","properties":{"volume_id":{"type":"string"},"force":{"type":"boolean"}},"required":["volume_id"]}`,
	},
}

var added = tool{
	name:        Added,
	description: "Move a volume to cold storage when it is no longer used.",
	input:       `{"type":"object","properties":{"volume_id":{"type":"string"}},"required":["volume_id"]}`,
}

// generated is the i-th extra tool: a realistic size, a few parameters.
func generated(i int) tool {
	return tool{
		name:        fmt.Sprintf("extra_%04d", i),
		description: fmt.Sprintf("Generated tool number %d, for big catalogs; use only in benchmarks.", i),
		input:       `{"type":"object","properties":{"id":{"type":"string","description":"The record id."},"limit":{"type":"integer","minimum":1,"maximum":100},"mode":{"type":"string","enum":["fast","full"]}},"required":["id"]}`,
		meta:        map[string]string{"askOrAssume": `{"mode":{"assume":"fast"}}`},
	}
}

func (t tool) mcp() *mcp.Tool {
	m := &mcp.Tool{Name: t.name, Title: t.title, Description: t.description, InputSchema: json.RawMessage(t.input), Annotations: t.annotations}
	if t.output != "" {
		m.OutputSchema = json.RawMessage(t.output)
	}
	if t.meta != nil {
		m.Meta = mcp.Meta{}
		for k, v := range t.meta {
			m.Meta[k] = json.RawMessage(v)
		}
	}
	return m
}

// Tools returns the tools a fresh server lists, in the order it lists them
// (by name, as the SDK does).
func Tools() []*mcp.Tool {
	out := make([]*mcp.Tool, len(catalog))
	for i, t := range catalog {
		out[i] = t.mcp()
	}
	return out
}

// ListJSON is a fresh server's list as a tools/list result file, for
// checking that a live catalog equals the same list read from a file.
func ListJSON() []byte {
	data, err := json.Marshal(struct {
		Tools []*mcp.Tool `json:"tools"`
	}{Tools()})
	if err != nil {
		panic(fmt.Sprintf("livetest: the built-in catalog does not marshal: %v", err))
	}
	return data
}

func noop(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{}, nil
}

// NewServer builds the SDK server with the catalog and the behaviour's
// list middleware (slowness, change after a full list). Crashes are the
// transport's business: see RunStdio and Handler.
func NewServer(b Behaviour) *mcp.Server { return newServer(b, nil) }

// newServer is NewServer with, for FloodChanges, the stdout it writes the
// flood to.
func newServer(b Behaviour, out *lockedWriter) *mcp.Server {
	opts := &mcp.ServerOptions{PageSize: b.PageSize}
	if opts.PageSize <= 0 {
		opts.PageSize = 1000
	}
	if b.Legacy {
		opts.SupportedProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26"}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "livetest", Version: "1.0.0"}, opts)
	for _, t := range catalog {
		s.AddTool(t.mcp(), noop)
	}
	for i := range b.Extra {
		s.AddTool(generated(i).mcp(), noop)
	}
	var changed atomic.Bool
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/list" {
				return next(ctx, method, req)
			}
			if b.PidFile != "" {
				if err := os.WriteFile(b.PidFile, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
					return nil, err
				}
			}
			if b.SlowList > 0 {
				select {
				case <-time.After(b.SlowList):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && b.AskClient {
				if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
					lr.Tools = append(lr.Tools, &mcp.Tool{Name: AnswersTool, Description: askClient(ctx, ss), InputSchema: json.RawMessage(`{"type":"object"}`)})
				}
			}
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && lr.NextCursor == "" && b.FloodChanges > 0 && out != nil && changed.CompareAndSwap(false, true) {
				go func() {
					note := []byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n")
					for range b.FloodChanges {
						if _, err := out.Write(note); err != nil {
							return
						}
					}
					s.AddTool(added.mcp(), noop)
				}()
			}
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil && lr.NextCursor == "" && b.ChangeAfterList && changed.CompareAndSwap(false, true) {
				// After the answer is on its way, as a server whose tools
				// change under a connected client would.
				time.AfterFunc(50*time.Millisecond, func() { s.AddTool(added.mcp(), noop) })
			}
			return res, err
		}
	})
	return s
}

// askClient asks the client of a session for its roots, a sampling and an
// elicitation, each within 5 s, and says what the client declared and how
// it answered: "capabilities: roots sampling elicitation; roots: 0;
// sampling: error ...; elicitation: decline".
func askClient(ctx context.Context, ss *mcp.ServerSession) string {
	var caps []string
	if p := ss.InitializeParams(); p != nil && p.Capabilities != nil {
		c := p.Capabilities
		if c.RootsV2 != nil {
			caps = append(caps, "roots")
		}
		if c.Sampling != nil {
			caps = append(caps, "sampling")
		}
		if c.Elicitation != nil {
			caps = append(caps, "elicitation")
		}
	}
	if len(caps) == 0 {
		caps = []string{"none"}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out := "capabilities: " + strings.Join(caps, " ")
	if r, err := ss.ListRoots(ctx, nil); err != nil {
		out += "; roots: error " + err.Error()
	} else {
		out += fmt.Sprintf("; roots: %d", len(r.Roots))
	}
	if _, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10}); err != nil {
		out += "; sampling: error " + err.Error()
	} else {
		out += "; sampling: answered"
	}
	if r, err := ss.Elicit(ctx, &mcp.ElicitParams{Message: "Your name?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}); err != nil {
		out += "; elicitation: error " + err.Error()
	} else {
		out += "; elicitation: " + r.Action
	}
	return out
}

// RunStdio serves over stdin and stdout until stdin closes.
func RunStdio(b Behaviour) error {
	if b.Stderr != "" {
		fmt.Fprintln(os.Stderr, b.Stderr)
	}
	if b.Stdout != "" {
		fmt.Fprint(os.Stdout, b.Stdout)
	}
	if b.ExitAtStart != 0 {
		os.Exit(b.ExitAtStart)
	}
	if b.Linger {
		signal.Ignore(syscall.SIGTERM)
	}
	if b.Grandchild {
		cmd := exec.Command("sleep", "600")
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("starting the grandchild: %w", err)
		}
		fmt.Fprintf(os.Stderr, "grandchild %d\n", cmd.Process.Pid)
	}
	out := &lockedWriter{w: os.Stdout}
	s := newServer(b, out)
	var in io.ReadCloser = os.Stdin
	if b.CrashMidList {
		in = &crashReader{r: os.Stdin}
	}
	err := s.Run(context.Background(), &mcp.IOTransport{Reader: in, Writer: nopCloser{out}})
	if b.Linger {
		time.Sleep(time.Hour)
	}
	return err
}

// crashReader watches the requests a stdio server reads and ends the
// process when page 2 of tools/list is asked for.
type crashReader struct {
	r    io.ReadCloser
	line []byte
}

func (c *crashReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.line = append(c.line, p[:n]...)
	for {
		i := bytes.IndexByte(c.line, '\n')
		if i < 0 {
			break
		}
		if asksPage2(c.line[:i]) {
			fmt.Fprintln(os.Stderr, "livetest: crashing on tools/list page 2")
			os.Exit(CrashStatus)
		}
		c.line = c.line[i+1:]
	}
	return n, err
}

func (c *crashReader) Close() error { return c.r.Close() }

// asksPage2 reports whether a JSON-RPC message is a tools/list request
// with a cursor.
func asksPage2(msg []byte) bool {
	var req struct {
		Method string `json:"method"`
		Params struct {
			Cursor string `json:"cursor"`
		} `json:"params"`
	}
	return json.Unmarshal(msg, &req) == nil && req.Method == "tools/list" && req.Params.Cursor != ""
}

// lockedWriter keeps whole writes whole: the SDK writes one message a
// Write, and a flood of notifications goes between them, never into one.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Handler serves the server over Streamable HTTP. With CrashMidList, the
// request for page 2 gets its connection dropped, as by a server that died.
func Handler(b Behaviour) http.Handler {
	s := NewServer(b)
	return crashing(b, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{JSONResponse: b.JSONResponse}))
}

// SSEHandler serves the server over the older HTTP+SSE transport.
func SSEHandler(b Behaviour) http.Handler {
	s := NewServer(b)
	return crashing(b, mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil))
}

// crashing drops the connection of the request for page 2 when the
// behaviour asks for a crash.
func crashing(b Behaviour, h http.Handler) http.Handler {
	if !b.CrashMidList {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if asksPage2(body) {
				if hj, ok := w.(http.Hijacker); ok {
					if c, _, err := hj.Hijack(); err == nil {
						c.Close()
						return
					}
				}
				http.Error(w, "crashed", http.StatusInternalServerError)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// MainIfAsked serves over stdio and exits when EnvBehaviour is set; a test
// binary calls it first thing in TestMain.
func MainIfAsked() {
	spec, ok := os.LookupEnv(EnvBehaviour)
	if !ok {
		return
	}
	var b Behaviour
	if err := json.Unmarshal([]byte(spec), &b); err != nil {
		fmt.Fprintf(os.Stderr, "livetest: %s: %v\n", EnvBehaviour, err)
		os.Exit(2)
	}
	if err := RunStdio(b); err != nil {
		fmt.Fprintf(os.Stderr, "livetest: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}
