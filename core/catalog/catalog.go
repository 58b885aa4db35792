// Package catalog loads tool catalogs in every shape agents are given them
// (MCP tools/list, OpenAI Chat Completions and Responses, Anthropic, Gemini)
// into one list of tools that keeps the source's order, number text and the
// position of each tool, so findings can point back into the file.
//
// The shape is detected per entry, so a file may mix shapes. Every bad input
// is answered with one error naming the source, the entry (`tools[3]`) and
// what is wrong; nothing here panics on any input.
package catalog

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"toolscope/core/jsonv"
	"toolscope/core/safefile"
)

// MergedPrefix starts the source of catalogs linted as one (lint
// --merge): it is no file, and its results carry logical locations only.
const MergedPrefix = "merged:"

// MaxFileBytes is the largest catalog accepted.
const MaxFileBytes = 64 << 20

// Format names the shape an entry came in.
type Format string

// The shapes the loader knows.
const (
	FormatMCP             Format = "mcp"              // {name, description, inputSchema} (also the plain shape)
	FormatOpenAIChat      Format = "openai-chat"      // {type:function, function:{...}}
	FormatOpenAIResponses Format = "openai-responses" // {type:function, name, parameters}
	FormatAnthropic       Format = "anthropic"        // {name, description, input_schema}
	FormatGemini          Format = "gemini"           // {functionDeclarations:[...]}
)

// Tool is one tool as every part of toolscope sees it.
type Tool struct {
	// Index is the tool's place in the catalog, from 0.
	Index int
	// Entry names where the tool stands in the source, as `tools[3]` or
	// `tools[2].functionDeclarations[0]`.
	Entry string
	// Pointer is the JSON Pointer (RFC 6901) of the tool's entry from the
	// document's root ("/tools/3", "/2/functionDeclarations/0", "" for a
	// file that is one tool), for fixes that edit the file.
	Pointer     string
	Name        string
	Description string
	// HasDescription is false when the entry carries no description at all
	// (an empty string is a description, and an empty one).
	HasDescription bool
	// Schema is the input schema (inputSchema, parameters, input_schema), or
	// nil when the entry declares none.
	Schema *jsonv.Value
	Format Format
	// Pos is where the entry starts in the source.
	Pos jsonv.Pos
	// Strict is OpenAI's strict flag when the entry sets one.
	Strict *bool

	// MCP extras, kept to be shown.
	Title        string
	Annotations  *jsonv.Value
	OutputSchema *jsonv.Value
	Meta         *jsonv.Value

	// InputExamples are an Anthropic tool's input_examples: example
	// arguments (objects) the tool may be called with, not requests. nil
	// when the entry has none.
	InputExamples []*jsonv.Value

	// Declarations (SPEC §3): top-level keys, or the same keys inside _meta.
	AskOrAssume *jsonv.Value
	Period      *jsonv.Value
	Wants       *jsonv.Value

	// DuplicateKeys lists, as paths inside the entry, object keys the source
	// repeats (the last one wins); the lint reports them.
	DuplicateKeys []string

	// Raw is the whole entry as it stood in the source.
	Raw *jsonv.Value

	// Server is the mcp-config server a merged live catalog's tool came
	// from ("" otherwise); Name is then qualified as `server__tool`.
	Server string
	// ServedName is the name the server itself serves, when Name was
	// qualified by a merge.
	ServedName string
}

// OwnName is the tool's name as its server serves it: what a model reads
// of the tool once a host has stripped its own server qualifier. The
// similarity analysis compares tools by it, so two servers' twins are not
// told apart by the prefix a merge added.
func (t *Tool) OwnName() string {
	if t.ServedName != "" {
		return t.ServedName
	}
	return t.Name
}

// Catalog is a loaded list of tools.
type Catalog struct {
	// Source names where the catalog came from: a path, "-", "demo", or a
	// live server's address.
	Source string
	Tools  []*Tool
	// data is the text the catalog was parsed from, for fixes shown as
	// byte edits; nil for one built otherwise (a merge, a live server's).
	data []byte
}

// SourceBytes is the text the catalog was parsed from, nil when it was
// not parsed from one.
func (c *Catalog) SourceBytes() []byte { return c.data }

