package use

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"toolscope/embed"
)

// tolerance is the largest difference allowed between a component and the
// JavaScript runtime's: the float16 weights cost about 3e-4 (float32
// weights reach 6e-7, models/use-lite.md §5).
const tolerance = 1e-3

// reference is testdata/reference.json, written by testdata/ref/make-vectors.mjs
// with the model's own JavaScript runtime.
type reference struct {
	Sentences []struct {
		Text   string    `json:"text"`
		IDs    []int     `json:"ids"`
		Vector []float64 `json:"vector"`
	} `json:"sentences"`
}

func readReference(t testing.TB) reference {
	t.Helper()
	data, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	if len(ref.Sentences) < 30 {
		t.Fatalf("reference has %d sentences, want at least 30", len(ref.Sentences))
	}
	return ref
}

func embedAll(t testing.TB, texts ...string) [][]float32 {
	t.Helper()
	got, err := New().Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(texts) {
		t.Fatalf("%d vectors for %d texts", len(got), len(texts))
	}
	return got
}

func maxAbsDiff(a []float32, b []float64) float64 {
	d := 0.0
	for k := range b {
		d = math.Max(d, math.Abs(float64(a[k])-b[k]))
	}
	return d
}

func length(v []float32) float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestMatchesJavaScriptReference(t *testing.T) {
	ref := readReference(t)
	texts := make([]string, len(ref.Sentences))
	for i, s := range ref.Sentences {
		texts[i] = s.Text
	}
	got := embedAll(t, texts...)
	tok := testTokenizer(t)
	worst, worstText := 0.0, ""
	for i, s := range ref.Sentences {
		ids := tok.encode(s.Text)
		if len(s.IDs) == 0 {
			s.IDs = nil
		}
		if !slices.Equal(ids, s.IDs) {
			t.Errorf("%q: ids %v, want %v", s.Text, ids, s.IDs)
		}
		if len(got[i]) != Dimensions {
			t.Fatalf("%q: %d dimensions", s.Text, len(got[i]))
		}
		if d := maxAbsDiff(got[i], s.Vector); d > tolerance {
			t.Errorf("%q: a component is %.2e off the reference", s.Text, d)
		} else if d > worst {
			worst, worstText = d, s.Text
		}
		if n := length(got[i]); math.Abs(n-1) > 1e-6 {
			t.Errorf("%q: norm %.9f", s.Text, n)
		}
	}
	t.Logf("largest component error %.2e (%q)", worst, worstText)
}

// The check values of models/use-lite.md §6, printed to 6 decimals there.
func TestCheckValues(t *testing.T) {
	tests := []struct {
		text string
		want []float64
	}{
		{"hello", []float64{0.041678, -0.022363, -0.047608, -0.049279}},
		{"delete a file", []float64{-0.054278, -0.054254, 0.044859, 0.053892}},
		{"The quick brown fox jumps over the lazy dog.", []float64{-0.013534, -0.042564, 0.036843, -0.005918}},
		{"Meet me at 10:30 — café ☕ 東京!", []float64{-0.012838, -0.012836, -0.055351, -0.000436}},
		{strings.TrimSpace(strings.Repeat("the cat sat on the mat ", 30)), []float64{0.055614, -0.045386, -0.074556, -0.043367}},
	}
	for _, tt := range tests {
		got := embedAll(t, tt.text)[0]
		if d := maxAbsDiff(got, tt.want); d > tolerance {
			t.Errorf("%q: %v, want %v", tt.text, got[:4], tt.want)
		}
	}
}

func TestEmptyTextsGetTheNoTokenVector(t *testing.T) {
	// The JavaScript runtime gives an empty text mid-batch l2norm(tanh(bt)).
	want := []float64{0.002355, -0.034875, 0.013102, -0.021176}
	// A trailing empty text gets no row there; here it gets the same one.
	got := embedAll(t, "hello", "", "delete a file", "")
	if d := maxAbsDiff(got[1], want); d > tolerance {
		t.Errorf("empty text: %v, want %v", got[1][:4], want)
	}
	if !slices.Equal(got[3], got[1]) {
		t.Error("a trailing empty text differs from one mid-batch")
	}
	if only := embedAll(t, "", ""); !slices.Equal(only[0], got[1]) || !slices.Equal(only[1], got[1]) {
		t.Error("an all-empty batch gives a different vector")
	}
	got[1][0] = 42 // callers own their vectors
	if embedAll(t, "")[0][0] == 42 {
		t.Error("empty texts share one slice")
	}
}

