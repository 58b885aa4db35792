package live

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/live/livetest"
)

func TestMain(m *testing.M) {
	// A test that starts os.Args[0] with the behaviour set gets the test
	// server instead of the tests.
	livetest.MainIfAsked()
	os.Exit(m.Run())
}

// transport is one way of reaching the test server.
type transport struct {
	name   string
	legacy bool // the pre-2026-07-28 handshake
	http   bool
	json   bool // Streamable HTTP answers in application/json
	sse    bool // the older HTTP+SSE transport
}

var transports = []transport{
	{name: "stdio"},
	{name: "stdio-legacy", legacy: true},
	{name: "http", http: true},
	{name: "http-legacy", http: true, legacy: true},
	{name: "http-json", http: true, json: true},
	{name: "sse", http: true, sse: true, legacy: true},
}

// serve starts the test server with behaviour b and returns its spec.
func serve(t *testing.T, tr transport, b livetest.Behaviour) Spec {
	t.Helper()
	b.Legacy, b.JSONResponse = tr.legacy, tr.json
	switch {
	case tr.sse:
		srv := httptest.NewServer(livetest.SSEHandler(b))
		t.Cleanup(srv.Close)
		return Spec{URL: srv.URL, SSE: true}
	case tr.http:
		srv := httptest.NewServer(livetest.Handler(b))
		t.Cleanup(srv.Close)
		return Spec{URL: srv.URL}
	}
	return stdioSpec(t, b)
}

func stdioSpec(t *testing.T, b livetest.Behaviour) Spec {
	t.Helper()
	data, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Command: os.Args[0], Env: map[string]string{livetest.EnvBehaviour: string(data)}}
}

func testOptions(tr transport) Options {
	o := Options{InitTimeout: 10 * time.Second, PageTimeout: 5 * time.Second, grace: 500 * time.Millisecond}
	if tr.legacy {
		o.protocolVersion = "2025-11-25"
	}
	return o
}

func openT(t *testing.T, spec Spec, opts Options) *Source {
	t.Helper()
	s, err := Open(context.Background(), spec, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// sameTool compares everything a live tool shares with the same entry read
// from a file; JSON is compared as text, so key order and number text count.
func sameTool(t *testing.T, got, want *catalog.Tool) {
	t.Helper()
	js := func(v interface{ JSON() string }) string {
		if v == nil {
			return "<nil>"
		}
		return v.JSON()
	}
	_ = js
	pairs := []struct{ what, got, want string }{
		{"name", got.Name, want.Name},
		{"description", got.Description, want.Description},
		{"title", got.Title, want.Title},
		{"format", string(got.Format), string(want.Format)},
		{"entry", got.Entry, want.Entry},
		{"schema", got.Schema.JSON(), want.Schema.JSON()},
		{"outputSchema", got.OutputSchema.JSON(), want.OutputSchema.JSON()},
		{"annotations", got.Annotations.JSON(), want.Annotations.JSON()},
		{"_meta", got.Meta.JSON(), want.Meta.JSON()},
		{"askOrAssume", got.AskOrAssume.JSON(), want.AskOrAssume.JSON()},
		{"period", got.Period.JSON(), want.Period.JSON()},
		{"wants", got.Wants.JSON(), want.Wants.JSON()},
		{"duplicate keys", strings.Join(got.DuplicateKeys, ","), strings.Join(want.DuplicateKeys, ",")},
		{"raw", got.Raw.JSON(), want.Raw.JSON()},
	}
	for _, p := range pairs {
		if p.got != p.want {
			t.Errorf("%s: %s:\n got %s\nwant %s", got.Name, p.what, p.got, p.want)
		}
	}
}

func TestListEqualsTheSameListFromAFile(t *testing.T) {
	want, err := catalog.Parse("file", livetest.ListJSON())
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := openT(t, serve(t, tr, livetest.Behaviour{PageSize: 2}), testOptions(tr))
			got, err := s.List(context.Background())
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			if pages := s.conn(0).pages.seq(); pages != 4 {
				t.Errorf("read %d pages, want 4 (7 tools, 2 a page)", pages)
			}
			if len(got.Tools) != len(want.Tools) {
				t.Fatalf("%d tools, want %d", len(got.Tools), len(want.Tools))
			}
			for i := range want.Tools {
				sameTool(t, got.Tools[i], want.Tools[i])
				if got.Tools[i].Index != i {
					t.Errorf("%s: index %d, want %d", got.Tools[i].Name, got.Tools[i].Index, i)
				}
			}
			if got.Source != s.String() {
				t.Errorf("source %q, want %q", got.Source, s.String())
			}
		})
	}
}

