package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	chat "toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// JudgeFunc asks the chat model whether two tools are confusable;
// replayed says a recorded judgment answered without a request. siblings
// are the catalog's other names.
type JudgeFunc func(ctx context.Context, a, b *catalog.Tool, siblings []string) (j chat.Judgment, replayed bool, err error)

// JudgeCostFunc says, in one line, what judging the pair will cost.
type JudgeCostFunc func(a, b *catalog.Tool, siblings []string) string

// JudgeCostAllFunc says, in one line, what judging the pairs will cost
// (pairs[i] the two tools, siblings[i] the others' names).
type JudgeCostAllFunc func(pairs [][2]*catalog.Tool, siblings [][]string) string

// RecordedFunc finds a recorded judgment of the two tools' current texts.
type RecordedFunc func(a, b *catalog.Tool) (chat.Judgment, bool)

// AcceptRecordFunc records (or, undo, removes) a person's judgment of the
// pair of a and b with reason, beside the project config at configPath,
// and returns the judgments file written.
type AcceptRecordFunc func(configPath string, a, b *catalog.Tool, reason string, undo bool) (string, error)

// ReplayFunc applies the recorded judgments to a report of cat, as lint
// replays them without a key.
type ReplayFunc func(r *lint.Report, cat *catalog.Catalog) *lint.Report

// judgeCall is a judgment in flight.
type judgeCall struct {
	id     int
	pair   [2]string
	cancel context.CancelFunc
	// review is J's "every review pair" run, nil for one pair.
	review *reviewRun
}

type pairJudgedMsg struct {
	id       int
	pair     [2]string
	j        chat.Judgment
	replayed bool
	err      error
}

// judgePair asks, with the cost first, then judges the selected pair in
// the background; the answer shows in the Pairs pane's detail.
func (m *Model) judgePair() tea.Cmd {
	pr, ok := m.pairs.selected()
	if m.opts.Judge == nil || !ok || pr.I < 0 || pr.J < 0 || pr.I >= len(m.snap.cat.Tools) || pr.J >= len(m.snap.cat.Tools) {
		return nil
	}
	a, b := m.snap.cat.Tools[pr.I], m.snap.cat.Tools[pr.J]
	var siblings []string
	for i, t := range m.snap.cat.Tools {
		if i != pr.I && i != pr.J {
			siblings = append(siblings, t.Name)
		}
	}
	cost := ""
	if m.opts.JudgeCost != nil {
		cost = " " + m.opts.JudgeCost(a, b, siblings) + "."
	}
	judgeFn := m.opts.Judge
	m.ask("judge "+shown(pr.A)+" ⇄ "+shown(pr.B)+" with the chat model?"+cost, func() tea.Cmd {
		id, ctx := m.newJudgeCall(pairKey(pr))
		names := pairKey(pr)
		m.notice = "judging " + shown(pr.A) + " ⇄ " + shown(pr.B) + "…"
		return safeID("pair-judge", id, func() tea.Msg {
			j, replayed, err := judgeFn(ctx, a, b, siblings)
			return pairJudgedMsg{id: id, pair: names, j: j, replayed: replayed, err: err}
		})
	})
	if all := m.reviewPairs(); len(all) > 0 && m.opts.JudgeCostAll != nil {
		tools := make([][2]*catalog.Tool, len(all))
		sibs := make([][]string, len(all))
		for i, p := range all {
			tools[i] = [2]*catalog.Tool{m.snap.cat.Tools[p.I], m.snap.cat.Tools[p.J]}
			sibs[i] = siblingsOf(m.snap.cat, p.I, p.J)
		}
		m.asking().alt = &altAnswer{key: "a", hint: fmt.Sprintf("every review pair (%d: %s)", len(all), m.opts.JudgeCostAll(tools, sibs)), do: func() tea.Cmd {
			id, ctx := m.newJudgeCall([2]string{})
			keys := make([][2]string, len(all))
			for i, p := range all {
				keys[i] = pairKey(p.Pair)
			}
			m.judging.review = &reviewRun{ctx: ctx, judge: judgeFn, tools: tools, siblings: sibs, keys: keys}
			m.notice = fmt.Sprintf("judging %d review pairs…", len(all))
			return m.reviewStep(id, 0)
		}}
	}
	return nil
}

// reviewRun is J's "every review pair" in flight: one pair asked at a
// time, each answer taken (the verdicts, the counts and the gate move)
// before the next is asked.
type reviewRun struct {
	ctx      context.Context
	judge    JudgeFunc
	tools    [][2]*catalog.Tool
	siblings [][]string
	keys     [][2]string
	// the answers so far
	confusable, cleared, failed int
	firstErr                    error
}

// reviewStepMsg answers the at-th pair of a review run.
type reviewStepMsg struct {
	id int
	at int
	r  pairJudgedMsg
}

// reviewStep asks the at-th pair of the review run in flight.
func (m *Model) reviewStep(id, at int) tea.Cmd {
	run := m.judging.review
	return safeID("pair-judge", id, func() tea.Msg {
		j, replayed, err := run.judge(run.ctx, run.tools[at][0], run.tools[at][1], run.siblings[at])
		return reviewStepMsg{id: id, at: at, r: pairJudgedMsg{id: id, pair: run.keys[at], j: j, replayed: replayed, err: err}}
	})
}

