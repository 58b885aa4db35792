package tui

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/embed"
)

// thresholdStep and bandStep are how far one key press moves the
// confusability threshold and the watch band.
const (
	thresholdStep = 0.01
	bandStep      = 0.01
)

// engine is the explorer's analysis, apart from the screen: the id of the
// latest request of each kind (replies to older ones are dropped), the
// similarity run in flight, the scores and the thresholds in force, and
// the embedders opened so far. Its methods start work and take replies;
// the root model decides what the screen does with them.
type engine struct {
	// lint is the rules' and the similarity's options; its Threshold and
	// WatchBand are the flags', dropped when the scale changes.
	lint lint.Options
	// open opens an embedder by spec; load re-reads the catalog. Either may
	// be nil.
	open func(string) (embed.Embedder, error)
	load func(context.Context) (*catalog.Catalog, error)
	// source finds what is wrong with where the tools come from (an
	// mcp-config's hygiene); nil for nothing.
	source sourceFindings
	// specs are the embedders the embedder key cycles through.
	specs []string
	// cfg is the project config in force, nil for none; a triage
	// replaces it.
	cfg *config.Config

	loadID    int
	analyseID int
	scoreID   int
	judgeID   int
	// judging is true while verdicts are being derived; judgeAgain asks
	// for another derivation when it ends (the thresholds moved meanwhile).
	judging, judgeAgain bool
	job                 *scoreJob
	scores              *similarity.Scores
	embedders           map[string]embed.Embedder

	// relisting is true while a re-list a live source's list_changed asked
	// for (the reload relistID) runs; relistAgain asks for one more when
	// it ends. However many notifications arrive, one re-list runs and
	// one waits.
	relisting, relistAgain bool
	relistID               int

	// What the user switched live.
	spec    string
	scoring similarity.Scoring
	// th overrides the scores' own thresholds once the user moves them.
	th *similarity.Thresholds
	// gateSpec and gateScoring are what the explorer started with, as
	// lint would run: the gate's score is theirs.
	gateSpec    string
	gateScoring similarity.Scoring
	// thresholdsReset is set once the flags' thresholds were dropped.
	thresholdsReset bool
}

// departed names what the user switched here away from the gate's run
// (the embedder, the scoring, the thresholds), "" when nothing: the
// header's score is then not the one lint gives.
func (e *engine) departed() string {
	var what []string
	if e.spec != e.gateSpec {
		what = append(what, "embedder")
	}
	if e.scoring != e.gateScoring {
		what = append(what, "scoring")
	}
	if e.th != nil || e.thresholdsReset {
		what = append(what, "thresholds")
	}
	return strings.Join(what, ", ")
}

func newEngine(opts Options) engine {
	return engine{lint: opts.Lint, open: opts.OpenEmbedder, load: opts.Reload, source: opts.SourceFindings, specs: opts.Embedders,
		spec: opts.Embedder, scoring: opts.Lint.Scoring, embedders: map[string]embed.Embedder{}, cfg: opts.Config,
		gateSpec: opts.Embedder, gateScoring: opts.Lint.Scoring}
}

// stageOrder is where a stage comes in a similarity run; "" (nothing
// reported yet) comes first.
func stageOrder(s similarity.Stage) int {
	for i, st := range []similarity.Stage{"", lint.StageRules, similarity.StageEmbed, similarity.StageFeatures, similarity.StageScore, similarity.StageVerdicts} {
		if s == st {
			return i
		}
	}
	return 0
}

// close cancels the similarity run in flight.
func (e *engine) close() {
	if e.job != nil {
		e.job.cancel()
		e.job = nil
	}
}

// analyse runs the rules and the declarations on cat in the background.
func (e *engine) analyse(cat *catalog.Catalog) tea.Cmd {
	e.analyseID++
	return analyseCmd(e.analyseID, cat, e.lint, e.cfg, e.source)
}

// reload re-reads the catalog, when its source can be re-read.
func (e *engine) reload(old *catalog.Catalog) tea.Cmd {
	if e.load == nil {
		return nil
	}
	e.loadID++
	return reload(e.loadID, e.load, e.lint, e.cfg, e.source, old)
}

// relist re-reads the catalog because a live source said its tools
// changed, unless such a re-list is already running: then one more is
// asked for, to run when it ends (it may have listed before the change).
func (e *engine) relist(old *catalog.Catalog) tea.Cmd {
	if e.relisting {
		e.relistAgain = true
		return nil
	}
	cmd := e.reload(old)
	if cmd != nil {
		e.relisting, e.relistID = true, e.loadID
	}
	return cmd
}

// relisted notes that the reload id ended, however it ended; again is
// true when a re-list was asked for meanwhile and should start now.
func (e *engine) relisted(id int) (again bool) {
	if !e.relisting || id != e.relistID {
		return false
	}
	e.relisting = false
	again, e.relistAgain = e.relistAgain, false
	return again
}

// canScore reports whether there is an embedder to score with.
func (e *engine) canScore() bool { return e.spec != "" && e.open != nil }

