// Package baseline records a lint run's findings and flagged pairs so a
// later run can fail only on what is new (docs/lint.md, "Baselines").
//
// A finding is known by its rule, tool and parameter path (a finding on
// the whole catalog by its rule), a pair by its two tool names unordered
// (lint.FindingKey, lint.PairKey): never by
// message text, line or order, so a baseline survives reworded messages,
// moved tools and reordered catalogs, and the file it writes is the same
// for the same results whatever order they came in.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/diff"
	"toolscope/core/jsonv"
	"toolscope/core/lint"
	"toolscope/core/safefile"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
)

// Version is the file format's version; Parse refuses others.
const Version = 1

// MaxFileBytes is the largest baseline file read.
const MaxFileBytes = 64 << 20

// File is a baseline as it is stored, as JSON.
type File struct {
	// Kind is always "toolscope-baseline", so a stray JSON file is refused.
	Kind     string    `json:"kind"`
	Version  int       `json:"version"`
	Findings []Finding `json:"findings"`
	Pairs    []Pair    `json:"pairs"`
	// Catalogs, in a baseline of a run over several catalogs, holds each
	// catalog's results under its path (relative to the repository root);
	// Findings and Pairs are then empty.
	Catalogs []Section `json:"catalogs,omitempty"`
	// Tools prints each tool the entries name (Remember), so a later run
	// recognises a renamed tool as diff does and keeps its entries.
	Tools []ToolPrint `json:"tools,omitempty"`
}

// Section is one catalog's results in a baseline of several.
type Section struct {
	Path     string      `json:"path"`
	Findings []Finding   `json:"findings"`
	Pairs    []Pair      `json:"pairs"`
	Tools    []ToolPrint `json:"tools,omitempty"`
}

// ToolPrint is what a baseline keeps of a tool to know it under another
// name: hashes of its description and its input schema.
type ToolPrint struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Schema      string `json:"schema,omitempty"`
}

// printOf is a tool's print; a hash is "" for an empty description and
// for a schema without parameters, which say nothing of which tool it is.
func printOf(t *catalog.Tool) ToolPrint {
	p := ToolPrint{Name: t.Name}
	if t.Description != "" {
		p.Description = lint.Fingerprint("description:" + t.Description)
	}
	if props := t.Schema.Get("properties"); props != nil && len(props.Members) > 0 {
		p.Schema = lint.Fingerprint("schema:" + t.Schema.JSON())
	}
	return p
}

// Remember records the print of every tool f's entries name, from the
// catalog the results came from.
func (f *File) Remember(cat *catalog.Catalog) {
	f.Tools = prints(cat, f.Findings, f.Pairs)
}

func prints(cat *catalog.Catalog, findings []Finding, pairs []Pair) []ToolPrint {
	named := map[string]bool{}
	for _, x := range findings {
		named[x.Tool] = true
	}
	for _, p := range pairs {
		named[p.A], named[p.B] = true, true
	}
	var out []ToolPrint
	for _, t := range cat.Tools {
		if named[t.Name] {
			out = append(out, printOf(t))
			delete(named, t.Name)
		}
	}
	return out
}

