// Package tui is toolscope's explorer: a Bubble Tea app showing a tool
// catalog's tools, the selected tool's findings, declarations and schema,
// the similarity pairs, and an arguments drawer that judges pasted
// arguments on every keystroke.
//
// The root Model only routes: ctrl+c first, then the modes stacked over
// the panes (stack.go), then the global keys and the focused pane; the
// terminal size to all. Each pane lives in its own file; layout
// arithmetic is ComputeLayout's alone; slow work (embedding, reloading,
// exporting) runs in commands whose replies carry a request id, so a stale
// reply is dropped.
package tui

import (
	"context"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/config"
	chat "toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/live"
	"toolscope/embed"
)

// paneID names a pane; it is also the tab order on narrow screens.
type paneID int

const (
	paneTools paneID = iota
	paneTool
	panePairs
	paneArgs
	paneCount
)

// The selected tool's pane is "Detail", so no two tabs differ by one letter.
var paneNames = [...]string{"Tools", "Detail", "Pairs", "Arguments"}

// pane is what the root needs of each pane.
type pane interface {
	// setSize gives the pane its content area (inside the frame).
	setSize(w, h int)
	// Update handles a message the root routed to the pane.
	Update(msg tea.Msg) tea.Cmd
	// View renders the content area; it must be cheap (heavy work is done
	// when the pane's inputs change).
	View() string
	// title is the frame's title.
	title() string
	// Keys are the pane's own keys, for help and the hint line.
	Keys() []key.Binding
	// Typing reports whether the pane takes typed text now, in which case
	// only ctrl+c and esc stay global.
	Typing() bool
}

// paneBase is what every pane shares: the key map and styles (the root's,
// so enabling a key shows everywhere) and the content size the root gave.
type paneBase struct {
	keys   *KeyMap
	styles *Styles
	w, h   int
}

// Options configure the explorer.
type Options struct {
	// Catalog is the catalog shown first, loaded before the first frame.
	Catalog *catalog.Catalog
	// Lint configures the rules and the similarity (scoring, thresholds,
	// rank limit), starting from lint.DefaultOptions (a zero Lint is
	// replaced by it). Its Embedder is not used: the explorer opens
	// embedders itself, in the background, so the first frame never waits
	// for a model.
	Lint lint.Options
	// Embedder is the spec of the embedder to start with ("use", "mock",
	// "openai:MODEL"); "" turns similarity off.
	Embedder string
	// Embedders are the specs the embedder key cycles through.
	Embedders []string
	// OpenEmbedder opens an embedder by spec; it runs in the background.
	OpenEmbedder func(spec string) (embed.Embedder, error)
	// Reload re-reads the catalog's source; nil when it cannot be re-read
	// (stdin).
	Reload func(ctx context.Context) (*catalog.Catalog, error)
	// SourceFindings are findings on where the tools come from rather
	// than on the tools: an mcp-config file's own hygiene, each at its
	// server's first tool of the catalog given. Nil: none.
	SourceFindings func(*catalog.Catalog) []lint.Finding
	// Watch is the file whose saves trigger a reload, "" for none.
	Watch string
	// Changes is a live source's news (tools changed, server lost); nil
	// for a file.
	Changes <-chan live.Change
	// Origin says where the catalog came from, for the header; "" is the
	// catalog source's file name.
	Origin string
	// Export writes the report in a format ("json", "sarif", "markdown");
	// nil turns the export key off.
	Export ExportFunc
	// ExportDir is where exported reports are written.
	ExportDir string
	// Now is the clock pasted periods are read against; nil is time.Now.
	Now func() time.Time
	// Start, when Catalog is nil, reaches a live source in the background
	// while a start screen shows how far it got; esc or q cancels.
	Start StartFunc
	// Call calls a tool on the live server, after the user said yes; nil
	// when the catalog is not live.
	Call CallFunc
	// Config is the project config (toolscope.yaml) in force, nil for
	// none: it is applied to every report as lint applies it, and triage
	// writes to its file.
	Config *config.Config
	// ConfigPath is the file triage creates when Config is nil; "" (with
	// no Config) turns triage off.
	ConfigPath string
	// Zone is the app's zone for wall times; nil is UTC.
	Zone *time.Location
	// Clipboard is where the copy key writes its OSC 52 sequence; nil is
	// stderr (the terminal, as stdout, without racing the screen's writes).
	Clipboard io.Writer
	// Judge asks a chat model about a pair (J), after JudgeCost's line;
	// nil turns the key off.
	Judge     JudgeFunc
	JudgeCost JudgeCostFunc
	// JudgeCostAll says, in one line, what judging every review pair
	// will cost; nil leaves that offer out.
	JudgeCostAll JudgeCostAllFunc
	// Fix runs probe --fix's loop for a pair the recorded probe saw
	// confused (F), after FixCost's line; nil turns the key off.
	Fix     FixFunc
	FixCost FixCostFunc
	// Recorded finds a recorded judgment of a pair's current texts (the
	// judgments file, the judgment cache), shown in the Pairs pane's
	// detail; nil for none.
	Recorded RecordedFunc
	// Replay applies the recorded judgments to a report as lint does
	// without a key: a pair judged 2 or 3 is confusable with the judge's
	// reason, one judged 0 or 1 is cleared. The header's counts, the
	// gate and the Pairs pane's marks follow it; nil for none.
	Replay ReplayFunc
	// NoticeFor is how long a passing message stays in the footer when
	// no key clears it first; 0 keeps it until the next key.
	NoticeFor time.Duration
	// RecordAccept records a person's judgment of a pair accepted (or
	// removes it, undo) beside the project config written at configPath,
	// and returns the judgments file; nil leaves accepts to the config.
	RecordAccept AcceptRecordFunc
	// Probe is a recorded probe (toolscope probe --record): the Pairs
	// pane shows, beside each pair's score, how many of the requests for
	// either tool went to the other, and its detail and the comparison
	// say it in sentences; nil for none.
	Probe *chat.ProbeRecord
}