func TestOnlyTheFirst128TokensCount(t *testing.T) {
	tok := testTokenizer(t)
	long := strings.TrimSpace(strings.Repeat("the cat sat on the mat ", 30))
	cut := strings.TrimSpace(strings.Repeat("the cat sat on the mat ", 19)) // 133 tokens
	if n := len(tok.encode(cut)); n <= MaxTokens {
		t.Fatalf("cut text has %d tokens, want more than %d", n, MaxTokens)
	}
	got := embedAll(t, long, cut, "the cat sat on the mat")
	if !slices.Equal(got[0], got[1]) {
		t.Error("texts agreeing on their first 128 tokens embed differently")
	}
	if slices.Equal(got[0], got[2]) {
		t.Error("a 7-token text embeds like a 128-token one")
	}
}

func TestHugeTextsAreCutBeforeTokenizing(t *testing.T) {
	sentence := "the cat sat on the mat é "
	got := embedAll(t, strings.Repeat(sentence, 1<<20/len(sentence)), strings.Repeat(sentence, 30))
	if !slices.Equal(got[0], got[1]) {
		t.Error("a megabyte of text embeds unlike its first 128 tokens")
	}
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"aé", 2, "a"}, // é is two bytes: cut before it, not inside
		{"éé", 3, "é"},
	} {
		if got := head(tt.in, tt.n); got != tt.want {
			t.Errorf("head(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestBatchingDoesNotChangeVectors(t *testing.T) {
	ref := readReference(t)
	var texts []string
	for range 3 { // more than one batch of batchTokens
		for _, s := range ref.Sentences {
			texts = append(texts, s.Text)
		}
	}
	batched := embedAll(t, texts...)
	for i, text := range texts[:len(ref.Sentences)] {
		alone := embedAll(t, text)[0]
		for _, j := range []int{i, i + len(ref.Sentences), i + 2*len(ref.Sentences)} {
			for k := range alone {
				if math.Abs(float64(alone[k]-batched[j][k])) > 1e-6 {
					t.Fatalf("%q: alone and in a batch differ at %d: %g vs %g", text, k, alone[k], batched[j][k])
				}
			}
		}
	}
}

func TestProgressAndCancellation(t *testing.T) {
	texts := make([]string, 400) // about 4,000 tokens: several batches
	for i := range texts {
		texts[i] = "list the volumes in a storage pool with their size"
	}
	var calls [][2]int
	e := &Encoder{Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }}
	if _, err := e.Embed(context.Background(), texts); err != nil {
		t.Fatal(err)
	}
	if len(calls) < 2 || calls[len(calls)-1] != [2]int{len(texts), len(texts)} {
		t.Errorf("progress calls %v, want several ending at %d/%d", calls, len(texts), len(texts))
	}
	for i := 1; i < len(calls); i++ {
		if calls[i][0] <= calls[i-1][0] {
			t.Errorf("progress went from %v to %v", calls[i-1], calls[i])
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	e.Progress = func(done, total int) { cancel() }
	if _, err := e.Embed(ctx, texts); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled after the first batch: err = %v, want context.Canceled", err)
	}
}

func TestIdentity(t *testing.T) {
	var e embed.Embedder = New()
	if e.ID() != "use-lite" || e.Dimensions() != 512 {
		t.Errorf("ID %q, Dimensions %d", e.ID(), e.Dimensions())
	}
	tests := []struct {
		scoring string
		want    embed.Calibration
		ok      bool
	}{
		{"cosine", embed.Calibration{Threshold: 0.85, WatchBand: 0.05}, true},
		{"adaptive", embed.Calibration{Threshold: -0.04, WatchBand: 0.05}, true},
		{"other", embed.Calibration{}, false},
	}
	for _, tt := range tests {
		if got, ok := e.Calibration(tt.scoring); got != tt.want || ok != tt.ok {
			t.Errorf("Calibration(%q) = %v, %v; want %v, %v", tt.scoring, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRegisteredAsUse(t *testing.T) {
	e, err := embed.Open("use", embed.Options{})
	if err != nil || e.ID() != ID {
		t.Fatalf("Open(use) = %v, %v", e, err)
	}
	if _, err := embed.Open("use:large", embed.Options{}); err == nil || !strings.Contains(err.Error(), "no argument") {
		t.Errorf("use:large: %v", err)
	}
}

func TestConcurrentCallsAgree(t *testing.T) {
	texts := []string{"hello", "delete a file", "", "東京都の天気を取得します"}
	want := embedAll(t, texts...)
	e := New()
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, err := e.Embed(context.Background(), texts)
			for i := range got {
				if err == nil && !slices.Equal(got[i], want[i]) {
					err = errors.New("a concurrent call embedded " + texts[i] + " differently")
				}
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
