// Package config reads, edits and writes toolscope.yaml, a project's lint
// settings (docs/config.md): rule severities, rule and similarity
// thresholds, the embedder and scoring, pairs accepted as distinct and
// findings ignored, each with the reason.
//
// A Config keeps the YAML document it was read from, so an edit (AcceptPair,
// IgnoreFinding, Remove...) changes only its entry and Save writes the file
// back with the user's comments and order in place.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"toolscope/core/diff"
	"toolscope/core/lint"
	"toolscope/core/safefile"
	"toolscope/core/similarity"
)

// FileName is the file Find looks for.
const FileName = "toolscope.yaml"

// Version is the format's version; a file may leave it out.
const Version = 1

// MaxFileBytes is the largest config file read.
const MaxFileBytes = 1 << 20

// Severity is a rule's severity in the config: its own, raised, lowered,
// or off.
type Severity string

// The severities a rule may be given.
const (
	SeverityOff   Severity = "off"
	SeverityWarn  Severity = "warn"
	SeverityError Severity = "error"
)

// Rule is one rule's settings; a zero field keeps the default.
type Rule struct {
	// Severity "" keeps each finding's own; warn or error sets every
	// finding of the rule to it; off switches the rule off.
	Severity Severity
	// MinChars is description-missing-or-short's length (0: the default).
	MinChars int
	// MaxTools is too-many-tools' limit (0: the default).
	MaxTools int
	// MaxShare and Context are catalog-tokens' share of a context window
	// and the window's size in tokens (0: the defaults).
	MaxShare float64
	Context  int
	// Line is where the rule's entry is, for messages.
	Line int
}

// Similarity is the similarity settings; nil and "" keep the defaults
// (flags still win over them).
type Similarity struct {
	// Embedder is an embedder spec (use, mock, openai:MODEL) or "none" to
	// skip similarity.
	Embedder string
	// EmbedderLine and EmbedderCol are where Embedder is, for messages.
	EmbedderLine, EmbedderCol int
	// EmbedURL is an endpoint for openai:MODEL; the environment's key is
	// sent to it only when the user trusts it (docs/security.md).
	EmbedURL     string
	EmbedURLLine int
	Scoring      similarity.Scoring
	// Threshold is +Inf for "off" (report-only).
	Threshold *float64
	WatchBand *float64
	// ThresholdAt and WatchBandAt are where those values stand
	// ("toolscope.yaml:12:14"), for messages about them.
	ThresholdAt, WatchBandAt string
	RankLimit                *int
}

// AcceptedPair is two tools reviewed and accepted as distinct: their
// verdict no longer fails the gate.
type AcceptedPair struct {
	A, B   string
	Reason string
	Line   int
}

// Ignore is findings accepted as they are: those of Rule (every rule when
// "") on tools whose name matches Tool (a path.Match pattern: `legacy_*`),
// on Param when it is given (a path: `filter.name`; "" covers the tool's
// findings whatever their parameter).
type Ignore struct {
	Rule, Tool, Param string
	Reason            string
	Line              int
}

// Config is a loaded toolscope.yaml.
type Config struct {
	// Path is the file it was read from or will be saved to.
	Path  string
	Rules map[string]Rule
	// RuleSet is rule-set:, "" when not given.
	RuleSet       lint.RuleSet
	Similarity    Similarity
	Strict        bool
	AcceptedPairs []AcceptedPair
	Ignores       []Ignore
	// DiffLevels regrade diff's change kinds (diff: levels:).
	DiffLevels map[diff.Kind]diff.Level

	doc *yaml.Node
	// raw is the file's text as read or last saved, whose layout a save
	// keeps (keepLayout).
	raw []byte
	// adds are the entries appended since raw; reworked is set by any
	// other edit. While it is not, a save inserts the entries' lines into
	// raw and keeps every other byte (spliceAppends).
	adds     []appended
	reworked bool
}

// Error is a config file problem: where, and what.
type Error struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// New is an empty config to be saved at path.
func New(path string) *Config {
	c, err := Parse(path, nil)
	if err != nil {
		panic(err) // an empty document always parses
	}
	return c
}