// ExportFunc writes a report about cat in a format.
type ExportFunc func(w io.Writer, format string, r *lint.Report, cat *catalog.Catalog) error

// Model is the explorer's root model.
type Model struct {
	keys   KeyMap
	styles Styles
	layout Layout
	opts   Options

	snap *snapshot
	// tokens are the catalog's token counts, nil until measured; they
	// are about m.snap.cat when their tools match its.
	tokens *tokenCounts
	// catalogScore caches the header's score.
	catalogScore scoreCache
	panes        [paneCount]pane
	tools        *toolList
	tool         *toolPane
	pairs        *pairsPane
	drawer       *drawer
	focus        paneID

	// stack holds the modes open over the panes (stack.go), the top last.
	stack []layer
	// calling is the live call in flight, nil when none.
	calling *liveCall
	// judging is the judgment in flight, nil when none; judgments are the
	// pairs judged so far, by ordered names.
	judging   *judgeCall
	judgments map[[2]string]chat.Judgment
	// fixing is the fix in flight, nil when none; fixes are the trials
	// so far, by pair.
	fixing *fixCall
	fixes  map[[2]string]chat.FixTrial
	// zoomed gives the focused pane the whole body.
	zoomed   bool
	quitting bool
	// closed is set by the first Close.
	closed bool
	// inReply is set while a terminal's late answer to a query is read.
	inReply bool
	// whatIfIDs numbers the runs of every what-if opened.
	whatIfIDs int
	// whatIfDrafts are the edited descriptions left in the what-if, by
	// tool name: d reopens each where it was left.
	whatIfDrafts map[string]string
	// writingConfig is true while a triage is being written.
	// triageDraft keeps the reason of a write that failed, for the prompt
	// of the same triage (triageDraftFor).
	writingConfig bool
	// fixedNote says what the fix key wrote, until the reload it causes
	// shows the file.
	fixedNote                   string
	triageDraft, triageDraftFor string
	// hideTriaged hides what the config accepted or ignores.
	hideTriaged bool

	// eng is the analysis: background requests, scores, thresholds.
	eng     engine
	watcher *watcher

	// problems are the errors the banner shows, by what failed (a reload,
	// the similarity, an export, the file watch), each cleared when that
	// work next succeeds; notice is a passing message in the footer,
	// noticeSeq the number of the last one given a timer.
	problems  map[string]string
	notice    string
	noticeSeq int

	// frame is the whole screen, rendered at the end of every Update so
	// View only returns it.
	frame string
}

