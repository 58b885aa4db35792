package judge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Share is k right of n, with its 95% Wilson interval.
type Share struct {
	Right int     `json:"right"`
	Of    int     `json:"of"`
	Rate  float64 `json:"rate"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
}

// NewShare is k of n with its rate and interval (rate 0 for n = 0).
func NewShare(k, n int) Share {
	s := Share{Right: k, Of: n}
	if n > 0 {
		s.Rate = float64(k) / float64(n)
	}
	s.Low, s.High = Wilson(k, n)
	return s
}

// String is "12 of 15 (80%, 95% interval 55–93%)".
func (s Share) String() string {
	pct := 0.0
	if s.Of > 0 {
		pct = 100 * s.Rate
	}
	return fmt.Sprintf("%d of %d (%.0f%%, 95%% interval %.0f–%.0f%%)", s.Right, s.Of, pct, 100*s.Low, 100*s.High)
}

// ToolTally is one tool's requests: meant for it, gone to it, and of
// those the calls whose arguments the boundary accepts. CommonestIssue is
// the issue most often found in the arguments of calls to the tool
// (right or not), with its count; "" when none had any.
type ToolTally struct {
	Tool           string `json:"tool"`
	Requests       int    `json:"requests"`
	Right          int    `json:"right"`
	ValidArguments int    `json:"validArguments"`
	Calls          int    `json:"calls"`
	CommonestIssue string `json:"commonestIssue,omitempty"`
	IssueCount     int    `json:"issueCount,omitempty"`
}

// Negatives are the requests meant for no tool, and those of them the
// model called a tool for anyway.
type Negatives struct {
	Requests      int           `json:"requests"`
	OverTriggered int           `json:"overTriggered"`
	Calls         []OverTrigger `json:"calls"`
}

// OverTrigger is a negative request the model called a tool for.
type OverTrigger struct {
	Request string `json:"request"`
	Picked  string `json:"picked"`
	Repeat  int    `json:"repeat,omitempty"`
}

// Unstable is a request whose picks differ across its repeats: how many
// times each tool (or NoPick) was picked.
type Unstable struct {
	Request string         `json:"request"`
	Tool    string         `json:"tool"`
	Picks   map[string]int `json:"picks"`
}

// tally fills in the accuracy, the per-tool counts, the negatives, the
// repeats and the unstable requests from the cases.
func (p *Probe) tally() {
	p.Accuracy = NewShare(p.Correct, len(p.Cases))
	index := map[string]int{}
	p.PerTool = make([]ToolTally, len(p.Tools))
	issues := make([]map[string]int, len(p.Tools))
	for i, t := range p.Tools {
		p.PerTool[i] = ToolTally{Tool: t}
		index[t] = i
		issues[i] = map[string]int{}
	}
	p.Negatives = Negatives{Calls: []OverTrigger{}}
	p.Repeats = 0
	type key struct{ tool, request string }
	picks := map[key]map[string]int{}
	var order []key
	for _, c := range p.Cases {
		p.Repeats = max(p.Repeats, c.Repeat, 1)
		k := key{c.Tool, c.Request}
		if picks[k] == nil {
			picks[k] = map[string]int{}
			order = append(order, k)
		}
		picks[k][c.Picked]++
		if j, ok := index[c.Picked]; ok {
			p.PerTool[j].Calls++
			for _, is := range c.ArgumentIssues {
				issues[j][is]++
			}
		}
		if c.Negative() {
			p.Negatives.Requests++
			if !c.Right() {
				p.Negatives.OverTriggered++
				p.Negatives.Calls = append(p.Negatives.Calls, OverTrigger{Request: c.Request, Picked: c.Picked, Repeat: c.Repeat})
			}
			continue
		}
		i, ok := index[c.Tool]
		if !ok {
			continue
		}
		p.PerTool[i].Requests++
		if c.Right() {
			p.PerTool[i].Right++
			if len(c.ArgumentIssues) == 0 {
				p.PerTool[i].ValidArguments++
			}
		}
	}
	for i := range p.PerTool {
		for is, n := range issues[i] {
			t := &p.PerTool[i]
			if n > t.IssueCount || (n == t.IssueCount && is < t.CommonestIssue) {
				t.CommonestIssue, t.IssueCount = is, n
			}
		}
	}
	p.Unstable = []Unstable{}
	for _, k := range order {
		if len(picks[k]) > 1 {
			p.Unstable = append(p.Unstable, Unstable{Request: k.request, Tool: k.tool, Picks: picks[k]})
		}
	}
	if p.Repeats == 0 {
		p.Repeats = 1
	}
}

// writeTallyText is the text report's sections on the right picks'
// interval, the arguments, the negatives and the repeats.
func (p Probe) writeTallyText(b *strings.Builder) {
	fmt.Fprintf(b, "Right picks: %s\n", p.Accuracy)
	if p.Repeats > 1 {
		fmt.Fprintf(b, "Each request sent %d times: first in catalog order, then in orders shuffled from seed %d.\n", p.Repeats, p.Seed)
	}
	if calls := p.argumentRows(); len(calls) > 0 {
		b.WriteString("\nArguments (the boundary's check of each call, against the tool called):\n")
		for _, t := range calls {
			fmt.Fprintf(b, "  %s: %s\n", t.Tool, t.argumentWords())
		}
	}
	if n := p.Negatives; n.Requests > 0 {
		fmt.Fprintf(b, "\nNegatives: %d requests meant for no tool, %d over-triggered", n.Requests, n.OverTriggered)
		if n.OverTriggered == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteString(":\n")
			for _, o := range n.Calls {
				fmt.Fprintf(b, "  %q called %s%s\n", o.Request, o.Picked, repeatWords(o.Repeat, p.Repeats))
			}
		}
	}
	if p.Repeats > 1 {
		if len(p.Unstable) == 0 {
			b.WriteString("\nStable: every request went to the same tool on every repeat.\n")
		} else {
			fmt.Fprintf(b, "\nUnstable (picks differ across the %d repeats):\n", p.Repeats)
			for _, u := range p.Unstable {
				fmt.Fprintf(b, "  %q (for %s): %s\n", u.Request, u.Tool, u.picksWords(p.Tools))
			}
		}
	}
}

// writeTallyMarkdown is the Markdown report's sections on the arguments,
// the negatives and the repeats.
func (p Probe) writeTallyMarkdown(b *strings.Builder) {
	fmt.Fprintf(b, "Right picks: %s.\n", mdEscape(p.Accuracy.String()))
	if p.Repeats > 1 {
		fmt.Fprintf(b, "Each request sent %d times: first in catalog order, then in orders shuffled from seed %d.\n", p.Repeats, p.Seed)
	}
	if calls := p.argumentRows(); len(calls) > 0 {
		b.WriteString("\n#### Arguments\n\n| tool | right picks | valid arguments | commonest issue |\n|---|---:|---:|---|\n")
		for _, t := range calls {
			issue := ""
			if t.CommonestIssue != "" {
				issue = fmt.Sprintf("%s (%d of %d calls)", mdEscape(t.CommonestIssue), t.IssueCount, t.Calls)
			}
			fmt.Fprintf(b, "| `%s` | %d of %d | %d | %s |\n", mdCode(t.Tool), t.Right, t.Requests, t.ValidArguments, issue)
		}
	}
	if n := p.Negatives; n.Requests > 0 {
		fmt.Fprintf(b, "\n#### Negatives\n\n%d requests meant for no tool, %d over-triggered.\n", n.Requests, n.OverTriggered)
		if n.OverTriggered > 0 {
			b.WriteString("\n| request | called |\n|---|---|\n")
			for _, o := range n.Calls {
				fmt.Fprintf(b, "| %s | `%s`%s |\n", mdEscape(mdCell(o.Request)), mdCode(o.Picked), repeatWords(o.Repeat, p.Repeats))
			}
		}
	}
	if p.Repeats > 1 && len(p.Unstable) > 0 {
		fmt.Fprintf(b, "\n#### Unstable across %d repeats\n\n| request | meant for | picks |\n|---|---|---|\n", p.Repeats)
		for _, u := range p.Unstable {
			fmt.Fprintf(b, "| %s | `%s` | %s |\n", mdEscape(mdCell(u.Request)), mdCode(u.Tool), mdEscape(u.picksWords(p.Tools)))
		}
	}
}

// mdCell keeps text on one table row.
func mdCell(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }

// argumentRows are the tools the model called, in catalog order.
func (p Probe) argumentRows() []ToolTally {
	var out []ToolTally
	for _, t := range p.PerTool {
		if t.Calls > 0 {
			out = append(out, t)
		}
	}
	return out
}

// argumentWords is a tool's arguments in words: "3 of 4 right picks with
// valid arguments; commonest issue: 'q' is required but missing (2 of 5
// calls)".
func (t ToolTally) argumentWords() string {
	s := fmt.Sprintf("%d of %d right picks with valid arguments", t.ValidArguments, t.Right)
	if t.CommonestIssue == "" {
		return s + "; no issue in " + plural(t.Calls, "call")
	}
	return fmt.Sprintf("%s; commonest issue: %s (%d of %s)", s, t.CommonestIssue, t.IssueCount, plural(t.Calls, "call"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// repeatWords is " (repeat 3)" when the request was sent more than once.
func repeatWords(repeat, repeats int) string {
	if repeats > 1 && repeat > 0 {
		return fmt.Sprintf(" (repeat %d)", repeat)
	}
	return ""
}

// picksWords lists the picks, most first, then in catalog order: "a 6,
// b 4".
func (u Unstable) picksWords(tools []string) string {
	names := make([]string, 0, len(u.Picks))
	for n := range u.Picks {
		names = append(names, n)
	}
	rank := func(n string) int {
		if i := slices.Index(tools, n); i >= 0 {
			return i
		}
		return len(tools)
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(u.Picks[b], u.Picks[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(rank(a), rank(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, u.Picks[n])
	}
	return strings.Join(parts, ", ")
}
