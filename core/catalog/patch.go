package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"toolscope/core/jsonv"
)

// PatchOp is one JSON Patch operation (RFC 6902). Path is a JSON Pointer
// from the catalog file's root. toolscope proposes "add", "replace" and
// "test", and applies those.
type PatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitempty"`
}

// Edit is one change to a file's bytes: Length bytes at Offset become
// Text. SARIF carries fixes as these.
type Edit struct {
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	Text   string `json:"text"`
}

// PatchEdits turns ops into edits of data, the JSON document they were
// written for, each one as small as the operation allows, so every other
// byte (key order, spacing, escapes) stays. The ops are read against data
// as it is: they may not touch one another's values. A "test" that fails
// is an error, as is an operation toolscope does not apply or a path
// that is not there.
func PatchEdits(data []byte, ops []PatchOp) ([]Edit, error) {
	e, err := NewEditor(data)
	if err != nil {
		return nil, err
	}
	return e.Edits(ops)
}

// Editor makes edits of one document, read once: a report with a fix per
// finding places them all without reading the file again for each.
type Editor struct {
	data []byte
	root *jsonv.Value
}

// NewEditor reads data for Edits.
func NewEditor(data []byte) (*Editor, error) {
	root, err := jsonv.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	return &Editor{data: data, root: root}, nil
}

// Edits is PatchEdits on the editor's document.
func (e *Editor) Edits(ops []PatchOp) ([]Edit, error) {
	data, root := e.data, e.root
	var edits []Edit
	for k, op := range ops {
		e, err := patchEdit(data, root, op)
		if err != nil {
			return nil, fmt.Errorf("fix operation %d (%s %s): %w", k, op.Op, op.Path, err)
		}
		if e != nil {
			edits = append(edits, *e)
		}
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Offset < edits[j].Offset })
	for i := 1; i < len(edits); i++ {
		if edits[i].Offset < edits[i-1].Offset+edits[i-1].Length {
			return nil, errors.New("two fix operations change the same value")
		}
	}
	return edits, nil
}

// ApplyEdits is data with edits made (in any order; they must not
// overlap, as PatchEdits ensures).
func ApplyEdits(data []byte, edits []Edit) []byte {
	sorted := append([]Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Offset > sorted[j].Offset })
	out := bytes.Clone(data)
	for _, e := range sorted {
		tail := append([]byte(e.Text), out[e.Offset+e.Length:]...)
		out = append(out[:e.Offset], tail...)
	}
	return out
}

// ApplyPatch is data with ops applied, every other byte kept.
func ApplyPatch(data []byte, ops []PatchOp) ([]byte, error) {
	edits, err := PatchEdits(data, ops)
	if err != nil {
		return nil, err
	}
	return ApplyEdits(data, edits), nil
}

func patchEdit(data []byte, root *jsonv.Value, op PatchOp) (*Edit, error) {
	tokens, err := splitPointer(op.Path)
	if err != nil {
		return nil, err
	}
	var val *jsonv.Value
	if op.Op != "remove" {
		if len(op.Value) == 0 {
			return nil, errors.New("no value")
		}
		if val, err = jsonv.Parse(op.Value); err != nil {
			return nil, fmt.Errorf("value is not JSON: %w", err)
		}
	}
	switch op.Op {
	case "test":
		target, err := resolve(root, tokens)
		if err != nil {
			return nil, err
		}
		if !jsonv.Equal(target, val) {
			return nil, fmt.Errorf("the file holds %s there, not %s (it changed since the lint)", excerpt(target.JSON()), excerpt(string(op.Value)))
		}
		return nil, nil
	case "replace":
		target, err := resolve(root, tokens)
		if err != nil {
			return nil, err
		}
		return replaceEdit(data, target, op.Value)
	case "add":
		if len(tokens) == 0 {
			return nil, errors.New("toolscope does not replace the whole document")
		}
		parent, err := resolve(root, tokens[:len(tokens)-1])
		if err != nil {
			return nil, err
		}
		key := tokens[len(tokens)-1]
		if !parent.Is(jsonv.Object) {
			return nil, fmt.Errorf("adds to %s; toolscope adds object members only", parent.ArticleType())
		}
		if old := parent.Get(key); old != nil {
			return replaceEdit(data, old, op.Value)
		}
		return addMember(data, parent, key, op.Value)
	default:
		return nil, fmt.Errorf("toolscope does not apply %q operations", op.Op)
	}
}

