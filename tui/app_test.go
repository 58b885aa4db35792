package tui

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/lint"
)

func testCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Load("testdata/ops.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func newTestModel(t testing.TB, w, h int) *Model {
	t.Helper()
	m := New(Options{Catalog: testCatalog(t)})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

var namedKeys = map[string]tea.KeyType{
	"tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "esc": tea.KeyEsc, "enter": tea.KeyEnter,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
	"backspace": tea.KeyBackspace, "ctrl+c": tea.KeyCtrlC, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "end": tea.KeyEnd, "home": tea.KeyHome,
}

// keyMsg builds the message for a key name ("tab", "esc") or one rune.
func keyMsg(k string) tea.KeyMsg {
	if t, ok := namedKeys[k]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// press sends keys one by one, letting the drawer's judgement of each
// arrive as the runtime would, and returns the last key's command.
func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = send(m, keyMsg(k))
	}
	return cmd
}

// send is one message and the drawer's judgement it asked for.
func send(m *Model, msg tea.Msg) tea.Cmd {
	_, cmd := m.Update(msg)
	judgeNow(m)
	return cmd
}

// judgeNow runs the drawer's pending judgement and delivers its answer.
func judgeNow(m *Model) {
	if j := m.drawer.job; j != nil {
		m.Update(j.run())
	}
}

// typeKeys sends each rune of s as a key.
func typeKeys(m *Model, s string) {
	for _, r := range s {
		send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func selectedName(m *Model) string { return nameAt(m.snap, m.tools.selectedTool()) }

func TestNavigationMovesTheSelectionAndTheToolPaneFollows(t *testing.T) {
	m := newTestModel(t, 160, 45)
	if got := selectedName(m); got != "get_volume_status" {
		t.Fatalf("first selection %q", got)
	}
	press(m, "down", "j")
	if got := selectedName(m); got != "list_volumes" {
		t.Fatalf("after two downs: %q", got)
	}
	if m.tool.name() != "list_volumes" {
		t.Errorf("tool pane shows %q", m.tool.name())
	}
	press(m, "end")
	if got := selectedName(m); got != "query_metrics" {
		t.Errorf("end: %q", got)
	}
	press(m, "down")
	if got := selectedName(m); got != "query_metrics" {
		t.Errorf("down past the end moved to %q", got)
	}
	press(m, "k")
	if got := selectedName(m); got != "delete_volume" {
		t.Errorf("k: %q", got)
	}
}

func TestFocusCyclesThroughTheVisiblePanes(t *testing.T) {
	tests := []struct {
		name string
		w, h int
		keys []string
		want []paneID
	}{
		{"wide: three panes", 160, 45, []string{"tab", "tab", "tab"}, []paneID{paneTool, panePairs, paneTools}},
		{"wide: backwards", 160, 45, []string{"shift+tab"}, []paneID{panePairs}},
		{"tabs: four tabs", 80, 24, []string{"tab", "tab", "tab", "tab"}, []paneID{paneTool, panePairs, paneArgs, paneTools}},
		{"number keys", 160, 45, []string{"3", "2", "1"}, []paneID{panePairs, paneTool, paneTools}},
		{"enter opens the tool", 80, 24, []string{"enter"}, []paneID{paneTool}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, tt.w, tt.h)
			for i, k := range tt.keys {
				press(m, k)
				if m.focus != tt.want[i] {
					t.Fatalf("after %v: focus %v, want %v", tt.keys[:i+1], m.focus, tt.want[i])
				}
			}
		})
	}
}

