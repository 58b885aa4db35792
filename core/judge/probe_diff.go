package judge

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// ProbeDiff is a paired comparison of two probe records of the same
// model, requests and repeats: each request (with its repeat) right or
// wrong before and after.
type ProbeDiff struct {
	Model    string `json:"model"`
	Requests int    `json:"requests"`
	Repeats  int    `json:"repeats"`
	Before   Share  `json:"before"`
	After    Share  `json:"after"`
	// Better went wrong before and right after; Worse the other way.
	Better int `json:"better"`
	Worse  int `json:"worse"`
	// P is McNemar's exact two-sided p on Better and Worse.
	P        float64       `json:"p"`
	Improved []ChangedPick `json:"improved"`
	Worsened []ChangedPick `json:"worsened"`
}

// ChangedPick is a request whose pick went from right to wrong or back.
type ChangedPick struct {
	Request string `json:"request"`
	Tool    string `json:"tool"`
	Repeat  int    `json:"repeat,omitempty"`
	Before  string `json:"before"`
	After   string `json:"after"`
}

// caseKey pairs a case across two records.
type caseKey struct {
	tool, request string
	repeat        int
}

// DiffProbes compares two records request by request. Records of
// different models, requests, repeats, seeds or tool choices measure
// different things and are refused with an error saying which.
func DiffProbes(before, after *ProbeRecord) (ProbeDiff, error) {
	switch {
	case before.Model != after.Model:
		return ProbeDiff{}, fmt.Errorf("different models: %s, then %s; a paired comparison needs the same model", before.Model, after.Model)
	case max(before.Repeats, 1) != max(after.Repeats, 1):
		return ProbeDiff{}, fmt.Errorf("different repeats: %d, then %d", max(before.Repeats, 1), max(after.Repeats, 1))
	case before.Repeats > 1 && before.Seed != after.Seed:
		return ProbeDiff{}, fmt.Errorf("different seeds: %d, then %d; the repeats were sent in other orders", before.Seed, after.Seed)
	case choiceOf(before) != choiceOf(after):
		return ProbeDiff{}, fmt.Errorf("different tool choices: %s, then %s", choiceOf(before), choiceOf(after))
	}
	index := func(r *ProbeRecord) (map[caseKey]ProbeCase, error) {
		m := make(map[caseKey]ProbeCase, len(r.Cases))
		for _, c := range r.Cases {
			k := caseKey{c.Tool, c.Request, c.Repeat}
			if _, dup := m[k]; dup {
				return nil, fmt.Errorf("request %q for %s is sent twice in one repeat; it cannot be paired", clip(c.Request, 60), c.Tool)
			}
			m[k] = c
		}
		return m, nil
	}
	old, err := index(before)
	if err != nil {
		return ProbeDiff{}, err
	}
	now, err := index(after)
	if err != nil {
		return ProbeDiff{}, err
	}
	onlyOld, onlyNew := 0, 0
	for k := range old {
		if _, ok := now[k]; !ok {
			onlyOld++
		}
	}
	for k := range now {
		if _, ok := old[k]; !ok {
			onlyNew++
		}
	}
	if onlyOld > 0 || onlyNew > 0 {
		return ProbeDiff{}, fmt.Errorf("different requests: %d sent only before, %d only after; a paired comparison needs the same requests (probe with the same --examples)", onlyOld, onlyNew)
	}
	d := ProbeDiff{Model: before.Model, Repeats: max(before.Repeats, 1), Improved: []ChangedPick{}, Worsened: []ChangedPick{}}
	rightBefore, rightAfter := 0, 0
	for _, c := range before.Cases {
		n := now[caseKey{c.Tool, c.Request, c.Repeat}]
		if c.Repeat <= 1 {
			d.Requests++
		}
		ch := ChangedPick{Request: c.Request, Tool: c.Tool, Repeat: c.Repeat, Before: c.Picked, After: n.Picked}
		switch {
		case c.Right() && n.Right():
			rightBefore++
			rightAfter++
		case c.Right():
			rightBefore++
			d.Worse++
			d.Worsened = append(d.Worsened, ch)
		case n.Right():
			rightAfter++
			d.Better++
			d.Improved = append(d.Improved, ch)
		}
	}
	d.Before, d.After = NewShare(rightBefore, len(before.Cases)), NewShare(rightAfter, len(after.Cases))
	d.P = McNemar(d.Better, d.Worse)
	return d, nil
}

func choiceOf(r *ProbeRecord) string {
	if r.Choice == "" {
		return ChoiceRequired
	}
	return r.Choice
}

// WriteJSON renders the comparison as indented JSON.
func (d ProbeDiff) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

func (d ProbeDiff) heading() string {
	rep := ""
	if d.Repeats > 1 {
		rep = fmt.Sprintf(", each sent %d times", d.Repeats)
	}
	return fmt.Sprintf("%s, %d requests%s, paired", d.Model, d.Requests, rep)
}

// Verdict is the comparison in one sentence.
func (d ProbeDiff) Verdict() string {
	return fmt.Sprintf("%d went right that went wrong before, %d went wrong that went right; McNemar exact p = %s", d.Better, d.Worse, PValue(d.P))
}

// PValue is p as a report shows it: two significant digits, "< 0.0001"
// below that.
func PValue(p float64) string {
	if p < 0.0001 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.2g", p)
}

func (c ChangedPick) words(repeats int) string {
	return fmt.Sprintf("%q (for %s%s): %s, now %s", c.Request, c.Tool, repeatWords(c.Repeat, repeats), c.Before, c.After)
}

// WriteText renders the comparison for a terminal.
func (d ProbeDiff) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "probe diff %s\n\n", d.heading())
	fmt.Fprintf(&b, "  before: right picks %s\n  after:  right picks %s\n\n%s.\n", d.Before, d.After, d.Verdict())
	list := func(title string, cs []ChangedPick) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n%s:\n", title)
		for _, c := range cs {
			fmt.Fprintf(&b, "  %s\n", c.words(d.Repeats))
		}
	}
	list("Went right", d.Improved)
	list("Went wrong", d.Worsened)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown renders the comparison for a pull-request comment.
func (d ProbeDiff) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### toolscope probe diff\n\n%s.\n\n| | right picks | 95%% interval |\n|---|---:|---:|\n", mdEscape(d.heading()))
	for _, r := range []struct {
		name string
		s    Share
	}{{"before", d.Before}, {"after", d.After}} {
		fmt.Fprintf(&b, "| %s | %d of %d (%.0f%%) | %.0f–%.0f%% |\n", r.name, r.s.Right, r.s.Of, 100*r.s.Rate, 100*r.s.Low, 100*r.s.High)
	}
	fmt.Fprintf(&b, "\n%s.\n", mdEscape(d.Verdict()))
	table := func(title string, cs []ChangedPick) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(&b, "\n**%s**\n\n| request | meant for | before | after |\n|---|---|---|---|\n", title)
		for _, c := range cs {
			fmt.Fprintf(&b, "| %s | `%s` | `%s` | `%s` |\n", mdEscape(mdCell(c.Request)), mdCode(c.Tool), mdCode(c.Before), mdCode(c.After))
		}
	}
	table("Went right", d.Improved)
	table("Went wrong", d.Worsened)
	_, err := io.WriteString(w, b.String())
	return err
}