// renamed is f with the tools a rename explains under their new names:
// a tool the baseline printed that cat no longer has, and a tool of cat
// the baseline does not name, are one tool renamed when their
// descriptions are equal (and not empty), or else when their input
// schemas are equal, declare parameters, and their names share a word,
// as diff matches renames. f itself when nothing was renamed.
func (f *File) renamed(cat *catalog.Catalog) *File {
	if len(f.Tools) == 0 {
		return f
	}
	inCat := map[string]bool{}
	for _, t := range cat.Tools {
		inCat[t.Name] = true
	}
	inBase := map[string]bool{}
	for _, p := range f.Tools {
		inBase[p.Name] = true
	}
	rename := map[string]string{}
	taken := map[string]bool{}
	for _, pass := range []func(old, now ToolPrint) bool{
		func(old, now ToolPrint) bool { return old.Description != "" && old.Description == now.Description },
		func(old, now ToolPrint) bool {
			return old.Schema != "" && old.Schema == now.Schema && diff.ShareWord(old.Name, now.Name)
		},
	} {
		for _, t := range cat.Tools {
			if inBase[t.Name] || taken[t.Name] {
				continue
			}
			now := printOf(t)
			for _, old := range f.Tools {
				if _, done := rename[old.Name]; !done && !inCat[old.Name] && pass(old, now) {
					rename[old.Name], taken[t.Name] = t.Name, true
					break
				}
			}
		}
	}
	if len(rename) == 0 {
		return f
	}
	name := func(s string) string {
		if n, ok := rename[s]; ok {
			return n
		}
		return s
	}
	out := &File{Kind: f.Kind, Version: f.Version, Findings: make([]Finding, len(f.Findings)), Pairs: make([]Pair, len(f.Pairs))}
	for i, x := range f.Findings {
		x.Tool = name(x.Tool)
		out.Findings[i] = x
	}
	for i, p := range f.Pairs {
		p.A, p.B = name(p.A), name(p.B)
		if p.B < p.A {
			p.A, p.B = p.B, p.A
		}
		out.Pairs[i] = p
	}
	return out
}

// Add records a catalog's report under its path, making f a baseline of
// several catalogs; a path added twice keeps the last report.
func (f *File) Add(path string, r *lint.Report, cat *catalog.Catalog) {
	one := FromReport(r)
	sec := Section{Path: path, Findings: one.Findings, Pairs: one.Pairs, Tools: prints(cat, one.Findings, one.Pairs)}
	if i := slices.IndexFunc(f.Catalogs, func(c Section) bool { return c.Path == path }); i >= 0 {
		f.Catalogs[i] = sec
	} else {
		f.Catalogs = append(f.Catalogs, sec)
	}
	slices.SortFunc(f.Catalogs, func(a, b Section) int { return strings.Compare(a.Path, b.Path) })
}

// NewMulti is an empty baseline of several catalogs, to Add to.
func NewMulti() *File {
	return &File{Kind: kind, Version: Version, Findings: []Finding{}, Pairs: []Pair{}, Catalogs: []Section{}}
}

// For is the baseline of the catalog at path: its section in a baseline
// of several (an empty one when it has none: everything is new), or f
// itself when f holds one catalog's results.
func (f *File) For(path string) *File {
	if f.Catalogs == nil {
		return f
	}
	one := &File{Kind: kind, Version: Version, Findings: []Finding{}, Pairs: []Pair{}}
	for _, c := range f.Catalogs {
		if c.Path == path {
			one.Findings, one.Pairs, one.Tools = c.Findings, c.Pairs, c.Tools
		}
	}
	return one
}

// Finding is a structural finding as the baseline keeps it.
type Finding struct {
	Rule     string        `json:"rule"`
	Tool     string        `json:"tool"`
	Param    string        `json:"param,omitempty"`
	Severity lint.Severity `json:"severity"`
	// Message is kept to tell an updated finding from an unchanged one;
	// it is not part of the finding's identity.
	Message string `json:"message"`
}

// Pair is a flagged pair as the baseline keeps it; A sorts before B.
type Pair struct {
	A    string             `json:"a"`
	B    string             `json:"b"`
	Kind similarity.Verdict `json:"kind"`
}

const kind = "toolscope-baseline"

// FromReport is the baseline of a report: its findings and its verdict
// pairs (confusable and watch), sorted by key.
func FromReport(r *lint.Report) *File {
	f := &File{Kind: kind, Version: Version, Findings: []Finding{}, Pairs: []Pair{}}
	for _, x := range r.Structural {
		f.Findings = append(f.Findings, Finding{Rule: x.Rule, Tool: x.Tool, Param: x.Param, Severity: x.Severity, Message: x.Message})
	}
	for _, list := range [][]similarity.PairFinding{r.Similarity.Confusable, r.Similarity.Watch} {
		for _, p := range list {
			a, b := p.A, p.B
			if b < a {
				a, b = b, a
			}
			f.Pairs = append(f.Pairs, Pair{A: a, B: b, Kind: p.Kind})
		}
	}
	f.sort()
	return f
}

