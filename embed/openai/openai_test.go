package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// sentinel is a key that must never show in any message.
const sentinel = "sk-SENTINEL-7f3a9c-do-not-print"

// server is an httptest endpoint speaking the embeddings contract, whose
// answers a test scripts one request at a time.
type server struct {
	*httptest.Server
	mu       sync.Mutex
	requests []request
	// reply answers request n (from 0); nil answers every request well.
	reply func(n int, req request, w http.ResponseWriter)
}

type request struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions *int     `json:"dimensions"`
	Auth       string   `json:"-"`
}

func newServer(t *testing.T, reply func(n int, req request, w http.ResponseWriter)) *server {
	t.Helper()
	s := &server{reply: reply}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, "wrong route "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		var req request
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		req.Auth = r.Header.Get("Authorization")
		s.mu.Lock()
		n := len(s.requests)
		s.requests = append(s.requests, req)
		s.mu.Unlock()
		if s.reply == nil {
			answer(w, req.Input, 4, true)
			return
		}
		s.reply(n, req, w)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// vec is the vector the test server gives a text: its length, then the
// code of its first byte, then filler.
func vec(text string, dims int) []float32 {
	v := make([]float32, dims)
	v[0] = float32(len(text))
	if len(text) > 0 && dims > 1 {
		v[1] = float32(text[0])
	}
	for i := 2; i < dims; i++ {
		v[i] = float32(i) / 8
	}
	return v
}

// answer writes a well-formed response, in reverse order when shuffled so
// that the client must place vectors by index.
func answer(w http.ResponseWriter, input []string, dims int, shuffled bool) {
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]item, len(input))
	for i, t := range input {
		at := i
		if shuffled {
			at = len(input) - 1 - i
		}
		data[at] = item{"embedding", i, vec(t, dims)}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": "m"})
}

type env map[string]string

func (e env) get(k string) string { return e[k] }

// newEmbedder points an embedder at s with quick retry settings and a wait
// that records instead of sleeping.
func newEmbedder(t *testing.T, s *server, vars env, tune func(*Options)) (*Embedder, *[]time.Duration) {
	t.Helper()
	opts := Options{Model: "test-embed", BaseURL: s.URL + "/v1", Getenv: vars.get,
		Transport: Transport{MaxAttempts: 4, BaseBackoff: 100 * time.Millisecond, MaxWait: 10 * time.Second, RequestTimeout: 5 * time.Second}}
	if tune != nil {
		tune(&opts)
	}
	e, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var waits []time.Duration
	e.client.wait = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	return e, &waits
}

func inputs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%c tool_%d: %s", 'a'+i%26, i, strings.Repeat("x", i%7))
	}
	return out
}

func TestBatchesPlacedByIndex(t *testing.T) {
	s := newServer(t, nil)
	e, _ := newEmbedder(t, s, env{EnvKey: sentinel}, func(o *Options) { o.BatchSize = 256 })
	in := inputs(600)
	got, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(in) {
		t.Fatalf("%d vectors for %d texts", len(got), len(in))
	}
	for i := range in {
		want := vec(in[i], 4)
		if got[i][0] != want[0] || got[i][1] != want[1] {
			t.Fatalf("vector %d belongs to another text: got %v, want %v", i, got[i], want)
		}
	}
	var sizes []int
	for _, r := range s.requests {
		sizes = append(sizes, len(r.Input))
		if r.Model != "test-embed" || r.Auth != "Bearer "+sentinel || r.Dimensions != nil {
			t.Fatalf("request = model %q, auth %q, dimensions %v; want the model, the key, no dimensions", r.Model, r.Auth, r.Dimensions)
		}
	}
	if fmt.Sprint(sizes) != "[256 256 88]" {
		t.Fatalf("batch sizes = %v, want [256 256 88]", sizes)
	}
	if e.Dimensions() != 4 {
		t.Fatalf("Dimensions after the first answer = %d, want 4", e.Dimensions())
	}
}

