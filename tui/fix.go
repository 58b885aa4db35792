package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	chat "toolscope/core/judge"
	"toolscope/core/similarity"
)

// FixFunc tries the judge's sentences for the pair of a and b on the
// recorded probe's requests that touch it (probe --fix's loop for one
// pair): the trial, kept or rejected, with before and after.
type FixFunc func(ctx context.Context, cat *catalog.Catalog, a, b *catalog.Tool) (chat.FixTrial, error)

// FixCostFunc says, in one line, what trying the pair's fix will cost, or
// why it cannot be tried (ok false).
type FixCostFunc func(cat *catalog.Catalog, a, b *catalog.Tool) (line string, ok bool)

// fixCall is a fix in flight.
type fixCall struct {
	id     int
	pair   [2]string
	cancel context.CancelFunc
}

type pairFixedMsg struct {
	id   int
	pair [2]string
	t    chat.FixTrial
	err  error
}

// confusedInProbe reports whether the recorded probe saw the pair
// confused: a request for one went to the other.
func (m *Model) confusedInProbe(pr similarity.Pair) bool {
	got, ok := m.pairs.probe.rate(pr)
	return ok && got.Count() > 0
}

// fixPair asks, with the cost first, then runs the fix loop for the
// selected pair in the background; the trial shows in the detail, and a
// kept fix's sentences go into the what-if drafts of both tools.
func (m *Model) fixPair() tea.Cmd {
	pr, ok := m.pairs.selected()
	if m.opts.Fix == nil || !ok || pr.I < 0 || pr.J < 0 || pr.I >= len(m.snap.cat.Tools) || pr.J >= len(m.snap.cat.Tools) {
		return nil
	}
	if !m.confusedInProbe(pr) {
		return notify("the probe record does not show " + shown(pr.A) + " ⇄ " + shown(pr.B) + " confused: nothing to fix")
	}
	a, b := m.snap.cat.Tools[pr.I], m.snap.cat.Tools[pr.J]
	if a.Index > b.Index {
		a, b = b, a
	}
	cost := ""
	if m.opts.FixCost != nil {
		line, ok := m.opts.FixCost(m.snap.cat, a, b)
		if !ok {
			return notify("fix: " + line)
		}
		cost = " " + line + "."
	}
	fix, cat := m.opts.Fix, m.snap.cat
	names := [2]string{a.Name, b.Name}
	m.ask("fix "+shown(a.Name)+" ⇄ "+shown(b.Name)+": test the judge's sentences on the probe's requests?"+cost, func() tea.Cmd {
		id := 1
		if m.fixing != nil {
			id = m.fixing.id + 1
			m.fixing.cancel()
		}
		ctx, cancel := context.WithCancel(context.Background())
		m.fixing = &fixCall{id: id, pair: names, cancel: cancel}
		m.notice = "fixing " + shown(a.Name) + " ⇄ " + shown(b.Name) + ": asking the judge, sending the requests again…"
		return safeID("pair-fix", id, func() tea.Msg {
			t, err := fix(ctx, cat, a, b)
			return pairFixedMsg{id: id, pair: names, t: t, err: err}
		})
	})
	return nil
}

// pairFixed takes a trial: kept for the pair's detail, told in the
// footer; a kept fix's sentences become the two tools' what-if drafts
// (where a tool has none), so that d shows their risk.
func (m *Model) pairFixed(msg pairFixedMsg) {
	if m.fixing == nil || msg.id != m.fixing.id {
		return
	}
	m.fixing.cancel()
	m.fixing = nil
	if msg.err != nil {
		m.notice = "fix: " + oneLine(msg.err.Error())
		return
	}
	t := msg.t
	m.fixes[pairKey(similarity.Pair{A: t.A, B: t.B})] = t
	m.notice = fmt.Sprintf("fix %s ⇄ %s: %s", shown(t.A), shown(t.B), oneLine(t.Why))
	if !t.Kept {
		return
	}
	drafted := 0
	if m.whatIfDrafts == nil {
		m.whatIfDrafts = map[string]string{}
	}
	for _, s := range [][2]string{{t.A, t.Sentences.A}, {t.B, t.Sentences.B}} {
		tool, ok := m.snap.cat.Lookup(s[0])
		if _, has := m.whatIfDrafts[s[0]]; ok && !has && s[1] != "" {
			m.whatIfDrafts[s[0]] = chat.Amend(tool.Description, s[1])
			drafted++
		}
	}
	if drafted > 0 {
		m.notice += "; the proven text is in the what-if (d)"
	}
}

// fixText is the selected pair's fix trial for the detail area, "" when
// none was tried.
func (p *pairsPane) fixText(pr similarity.Pair) string {
	t, ok := p.fixes[pairKey(pr)]
	if !ok {
		return ""
	}
	s := fmt.Sprintf("fix: %s. Before %d of %d right, after %d of %d (McNemar exact p = %s).", t.Why, t.Before.Right, t.Before.Of, t.After.Right, t.After.Of, chat.PValue(t.P))
	for _, x := range [][2]string{{t.A, t.Sentences.A}, {t.B, t.Sentences.B}} {
		if x[1] != "" {
			s += fmt.Sprintf(" %s + %q.", x[0], x[1])
		}
	}
	return s
}
