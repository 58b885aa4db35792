package judge

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"toolscope/embed/openai"
)

// chatServer answers every chat request with answer(body) and records the
// bodies.
func chatServer(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, body map[string]any)) (*httptest.Server, func() []map[string]any) {
	var mu sync.Mutex
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		bodies = append(bodies, body)
		mu.Unlock()
		answer(w, r, body)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return append([]map[string]any(nil), bodies...)
	}
}

func chatAnswer(content string) string {
	b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": content}}}})
	return string(b)
}

var limitPair = NewPair(Tool{Name: "a", Description: "Reads a."}, Tool{Name: "b", Description: "Reads b."}, nil)

// TestJudgeAnswersAreBounded: every request says max_tokens (or, to an
// endpoint that refuses it, max_completion_tokens), an answer over the
// size cap is refused, and one deadline bounds a question whatever the
// tries and retries.
func TestJudgeAnswersAreBounded(t *testing.T) {
	t.Run("max_tokens", func(t *testing.T) {
		srv, bodies := chatServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Write([]byte(chatAnswer(`{"label": 1, "reason": "told apart"}`)))
		})
		m, err := New(Options{Model: "m", BaseURL: srv.URL, Getenv: env{}.get})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := m.Ask(context.Background(), limitPair); err != nil {
			t.Fatal(err)
		}
		if got := bodies()[0]["max_tokens"]; got != float64(MaxAnswerTokens) {
			t.Errorf("max_tokens %v, want %d", got, MaxAnswerTokens)
		}
	})
	t.Run("max_completion_tokens", func(t *testing.T) {
		srv, bodies := chatServer(t, func(w http.ResponseWriter, _ *http.Request, body map[string]any) {
			if _, ok := body["max_tokens"]; ok {
				http.Error(w, `{"error": {"message": "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}}`, http.StatusBadRequest)
				return
			}
			w.Write([]byte(chatAnswer(`{"label": 1, "reason": "told apart"}`)))
		})
		m, err := New(Options{Model: "m", BaseURL: srv.URL, Getenv: env{}.get})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := m.Ask(context.Background(), limitPair); err != nil {
			t.Fatal(err)
		}
		all := bodies()
		if last := all[len(all)-1]; last["max_completion_tokens"] != float64(MaxAnswerTokens) {
			t.Errorf("the retry sent %v, want max_completion_tokens %d", last, MaxAnswerTokens)
		}
	})
	t.Run("a huge answer", func(t *testing.T) {
		huge := chatAnswer(`{"label": 1, "reason": "` + strings.Repeat("x", 2*maxAnswerBytes) + `"}`)
		srv, _ := chatServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) { w.Write([]byte(huge)) })
		m, err := New(Options{Model: "m", BaseURL: srv.URL, Getenv: env{}.get, Transport: openai.Transport{MaxAttempts: 1}})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = m.Ask(context.Background(), limitPair)
		if err == nil || !strings.Contains(err.Error(), "response larger than 1 MiB") {
			t.Errorf("error %v, want the answer refused for its size", err)
		}
	})
	t.Run("one deadline", func(t *testing.T) {
		srv, _ := chatServer(t, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
			<-r.Context().Done() // a server that never finishes its answer
		})
		m, err := New(Options{Model: "m", BaseURL: srv.URL, Getenv: env{}.get, Deadline: 50 * time.Millisecond,
			Transport: openai.Transport{RequestTimeout: time.Hour, MaxAttempts: 5}})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = m.Ask(context.Background(), limitPair)
		if err == nil || !strings.Contains(err.Error(), "the deadline of one question") {
			t.Errorf("error %v, want the question's deadline named", err)
		}
	})
}