func TestNoTextsNoRequest(t *testing.T) {
	s := newServer(t, nil)
	e, _ := newEmbedder(t, s, env{}, nil)
	got, err := e.Embed(context.Background(), nil)
	if err != nil || len(got) != 0 || s.count() != 0 {
		t.Fatalf("Embed(nil) = %d vectors, %v, %d requests; want none", len(got), err, s.count())
	}
	if e.Dimensions() != 0 {
		t.Fatal("Dimensions known before any answer")
	}
}

func TestDimensionsOption(t *testing.T) {
	for _, tc := range []struct {
		name    string
		served  int
		wantErr string
	}{
		{"honoured", 8, ""},
		{"ignored by the server", 16, "16 dimensions, 8 were requested"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(_ int, req request, w http.ResponseWriter) { answer(w, req.Input, tc.served, false) })
			e, _ := newEmbedder(t, s, env{}, func(o *Options) { o.Dimensions = 8 })
			if e.Dimensions() != 8 {
				t.Fatalf("Dimensions before any answer = %d, want the requested 8", e.Dimensions())
			}
			_, err := e.Embed(context.Background(), []string{"a"})
			if got := s.requests[0].Dimensions; got == nil || *got != 8 {
				t.Fatalf("request dimensions = %v, want 8", got)
			}
			checkErr(t, err, tc.wantErr)
		})
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %v, want it to say %q", err, want)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("error spans lines: %q", err)
	}
	if !strings.HasPrefix(err.Error(), "POST http://127.0.0.1:") {
		t.Fatalf("error = %q, want it to start with the endpoint", err)
	}
}

func TestRetries(t *testing.T) {
	date := time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)
	cases := []struct {
		name     string
		status   int
		header   [2]string
		failures int
		// waits checks the recorded waits.
		waits func([]time.Duration) bool
	}{
		{"429 with Retry-After seconds", 429, [2]string{"Retry-After", "2"}, 1,
			func(w []time.Duration) bool { return len(w) == 1 && w[0] == 2*time.Second }},
		{"429 with Retry-After date", 429, [2]string{"Retry-After", date}, 1,
			func(w []time.Duration) bool { return len(w) == 1 && w[0] > time.Second && w[0] <= 3*time.Second }},
		{"503 with retry-after-ms", 503, [2]string{"Retry-After-Ms", "150"}, 1,
			func(w []time.Duration) bool { return len(w) == 1 && w[0] == 150*time.Millisecond }},
		{"500s back off exponentially", 500, [2]string{}, 3,
			func(w []time.Duration) bool {
				return len(w) == 3 && w[0] >= 50*time.Millisecond && w[0] <= 100*time.Millisecond &&
					w[1] >= 100*time.Millisecond && w[1] <= 200*time.Millisecond &&
					w[2] >= 200*time.Millisecond && w[2] <= 400*time.Millisecond
			}},
		{"unparseable Retry-After falls back to backoff", 429, [2]string{"Retry-After", "soon"}, 1,
			func(w []time.Duration) bool { return len(w) == 1 && w[0] <= 100*time.Millisecond }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(n int, req request, w http.ResponseWriter) {
				if n < tc.failures {
					if tc.header[0] != "" {
						w.Header().Set(tc.header[0], tc.header[1])
					}
					http.Error(w, `{"error":{"message":"slow down"}}`, tc.status)
					return
				}
				answer(w, req.Input, 4, true)
			})
			e, waits := newEmbedder(t, s, env{}, nil)
			if _, err := e.Embed(context.Background(), inputs(3)); err != nil {
				t.Fatalf("Embed after %d failures: %v", tc.failures, err)
			}
			if s.count() != tc.failures+1 {
				t.Fatalf("%d requests, want %d", s.count(), tc.failures+1)
			}
			if !tc.waits(*waits) {
				t.Fatalf("waits = %v", *waits)
			}
		})
	}
}

