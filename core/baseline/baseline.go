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
	"toolscope/core/lint"
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

// WriteFile writes the baseline to path, replacing it whole: a run that
// fails halfway leaves the old file.
func (f *File) WriteFile(path string) error {
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("baseline %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("baseline %s: %w", path, err)
	}
	return nil
}

// Load reads a baseline file.
func Load(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("baseline %s: cannot read: %w", path, unwrapPath(err))
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("baseline %s: cannot read: %w", path, err)
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("baseline %s: larger than %d MiB", path, MaxFileBytes>>20)
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
	if dec.More() {
		return nil, errors.New("more than one JSON value")
	}
	if f.Kind != kind {
		return nil, fmt.Errorf(`not a toolscope baseline (want "kind": %q)`, kind)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("version %d: this toolscope reads version %d", f.Version, Version)
	}
	for i, x := range f.Findings {
		switch {
		case x.Rule == "" || x.Tool == "":
			return nil, fmt.Errorf("findings[%d]: want a rule and a tool", i)
		case x.Severity != lint.SeverityError && x.Severity != lint.SeverityWarn:
			return nil, fmt.Errorf("findings[%d]: severity %q: want error or warn", i, x.Severity)
		}
	}
	for i, p := range f.Pairs {
		switch {
		case p.A == "" || p.B == "":
			return nil, fmt.Errorf("pairs[%d]: want two tool names, a and b", i)
		case p.Kind != similarity.Confusable && p.Kind != similarity.Watch:
			return nil, fmt.Errorf("pairs[%d]: kind %q: want confusable or watch", i, p.Kind)
		}
		if p.B < p.A {
			f.Pairs[i].A, f.Pairs[i].B = p.B, p.A
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
	off = min(max(off, 0), int64(len(data)))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(data[:off], '\n')
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if errors.Is(err, io.EOF) {
		msg = "empty: want a JSON object"
	}
	return fmt.Errorf("%d:%d: %s", line, col, msg)
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
	failing := func(s lint.Severity) bool { return s == lint.SeverityError || strict }
	sum := &lint.BaselineSummary{File: file, AbsentFindings: []lint.Finding{}, AbsentPairs: []similarity.PairFinding{}}
	known := map[string][]Finding{}
	for _, x := range f.Findings {
		known[x.key()] = append(known[x.key()], x)
	}
	// What a project config accepted is matched too, so its results carry
	// a state (SARIF wants one on every result once any has one) and its
	// baseline entries are not reported absent; it counts nowhere.
	var suppressed []lint.Finding
	if r.Suppressed != nil {
		suppressed = r.Suppressed.Findings
	}
	type result struct {
		x     *lint.Finding
		count bool
		was   *Finding
	}
	var results []result
	for _, list := range []struct {
		findings []lint.Finding
		count    bool
	}{{r.Structural, true}, {suppressed, false}} {
		for i := range list.findings {
			results = append(results, result{x: &list.findings[i], count: list.count})
		}
	}
	// A result takes the baseline entry of its key alike in severity and
	// message first, and only then another of its key: repeats of a key (an
	// enum's members flagged one by one on one parameter) each find their
	// own entry whatever order the catalog lists them in.
	for pass := range 2 {
		for i := range results {
			res := &results[i]
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
	for _, res := range results {
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
	index := map[string]int{}
	for _, t := range cat.Tools {
		if _, ok := index[t.Name]; !ok {
			index[t.Name] = t.Index
		}
	}
	toolIndex := func(name string) int {
		if i, ok := index[name]; ok {
			return i
		}
		return -1
	}
	for _, x := range f.Findings {
		k := x.key()
		if len(known[k]) == 0 {
			continue
		}
		x := known[k][0]
		known[k] = known[k][1:]
		sum.AbsentFindings = append(sum.AbsentFindings, lint.Finding{Rule: x.Rule, Tool: x.Tool, Param: x.Param,
			Severity: x.Severity, Message: x.Message, ToolIndex: toolIndex(x.Tool), BaselineState: similarity.BaselineAbsent})
	}
	pairs := map[string]Pair{}
	for _, p := range f.Pairs {
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
			if !list.count {
				continue
			}
			switch p.BaselineState {
			case similarity.BaselineNew:
				sum.New++
			case similarity.BaselineUnchanged:
				sum.Unchanged++
			default:
				sum.Updated++
			}
			if p.Kind == similarity.Confusable && p.BaselineState != similarity.BaselineUnchanged {
				sum.NewFailing++
			}
		}
	}
	if sim.ConfusableCount > len(sim.Confusable) {
		sum.NewFailing += sim.ConfusableCount - len(sim.Confusable)
	}
	for _, p := range f.Pairs {
		if _, ok := pairs[lint.PairKey(p.A, p.B)]; !ok {
			continue
		}
		i, j := toolIndex(p.A), toolIndex(p.B)
		sum.AbsentPairs = append(sum.AbsentPairs, similarity.PairFinding{Kind: p.Kind,
			Pair: similarity.Pair{A: p.A, B: p.B, I: i, J: j}, BaselineState: similarity.BaselineAbsent})
	}
	sum.Absent = len(sum.AbsentFindings) + len(sum.AbsentPairs)
	r.Baseline = sum
	r.OK = sum.NewFailing == 0
}
