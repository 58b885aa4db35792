package judge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"toolscope/core/catalog"
	"toolscope/core/safefile"
	"toolscope/core/termsafe"
)

// FileName is the judgments file kept in a repository beside
// toolscope.yaml.
const FileName = "toolscope.judgments.jsonl"

// maxFileBytes bounds a judgments file read whole.
const maxFileBytes = 64 << 20

// Records is a set of judgments: read from a judgments file or the disk
// cache, added to by a run. It is safe for concurrent use.
type Records struct {
	mu    sync.Mutex
	byKey map[string]Judgment
	// byPair lists the keys recorded for a pair of names.
	byPair map[[2]string][]string
	// reviews holds the tools' reviews by key, byTool their keys by the
	// tool's name (review_records.go).
	reviews map[string]Review
	byTool  map[string][]string
}

// NewRecords is an empty set.
func NewRecords() *Records {
	return &Records{byKey: map[string]Judgment{}, byPair: map[[2]string][]string{}, reviews: map[string]Review{}, byTool: map[string][]string{}}
}

// Add records j, replacing a judgment with the same key.
func (r *Records) Add(j Judgment) {
	if j.B < j.A {
		j.A, j.B = j.B, j.A
		if j.Fix != nil {
			f := Fix{A: j.Fix.B, B: j.Fix.A}
			j.Fix = &f
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	k := j.Key()
	if _, ok := r.byKey[k]; !ok {
		names := [2]string{j.A, j.B}
		r.byPair[names] = append(r.byPair[names], k)
	}
	r.byKey[k] = j
}

// Replace records j in place of every judgment of the same pair by the
// same judge (older texts, older prompt versions): a file keeps one
// judgment per pair and judge.
func (r *Records) Replace(j Judgment) {
	r.Remove(j.A, j.B, j.By)
	r.Add(j)
}

// Remove drops every judgment of the pair by the judge by (a person's
// accept undone), and says how many it dropped.
func (r *Records) Remove(a, b, by string) int {
	names := ordered(a, b)
	r.mu.Lock()
	defer r.mu.Unlock()
	keep := r.byPair[names][:0]
	n := 0
	for _, k := range r.byPair[names] {
		if r.byKey[k].By == by {
			delete(r.byKey, k)
			n++
			continue
		}
		keep = append(keep, k)
	}
	r.byPair[names] = keep
	return n
}

// Len is the number of judgments held.
func (r *Records) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byKey)
}

// All returns the judgments ordered by names, then judge.
func (r *Records) All() []Judgment {
	r.mu.Lock()
	out := make([]Judgment, 0, len(r.byKey))
	for _, j := range r.byKey {
		out = append(out, j)
	}
	r.mu.Unlock()
	slices.SortFunc(out, func(x, y Judgment) int {
		return strings.Compare(x.A+"\x00"+x.B+"\x00"+x.By+"\x00"+x.Texts, y.A+"\x00"+y.B+"\x00"+y.By+"\x00"+y.Texts)
	})
	return out
}

// Lookup finds the judgment of exactly this pair's texts by this judge and
// prompt version.
func (r *Records) Lookup(p Pair, by, prompt string) (Judgment, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	j, ok := r.byKey[key(p.Names(), p.TextHash(), by, prompt)]
	return j, ok
}

// Replay finds the judgment that holds for the pair's current texts: a
// person's first, then prefer's (the judge asked for now, "" for none),
// then any model's, newest prompt version first. stale is true when the
// names were judged but every judgment is of other texts.
func (r *Records) Replay(p Pair, prefer string) (j Judgment, ok, stale bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return holding(r.byPair[p.Names()], func(k string) (Judgment, string, string, string) {
		c := r.byKey[k]
		return c, c.Texts, c.By, c.Prompt
	}, p.TextHash(), prefer, PromptVersion)
}