// New builds the explorer for a loaded catalog.
func New(opts Options) *Model {
	if opts.Lint.Rules == nil {
		opts.Lint = lint.DefaultOptions()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	m := &Model{keys: DefaultKeyMap(), styles: DefaultStyles(), opts: opts, eng: newEngine(opts), problems: map[string]string{}}
	m.tools = newToolList(&m.keys, &m.styles)
	m.tool = newToolPane(&m.keys, &m.styles, opts.Lint.Rules)
	m.judgments = map[[2]string]chat.Judgment{}
	m.fixes = map[[2]string]chat.FixTrial{}
	m.pairs = newPairsPane(&m.keys, &m.styles)
	m.pairs.judgments, m.pairs.recorded = m.judgments, opts.Recorded
	m.pairs.fixes = m.fixes
	m.pairs.probe = newProbeRates(opts.Probe)
	m.drawer = newDrawer(&m.keys, &m.styles, opts.Now, opts.Zone)
	m.drawer.probe = opts.Probe
	m.panes = [paneCount]pane{m.tools, m.tool, m.pairs, m.drawer}
	if opts.Catalog == nil {
		// A live source still to reach: an empty catalog until it answers.
		m.opts.Catalog = &catalog.Catalog{Source: opts.Origin}
		if opts.Start != nil {
			m.stack = []layer{&starting{fn: opts.Start, origin: opts.Origin}}
		}
	}
	opts = m.opts
	// The rules run after the first frame (Init), so it never waits for
	// them, whatever the catalog's size.
	m.setSnapshot(bare(opts.Catalog, opts.Lint.Gate, opts.Config))
	m.render()
	return m
}

// Init starts the background work; the first frame does not wait for it.
func (m *Model) Init() tea.Cmd {
	if s := m.start(); s != nil {
		cmd := s.begin()
		m.settle()
		return cmd
	}
	return m.work()
}

// work starts the analysis, the similarity, the file watch and the live
// source's news, once the catalog is there.
func (m *Model) work() tea.Cmd {
	cmds := []tea.Cmd{m.eng.analyse(m.snap.cat), m.startScoring(), measureTokens(m.snap.cat, contextWindow(m.eng.cfg))}
	if m.opts.Watch != "" {
		w, err := startWatch(m.opts.Watch)
		if err != nil {
			m.fail("watch", err)
		} else {
			m.watcher = w
			cmds = append(cmds, w.next())
		}
	}
	if m.opts.Changes != nil {
		cmds = append(cmds, waitChange(m.opts.Changes))
	}
	// The first frame is drawn after Init: show what was just started.
	m.settle()
	return tea.Batch(cmds...)
}

// Close stops the background work and the file watch. It may be called
// more than once: only the first call does anything.
func (m *Model) Close() {
	if m.closed {
		return
	}
	m.closed = true
	if s := m.start(); s != nil && s.cancel != nil {
		s.cancel()
	}
	m.eng.close()
	if m.watcher != nil {
		m.watcher.close()
	}
}

// Update routes a message and re-renders the screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	if km, ok := msg.(tea.KeyMsg); ok && m.terminalReply(km) {
		return m, nil
	}
	if e, ok := msg.(noticeExpiredMsg); ok {
		if int(e) == m.noticeSeq {
			m.notice = ""
			m.settle()
		}
		return m, nil
	}
	notice := m.notice
	if km, ok := msg.(tea.KeyMsg); ok && km.Type == tea.KeyRunes && len(km.Runes) > 1 && !km.Paste {
		cmd = m.burst(km)
	} else {
		cmd = m.route(msg)
	}
	if m.notice != notice && m.notice != "" && m.opts.NoticeFor > 0 {
		// A passing message passes: gone after a while, or at the next key.
		m.noticeSeq++
		seq := m.noticeSeq
		cmd = tea.Batch(cmd, tea.Tick(m.opts.NoticeFor, func(time.Time) tea.Msg { return noticeExpiredMsg(seq) }))
	}
	// The drawer judges its text in the background, after any update that
	// changed it.
	if c := m.drawer.command(); c != nil {
		cmd = tea.Batch(cmd, c)
	}
	m.settle()
	if m.quitting {
		return m, tea.Quit
	}
	return m, cmd
}

// terminalReply reports whether km is part of a terminal's answer to a
// query rather than a key. Bubble Tea v1 asks the terminal for its
// background colour (OSC 11) as it loads and stops listening after the
// first reply; an answer that comes later (a slow link, or a terminal that
// answers the cursor query first) reaches the program as alt+], the
// answer's text ("11;rgb:0000/0000/0000") and alt+\ or BEL. Typed as keys,
// its "/" would open the filter and take the next q as text. alt+] means
// nothing here, so it opens the reply and every rune up to its end is
// dropped.
func (m *Model) terminalReply(km tea.KeyMsg) bool {
	oneAlt := func(r rune) bool {
		return km.Alt && km.Type == tea.KeyRunes && len(km.Runes) == 1 && km.Runes[0] == r
	}
	switch {
	case oneAlt(']'):
		m.inReply = true
		return true
	case !m.inReply:
		return false
	case oneAlt('\\'), km.Type == tea.KeyCtrlG:
		m.inReply = false
		return true
	case km.Type == tea.KeyRunes && !km.Alt && !km.Paste:
		return true
	}
	m.inReply = false
	return false
}

