package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"toolscope/core/jsonv"
	"toolscope/core/safefile"
	"toolscope/core/termsafe"
)

// ProbeFileName is the probe record kept in a repository beside
// toolscope.yaml, where the explorer finds it.
const ProbeFileName = "toolscope.probe.json"

// probeRecordVersion is the record's "probe" field: the shape of the file.
const probeRecordVersion = 1

// ProbedTool is a tool as the probe saw it: its name and the hash of its
// texts (Tool.TextHash).
type ProbedTool struct {
	Name  string `json:"name"`
	Texts string `json:"texts"`
}

// ProbeRecord is a probe kept as data: the model asked, when, the catalog's
// tools as their texts were then, and every request with the tool it was
// meant for and the tool picked. The explorer reads it to show, beside a
// pair's risk, how often the model took one tool for the other.
type ProbeRecord struct {
	Model string
	Date  time.Time
	Tools []ProbedTool
	Cases []ProbeCase
	// Choice is the tool choice the requests were sent with, Repeats how
	// many times each was sent and Seed what the orders after the first
	// were shuffled from; a record that does not say has "", 0 and 0
	// (one sending, tool call required).
	Choice  string
	Repeats int
	Seed    uint64

	// texts is each tool's hash by name; of counts the requests meant for
	// a tool; went[{a, b}] counts those meant for a that went to b.
	texts map[string]string
	of    map[string]int
	went  map[[2]string]int
}

// NewProbeRecord keeps a probe's cases with the texts of the tools probed,
// dated date.
func NewProbeRecord(p Probe, tools []Tool, date time.Time) *ProbeRecord {
	r := &ProbeRecord{Model: p.Model, Date: date.UTC().Truncate(time.Second), Cases: slices.Clone(p.Cases), Choice: p.ToolChoice, Repeats: p.Repeats, Seed: p.Seed}
	for _, t := range tools {
		r.Tools = append(r.Tools, ProbedTool{Name: t.Name, Texts: t.TextHash()})
	}
	r.index()
	return r
}

func (r *ProbeRecord) index() {
	r.texts, r.of, r.went = map[string]string{}, map[string]int{}, map[[2]string]int{}
	for _, t := range r.Tools {
		r.texts[t.Name] = t.Texts
	}
	for _, c := range r.Cases {
		r.of[c.Tool]++
		if c.Picked != c.Tool {
			r.went[[2]string{c.Tool, c.Picked}]++
		}
	}
}

// Encode renders the record as its file: JSON with one tool and one case
// per line, so that a new probe reads well in a diff.
func (r *ProbeRecord) Encode() []byte {
	var b bytes.Buffer
	str := func(s string) string { q, _ := json.Marshal(s); return string(q) }
	fmt.Fprintf(&b, "{\n  \"probe\": %d,\n  \"model\": %s,\n  \"date\": %s,\n", probeRecordVersion, str(r.Model), str(r.Date.UTC().Format(time.RFC3339)))
	if r.Choice != "" {
		fmt.Fprintf(&b, "  \"toolChoice\": %s,\n", str(r.Choice))
	}
	if r.Repeats > 0 {
		fmt.Fprintf(&b, "  \"repeats\": %d,\n  \"seed\": %d,\n", r.Repeats, r.Seed)
	}
	b.WriteString("  \"tools\": [")
	for i, t := range r.Tools {
		line, _ := json.Marshal(t)
		b.WriteString(sep(i) + "\n    ")
		b.Write(line)
	}
	b.WriteString(closing(len(r.Tools)) + ",\n  \"cases\": [")
	for i, c := range r.Cases {
		rc := recordCase{Tool: c.Tool, Request: c.Request, Picked: c.Picked, From: c.From, Repeat: c.Repeat, Arguments: c.Arguments}
		if c.ArgumentIssues != nil {
			rc.ArgumentIssues = &c.ArgumentIssues
		}
		line, _ := json.Marshal(rc)
		b.WriteString(sep(i) + "\n    ")
		b.Write(line)
	}
	b.WriteString(closing(len(r.Cases)) + "\n}\n")
	return b.Bytes()
}

