package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/live"
	"toolscope/core/validate"
)

// StartFunc reaches a live source: it reports each stage it enters
// ("starting the server", "listing the tools") to stage and returns what
// the explorer needs, or why it could not. It stops when ctx is cancelled.
type StartFunc func(ctx context.Context, stage func(string)) (*Started, error)

// Started is a live source reached and listed.
type Started struct {
	Catalog *catalog.Catalog
	Reload  func(context.Context) (*catalog.Catalog, error)
	// SourceFindings are as Options.SourceFindings, for the source reached.
	SourceFindings sourceFindings
	Changes        <-chan live.Change
	Origin         string
	Call           CallFunc
}

// CallFunc calls a tool on its live server with arguments as JSON.
type CallFunc func(ctx context.Context, tool *catalog.Tool, args json.RawMessage) (live.CallResult, error)

// starting is the start screen's state: the stage reached, since when, and
// the failure that ended it, if any.
type starting struct {
	layerBase
	fn     StartFunc
	origin string
	stage  string
	began  time.Time
	now    time.Time
	err    error
	id     int
	cancel context.CancelFunc
	stages chan string
}

type startStageMsg struct {
	id    int
	stage string
}

type startTickMsg struct {
	id int
	at time.Time
}

type startedMsg struct {
	id  int
	res *Started
	err error
}

// begin reaches the source in the background, with the stages and a
// once-a-second tick for the elapsed time.
func (s *starting) begin() tea.Cmd {
	s.id++
	s.err, s.stage = nil, "starting"
	s.began, s.now = time.Now(), time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	id, stages, fn := s.id, make(chan string, 8), s.fn
	s.stages = stages
	run := safeID("start", id, func() tea.Msg {
		defer close(stages)
		res, err := fn(ctx, func(st string) {
			select {
			case stages <- st:
			default:
			}
		})
		return startedMsg{id: id, res: res, err: err}
	})
	return tea.Batch(run, s.nextStage(), s.tick())
}

func (s *starting) nextStage() tea.Cmd {
	id, ch := s.id, s.stages
	return func() tea.Msg {
		st, ok := <-ch
		if !ok {
			return nil
		}
		return startStageMsg{id: id, stage: st}
	}
}

func (s *starting) tick() tea.Cmd {
	id := s.id
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return startTickMsg{id: id, at: t} })
}

// startMsg takes the start's news; ok is false for other messages.
func (m *Model) startMsg(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	s := m.start()
	switch msg := msg.(type) {
	case startStageMsg:
		if s == nil || msg.id != s.id {
			return nil, true
		}
		s.stage = msg.stage
		return s.nextStage(), true
	case startTickMsg:
		if s == nil || msg.id != s.id || s.err != nil {
			return nil, true
		}
		s.now = msg.at
		return s.tick(), true
	case startedMsg:
		if s == nil || msg.id != s.id {
			return nil, true
		}
		if msg.err != nil {
			s.err = msg.err
			return nil, true
		}
		return m.started(msg.res), true
	}
	return nil, false
}

// started swaps the start screen for the explorer on the listed catalog.
func (m *Model) started(r *Started) tea.Cmd {
	m.pop(m.start())
	m.opts.Catalog, m.opts.Reload, m.opts.Changes, m.opts.Call = r.Catalog, r.Reload, r.Changes, r.Call
	if r.Origin != "" {
		m.opts.Origin = r.Origin
	}
	m.eng.load = r.Reload
	if r.SourceFindings != nil {
		m.opts.SourceFindings, m.eng.source = r.SourceFindings, r.SourceFindings
	}
	m.setSnapshot(bare(r.Catalog, m.eng.lint.Gate, m.eng.cfg))
	return m.work()
}

// startKey is the start screen's keys: q, esc or ctrl+c cancel and quit;
// after a failure r tries again.
func (m *Model) startKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	s := m.start()
	switch {
	case key.Matches(msg, k.Quit, k.ForceQuit, k.Back):
		if s.cancel != nil {
			s.cancel()
		}
		m.quitting = true
	case key.Matches(msg, k.Reload) && s.err != nil:
		return s.begin()
	}
	return nil
}

// StartErr is why the live source could not be reached when the user quit
// from the start screen; nil otherwise.
func (m *Model) StartErr() error {
	if s := m.start(); s != nil {
		return s.err
	}
	return nil
}