func TestListKeepsWhatTheSDKWouldLose(t *testing.T) {
	s := openT(t, serve(t, transport{name: "stdio"}, livetest.Behaviour{}), testOptions(transport{}))
	cat, err := s.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := cat.Lookup("snapshot_volume")
	var order []string
	for _, m := range snap.Schema.Get("properties").Members {
		order = append(order, m.Key)
	}
	if got := strings.Join(order, ","); got != "zeta,alpha,mid" {
		t.Errorf("snapshot_volume properties in order %s, want zeta,alpha,mid", got)
	}
	list, _ := cat.Lookup("list_volumes")
	if got := list.Schema.Get("properties").Get("limit").Get("maximum").Text; got != "1.50e3" {
		t.Errorf("list_volumes maximum text %q, want 1.50e3", got)
	}
	tag, _ := cat.Lookup("tag_volume")
	if !slices.Contains(tag.DuplicateKeys, "inputSchema.properties.tag") {
		t.Errorf("tag_volume duplicate keys %v, want inputSchema.properties.tag", tag.DuplicateKeys)
	}
	get, _ := cat.Lookup("get_volume_status")
	if get.AskOrAssume == nil || get.Period == nil {
		t.Errorf("get_volume_status lost the declarations in _meta: askOrAssume %v, period %v", get.AskOrAssume, get.Period)
	}
}

func TestSlowListTimesOut(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			opts := testOptions(tr)
			opts.PageTimeout = 300 * time.Millisecond
			s := openT(t, serve(t, tr, livetest.Behaviour{SlowList: 1500 * time.Millisecond}), opts)
			start := time.Now()
			_, err := s.List(context.Background())
			if err == nil {
				t.Fatal("List of a slow server succeeded")
			}
			var le *Error
			if !errors.As(err, &le) || le.Step != "tools/list page 1" || le.Msg != "timed out after 300ms" {
				t.Errorf("error %q, want tools/list page 1: timed out after 300ms", err)
			}
			if !strings.HasPrefix(err.Error(), s.String()+": ") {
				t.Errorf("error %q does not name the server %q", err, s.String())
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("List took %v with a 300ms page timeout", d)
			}
		})
	}
}

func TestCrashMidList(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := openT(t, serve(t, tr, livetest.Behaviour{PageSize: 2, CrashMidList: true}), testOptions(tr))
			_, err := s.List(context.Background())
			var le *Error
			if !errors.As(err, &le) || le.Step != "tools/list page 2" {
				t.Fatalf("error %v, want a failure at tools/list page 2", err)
			}
			if tr.http {
				t.Log(err)
				return
			}
			want := "tools/list page 2: the server exited (exit status 3); server stderr: livetest: crashing on tools/list page 2"
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q, want it to contain %q", err, want)
			}
		})
	}
}

func TestBearerFromEnvironmentNeverEchoed(t *testing.T) {
	const token = "s3cret-token-value"
	inner := livetest.Handler(livetest.Behaviour{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "bad token "+r.Header.Get("Authorization"), http.StatusUnauthorized)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close) // after the sources close: an open session holds a stream
	env := func(v string) Getenv {
		return func(name string) (string, bool) {
			if name == EnvBearer {
				return v, true
			}
			return "", false
		}
	}
	opts := testOptions(transport{http: true})
	opts.Getenv = env(token)
	s := openT(t, Spec{URL: srv.URL}, opts)
	if _, err := s.List(context.Background()); err != nil {
		t.Fatalf("List with the bearer: %v", err)
	}
	opts.Getenv = env("wrong-" + token)
	for _, url := range []string{srv.URL, srv.URL + "/?key=" + token, "http://user:" + token + "@127.0.0.1:1/"} {
		_, err := Open(context.Background(), Spec{URL: url}, opts)
		if err == nil {
			t.Fatal("Open with a wrong token succeeded")
		}
		if strings.Contains(err.Error(), token) {
			t.Errorf("error echoes the token: %v", err)
		}
		t.Log(err)
	}
}

// alive reports whether a process (or a zombie) with that pid exists.
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// waitGone waits up to d for pid to disappear.
func waitGone(pid int, d time.Duration) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if !alive(pid) {
			return true
		}
	}
	return !alive(pid)
}