func TestFilterNarrowsTheListAndKeepsTypedKeys(t *testing.T) {
	m := newTestModel(t, 160, 45)
	press(m, "/")
	if !m.tools.Typing() {
		t.Fatal("/ did not start the filter")
	}
	typeKeys(m, "qm")
	if m.quitting {
		t.Fatal("q typed into the filter quit the explorer")
	}
	if f := footerLine(m); strings.Contains(f, "o sort") || !strings.Contains(f, "ctrl+c quit") {
		t.Errorf("the footer while typing offers keys that are text now: %q", f)
	}
	if got := len(m.tools.rows); got != 1 || selectedName(m) != "query_metrics" {
		t.Fatalf("filter qm: %d rows, selected %q", got, selectedName(m))
	}
	if !strings.Contains(m.View(), "Tools 1/6") {
		t.Errorf("title does not count the filtered rows:\n%s", m.View())
	}
	press(m, "backspace", "backspace")
	typeKeys(m, "vol")
	names := []string{}
	for _, r := range m.tools.rows {
		names = append(names, m.snap.cat.Tools[r.tool].Name)
	}
	if len(names) != 5 || names[0] == "query_metrics" {
		t.Errorf("filter vol: %v", names)
	}
	if m.tool.name() != selectedName(m) {
		t.Errorf("tool pane %q does not follow the filtered selection %q", m.tool.name(), selectedName(m))
	}
	press(m, "enter")
	if m.tools.Typing() || len(m.tools.rows) != 5 {
		t.Errorf("enter: typing %v, %d rows; want the filter kept", m.tools.Typing(), len(m.tools.rows))
	}
	press(m, "down")
	picked := selectedName(m)
	press(m, "esc")
	if len(m.tools.rows) != 6 {
		t.Errorf("esc left %d rows, want all 6", len(m.tools.rows))
	}
	// Clearing the filter keeps the tool selected, whether the filter was
	// kept (enter) or is still being typed.
	if selectedName(m) != picked || m.tool.name() != picked {
		t.Errorf("esc cleared the filter onto %q (tool pane %q), want %q kept", selectedName(m), m.tool.name(), picked)
	}
	press(m, "/")
	typeKeys(m, "metr")
	press(m, "esc")
	if selectedName(m) != "query_metrics" {
		t.Errorf("esc while typing the filter selected %q, want query_metrics kept", selectedName(m))
	}
	// The matched runes are marked: the filter's match style wraps them.
	press(m, "/", "v")
	if row := m.tools.row(0); !strings.Contains(row, m.styles.Match.Render("v")) {
		t.Errorf("matched rune not highlighted in %q", row)
	}
}

func TestSortModes(t *testing.T) {
	m := newTestModel(t, 160, 45)
	order := func() []string {
		var out []string
		for _, r := range m.tools.rows {
			out = append(out, m.snap.cat.Tools[r.tool].Name)
		}
		return out
	}
	press(m, "down")
	press(m, "o")
	if m.tools.sort != sortName {
		t.Fatalf("sort %v", m.tools.sort)
	}
	want := []string{"delete_volume", "get_volume_status", "hist_volume_status", "list_volumes", "query_metrics", "resize_volume"}
	if got := order(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("by name: %v", got)
	}
	if selectedName(m) != "hist_volume_status" {
		t.Errorf("sorting lost the selection: %q", selectedName(m))
	}
	press(m, "o", "o", "o")
	if m.tools.sort != sortFile || order()[0] != "get_volume_status" {
		t.Errorf("four presses do not come back to file order: %v %v", m.tools.sort, order())
	}
}

func TestDrawerJudgesEveryKeystroke(t *testing.T) {
	m := newTestModel(t, 160, 45)
	press(m, "a")
	if !m.drawerOpen() || m.focus != paneArgs || !m.drawer.Typing() {
		t.Fatalf("a: open %v focus %v typing %v", m.drawerOpen(), m.focus, m.drawer.Typing())
	}
	typeKeys(m, `{"volume_id": "yes q"`)
	if m.quitting {
		t.Fatal("q typed into the editor quit")
	}
	view := ansi.Strip(m.View())
	if !strings.Contains(view, "JSON syntax, line 1 column 22") {
		t.Errorf("no syntax error position:\n%s", view)
	}
	typeKeys(m, "}")
	view = ansi.Strip(m.View())
	for _, want := range []string{`{"volume_id": "yes q"}`, "'volume_id': expected string matching", "rejected before dispatch", "the model would get:"} {
		if !strings.Contains(view, want) {
			t.Errorf("drawer lacks %q:\n%s", want, view)
		}
	}
	press(m, "esc")
	if m.drawer.Typing() || !m.drawerOpen() {
		t.Fatalf("esc: typing %v open %v", m.drawer.Typing(), m.drawerOpen())
	}
	press(m, "v")
	if m.drawer.mode != "warn" || !strings.Contains(ansi.Strip(m.View()), "runs with a warning") {
		t.Errorf("v: mode %q", m.drawer.mode)
	}
	press(m, "v")
	if m.drawer.mode != "off" || !strings.Contains(ansi.Strip(m.View()), "validation off") {
		t.Errorf("v v: mode %q", m.drawer.mode)
	}
}

