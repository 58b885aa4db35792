package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
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
			s := openT(t, endlessList(t, sse), testOptions(transport{http: true}))
			peak := heapPeak()
			_, err := s.List(context.Background())
			grew := peak()
			want := "tools/list page 1: the server's answer is over the 64 MiB limit (reading stopped there)"
			if err == nil || !strings.HasSuffix(err.Error(), want) {
				t.Fatalf("List: %v, want an error ending %q", err, want)
			}
			// Whatever the body, the client reads no further than the
			// limit: the heap grows by a small multiple of it at most.
			if grew > 6*maxMessage {
				t.Errorf("the heap grew by %d MiB, want at most %d MiB", grew>>20, 6*maxMessage>>20)
			}
			t.Logf("the heap grew by %d MiB at most", grew>>20)
		})
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