// holding picks, of one subject's records (a pair's judgments, a tool's
// reviews) by key, the one that holds for texts: a person's first, then
// prefer's under version, then any model's, newest prompt first. stale is
// true when every record is of other texts.
func holding[T any](keys []string, get func(key string) (rec T, texts, by, prompt string), texts, prefer, version string) (held T, ok, stale bool) {
	best, bestPrompt := -1, ""
	for _, k := range keys {
		c, ctexts, by, prompt := get(k)
		if ctexts != texts {
			stale = true
			continue
		}
		rank := 1
		switch {
		case by == PersonBy:
			rank = 3
		case prefer != "" && by == prefer && prompt == version:
			rank = 2
		}
		if rank > best || (rank == best && prompt > bestPrompt) {
			held, best, bestPrompt = c, rank, prompt
		}
	}
	if best < 0 {
		var none T
		return none, false, stale
	}
	return held, true, false
}

// Judged reports whether any judgment names the pair, fresh or stale.
func (r *Records) Judged(names [2]string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.byPair[names]) > 0
}

// ReadFile reads a judgments file: one JSON judgment per line, blank lines
// and lines starting with # skipped. A missing file is an empty set; a bad
// line is an error naming the file and the line. Anything but a regular
// file, or one over 64 MiB, is refused unread.
func ReadFile(path string) (*Records, error) {
	return readFile(path, false)
}

// ReadFoundFile reads a judgments file a run found rather than was given
// (beside the project config, in the catalog's directory): as ReadFile,
// and like the config it is refused when another user owns it or may
// write it, since its judgments decide what lint reports.
func ReadFoundFile(path string) (*Records, error) {
	return readFile(path, true)
}

func readFile(path string, owned bool) (*Records, error) {
	r := NewRecords()
	data, err := readBounded(path, owned)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("judgments %w", err)
	}
	if err := r.parse(data, func(line int, err error) error {
		return fmt.Errorf("judgments %s:%d: %w", path, line, err)
	}); err != nil {
		return nil, err
	}
	return r, nil
}

// readBounded reads a record file (judgments, probe record) through
// safefile.Read: a regular file only, at most maxFileBytes; owned adds the
// ownership check. An ownership refusal says how to read the file anyway.
func readBounded(path string, owned bool) ([]byte, error) {
	data, err := safefile.Read(path, safefile.ReadOptions{Max: maxFileBytes, Owned: owned})
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist):
		return data, err
	case errors.Is(err, safefile.ErrTooLarge):
		return nil, fmt.Errorf("%s: larger than %d MiB, not read", path, maxFileBytes>>20)
	case errors.Is(err, safefile.ErrNotOwned):
		return nil, fmt.Errorf("%w: not read (name the file with its flag to use it anyway)", err)
	}
	return nil, err
}

// Parse reads judgments-file text (see ReadFile); errors name the line.
func Parse(data []byte) (*Records, error) {
	r := NewRecords()
	err := r.parse(data, func(line int, err error) error { return fmt.Errorf("line %d: %w", line, err) })
	if err != nil {
		return nil, err
	}
	return r, nil
}

// parse adds every line of data; onBad turns a bad line into the error to
// return, or nil to skip it.
func (r *Records) parse(data []byte, onBad func(line int, err error) error) error {
	return scanLines(data, r.addLine, onBad)
}

// scanLines reads a JSON-lines record file (judgments, review answers):
// each line, blank lines and # comments skipped, to each; onBad turns a
// bad line into the error to return, or nil to go on.
func scanLines(data []byte, each func(line []byte) error, onBad func(line int, err error) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4<<10), maxLineBytes)
	n := 1
	for ; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if err := each(line); err != nil {
			if e := onBad(n, err); e != nil {
				return e
			}
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return onBad(n, fmt.Errorf("a line over %d MiB: no record is that long", maxLineBytes>>20))
	} else if err != nil {
		return onBad(n, err)
	}
	return nil
}

// maxLineBytes bounds one judgment line: two names, a reason, a fix and a
// hash take a few hundred bytes.
const maxLineBytes = 1 << 20

// maxRecordReason bounds a recorded reason as it is read: a model's is
// clipped to maxReason when it answers, a person's is a sentence.
const maxRecordReason = 2000

// parseRecord reads and checks one judgment line.
func parseRecord(line []byte) (Judgment, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var j Judgment
	if err := dec.Decode(&j); err != nil {
		return j, fmt.Errorf("not a judgment: %s", clip(oneLine(err.Error()), 120))
	}
	if err := checkKeys(line); err != nil {
		return j, fmt.Errorf("the judgment names %w", err)
	}
	if dec.More() {
		return j, errors.New("text after the judgment")
	}
	return checkRecord(j)
}

