package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"toolscope/core/live/livetest"
)

// withEnv adds a variable to a stdio spec's environment.
func withEnv(spec Spec, name, value string) Spec {
	env := map[string]string{name: value}
	for k, v := range spec.Env {
		env[k] = v
	}
	spec.Env = env
	return spec
}

func TestStderrTailHidesEnvironmentValues(t *testing.T) {
	const secret = "tok-5e3r-9f1a"
	t.Run("in a failure", func(t *testing.T) {
		spec := withEnv(stdioSpec(t, livetest.Behaviour{ExitAtStart: 2, Stderr: "bad token " + secret}), "API_TOKEN", secret)
		_, err := Open(context.Background(), spec, testOptions(transport{}))
		var le *Error
		if !errors.As(err, &le) {
			t.Fatalf("Open: %v, want a *live.Error", err)
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(le.Stderr, secret) {
			t.Errorf("the error shows the environment value: %q (stderr %q)", err, le.Stderr)
		}
		if want := "server stderr: bad token [redacted]"; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q, want it to contain %q", err, want)
		}
	})
	t.Run("in Stderr", func(t *testing.T) {
		spec := withEnv(stdioSpec(t, livetest.Behaviour{Stderr: "starting with " + secret}), "API_TOKEN", secret)
		s := openT(t, spec, testOptions(transport{}))
		if _, err := s.List(context.Background()); err != nil {
			t.Fatal(err)
		}
		s.Close() // the whole of stderr is read
		got := s.Stderr()
		if strings.Contains(got, secret) || !strings.Contains(got, "starting with [redacted]") {
			t.Errorf("Stderr() = %q, want the value redacted", got)
		}
	})
}

// endlessList answers tools/list with a body that never ends: a JSON
// document or one server-sent event whose tools array goes on for ever.
// Everything else goes to the test server.
func endlessList(t *testing.T, sse bool) Spec {
	t.Helper()
	inner := livetest.Handler(livetest.Behaviour{JSONResponse: !sse})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method != http.MethodPost || json.Unmarshal(body, &req) != nil || req.Method != "tools/list" {
			inner.ServeHTTP(w, r)
			return
		}
		head := `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"tools":[`
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			head = "event: message\ndata: " + head
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		if _, err := io.WriteString(w, head); err != nil {
			return
		}
		tool := []byte(`{"name":"t","description":"` + strings.Repeat("x", 4000) + `","inputSchema":{"type":"object"}},`)
		for {
			if _, err := w.Write(tool); err != nil {
				return // the client hung up
			}
		}
	}))
	t.Cleanup(srv.Close)
	return Spec{URL: srv.URL}
}

func TestEndlessHTTPAnswerStopsAtTheLimit(t *testing.T) {
	for _, sse := range []bool{false, true} {
		name := map[bool]string{false: "json", true: "event stream"}[sse]
		t.Run(name, func(t *testing.T) {
			opts := testOptions(transport{http: true})
			// 64 MiB must arrive before the page's limit, on a busy machine too.
			opts.PageTimeout = 2 * time.Minute
			s := openT(t, endlessList(t, sse), opts)
			peak := heapPeak()
			_, err := s.List(context.Background())
			grew := peak()
			want := "tools/list page 1: the server's answer is over the 64 MiB limit (reading stopped there)"
			if err == nil || !strings.HasSuffix(err.Error(), want) {
				t.Fatalf("List: %v, want an error ending %q", err, want)
			}
			// Whatever the body, the client reads no further than the
			// limit: the heap grows by a small multiple of it at most (the
			// SDK's copy, the tap's, and garbage from growing both: 270 to
			// 330 MiB measured).
			if grew > 8*maxMessage {
				t.Errorf("the heap grew by %d MiB, want at most %d MiB", grew>>20, 8*maxMessage>>20)
			}
			t.Logf("the heap grew by %d MiB at most", grew>>20)
		})
	}
}