// burst routes runes that were read at once (a held key, a fast typist,
// a slow link): Bubble Tea delivers "jjj" as one message, and each rune
// is a key of its own. Once a text field takes the keys, the rest is
// typed into it whole.
func (m *Model) burst(km tea.KeyMsg) tea.Cmd {
	var cmds []tea.Cmd
	for rest := km.Runes; len(rest) > 0 && !m.quitting; {
		one := km
		if m.takesText() {
			one.Runes, rest = rest, nil
		} else {
			one.Runes, rest = rest[:1], rest[1:]
		}
		cmds = append(cmds, m.route(one))
		// The next key finds the keys this one enabled or disabled.
		m.enableKeys()
	}
	return tea.Batch(cmds...)
}

// settle lays the screen out again when the banner came or went, and
// renders it.
func (m *Model) settle() {
	if m.layout.banner != (len(m.problems) > 0) {
		m.resize(m.layout.Width, m.layout.Height)
	}
	m.enableKeys()
	m.fitPrompts()
	picking := pickNone
	if t := m.triage(); t != nil && t.choices != nil {
		picking = pickInForce
		if t.undo {
			picking = pickIgnored
		}
	}
	m.tool.setPicking(picking)
	m.render()
}

// enableKeys turns on the keys that can do something now, so help and the
// footer list only those.
func (m *Model) enableKeys() {
	k := &m.keys
	scored := m.eng.scores != nil
	for _, b := range []*key.Binding{&k.Raise, &k.Lower, &k.Widen, &k.Narrow} {
		b.SetEnabled(scored)
	}
	k.Reload.SetEnabled(m.eng.load != nil || m.start() != nil && m.start().err != nil)
	k.EditFile.SetEnabled(m.opts.Watch != "" && m.tools.selectedTool() >= 0)
	k.ApplyFix.SetEnabled(len(m.toolFixes()) > 0)
	k.WhatIf.SetEnabled(m.whatIf() == nil && m.canWhatIf())
	k.CallTool.SetEnabled(m.opts.Call != nil && m.tools.selectedTool() >= 0)
	k.Export.SetEnabled(m.opts.Export != nil)
	k.Scoring.SetEnabled(m.eng.canScore())
	k.Embedder.SetEnabled(m.eng.canSwitchEmbedder())
	_, paired := m.pairs.selected()
	k.Compare.SetEnabled(paired)
	k.Judge.SetEnabled(paired && m.opts.Judge != nil)
	k.FixPair.SetEnabled(paired && m.opts.Fix != nil)
	k.Scope.SetEnabled(m.snap.sim != nil)
	m.enableTriageKeys()
}

// View returns the screen rendered by the last Update.
func (m *Model) View() string { return m.frame }

// route hands a message to what it is for: the start screen, the
// answer to a request, the layout, the key and mouse routers, else the
// focused pane.
func (m *Model) route(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.startMsg(msg); ok {
		return cmd
	}
	if cmd, ok := m.catalogMsg(msg); ok {
		return cmd
	}
	if cmd, ok := m.answerMsg(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return nil
	case tea.KeyMsg:
		return m.key(msg)
	case tea.MouseMsg:
		return m.mouse(msg)
	case noticeMsg:
		m.notice = string(msg)
		return nil
	case failedMsg:
		m.failed(msg)
		return nil
	}
	return m.toPane(msg)
}

// catalogMsg takes the news about the catalog and its analysis: a save,
// a reload, a live change, the rules, the tokens, the scores, a file
// written; ok is false for other messages.
func (m *Model) catalogMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case fileChangedMsg:
		if m.watcher == nil {
			return m.reload(), true
		}
		return tea.Batch(m.reload(), m.watcher.next()), true
	case watchErrMsg:
		m.fail("watch", msg.err)
		return m.watcher.next(), true
	case loadedMsg:
		return m.loaded(msg), true
	case liveChangeMsg:
		return m.liveChanged(msg), true
	case analysedMsg:
		m.analysed(msg)
	case tokensMsg:
		m.tokensTaken(msg)
	case progressMsg:
		cmd, ok := m.eng.progress(msg)
		if ok {
			m.syncPairs()
		}
		return cmd, true
	case scoredMsg:
		return m.scored(msg), true
	case judgedMsg:
		return m.judged(msg), true
	case triagedMsg:
		m.triaged(msg)
	case lintFixedMsg:
		return m.lintFixed(msg), true
	case editedMsg:
		return m.edited(msg), true
	case exportedMsg:
		if msg.err != nil {
			m.fail("export", msg.err)
		} else {
			delete(m.problems, "export")
			m.notice = "wrote " + msg.path
		}
	default:
		return nil, false
	}
	return nil, true
}