// Error is a load failure: where, and what.
type Error struct {
	Source string
	// Entry is `tools[3]` and the like, or "" for the file as a whole.
	Entry string
	Msg   string
	Pos   *jsonv.Pos
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Source)
	if e.Pos != nil {
		fmt.Fprintf(&b, ":%d:%d", e.Pos.Line, e.Pos.Col)
	}
	if e.Entry != "" {
		b.WriteString(": ")
		b.WriteString(e.Entry)
	}
	b.WriteString(": ")
	// One line whatever the message quotes (a server's error text).
	b.WriteString(lineBreaks.Replace(e.Msg))
	return b.String()
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")

// Load reads a catalog from a file, or from stdin when path is "-".
func Load(path string, stdin io.Reader) (*Catalog, error) {
	data, source, err := Read(path, stdin)
	if err != nil {
		return nil, err
	}
	return Parse(source, data)
}

// Read reads the bytes of a catalog from a file, or from stdin when path is
// "-", through the MaxFileBytes limit: a pipe, a FIFO or a device such as
// /dev/zero is read no further than the limit, whatever it holds. source is
// the name errors use ("stdin" for "-"). Errors are *Error values naming
// the source and, for size, the limit.
func Read(path string, stdin io.Reader) (data []byte, source string, err error) {
	if path == "-" {
		if stdin == nil {
			return nil, "stdin", &Error{Source: "stdin", Msg: "no standard input to read the catalog from"}
		}
		data, err = ReadLimited("stdin", stdin, 0)
		return data, "stdin", err
	}
	data, err = safefile.Read(path, safefile.ReadOptions{Max: MaxFileBytes, Streams: true})
	if err != nil {
		return nil, path, readError(path, err)
	}
	return data, path, nil
}

// readError is a safefile.Read error as an *Error naming source.
func readError(source string, err error) error {
	var big *safefile.TooLargeError
	switch {
	case errors.As(err, &big) && big.Size > 0:
		return &Error{Source: source, Msg: fmt.Sprintf("file is %d bytes, over the %d MiB limit", big.Size, MaxFileBytes>>20)}
	case errors.As(err, &big):
		return tooBig(source)
	}
	var se *safefile.Error
	if errors.As(err, &se) {
		err = se.Err
	}
	if errors.Is(err, safefile.ErrDirectory) {
		return &Error{Source: source, Msg: "is a directory, want a catalog file"}
	}
	return cannotRead(source, err)
}

// ReadLimited reads r to its end, or fails once it holds more than
// MaxFileBytes, having read no more than one byte past the limit. size is
// what r is expected to hold (0: unknown), to allocate once. Errors are
// *Error values naming source.
func ReadLimited(source string, r io.Reader, size int64) ([]byte, error) {
	data, err := safefile.ReadLimited(r, size, MaxFileBytes)
	if err != nil {
		return nil, readError(source, err)
	}
	return data, nil
}

func tooBig(source string) error {
	return &Error{Source: source, Msg: fmt.Sprintf("over the %d MiB input limit (reading stopped there)", MaxFileBytes>>20)}
}

func cannotRead(source string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Source: source, Msg: "cannot read: " + err.Error()}
}

// Parse reads a catalog from bytes; source names it in errors.
func Parse(source string, data []byte) (*Catalog, error) {
	if len(data) > MaxFileBytes {
		return nil, &Error{Source: source, Msg: fmt.Sprintf("input is %d bytes, over the %d MiB limit", len(data), MaxFileBytes>>20)}
	}
	root, err := jsonv.Parse(data)
	if err != nil {
		var se *jsonv.SyntaxError
		if errors.As(err, &se) {
			msg := "not valid JSON: " + se.Msg
			if looksLikeYAML(source, data) {
				msg += " (a catalog is JSON; this reads as YAML: convert it, e.g. with yq -o json)"
			}
			return nil, &Error{Source: source, Entry: entryAt(data, se.Pos.Offset), Pos: &se.Pos, Msg: msg}
		}
		return nil, &Error{Source: source, Msg: err.Error()}
	}
	c, err := FromValue(source, root)
	if err != nil {
		return nil, err
	}
	c.data = data
	return c, nil
}

