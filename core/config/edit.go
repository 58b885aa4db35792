package config

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"toolscope/core/safefile"
)

// AcceptPair records a and b as reviewed and distinct, for reason. A pair
// already accepted (in either order) keeps its place and gets the new
// reason.
func (c *Config) AcceptPair(a, b, reason string) error {
	if a == "" || a == b {
		return fmt.Errorf("accept pair: want two different tool names")
	}
	if strings.TrimSpace(reason) == "" {
		return fmt.Errorf("accept pair %s, %s: want a reason", a, b)
	}
	list := c.list("accepted-pairs")
	for _, e := range list.Content {
		if x, y := pairOf(e); (x == a && y == b) || (x == b && y == a) {
			c.reworked = true
			setKey(e, "reason", str(reason))
			return c.decode()
		}
	}
	tools := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: []*yaml.Node{str(a), str(b)}}
	entry := mapping("tools", tools, "reason", str(reason))
	list.Content = append(list.Content, entry)
	c.adds = append(c.adds, appended{"accepted-pairs", entry})
	return c.decode()
}

// RemovePair drops the acceptance of a and b (either order); it reports
// whether there was one.
func (c *Config) RemovePair(a, b string) (bool, error) {
	return c.remove("accepted-pairs", func(e *yaml.Node) bool {
		x, y := pairOf(e)
		return (x == a && y == b) || (x == b && y == a)
	})
}

// IgnoreFinding records findings as accepted: g's Rule ("" for every
// rule), Tool and Param ("" for any), for g.Reason. An entry for the same
// rule, tool and param gets the new reason.
func (c *Config) IgnoreFinding(g Ignore) error {
	if g.Tool == "" {
		return fmt.Errorf("ignore: want a tool")
	}
	if strings.TrimSpace(g.Reason) == "" {
		return fmt.Errorf("ignore %s: want a reason", g.Tool)
	}
	list := c.list("ignore")
	for _, e := range list.Content {
		if ignoreOf(e) == [3]string{g.Rule, g.Tool, g.Param} {
			c.reworked = true
			setKey(e, "reason", str(g.Reason))
			return c.decode()
		}
	}
	var kv []any
	if g.Rule != "" {
		kv = append(kv, "rule", str(g.Rule))
	}
	kv = append(kv, "tool", str(g.Tool))
	if g.Param != "" {
		kv = append(kv, "param", str(g.Param))
	}
	kv = append(kv, "reason", str(g.Reason))
	entry := mapping(kv...)
	list.Content = append(list.Content, entry)
	c.adds = append(c.adds, appended{"ignore", entry})
	return c.decode()
}

// RemoveIgnore drops the entry for rule, tool and param; it reports
// whether there was one.
func (c *Config) RemoveIgnore(rule, tool, param string) (bool, error) {
	return c.remove("ignore", func(e *yaml.Node) bool { return ignoreOf(e) == [3]string{rule, tool, param} })
}

// Marshal is the config as YAML: the document it was read from with the
// edits made since, comments, blank lines and indentation kept where the
// text reads back the same (keepLayout).
func (c *Config) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c.doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	if !c.reworked && len(c.adds) > 0 && len(bytes.TrimSpace(c.raw)) > 0 {
		// Entries added, nothing else changed: insert their lines and
		// keep every other byte of the file.
		if spliced, ok := spliceAppends(c.raw, c.adds); ok && sameValues(spliced, b.Bytes()) {
			return spliced, nil
		}
	}
	return keepLayout(c.raw, b.Bytes()), nil
}

// Save writes the config to c.Path, whole or not at all.
func (c *Config) Save() error {
	data, err := c.Marshal()
	if err != nil {
		return &Error{Path: c.Path, Msg: err.Error()}
	}
	if err := safefile.Write(c.Path, data); err != nil {
		var se *safefile.Error
		if errors.As(err, &se) {
			err = se.Err
		}
		return &Error{Path: c.Path, Msg: "cannot write: " + err.Error()}
	}
	c.raw, c.adds, c.reworked = data, nil, false
	return nil
}

// root is the document's top mapping.
func (c *Config) root() *yaml.Node {
	r := c.doc
	if r.Kind == yaml.DocumentNode {
		r = r.Content[0]
	}
	if r.Kind == yaml.ScalarNode && r.Tag == "!!null" {
		*r = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	return r
}

// list is the top-level sequence under key, made (at the end) when absent.
func (c *Config) list(key string) *yaml.Node {
	root := c.root()
	if v := getKey(root, key); v != nil {
		if v.Kind != yaml.SequenceNode {
			// An empty key ("ignore:") reads as null: make it the list.
			*v = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", HeadComment: v.HeadComment, LineComment: v.LineComment}
		}
		if v.Style == yaml.FlowStyle {
			// Entries are added in block style; the flow list's line
			// comment moves to its key's line, which a block list keeps.
			v.Style = 0
			if k := root.Content[keyAt(root, key)]; k.LineComment == "" {
				k.LineComment, v.LineComment = v.LineComment, ""
			}
		}
		return v
	}
	v := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	root.Content = append(root.Content, str(key), v)
	return v
}

func (c *Config) remove(key string, match func(*yaml.Node) bool) (bool, error) {
	v := getKey(c.root(), key)
	if v == nil || v.Kind != yaml.SequenceNode {
		return false, nil
	}
	for i, e := range v.Content {
		if match(e) {
			c.reworked = true
			v.Content = append(v.Content[:i], v.Content[i+1:]...)
			return true, c.decode()
		}
	}
	return false, nil
}

func getKey(m *yaml.Node, key string) *yaml.Node {
	if i := keyAt(m, key); i >= 0 {
		return m.Content[i+1]
	}
	return nil
}

// keyAt is the index of key's key node in mapping m, -1 when absent.
func keyAt(m *yaml.Node, key string) int {
	if m.Kind != yaml.MappingNode {
		return -1
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i
		}
	}
	return -1
}

func setKey(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v.LineComment = m.Content[i+1].LineComment
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, str(key), v)
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// mapping builds a block mapping from key, node pairs.
func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return m
}

func pairOf(e *yaml.Node) (string, string) {
	t := getKey(e, "tools")
	if t == nil || t.Kind != yaml.SequenceNode || len(t.Content) != 2 {
		return "", ""
	}
	return t.Content[0].Value, t.Content[1].Value
}

func ignoreOf(e *yaml.Node) [3]string {
	var out [3]string
	for i, k := range []string{"rule", "tool", "param"} {
		if v := getKey(e, k); v != nil {
			out[i] = v.Value
		}
	}
	return out
}