// answerMsg takes the answers to what was asked in the background: a
// live call, a pair's judgment, a fix, the drawer's verdict, a what-if run; ok
// is false for other messages.
func (m *Model) answerMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	switch msg := msg.(type) {
	case calledMsg:
		m.called(msg)
	case reviewStepMsg:
		return m.reviewStepped(msg), true
	case pairJudgedMsg:
		m.pairJudged(msg)
	case pairFixedMsg:
		m.pairFixed(msg)
	case argsJudgedMsg:
		m.drawer.judged(msg)
	case whatIfMsg:
		if v := m.whatIf(); v != nil {
			return v.answered(msg), true
		}
	default:
		return nil, false
	}
	return nil, true
}

func (m *Model) resize(w, h int) {
	m.layout = ComputeLayout(w, h, m.drawerOpen(), len(m.problems) > 0)
	// One pane at a time already fills the body: z has nothing to zoom,
	// and is not offered.
	m.keys.Zoom.SetEnabled(m.layout.Mode != ModeTabs)
	if m.layout.Mode == ModeTabs {
		m.zoomed = false
	}
	fw, fh := m.styles.frameSize()
	l := m.layout
	for id, r := range [paneCount]Rect{l.Tools, l.Tool, l.Pairs, l.Drawer} {
		if m.zoomed && paneID(id) == m.focus {
			r = l.Body
		}
		m.panes[id].setSize(max(r.W-fw, 0), max(r.H-fh, 0))
	}
	for _, l := range m.stack {
		l.setSize(m.bodyInner())
	}
}

// global takes the keys every pane answers to, in groups tried in turn
// (the first that matches a key has it), then hands the key to the
// focused pane.
func (m *Model) global(msg tea.KeyMsg) tea.Cmd {
	if cmd, ok := m.moveKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.analysisKey(msg); ok {
		return cmd
	}
	if cmd, ok := m.pairKey(msg); ok {
		return cmd
	}
	return m.findKey(msg)
}

// moveKey takes the keys that go somewhere: quit, help, another pane,
// the drawer; esc cancels a call or clears the filter.
func (m *Model) moveKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Quit):
		m.quit()
	case key.Matches(msg, k.Help):
		m.openHelp()
	case key.Matches(msg, k.NextPane):
		m.cycle(1)
	case key.Matches(msg, k.PrevPane):
		m.cycle(-1)
	case key.Matches(msg, k.GoTools):
		m.setFocus(paneTools)
	case key.Matches(msg, k.GoTool):
		m.setFocus(paneTool)
	case key.Matches(msg, k.GoPairs):
		m.setFocus(panePairs)
	case key.Matches(msg, k.GoArgs):
		m.openDrawer()
	case key.Matches(msg, k.Arguments):
		// The drawer's layer closes it when it has focus.
		m.openDrawer()
		return m.drawer.startEditing(), true
	case key.Matches(msg, k.Back) && m.calling != nil:
		m.cancelCall()
	case key.Matches(msg, k.Back) && m.focus != paneTools && !m.searching() && m.tools.filter.Value() != "":
		// esc clears the filter from any pane, as from the list.
		m.tools.clearFilter()
		m.selectionChanged()
	default:
		return nil, false
	}
	return nil, true
}

// analysisKey takes the keys that change what is analysed or shown: the
// thresholds, the scoring, the embedder, a reload, an export, a copy, the
// zoom, the catalog file, triaged entries hidden.
func (m *Model) analysisKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Raise):
		return m.eng.moveThresholds(thresholdStep, 0), true
	case key.Matches(msg, k.Lower):
		return m.eng.moveThresholds(-thresholdStep, 0), true
	case key.Matches(msg, k.Widen):
		return m.eng.moveThresholds(0, bandStep), true
	case key.Matches(msg, k.Narrow):
		return m.eng.moveThresholds(0, -bandStep), true
	case key.Matches(msg, k.Scoring):
		return m.switchScoring(), true
	case key.Matches(msg, k.Embedder):
		return m.switchEmbedder(), true
	case key.Matches(msg, k.Reload):
		return m.reload(), true
	case key.Matches(msg, k.Export):
		m.startExport()
	case key.Matches(msg, k.Copy):
		m.copySelection()
	case key.Matches(msg, k.Zoom):
		m.toggleZoom()
	case key.Matches(msg, k.EditFile):
		return m.editCatalog(), true
	case key.Matches(msg, k.ApplyFix):
		return m.applyFixes(), true
	case key.Matches(msg, k.HideTriaged):
		m.toggleTriaged()
	case !k.HideTriaged.Enabled() && pressed(msg, k.HideTriaged):
		// A key that cannot act says why rather than nothing.
		m.notice = "H hides what toolscope.yaml accepts and ignores: " + m.noConfigWhy()
	default:
		return nil, false
	}
	return nil, true
}