// Find looks for FileName in dir and each directory above it up to the
// repository's root (the first directory from dir upward holding .git);
// outside a repository only dir itself is looked in. "" when there is
// none. Stopping there keeps a toolscope.yaml that someone else left in a
// home or shared temporary directory from steering a project.
//
// A file found must be the user's own and writable by no one else
// (checkOwner): a config chooses what lint reports and where an embedder
// connects, so one that another user could have written is refused with
// an error naming it, as git does with safe.directory.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	root := dir
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			root = d
			break
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			if !st.Mode().IsRegular() {
				// A named pipe would block the read for ever, a device
				// read without end.
				return "", &Error{Path: p, Msg: "not a regular file: not read (pass --no-config, or --config FILE)"}
			}
			if err := checkOwner(p); err != nil {
				return "", &Error{Path: p, Msg: err.Error() + ": not read (name it with --config to use it anyway, or pass --no-config)"}
			}
			return p, nil
		}
		if d == root {
			return "", nil
		}
	}
}

// Load reads a config file.
func Load(path string) (*Config, error) {
	data, err := safefile.Read(path, safefile.ReadOptions{Max: MaxFileBytes})
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("larger than %d KiB", MaxFileBytes>>10)}
	}
	if err != nil {
		var se *safefile.Error
		if errors.As(err, &se) {
			err = se.Err
		}
		return nil, &Error{Path: path, Msg: "cannot read: " + err.Error()}
	}
	return Parse(path, data)
}

// Parse reads a config from its YAML; path names it in errors. Unknown
// keys, wrong types and unknown rule ids are errors naming the line.
func Parse(path string, data []byte) (*Config, error) {
	if line := directiveLine(data); line > 0 {
		return nil, &Error{Path: path, Line: line, Col: 1, Msg: "a %YAML directive is not supported: remove it (the file is read as plain YAML)"}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlError(path, err)
	}
	// A second document would be ignored without a word: the settings in
	// it would look applied and not be.
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, &Error{Path: path, Line: documentLine(data, next.Line), Col: 1, Msg: "a second YAML document: a config is one document (remove the --- and what follows, or merge them)"}
	} else if !errors.Is(err, io.EOF) {
		return nil, yamlError(path, err)
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	c := &Config{Path: path, doc: &doc, raw: data}
	if err := c.decode(); err != nil {
		return nil, err
	}
	return c, nil
}

// directiveLine is the line of a %YAML directive before the document, 0
// when there is none.
func directiveLine(data []byte) int {
	for i, line := range strings.Split(string(data), "\n") {
		switch t := strings.TrimRight(line, " \t\r"); {
		case strings.HasPrefix(t, "%YAML"):
			return i + 1
		case t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "%"):
		default:
			return 0 // the document began
		}
	}
	return 0
}

// documentLine is the line of the --- that starts the document whose
// first node is at line: the closest at or above it.
func documentLine(data []byte, line int) int {
	lines := strings.Split(string(data), "\n")
	for l := min(line, len(lines)); l >= 1; l-- {
		if t := lines[l-1]; t == "---" || strings.HasPrefix(t, "--- ") || strings.HasPrefix(t, "---\t") || t == "---\r" {
			return l
		}
	}
	return max(line, 1)
}

// EmbedderError is err, met opening the embedder the config names, as an
// error at the config's line.
func (c *Config) EmbedderError(err error) error {
	return &Error{Path: c.Path, Line: c.Similarity.EmbedderLine, Col: c.Similarity.EmbedderCol, Msg: "similarity: embedder: " + err.Error()}
}

// yamlError flattens the YAML library's syntax error to one line.
func yamlError(path string, err error) error {
	msg := strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), "yaml: ")), " ")
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line, msg = n, rest[i+2:]
			}
		}
	}
	// The library names no line for a syntax error on the first (its line
	// 0); its errors about anchors and aliases have no place at all.
	if line == 0 && !strings.Contains(msg, "anchor") && !strings.Contains(msg, "alias") {
		line = 1
	}
	return &Error{Path: path, Line: line, Col: min(line, 1), Msg: msg}
}