func (f *File) sort() {
	slices.SortStableFunc(f.Findings, func(x, y Finding) int {
		return cmp.Or(strings.Compare(x.key(), y.key()), strings.Compare(string(x.Severity), string(y.Severity)), strings.Compare(x.Message, y.Message))
	})
	slices.SortStableFunc(f.Pairs, func(x, y Pair) int {
		return cmp.Or(strings.Compare(x.A, y.A), strings.Compare(x.B, y.B), strings.Compare(string(x.Kind), string(y.Kind)))
	})
}

func (f Finding) key() string {
	return lint.FindingKey(lint.Finding{Rule: f.Rule, Tool: f.Tool, Param: f.Param})
}

// Write writes the baseline as indented JSON. Catalog text in it is
// escaped as in lint's JSON report, so printing the file, or a diff of it
// in review, shows control characters instead of obeying them.
func (f *File) Write(w io.Writer) error {
	enc := json.NewEncoder(termsafe.JSON(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// WriteFile writes the baseline to path, replacing it whole (core/safefile):
// a run that fails halfway leaves the old file, and a symlink, a device
// or a FIFO at path is refused, not written through.
func (f *File) WriteFile(path string) error {
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		return err
	}
	if err := safefile.Write(path, b.Bytes()); err != nil {
		return fmt.Errorf("baseline %w", err)
	}
	return nil
}

// Load reads a baseline file.
func Load(path string) (*File, error) {
	data, err := safefile.Read(path, safefile.ReadOptions{Max: MaxFileBytes})
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("baseline %s: larger than %d MiB", path, MaxFileBytes>>20)
	}
	if err != nil {
		var se *safefile.Error
		if errors.As(err, &se) {
			err = se.Err
		}
		return nil, fmt.Errorf("baseline %s: cannot read: %w", path, err)
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	return f, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Parse reads a baseline from its JSON (a leading byte order mark
// skipped): one object of the known keys, the kind and version this
// package writes, every entry complete.
func Parse(data []byte) (*File, error) {
	// A byte order mark, as some editors save one, is no part of the JSON;
	// positions count from the character after it.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, jsonError(data, dec, err)
	}
	// Anything after the value but white space is refused (a decoder's
	// More says false to a stray "}").
	off := dec.InputOffset()
	if rest := bytes.TrimLeft(data[off:], " \t\r\n"); len(rest) > 0 {
		return nil, fmt.Errorf("%s: text after the JSON value (a baseline is one object)", lineCol(data, int64(len(data)-len(rest))))
	}
	// encoding/json keeps the last of two equal keys without a word; a
	// baseline edited by hand must not mean something else than it reads.
	if err := duplicateKey(data); err != nil {
		return nil, err
	}
	if f.Kind != kind {
		return nil, fmt.Errorf(`not a toolscope baseline (want "kind": %q)`, kind)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("version %d: this toolscope reads version %d", f.Version, Version)
	}
	if err := checkEntries("", f.Findings, f.Pairs); err != nil {
		return nil, err
	}
	for i := range f.Catalogs {
		c := &f.Catalogs[i]
		if c.Path == "" {
			return nil, fmt.Errorf("catalogs[%d]: want a path", i)
		}
		if err := checkEntries(fmt.Sprintf("catalogs[%d].", i), c.Findings, c.Pairs); err != nil {
			return nil, err
		}
		if c.Findings == nil {
			c.Findings = []Finding{}
		}
		if c.Pairs == nil {
			c.Pairs = []Pair{}
		}
	}
	if f.Findings == nil {
		f.Findings = []Finding{}
	}
	if f.Pairs == nil {
		f.Pairs = []Pair{}
	}
	return &f, nil
}

// checkEntries validates a list of findings and pairs, ordering each
// pair's names; prefix names the list's place in the file.
func checkEntries(prefix string, findings []Finding, pairs []Pair) error {
	for i, x := range findings {
		switch {
		// The tool may be "": a catalog's nameless tool is keyed by its
		// empty name (lint flags the name itself).
		case x.Rule == "":
			return fmt.Errorf("%sfindings[%d]: want a rule", prefix, i)
		case x.Severity != lint.SeverityError && x.Severity != lint.SeverityWarn:
			return fmt.Errorf("%sfindings[%d]: severity %q: want error or warn", prefix, i, x.Severity)
		}
	}
	for i, p := range pairs {
		switch {
		case p.Kind != similarity.Confusable && p.Kind != similarity.Watch:
			return fmt.Errorf("%spairs[%d]: kind %q: want confusable or watch", prefix, i, p.Kind)
		}
		if p.B < p.A {
			pairs[i].A, pairs[i].B = p.B, p.A
		}
	}
	return nil
}

// duplicateKey finds the first key that repeats in its object, as an
// error naming its line and column; nil when there is none. data was
// decoded already, so a string is a key exactly when a colon follows it.
// A hand scan, not the decoder's tokens: it adds a tenth to a load, the
// tokens more than doubled it.
func duplicateKey(data []byte) error {
	// An open object's keys so far: a short list, a set past a few (an
	// object of a million keys must not take a million squared steps).
	type object struct {
		keys  [][]byte
		set   map[string]bool
		array bool
	}
	const listed = 16
	var open []*object
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{':
			open = append(open, &object{})
		case '[':
			open = append(open, &object{array: true})
		case '}', ']':
			if len(open) > 0 { // trailing text the decoder did not read
				open = open[:len(open)-1]
			}
		case '"':
			start, escaped := i, false
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
					escaped = true
				}
			}
			if i >= len(data) {
				return nil
			}
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\r' || data[j] == '\n') {
				j++
			}
			if j == len(data) || data[j] != ':' || len(open) == 0 || open[len(open)-1].array {
				continue
			}
			key := data[start+1 : i]
			if escaped {
				var s string
				json.Unmarshal(data[start:i+1], &s)
				key = []byte(s)
			}
			o := open[len(open)-1]
			seen := o.set[string(key)]
			for _, k := range o.keys {
				seen = seen || bytes.Equal(k, key)
			}
			if seen {
				return fmt.Errorf("%s: key %s appears twice in its object", lineCol(data, int64(start)), termsafe.Line(jsonv.Quote(string(key))))
			}
			switch {
			case o.set != nil:
				o.set[string(key)] = true
			case len(o.keys) < listed:
				o.keys = append(o.keys, key)
			default:
				o.set = map[string]bool{string(key): true}
				for _, k := range o.keys {
					o.set[string(k)] = true
				}
				o.keys = nil
			}
		}
	}
	return nil
}