// pairKey takes the keys about a pair or a finding: triage, the what-if,
// the judge, the fix, the ranking, the comparison.
func (m *Model) pairKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := &m.keys
	compared := m.compare() != nil
	switch {
	case key.Matches(msg, k.Accept) && (m.focus == panePairs || compared),
		key.Matches(msg, k.Ignore) && m.focus == paneTool && !compared,
		key.Matches(msg, k.Undo) && (m.focus == panePairs || m.focus == paneTool || compared):
		return m.triageKey(msg), true
	case !k.Accept.Enabled() && pressed(msg, k.Accept) && (m.focus == panePairs || compared):
		// A key that cannot act says why rather than nothing.
		m.notice = m.acceptOff()
	case key.Matches(msg, k.WhatIf):
		return m.openWhatIf(), true
	case key.Matches(msg, k.Judge) && m.focus == panePairs:
		return m.judgePair(), true
	case key.Matches(msg, k.FixPair) && m.focus == panePairs:
		return m.fixPair(), true
	case key.Matches(msg, k.Scope) && m.focus != panePairs:
		// g from any pane goes to the global ranking.
		m.setFocus(panePairs)
		if !m.pairs.global {
			return m.toPane(msg), true
		}
	case key.Matches(msg, k.Compare) && m.focus == panePairs:
		if pr, ok := m.pairs.selected(); ok {
			c := newCompareView(&m.keys, &m.styles, m.snap, pr)
			c.probe = m.pairs.probe.text(pr)
			m.push(c)
		}
	default:
		return nil, false
	}
	return nil, true
}

// findKey takes the filter and the jumps between flagged tools, then
// hands the key to the focused pane.
func (m *Model) findKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	switch {
	case key.Matches(msg, k.Filter) && m.focus != paneTools:
		m.setFocus(paneTools)
		return m.toPane(msg)
	case key.Matches(msg, k.NextMatch, k.PrevMatch) && !m.searching():
		d := 1
		if key.Matches(msg, k.PrevMatch) {
			d = -1
		}
		if !m.tools.jumpFlagged(d) {
			m.notice = "no tool has findings or confusable pairs"
		}
		m.selectionChanged()
	case key.Matches(msg, k.Open) && m.focus == paneTools:
		m.setFocus(paneTool)
	default:
		return m.toPane(msg)
	}
	return nil
}

// pressed reports whether msg is one of b's keys, enabled or not.
func pressed(msg tea.KeyMsg, b key.Binding) bool { return slices.Contains(b.Keys(), msg.String()) }

// searcher is a view with a search of its own, whose n and N move between
// matches.
type searcher interface{ searching() bool }

// searching reports whether the focused view has a search going.
func (m *Model) searching() bool {
	s, ok := m.focused().(searcher)
	return ok && s.searching()
}

// noticeExpiredMsg clears the notice its number was given to, when no
// other has replaced it since.
type noticeExpiredMsg int

// noticeMsg is a passing message for the footer, from a pane.
type noticeMsg string

// notify is a command that shows text in the footer.
func notify(text string) tea.Cmd { return func() tea.Msg { return noticeMsg(text) } }

// question is a yes/no question the footer asks; yes runs on y. A
// question with a word to type (confirm) runs yes only when that word is
// typed and enter pressed: a single key is too easy to hit by mistake
// before a call that may destroy something.
type question struct {
	layerBase
	text    string
	yes     func() tea.Cmd
	confirm string
	typed   string
	// alt is a second yes, under its own key (J's "every review pair").
	alt *altAnswer
	// ignored counts the keys pressed that answer nothing: the question
	// shows it waits, and that they went nowhere.
	ignored int
}

// waiting says, once a key that answers nothing was pressed, that the
// question is still waiting and the keys went nowhere.
func (q *question) waiting() string {
	switch q.ignored {
	case 0:
		return ""
	case 1:
		return " · waiting for an answer (1 key ignored)"
	}
	return " · waiting for an answer (" + strconv.Itoa(q.ignored) + " keys ignored)"
}