func TestGivesUp(t *testing.T) {
	cases := []struct {
		name     string
		status   int
		header   [2]string
		wantReqs int
		want     string
	}{
		{"persistent 500", 500, [2]string{}, 4, "HTTP 500 Internal Server Error: overloaded (gave up after 4 attempts)"},
		{"Retry-After beyond the cap", 429, [2]string{"Retry-After", "3600"}, 1, "the server asks to wait 1h0m0s, more than the 10s allowed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(_ int, _ request, w http.ResponseWriter) {
				if tc.header[0] != "" {
					w.Header().Set(tc.header[0], tc.header[1])
				}
				w.WriteHeader(tc.status)
				io.WriteString(w, `{"error":{"message":"overloaded"}}`)
			})
			e, _ := newEmbedder(t, s, env{}, nil)
			_, err := e.Embed(context.Background(), inputs(2))
			checkErr(t, err, tc.want)
			if s.count() != tc.wantReqs {
				t.Fatalf("%d requests, want %d", s.count(), tc.wantReqs)
			}
			var apiErr *Error
			if !errors.As(err, &apiErr) || apiErr.Status != tc.status {
				t.Fatalf("error %v is not an *Error with status %d", err, tc.status)
			}
		})
	}
}

func TestTimeouts(t *testing.T) {
	t.Run("per request, retried", func(t *testing.T) {
		s := newServer(t, nil)
		s.reply = func(n int, req request, w http.ResponseWriter) { time.Sleep(300 * time.Millisecond) }
		e, _ := newEmbedder(t, s, env{}, func(o *Options) { o.RequestTimeout = 30 * time.Millisecond; o.MaxAttempts = 2 })
		_, err := e.Embed(context.Background(), inputs(1))
		checkErr(t, err, "no answer within 30ms (request timeout) (gave up after 2 attempts)")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error %v does not wrap context.DeadlineExceeded", err)
		}
	})
	t.Run("overall, not retried", func(t *testing.T) {
		s := newServer(t, nil)
		s.reply = func(n int, req request, w http.ResponseWriter) { time.Sleep(300 * time.Millisecond) }
		e, _ := newEmbedder(t, s, env{}, nil)
		ctx, cancel := context.WithTimeout(context.Background(), 40*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := e.Embed(ctx, inputs(1))
		checkErr(t, err, "context deadline exceeded")
		if s.count() != 1 || time.Since(start) > 250*time.Millisecond {
			t.Fatalf("%d requests in %s; want one, abandoned at the deadline", s.count(), time.Since(start))
		}
	})
	t.Run("no time left to wait", func(t *testing.T) {
		s := newServer(t, func(_ int, _ request, w http.ResponseWriter) {
			w.Header().Set("Retry-After", "5")
			w.WriteHeader(http.StatusTooManyRequests)
		})
		e, _ := newEmbedder(t, s, env{}, nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err := e.Embed(ctx, inputs(1))
		checkErr(t, err, "no time left to wait 5s and retry")
	})
	t.Run("cancelled while waiting", func(t *testing.T) {
		s := newServer(t, func(_ int, _ request, w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) })
		e, _ := newEmbedder(t, s, env{}, nil)
		ctx, cancel := context.WithCancel(context.Background())
		e.client.wait = func(context.Context, time.Duration) error { cancel(); return context.Canceled }
		_, err := e.Embed(ctx, inputs(1))
		checkErr(t, err, "cancelled while waiting to retry")
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v does not wrap context.Canceled", err)
		}
	})
}