// decode fills c's fields from its document.
func (c *Config) decode() error {
	d := decoder{path: c.Path}
	root := c.doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) != 1 {
			return d.errf(root, "want one YAML document")
		}
		root = root.Content[0]
	}
	c.Rules, c.RuleSet, c.Similarity, c.Strict, c.AcceptedPairs, c.Ignores, c.DiffLevels = map[string]Rule{}, "", Similarity{}, false, nil, nil, nil
	return d.mapping(root, "the top level", map[string]func(*yaml.Node) error{
		"version": func(n *yaml.Node) error {
			v, err := d.integer(n, "version")
			if err == nil && v != Version {
				err = d.errf(n, "version %d: this toolscope reads version %d", v, Version)
			}
			return err
		},
		"strict": func(n *yaml.Node) (err error) {
			c.Strict, err = d.boolean(n, "strict")
			return err
		},
		"rules": func(n *yaml.Node) error { return c.decodeRules(d, n) },
		"rule-set": func(n *yaml.Node) error {
			v, err := d.str(n, "rule-set")
			if err != nil {
				return err
			}
			set, err := lint.ParseRuleSet(v)
			if err != nil {
				return d.errf(n, "rule-set %s", err)
			}
			c.RuleSet = set
			return nil
		},
		"similarity":     func(n *yaml.Node) error { return c.decodeSimilarity(d, n) },
		"accepted-pairs": func(n *yaml.Node) error { return c.decodePairs(d, n) },
		"ignore":         func(n *yaml.Node) error { return c.decodeIgnores(d, n) },
		"diff":           func(n *yaml.Node) error { return c.decodeDiff(d, n) },
	})
}

// decodeDiff reads diff's settings: levels, a mapping of change kind to
// error, warn or info.
func (c *Config) decodeDiff(d decoder, n *yaml.Node) error {
	return d.mapping(n, "diff", map[string]func(*yaml.Node) error{
		"levels": func(n *yaml.Node) error {
			if isNull(n) {
				return nil
			}
			if n.Kind != yaml.MappingNode {
				return d.errf(n, "diff: levels: want a mapping of change kind to error, warn or info")
			}
			c.DiffLevels = map[diff.Kind]diff.Level{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				kind := diff.Kind(k.Value)
				if _, ok := diff.DefaultLevels[kind]; !ok {
					return d.errf(k, "diff: levels: no change kind %q (see docs/diff.md#levels)", k.Value)
				}
				if _, dup := c.DiffLevels[kind]; dup {
					return d.errf(k, "diff: levels: %s given twice", k.Value)
				}
				s, err := d.str(v, "diff: levels: "+k.Value)
				if err != nil {
					return err
				}
				l, ok := diff.ParseLevel(s)
				if !ok {
					return d.errf(v, "diff: levels: %s: %q: want error, warn or info", k.Value, s)
				}
				c.DiffLevels[kind] = l
			}
			return nil
		},
	})
}

func scoringList() string {
	var names []string
	for _, s := range similarity.Scorings {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}

func ruleIDs() []string { return lint.RuleIDs() }

func (c *Config) decodeRules(d decoder, n *yaml.Node) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return d.errf(n, "rules: want a mapping of rule id to severity (off, warn, error) or settings")
	}
	ids := ruleIDs()
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !slices.Contains(ids, k.Value) {
			return d.errf(k, "rules: no rule %q (rules: %s)", k.Value, strings.Join(ids, ", "))
		}
		if _, dup := c.Rules[k.Value]; dup {
			return d.errf(k, "rules: %s given twice", k.Value)
		}
		r := Rule{Line: k.Line}
		severity := func(n *yaml.Node) error {
			s, err := d.str(n, "rules: "+k.Value)
			switch Severity(s) {
			case SeverityOff, SeverityWarn, SeverityError:
				r.Severity = Severity(s)
			default:
				if err == nil {
					err = d.errf(n, "rules: %s: %q: want off, warn or error", k.Value, s)
				}
			}
			return err
		}
		if v.Kind == yaml.ScalarNode {
			if err := severity(v); err != nil {
				return err
			}
		} else {
			fields := map[string]func(*yaml.Node) error{"severity": severity}
			switch k.Value {
			case lint.RuleDescription:
				fields["min-chars"] = func(n *yaml.Node) (err error) {
					r.MinChars, err = d.positive(n, "rules: "+k.Value+": min-chars")
					return err
				}
			case lint.RuleTooManyTools:
				fields["max-tools"] = func(n *yaml.Node) (err error) {
					r.MaxTools, err = d.positive(n, "rules: "+k.Value+": max-tools")
					return err
				}
			case lint.RuleCatalogTokens:
				fields["max-share"] = func(n *yaml.Node) (err error) {
					r.MaxShare, err = d.float(n, "rules: "+k.Value+": max-share")
					if err == nil && (r.MaxShare <= 0 || r.MaxShare > 1) {
						err = d.errf(n, "rules: %s: max-share: %v: want a share above 0 and at most 1 (0.1 is 10%%)", k.Value, r.MaxShare)
					}
					return err
				}
				fields["context"] = func(n *yaml.Node) (err error) {
					r.Context, err = d.positive(n, "rules: "+k.Value+": context")
					return err
				}
			}
			if err := d.mapping(v, "rules: "+k.Value, fields); err != nil {
				return err
			}
		}
		c.Rules[k.Value] = r
	}
	return nil
}