// newJudgeCall starts a judgment, ending the one in flight.
func (m *Model) newJudgeCall(pair [2]string) (int, context.Context) {
	id := 1
	if m.judging != nil {
		id = m.judging.id + 1
		m.judging.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.judging = &judgeCall{id: id, pair: pair, cancel: cancel}
	return id, ctx
}

// reviewPairs are the pairs under review (≈) now, accepted ones left out.
func (m *Model) reviewPairs() []similarity.PairFinding {
	var out []similarity.PairFinding
	for _, p := range m.snap.report.Similarity.Watch {
		if p.Suppression == "" && p.I >= 0 && p.J >= 0 && p.I < len(m.snap.cat.Tools) && p.J < len(m.snap.cat.Tools) {
			out = append(out, p)
		}
	}
	return out
}

// siblingsOf is every name of cat but the i-th and j-th.
func siblingsOf(cat *catalog.Catalog, i, j int) []string {
	var out []string
	for k, t := range cat.Tools {
		if k != i && k != j {
			out = append(out, t.Name)
		}
	}
	return out
}

// reviewStepped takes one answer of a review run: kept, the verdicts
// derived again, the progress in the footer; then the next pair is asked,
// or the run ends with the count.
func (m *Model) reviewStepped(msg reviewStepMsg) tea.Cmd {
	if m.judging == nil || msg.id != m.judging.id || m.judging.review == nil {
		return nil
	}
	run := m.judging.review
	switch r := msg.r; {
	case r.err != nil:
		// A failed request (a refused key, a server gone) would fail the
		// rest too: the run stops, the pairs left unjudged.
		run.failed = len(run.keys) - run.confusable - run.cleared
		run.firstErr = r.err
	case r.j.Confusable():
		run.confusable++
		m.judgments[r.pair] = r.j
	default:
		run.cleared++
		m.judgments[r.pair] = r.j
	}
	if msg.r.err == nil && m.snap.replay != nil {
		s := *m.snap
		s.derive(m.eng.lint.Gate)
		m.setSnapshot(&s)
	}
	total := len(run.keys)
	if next := msg.at + 1; next < total && run.ctx.Err() == nil && run.firstErr == nil {
		m.notice = fmt.Sprintf("judging review pairs: %d of %d (%d confusable, %d cleared)…", next, total, run.confusable, run.cleared)
		return m.reviewStep(msg.id, next)
	}
	m.judging.cancel()
	m.judging = nil
	m.notice = fmt.Sprintf("judged %s: %d confusable, %d cleared", plural(run.confusable+run.cleared, "review pair"), run.confusable, run.cleared)
	if run.failed > 0 {
		m.notice += fmt.Sprintf(", %d not judged (%s)", run.failed, oneLine(run.firstErr.Error()))
	}
	return nil
}

// judged takes a judgment: kept for the pair, told in the footer.
func (m *Model) pairJudged(msg pairJudgedMsg) {
	if m.judging == nil || msg.id != m.judging.id {
		return
	}
	m.judging.cancel()
	m.judging = nil
	if msg.err != nil {
		m.notice = "judge: " + oneLine(msg.err.Error())
		return
	}
	m.judgments[msg.pair] = msg.j
	if m.snap.replay != nil {
		// The judgment is recorded (the cache): the verdicts, the counts
		// and the gate follow it as lint's replay would.
		s := *m.snap
		s.derive(m.eng.lint.Gate)
		m.setSnapshot(&s)
	}
	how := "judged"
	if msg.replayed {
		how = "recorded"
	}
	m.notice = fmt.Sprintf("%s %s: %s (label %d): %s", how, shown(msg.pair[0]+" ⇄ "+msg.pair[1]), msg.j.Verdict(), msg.j.Label, oneLine(msg.j.Reason))
}

// pairKey is a pair's names, ordered.
func pairKey(pr similarity.Pair) [2]string {
	if pr.B < pr.A {
		return [2]string{pr.B, pr.A}
	}
	return [2]string{pr.A, pr.B}
}

// judgmentText is the selected pair's judgment for the detail area, ""
// when it has none.
func (p *pairsPane) judgmentText(pr similarity.Pair) string {
	how := "judge"
	j, ok := p.judgments[pairKey(pr)]
	if !ok && p.recorded != nil && p.snap != nil && pr.I >= 0 && pr.J >= 0 && pr.I < len(p.snap.cat.Tools) && pr.J < len(p.snap.cat.Tools) {
		// A hash of the two tools' texts and a map lookup: cheap enough
		// for a render.
		j, ok = p.recorded(p.snap.cat.Tools[pr.I], p.snap.cat.Tools[pr.J])
		how = "recorded judgment"
	}
	if !ok {
		return ""
	}
	s := fmt.Sprintf("%s (%s): %s, label %d: %s", how, j.By, j.Verdict(), j.Label, j.Reason)
	if j.Fix != nil {
		s += fmt.Sprintf(" fix: %s: %q; %s: %q", j.A, j.Fix.A, j.B, j.Fix.B)
	}
	return s + "."
}