func TestMalformedAnswers(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"not JSON", `<html>oops</html>`, "malformed response"},
		{"no data", `{"object":"list"}`, `response has no "data"`},
		{"null data", `{"data":null}`, `response has no "data"`},
		{"error inside a 200", `{"error":{"message":"model is loading"}}`, "response has no data: model is loading"},
		{"too few", `{"data":[{"index":0,"embedding":[1,2]}]}`, "response has 1 embeddings for 2 inputs"},
		{"index out of range", `{"data":[{"index":0,"embedding":[1,2]},{"index":2,"embedding":[1,2]}]}`, "data[1]: index 2 is out of range or repeated"},
		{"index repeated", `{"data":[{"index":1,"embedding":[1,2]},{"index":1,"embedding":[1,2]}]}`, "data[1]: index 1 is out of range or repeated"},
		{"index on some only", `{"data":[{"index":0,"embedding":[1,2]},{"embedding":[1,2]}]}`, "some embeddings carry an index and some do not"},
		{"empty embedding", `{"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[1,2]}]}`, "data[0]: empty or missing embedding"},
		{"missing embedding", `{"data":[{"index":0},{"index":1,"embedding":[1,2]}]}`, "data[0]: empty or missing embedding"},
		{"base64 embedding", `{"data":[{"index":0,"embedding":"AACAPw=="},{"index":1,"embedding":[1]}]}`, "malformed response: embedding is not an array of numbers"},
		{"string in embedding", `{"data":[{"index":0,"embedding":[1,"2"]},{"index":1,"embedding":[1,2]}]}`, "malformed response: embedding[1] is not a float32 number"},
		{"nested array", `{"data":[{"index":0,"embedding":[[1],2]},{"index":1,"embedding":[1,2]}]}`, "embedding[0] is not a float32 number"},
		{"beyond float32", `{"data":[{"index":0,"embedding":[1,1e39]},{"index":1,"embedding":[1,2]}]}`, "embedding[1] is not a float32 number"},
		{"truncated body", `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embe`, "malformed response: unexpected end of JSON input"},
		{"differing lengths", `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2,3]}]}`, "input 1: embedding has 3 dimensions, earlier ones had 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(_ int, _ request, w http.ResponseWriter) { io.WriteString(w, tc.body) })
			e, _ := newEmbedder(t, s, env{}, nil)
			_, err := e.Embed(context.Background(), inputs(2))
			checkErr(t, err, tc.want)
			if s.count() != 1 {
				t.Fatalf("a malformed answer was retried (%d requests)", s.count())
			}
		})
	}
}

func TestPositionalWithoutIndex(t *testing.T) {
	s := newServer(t, func(_ int, _ request, w http.ResponseWriter) {
		io.WriteString(w, `{"data":[{"embedding":[ 1.5e0 ,-0]},{"embedding":[0, 1E-2 ]}]}`)
	})
	e, _ := newEmbedder(t, s, env{}, nil)
	got, err := e.Embed(context.Background(), inputs(2))
	if err != nil || got[0][0] != 1.5 || got[1][1] != 0.01 {
		t.Fatalf("Embed = %v, %v; want the vectors in answer order", got, err)
	}
}

func TestLengthHeldAcrossBatchesAndCalls(t *testing.T) {
	s := newServer(t, func(n int, req request, w http.ResponseWriter) { answer(w, req.Input, 4+n, false) })
	e, _ := newEmbedder(t, s, env{}, func(o *Options) { o.BatchSize = 2 })
	_, err := e.Embed(context.Background(), inputs(3))
	checkErr(t, err, "(batch 2 of 2): input 0: embedding has 5 dimensions, earlier ones had 4")

	_, err = e.Embed(context.Background(), inputs(1))
	checkErr(t, err, "embedding has 6 dimensions, earlier ones had 4")
}

func TestStatusMessages(t *testing.T) {
	cases := []struct {
		name   string
		status int
		vars   env
		body   string
		want   string
	}{
		{"401 without a key", 401, env{}, `{"error":{"message":"missing bearer"}}`,
			"HTTP 401 Unauthorized: the endpoint wants an API key: set TOOLSCOPE_EMBED_KEY (or OPENAI_API_KEY): missing bearer"},
		{"401 with OpenAI's variable", 401, env{EnvKeyOpenAI: "sk-x"}, `{"error":{"message":"Incorrect API key"}}`,
			"HTTP 401 Unauthorized: the key in $OPENAI_API_KEY was refused: Incorrect API key"},
		{"403", 403, env{EnvKey: "sk-x"}, ``, `HTTP 403 Forbidden: the key in $TOOLSCOPE_EMBED_KEY may not use model "test-embed"`},
		{"404 model not found (Ollama)", 404, env{}, `{"error":"model \"test-embed\" not found, try pulling it first"}`,
			`HTTP 404 Not Found: no model "test-embed" here, or not an embeddings endpoint (the base URL usually ends in /v1): model "test-embed" not found, try pulling it first`},
		{"400 with a detail (TEI)", 400, env{}, `{"detail":"input too long"}`, "HTTP 400 Bad Request: input too long"},
		{"400 with plain text", 400, env{}, "bad\ninput\x1b[31m", "HTTP 400 Bad Request: bad input [31m"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(_ int, _ request, w http.ResponseWriter) {
				w.WriteHeader(tc.status)
				io.WriteString(w, tc.body)
			})
			e, _ := newEmbedder(t, s, tc.vars, nil)
			_, err := e.Embed(context.Background(), inputs(1))
			checkErr(t, err, tc.want)
			if s.count() != 1 {
				t.Fatalf("HTTP %d was retried (%d requests)", tc.status, s.count())
			}
		})
	}
}

