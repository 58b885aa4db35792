package judge

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A fix is the judge's proposed sentences for a pair the probe found
// confused, one for each tool's description, tested before it is kept:
// the requests that touch the pair are sent again with both descriptions
// amended, in the same orders and repeats, and the fix is kept only when
// more of them go right and none that went right goes wrong.

// ConfusedPair is a pair of the catalog the probe saw confused: Crossing
// counts the requests for one that went to the other. A is the first of
// the two in catalog order.
type ConfusedPair struct {
	Crossing
}

// ConfusedPairs are the pairs of tools (both of the catalog) where a
// request meant for one went to the other, most crossings first, then in
// catalog order.
func ConfusedPairs(p Probe) []ConfusedPair {
	index := map[string]int{}
	for i, t := range p.Tools {
		index[t] = i
	}
	of := map[string]int{}
	for _, c := range p.Cases {
		of[c.Tool]++
	}
	seen := map[[2]int]bool{}
	var out []ConfusedPair
	for _, c := range p.Cases {
		i, ok1 := index[c.Tool]
		j, ok2 := index[c.Picked]
		if !ok1 || !ok2 || i == j || c.Negative() {
			continue
		}
		if j < i {
			i, j = j, i
		}
		if seen[[2]int{i, j}] {
			continue
		}
		seen[[2]int{i, j}] = true
		a, b := p.Tools[i], p.Tools[j]
		out = append(out, ConfusedPair{Crossing{A: a, B: b, AB: p.Matrix[a][b], OfA: of[a], BA: p.Matrix[b][a], OfB: of[b]}})
	}
	slices.SortStableFunc(out, func(x, y ConfusedPair) int {
		if c := cmp.Compare(y.Count(), x.Count()); c != 0 {
			return c
		}
		if c := cmp.Compare(index[x.A], index[y.A]); c != 0 {
			return c
		}
		return cmp.Compare(index[x.B], index[y.B])
	})
	return out
}

// Touching are the indexes of the cases a fix of the pair a, b is tested
// on: those meant for either tool, and any that went to either.
func Touching(cases []ProbeCase, a, b string) []int {
	var out []int
	for i, c := range cases {
		if c.Tool == a || c.Tool == b || c.Picked == a || c.Picked == b {
			out = append(out, i)
		}
	}
	return out
}

// Count is right of of requests.
type Count struct {
	Right int `json:"right"`
	Of    int `json:"of"`
}

// FixSentences are the sentences proposed for A's and B's descriptions.
type FixSentences struct {
	A string `json:"a"`
	B string `json:"b"`
}

// FixTrial is one pair's fix and what its re-test found.
type FixTrial struct {
	A         string       `json:"a"`
	B         string       `json:"b"`
	Sentences FixSentences `json:"sentences"`
	// Judgment says where the sentences came from: "recorded" (the
	// judgments file) or "asked" (the judge, this run); "" when none came.
	Judgment string `json:"judgment,omitempty"`
	Before   Count  `json:"before"`
	After    Count  `json:"after"`
	// Better went wrong before and right after; Worse the other way.
	Better int     `json:"better"`
	Worse  int     `json:"worse"`
	P      float64 `json:"p"`
	Kept   bool    `json:"kept"`
	Why    string  `json:"why"`
	// Changed are the requests whose pick went from right to wrong or
	// back.
	Changed []ChangedPick `json:"changed"`
}

// Retest sends the cases at idx again with tools (the catalog's
// definitions with the pair's descriptions amended), each in its repeat's
// order from o.Seed, and judges the fix: kept when more go right and
// none that went right goes wrong. The cases are not changed.
func (m *Model) Retest(ctx context.Context, t FixTrial, cases []ProbeCase, idx []int, tools []json.RawMessage, o PickOptions) (FixTrial, Usage, error) {
	again := make([]ProbeCase, len(idx))
	for i, j := range idx {
		again[i] = cases[j]
		again[i].Picked, again[i].Arguments, again[i].ArgumentIssues = "", nil, nil
	}
	used, err := m.PickAll(ctx, again, tools, o)
	if err != nil {
		return t, used, err
	}
	t.Changed = []ChangedPick{}
	for i, j := range idx {
		was, now := cases[j], again[i]
		t.Before.Of++
		t.After.Of++
		if was.Right() {
			t.Before.Right++
		}
		if now.Right() {
			t.After.Right++
		}
		ch := ChangedPick{Request: was.Request, Tool: was.Tool, Repeat: was.Repeat, Before: was.Picked, After: now.Picked}
		switch {
		case was.Right() && !now.Right():
			t.Worse++
			t.Changed = append(t.Changed, ch)
		case !was.Right() && now.Right():
			t.Better++
			t.Changed = append(t.Changed, ch)
		}
	}
	t.P = McNemar(t.Better, t.Worse)
	t.Kept, t.Why = verdictOf(t)
	return t, used, nil
}