// altAnswer is a question's second yes: its key, its hint, what it does.
type altAnswer struct {
	key, hint string
	do        func() tea.Cmd
}

// quit quits, after asking when argument drafts would be lost.
func (m *Model) quit() {
	if m.whatIf() != nil {
		m.leaveWhatIf()
	}
	var drafts []string
	if n := m.drawer.draftCount(); n > 0 {
		drafts = append(drafts, "arguments of "+plural(n, "tool"))
	}
	if n := len(m.whatIfDrafts); n > 0 {
		drafts = append(drafts, "descriptions of "+plural(n, "tool"))
	}
	if len(drafts) > 0 {
		// Short enough for 80 columns with its answers.
		m.ask("quit and lose the drafts ("+strings.Join(drafts, ", ")+")?", func() tea.Cmd {
			m.quitting = true
			return nil
		})
		return
	}
	m.quitting = true
}

// ask puts a question in the footer; only its answers work until then.
func (m *Model) ask(text string, yes func() tea.Cmd) {
	m.push(&question{text: text, yes: yes})
	m.keys.Yes.SetEnabled(true)
	m.keys.No.SetEnabled(true)
}

// askTyped puts a question in the footer that only typing word, then
// enter, answers yes.
func (m *Model) askTyped(text, word string, yes func() tea.Cmd) {
	m.push(&question{text: text, yes: yes, confirm: word})
}

// answer takes the answer to the question: y says yes, n, esc or ctrl+c
// no; other keys wait. ctrl+c never confirms anything: it is the key
// people press to get out. A typed question takes its word, and enter
// says yes only when the word matches; enter on anything else says no.
func (m *Model) answer(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	q := m.asking()
	var yes bool
	switch {
	case key.Matches(msg, k.ForceQuit, k.Back):
	case q.confirm != "":
		switch msg.Type {
		case tea.KeyEnter:
			yes = q.typed == q.confirm
			if !yes {
				m.notice = "not confirmed: nothing was done"
			}
		case tea.KeyBackspace:
			r := []rune(q.typed)
			q.typed = string(r[:max(len(r)-1, 0)])
			return nil
		case tea.KeyRunes, tea.KeySpace:
			q.typed += string(msg.Runes)
			return nil
		default:
			q.ignored++
			return nil
		}
	case key.Matches(msg, k.Yes):
		yes = true
	case q.alt != nil && msg.Type == tea.KeyRunes && string(msg.Runes) == q.alt.key:
		m.pop(q)
		k.Yes.SetEnabled(false)
		k.No.SetEnabled(false)
		return q.alt.do()
	case !key.Matches(msg, k.No):
		// Typed text may come as one message of several runes: each is
		// a key that went nowhere.
		q.ignored += max(len(msg.Runes), 1)
		return nil
	}
	m.pop(q)
	k.Yes.SetEnabled(false)
	k.No.SetEnabled(false)
	if yes {
		return q.yes()
	}
	return nil
}

// failed takes a background command's panic. A panic in a superseded
// request is dropped like its answer would have been; the current one's
// is shown and ends it, so the next request of its kind can start.
func (m *Model) failed(msg failedMsg) {
	switch msg.what {
	case "start":
		if s := m.start(); s != nil && msg.id == s.id {
			s.err = msg.err
		}
		return
	case "call":
		m.called(calledMsg{id: msg.id, err: msg.err})
		return
	case "pair-judge":
		m.pairJudged(pairJudgedMsg{id: msg.id, err: msg.err})
		return
	case "pair-fix":
		m.pairFixed(pairFixedMsg{id: msg.id, err: msg.err})
		return
	case "config":
		m.writingConfig = false
	case "what-if":
		if v := m.whatIf(); v != nil {
			v.answered(whatIfMsg{id: msg.id, err: msg.err})
		}
		return
	case "arguments":
		if m.drawer.job == nil || msg.id != m.drawer.job.id {
			return
		}
		m.drawer.judged(argsJudgedMsg{id: msg.id, lines: []verdictLine{{toneError, "the arguments could not be judged: " + msg.err.Error()}}})
	default:
		if !m.eng.failed(msg) {
			return
		}
		if msg.what == "similarity" {
			defer m.syncPairs()
		}
	}
	m.fail(msg.what, msg.err)
}

// fail shows an error in the banner under what failed.
func (m *Model) fail(what string, err error) {
	// A server's stderr can carry anything: it reaches the screen escaped.
	m.problems[what] = what + ": " + shown(oneLine(err.Error()))
}