func TestConnectionRefusedIsNotRetried(t *testing.T) {
	s := newServer(t, nil)
	e, waits := newEmbedder(t, s, env{}, nil)
	s.Close()
	_, err := e.Embed(context.Background(), inputs(1))
	checkErr(t, err, "send: connection refused: is the server running at this address?")
	if len(*waits) != 0 {
		t.Fatalf("retried a refused connection (waits %v)", *waits)
	}
}

// TestKeyNeverShown has the server echo the key back in every way it can;
// no message may carry it.
func TestKeyNeverShown(t *testing.T) {
	echo := func(status int) func(int, request, http.ResponseWriter) {
		return func(_ int, req request, w http.ResponseWriter) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s (%s)"}}`, req.Auth, strings.TrimPrefix(req.Auth, "Bearer "))
		}
	}
	replies := map[string]func(int, request, http.ResponseWriter){
		"401": echo(401), "403": echo(403), "400": echo(400), "429": echo(429), "500": echo(500), "200": echo(200),
		"plain text": func(_ int, req request, w http.ResponseWriter) { w.WriteHeader(500); io.WriteString(w, req.Auth) },
	}
	for name, reply := range replies {
		t.Run(name, func(t *testing.T) {
			s := newServer(t, reply)
			e, _ := newEmbedder(t, s, env{EnvKey: sentinel}, func(o *Options) { o.MaxAttempts = 2 })
			_, err := e.Embed(context.Background(), inputs(1))
			if err == nil {
				t.Fatal("no error")
			}
			var apiErr *Error
			errors.As(err, &apiErr)
			for _, shown := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", *apiErr), e.ID(), e.CacheID(), e.Uncalibrated()} {
				if strings.Contains(shown, sentinel) || strings.Contains(shown, "SENTINEL") {
					t.Fatalf("the key shows in %q", shown)
				}
			}
		})
	}
	t.Run("key in the URL", func(t *testing.T) {
		s := newServer(t, echo(401))
		base := strings.Replace(s.URL, "http://", "http://user:"+sentinel+"@", 1) + "/v1?api-key=" + sentinel
		e, _ := newEmbedder(t, s, env{}, func(o *Options) { o.BaseURL = base })
		_, err := e.Embed(context.Background(), inputs(1))
		if err == nil || strings.Contains(err.Error(), "SENTINEL") || strings.Contains(e.CacheID(), "SENTINEL") {
			t.Fatalf("the key shows: error %v, cache id %q", err, e.CacheID())
		}
		for _, bad := range []string{"ftp://u:" + sentinel + "@host/v1", "http://u:" + sentinel + "@host:bad port/v1"} {
			if _, err := New(Options{Model: "m", BaseURL: bad}); err == nil || strings.Contains(err.Error(), "SENTINEL") {
				t.Fatalf("New(%q) = %v; want an error without the key", "…", err)
			}
		}
	})
}