// checkRecord checks a judgment read from a file, its reason clipped.
func checkRecord(j Judgment) (Judgment, error) {
	switch {
	case j.A == "" || j.B == "" || j.A == j.B:
		return j, errors.New(`"a" and "b" must name two different tools`)
	case j.Label < 0 || j.Label > 3:
		return j, fmt.Errorf("label %d is not 0, 1, 2 or 3", j.Label)
	case strings.TrimSpace(j.Reason) == "":
		return j, errors.New(`a judgment needs a "reason"`)
	case j.By == "":
		return j, errors.New(`a judgment needs "by" ("person" or "openai:MODEL")`)
	case !strings.HasPrefix(j.Texts, "sha256:"):
		return j, errors.New(`"texts" must be the pair's "sha256:…" text hash`)
	}
	j.Reason = clip(j.Reason, maxRecordReason)
	return j, nil
}

// Encode renders records as a judgments file: a comment line, then one
// judgment per line, ordered by names, so that a change reads well in a
// diff.
func (r *Records) Encode() []byte {
	var b bytes.Buffer
	b.WriteString("# toolscope judgments: one pair, or one tool's review, per line; see docs/judge.md\n")
	for _, j := range r.All() {
		line, _ := json.Marshal(j)
		b.Write(line)
		b.WriteByte('\n')
	}
	for _, v := range r.Reviews() {
		line, _ := json.Marshal(v)
		b.Write(line)
		b.WriteByte('\n')
	}
	// A model's reason may hold a bidi override or tag characters: the
	// file keeps them escaped, the same strings, shown as they are.
	return termsafe.EscapeJSON(b.Bytes())
}

// WriteFile writes the records to path atomically (core/safefile: a
// fresh temp file beside it, renamed over it); a symlink or anything but a
// regular file at path is refused.
func (r *Records) WriteFile(path string) error {
	if err := safefile.Write(path, r.Encode()); err != nil {
		return fmt.Errorf("judgments %w", err)
	}
	return nil
}

// Record merges judgments into the judgments file at path under a lock:
// the file is read again, each judgment replaces the same judge's older
// one of its pair, and the whole is written back, so two runs recording
// at once keep each other's judgments. It returns the file's judgments.
func Record(path string, judgments []Judgment) (*Records, error) {
	return Update(path, func(file *Records) {
		for _, j := range judgments {
			file.Replace(j)
		}
	})
}

// Update changes the judgments file at path under its lock: read again,
// changed by edit, written back whole (a missing file is created).
func Update(path string, edit func(*Records)) (*Records, error) {
	unlock, err := safefile.Lock(path)
	if err != nil {
		return nil, fmt.Errorf("judgments %s: cannot lock: %w", path, err)
	}
	defer unlock()
	file, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	edit(file)
	return file, file.WriteFile(path)
}

// PersonAccept is the judgment a person's triage accept records: label 1
// ("related, told apart") with the person's reason, for the pair's texts
// as they are now, so that a change to either tool's text makes it stale.
func PersonAccept(a, b Tool, reason string) Judgment {
	p := NewPair(a, b, nil)
	return Judgment{A: p.A.Name, B: p.B.Name, Label: 1, Reason: reason, By: PersonBy, Texts: p.TextHash()}
}

// Touches reports whether any judgment or review held names one of the
// tools: a cache that holds other catalogs' judgments has nothing to
// replay on this one, and the run need not prepare for a judge.
func (r *Records) Touches(names []string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.byPair) == 0 && len(r.byTool) == 0 {
		return false
	}
	named := make(map[string]bool, 2*len(r.byPair)+len(r.byTool))
	for pair := range r.byPair {
		named[pair[0]], named[pair[1]] = true, true
	}
	for tool := range r.byTool {
		named[tool] = true
	}
	for _, n := range names {
		if named[n] {
			return true
		}
	}
	return false
}

// ToolNames are the names of a catalog's tools, as judgments and reviews
// name them.
func ToolNames(cat *catalog.Catalog) []string {
	names := make([]string, len(cat.Tools))
	for i, t := range cat.Tools {
		names[i] = t.Name
	}
	return names
}