func (c *Config) decodeSimilarity(d decoder, n *yaml.Node) error {
	s := &c.Similarity
	number := func(name string, allowOff bool, dst **float64, at *string) func(*yaml.Node) error {
		return func(n *yaml.Node) error {
			*at = fmt.Sprintf("%s:%d:%d", c.Path, n.Line, n.Column)
			if allowOff && n.Kind == yaml.ScalarNode && n.Value == "off" {
				inf := math.Inf(1)
				*dst = &inf
				return nil
			}
			f, err := d.float(n, "similarity: "+name)
			*dst = &f
			return err
		}
	}
	band := func(name string) func(*yaml.Node) error {
		return func(n *yaml.Node) error {
			if err := number(name, false, &s.WatchBand, &s.WatchBandAt)(n); err != nil {
				return err
			}
			if *s.WatchBand < 0 {
				return d.errf(n, "similarity: %s %s: want zero or more", name, n.Value)
			}
			return nil
		}
	}
	return d.mapping(n, "similarity", map[string]func(*yaml.Node) error{
		"embedder": func(n *yaml.Node) (err error) {
			s.Embedder, err = d.str(n, "similarity: embedder")
			s.EmbedderLine, s.EmbedderCol = n.Line, n.Column
			if err == nil && s.Embedder == "" {
				err = d.errf(n, "similarity: embedder: want use, mock, openai:MODEL or none")
			}
			return err
		},
		"embed-url": func(n *yaml.Node) (err error) {
			s.EmbedURL, err = d.str(n, "similarity: embed-url")
			s.EmbedURLLine = n.Line
			return err
		},
		"scoring": func(n *yaml.Node) error {
			v, err := d.str(n, "similarity: scoring")
			if err == nil && !slices.Contains(similarity.Scorings, similarity.Scoring(v)) {
				err = d.errf(n, "similarity: scoring %q: want one of %s", v, scoringList())
			}
			s.Scoring = similarity.Scoring(v)
			return err
		},
		"threshold":   number("threshold", true, &s.Threshold, &s.ThresholdAt),
		"review-band": band("review-band"),
		// The old spelling of review-band.
		"watch-band": band("watch-band"),
		"rank-limit": func(n *yaml.Node) error {
			v, err := d.integer(n, "similarity: rank-limit")
			if err == nil && v < 0 {
				err = d.errf(n, "similarity: rank-limit %d: want zero (all) or more", v)
			}
			s.RankLimit = &v
			return err
		},
	})
}

func (c *Config) decodePairs(d decoder, n *yaml.Node) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return d.errf(n, "accepted-pairs: want a list of {tools: [A, B], reason: ...}")
	}
	for i, e := range n.Content {
		where := fmt.Sprintf("accepted-pairs[%d]", i)
		p := AcceptedPair{Line: e.Line}
		err := d.mapping(e, where, map[string]func(*yaml.Node) error{
			"tools": func(n *yaml.Node) error {
				if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
					return d.errf(n, "%s: tools: want two tool names, [A, B]", where)
				}
				var err error
				if p.A, err = d.str(n.Content[0], where+": tools"); err != nil {
					return err
				}
				if p.B, err = d.str(n.Content[1], where+": tools"); err != nil {
					return err
				}
				if p.A == "" || p.A == p.B {
					return d.errf(n, "%s: tools: want two different tool names", where)
				}
				return nil
			},
			"reason": func(n *yaml.Node) (err error) {
				p.Reason, err = d.str(n, where+": reason")
				return err
			},
		})
		if err != nil {
			return err
		}
		if p.A == "" {
			return d.errf(e, "%s: want tools: [A, B]", where)
		}
		if strings.TrimSpace(p.Reason) == "" {
			return d.errf(e, "%s: want a reason: why a model will not mix up %s and %s", where, p.A, p.B)
		}
		c.AcceptedPairs = append(c.AcceptedPairs, p)
	}
	return nil
}