// startView is the start screen's body: what is being reached, the stage
// and the time so far, or the failure; and how to cancel or retry.
func (m *Model) startView(w, h int) string {
	s := m.start()
	st := m.styles
	var lines []string
	lines = append(lines, st.Bold.Render("Reaching the live source"), "", "source: "+shown(s.origin))
	if s.err != nil {
		lines = append(lines, "", st.Error.Render("✗ could not list its tools:"))
		for _, l := range wrap(shown(oneLine(s.err.Error())), max(w-4, 10)) {
			lines = append(lines, st.Error.Render(l))
		}
		lines = append(lines, "", st.Muted.Render("r tries again · q quits"))
	} else {
		elapsed := s.now.Sub(s.began).Truncate(time.Second)
		spin := []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}[int(elapsed/time.Second)%10]
		lines = append(lines, "", fmt.Sprintf("%s %s… %s", spin, shown(s.stage), elapsed))
		lines = append(lines, "", st.Muted.Render("esc or q cancels"))
	}
	return m.styles.frame("Starting", strings.Join(lines, "\n"), w, h, true)
}

// liveCall is a tools/call in flight.
type liveCall struct {
	id     int
	tool   string
	cancel context.CancelFunc
}

type calledMsg struct {
	id   int
	tool string
	res  live.CallResult
	err  error
}

// callTool asks, then calls the drawer's tool on the live server with the
// editor's arguments; the answer shows under the drawer's verdict.
func (m *Model) callTool() tea.Cmd {
	t := m.tools.selectedTool()
	if m.opts.Call == nil || t < 0 {
		return nil
	}
	tool := m.snap.cat.Tools[t]
	text := strings.TrimSpace(m.drawer.editor.Value())
	if text == "" {
		text = "{}"
	}
	if _, issues := validate.ParseArguments(text); issues != nil {
		m.notice = "the arguments are not a JSON object: nothing to call with"
		return nil
	}
	run := func() tea.Cmd {
		if m.calling != nil {
			m.calling.cancel()
		}
		ctx, cancel := context.WithCancel(context.Background())
		id := 1
		if m.calling != nil {
			id = m.calling.id + 1
		}
		m.calling = &liveCall{id: id, tool: tool.Name, cancel: cancel}
		m.drawer.setCall([]verdictLine{{toneMuted, "calling " + tool.Name + " on the live server… (esc cancels)"}})
		call := m.opts.Call
		return safeID("call", id, func() tea.Msg {
			res, err := call(ctx, tool, json.RawMessage(text))
			return calledMsg{id: id, tool: tool.Name, res: res, err: err}
		})
	}
	if destructive(tool) {
		// A tool that may destroy something, or does not say, takes its
		// name typed out: one key is too easy to press by mistake.
		m.askTyped("type "+shown(tool.Name)+" to call it on the live server; it may change or delete data, for real", shown(tool.Name), run)
		return nil
	}
	m.ask("call "+shown(tool.Name)+" on the live server with these arguments? It runs for real.", run)
	return nil
}

// destructive reports whether a live call of tool may destroy something:
// its annotations say so (destructiveHint true), or they do not say it is
// safe (readOnlyHint true, or destructiveHint false). The protocol's
// defaults are the same: an unannotated tool may be destructive.
func destructive(tool *catalog.Tool) bool {
	a := tool.Annotations
	if a == nil {
		return true
	}
	if ro := a.Get("readOnlyHint"); ro.Is(jsonv.Bool) && ro.Bool {
		return false
	}
	if d := a.Get("destructiveHint"); d.Is(jsonv.Bool) && !d.Bool {
		return false
	}
	return true
}

// called shows a live call's answer in the drawer.
func (m *Model) called(msg calledMsg) {
	if m.calling == nil || msg.id != m.calling.id {
		return
	}
	m.calling.cancel()
	m.calling = nil
	head := verdictLine{toneBold, "live call of " + msg.tool + ": the server answered"}
	switch {
	case msg.err != nil:
		m.drawer.setCall([]verdictLine{{toneError, "✗ live call of " + msg.tool + " failed: " + msg.err.Error()}})
		return
	case msg.res.IsError:
		head = verdictLine{toneError, "✗ live call of " + msg.tool + ": the server says the call failed"}
	}
	lines := []verdictLine{head}
	for _, l := range strings.Split(msg.res.Text, "\n") {
		lines = append(lines, verdictLine{tonePlain, "  " + l})
	}
	m.drawer.setCall(lines)
}

// cancelCall stops the live call in flight.
func (m *Model) cancelCall() {
	if m.calling != nil {
		m.calling.cancel()
		m.calling = nil
		m.drawer.setCall([]verdictLine{{toneMuted, "live call cancelled"}})
	}
}
