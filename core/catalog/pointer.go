package catalog

import (
	"strconv"
	"strings"

	"toolscope/core/jsonv"
)

// entryPointer is the JSON Pointer of a tool read from entry, the i-th
// item of list: the entry itself, or the Gemini declaration raw inside it.
func entryPointer(root, list *jsonv.Value, i int, entry, raw *jsonv.Value) string {
	var at string
	switch {
	case list == root:
		at = "/" + strconv.Itoa(i)
	case len(list.Items) == 1 && list.Items[0] == root:
		// A file that is one tool (or one Gemini tool object) on its own.
		at = ""
	case root.Get("tools") == list:
		at = "/tools/" + strconv.Itoa(i)
	default:
		at = "/result/tools/" + strconv.Itoa(i)
	}
	if raw == entry {
		return at
	}
	key := "functionDeclarations"
	if !entry.Has(key) {
		key = "function_declarations"
	}
	for j, d := range declarationsOf(entry).Items {
		if d == raw {
			return at + "/" + key + "/" + strconv.Itoa(j)
		}
	}
	return at
}

// PointerTo is the JSON Pointer from the document's root of v, a value
// inside t's entry, and true; false when v is not in the entry (or the
// tool came from no file, as a merged catalog's do not keep theirs).
func (t *Tool) PointerTo(v *jsonv.Value) (string, bool) {
	if t == nil || v == nil || t.Raw == nil {
		return "", false
	}
	var path []string
	if !findValue(t.Raw, v, &path) {
		return "", false
	}
	var b strings.Builder
	b.WriteString(t.Pointer)
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(EscapePointer(p))
	}
	return b.String(), true
}

// findValue appends to path the keys and indexes that lead from in to v.
func findValue(in, v *jsonv.Value, path *[]string) bool {
	if in == v {
		return true
	}
	switch in.Kind {
	case jsonv.Object:
		for _, m := range in.Members {
			*path = append(*path, m.Key)
			if findValue(m.Value, v, path) {
				return true
			}
			*path = (*path)[:len(*path)-1]
		}
	case jsonv.Array:
		for i, it := range in.Items {
			*path = append(*path, strconv.Itoa(i))
			if findValue(it, v, path) {
				return true
			}
			*path = (*path)[:len(*path)-1]
		}
	}
	return false
}

// EscapePointer is a key as one reference token of a JSON Pointer: "~"
// as "~0", "/" as "~1".
func EscapePointer(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return key
	}
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// NameValue is the JSON string t's name was read from: in the entry, or
// in its "function" object (OpenAI chat completions' shape).
func (t *Tool) NameValue() *jsonv.Value {
	if t.Format == FormatOpenAIChat {
		return t.Raw.Get("function").Get("name")
	}
	return t.Raw.Get("name")
}