// recordCase is a case as the record keeps it: the arguments the model
// sent and the boundary's issues with them, when the probe checked them.
type recordCase struct {
	Tool           string          `json:"tool"`
	Request        string          `json:"request"`
	Picked         string          `json:"picked"`
	From           string          `json:"from,omitempty"`
	Repeat         int             `json:"repeat,omitempty"`
	Arguments      json.RawMessage `json:"arguments,omitempty"`
	ArgumentIssues *[]string       `json:"argumentIssues,omitempty"`
}

func sep(i int) string {
	if i == 0 {
		return ""
	}
	return ","
}

func closing(n int) string {
	if n == 0 {
		return "]"
	}
	return "\n  ]"
}

// WriteFile writes the record to path atomically (core/safefile: a fresh
// temp file beside it, renamed over it); a symlink or anything but a
// regular file at path is refused.
func (r *ProbeRecord) WriteFile(path string) error {
	// Written requests come from a model: bidi overrides, C1 controls
	// and tag characters are kept escaped.
	if err := safefile.Write(path, termsafe.EscapeJSON(r.Encode())); err != nil {
		return fmt.Errorf("probe %w", err)
	}
	return nil
}

// ReadProbeFile reads a probe record; a missing file is nil and no error.
// A bad file is one error naming the file, and the line and column where
// the file says something else than a record. Anything but a regular
// file, or one over 64 MiB, is refused unread.
func ReadProbeFile(path string) (*ProbeRecord, error) {
	return readProbeFile(path, false)
}

// ReadFoundProbeFile reads a probe record a run found rather than was
// given: as ReadProbeFile, refused when another user owns it or may write
// it (see ReadFoundFile).
func ReadFoundProbeFile(path string) (*ProbeRecord, error) {
	return readProbeFile(path, true)
}

func readProbeFile(path string, owned bool) (*ProbeRecord, error) {
	data, err := readBounded(path, owned)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("probe %w", err)
	}
	r, err := ParseProbeRecord(data)
	if err != nil {
		return nil, fmt.Errorf("probe %s:%w", path, err)
	}
	return r, nil
}

// ParseProbeRecord reads a probe record's text. An error starts with the
// line and column it is about ("3:12: ...").
func ParseProbeRecord(data []byte) (*ProbeRecord, error) {
	root, err := jsonv.Parse(data)
	if err != nil {
		var syn *jsonv.SyntaxError
		if errors.As(err, &syn) {
			return nil, atPos(syn.Pos, "%s", syn.Msg)
		}
		return nil, atPos(jsonv.Pos{Line: 1, Col: 1}, "%s", err)
	}
	if err := members(root, "the record", "probe", "model", "date", "toolChoice", "repeats", "seed", "tools", "cases"); err != nil {
		return nil, err
	}
	r := &ProbeRecord{}
	if err := r.parseHeader(root); err != nil {
		return nil, err
	}
	if err := r.parseSending(root); err != nil {
		return nil, err
	}
	known, err := r.parseTools(root)
	if err != nil {
		return nil, err
	}
	cases, err := list(root, "cases")
	if err != nil {
		return nil, err
	}
	for i, cv := range cases {
		c, err := parseProbeCase(cv, fmt.Sprintf("cases[%d]", i), known)
		if err != nil {
			return nil, err
		}
		r.Cases = append(r.Cases, c)
	}
	r.index()
	return r, nil
}

// parseHeader reads the record's version, which must be the one this
// toolscope writes, its model and its date.
func (r *ProbeRecord) parseHeader(root *jsonv.Value) error {
	v := root.Get("probe")
	if n, ok := v.Int(); !ok || n != probeRecordVersion {
		return atPos(posOf(root, v), `"probe" must be %d (the record's version); this toolscope reads no other`, probeRecordVersion)
	}
	var err error
	if r.Model, err = text(root, "model"); err != nil {
		return err
	}
	date, err := text(root, "date")
	if err != nil {
		return err
	}
	if r.Date, err = time.Parse(time.RFC3339, date); err != nil {
		return atPos(root.Get("date").Pos, `"date" %s is not an RFC 3339 time (2026-03-10T12:00:00Z)`, jsonv.Quote(clip(date, 40)))
	}
	return nil
}

