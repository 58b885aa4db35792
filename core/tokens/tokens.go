// Package tokens counts what a tool catalog costs a model: each tool's
// definition and the whole catalog in tokens, with OpenAI's byte-pair
// encodings (o200k_base, cl100k_base) embedded in the binary, and labelled
// estimates for providers whose tokenizers are not public.
package tokens

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// Encoding names a byte-pair encoding.
type Encoding string

// The embedded encodings: o200k_base (GPT-4o, GPT-4.1, o-series) and
// cl100k_base (GPT-4, GPT-3.5, and the text-embedding-3 models).
const (
	O200k  Encoding = "o200k_base"
	Cl100k Encoding = "cl100k_base"
)

// The estimate factors for providers that publish no tokenizer, applied to
// the o200k_base count. They are rules of thumb, not measurements:
// Anthropic's tokenizer is taken to cut English and JSON about 20% finer
// than o200k_base, Gemini's about as fine. Figures built on them are
// labelled estimates everywhere.
const (
	AnthropicPerO200k = 1.2
	GeminiPerO200k    = 1.0
)

var (
	codecs   = map[Encoding]*codec.Codec{}
	codecsMu sync.Mutex
)

// get loads an encoding's vocabulary on first use (it is large: loading
// o200k_base takes a noticeable fraction of a second), once per process.
func get(e Encoding) (*codec.Codec, error) {
	codecsMu.Lock()
	defer codecsMu.Unlock()
	if c, ok := codecs[e]; ok {
		return c, nil
	}
	var c *codec.Codec
	switch e {
	case O200k:
		c = codec.NewO200kBase()
	case Cl100k:
		c = codec.NewCl100kBase()
	default:
		return nil, fmt.Errorf("unknown encoding %q (o200k_base or cl100k_base)", string(e))
	}
	// Invalid UTF-8 counts as the replacement character, as a JSON request
	// body would carry it.
	c.SetErrorMode(codec.ErrorModeReplace)
	codecs[e] = c
	return c, nil
}

// Count is the number of tokens in s under e, reading special-token
// spellings such as "<|endoftext|>" as plain text (as a tool definition's
// text is sent).
func Count(e Encoding, s string) (int, error) {
	c, err := get(e)
	if err != nil {
		return 0, err
	}
	return c.Count(s)
}

// MustCount is Count for the embedded encodings, which cannot fail.
func MustCount(e Encoding, s string) int {
	n, err := Count(e, s)
	if err != nil {
		panic("tokens: " + err.Error())
	}
	return n
}

// Definition is a tool as a chat request carries it in "tools": OpenAI's
// {"type":"function","function":{name, description, parameters}}, compact,
// the schema's members in the catalog's order.
func Definition(t *catalog.Tool) string {
	fn := struct {
		Name        string       `json:"name"`
		Description string       `json:"description"`
		Parameters  *jsonv.Value `json:"parameters,omitempty"`
	}{t.Name, t.Description, t.Schema}
	b, err := json.Marshal(map[string]any{"type": "function", "function": fn})
	if err != nil {
		// A parsed catalog always marshals; count the texts if not.
		return t.Name + " " + t.Description
	}
	return string(b)
}

// Tool is one tool's token counts.
type Tool struct {
	Name  string `json:"name"`
	O200k int    `json:"o200k_base"`
	// Cl100k is 0 (and left out of JSON) when it was not measured.
	Cl100k int `json:"cl100k_base,omitempty"`
	// AnthropicEstimate and GeminiEstimate come from the factors above.
	AnthropicEstimate int `json:"anthropicEstimate"`
	GeminiEstimate    int `json:"geminiEstimate"`
}

// Catalog is a catalog's token counts: per tool, in catalog order, and the
// sums, which is what every request carrying the whole catalog pays.
type Catalog struct {
	Tools []Tool `json:"tools"`
	Total Tool   `json:"total"`
	// Context is the context window the share is taken of, in tokens.
	Context int `json:"context"`
	// Share is the catalog's o200k_base total over Context.
	Share float64 `json:"share"`
	// Estimated names the figures that are estimates.
	Estimated []string `json:"estimated"`
}

// DefaultContext is the context window a share is taken of by default.
const DefaultContext = 128_000

// Measure counts every tool of c under o200k_base, and cl100k_base too
// when withCl100k; context is the window for Share (0 is DefaultContext).
// The tools are counted in parallel, one share per CPU.
func Measure(c *catalog.Catalog, context int, withCl100k bool) Catalog {
	if context <= 0 {
		context = DefaultContext
	}
	out := Catalog{Tools: make([]Tool, len(c.Tools)), Context: context,
		Estimated: []string{"anthropicEstimate", "geminiEstimate"}}
	workers := min(runtime.GOMAXPROCS(0), max(len(c.Tools)/8, 1))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(c.Tools); i += workers {
				t := c.Tools[i]
				def := Definition(t)
				tc := Tool{Name: t.Name, O200k: MustCount(O200k, def)}
				if withCl100k {
					tc.Cl100k = MustCount(Cl100k, def)
				}
				tc.AnthropicEstimate = Estimate(tc.O200k, AnthropicPerO200k)
				tc.GeminiEstimate = Estimate(tc.O200k, GeminiPerO200k)
				out.Tools[i] = tc
			}
		})
	}
	wg.Wait()
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

// Estimate scales a count by a factor, rounding up.
func Estimate(n int, factor float64) int {
	return int(math.Ceil(float64(n) * factor))
}
