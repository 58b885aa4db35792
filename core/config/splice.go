package config

import (
	"bytes"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// appended is an entry a triage added at the end of a top-level list
// since the file was read: the edit a save can make by inserting its
// lines alone.
type appended struct {
	key   string
	entry *yaml.Node
}

// spliceAppends inserts the appended entries into orig, the file as read,
// and leaves every other byte as it was: each entry goes after the last
// entry of its list (right under the key when the list is empty, its
// commented examples staying below), indented as the list is; a list not
// in the file is added at its end. ok is false when an entry's place is
// not plain to see (a flow list, a multi-line value at the end of the
// list); the caller then renders the whole document.
func spliceAppends(orig []byte, adds []appended) (out []byte, ok bool) {
	out = orig
	for _, a := range adds {
		if out, ok = spliceOne(out, a); !ok {
			return nil, false
		}
	}
	return out, true
}

func spliceOne(text []byte, a appended) ([]byte, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	root := doc.Content[0]
	var key, list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == a.key {
			key, list = root.Content[i], root.Content[i+1]
		}
	}
	lines := strings.SplitAfter(string(text), "\n")
	lineStart := func(n int) int { // byte offset of 1-based line n
		off := 0
		for i := 0; i < n-1 && i < len(lines); i++ {
			off += len(lines[i])
		}
		return off
	}
	var at int
	var indent int
	switch {
	case key == nil:
		if len(text) > 0 && !bytes.HasSuffix(text, []byte("\n")) {
			text = append(append([]byte(nil), text...), '\n')
		}
		entry, ok := entryText(a.entry, 2)
		if !ok {
			return nil, false
		}
		return append(append(append([]byte(nil), text...), []byte(a.key+":\n")...), entry...), true
	case list.Kind == yaml.SequenceNode && list.Style&yaml.FlowStyle == 0 && len(list.Content) > 0:
		last := list.Content[len(list.Content)-1]
		end := lastLine(last)
		if end < last.Line || hasBlockScalar(last) {
			return nil, false
		}
		at, indent = lineStart(end+1), list.Column-1
	case list.Kind == yaml.ScalarNode && list.Tag == "!!null" && list.Value == "":
		// An empty list: the key's line ends it.
		at, indent = lineStart(key.Line+1), key.Column-1+2
	default:
		return nil, false
	}
	entry, ok := entryText(a.entry, indent)
	if !ok {
		return nil, false
	}
	if at > len(text) {
		at = len(text)
	}
	head := text[:at]
	out := append([]byte(nil), head...)
	if len(head) > 0 && !bytes.HasSuffix(head, []byte("\n")) {
		out = append(out, '\n')
	}
	out = append(out, entry...)
	return append(out, text[at:]...), true
}

// entryText is entry as one item of a block list, indented by indent.
func entryText(entry *yaml.Node, indent int) ([]byte, bool) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{entry}}
	if enc.Encode(seq) != nil || enc.Close() != nil {
		return nil, false
	}
	pad := strings.Repeat(" ", indent)
	var out strings.Builder
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if l != "" {
			out.WriteString(pad + l)
		}
	}
	return []byte(out.String()), true
}

// lastLine is the last line a node's values start on.
func lastLine(n *yaml.Node) int {
	end := n.Line
	for _, c := range n.Content {
		end = max(end, lastLine(c))
	}
	return end
}

// hasBlockScalar reports whether a value under n spans lines (a literal
// or folded scalar), whose end lastLine cannot see.
func hasBlockScalar(n *yaml.Node) bool {
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || strings.Contains(n.Value, "\n") {
		return true
	}
	for _, c := range n.Content {
		if hasBlockScalar(c) {
			return true
		}
	}
	return false
}

// sameValues reports whether a and b are YAML documents with the same
// values (comments and layout aside).
func sameValues(a, b []byte) bool {
	var x, y any
	if yaml.Unmarshal(a, &x) != nil || yaml.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