// lineCol is data's offset off as line:column.
func lineCol(data []byte, off int64) string {
	off = min(max(off, 0), int64(len(data)))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

// jsonError says where in data a decoding error is, as line:column.
func jsonError(data []byte, dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	switch {
	case errors.Is(err, io.EOF):
		msg = "empty: want a JSON object"
	case errors.Is(err, io.ErrUnexpectedEOF):
		// The decoder gives no offset: the file ends inside the value.
		off = int64(len(bytes.TrimRight(data, " \t\r\n")))
		msg = "unexpected end of input: the JSON value is not closed"
	}
	return fmt.Errorf("%s: %s", lineCol(data, off), msg)
}

// Apply compares r with the baseline: it sets each finding's and pair's
// BaselineState, lists the baseline's entries the run no longer reports,
// and makes the gate fail only on new failing results (r.OK). strict says
// warnings fail the gate (--strict); cat places absent findings on their
// tool when it is still there.
//
// A finding is updated when its severity or message moved, a pair when
// its verdict did. A failing result is new when it is new, or when the
// baseline had it below failing (a warning become an error, a watch pair
// become confusable). Confusable pairs the report's verdict list left out
// (Similarity.Truncated) cannot be matched and count as new.
func (f *File) Apply(r *lint.Report, cat *catalog.Catalog, file string, strict bool) {
	f = f.renamed(cat)
	sum := &lint.BaselineSummary{File: file, AbsentFindings: []lint.Finding{}, AbsentPairs: []similarity.PairFinding{}}
	known := map[string][]Finding{}
	for _, x := range f.Findings {
		known[x.key()] = append(known[x.key()], x)
	}
	matches := findingMatches(r)
	matchFindings(matches, known)
	countFindings(sum, matches, strict)
	tools := toolIndexOf(cat)
	for _, x := range f.Findings {
		k := x.key()
		if len(known[k]) == 0 {
			continue
		}
		x := known[k][0]
		known[k] = known[k][1:]
		sum.AbsentFindings = append(sum.AbsentFindings, lint.Finding{Rule: x.Rule, Tool: x.Tool, Param: x.Param,
			Severity: x.Severity, Message: x.Message, ToolIndex: tools.of(x.Tool), BaselineState: similarity.BaselineAbsent})
	}
	unmatched := matchPairs(r, f.Pairs, sum)
	for _, p := range f.Pairs {
		if _, ok := unmatched[lint.PairKey(p.A, p.B)]; !ok {
			continue
		}
		i, j := tools.of(p.A), tools.of(p.B)
		sum.AbsentPairs = append(sum.AbsentPairs, similarity.PairFinding{Kind: p.Kind,
			Pair: similarity.Pair{A: p.A, B: p.B, I: i, J: j}, BaselineState: similarity.BaselineAbsent})
	}
	sum.Absent = len(sum.AbsentFindings) + len(sum.AbsentPairs)
	r.Baseline = sum
	r.OK = sum.NewFailing == 0
}

// findingMatch is a finding of the run and the baseline entry it took.
type findingMatch struct {
	x     *lint.Finding
	count bool // false for a finding the config accepted: it counts nowhere
	was   *Finding
}

// findingMatches is the run's findings to match. What a project config
// accepted is matched too, so its results carry a state (SARIF wants one
// on every result once any has one) and its baseline entries are not
// reported absent; it counts nowhere.
func findingMatches(r *lint.Report) []findingMatch {
	var suppressed []lint.Finding
	if r.Suppressed != nil {
		suppressed = r.Suppressed.Findings
	}
	var matches []findingMatch
	for _, list := range []struct {
		findings []lint.Finding
		count    bool
	}{{r.Structural, true}, {suppressed, false}} {
		for i := range list.findings {
			matches = append(matches, findingMatch{x: &list.findings[i], count: list.count})
		}
	}
	return matches
}

// matchFindings sets each finding's state, taking its baseline entry out
// of known. A result takes the entry of its key alike in severity and
// message first, and only then another of its key: repeats of a key (an
// enum's members flagged one by one on one parameter) each find their
// own entry whatever order the catalog lists them in.
func matchFindings(matches []findingMatch, known map[string][]Finding) {
	for pass := range 2 {
		for i := range matches {
			res := &matches[i]
			if res.x.BaselineState != "" && pass == 1 {
				continue
			}
			k := lint.FindingKey(*res.x)
			was := known[k]
			j := 0
			if pass == 0 {
				res.x.BaselineState = ""
				j = slices.IndexFunc(was, func(w Finding) bool { return w.Severity == res.x.Severity && w.Message == res.x.Message })
			}
			switch {
			case len(was) == 0 || j < 0:
				if pass == 1 {
					res.x.BaselineState = similarity.BaselineNew
				}
				continue
			case pass == 0:
				res.x.BaselineState = similarity.BaselineUnchanged
			default:
				res.x.BaselineState = similarity.BaselineUpdated
			}
			w := was[j]
			res.was = &w
			known[k] = slices.Delete(was, j, j+1)
		}
	}
}

// countFindings counts the matched findings by state; a failing one is
// new when it is new or was below failing in the baseline.
func countFindings(sum *lint.BaselineSummary, matches []findingMatch, strict bool) {
	failing := func(s lint.Severity) bool { return s == lint.SeverityError || strict }
	for _, res := range matches {
		x := res.x
		if !res.count {
			continue
		}
		switch x.BaselineState {
		case similarity.BaselineNew:
			sum.New++
			if failing(x.Severity) {
				sum.NewFailing++
			}
		case similarity.BaselineUnchanged:
			sum.Unchanged++
		default:
			sum.Updated++
			if failing(x.Severity) && !failing(res.was.Severity) {
				sum.NewFailing++
			}
		}
	}
}

// matchPairs sets each flagged pair's state and counts it (an accepted
// pair is matched but counts nowhere), and counts the confusable pairs
// the verdict lists left out as new failing. It returns the baseline's
// pairs the run did not flag, by key.
func matchPairs(r *lint.Report, baseline []Pair, sum *lint.BaselineSummary) map[string]Pair {
	pairs := map[string]Pair{}
	for _, p := range baseline {
		pairs[lint.PairKey(p.A, p.B)] = p
	}
	sim := &r.Similarity
	var accepted []similarity.PairFinding
	if r.Suppressed != nil {
		accepted = r.Suppressed.Pairs
	}
	for _, list := range []struct {
		pairs []similarity.PairFinding
		count bool
	}{{sim.Confusable, true}, {sim.Watch, true}, {accepted, false}} {
		for i := range list.pairs {
			p := &list.pairs[i]
			k := lint.PairKey(p.A, p.B)
			was, ok := pairs[k]
			switch {
			case !ok:
				p.BaselineState = similarity.BaselineNew
			case was.Kind == p.Kind:
				p.BaselineState = similarity.BaselineUnchanged
			default:
				p.BaselineState = similarity.BaselineUpdated
			}
			delete(pairs, k)
			if list.count {
				countPair(sum, p, r.Review)
			}
		}
	}
	if sim.ConfusableCount > len(sim.Confusable) {
		sum.NewFailing += sim.ConfusableCount - len(sim.Confusable)
	}
	if r.Review && sim.WatchCount > len(sim.Watch) {
		sum.NewFailing += sim.WatchCount - len(sim.Watch)
	}
	return pairs
}

// countPair counts a matched pair by state; a pair that fails the gate
// (a watch pair only in a review run) is new failing unless unchanged.
func countPair(sum *lint.BaselineSummary, p *similarity.PairFinding, review bool) {
	switch p.BaselineState {
	case similarity.BaselineNew:
		sum.New++
	case similarity.BaselineUnchanged:
		sum.Unchanged++
	default:
		sum.Updated++
	}
	if (p.Kind == similarity.Confusable || review && p.Kind == similarity.Watch) && p.BaselineState != similarity.BaselineUnchanged {
		sum.NewFailing++
	}
}

// toolIndex is the index of each name's first tool, to place an absent
// entry on its tool when the catalog still has it.
type toolIndex map[string]int

func toolIndexOf(cat *catalog.Catalog) toolIndex {
	index := toolIndex{}
	for _, t := range cat.Tools {
		if _, ok := index[t.Name]; !ok {
			index[t.Name] = t.Index
		}
	}
	return index
}

// of is the name's tool index, -1 when the catalog has no such tool.
func (t toolIndex) of(name string) int {
	if i, ok := t[name]; ok {
		return i
	}
	return -1
}