// splitPointer reads a JSON Pointer into its unescaped reference tokens.
func splitPointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("path %q is not a JSON Pointer (it starts with /)", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, t := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

// resolve finds the value tokens lead to from root.
func resolve(root *jsonv.Value, tokens []string) (*jsonv.Value, error) {
	v := root
	for i, t := range tokens {
		var next *jsonv.Value
		switch v.Kind {
		case jsonv.Object:
			next = v.Get(t)
		case jsonv.Array:
			if n, err := strconv.Atoi(t); err == nil && n >= 0 && n < len(v.Items) && strconv.Itoa(n) == t {
				next = v.Items[n]
			}
		}
		if next == nil {
			return nil, fmt.Errorf("no value at /%s", strings.Join(tokens[:i+1], "/"))
		}
		v = next
	}
	return v, nil
}

// replaceEdit swaps target's text for value, compacted.
func replaceEdit(data []byte, target *jsonv.Value, value json.RawMessage) (*Edit, error) {
	end, err := valueEnd(data, target.Pos.Offset)
	if err != nil {
		return nil, err
	}
	return &Edit{Offset: target.Pos.Offset, Length: end - target.Pos.Offset, Text: compact(value)}, nil
}

// addMember inserts "key": value as obj's last member, on a line of its
// own indented as the member before it when that one has a line of its
// own.
func addMember(data []byte, obj *jsonv.Value, key string, value json.RawMessage) (*Edit, error) {
	member := jsonv.Quote(key) + ": " + compact(value)
	if len(obj.Members) == 0 {
		end, err := valueEnd(data, obj.Pos.Offset)
		if err != nil {
			return nil, err
		}
		return &Edit{Offset: end - 1, Text: member}, nil
	}
	last := obj.Members[len(obj.Members)-1]
	end, err := valueEnd(data, last.Value.Pos.Offset)
	if err != nil {
		return nil, err
	}
	sep := ", "
	if lineStart := bytes.LastIndexByte(data[:last.Pos.Offset], '\n'); lineStart >= 0 {
		indent := data[lineStart+1 : last.Pos.Offset]
		if len(bytes.TrimLeft(indent, " \t")) == 0 {
			nl := "\n"
			if lineStart > 0 && data[lineStart-1] == '\r' {
				nl = "\r\n"
			}
			sep = "," + nl + string(indent)
		}
	}
	return &Edit{Offset: end, Text: sep + member}, nil
}

// valueEnd is the offset just after the JSON value that starts at start
// in data, a document that parsed.
func valueEnd(data []byte, start int) (int, error) {
	if start < 0 || start >= len(data) {
		return 0, fmt.Errorf("no value at offset %d", start)
	}
	depth := 0
	for i := start; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			j := i + 1
			for ; j < len(data) && data[j] != '"'; j++ {
				if data[j] == '\\' {
					j++
				}
			}
			if j >= len(data) {
				return 0, fmt.Errorf("a string never closes (offset %d)", i)
			}
			i = j
			if depth == 0 {
				return i + 1, nil
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
			if depth < 0 {
				return 0, fmt.Errorf("no value at offset %d", start)
			}
		default:
			if depth == 0 {
				// A number, true, false or null: up to its first delimiter.
				j := i
				for j < len(data) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(data[j])) {
					j++
				}
				return j, nil
			}
		}
	}
	return 0, fmt.Errorf("the value at offset %d never closes", start)
}

// compact is value as one line of JSON, nothing escaped that JSON does
// not require.
func compact(value json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, value); err != nil {
		return string(value)
	}
	return b.String()
}

func excerpt(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