// problemText is the banner's line: every current problem, in a stable
// order.
func (m *Model) problemText() string {
	list := make([]string, 0, len(m.problems))
	for _, p := range m.problems {
		list = append(list, p)
	}
	slices.Sort(list)
	return strings.Join(list, " · ")
}

// focused is what takes keys now: the topmost layer that is a view of
// its own (the what-if, the comparison), else the focused pane.
func (m *Model) focused() pane {
	for i := len(m.stack) - 1; i >= 0; i-- {
		if p, ok := m.stack[i].(pane); ok {
			return p
		}
	}
	return m.panes[m.focus]
}

// toPane hands a message to the focused pane and tells the others when the
// selected tool changed under it.
func (m *Model) toPane(msg tea.Msg) tea.Cmd {
	before, query := m.tools.selectedTool(), m.tools.filter.Value()
	cmd := m.panes[m.focus].Update(msg)
	// The ranking follows the filter too.
	if m.tools.selectedTool() != before || m.tools.filter.Value() != query {
		m.selectionChanged()
	}
	return cmd
}

// visible lists the panes that can take focus in the current layout.
func (m *Model) visible() []paneID {
	if m.layout.Mode == ModeTabs || m.drawerOpen() {
		return []paneID{paneTools, paneTool, panePairs, paneArgs}
	}
	return []paneID{paneTools, paneTool, panePairs}
}

func (m *Model) cycle(d int) {
	vis := m.visible()
	at := 0
	for i, id := range vis {
		if id == m.focus {
			at = i
		}
	}
	m.setFocus(vis[(at+d+len(vis))%len(vis)])
}

func (m *Model) setFocus(id paneID) {
	if id == paneArgs && !m.drawerOpen() {
		m.openDrawer()
		return
	}
	m.focus = id
	if id == paneTool && m.tool.overview {
		// Looking at the tool ends the first screen's list.
		m.tool.overview = false
		m.tool.rebuild()
	}
	if m.zoomed {
		// The zoomed pane is the focused one.
		m.resize(m.layout.Width, m.layout.Height)
	}
}

// openDrawer opens the drawer, if it is not open, and gives it focus.
func (m *Model) openDrawer() {
	d := m.drawerLayer()
	if d == nil {
		d = &drawerLayer{}
		m.push(d)
	}
	if m.focus != paneArgs {
		d.from = m.focus
	}
	m.focus = paneArgs
	m.resize(m.layout.Width, m.layout.Height)
}

// closeDrawer closes the drawer and gives focus back to the pane that
// had it before.
func (m *Model) closeDrawer() {
	d := m.drawerLayer()
	if d == nil {
		return
	}
	m.pop(d)
	m.focus = d.from
	if m.focus == paneArgs {
		m.focus = paneTool
	}
	m.resize(m.layout.Width, m.layout.Height)
}

func (m *Model) setSnapshot(s *snapshot) {
	if s.replay == nil && m.opts.Replay != nil {
		n := *s
		n.replay = m.opts.Replay
		n.derive(m.eng.lint.Gate)
		s = &n
	}
	if s.cfg != m.eng.cfg {
		// Analysed before a triage replaced the config.
		s = s.withConfig(m.eng.cfg, m.eng.lint.Gate)
	}
	m.snap = s
	m.tools.setSnapshot(s)
	m.selectionChanged()
}

// selectionChanged tells the panes that follow the selected tool.
func (m *Model) selectionChanged() {
	sel := m.tools.selectedTool()
	m.tool.show(m.snap, sel)
	m.drawer.show(m.snap, sel)
	m.syncPairs()
}

// syncPairs tells the pairs pane the selection and the similarity's state.
func (m *Model) syncPairs() {
	m.pairs.only = m.tools.shownTools
	m.pairs.show(m.snap, m.tools.selectedTool(), "similarity: "+m.similarityStatus(), m.thresholdStatus())
}

// globalKeys are the keys every pane answers to, for help and hints.
func (m *Model) globalKeys() []key.Binding {
	k := m.keys
	return []key.Binding{k.NextPane, k.PrevPane, k.GoTools, k.GoTool, k.GoPairs, k.GoArgs, k.Filter, k.Arguments, k.NextMatch, k.PrevMatch,
		k.Raise, k.Lower, k.Widen, k.Narrow, k.Scoring, k.Embedder, k.Export, k.Reload, k.Copy, k.Zoom, k.EditFile, k.HideTriaged, k.WhatIf, k.Back, k.Help, k.Quit, k.ForceQuit}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