func TestEnvironment(t *testing.T) {
	cases := []struct {
		name         string
		flag         string
		vars         env
		wantEndpoint string
		wantKeyVar   string
	}{
		{"defaults", "", env{}, "https://api.openai.com/v1/embeddings", ""},
		{"OpenAI's variables", "", env{EnvURLOpenAI: "http://o:1/v1/", EnvKeyOpenAI: "k"}, "http://o:1/v1/embeddings", EnvKeyOpenAI},
		{"ours win", "", env{EnvURL: "http://t:2/v1", EnvURLOpenAI: "http://o:1/v1", EnvKey: "k", EnvKeyOpenAI: "k2"}, "http://t:2/v1/embeddings", EnvKey},
		{"flag wins", "http://f:3/api/v1", env{EnvURL: "http://t:2/v1"}, "http://f:3/api/v1/embeddings", ""},
		{"full endpoint kept", "http://f:3/v1/embeddings", env{}, "http://f:3/v1/embeddings", ""},
		{"blank key is no key", "", env{EnvKey: "  ", EnvKeyOpenAI: "k"}, "https://api.openai.com/v1/embeddings", EnvKeyOpenAI},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, err := New(Options{Model: "m", BaseURL: tc.flag, Getenv: tc.vars.get})
			if err != nil {
				t.Fatal(err)
			}
			if e.client.endpoint != tc.wantEndpoint || e.client.keyVar != tc.wantKeyVar {
				t.Fatalf("endpoint, key variable = %q, %q; want %q, %q", e.client.endpoint, e.client.keyVar, tc.wantEndpoint, tc.wantKeyVar)
			}
		})
	}
}

func TestNewRefuses(t *testing.T) {
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"no model", Options{}, "no model named: use --embedder openai:MODEL"},
		{"not http", Options{Model: "m", BaseURL: "localhost:11434/v1"}, `--embed-url is not an http(s) URL: "localhost:11434/v1"`},
		{"bad env URL", Options{Model: "m", Getenv: env{EnvURL: "http://a b/"}.get}, "$TOOLSCOPE_EMBED_URL is not a valid URL"},
		{"negative", Options{Model: "m", BatchSize: -1}, "negative option"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.opts.Getenv == nil {
				tc.opts.Getenv = env{}.get
			}
			_, err := New(tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New error = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestIdentity(t *testing.T) {
	e, err := New(Options{Model: "nomic-embed-text", BaseURL: "http://localhost:11434/v1", Getenv: env{}.get})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.Calibration("adaptive"); ok {
		t.Fatal("a remote model claims a calibration")
	}
	if got := e.Uncalibrated(); got != "openai:nomic-embed-text is uncalibrated: ranking is meaningful, verdicts need --threshold" {
		t.Fatalf("Uncalibrated = %q", got)
	}
	short, _ := New(Options{Model: "nomic-embed-text", BaseURL: "http://localhost:11434/v1", Dimensions: 256, Getenv: env{}.get})
	if e.ID() != short.ID() || e.CacheID() == short.CacheID() {
		t.Fatalf("IDs %q, %q and cache IDs %q, %q: want one ID, two cache identities", e.ID(), short.ID(), e.CacheID(), short.CacheID())
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		header, value string
		want          time.Duration
	}{
		{"Retry-After", "7", 7 * time.Second},
		{"Retry-After", "0.5", 500 * time.Millisecond},
		{"Retry-After", "0", 0},
		{"Retry-After", "-3", 0},
		{"Retry-After", "1e300", 0},
		{"Retry-After", "Sun, 01 Mar 2026 12:00:09 GMT", 9 * time.Second},
		{"Retry-After", "Sun, 01 Mar 2026 11:00:00 GMT", 0},
		{"Retry-After", "tomorrow", 0},
		{"Retry-After-Ms", "250", 250 * time.Millisecond},
		{"X-Other", "5", 0},
	}
	for _, tc := range cases {
		h := http.Header{}
		h.Set(tc.header, tc.value)
		if got := retryAfter(h, now); got != tc.want {
			t.Errorf("%s: %s = %s, want %s", tc.header, tc.value, got, tc.want)
		}
	}
}

// FuzzDecode feeds arbitrary bodies to the response reader: it must never
// panic, and what it accepts must be one vector per input, all of a length.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"data":[{"index":1,"embedding":[1,2]},{"index":0,"embedding":[3,4]}]}`), 2)
	f.Add([]byte(`{"data":[{"embedding":[1]}]}`), 1)
	f.Add([]byte(`{"error":{"message":"x"}}`), 1)
	f.Add([]byte(`{"data":[{"index":-1,"embedding":[1]}]}`), 1)
	f.Add([]byte(`not json`), 0)
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		if n < 0 || n > 64 {
			return
		}
		e := &Embedder{}
		serverMessage(body)
		vecs, err := e.decode(body, n)
		if err != nil {
			return
		}
		if len(vecs) != n {
			t.Fatalf("%d vectors for %d inputs", len(vecs), n)
		}
		for _, v := range vecs {
			if len(v) == 0 || len(v) != len(vecs[0]) {
				t.Fatalf("accepted vectors of lengths %d and %d", len(v), len(vecs[0]))
			}
		}
	})
}

