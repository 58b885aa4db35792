// Package tokens counts what a tool catalog costs a model: each tool's
// definition and the whole catalog in tokens, with OpenAI's byte-pair
// encodings (o200k_base, cl100k_base) embedded in the binary, and labelled
// estimates for providers whose tokenizers are not public.
package tokens

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
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
// the schema's members in the catalog's order, written as encoding/json
// writes it (members in key order, <, > and & escaped).
func Definition(t *catalog.Tool) string {
	name, err1 := json.Marshal(t.Name)
	desc, err2 := json.Marshal(t.Description)
	if t.Schema != nil && !validNumbers(t.Schema) {
		// Not from a parsed catalog: encoding/json decides.
		return definitionMarshalled(t)
	}
	if err1 != nil || err2 != nil {
		return t.Name + " " + t.Description
	}
	b := make([]byte, 0, len(name)+len(desc)+len(t.Description)+256)
	b = append(b, `{"function":{"name":`...)
	b = append(b, name...)
	b = append(b, `,"description":`...)
	b = append(b, desc...)
	if t.Schema != nil {
		b = append(b, `,"parameters":`...)
		at := len(b)
		b = t.Schema.AppendJSON(b)
		if needsHTMLEscape(b[at:]) {
			b = appendHTMLEscaped(b[:at], slices.Clone(b[at:]))
		}
	}
	b = append(b, `},"type":"function"}`...)
	return string(b)
}

// needsHTMLEscape reports whether appendHTMLEscaped would change src.
func needsHTMLEscape(src []byte) bool {
	for i, c := range src {
		if c == '<' || c == '>' || c == '&' || c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8 {
			return true
		}
	}
	return false
}

// definitionMarshalled is Definition as encoding/json writes it.
func definitionMarshalled(t *catalog.Tool) string {
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

// validNumbers reports whether every number in v is written as JSON
// writes numbers, with no space around it: then v's JSON is valid and
// compact, as a parsed catalog's always is.
func validNumbers(v *jsonv.Value) bool {
	if v == nil {
		return true
	}
	switch v.Kind {
	case jsonv.Number:
		return jsonNumber(v.Text)
	case jsonv.Array:
		for _, it := range v.Items {
			if !validNumbers(it) {
				return false
			}
		}
	case jsonv.Object:
		for _, m := range v.Members {
			if !validNumbers(m.Value) {
				return false
			}
		}
	}
	return true
}

// jsonNumber reports whether s is a JSON number:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func jsonNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// appendHTMLEscaped appends src with <, >, & and U+2028, U+2029 written as
// \u escapes, as encoding/json writes a Marshaler's output (which is valid,
// compact JSON here: the escapes can only fall inside strings).
func appendHTMLEscaped(dst, src []byte) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '<' || c == '>' || c == '&' {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			start = i + 1
		}
		if c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8 {
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[src[i+2]&0xF])
			start = i + 3
		}
	}
	return append(dst, src[start:]...)
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
// The tools are counted in parallel, one share per CPU, each distinct
// definition once.
func Measure(c *catalog.Catalog, context int, withCl100k bool) Catalog {
	return NewMeter(nil).Measure(c, context, withCl100k)
}

// Estimate scales a count by a factor, rounding up.
func Estimate(n int, factor float64) int {
	return int(math.Ceil(float64(n) * factor))
}