// parseSending reads how the requests were sent: the tool choice, the
// repeats and the seed, each optional (an older record has none).
func (r *ProbeRecord) parseSending(root *jsonv.Value) error {
	if v := root.Get("toolChoice"); v != nil {
		choice, ok := v.Str()
		if !ok || (choice != ChoiceRequired && choice != ChoiceAuto) {
			return atPos(v.Pos, `"toolChoice" must be %q or %q`, ChoiceRequired, ChoiceAuto)
		}
		r.Choice = choice
	}
	if v := root.Get("repeats"); v != nil {
		n, ok := v.Int()
		if !ok || n < 1 || n > MaxRepeats {
			return atPos(v.Pos, `"repeats" must be a whole number from 1 to %d`, MaxRepeats)
		}
		r.Repeats = n
	}
	if v := root.Get("seed"); v != nil {
		seed, err := strconv.ParseUint(v.JSON(), 10, 64)
		if err != nil {
			return atPos(v.Pos, `"seed" must be a whole number from 0 to %d`, uint64(math.MaxUint64))
		}
		r.Seed = seed
	}
	return nil
}

// parseTools reads the tools probed, each named once; known is the names
// a case may be meant for (theirs and NoPick).
func (r *ProbeRecord) parseTools(root *jsonv.Value) (known map[string]bool, err error) {
	tools, err := list(root, "tools")
	if err != nil {
		return nil, err
	}
	known, seen := map[string]bool{NoPick: true}, map[string]bool{}
	for i, tv := range tools {
		where := fmt.Sprintf("tools[%d]", i)
		if err := members(tv, where, "name", "texts"); err != nil {
			return nil, err
		}
		var t ProbedTool
		if t.Name, err = text(tv, "name"); err != nil {
			return nil, err
		}
		if seen[t.Name] {
			return nil, atPos(tv.Pos, "%s: tool %s is listed twice", where, jsonv.Quote(clip(t.Name, 64)))
		}
		known[t.Name], seen[t.Name] = true, true
		if t.Texts, err = text(tv, "texts"); err != nil {
			return nil, err
		}
		if !strings.HasPrefix(t.Texts, "sha256:") {
			return nil, atPos(tv.Get("texts").Pos, `%s: "texts" must be the tool's "sha256:…" text hash`, where)
		}
		r.Tools = append(r.Tools, t)
	}
	return known, nil
}

// parseProbeCase reads the case cv, at where, meant for one of the known
// tools.
func parseProbeCase(cv *jsonv.Value, where string, known map[string]bool) (ProbeCase, error) {
	var c ProbeCase
	if err := members(cv, where, "tool", "request", "picked", "from", "repeat", "arguments", "argumentIssues"); err != nil {
		return c, err
	}
	var err error
	if c.Tool, err = text(cv, "tool"); err != nil {
		return c, err
	}
	if !known[c.Tool] {
		return c, atPos(cv.Get("tool").Pos, "%s: tool %s is not among the record's tools", where, jsonv.Quote(clip(c.Tool, 64)))
	}
	if c.Request, err = text(cv, "request"); err != nil {
		return c, err
	}
	if c.Picked, err = text(cv, "picked"); err != nil {
		return c, err
	}
	if fv := cv.Get("from"); fv != nil {
		from, ok := fv.Str()
		if !ok || !slices.Contains(caseSources, from) {
			return c, atPos(fv.Pos, `%s: "from" must be one of %s`, where, strings.Join(caseSources, ", "))
		}
		c.From = from
	}
	if rv := cv.Get("repeat"); rv != nil {
		n, ok := rv.Int()
		if !ok || n < 1 || n > MaxRepeats {
			return c, atPos(rv.Pos, `%s: "repeat" must be a whole number from 1 to %d`, where, MaxRepeats)
		}
		c.Repeat = n
	}
	if av := cv.Get("arguments"); av != nil && av.Kind != jsonv.Null {
		c.Arguments = json.RawMessage(av.JSON())
	}
	if iv := cv.Get("argumentIssues"); iv != nil {
		if c.ArgumentIssues, err = argumentIssues(iv, where); err != nil {
			return c, err
		}
	}
	return c, nil
}