// TestWrittenRequestsAreBounded: a written request longer than
// MaxRequestBytes is not kept.
func TestWrittenRequestsAreBounded(t *testing.T) {
	long := strings.Repeat("please find the thing ", MaxRequestBytes/10)
	answer, _ := json.Marshal(map[string]any{"requests": []string{"find the report for March", long}})
	srv, _ := chatServer(t, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		w.Write([]byte(chatAnswer(string(answer))))
	})
	m, err := New(Options{Model: "m", BaseURL: srv.URL, Getenv: env{}.get})
	if err != nil {
		t.Fatal(err)
	}
	cases, err := m.Write(context.Background(), Tool{Name: "get_report", Description: "Gets a report."}, []string{"other"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 1 || cases[0].Request != "find the report for March" {
		t.Errorf("kept %+v, want the short request only", cases)
	}
}

// TestPricesAreNumbers: NaN, infinite and negative prices are refused.
func TestPricesAreNumbers(t *testing.T) {
	for _, s := range []string{"NaN,NaN", "nan,1", "1,NaN", "Inf,1", "1,+Inf", "-1,1", "1,-0.5", "1e7,1"} {
		if _, err := ParsePrice(s); err == nil {
			t.Errorf("ParsePrice(%q) accepted", s)
		}
	}
	if p, err := ParsePrice("0.40,1.60"); err != nil || p != (Price{0.40, 1.60}) {
		t.Errorf("ParsePrice(0.40,1.60) = %v, %v", p, err)
	}
}

// TestRecordsAreBoundedAsRead: a recorded reason is clipped as it is
// read, and a line too long for any judgment is an error naming it.
func TestRecordsAreBoundedAsRead(t *testing.T) {
	line := func(reason string) string {
		b, _ := json.Marshal(Judgment{A: "a", B: "b", Label: 1, Reason: reason, By: PersonBy, Texts: "sha256:x"})
		return string(b) + "\n"
	}
	r, err := Parse([]byte(line(strings.Repeat("r", 50_000))))
	if err != nil {
		t.Fatal(err)
	}
	if got := len([]rune(r.All()[0].Reason)); got > maxRecordReason+1 {
		t.Errorf("a reason of %d characters kept, want at most %d", got, maxRecordReason+1)
	}
	_, err = Parse([]byte("# judgments\n" + line(strings.Repeat("r", 2<<20))))
	if err == nil || !strings.HasPrefix(err.Error(), "line 2: a line over 1 MiB") {
		t.Errorf("error %v, want one naming line 2", err)
	}
}

// TestDuplicateAndCaseVariantKeysAreRefused: a key twice, or a known key
// in another case, in a judgments line or a model's answer is an error,
// never "the last one wins".
func TestDuplicateAndCaseVariantKeysAreRefused(t *testing.T) {
	rec := `"a": "x", "b": "y", "reason": "r", "by": "person", "texts": "sha256:1"`
	records := []struct {
		line, want string
	}{
		{`{` + rec + `, "label": 3, "LABEL": 0}`, `"label" and "LABEL": one key spelled twice`},
		{`{` + rec + `, "label": 3, "label": 0}`, `"label" twice`},
		{`{` + rec + `, "label": 3, "Reason": "other"}`, `"reason" and "Reason"`},
		{`{` + rec + `, "label": 1, "fix": {"a": "p", "A": "q"}}`, `"fix": "a" and "A"`},
		// The decoder folds U+017F (long s) to "s": "reaſon" is "reason".
		{`{` + rec + `, "label": 3, "reaſon": "other"}`, `"reason" and "reaſon"`},
	}
	for _, c := range records {
		_, err := Parse([]byte(c.line + "\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s): %v, want an error with %q", c.line, err, c.want)
		}
	}
	if _, err := Parse([]byte(`{` + rec + `, "label": 3}` + "\n")); err != nil {
		t.Errorf("a plain line refused: %v", err)
	}
	answers := []struct {
		answer, want string
	}{
		{`{"label": 3, "reason": "same", "LABEL": 0}`, `"label" and "LABEL"`},
		{`{"label": 3, "reason": "same", "label": 0}`, `"label" twice`},
		{`{"label": 2, "reason": "a", "REASON": "b"}`, `"reason" and "REASON"`},
		{`{"label": 2, "reason": "a", "REAſON": "b"}`, `"reason" and "REAſON"`},
	}
	// The Kelvin sign U+212A folds to "k" as the decoder folds it.
	for _, k := range []string{"k", "K", "K"} {
		if foldKey("o"+k) != foldKey("OK") {
			t.Errorf("foldKey(%q) = %q, foldKey(%q) = %q", "o"+k, foldKey("o"+k), "OK", foldKey("OK"))
		}
	}
	for _, c := range answers {
		_, err := ParseAnswer(c.answer)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseAnswer(%s): %v, want an error with %q", c.answer, err, c.want)
		}
	}
}