// FromValue reads a catalog from an already parsed document.
func FromValue(source string, root *jsonv.Value) (*Catalog, error) {
	list, label, err := toolList(root)
	if err != nil {
		return nil, &Error{Source: source, Msg: err.Error()}
	}
	c := &Catalog{Source: source}
	for i, entry := range list.Items {
		where := fmt.Sprintf("%s[%d]", label, i)
		n := len(c.Tools)
		err := c.addEntry(entry, where)
		for _, t := range c.Tools[n:] {
			t.Pointer = entryPointer(root, list, i, entry, t.Raw)
		}
		if err != nil {
			p := entry.Pos
			var ee *entryError
			if errors.As(err, &ee) {
				where, p, err = ee.entry, ee.pos, ee.err
			}
			return nil, &Error{Source: source, Entry: where, Pos: &p, Msg: err.Error()}
		}
	}
	return c, nil
}

// entryError places a failure inside an entry that holds several tools (a
// Gemini entry's functionDeclarations), so the error names the declaration
// itself and points at its line.
type entryError struct {
	entry string
	pos   jsonv.Pos
	err   error
}

func (e *entryError) Error() string { return e.entry + ": " + e.err.Error() }

// entryAt names the tool entry that holds byte offset of data (`tools[3]`),
// for a syntax error the parser could only place by line and column; "" when
// the offset is not inside an entry. It scans the bytes before the offset,
// tracking only the containers it is in and the key or index in each.
func entryAt(data []byte, offset int) string {
	type frame struct {
		array bool
		index int
		key   string
	}
	var stack []frame
	inString, escaped, keyNext := false, false, false
	keyStart := 0
	for i := 0; i < offset && i < len(data); i++ {
		c := data[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if keyNext && len(stack) > 0 && !stack[len(stack)-1].array {
					stack[len(stack)-1].key = string(data[keyStart:i])
					keyNext = false
				}
			}
			continue
		}
		switch c {
		case '"':
			inString, keyStart = true, i+1
		case '{':
			stack = append(stack, frame{})
			keyNext = true
		case '[':
			stack = append(stack, frame{array: true})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				if top.array {
					top.index++
				} else {
					keyNext = true
				}
			}
		}
	}
	switch {
	case len(stack) >= 2 && stack[0].array:
		return fmt.Sprintf("tools[%d]", stack[0].index)
	case len(stack) >= 3 && stack[0].key == "tools" && stack[1].array:
		return fmt.Sprintf("tools[%d]", stack[1].index)
	case len(stack) >= 4 && stack[0].key == "result" && stack[1].key == "tools" && stack[2].array:
		return fmt.Sprintf("result.tools[%d]", stack[2].index)
	}
	return ""
}

// toolList finds the array of entries: the root itself, its `tools`, or a
// JSON-RPC response's `result.tools`.
func toolList(root *jsonv.Value) (*jsonv.Value, string, error) {
	switch {
	case root.Is(jsonv.Array):
		return root, "tools", nil
	case root.Is(jsonv.Object):
		if t := root.Get("tools"); t != nil {
			if !t.Is(jsonv.Array) {
				return nil, "", fmt.Errorf("tools is %s, want an array of tools", t.ArticleType())
			}
			return t, "tools", nil
		}
		if r := root.Get("result"); r.Is(jsonv.Object) {
			if t := r.Get("tools"); t.Is(jsonv.Array) {
				return t, "result.tools", nil
			}
			return nil, "", errors.New("result has no tools array (want a tools/list response)")
		}
		if e := root.Get("error"); e.Is(jsonv.Object) {
			msg, _ := e.Get("message").Str()
			return nil, "", fmt.Errorf("the document is a JSON-RPC error response: %s", msg)
		}
		if fd := declarationsOf(root); fd != nil || looksLikeTool(root) {
			// A single tool, or one Gemini tool object, on its own.
			wrapped := &jsonv.Value{Kind: jsonv.Array, Items: []*jsonv.Value{root}, Pos: root.Pos}
			return wrapped, "tools", nil
		}
		return nil, "", errors.New("unknown shape: want an array of tools, {\"tools\": [...]}, a tools/list response, or a Gemini {\"functionDeclarations\": [...]}")
	default:
		return nil, "", fmt.Errorf("the document is %s, want an array of tools or an object holding one", root.ArticleType())
	}
}

func looksLikeTool(v *jsonv.Value) bool {
	return v.Has("name") || v.Get("function").Is(jsonv.Object)
}