// TestEndlessStandaloneStreamIsNamed: a server whose standalone event
// stream (the GET a stateful Streamable HTTP session opens for the
// server's own messages) sends one event that never ends is cut at the
// limit, and the listing it fails says that stream was the cause, not the
// tools/list answer.
func TestEndlessStandaloneStreamIsNamed(t *testing.T) {
	inner := livetest.Handler(livetest.Behaviour{Legacy: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			chunk := []byte("data: " + strings.Repeat("x", 64<<10))
			for {
				if _, err := w.Write(chunk); err != nil {
					return // the client hung up
				}
			}
		}
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"tools/list"`)) {
			// The answer waits for the stream to fail the request.
			select {
			case <-r.Context().Done():
			case <-time.After(2 * time.Minute):
			}
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	opts := testOptions(transport{http: true, legacy: true})
	opts.PageTimeout = 2 * time.Minute
	s := openT(t, Spec{URL: srv.URL}, opts)
	_, err := s.List(context.Background())
	want := "tools/list page 1: the server's standalone event stream (its GET) sent an event over the 64 MiB limit (reading stopped there)"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("List: %v, want an error ending %q", err, want)
	}
}

// heapPeak samples the heap until the returned function is called, which
// reports by how much it grew at most. Sampling may miss the very top, so
// the figure is a lower bound.
func heapPeak() func() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, top := ms.HeapAlloc, ms.HeapAlloc
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				runtime.ReadMemStats(&ms)
				top = max(top, ms.HeapAlloc)
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return top - base
	}
}

// filterLines passes s through jsonLines in chunks of n bytes.
func filterLines(s string, n int) (out string, dropped []string, err error) {
	j := &jsonLines{r: &chunks{s: s, n: n}, skip: func(l string) { dropped = append(dropped, l) }}
	data, err := io.ReadAll(j)
	return string(data), dropped, err
}

// chunks reads s n bytes at a time.
type chunks struct {
	s string
	n int
}

func (c *chunks) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[k:]
	return k, nil
}

func TestJSONLinesSkipsWhatIsNoMessage(t *testing.T) {
	long := strings.Repeat("z", 5000)
	const (
		answer = `{"jsonrpc":"2.0","id":1,"result":{}}`
		notice = `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`
	)
	big := `{"jsonrpc":"2.0","id":2,"result":{"x":"` + strings.Repeat("y", holdMax) + `"}}`
	cases := []struct {
		name, in, out string
		dropped       []string
	}{
		{"messages only", answer + "\n[" + notice + "]\n", answer + "\n[" + notice + "]\n", nil},
		{"a banner first", "Server running on stdio\n" + answer + "\n", answer + "\n", []string{"Server running on stdio"}},
		{"indented JSON passes", "  " + answer + "\r\n", "  " + answer + "\r\n", nil},
		{"a log line between messages", answer + "\nINFO ready \r\n" + notice + "\n", answer + "\n" + notice + "\n", []string{"INFO ready"}},
		{"a JSON log line", `  {"level":"info","msg":"listening"}` + "\r\n" + answer + "\n", answer + "\n", []string{`{"level":"info","msg":"listening"}`}},
		{"a line that only starts like JSON", "{not json}\n[1,\n" + answer + "\n", answer + "\n", []string{"{not json}", "[1,"}},
		{"an array of no messages", "[1,2]\n[]\n" + answer + "\n", answer + "\n", []string{"[1,2]", "[]"}},
		{"a long line is quoted in part", long + "\n" + answer + "\n", answer + "\n", []string{long[:noteKeep]}},
		{"a long JSON line is quoted in part", `{"level":"` + long + "\n" + answer + "\n", answer + "\n", []string{(`{"level":"` + long)[:noteKeep]}},
		{"a line too long to hold streams", big + "\n", big + "\n", nil},
		{"a last line without an end", answer + "\nbye", answer + "\n", []string{"bye"}},
		{"a last message without an end", answer + "\n" + notice, answer + "\n" + notice, nil},
		{"blank lines", "\n \n" + answer + "\n", "\n \n" + answer + "\n", nil},
	}
	for _, tc := range cases {
		for _, n := range []int{1, 3, 4096} {
			out, dropped, err := filterLines(tc.in, n)
			if err != nil || out != tc.out || !slices.Equal(dropped, tc.dropped) {
				t.Errorf("%s, %d-byte chunks: %.200q, dropped %.200q, %v; want %.200q, dropped %.200q", tc.name, n, out, dropped, err, tc.out, tc.dropped)
			}
		}
	}
}

func TestJSONLinesCapsALine(t *testing.T) {
	var cut bool
	j := &jsonLines{r: strings.NewReader("{\"a\":\"" + strings.Repeat("x", 100) + "\"}\n"), max: 50, over: func() { cut = true }}
	if _, err := io.ReadAll(j); !errors.Is(err, errOverLimit) || !cut {
		t.Errorf("error %v (cut %v), want the limit's", err, cut)
	}
}

func FuzzJSONLines(f *testing.F) {
	f.Add("banner\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\r\n  [1]\n{\"a\":1}\nx", 2)
	f.Fuzz(func(t *testing.T, in string, n int) {
		if n <= 0 || n > len(in) {
			n = 1
		}
		whole, wd, err1 := filterLines(in, len(in)+1)
		chunked, cd, err2 := filterLines(in, n)
		if err1 != nil || err2 != nil || whole != chunked || !slices.Equal(wd, cd) {
			t.Fatalf("%q: whole %q %q %v, in %d-byte chunks %q %q %v", in, whole, wd, err1, n, chunked, cd, err2)
		}
		// What passes is every line that starts like JSON, whole.
		for _, line := range strings.SplitAfter(whole, "\n") {
			if t := strings.TrimLeft(line, " \t\r"); t != "" && t != "\n" && t[0] != '{' && t[0] != '[' {
				panic("a line that is no message passed: " + line)
			}
		}
	})
}

func TestServerBannerOnStdoutIsSkipped(t *testing.T) {
	// A banner, and a log line in JSON as structured loggers write it.
	banner := "Secure MCP Server running on stdio\n{\"level\":30,\"msg\":\"listening\",\"pid\":42}\n"
	s := openT(t, stdioSpec(t, livetest.Behaviour{Stdout: banner}), testOptions(transport{}))
	cat, err := s.List(context.Background())
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(cat.Tools) != len(livetest.Tools()) {
		t.Errorf("%d tools, want %d", len(cat.Tools), len(livetest.Tools()))
	}
	notes := s.Notes()
	want := `skipped 2 lines on stdout that are not JSON-RPC messages, the first: "Secure MCP Server running on stdio"`
	if len(notes) != 1 || !strings.HasSuffix(notes[0], want) || !strings.HasPrefix(notes[0], "mcp:") {
		t.Errorf("Notes() = %q, want one note ending %q", notes, want)
	}
}

// TestClientCapabilities: the client declares roots, sampling and
// elicitation as hosts do, and answers each request at once (no roots, a
// refusal, a decline); the bare client declares none.
func TestClientCapabilities(t *testing.T) {
	host := []string{"capabilities: roots sampling elicitation; roots: 0; sampling: error ", errNoSampling + "; elicitation: decline"}
	for _, tr := range []transport{{name: "stdio", legacy: true}, {name: "http", http: true, legacy: true}} {
		for _, bare := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s bare=%v", tr.name, bare), func(t *testing.T) {
				opts := testOptions(tr)
				opts.BareClient = bare
				s := openT(t, serve(t, tr, livetest.Behaviour{AskClient: true}), opts)
				cat, err := s.List(context.Background())
				if err != nil {
					t.Fatalf("List: %v", err)
				}
				tool, ok := cat.Lookup(livetest.AnswersTool)
				if !ok {
					t.Fatalf("no %s tool", livetest.AnswersTool)
				}
				got := tool.Description
				if !bare && (!strings.HasPrefix(got, host[0]) || !strings.HasSuffix(got, host[1])) {
					t.Errorf("the server saw %q, want %q…%q", got, host[0], host[1])
				}
				if bare && (!strings.HasPrefix(got, "capabilities: none;") || !strings.HasSuffix(got, "elicitation: error client does not support elicitation")) {
					t.Errorf("the server saw %q, want no capability", got)
				}
			})
		}
	}
}

// TestScrubLeavesNoPieceOfAValue: a value is redacted whole even when a
// longer value holds it, when quoting would escape it, and when a cut (of
// a skipped line, of the stderr tail) splits it; values shorter than
// four characters are left alone.
func TestScrubLeavesNoPieceOfAValue(t *testing.T) {
	env := map[string]string{"SHORT": "SUPERSECRET", "LONG": "SUPERSECRETTAIL9876", "QUOTED": `pa"ss\word`, "PORT": "443"}
	cases := []struct {
		name        string
		in          string
		front, back bool
		want        string
	}{
		{"a value that holds another", "long=SUPERSECRETTAIL9876 short=SUPERSECRET", false, false, "long=[redacted] short=[redacted]"},
		{"a short value", "port 443", false, false, "port 443"},
		{"the front cut inside a value", "TAIL9876 then", true, false, "[redacted] then"},
		{"the back cut inside a value", "token=SUPERSEC", false, true, "token=[redacted]"},
		{"no cut: a value's start is only text", "token=SUPERSEC", false, false, "token=SUPERSEC"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Map order varies from run to run: resolve many times.
			for range 20 {
				conn := &conn{}
				if _, err := conn.resolve(Spec{Command: "srv", Env: env}, Options{}); err != nil {
					t.Fatal(err)
				}
				if got := conn.scrubCut(c.in, c.front, c.back); got != c.want {
					t.Fatalf("scrubCut(%q, %v, %v) = %q, want %q", c.in, c.front, c.back, got, c.want)
				}
			}
		})
	}
	// A skipped line is scrubbed before it is quoted, and where the note
	// cuts it.
	for _, c := range []struct{ name, stdout string }{
		{"a value quoting would escape", `config: pa"ss\word` + "\n"},
		{"a value the note cuts", strings.Repeat("x", noteKeep-6) + "SUPERSECRETTAIL9876\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := stdioSpec(t, livetest.Behaviour{Stdout: c.stdout})
			for k, v := range env {
				spec = withEnv(spec, k, v)
			}
			s := openT(t, spec, testOptions(transport{}))
			if _, err := s.List(context.Background()); err != nil {
				t.Fatal(err)
			}
			notes := strings.Join(s.Notes(), "\n")
			for _, piece := range []string{`pa\"ss`, `pa"ss`, "SUPERS", "TAIL"} {
				if strings.Contains(notes, piece) {
					t.Errorf("the note shows %q of a value: %s", piece, notes)
				}
			}
			if !strings.Contains(notes, "[redacted]") {
				t.Errorf("the note redacts nothing: %s", notes)
			}
		})
	}
}

