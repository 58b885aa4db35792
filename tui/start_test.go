package tui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/live"
)

// A live source is reached behind a start screen that says how far it got;
// its answer swaps in the explorer; a failure stays on screen with retry.
func TestStartScreenShowsProgressThenTheCatalog(t *testing.T) {
	opts := mockOptions(t)
	opts.Catalog = nil
	opts.Origin = "live mcp:server"
	opts.Start = func(ctx context.Context, stage func(string)) (*Started, error) { return nil, errors.New("unused") }
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Init()
	id := m.start().id
	m.Update(startStageMsg{id: id, stage: "listing the tools"})
	view := ansi.Strip(m.View())
	for _, want := range []string{"Reaching the live source", "source: live mcp:server", "listing the tools…", "esc or q cancels"} {
		if !strings.Contains(view, want) {
			t.Errorf("start screen lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "1 Tools") {
		t.Errorf("the start screen offers tabs, which do nothing yet:\n%s", view)
	}
	// The header has no catalog to count or judge yet.
	if head := strings.TrimRight(strings.Split(view, "\n")[0], " "); head != " toolscope · live mcp:server · reaching the source" {
		t.Errorf("the header while starting: %q", head)
	}
	// Keys other than cancel do nothing; a stale answer is dropped.
	press(m, "2", "a")
	m.Update(startedMsg{id: id - 1, res: &Started{Catalog: testCatalog(t)}})
	if m.start() == nil || m.drawerOpen() {
		t.Fatal("the start screen took a key or a stale answer")
	}
	m.Update(startedMsg{id: id, err: errors.New("mcp:server: initialize: timed out after 30s")})
	view = ansi.Strip(m.View())
	if !strings.Contains(view, "timed out after 30s") || !strings.Contains(view, "r tries again") || !strings.Contains(view, "· not reached") {
		t.Errorf("no failure on the start screen:\n%s", view)
	}
	if cmd := press(m, "r"); cmd == nil || m.start().id == id || m.start().err != nil {
		t.Fatal("r did not try again")
	}
	reload := func(context.Context) (*catalog.Catalog, error) { return testCatalog(t), nil }
	_, cmd := m.Update(startedMsg{id: m.start().id, res: &Started{Catalog: testCatalog(t), Reload: reload, Origin: "live mcp:server (pid 7)"}})
	if m.start() != nil || cmd == nil || len(m.snap.cat.Tools) != 6 || !m.keys.Reload.Enabled() {
		t.Fatalf("the catalog did not replace the start screen: start %v tools %d", m.start(), len(m.snap.cat.Tools))
	}
	drain(m, cmd)
	if view := ansi.Strip(m.View()); !strings.Contains(view, "live mcp:server (pid 7)") || !strings.Contains(view, "get_volume_status") {
		t.Errorf("the explorer after the start:\n%s", view)
	}
}

// esc or q on the start screen cancels the start and quits.
func TestStartScreenCancels(t *testing.T) {
	opts := Options{Origin: "live x", Start: func(ctx context.Context, stage func(string)) (*Started, error) {
		stage("starting the server")
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	batch := m.Init()().(tea.BatchMsg)
	answer := make(chan tea.Msg, 1)
	go func() { answer <- batch[0]() }()
	press(m, "esc")
	if !m.quitting {
		t.Fatal("esc did not quit the start screen")
	}
	msg := (<-answer).(startedMsg)
	if !errors.Is(msg.err, context.Canceled) {
		t.Errorf("the start was not cancelled: %v", msg.err)
	}
}

// C asks, then calls the tool on the live server with the editor's
// arguments, and shows the answer, escaped, under the verdict.
func TestCallToolOnTheLiveServer(t *testing.T) {
	var gotTool string
	var gotArgs json.RawMessage
	opts := mockOptions(t)
	opts.Call = func(ctx context.Context, tool *catalog.Tool, args json.RawMessage) (live.CallResult, error) {
		gotTool, gotArgs = tool.Name, args
		return live.CallResult{Text: "status: ok\n\x1b[2Jfree: 42 GB"}, nil
	}
	m := scoredModel(t, opts, 160, 45)
	press(m, "a")
	send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(`{"volume_id": "vol-0a1b2c3d"}`), Paste: true})
	press(m, "esc", "C")
	if m.asking() == nil || !strings.Contains(footerLine(m), "type get_volume_status to call it on the live server") {
		t.Fatalf("C did not ask: %q", footerLine(m))
	}
	press(m, "esc")
	if gotTool != "" || m.calling != nil {
		t.Fatal("esc called the tool")
	}
	// The tool does not say it is safe: its name is typed to confirm.
	press(m, "C")
	typeKeys(m, "get_volume_status")
	cmd := press(m, "enter")
	if cmd == nil || m.calling == nil {
		t.Fatal("the typed name did not start the call")
	}
	m.Update(cmd())
	if gotTool != "get_volume_status" || string(gotArgs) != `{"volume_id": "vol-0a1b2c3d"}` {
		t.Errorf("called %q with %s", gotTool, gotArgs)
	}
	view := ansi.Strip(m.View())
	for _, want := range []string{"live call of get_volume_status: the server answered", "status: ok", `\x1b[2Jfree: 42 GB`} {
		if !strings.Contains(view, want) {
			t.Errorf("drawer lacks %q:\n%s", want, view)
		}
	}
	if bad := rawControl(m.View()); bad != "" {
		t.Error(bad)
	}
	// Editing the arguments drops the answer: it was for the old ones.
	press(m, "enter")
	typeKeys(m, " ")
	if strings.Contains(ansi.Strip(m.View()), "status: ok") {
		t.Error("the answer outlived its arguments")
	}
	// Without a live source there is no call.
	m = newTestModel(t, 160, 45)
	press(m, "a", "esc", "C")
	if m.asking() != nil || m.keys.CallTool.Enabled() {
		t.Error("C asks without a live source")
	}
}
