package openai

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// authLog records the Authorization of each request a server gets, by
// path.
type authLog struct {
	mu   sync.Mutex
	seen map[string]string
}

func (l *authLog) handler(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.seen[r.URL.Path] = r.Header.Get("Authorization")
	l.mu.Unlock()
	w.Write([]byte(`{}`))
}

func (l *authLog) get(path string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a, ok := l.seen[path]
	return a, ok
}

// post sends one request through a client made with opts.
func post(t *testing.T, opts ClientOptions) {
	t.Helper()
	c, err := NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	c.opts.MaxAttempts = 1
	_ = c.Post(context.Background(), map[string]string{}, "test", func([]byte) error { return nil })
}

// TestTrustedURLsResolveDotSegments: a config-chosen URL that climbs out
// of a trusted path with dot segments (plain or %2e-encoded) gets no key,
// and the path requested is the one compared.
func TestTrustedURLsResolveDotSegments(t *testing.T) {
	log := &authLog{seen: map[string]string{}}
	s := httptest.NewServer(http.HandlerFunc(log.handler))
	defer s.Close()
	cases := []struct {
		base, path string // the base a config gives, the path the server sees
		sent       bool
	}{
		{s.URL + "/ok/v1", "/ok/v1/chat", true},
		{s.URL + "/ok/v1/./x/..", "/ok/v1/chat", true},
		{s.URL + "/ok/v1/../../other/v1", "/other/v1/chat", false},
		{s.URL + "/ok/v1/%2e%2e/%2e%2e/other2/v1", "/other2/v1/chat", false},
		{s.URL + "/ok/v1/%2E%2E/%2E%2E/other3/v1", "/other3/v1/chat", false},
		{s.URL + "/ok/v1/..", "/ok/chat", false},
	}
	for _, c := range cases {
		t.Run(c.base, func(t *testing.T) {
			post(t, ClientOptions{Model: "m", BaseURL: c.base, BaseURLFrom: "toolscope.yaml:3", URLFlag: "--judge-url",
				KeyVars: []string{"KEY"}, Path: "/chat",
				Getenv: env{"KEY": sentinel, EnvTrusted: s.URL + "/ok/v1"}.get})
			auth, ok := log.get(c.path)
			if !ok {
				t.Fatalf("no request reached %s (seen %v)", c.path, log.seen)
			}
			if got := auth == "Bearer "+sentinel; got != c.sent {
				t.Errorf("key sent %v, want %v", got, c.sent)
			}
		})
	}
}

// TestKeyStaysOnTheEndpointsOrigin: a redirect to another port is
// followed without the key, whatever its status; one on the endpoint's
// own origin keeps it.
func TestKeyStaysOnTheEndpointsOrigin(t *testing.T) {
	other := &authLog{seen: map[string]string{}}
	elsewhere := httptest.NewServer(http.HandlerFunc(other.handler))
	defer elsewhere.Close()
	own := &authLog{seen: map[string]string{}}
	var origin *httptest.Server
	origin = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/chat":
			to := elsewhere.URL + "/taken"
			if r.URL.Query().Get("stay") != "" {
				to = origin.URL + "/kept"
			}
			code := 307
			if c := r.URL.Query().Get("code"); c != "" {
				code = map[string]int{"301": 301, "302": 302, "307": 307, "308": 308}[c]
			}
			http.Redirect(w, r, to, code)
		default:
			own.handler(w, r)
		}
	}))
	defer origin.Close()
	for _, code := range []string{"301", "302", "307", "308"} {
		t.Run(code, func(t *testing.T) {
			post(t, ClientOptions{Model: "m", BaseURL: origin.URL + "/v1/chat?code=" + code, KeyVars: []string{"KEY"},
				Path: "/chat", Getenv: env{"KEY": sentinel}.get})
			auth, ok := other.get("/taken")
			if !ok {
				t.Fatal("the redirect was not followed")
			}
			if auth != "" {
				t.Errorf("the key went to another port: Authorization %q", auth)
			}
		})
	}
	t.Run("same origin", func(t *testing.T) {
		post(t, ClientOptions{Model: "m", BaseURL: origin.URL + "/v1/chat?stay=1", KeyVars: []string{"KEY"},
			Path: "/chat", Getenv: env{"KEY": sentinel}.get})
		if auth, _ := own.get("/kept"); auth != "Bearer "+sentinel {
			t.Errorf("a redirect on the endpoint's origin lost the key: Authorization %q", auth)
		}
	})
}

// TestEchoedKeyIsScrubbedInAnyCaseOrSpacing: a 401 body that echoes the
// key upper-cased, spaced out or split by dashes shows none of it.
func TestEchoedKeyIsScrubbedInAnyCaseOrSpacing(t *testing.T) {
	const key = "sk-Test0123456789abcdef"
	spaced := strings.Join(strings.Split(key, ""), " ")
	echoes := []string{key, strings.ToUpper(key), strings.ToLower(key), spaced, strings.ToUpper(spaced),
		strings.Join(strings.Split(key, ""), "-"), strings.Join(strings.Split(key, ""), "_")}
	flat := func(s string) string {
		return strings.ToLower(strings.NewReplacer(" ", "", "-", "", "_", "", ".", "", "\t", "").Replace(s))
	}
	for _, echo := range echoes {
		t.Run(echo, func(t *testing.T) {
			s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusUnauthorized)
				fmt.Fprintf(w, `{"error": {"message": "Incorrect API key provided: %s"}}`, echo)
			}))
			defer s.Close()
			c, err := NewClient(ClientOptions{Model: "m", BaseURL: s.URL, KeyVars: []string{"KEY"}, Path: "/chat",
				Getenv: env{"KEY": key}.get})
			if err != nil {
				t.Fatal(err)
			}
			c.opts.MaxAttempts = 1
			err = c.Post(context.Background(), map[string]string{}, "test", func([]byte) error { return nil })
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(flat(err.Error()), flat(key)) {
				t.Errorf("the key shows: %v", err)
			}
			if !strings.Contains(err.Error(), "[redacted]") {
				t.Errorf("nothing redacted: %v", err)
			}
		})
	}
}