func TestDrawerKeepsADraftPerTool(t *testing.T) {
	m := newTestModel(t, 160, 45)
	press(m, "a")
	typeKeys(m, `{"volume_id": "vol-0a1b2c3d"}`)
	press(m, "esc", "1", "down")
	if m.drawer.editor.Value() != "" {
		t.Errorf("the next tool shows the first tool's draft %q", m.drawer.editor.Value())
	}
	press(m, "up")
	if got := m.drawer.editor.Value(); got != `{"volume_id": "vol-0a1b2c3d"}` {
		t.Errorf("the draft came back as %q", got)
	}
	if !strings.Contains(ansi.Strip(m.View()), "✓ valid") {
		t.Errorf("the draft was not judged again:\n%s", ansi.Strip(m.View()))
	}
}

func TestBracketedPasteGoesIntoTheEditor(t *testing.T) {
	m := newTestModel(t, 80, 24)
	press(m, "a")
	send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("{\n  \"volume_id\": \"vol-0a1b2c3d\"\n}"), Paste: true})
	if got := m.drawer.editor.Value(); got != "{\n  \"volume_id\": \"vol-0a1b2c3d\"\n}" {
		t.Fatalf("pasted text became %q", got)
	}
	if !strings.Contains(ansi.Strip(m.View()), "✓ valid") {
		t.Errorf("the paste was not judged:\n%s", ansi.Strip(m.View()))
	}
}

func TestQuitAndForceQuit(t *testing.T) {
	m := newTestModel(t, 80, 24)
	if cmd := press(m, "q"); cmd == nil || !m.quitting {
		t.Fatal("q did not quit")
	}
	m = newTestModel(t, 80, 24)
	press(m, "a")
	if cmd := press(m, "ctrl+c"); cmd == nil || !m.quitting {
		t.Fatal("ctrl+c while typing did not quit")
	}
}

func TestHelpListsThePaneKeysAndCloses(t *testing.T) {
	m := newTestModel(t, 160, 45)
	press(m, "?")
	view := ansi.Strip(m.View())
	for _, want := range []string{"Badges: ✗ errors", "Tools keys", "/          filter", "o          sort", "q          quit", "ctrl+c     quit"} {
		if !strings.Contains(view, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	press(m, "x")
	if m.helpOpen() {
		t.Error("a key did not close help")
	}
	// q closes the help, as in k9s and lazygit; ctrl+c quits from it.
	press(m, "?", "q")
	if m.helpOpen() || m.quitting {
		t.Errorf("q in help: open %v, quitting %v", m.helpOpen(), m.quitting)
	}
	press(m, "?", "ctrl+c")
	if !m.quitting {
		t.Error("ctrl+c in help did not quit")
	}
	m.quitting = false
	// The pairs' help says what the score in use means, in one sentence.
	press(m, "3", "?")
	flat := strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(m.View()), "│", " ")), " ")
	if !strings.Contains(flat, "The risk is the chance, from 0 to 1") {
		t.Errorf("the pairs' help does not explain the risk:\n%s", m.View())
	}
}

// screens drives the model into each screen there is.
var screens = []struct {
	name string
	keys []string
}{
	{"main", nil},
	{"tool", []string{"down", "2", "w", "pgdown"}},
	{"filter", []string{"/", "v", "o"}},
	{"pairs", []string{"3", "down"}},
	{"ranking", []string{"3", "g", "end"}},
	{"compare", []string{"3", "enter"}},
	{"drawer", []string{"a", "{", `"`, "x", "\n"}},
	{"drawer results", []string{"a", "{", "esc", "down"}},
	{"help", []string{"?"}},
	{"export prompt", []string{"e"}},
	{"what-if", []string{"d", "x"}},
}