// verdictOf keeps a fix when more requests went right and none that went
// right went wrong, and says why in words.
func verdictOf(t FixTrial) (bool, string) {
	switch {
	case t.Worse > 0:
		first := ""
		for _, c := range t.Changed {
			if c.Before == c.Tool {
				first = fmt.Sprintf(" (%q for %s now went to %s)", clip(c.Request, 60), c.Tool, c.After)
				break
			}
		}
		return false, fmt.Sprintf("rejected: %s that went right went wrong%s", plural(t.Worse, "request"), first)
	case t.Better == 0:
		return false, "rejected: no request went right that went wrong before"
	}
	return true, fmt.Sprintf("kept: %s went right that went wrong before, none went wrong", plural(t.Better, "more request"))
}

// Unproven is a trial rejected before any re-test: the judge gave no
// sentence, or no answer that could be read.
func Unproven(a, b, why string) FixTrial {
	return FixTrial{A: a, B: b, Why: "rejected: " + why, P: 1, Changed: []ChangedPick{}}
}

// Amend is the sentences applied to the descriptions: each tool's
// description with its sentence after one space (nothing for an empty
// sentence).
func Amend(description, sentence string) string {
	switch {
	case sentence == "":
		return description
	case description == "":
		return sentence
	}
	return description + " " + sentence
}

// writeFixesText is the text report's fixes section.
func (p Probe) writeFixesText(b *strings.Builder) {
	if p.Fixes == nil {
		return
	}
	if len(p.Fixes) == 0 {
		b.WriteString("\nFixes: no confused pair, nothing to fix.\n")
		return
	}
	b.WriteString("\nFixes (the judge's sentences for each confused pair, re-tested on the requests that touch it):\n")
	for _, f := range p.Fixes {
		fmt.Fprintf(b, "  %s ↔ %s: %s\n", f.A, f.B, f.Why)
		for _, s := range [][2]string{{f.A, f.Sentences.A}, {f.B, f.Sentences.B}} {
			if s[1] != "" {
				fmt.Fprintf(b, "    %s + %q\n", s[0], s[1])
			}
		}
		if f.Before.Of > 0 {
			fmt.Fprintf(b, "    before %d of %d right, after %d of %d; %d better, %d worse; McNemar exact p = %s\n", f.Before.Right, f.Before.Of, f.After.Right, f.After.Of, f.Better, f.Worse, PValue(f.P))
		}
	}
}

// writeFixesMarkdown is the Markdown report's fixes section.
func (p Probe) writeFixesMarkdown(b *strings.Builder) {
	if p.Fixes == nil {
		return
	}
	b.WriteString("\n#### Fixes\n\n")
	if len(p.Fixes) == 0 {
		b.WriteString("No confused pair, nothing to fix.\n")
		return
	}
	b.WriteString("| pair | sentences | before | after | better | worse | p | verdict |\n|---|---|---:|---:|---:|---:|---:|---|\n")
	for _, f := range p.Fixes {
		var s []string
		for _, x := range [][2]string{{f.A, f.Sentences.A}, {f.B, f.Sentences.B}} {
			if x[1] != "" {
				s = append(s, fmt.Sprintf("`%s`: %s", mdCode(x[0]), mdEscape(mdCell(x[1]))))
			}
		}
		fmt.Fprintf(b, "| `%s` ↔ `%s` | %s | %d of %d | %d of %d | %d | %d | %s | %s |\n", mdCode(f.A), mdCode(f.B), strings.Join(s, "<br>"), f.Before.Right, f.Before.Of, f.After.Right, f.After.Of, f.Better, f.Worse, PValue(f.P), mdEscape(mdCell(f.Why)))
	}
}

// Refreshed is cases as they stand once the kept fixes are written: each
// request a kept fix's re-test changed takes its pick from the re-test
// (a kept fix changes only picks that went wrong to right), its
// arguments, sent to the tool it no longer picks, dropped. The other
// cases keep their picks: the fixes' sentences name the pair's tools
// only. A record of the refreshed cases with the amended tools' texts is
// fresh for the catalog --write leaves.
func Refreshed(cases []ProbeCase, fixes []FixTrial) []ProbeCase {
	type key struct {
		tool, request string
		repeat        int
	}
	after := map[key]string{}
	for _, f := range fixes {
		if !f.Kept {
			continue
		}
		for _, c := range f.Changed {
			after[key{c.Tool, c.Request, c.Repeat}] = c.After
		}
	}
	out := slices.Clone(cases)
	for i, c := range out {
		if pick, ok := after[key{c.Tool, c.Request, c.Repeat}]; ok && pick != c.Picked {
			out[i].Picked, out[i].Arguments, out[i].ArgumentIssues = pick, nil, nil
		}
	}
	return out
}