// BenchmarkEmbed1000 sends a 1,000-tool catalog to a local endpoint answering
// 1,536-d vectors in four batches: the client's own cost (encoding, the
// round trips, decoding about 20 MB of JSON), with the server's answers
// prepared beforehand.
func BenchmarkEmbed1000(b *testing.B) {
	const dims = 1536
	bodies := map[int][]byte{}
	for _, n := range []int{256, 1000 - 3*256} {
		rec := httptest.NewRecorder()
		answer(rec, inputs(n), dims, true)
		bodies[n] = rec.Body.Bytes()
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req request
		json.NewDecoder(r.Body).Decode(&req)
		w.Write(bodies[len(req.Input)])
	}))
	defer srv.Close()
	e, err := New(Options{Model: "m", BaseURL: srv.URL + "/v1", Getenv: env{}.get})
	if err != nil {
		b.Fatal(err)
	}
	in := inputs(1000)
	for b.Loop() {
		if _, err := e.Embed(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// A URL a config file chose gets the environment's key only when the user
// trusts it ($TOOLSCOPE_TRUSTED_URLS); a URL from the command line always
// does. A near miss (another port, a longer path, another scheme) is not
// trusted.
func TestConfigChosenURLGetsNoKeyUnlessTrusted(t *testing.T) {
	s := newServer(t, nil)
	host := strings.TrimPrefix(s.URL, "http://")
	tests := []struct {
		name    string
		from    string
		trusted string
		sent    bool
	}{
		{"command line", "", "", true},
		{"config, nothing trusted", "toolscope.yaml:4", "", false},
		{"config, trusted origin", "toolscope.yaml:4", s.URL, true},
		{"config, trusted base", "toolscope.yaml:4", "https://api.example.com, " + s.URL + "/v1/", true},
		{"config, another path", "toolscope.yaml:4", s.URL + "/v10", false},
		{"config, another scheme", "toolscope.yaml:4", "https://" + host, false},
		{"config, another port", "toolscope.yaml:4", "http://" + strings.Split(host, ":")[0] + ":1", false},
		{"config, user info aside", "toolscope.yaml:4", "http://user@" + host, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newEmbedder(t, s, env{EnvKeyOpenAI: sentinel, EnvTrusted: tt.trusted}, func(o *Options) { o.BaseURLFrom = tt.from })
			n := s.count()
			if _, err := e.Embed(context.Background(), []string{"a"}); err != nil {
				t.Fatal(err)
			}
			s.mu.Lock()
			auth := s.requests[n].Auth
			s.mu.Unlock()
			if got := auth == "Bearer "+sentinel; got != tt.sent {
				t.Errorf("key sent %v, want %v (Authorization %q)", got, tt.sent, auth)
			}
		})
	}
}

// When an endpoint a config chose wants a key, the error says why none was
// sent and how to trust the URL.
func TestWithheldKeyIsExplained(t *testing.T) {
	s := newServer(t, func(_ int, _ request, w http.ResponseWriter) {
		http.Error(w, `{"error": {"message": "no key"}}`, http.StatusUnauthorized)
	})
	e, _ := newEmbedder(t, s, env{EnvKeyOpenAI: sentinel}, func(o *Options) { o.BaseURLFrom = "repo/toolscope.yaml:4" })
	_, err := e.Embed(context.Background(), []string{"a"})
	checkErr(t, err, "the key in $OPENAI_API_KEY is not sent to a URL that repo/toolscope.yaml:4 chose: pass it with --embed-url, or list it in $TOOLSCOPE_TRUSTED_URLS")
}
