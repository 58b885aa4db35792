package tokens

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

func TestDefinitionWritesWhatEncodingJSONWrites(t *testing.T) {
	schema := func(s string) *jsonv.Value {
		v, err := jsonv.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name string
		tool catalog.Tool
	}{
		{"no schema", catalog.Tool{Name: "a", Description: "reads"}},
		{"empty everything", catalog.Tool{}},
		{"html in texts", catalog.Tool{Name: "a<b>&c", Description: "x < y && y > z", Schema: schema(`{"type":"object","description":"<b>&amp;</b>"}`)}},
		{"line separators", catalog.Tool{Name: "n\u2028", Description: "d\u2029e", Schema: schema(`{"description":"a\u2028b\u2029c"}`)}},
		{"escapes and controls", catalog.Tool{Name: "q\"\\", Description: "tab\there\nnl\x01", Schema: schema(`{"d":"\"\\\n\t\u0001\u001f"}`)}},
		{"invalid utf-8", catalog.Tool{Name: "bad\xff", Description: "\xc3(", Schema: &jsonv.Value{Kind: jsonv.Object,
			Members: []jsonv.Member{{Key: "d\xfe", Value: jsonv.NewString("\xff<")}}}}},
		{"numbers kept as written", catalog.Tool{Name: "n", Schema: schema(`{"minimum":1.50,"maximum":1e3,"enum":[-0,2E-2]}`)}},
		{"member order kept", catalog.Tool{Name: "o", Schema: schema(`{"z":1,"a":{"y":[],"b":{}},"m":null,"t":true}`)}},
		{"a number JSON cannot hold", catalog.Tool{Name: "nan", Description: "d", Schema: &jsonv.Value{Kind: jsonv.Object,
			Members: []jsonv.Member{{Key: "max", Value: jsonv.NewNumber("NaN")}}}}},
		{"a number with a leading zero", catalog.Tool{Name: "z", Schema: &jsonv.Value{Kind: jsonv.Array, Items: []*jsonv.Value{jsonv.NewNumber("1"), jsonv.NewNumber("01")}}}},
		{"a number with spaces", catalog.Tool{Name: "s", Schema: &jsonv.Value{Kind: jsonv.Array, Items: []*jsonv.Value{jsonv.NewNumber(" 1 ")}}}},
		{"an empty number", catalog.Tool{Name: "e", Schema: jsonv.NewNumber("")}},
		{"numbers JSON can hold", catalog.Tool{Name: "ok", Schema: &jsonv.Value{Kind: jsonv.Array, Items: []*jsonv.Value{
			jsonv.NewNumber("0"), jsonv.NewNumber("-0.5"), jsonv.NewNumber("12e+3"), jsonv.NewNumber("1E-9")}}}},
		{"non-latin", catalog.Tool{Name: "检索", Description: "Поиск 🔍 بحث", Schema: schema(`{"description":"日本語 &"}`)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, want := Definition(&tc.tool), definitionMarshalled(&tc.tool)
			if got != want {
				t.Errorf("Definition:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// sharedCatalogs are the real catalogs beside the repository.
func sharedCatalogs(t testing.TB) []*catalog.Catalog {
	files, _ := filepath.Glob("../../../shared/catalogs/*/*.json")
	if len(files) == 0 {
		t.Skip("the shared catalogs are not beside the repository (../shared/catalogs)")
	}
	var out []*catalog.Catalog
	for _, f := range files {
		c, err := catalog.Load(f, nil)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, c)
	}
	return out
}

func TestDefinitionOnSharedCatalogs(t *testing.T) {
	n := 0
	for _, c := range sharedCatalogs(t) {
		for _, tool := range c.Tools {
			if got, want := Definition(tool), definitionMarshalled(tool); got != want {
				t.Fatalf("%s: %s:\n got %s\nwant %s", c.Source, tool.Name, got, want)
			}
			n++
		}
	}
	t.Logf("%d definitions written as encoding/json writes them", n)
}

func TestJSONNumber(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"0", true}, {"-0", true}, {"10", true}, {"1.5", true}, {"1e5", true}, {"1E+5", true}, {"-2.5e-3", true},
		{"", false}, {"-", false}, {"01", false}, {"1.", false}, {".5", false}, {"1e", false}, {"1e+", false},
		{"+1", false}, {"NaN", false}, {"Infinity", false}, {"1 ", false}, {"0x10", false},
	} {
		if got := jsonNumber(tc.s); got != tc.want {
			t.Errorf("jsonNumber(%q) = %v, want %v", tc.s, got, tc.want)
		}
		if got := jsonNumber(tc.s); got && !json.Valid([]byte(tc.s)) {
			t.Errorf("jsonNumber(%q) = %v, json.Valid disagrees", tc.s, got)
		}
	}
}

func FuzzDefinition(f *testing.F) {
	f.Add("read", "Reads a file.", `{"type":"object","properties":{"path":{"type":"string"}}}`)
	f.Add("a<b", "x\u2028&y", `{"d":"<\u2029>"}`)
	f.Add("\xff", "\x00", `[1.0,-2e5,"\xfe"]`)
	f.Fuzz(func(t *testing.T, name, desc, schema string) {
		tool := catalog.Tool{Name: name, Description: desc}
		if v, err := jsonv.Parse([]byte(schema)); err == nil {
			tool.Schema = v
		}
		if got, want := Definition(&tool), definitionMarshalled(&tool); got != want {
			t.Fatalf("Definition:\n got %q\nwant %q", got, want)
		}
	})
}

// memStore is a Store in memory that counts what it is asked.
type memStore struct {
	mu              sync.Mutex
	counts          map[string]int
	lookups, stored int
}

func (s *memStore) LookupCounts(identity string, texts []string) []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]int, len(texts))
	for i, t := range texts {
		s.lookups++
		n, ok := s.counts[identity+"\x00"+t]
		if !ok {
			n = -1
		}
		out[i] = n
	}
	return out
}