func declarationsOf(v *jsonv.Value) *jsonv.Value {
	if fd := v.Get("functionDeclarations"); fd != nil {
		return fd
	}
	return v.Get("function_declarations")
}

func (c *Catalog) addEntry(entry *jsonv.Value, where string) error {
	if !entry.Is(jsonv.Object) {
		return fmt.Errorf("entry is %s, want a tool object", entry.ArticleType())
	}
	if fd := declarationsOf(entry); fd != nil {
		if !fd.Is(jsonv.Array) {
			return fmt.Errorf("functionDeclarations is %s, want an array", fd.ArticleType())
		}
		key := "functionDeclarations"
		if !entry.Has(key) {
			key = "function_declarations"
		}
		for j, decl := range fd.Items {
			sub := fmt.Sprintf("%s.%s[%d]", where, key, j)
			if err := c.addTool(decl, decl, FormatGemini, sub); err != nil {
				return &entryError{entry: sub, pos: decl.Pos, err: err}
			}
		}
		return nil
	}
	typ, _ := entry.Get("type").Str()
	if fn := entry.Get("function"); fn != nil && (typ == "function" || typ == "") {
		if !fn.Is(jsonv.Object) {
			return fmt.Errorf("function is %s, want an object", fn.ArticleType())
		}
		return c.addTool(entry, fn, FormatOpenAIChat, where)
	}
	if typ == "function" {
		return c.addTool(entry, entry, FormatOpenAIResponses, where)
	}
	if entry.Has("input_schema") {
		return c.addTool(entry, entry, FormatAnthropic, where)
	}
	if typ != "" && entry.Has("name") && !entry.Has("inputSchema") {
		return fmt.Errorf("unknown tool type %s (a provider's built-in tool, not a function declaration)", jsonv.Quote(typ))
	}
	return c.addTool(entry, entry, FormatMCP, where)
}

// addTool reads one tool: outer is the entry as listed (declarations may sit
// there), body holds name, description and schema.
func (c *Catalog) addTool(outer, body *jsonv.Value, format Format, where string) error {
	if !body.Is(jsonv.Object) {
		return fmt.Errorf("entry is %s, want a tool object", body.ArticleType())
	}
	nameV := body.Get("name")
	name, ok := nameV.Str()
	if !ok {
		if nameV == nil {
			return errors.New("no name (every tool needs a string name)")
		}
		return fmt.Errorf("name is %s, want a string", nameV.ArticleType())
	}
	t := &Tool{Index: len(c.Tools), Entry: where, Name: name, Format: format, Pos: outer.Pos, Raw: outer}
	if d := body.Get("description"); d != nil && d.Kind != jsonv.Null {
		s, ok := d.Str()
		if !ok {
			return fmt.Errorf("tool %s: description is %s, want a string", jsonv.Quote(name), d.ArticleType())
		}
		t.Description, t.HasDescription = s, true
	}
	for _, key := range schemaKeys[format] {
		if s := body.Get(key); s != nil && s.Kind != jsonv.Null {
			t.Schema = s
			break
		}
	}
	if s := body.Get("strict"); s.Is(jsonv.Bool) {
		b := s.Bool
		t.Strict = &b
	}
	if format == FormatAnthropic {
		examples, err := inputExamples(body.Get("input_examples"))
		if err != nil {
			return fmt.Errorf("tool %s: %w", jsonv.Quote(name), err)
		}
		t.InputExamples = examples
	}
	t.Title, _ = body.Get("title").Str()
	t.Annotations = body.Get("annotations")
	t.OutputSchema = body.Get("outputSchema")
	t.Meta = body.Get("_meta")
	t.AskOrAssume = declaration(outer, body, "askOrAssume")
	t.Period = declaration(outer, body, "period")
	t.Wants = declaration(outer, body, "wants")
	collectDups(outer, &t.DuplicateKeys)
	c.Tools = append(c.Tools, t)
	return nil
}

// inputExamples reads Anthropic's input_examples: an array of argument
// objects; absent or null is none.
func inputExamples(v *jsonv.Value) ([]*jsonv.Value, error) {
	if v == nil || v.Kind == jsonv.Null {
		return nil, nil
	}
	if !v.Is(jsonv.Array) {
		return nil, fmt.Errorf("input_examples is %s, want an array of argument objects", v.ArticleType())
	}
	for i, it := range v.Items {
		if !it.Is(jsonv.Object) {
			return nil, fmt.Errorf("input_examples[%d] is %s, want an object of arguments", i, it.ArticleType())
		}
	}
	return v.Items, nil
}

