package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"toolscope/core/jsonv"
)

// AppendToDescriptions is data, the source cat was parsed from, with
// each sentence of add appended to its tool's description (after one
// space), and every other byte kept: the key order, the spacing, the
// escapes of the rest of the string. A tool of add that cat lacks, or
// whose entry has no description string to extend, is an error naming
// it, and nothing is changed.
func AppendToDescriptions(data []byte, cat *Catalog, add map[string]string) ([]byte, error) {
	type splice struct {
		at   int
		text []byte
	}
	var splices []splice
	for name, sentence := range add {
		t, ok := cat.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("no tool %s in %s", jsonv.Quote(name), cat.Source)
		}
		d := descriptionValue(t)
		if d == nil || d.Kind != jsonv.String {
			return nil, fmt.Errorf("tool %s has no description string to add to", jsonv.Quote(name))
		}
		end, err := stringEnd(data, d.Pos.Offset)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", jsonv.Quote(name), err)
		}
		sep := " "
		if t.Description == "" {
			sep = ""
		}
		splices = append(splices, splice{at: end, text: escapeInString(sep + sentence)})
	}
	sort.Slice(splices, func(i, j int) bool { return splices[i].at > splices[j].at })
	out := bytes.Clone(data)
	for _, s := range splices {
		out = append(out[:s.at:s.at], append(s.text, out[s.at:]...)...)
	}
	return out, nil
}

// descriptionValue is the JSON value the tool's description was read
// from: in the entry itself, or in its "function" object (OpenAI chat
// completions' shape).
func descriptionValue(t *Tool) *jsonv.Value {
	if t.Format == FormatOpenAIChat {
		return t.Raw.Get("function").Get("description")
	}
	return t.Raw.Get("description")
}

// stringEnd is the offset of the closing quote of the JSON string that
// opens at start.
func stringEnd(data []byte, start int) (int, error) {
	if start < 0 || start >= len(data) || data[start] != '"' {
		return 0, fmt.Errorf("the description does not start where it was read (offset %d)", start)
	}
	for i := start + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i, nil
		}
	}
	return 0, fmt.Errorf("the description's string never closes (offset %d)", start)
}

// escapeInString is s as it reads inside a JSON string, without quotes,
// nothing escaped that JSON does not require.
func escapeInString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	q := bytes.TrimSpace(b.Bytes())
	return q[1 : len(q)-1]
}

// HasDescriptionString reports whether t's entry holds a description
// string, where AppendToDescriptions can add a sentence.
func HasDescriptionString(t *Tool) bool {
	d := descriptionValue(t)
	return d != nil && d.Kind == jsonv.String
}