func (s *memStore) KeepCounts(identity string, texts []string, counts []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, t := range texts {
		s.stored++
		s.counts[identity+"\x00"+t] = counts[i]
	}
}

func TestMeterCountsAsCountDoes(t *testing.T) {
	texts := []string{"", "hello world", "hello world", "<|endoftext|> is text", "\xff\xfe bad", strings.Repeat("ab ", 500), "日本語のテキスト"}
	for _, e := range []Encoding{O200k, Cl100k} {
		for _, store := range []*memStore{nil, {counts: map[string]int{}}} {
			name := string(e) + "/memory"
			var m *Meter
			if store != nil {
				name = string(e) + "/store"
				m = NewMeter(store)
			} else {
				m = NewMeter(nil)
			}
			t.Run(name, func(t *testing.T) {
				for pass := range 2 {
					got, err := m.Counts(e, texts)
					if err != nil {
						t.Fatal(err)
					}
					for i, s := range texts {
						if want := MustCount(e, s); got[i] != want {
							t.Errorf("pass %d: %q: %d tokens, Count says %d", pass, s, got[i], want)
						}
					}
				}
				if store != nil && store.stored != len(texts)-1 {
					t.Errorf("the store was given %d counts, want each of the %d distinct texts once", store.stored, len(texts)-1)
				}
				if store != nil && store.lookups != len(texts)-1 {
					t.Errorf("the store was asked %d times, want once per distinct text (the second pass from memory)", store.lookups)
				}
			})
		}
	}
}

func TestMeterAnswersFromTheStore(t *testing.T) {
	store := &memStore{counts: map[string]int{}}
	texts := []string{"alpha beta", "gamma"}
	if _, err := NewMeter(store).Counts(O200k, texts); err != nil {
		t.Fatal(err)
	}
	// A later run's meter reads what the store holds, not the tokenizer:
	// a planted count proves it.
	store.counts[Identity(O200k)+"\x00gamma"] = 99
	got, err := NewMeter(store).Counts(O200k, texts)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{MustCount(O200k, "alpha beta"), 99}; !slices.Equal(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	// Another encoding's counts are kept apart.
	got, _ = NewMeter(store).Counts(Cl100k, []string{"gamma"})
	if got[0] != MustCount(Cl100k, "gamma") {
		t.Errorf("cl100k_base read o200k_base's stored count: %d", got[0])
	}
}

func TestMeterRejectsUnknownEncoding(t *testing.T) {
	if _, err := NewMeter(nil).Counts("p50k_base", []string{"x"}); err == nil || !strings.Contains(err.Error(), "p50k_base") {
		t.Errorf("err = %v, want one naming the encoding", err)
	}
}

func TestIdentityNamesEncodingAndVersion(t *testing.T) {
	o, c := Identity(O200k), Identity(Cl100k)
	if o == c || !strings.Contains(o, "o200k_base") || !strings.Contains(c, "cl100k_base") {
		t.Errorf("identities %q and %q", o, c)
	}
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mod), "github.com/tiktoken-go/tokenizer "+tokenizerVersion+"\n") {
		t.Errorf("go.mod does not require the tokenizer at %s: bump tokenizerVersion with it (stored counts are keyed by it)", tokenizerVersion)
	}
}

func TestMeasureWithMeterEqualsPerToolCounts(t *testing.T) {
	cats := sharedCatalogs(t)
	store := &memStore{counts: map[string]int{}}
	for _, c := range cats {
		if len(c.Tools) > 300 {
			c.Tools = c.Tools[:300]
		}
		for pass, m := range []*Meter{NewMeter(store), NewMeter(store)} {
			got := m.Measure(c, 0, true)
			for i, tool := range c.Tools {
				def := definitionMarshalled(tool)
				want := Tool{Name: tool.Name, O200k: MustCount(O200k, def), Cl100k: MustCount(Cl100k, def)}
				want.AnthropicEstimate = Estimate(want.O200k, AnthropicPerO200k)
				want.GeminiEstimate = Estimate(want.O200k, GeminiPerO200k)
				if got.Tools[i] != want {
					t.Fatalf("%s pass %d: %s: %+v, want %+v", c.Source, pass, tool.Name, got.Tools[i], want)
				}
			}
		}
	}
	if store.stored == 0 {
		t.Error("nothing was stored")
	}

}

func TestMeterAnsweredFromStoreLoadsNoVocabulary(t *testing.T) {
	store := &memStore{counts: map[string]int{}}
	texts := []string{"one tool", "another tool"}
	if _, err := NewMeter(store).Counts(O200k, texts); err != nil {
		t.Fatal(err)
	}
	codecsMu.Lock()
	saved := codecs
	codecs = map[Encoding]*codec.Codec{}
	codecsMu.Unlock()
	defer func() {
		codecsMu.Lock()
		codecs = saved
		codecsMu.Unlock()
	}()
	if _, err := NewMeter(store).Counts(O200k, texts); err != nil {
		t.Fatal(err)
	}
	codecsMu.Lock()
	loaded := len(codecs)
	codecsMu.Unlock()
	if loaded != 0 {
		t.Error("the vocabulary was loaded for counts the store held")
	}
	if _, err := NewMeter(store).Counts(O200k, []string{"a new text"}); err != nil {
		t.Fatal(err)
	}
	codecsMu.Lock()
	loaded = len(codecs)
	codecsMu.Unlock()
	if loaded != 1 {
		t.Error("a text the store lacked was not counted with the vocabulary")
	}
}