// canSwitchEmbedder reports whether the embedder key leads anywhere.
func (e *engine) canSwitchEmbedder() bool {
	return e.open != nil && (len(e.specs) > 1 || len(e.specs) == 1 && e.spec != e.specs[0])
}

// score embeds and scores cat in the background, cancelling any run still
// going and any verdicts in flight (they are about the old scores).
func (e *engine) score(cat *catalog.Catalog) tea.Cmd {
	e.close()
	e.scores = nil
	e.judgeID++
	e.judging, e.judgeAgain = false, false
	if !e.canScore() {
		return nil
	}
	e.scoreID++
	opts := e.lint
	opts.Scoring = e.scoring
	job, cmd := score(e.scoreID, cat, opts, e.spec, e.embedders[e.spec], e.open)
	e.job = job
	return cmd
}

// verdictsPending reports whether pair verdicts are still to come, so
// the gate's verdict is not known yet: a run is going, its verdicts are
// being derived, or (judged false) they have not arrived since scoring.
func (e *engine) verdictsPending(judged bool) bool {
	return e.job != nil || e.judging || e.scores != nil && !judged
}

// progress takes a run's progress report and waits for the next; ok is
// false for a stale one.
func (e *engine) progress(msg progressMsg) (tea.Cmd, bool) {
	if e.job == nil || msg.id != e.job.id {
		return nil, false
	}
	if stageOrder(msg.p.Stage) >= stageOrder(e.job.last.Stage) {
		// A late report of an earlier stage would move the label back.
		e.job.last = msg.p
	}
	return e.job.next(), true
}

// scored takes a finished run: ok is false for a stale one, err is the
// run's failure; else the verdicts are asked for.
func (e *engine) scored(msg scoredMsg) (cmd tea.Cmd, ok bool, err error) {
	if e.job == nil || msg.id != e.job.id {
		return nil, false, nil
	}
	e.job = nil
	if msg.embedder != nil {
		e.embedders[msg.spec] = msg.embedder
	}
	if msg.err != nil {
		return nil, true, msg.err
	}
	e.scores = msg.scores
	return e.rejudge(), true, nil
}

// thresholds are the ones in force: the user's, else the scores' own.
func (e *engine) thresholds() similarity.Thresholds {
	if e.th != nil {
		return *e.th
	}
	if e.scores != nil {
		return e.scores.Thresholds()
	}
	return similarity.Thresholds{}
}

// rejudge asks for verdicts at the thresholds in force. One derivation
// runs at a time: keys pressed meanwhile ask for one more, at the
// thresholds in force when it starts, so holding a key never queues up
// rescans.
func (e *engine) rejudge() tea.Cmd {
	if e.scores == nil {
		return nil
	}
	if e.judging {
		e.judgeAgain = true
		return nil
	}
	e.judging = true
	return judge(e.judgeID, e.scores, e.thresholds())
}

// judged takes new verdicts (ok is false for stale ones) and starts the
// derivation asked for while they were coming.
func (e *engine) judged(msg judgedMsg) (cmd tea.Cmd, ok bool) {
	if msg.id != e.judgeID {
		return nil, false
	}
	e.judging = false
	if e.judgeAgain {
		e.judgeAgain = false
		return e.rejudge(), true
	}
	return nil, true
}

// moveThresholds nudges the threshold (dt) or the watch band (db) and
// re-derives the verdicts without scoring again.
func (e *engine) moveThresholds(dt, db float64) tea.Cmd {
	if e.scores == nil {
		return nil
	}
	th := e.thresholds()
	if th.ReportOnly() {
		// Report-only has no threshold to move from: start at the top pair.
		th.Confusability = 1
	}
	th.Confusability = round2(th.Confusability + dt)
	th.WatchBand = round2(math.Max(th.WatchBand+db, 0))
	e.th = &th
	return e.rejudge()
}

// round2 keeps repeated steps from drifting off the two-decimal grid.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// switchScoring moves risk -> cosine -> adaptive -> risk. The thresholds
// go back to the new scoring's own: the scales differ.
func (e *engine) switchScoring() {
	switch e.scoring {
	case similarity.ScoringCosine:
		e.scoring = similarity.ScoringAdaptive
	case similarity.ScoringAdaptive:
		e.scoring = similarity.ScoringRisk
	default:
		e.scoring = similarity.ScoringCosine
	}
	e.resetThresholds()
}

// switchEmbedder moves to the next embedder in the list; ok is false when
// there is none.
func (e *engine) switchEmbedder() (ok bool) {
	if len(e.specs) == 0 {
		return false
	}
	next := e.specs[0]
	for i, s := range e.specs {
		if s == e.spec {
			next = e.specs[(i+1)%len(e.specs)]
		}
	}
	e.spec = next
	e.resetThresholds()
	return true
}

// resetThresholds drops the thresholds moved here and those given as
// flags: they were for another scale.
func (e *engine) resetThresholds() {
	if e.lint.Threshold != nil || e.lint.WatchBand != nil {
		e.thresholdsReset = true
	}
	e.th = nil
	e.lint.Threshold, e.lint.WatchBand = nil, nil
}