func (c *Config) decodeIgnores(d decoder, n *yaml.Node) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return d.errf(n, "ignore: want a list of {rule, tool, param, reason}")
	}
	// A model's review finding can be ignored too (core/judge).
	ids := append(ruleIDs(), lint.RuleModelReview)
	for i, e := range n.Content {
		where := fmt.Sprintf("ignore[%d]", i)
		g := Ignore{Line: e.Line}
		err := d.mapping(e, where, map[string]func(*yaml.Node) error{
			"rule": func(n *yaml.Node) (err error) {
				if g.Rule, err = d.str(n, where+": rule"); err == nil && !slices.Contains(ids, g.Rule) {
					err = d.errf(n, "%s: no rule %q (rules: %s)", where, g.Rule, strings.Join(ids, ", "))
				}
				return err
			},
			"tool": func(n *yaml.Node) (err error) {
				if g.Tool, err = d.str(n, where+": tool"); err == nil {
					if _, perr := path.Match(g.Tool, ""); perr != nil {
						err = d.errf(n, "%s: tool %q: not a valid pattern", where, g.Tool)
					}
				}
				return err
			},
			"param": func(n *yaml.Node) (err error) {
				g.Param, err = d.str(n, where+": param")
				return err
			},
			"reason": func(n *yaml.Node) (err error) {
				g.Reason, err = d.str(n, where+": reason")
				return err
			},
		})
		if err != nil {
			return err
		}
		if g.Tool == "" {
			return d.errf(e, "%s: want a tool (a name, or a pattern such as legacy_*)", where)
		}
		if strings.TrimSpace(g.Reason) == "" {
			return d.errf(e, "%s: want a reason: why the finding is accepted", where)
		}
		c.Ignores = append(c.Ignores, g)
	}
	return nil
}

// isNull reports whether n is empty: a key with nothing (or only
// comments) under it.
func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

// decoder turns YAML nodes into values with errors naming the line.
type decoder struct{ path string }

func (d decoder) errf(n *yaml.Node, format string, args ...any) error {
	return &Error{Path: d.path, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// mapping decodes a mapping node key by key; a key fields lacks is an
// error naming it and the keys known there.
func (d decoder) mapping(n *yaml.Node, where string, fields map[string]func(*yaml.Node) error) error {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return d.errf(n, "%s: want a mapping", where)
	}
	known := make([]string, 0, len(fields))
	for k := range fields {
		known = append(known, k)
	}
	slices.Sort(known)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f, ok := fields[k.Value]
		if !ok || k.Kind != yaml.ScalarNode {
			return d.errf(k, "unknown key %q in %s (known: %s)", k.Value, where, strings.Join(known, ", "))
		}
		if seen[k.Value] {
			return d.errf(k, "%q given twice in %s", k.Value, where)
		}
		seen[k.Value] = true
		if err := f(v); err != nil {
			return err
		}
	}
	return nil
}

func (d decoder) scalar(n *yaml.Node, what, want string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", d.errf(n, "%s: want %s", what, want)
	}
	return n.Value, nil
}

// str reads a scalar as text: an unquoted 1 or true is text here too.
func (d decoder) str(n *yaml.Node, what string) (string, error) {
	return d.scalar(n, what, "a string")
}

func (d decoder) float(n *yaml.Node, what string) (float64, error) {
	s, err := d.scalar(n, what, "a number")
	if err != nil {
		return 0, err
	}
	f, perr := strconv.ParseFloat(s, 64)
	if perr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, d.errf(n, "%s: %q: want a number", what, s)
	}
	return f, nil
}

func (d decoder) integer(n *yaml.Node, what string) (int, error) {
	s, err := d.scalar(n, what, "a whole number")
	if err != nil {
		return 0, err
	}
	v, perr := strconv.Atoi(s)
	if perr != nil {
		return 0, d.errf(n, "%s: %q: want a whole number", what, s)
	}
	return v, nil
}

func (d decoder) positive(n *yaml.Node, what string) (int, error) {
	v, err := d.integer(n, what)
	if err == nil && v < 1 {
		err = d.errf(n, "%s: %d: want 1 or more", what, v)
	}
	return v, err
}

func (d decoder) boolean(n *yaml.Node, what string) (bool, error) {
	s, err := d.scalar(n, what, "true or false")
	if err != nil {
		return false, err
	}
	switch s {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, d.errf(n, "%s: %q: want true or false", what, s)
}