// argumentIssues reads a case's "argumentIssues", an array of strings.
func argumentIssues(iv *jsonv.Value, where string) ([]string, error) {
	if !iv.Is(jsonv.Array) {
		return nil, atPos(iv.Pos, `%s: "argumentIssues" is %s, want an array of strings`, where, iv.ArticleType())
	}
	issues := []string{}
	for _, item := range iv.Items {
		is, ok := item.Str()
		if !ok {
			return nil, atPos(item.Pos, `%s: "argumentIssues" holds %s, want strings`, where, item.ArticleType())
		}
		issues = append(issues, is)
	}
	return issues, nil
}

// at is an error about a place in the record: "line:column: what".
func atPos(p jsonv.Pos, format string, args ...any) error {
	return fmt.Errorf("%d:%d: %s", p.Line, p.Col, fmt.Sprintf(format, args...))
}

// posOf is v's place, or its parent's when v is missing.
func posOf(parent, v *jsonv.Value) jsonv.Pos {
	if v != nil {
		return v.Pos
	}
	return parent.Pos
}

// members checks that v is an object with only the keys allowed, each
// once.
func members(v *jsonv.Value, where string, allowed ...string) error {
	if !v.Is(jsonv.Object) {
		return atPos(v.Pos, "%s is %s, want an object", where, v.ArticleType())
	}
	if len(v.Dups) > 0 {
		return atPos(v.Pos, "%s: %s is given twice", where, jsonv.Quote(clip(v.Dups[0], 64)))
	}
	for _, m := range v.Members {
		if !slices.Contains(allowed, m.Key) {
			return atPos(m.Pos, "%s: unknown field %s (known: %s)", where, jsonv.Quote(clip(m.Key, 64)), strings.Join(allowed, ", "))
		}
	}
	return nil
}

// text is the non-empty string at key in the object v.
func text(v *jsonv.Value, key string) (string, error) {
	f := v.Get(key)
	s, ok := f.Str()
	switch {
	case f == nil:
		return "", atPos(v.Pos, "no %s", jsonv.Quote(key))
	case !ok:
		return "", atPos(f.Pos, "%s is %s, want a string", jsonv.Quote(key), f.ArticleType())
	case strings.TrimSpace(s) == "":
		return "", atPos(f.Pos, "%s is empty", jsonv.Quote(key))
	}
	return s, nil
}

// list is the array at key in the object v.
func list(v *jsonv.Value, key string) ([]*jsonv.Value, error) {
	f := v.Get(key)
	if f == nil {
		return nil, atPos(v.Pos, "no %s", jsonv.Quote(key))
	}
	if !f.Is(jsonv.Array) {
		return nil, atPos(f.Pos, "%s is %s, want an array", jsonv.Quote(key), f.ArticleType())
	}
	return f.Items, nil
}

// Changed reports whether t's texts differ from those the probe saw, or
// the probe did not see t at all.
func (r *ProbeRecord) Changed(t Tool) bool {
	h, ok := r.texts[t.Name]
	return !ok || h != t.TextHash()
}

// Crossing is what a probe measured of a pair: of the OfA requests for A,
// AB went to B; of the OfB for B, BA went to A.
type Crossing struct {
	A   string `json:"a"`
	B   string `json:"b"`
	AB  int    `json:"ab"`
	OfA int    `json:"ofA"`
	BA  int    `json:"ba"`
	OfB int    `json:"ofB"`
}

// Count is the requests for either tool that went to the other.
func (c Crossing) Count() int { return c.AB + c.BA }

// Of is the requests written for either tool.
func (c Crossing) Of() int { return c.OfA + c.OfB }

// PairRate is a recorded probe's measure of a pair, as the explorer shows
// it beside the risk.
type PairRate struct {
	Crossing
	// Stale is set when either tool's texts changed since the probe.
	Stale bool
}