// schemaKeys lists, per shape, where the input schema may stand, most
// specific first; a tool mislabelled by its author still finds its schema.
var schemaKeys = map[Format][]string{
	FormatMCP:             {"inputSchema", "input_schema", "parameters"},
	FormatOpenAIChat:      {"parameters"},
	FormatOpenAIResponses: {"parameters"},
	FormatAnthropic:       {"input_schema"},
	FormatGemini:          {"parameters", "parametersJsonSchema", "parameters_json_schema"},
}

// declaration finds a declaration key on the entry, its body, or inside
// _meta, in that order.
func declaration(outer, body *jsonv.Value, key string) *jsonv.Value {
	for _, v := range []*jsonv.Value{outer.Get(key), body.Get(key), outer.Get("_meta").Get(key), body.Get("_meta").Get(key)} {
		if v != nil {
			return v
		}
	}
	return nil
}

func collectDups(v *jsonv.Value, out *[]string) {
	var at pathStack
	at.collect(v, out)
}

// pathStack is where a walk is, as segments: a path is spelled out only
// for a duplicate found, never for each of a large array's items.
type pathStack []pathSeg

type pathSeg struct {
	key   string
	index int // -1 for a key
}

func (s *pathStack) collect(v *jsonv.Value, out *[]string) {
	if v == nil {
		return
	}
	switch v.Kind {
	case jsonv.Object:
		for _, k := range v.Dups {
			*out = append(*out, joinPath(s.String(), k))
		}
		for _, m := range v.Members {
			if m.Value.Kind != jsonv.Object && m.Value.Kind != jsonv.Array {
				continue
			}
			*s = append(*s, pathSeg{key: m.Key, index: -1})
			s.collect(m.Value, out)
			*s = (*s)[:len(*s)-1]
		}
	case jsonv.Array:
		for i, it := range v.Items {
			if it.Kind != jsonv.Object && it.Kind != jsonv.Array {
				continue
			}
			*s = append(*s, pathSeg{index: i})
			s.collect(it, out)
			*s = (*s)[:len(*s)-1]
		}
	}
}

// String spells the path as collectDups always has: keys joined by dots,
// indexes in brackets ("properties.tags[2].name").
func (s pathStack) String() string {
	var b strings.Builder
	for _, seg := range s {
		if seg.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(seg.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg.key)
	}
	return b.String()
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Lookup finds the first tool with the given name.
func (c *Catalog) Lookup(name string) (*Tool, bool) {
	for _, t := range c.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// Nearest returns up to n tool names closest to name by edit distance, for
// "did you mean" messages.
func (c *Catalog) Nearest(name string, n int) []string {
	type cand struct {
		name string
		d    int
	}
	seen := map[string]bool{}
	var cs []cand
	lname := strings.ToLower(name)
	for _, t := range c.Tools {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		d := EditDistance(lname, strings.ToLower(t.Name))
		if strings.Contains(strings.ToLower(t.Name), lname) && lname != "" {
			d = min(d, 1)
		}
		cs = append(cs, cand{t.Name, d})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].d < cs[j].d })
	var out []string
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].name)
	}
	return out
}

// EditDistance counts the single-letter insertions, deletions and
// substitutions between a and b (Levenshtein), by code point.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// looksLikeYAML says whether text that is not JSON reads as YAML: a
// .yaml or .yml name, or a first line that is a document marker, a
// comment, a list item or a "key:" mapping.
func looksLikeYAML(source string, data []byte) bool {
	lower := strings.ToLower(source)
	if strings.HasSuffix(lower, ".yaml") || strings.HasSuffix(lower, ".yml") {
		return true
	}
	text := strings.TrimLeft(string(data[:min(len(data), 4096)]), " \t\r\n\ufeff")
	first, _, _ := strings.Cut(text, "\n")
	first = strings.TrimRight(first, "\r ")
	switch {
	case first == "---", strings.HasPrefix(first, "--- "), strings.HasPrefix(first, "#"), strings.HasPrefix(first, "- "):
		return true
	}
	key, _, ok := strings.Cut(first, ":")
	if !ok || key == "" {
		return false
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
