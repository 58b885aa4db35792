package tokens

import (
	"runtime"
	"sync"

	"toolscope/core/catalog"
)

// Store keeps counts between runs (the vector cache keeps them beside the
// vectors: see embed/cache). Its methods are safe for concurrent use.
type Store interface {
	// LookupCounts returns the stored count of each text under identity,
	// -1 where none is stored.
	LookupCounts(identity string, texts []string) []int
	// KeepCounts stores counts of texts under identity.
	KeepCounts(identity string, texts []string, counts []int)
}

// Identity names how an encoding counts, for a Store's keys: the encoding,
// the tokenizer library's version and the counting's mode (invalid UTF-8
// as the replacement character, special-token spellings as plain text). A
// new version of the library counts afresh.
func Identity(e Encoding) string {
	return "tokens " + string(e) + " tiktoken-go/tokenizer " + tokenizerVersion + " replace plain"
}

// tokenizerVersion is the version of github.com/tiktoken-go/tokenizer that
// go.mod requires (a test holds them together).
const tokenizerVersion = "v0.10.0"

// A Meter counts texts under the embedded encodings, each distinct text
// once per Meter and, with a Store, once across runs. It is safe for
// concurrent use; the zero value is not: use NewMeter.
type Meter struct {
	store Store
	mu    sync.Mutex
	memo  map[Encoding]map[string]int
}

// NewMeter returns a Meter that keeps its counts in s (nil: in memory
// only).
func NewMeter(s Store) *Meter {
	return &Meter{store: s, memo: map[Encoding]map[string]int{}}
}

// Counts returns the number of tokens of each text under e, as Count
// does. It fails only for an encoding that is not embedded.
func (m *Meter) Counts(e Encoding, texts []string) ([]int, error) {
	// The vocabulary loads only when something is left to count: a run
	// answered from the store never pays for it.
	if e != O200k && e != Cl100k {
		_, err := get(e)
		return nil, err
	}
	out := make([]int, len(texts))
	var missing []int
	m.mu.Lock()
	memo := m.memo[e]
	if memo == nil {
		memo = map[string]int{}
		m.memo[e] = memo
	}
	for i, t := range texts {
		if n, ok := memo[t]; ok {
			out[i] = n
		} else {
			missing = append(missing, i)
		}
	}
	m.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}

	// Each distinct missing text once: first from the store, then counted.
	first := make(map[string]int, len(missing))
	var todo []string
	for _, i := range missing {
		if _, ok := first[texts[i]]; !ok {
			first[texts[i]] = len(todo)
			todo = append(todo, texts[i])
		}
	}
	counts := make([]int, len(todo))
	var fresh []int
	if m.store != nil {
		stored := m.store.LookupCounts(Identity(e), todo)
		for j, n := range stored {
			if n >= 0 {
				counts[j] = n
			} else {
				fresh = append(fresh, j)
			}
		}
	} else {
		fresh = make([]int, len(todo))
		for j := range fresh {
			fresh[j] = j
		}
	}
	countParallel(e, todo, fresh, counts)
	if m.store != nil && len(fresh) > 0 {
		keep := make([]string, len(fresh))
		kept := make([]int, len(fresh))
		for k, j := range fresh {
			keep[k], kept[k] = todo[j], counts[j]
		}
		m.store.KeepCounts(Identity(e), keep, kept)
	}

	m.mu.Lock()
	for j, t := range todo {
		memo[t] = counts[j]
	}
	m.mu.Unlock()
	for _, i := range missing {
		out[i] = counts[first[texts[i]]]
	}
	return out, nil
}

// countParallel counts texts[j] into counts[j] for each j of which, one
// share per CPU, each share chunk by chunk (chunks.go).
func countParallel(e Encoding, texts []string, which, counts []int) {
	workers := min(runtime.GOMAXPROCS(0), max(len(which)/8, 1))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			cc := chunkCounter{e: e, seen: map[string]int{}}
			for k := w; k < len(which); k += workers {
				j := which[k]
				counts[j] = cc.count(texts[j])
			}
		})
	}
	wg.Wait()
}

// mustCounts is Counts for the embedded encodings, which cannot fail.
func (m *Meter) mustCounts(e Encoding, texts []string) []int {
	out, err := m.Counts(e, texts)
	if err != nil {
		panic("tokens: " + err.Error())
	}
	return out
}

// Definitions returns the Definition of each tool, in order, written in
// parallel.
func Definitions(tools []*catalog.Tool) []string {
	defs := make([]string, len(tools))
	workers := min(runtime.GOMAXPROCS(0), max(len(tools)/64, 1))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(tools); i += workers {
				defs[i] = Definition(tools[i])
			}
		})
	}
	wg.Wait()
	return defs
}

// Measure counts every tool of c under o200k_base, and cl100k_base too
// when withCl100k; context is the window for Share (0 is DefaultContext).
func (m *Meter) Measure(c *catalog.Catalog, context int, withCl100k bool) Catalog {
	if context <= 0 {
		context = DefaultContext
	}
	out := Catalog{Tools: make([]Tool, len(c.Tools)), Context: context,
		Estimated: []string{"anthropicEstimate", "geminiEstimate"}}
	defs := Definitions(c.Tools)
	o200k := m.mustCounts(O200k, defs)
	var cl100k []int
	if withCl100k {
		cl100k = m.mustCounts(Cl100k, defs)
	}
	for i, t := range c.Tools {
		tc := Tool{Name: t.Name, O200k: o200k[i]}
		if withCl100k {
			tc.Cl100k = cl100k[i]
		}
		tc.AnthropicEstimate = Estimate(tc.O200k, AnthropicPerO200k)
		tc.GeminiEstimate = Estimate(tc.O200k, GeminiPerO200k)
		out.Tools[i] = tc
	}
	out.Total.Name = "(catalog)"
	for _, tc := range out.Tools {
		out.Total.O200k += tc.O200k
		out.Total.Cl100k += tc.Cl100k
	}
	out.Total.AnthropicEstimate = Estimate(out.Total.O200k, AnthropicPerO200k)
	out.Total.GeminiEstimate = Estimate(out.Total.O200k, GeminiPerO200k)
	out.Share = float64(out.Total.O200k) / float64(context)
	return out
}