// Every screen fits every terminal from 20x5 to 250x80, resized in any
// order: never wider or taller, and no panic.
func TestEveryScreenFitsEverySize(t *testing.T) {
	sizes := [][2]int{}
	for w := 20; w <= 250; w += 23 {
		for h := 5; h <= 80; h += 7 {
			sizes = append(sizes, [2]int{w, h})
		}
	}
	sizes = append(sizes, [2]int{20, 5}, [2]int{80, 24}, [2]int{100, 18}, [2]int{140, 18}, [2]int{160, 45}, [2]int{250, 80}, [2]int{1, 1}, [2]int{0, 0}, [2]int{20, 5})
	opts := mockOptions(t)
	opts.Export = func(io.Writer, string, *lint.Report, *catalog.Catalog) error { return nil }
	for _, banner := range []bool{false, true} {
		for _, sc := range screens {
			m := scoredModel(t, opts, 160, 45)
			if banner {
				m.fail("reload", errors.New("cat.json:3:4: tools[1]: not valid JSON: a long message that will not fit on a narrow screen"))
			}
			press(m, sc.keys...)
			for _, sz := range sizes {
				m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				view := m.View()
				if w := lipgloss.Width(view); w > sz[0] {
					t.Fatalf("%s (banner %v) at %dx%d: %d wide", sc.name, banner, sz[0], sz[1], w)
				}
				if h := lipgloss.Height(view); h > sz[1] && view != "" {
					t.Fatalf("%s (banner %v) at %dx%d: %d tall", sc.name, banner, sz[0], sz[1], h)
				}
			}
		}
	}
}

// TestCloseTwice pins that closing the explorer again does nothing: the
// command line closes it when the program ends and again on its way out.
func TestCloseTwice(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/ops.json"
	data, err := os.ReadFile("testdata/ops.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"watched file", Options{Catalog: testCatalog(t), Watch: path}},
		{"plain", Options{Catalog: testCatalog(t)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(tc.opts)
			m.Init()
			if tc.opts.Watch != "" && m.watcher == nil {
				t.Fatal("the file is not watched")
			}
			m.Close()
			m.Close()
		})
	}
	w, err := startWatch(path)
	if err != nil {
		t.Fatal(err)
	}
	w.close()
	w.close()
}

// TestKeyBurstsCountEveryKey pins that runes read at once, which Bubble
// Tea delivers as one message ("jjj"), act as the keys typed one by one:
// in every pane, and as text once a text field takes them.
func TestKeyBurstsCountEveryKey(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup []string
		burst string
	}{
		{"tool list moves", nil, "jjj"},
		{"sort twice", nil, "oo"},
		{"ranking moves", []string{"3", "g"}, "jjj"},
		{"neighbours move", []string{"3"}, "jj"},
		{"tool pane sections", []string{"2"}, "ll"},
		{"filter opens and takes the rest", nil, "/vol"},
		{"help scrolls", []string{"?"}, "jjj"},
		{"editor takes text, q included", []string{"a"}, "jjq"},
		{"comparison scrolls", []string{"3", "enter"}, "jjj"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			one := scoredModel(t, mockOptions(t), 80, 16)
			all := scoredModel(t, mockOptions(t), 80, 16)
			press(one, tc.setup...)
			press(all, tc.setup...)
			before := all.View()
			for _, r := range tc.burst {
				press(one, string(r))
			}
			send(all, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(tc.burst)})
			if all.quitting {
				t.Fatal("the burst quit")
			}
			if all.View() == before {
				t.Fatalf("the burst %q changed nothing:\n%s", tc.burst, before)
			}
			if got, want := all.View(), one.View(); got != want {
				t.Errorf("the burst %q differs from its keys one by one:\n%s\nwant:\n%s", tc.burst, got, want)
			}
		})
	}
}

// TestRankingScrollKeepsTheCursorInView pins the ranking's scrolling:
// after any move the cursor's row is on screen, whole when it fits, and
// the list moved no more than it had to (the top row is the lowest one
// from which the rows down to the cursor still fit).
func TestRankingScrollKeepsTheCursorInView(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 100, 30)
	press(m, "3", "g")
	p := m.pairs
	if len(p.rows) < 5 {
		t.Fatalf("only %d ranked pairs", len(p.rows))
	}
	fits := func(from, to int) bool {
		h := 0
		for i := from; i <= to; i++ {
			h += p.rowHeight(i)
		}
		return h <= p.listHeight()
	}
	for _, k := range []string{"end", "home", "down", "down", "down", "end", "up", "up", "pgup", "pgdown", "home", "end"} {
		before := p.offset
		press(m, k)
		if p.cursor < p.offset || !fits(p.offset, p.cursor) && p.offset != p.cursor {
			t.Fatalf("after %s: cursor %d, top %d: the cursor's row is off screen", k, p.cursor, p.offset)
		}
		if p.cursor >= before && p.offset > before && fits(p.offset-1, p.cursor) {
			t.Errorf("after %s: top %d, but %d would still show the cursor %d", k, p.offset, p.offset-1, p.cursor)
		}
	}
}

