package tui

import (
	"fmt"
	"math"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/lint"
)

// thresholdStep and bandStep are how far one key press moves the
// confusability threshold and the watch band.
const (
	thresholdStep = 0.01
	bandStep      = 0.01
)

// reload re-reads the catalog, when its source can be re-read.
func (m *Model) reload() tea.Cmd {
	if m.opts.Reload == nil {
		return nil
	}
	m.loadID++
	return reload(m.loadID, m.opts.Reload, m.opts.Lint, m.snap.cat)
}

// loaded takes a reloaded catalog; a failed reload keeps the last good one
// on screen and says why.
func (m *Model) loaded(msg loadedMsg) tea.Cmd {
	if msg.id != m.loadID {
		return nil
	}
	if msg.err != nil {
		m.fail("reload", fmt.Errorf("showing the last good catalog: %w", msg.err))
		return nil
	}
	delete(m.problems, "reload")
	delete(m.problems, "server")
	if msg.unchanged {
		m.notice = "reloaded: the tools are unchanged"
		return nil
	}
	m.notice = "reloaded " + plural(len(msg.snap.cat.Tools), "tool")
	m.analyseID++ // an analysis still running is about the old catalog
	m.setSnapshot(msg.snap)
	return m.startScoring()
}

// analysed takes the first analysis of the catalog, keeping verdicts that
// arrived before it.
func (m *Model) analysed(msg analysedMsg) {
	if msg.id != m.analyseID {
		return
	}
	s := msg.snap
	if m.snap.sim != nil {
		s = s.withSimilarity(*m.snap.sim, m.opts.Lint.FailOn)
	}
	m.setSnapshot(s)
}

// startScoring embeds and scores the current catalog in the background,
// cancelling any run still going.
func (m *Model) startScoring() tea.Cmd {
	if m.job != nil {
		m.job.cancel()
		m.job = nil
	}
	m.scores = nil
	// Verdicts in flight are about the old scores.
	m.judgeID++
	m.judging, m.judgeAgain = false, false
	if m.embedSpec == "" || m.opts.OpenEmbedder == nil {
		return nil
	}
	m.scoreID++
	opts := m.opts.Lint
	opts.Scoring = m.scoring
	job, cmd := score(m.scoreID, m.snap.cat, opts, m.embedSpec, m.embedders[m.embedSpec], m.opts.OpenEmbedder)
	m.job = job
	m.syncPairs()
	return cmd
}

// scored takes a finished similarity run and asks for its verdicts.
func (m *Model) scored(msg scoredMsg) tea.Cmd {
	if m.job == nil || msg.id != m.job.id {
		return nil
	}
	m.job = nil
	if msg.embedder != nil {
		m.embedders[msg.spec] = msg.embedder
	}
	if msg.err != nil {
		m.fail("similarity", msg.err)
		m.syncPairs()
		return nil
	}
	delete(m.problems, "similarity")
	m.scores = msg.scores
	return m.rejudge()
}

// thresholds are the ones in force: the user's, else the scores' own.
func (m *Model) thresholds() lint.Thresholds {
	if m.th != nil {
		return *m.th
	}
	if m.scores != nil {
		return m.scores.Thresholds()
	}
	return lint.Thresholds{}
}

// rejudge asks for verdicts at the thresholds in force. One derivation
// runs at a time: keys pressed meanwhile ask for one more, at the
// thresholds in force when it starts, so holding a key never queues up
// rescans.
func (m *Model) rejudge() tea.Cmd {
	if m.scores == nil {
		return nil
	}
	if m.judging {
		m.judgeAgain = true
		return nil
	}
	m.judging = true
	return judge(m.judgeID, m.scores, m.thresholds())
}

// judged takes new verdicts, and starts the derivation asked for while
// they were coming.
func (m *Model) judged(msg judgedMsg) tea.Cmd {
	if msg.id != m.judgeID {
		return nil
	}
	m.judging = false
	m.setSnapshot(m.snap.withSimilarity(msg.sim, m.opts.Lint.FailOn))
	if m.judgeAgain {
		m.judgeAgain = false
		return m.rejudge()
	}
	return nil
}

// moveThresholds nudges the threshold (dt) or the watch band (db) and
// re-derives the verdicts without scoring again.
func (m *Model) moveThresholds(dt, db float64) tea.Cmd {
	if m.scores == nil {
		return nil
	}
	th := m.thresholds()
	if th.ReportOnly() {
		// Report-only has no threshold to move from: start at the top pair.
		th.Confusability = 1
	}
	th.Confusability = round2(th.Confusability + dt)
	th.WatchBand = round2(math.Max(th.WatchBand+db, 0))
	m.th = &th
	return m.rejudge()
}

// round2 keeps repeated steps from drifting off the two-decimal grid.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// switchScoring flips between the adaptive and cosine scorings. The
// thresholds go back to the new scoring's own: the scales differ.
func (m *Model) switchScoring() tea.Cmd {
	if m.scoring == lint.ScoringCosine {
		m.scoring = lint.ScoringAdaptive
	} else {
		m.scoring = lint.ScoringCosine
	}
	m.resetThresholds()
	m.notice = "scoring: " + string(m.scoring)
	return m.startScoring()
}

// switchEmbedder moves to the next embedder in the list.
func (m *Model) switchEmbedder() tea.Cmd {
	list := m.opts.Embedders
	if len(list) == 0 {
		return nil
	}
	next := list[0]
	for i, s := range list {
		if s == m.embedSpec {
			next = list[(i+1)%len(list)]
		}
	}
	m.embedSpec = next
	m.resetThresholds()
	m.notice = "embedder: " + next
	return m.startScoring()
}

// resetThresholds drops the thresholds moved here and those given as
// flags: they were for another scale.
func (m *Model) resetThresholds() {
	m.th = nil
	m.opts.Lint.Threshold, m.opts.Lint.WatchBand = nil, nil
}