// rawHidden is what no record file may hold raw: a bidi override, a C1
// control, tag characters.
const rawHidden = "say \u202eevil\u202c \u0085 \U000E0049\U000E0047"

// TestRecordsKeepNoRawHiddenCharacters: the judgments file, the judgment
// cache and the probe record write a model's text with such characters
// escaped, and read it back the same.
func TestRecordsKeepNoRawHiddenCharacters(t *testing.T) {
	hasRaw := func(data []byte) bool {
		for _, r := range string(data) {
			if r == 0x202e || r == 0x85 || r >= 0xe0000 && r <= 0xe007f {
				return true
			}
		}
		return false
	}
	dir := t.TempDir()
	j := Judgment{A: "a", B: "b", Label: 2, Reason: rawHidden, By: "openai:m", Prompt: PromptVersion, Texts: "sha256:x"}

	file := filepath.Join(dir, FileName)
	if _, err := Record(file, []Judgment{j}); err != nil {
		t.Fatal(err)
	}
	c := OpenCache(filepath.Join(dir, "cache"))
	c.Store(j, "http://127.0.0.1:1/v1/chat/completions")
	record := filepath.Join(dir, ProbeFileName)
	p := Probe{Model: "openai:m", Cases: []ProbeCase{{Tool: "a", Request: rawHidden, Picked: "b"}}}
	if err := NewProbeRecord(p, []Tool{{Name: "a"}, {Name: "b"}}, time.Now()).WriteFile(record); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{file, filepath.Join(dir, "cache", CacheFile), record} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if hasRaw(data) {
			t.Errorf("%s holds raw hidden characters:\n%s", filepath.Base(path), data)
		}
	}
	back, err := ReadFile(file)
	if err != nil || back.All()[0].Reason != rawHidden {
		t.Errorf("the judgments file read back %v, %v", back.All(), err)
	}
	if c2 := OpenCache(filepath.Join(dir, "cache")); c2.Len() != 1 || c2.All()[0].Reason != rawHidden {
		t.Errorf("the cache read back %v", c2.All())
	}
	pr, err := ReadProbeFile(record)
	if err != nil || pr.Cases[0].Request != rawHidden {
		t.Errorf("the probe record read back %+v, %v", pr, err)
	}
}

// TestCacheIsKeyedByEndpoint: a judgment one server made under model name
// M does not replay for M at another server; at its own server it does.
func TestCacheIsKeyedByEndpoint(t *testing.T) {
	dir := t.TempDir()
	at := func(url string) *Model {
		m, err := New(Options{Model: "m", BaseURL: url, Getenv: env{}.get})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	one, other := at("http://127.0.0.1:1/v1"), at("http://127.0.0.1:2/v1")
	j := Judgment{A: limitPair.A.Name, B: limitPair.B.Name, Label: 0, Reason: "told apart", By: one.ID(), Prompt: PromptVersion, Texts: limitPair.TextHash()}
	OpenCache(dir).Store(j, one.Endpoint())
	cache := OpenCache(dir)
	if plan := NewPlan(other, []Pair{limitPair}, nil, cache, 0); plan.Results[0].Status == Replayed {
		t.Error("another server's answer replayed")
	}
	if plan := NewPlan(one, []Pair{limitPair}, nil, cache, 0); plan.Results[0].Status != Replayed {
		t.Error("the server's own answer not replayed")
	}
}