// TestTeachingExamplesWrapWhole pins the teaching text's before and after:
// at any width and zoomed, every word of the example is on screen.
func TestTeachingExamplesWrapWhole(t *testing.T) {
	for _, size := range [][2]int{{80, 40}, {120, 60}, {200, 60}} {
		for _, zoom := range []bool{false, true} {
			m := scoredModel(t, seedOptions(t), size[0], size[1])
			press(m, "2", "w")
			if zoom {
				press(m, "z")
			}
			text := strings.Join(strings.Fields(ansi.Strip(strings.Join(m.tool.lines, " "))), "")
			text = strings.ReplaceAll(text, "│", "")
			checked := 0
			for _, f := range m.snap.report.Structural {
				r, ok := m.tool.rules[f.Rule]
				if f.Tool != m.tool.name() || !ok || r.Teaching.After == "" {
					continue
				}
				checked++
				for _, ex := range []string{r.Teaching.Before, r.Teaching.After} {
					if want := strings.Join(strings.Fields(ex), ""); !strings.Contains(text, want) {
						t.Errorf("%dx%d zoom %v, %s: the example is not whole on screen: %q", size[0], size[1], zoom, f.Rule, ex)
					}
				}
			}
			if checked == 0 {
				t.Fatalf("%dx%d: no finding with a teaching example", size[0], size[1])
			}
		}
	}
}

// A tool with no line in a file (a live server's) shows none, not "line 0".
func TestNoLineForALiveTool(t *testing.T) {
	cat := testCatalog(t)
	for _, tl := range cat.Tools {
		tl.Pos.Line = 0
	}
	m := New(Options{Catalog: cat})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	if text := ansi.Strip(m.View()); strings.Contains(text, "line 0") || !strings.Contains(text, "tools[0] · ") {
		t.Errorf("the tool's place:\n%s", text)
	}
}

// TestLateTerminalReplyIsNoKey pins that a terminal's late answer to the
// background-colour query (alt+], its text, alt+\ or BEL, as Bubble Tea
// parses it) changes nothing on screen, and that the next key works: the
// answer's "/" used to open the filter and take a following q as text.
func TestLateTerminalReplyIsNoKey(t *testing.T) {
	reply := func(end tea.KeyMsg) []tea.Msg {
		return []tea.Msg{
			tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{']'}, Alt: true},
			tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("11;rgb:0000/0000/0000")},
			end,
		}
	}
	for _, tc := range []struct {
		name string
		msgs []tea.Msg
	}{
		{"ended by ST", reply(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'\\'}, Alt: true})},
		{"ended by BEL", reply(tea.KeyMsg{Type: tea.KeyCtrlG})},
		{"split over two reads", append(reply(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("0000")})[:2],
			tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/0000")},
			tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'\\'}, Alt: true})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := scoredModel(t, mockOptions(t), 80, 16)
			before := m.View()
			for _, msg := range tc.msgs {
				send(m, msg)
			}
			if got := m.View(); got != before {
				t.Fatalf("the reply changed the screen:\n%s\nwant:\n%s", got, before)
			}
			press(m, "j")
			if m.View() == before {
				t.Fatal("j after the reply moved nothing")
			}
			press(m, "q")
			if !m.quitting {
				t.Fatal("q after the reply did not quit")
			}
		})
	}
}

// A passing message leaves the footer by itself after NoticeFor; a newer
// one keeps its own time, and none is set without NoticeFor.
func TestNoticePasses(t *testing.T) {
	opts := mockOptions(t)
	opts.NoticeFor = time.Millisecond
	m := scoredModel(t, opts, 120, 30)
	_, first := m.Update(noticeMsg("wrote report.md"))
	if first == nil || !strings.Contains(footerLine(m), "wrote report.md") {
		t.Fatalf("no timer, or no notice: %q", footerLine(m))
	}
	_, second := m.Update(noticeMsg("wrote report.json"))
	m.Update(first()) // the first notice's time is up: the second stays
	if !strings.Contains(footerLine(m), "wrote report.json") {
		t.Errorf("an older timer cleared a newer notice: %q", footerLine(m))
	}
	m.Update(second())
	if strings.Contains(footerLine(m), "wrote report") {
		t.Errorf("the notice outlived its time: %q", footerLine(m))
	}

	opts.NoticeFor = 0
	m = scoredModel(t, opts, 120, 30)
	if _, cmd := m.Update(noticeMsg("kept")); cmd != nil {
		t.Error("a timer without NoticeFor")
	}
}