// TestUnreadableLineIsNotBlamedOnAnExit: a line on stdout too long to be
// judged and skipped, which the SDK then cannot read, ends the connection;
// the server exits because toolscope closed it, and the error says what
// went wrong instead of blaming the exit.
func TestUnreadableLineIsNotBlamedOnAnExit(t *testing.T) {
	junk := `{"level":"info","msg":"` + strings.Repeat("x", holdMax) + "\"}\n"
	_, err := Open(context.Background(), stdioSpec(t, livetest.Behaviour{Stdout: junk}), testOptions(transport{}))
	want := "initialize: toolscope closed the connection: invalid message version tag"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "the server exited") {
		t.Errorf("Open: %v, want an error with %q", err, want)
	}
}

// TestHeadersStayOnTheServersOrigin: the configured headers and the bearer
// go to the server's own origin only; a redirect elsewhere is followed
// without them.
func TestHeadersStayOnTheServersOrigin(t *testing.T) {
	const token, key = "s3cret-bearer-value", "key-0123456789"
	t.Setenv(EnvBearer, token)
	seen := map[string][]string{}
	var mu sync.Mutex
	record := func(who string, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen[who] = append(seen[who], r.Header.Get("Authorization")+"|"+r.Header.Get("X-Api-Key"))
	}
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		record("elsewhere", r)
		http.NotFound(w, r)
	}))
	t.Cleanup(elsewhere.Close)
	cases := []struct{ name, to string }{
		{"another port", elsewhere.URL + "/mcp"},
		// The same address under another name is another origin too.
		{"another name", strings.Replace(elsewhere.URL, "127.0.0.1", "localhost", 1) + "/mcp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clear(seen)
			server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				record("server", r)
				http.Redirect(w, r, c.to, http.StatusTemporaryRedirect)
			}))
			t.Cleanup(server.Close)
			spec := Spec{URL: server.URL + "/mcp", Headers: map[string]string{"X-Api-Key": key}}
			if _, err := Open(context.Background(), spec, testOptions(transport{http: true})); err == nil {
				t.Fatal("Open succeeded against a server that only redirects")
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen["server"]) == 0 || len(seen["elsewhere"]) == 0 {
				t.Fatalf("requests seen: %q, want the server's and the redirect's", seen)
			}
			if got := seen["server"][0]; got != "Bearer "+token+"|"+key {
				t.Errorf("the server got %q, want its headers", got)
			}
			for _, got := range seen["elsewhere"] {
				if got != "|" {
					t.Errorf("the redirect's target got %q, want no header of the server's", got)
				}
			}
		})
	}
}