// thresholdSource says where the thresholds in force come from: "yours"
// (moved here), "flags", or "" (the scores' own).
func (e *engine) thresholdSource() string {
	switch {
	case e.th != nil:
		return "yours"
	case e.lint.Threshold != nil || e.lint.WatchBand != nil:
		return "flags"
	}
	return ""
}

// failed takes a background panic; ok is false when it answers a
// superseded request, which is dropped like its answer would have been.
// The current request's panic ends it, so the next one can start.
func (e *engine) failed(msg failedMsg) (ok bool) {
	switch msg.what {
	case "similarity":
		if e.job == nil || msg.id != e.job.id {
			return false
		}
		e.job = nil
	case "verdicts":
		if msg.id != e.judgeID {
			return false
		}
		e.judging, e.judgeAgain = false, false
	case "rules":
		return msg.id == e.analyseID
	case "reload":
		if e.relisting && msg.id == e.relistID {
			e.relisting, e.relistAgain = false, false
		}
		return msg.id == e.loadID
	}
	return true
}

// The root's side: what the screen does with the engine's replies.

// reload re-reads the catalog in the background.
func (m *Model) reload() tea.Cmd { return m.eng.reload(m.snap.cat) }

// loaded takes a reloaded catalog; a failed reload keeps the last good one
// on screen and says why. A re-list asked for while it ran starts now.
func (m *Model) loaded(msg loadedMsg) tea.Cmd {
	cmd := m.take(msg)
	if m.eng.relisted(msg.id) {
		return tea.Batch(cmd, m.eng.relist(m.snap.cat))
	}
	return cmd
}

func (m *Model) take(msg loadedMsg) tea.Cmd {
	if msg.id != m.eng.loadID {
		return nil
	}
	if msg.err != nil {
		m.fail("reload", fmt.Errorf("showing the last good catalog: %w", msg.err))
		return nil
	}
	delete(m.problems, "reload")
	delete(m.problems, "server")
	if msg.unchanged && (msg.snap == nil || sameFindings(m.snap.findings, msg.snap.findings)) {
		m.notice = "reloaded: the tools and their findings are unchanged"
		return nil
	}
	m.notice = "reloaded " + plural(len(msg.snap.cat.Tools), "tool")
	if msg.unchanged {
		m.notice = "reloaded: the tools are unchanged, their findings changed"
	}
	if m.fixedNote != "" {
		m.notice, m.fixedNote = m.fixedNote+"; reloaded", ""
	}
	m.eng.analyseID++ // an analysis still running is about the old catalog
	m.setSnapshot(msg.snap)
	return tea.Batch(m.startScoring(), measureTokens(msg.snap.cat, contextWindow(m.eng.cfg)))
}

// analysed takes the first analysis of the catalog, keeping verdicts that
// arrived before it.
func (m *Model) analysed(msg analysedMsg) {
	if msg.id != m.eng.analyseID {
		return
	}
	s := msg.snap
	if m.snap.sim != nil {
		s = s.withSimilarity(*m.snap.sim, m.eng.lint.Gate)
	}
	m.setSnapshot(s)
}

// startScoring embeds and scores the current catalog in the background.
func (m *Model) startScoring() tea.Cmd {
	cmd := m.eng.score(m.snap.cat)
	m.syncPairs()
	return cmd
}

// scored takes a finished similarity run and asks for its verdicts.
func (m *Model) scored(msg scoredMsg) tea.Cmd {
	cmd, ok, err := m.eng.scored(msg)
	switch {
	case !ok:
		return nil
	case err != nil:
		m.fail("similarity", err)
		m.syncPairs()
		return nil
	}
	delete(m.problems, "similarity")
	return cmd
}

// judged takes new verdicts.
func (m *Model) judged(msg judgedMsg) tea.Cmd {
	cmd, ok := m.eng.judged(msg)
	if ok {
		m.setSnapshot(m.snap.withSimilarity(msg.sim, m.eng.lint.Gate))
	}
	return cmd
}

// switchScoring flips the scoring and scores again.
func (m *Model) switchScoring() tea.Cmd {
	m.eng.switchScoring()
	m.notice = "scoring: " + string(m.eng.scoring)
	return m.startScoring()
}

// switchEmbedder moves to the next embedder and scores again.
func (m *Model) switchEmbedder() tea.Cmd {
	if !m.eng.switchEmbedder() {
		return nil
	}
	m.notice = "embedder: " + m.eng.spec
	return m.startScoring()
}

// sameFindings reports whether two analyses found the same things: rule,
// tool, parameter, severity and message, in order.
func sameFindings(a, b []lint.Finding) bool {
	return slices.EqualFunc(a, b, func(x, y lint.Finding) bool {
		return x.Rule == y.Rule && x.Tool == y.Tool && x.Param == y.Param && x.Severity == y.Severity && x.Message == y.Message && x.Line == y.Line
	})
}