// Rate is the probe's measure of the pair a, b, when it sent requests
// for both; Stale is left for the caller, who knows the current texts.
func (r *ProbeRecord) Rate(a, b string) (PairRate, bool) {
	if r == nil || a == b || r.of[a] == 0 || r.of[b] == 0 {
		return PairRate{}, false
	}
	return PairRate{Crossing: Crossing{A: a, B: b, AB: r.went[[2]string{a, b}], OfA: r.of[a], BA: r.went[[2]string{b, a}], OfB: r.of[b]}}, true
}

// RateOf is Rate for two tools as they read now, stale when either
// changed since the probe.
func (r *ProbeRecord) RateOf(a, b Tool) (PairRate, bool) {
	p, ok := r.Rate(a.Name, b.Name)
	if ok {
		p.Stale = r.Changed(a) || r.Changed(b)
	}
	return p, ok
}

// MostRequests is the largest Of a pair of the record can have: the two
// tools with the most requests together. A column of rates is as wide as
// this one's.
func (r *ProbeRecord) MostRequests() int {
	first, second := 0, 0
	for _, n := range r.of {
		switch {
		case n > first:
			first, second = n, first
		case n > second:
			second = n
		}
	}
	return first + second
}

// Short is the rate as a pane's column shows it: "3/10", with a "*" when
// the measurement is stale.
func (p PairRate) Short() string {
	s := strconv.Itoa(p.Count()) + "/" + strconv.Itoa(p.Of())
	if p.Stale {
		s += "*"
	}
	return s
}

// Sentences are the pair's two directions in words: "3 of 5 requests for
// a went to b", then the reverse.
func (p PairRate) Sentences() [2]string {
	return [2]string{
		Confusion{Tool: p.A, Picked: p.B, Count: p.AB, Of: p.OfA}.Sentence(),
		Confusion{Tool: p.B, Picked: p.A, Count: p.BA, Of: p.OfB}.Sentence(),
	}
}

// Accuracy is the share of the record's cases that went where they were
// meant to (negatives to no tool), with its 95% Wilson interval.
func (r *ProbeRecord) Accuracy() Share {
	right := 0
	for _, c := range r.Cases {
		if c.Right() {
			right++
		}
	}
	return NewShare(right, len(r.Cases))
}

// Stale names what differs between the catalog's tools now and those the
// probe saw: a tool whose texts changed, one the catalog no longer has,
// one added since. The model chooses among the whole catalog, so any of
// them makes the measure one of other texts. Nil when none does.
func (r *ProbeRecord) Stale(tools []Tool) []string {
	var out []string
	now := map[string]bool{}
	for _, t := range tools {
		now[t.Name] = true
		h, ok := r.texts[t.Name]
		switch {
		case !ok:
			out = append(out, t.Name+" (added)")
		case h != t.TextHash():
			out = append(out, t.Name+" (changed)")
		}
	}
	for _, t := range r.Tools {
		if !now[t.Name] {
			out = append(out, t.Name+" (removed)")
		}
	}
	return out
}

// CheckRepeats says how the record's cases contradict its "repeats": a
// case in a repeat past it, or a request not sent once in every repeat
// (a case without "repeat" is in the first). Such a record cannot be
// paired request by request: its share would count requests it does not
// hold, or hold twice.
func (r *ProbeRecord) CheckRepeats() error {
	n := max(r.Repeats, 1)
	type key struct{ tool, request string }
	sent := map[key][]int{}
	var order []key
	for i, c := range r.Cases {
		rep := max(c.Repeat, 1)
		if rep > n {
			return fmt.Errorf("cases[%d] is in repeat %d, but the record says each request was sent %s", i, rep, plural(n, "time"))
		}
		k := key{c.Tool, c.Request}
		if sent[k] == nil {
			sent[k] = make([]int, n+1)
			order = append(order, k)
		}
		sent[k][rep]++
	}
	for _, k := range order {
		for rep := 2; rep <= n; rep++ {
			if sent[k][rep] != sent[k][1] {
				return fmt.Errorf("request %q for %s is in repeat 1 %s and in repeat %d %s; the record says each request was sent %s",
					clip(k.request, 60), k.tool, plural(sent[k][1], "time"), rep, plural(sent[k][rep], "time"), plural(n, "time"))
			}
		}
	}
	return nil
}