func TestCloseEndsAndReapsTheServer(t *testing.T) {
	cases := []struct {
		name string
		b    livetest.Behaviour
	}{
		{"leaves on stdin EOF", livetest.Behaviour{}},
		{"ignores EOF and SIGTERM", livetest.Behaviour{Linger: true}},
		{"leaves a grandchild", livetest.Behaviour{Grandchild: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(context.Background(), stdioSpec(t, tc.b), testOptions(transport{}))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.List(context.Background()); err != nil {
				t.Fatal(err)
			}
			pid := s.conn(0).proc.cmd.Process.Pid
			start := time.Now()
			s.Close()
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("Close took %v", d)
			}
			// Reaped: not even a zombie is left.
			if alive(pid) {
				t.Errorf("server %d still exists after Close", pid)
			}
			if tc.b.Grandchild {
				var gpid int
				for _, line := range strings.Split(s.Stderr(), "\n") {
					if n, ok := strings.CutPrefix(line, "grandchild "); ok {
						gpid, _ = strconv.Atoi(n)
					}
				}
				if gpid == 0 {
					t.Fatalf("no grandchild pid in stderr %q", s.Stderr())
				}
				if !waitGone(gpid, 2*time.Second) {
					t.Errorf("grandchild %d outlived Close", gpid)
				}
			}
			if _, ok := <-s.Changes(); ok {
				t.Error("Changes still open after Close")
			}
		})
	}
}

func TestStartFailures(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
		want string
	}{
		{"no such command", Spec{Command: "toolscope-no-such-server"}, `mcp:toolscope-no-such-server: start: executable file not found in $PATH`},
		{"exits at once", stdioSpec(t, livetest.Behaviour{ExitAtStart: 2, Stderr: "usage: livetest --token T"}),
			`: initialize: the server exited (exit status 2); server stderr: usage: livetest --token T`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(context.Background(), tc.spec, testOptions(transport{}))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open: %v, want %q", err, tc.want)
			}
		})
	}
}

func TestInitializeTimesOut(t *testing.T) {
	// A command that never answers, nor leaves when its stdin closes.
	opts := testOptions(transport{})
	opts.InitTimeout = 300 * time.Millisecond
	_, err := Open(context.Background(), Spec{Command: "sleep", Args: []string{"30"}}, opts)
	want := "mcp:sleep 30: initialize: timed out after 300ms"
	if err == nil || err.Error() != want {
		t.Errorf("Open: %v, want %q", err, want)
	}
}

func TestListChangedNotification(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			s := openT(t, serve(t, tr, livetest.Behaviour{PageSize: 3, ChangeAfterList: true}), testOptions(tr))
			first, err := s.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			select {
			case c := <-s.Changes():
				if c.Err != nil {
					t.Fatalf("change with error %v, want list_changed", c.Err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no list_changed within 5s")
			}
			again, err := s.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(again.Tools) != len(first.Tools)+1 {
				t.Fatalf("%d tools after the change, want %d", len(again.Tools), len(first.Tools)+1)
			}
			if _, ok := again.Lookup(livetest.Added); !ok {
				t.Errorf("relisted catalog lacks %s", livetest.Added)
			}
		})
	}
}

func TestLostServerIsReportedAndRestartedByList(t *testing.T) {
	s := openT(t, stdioSpec(t, livetest.Behaviour{Stderr: "booting"}), testOptions(transport{}))
	if _, err := s.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	old := s.conn(0).proc.cmd.Process
	if err := old.Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-s.Changes():
		want := "connection: the server exited (signal: killed); server stderr: booting"
		if c.Err == nil || !strings.Contains(c.Err.Error(), want) {
			t.Fatalf("change %v, want an error containing %q", c.Err, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a killed server was not reported")
	}
	cat, err := s.List(context.Background())
	if err != nil {
		t.Fatalf("List after the server died: %v", err)
	}
	if len(cat.Tools) != len(livetest.Tools()) {
		t.Errorf("%d tools after restart, want %d", len(cat.Tools), len(livetest.Tools()))
	}
	if s.conn(0).proc.cmd.Process.Pid == old.Pid {
		t.Error("List did not start a new server")
	}
	if alive(old.Pid) {
		t.Errorf("the killed server %d was not reaped", old.Pid)
	}
}

func TestLiveToolsHaveNoPosition(t *testing.T) {
	s := openT(t, serve(t, transport{name: "http", http: true}, livetest.Behaviour{}), testOptions(transport{http: true}))
	cat, err := s.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range cat.Tools {
		if tool.Pos.Line != 0 {
			t.Errorf("%s has position %+v, want none", tool.Name, tool.Pos)
		}
	}
}

func TestABrokenListNamesTheEntry(t *testing.T) {
	// A server whose tool has no string name: the SDK cannot decode the
	// page, the loader says which entry is wrong.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := `{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"bad","version":"1"}}`
		switch req.Method {
		case "tools/list":
			result = `{"tools":[{"name":"ok","inputSchema":{"type":"object"}},{"name":7}]}`
		case "server/discover":
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`))
	}))
	t.Cleanup(srv.Close)
	s := openT(t, Spec{URL: srv.URL}, testOptions(transport{http: true}))
	_, err := s.List(context.Background())
	want := srv.URL + ": tools[1]: name is a number, want a string"
	if err == nil || err.Error() != want {
		t.Errorf("List: %v, want %q", err, want)
	}
}
