package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
	"github.com/muesli/termenv"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/lint"
	"toolscope/core/live"
	"toolscope/core/similarity"
)

// footerLine is the footer as one line: a prompt wrapped over the lines
// above the footer is joined again, word after word.
func footerLine(m *Model) string {
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	n := strings.Count(m.footer(), "\n") + 1
	if n == 1 {
		return lines[len(lines)-1]
	}
	parts := lines[len(lines)-n:]
	for i := range parts {
		parts[i] = strings.TrimRight(parts[i], " ")
		if i > 0 {
			parts[i] = strings.TrimLeft(parts[i], " ")
		}
	}
	return strings.Join(parts, " ")
}

// Quitting with argument drafts asks first; n, esc or a second ctrl+c
// keep the explorer, y quits; without drafts q quits at once.
func TestQuitWithDraftsAsksFirst(t *testing.T) {
	m := newTestModel(t, 80, 24)
	press(m, "a")
	typeKeys(m, `{"volume_id": "v"}`)
	press(m, "esc", "1", "down") // the draft stays with the first tool
	if n := m.drawer.draftCount(); n != 1 {
		t.Fatalf("draftCount %d, want 1", n)
	}
	press(m, "q")
	if m.quitting || !strings.Contains(footerLine(m), "quit and lose the drafts (arguments of 1 tool)? y yes · n no") {
		t.Fatalf("q with a draft: quitting %v, footer %q", m.quitting, footerLine(m))
	}
	press(m, "2") // other keys wait for the answer
	if m.asking() == nil || m.focus != paneTools {
		t.Fatal("a key other than the answers was taken")
	}
	press(m, "n")
	if m.quitting || m.asking() != nil {
		t.Fatal("n did not keep the explorer")
	}
	press(m, "q", "y")
	if !m.quitting {
		t.Fatal("y did not quit")
	}

	m = newTestModel(t, 80, 24)
	press(m, "a")
	typeKeys(m, `{`)
	press(m, "ctrl+c")
	if m.quitting || m.asking() == nil {
		t.Fatal("ctrl+c with a draft did not ask")
	}
	press(m, "ctrl+c")
	if m.quitting || m.asking() != nil {
		t.Fatal("a second ctrl+c said yes to the question")
	}
}

// Help lists every key that works now, from the key map, for every pane
// and the comparison; it fits 80x24 by scrolling to its last line.
func TestHelpListsEveryKeyThatWorksAndScrolls(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 80, 24)
	for _, keys := range [][]string{{"1"}, {"2"}, {"3"}, {"4"}, {"3", "enter"}} {
		press(m, "esc", "esc")
		press(m, keys...)
		m.enableKeys()
		press(m, "?")
		lines := m.helpLines()
		// A long description wraps under itself: compare the words.
		text := strings.Join(strings.Fields(ansi.Strip(strings.Join(lines, "\n"))), " ")
		want := append(m.focused().Keys(), m.globalKeys()...)
		for _, b := range want {
			if b.Enabled() && !strings.Contains(text, strings.Join(strings.Fields(b.Help().Key+" "+b.Help().Desc), " ")) {
				t.Errorf("after %v: help lacks %q %q", keys, b.Help().Key, b.Help().Desc)
			}
		}
		w, _ := m.bodyInner()
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Errorf("after %v: a help line is cut at 80 columns: %q", keys, ansi.Strip(l))
			}
		}
		// The footer offers what works in help, not the pane's keys.
		if f := footerLine(m); !strings.Contains(f, "scroll") || !strings.Contains(f, "ctrl+c quit") || strings.Contains(f, "o sort") {
			t.Errorf("after %v: footer in help %q", keys, f)
		}
		fits(t, m, 80, 24)
		press(m, "end")
		if !strings.Contains(ansi.Strip(m.View()), "any other key closes this help") {
			t.Errorf("after %v: end did not scroll help to its last line:\n%s", keys, ansi.Strip(m.View()))
		}
		if !m.helpOpen() {
			t.Fatal("scrolling closed help")
		}
		press(m, "esc")
	}
	// Disabled keys are not listed: no export without an exporter.
	press(m, "1", "?")
	if strings.Contains(ansi.Strip(strings.Join(m.helpLines(), "\n")), "export") {
		t.Error("help lists export, which is off")
	}
	// 1-4 go to their pane from help, as everywhere.
	press(m, "3")
	if m.helpOpen() || m.focus != panePairs {
		t.Errorf("3 in help: open %v focus %v", m.helpOpen(), m.focus)
	}
	// The pairs pane's caveats, cut to a line each on a short screen, are
	// whole in its help.
	press(m, "?")
	text := strings.Join(strings.Fields(ansi.Strip(strings.Join(m.helpLines(), "\n"))), " ")
	for _, n := range m.snap.sim.Notes {
		if !strings.Contains(text, strings.Join(strings.Fields(n), " ")) {
			t.Errorf("help on pairs lacks the caveat %q", n)
		}
	}
	// q closes the help, as the footer says; from the panes it quits.
	press(m, "q")
	if m.helpOpen() || m.quitting {
		t.Errorf("q in help: open %v, quitting %v", m.helpOpen(), m.quitting)
	}
	press(m, "q")
	if !m.quitting {
		t.Error("q after help did not quit")
	}
}

// The footer names quit at every width from 30 columns, on every screen.
func TestFooterAlwaysShowsQuit(t *testing.T) {
	for _, sc := range screens {
		m := scoredModel(t, mockOptions(t), 160, 45)
		press(m, sc.keys...)
		for w := 30; w <= 250; w += 11 {
			m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
			f := footerLine(m)
			if !strings.Contains(f, "q quit") && !strings.Contains(f, "ctrl+c quit") && !strings.Contains(f, "esc cancel") {
				t.Errorf("%s at %d columns: the footer %q does not say how to quit", sc.name, w, f)
			}
		}
	}
}

func TestClipMiddleKeepsBothEnds(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"short", 10, "short"},
		{"mcp__github__create_pull_request_review", 20, "mcp__githu…st_review"},
		{"mcp__github__create_pull_request_review", 1, "…"},
		{"東京東京東京東京", 7, "東…東京"},
		{"abcdef", 5, "ab…ef"},
	}
	for _, tt := range tests {
		got := clipMiddle(tt.in, tt.w)
		if got != tt.want || ansi.StringWidth(got) > tt.w {
			t.Errorf("clipMiddle(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
	}
}

func TestWholeSentences(t *testing.T) {
	text := "First sentence here. Second one is rather longer than the first. Third."
	got := wholeSentences(text, 30, 2, "(more)")
	if strings.Join(got, " ") != "First sentence here. (more)" {
		t.Errorf("got %q", got)
	}
	if got := wholeSentences(text, 80, 1, "(more)"); len(got) != 1 || got[0] != text {
		t.Errorf("a fitting text changed: %q", got)
	}
}

// A long list says where the cursor is and that there is more below, and
// names too long for the list keep both their ends.
func TestListsShowPositionAndNamesTheirEnds(t *testing.T) {
	var tools []string
	for i := range 30 {
		tools = append(tools, fmt.Sprintf(`{"name": "mcp__server_with_a_long_name__tool_number_%02d", "description": "Tool %d."}`, i, i))
	}
	cat, err := catalog.Parse("long.json", []byte("["+strings.Join(tools, ",")+"]"))
	if err != nil {
		t.Fatal(err)
	}
	opts := mockOptions(t)
	opts.Catalog = cat
	// Adaptive: under the mock the risk puts a watch badge on every row.
	opts.Lint.Scoring = similarity.ScoringAdaptive
	m := scoredModel(t, opts, 120, 30)
	view := ansi.Strip(m.View())
	if !strings.Contains(view, " 1/30 ↓ ") {
		t.Errorf("no position under the list:\n%s", view)
	}
	if !strings.Contains(view, "…ol_number_00") {
		t.Errorf("the name's end was cut:\n%s", view)
	}
	press(m, "end")
	if view := ansi.Strip(m.View()); !strings.Contains(view, " ↑ 30/30 ") {
		t.Errorf("no position at the end:\n%s", view)
	}
}

// Wide characters keep the borders in place: every line of every screen
// is exactly the terminal's width by two width tables (the terminal's
// runewidth and the layout's grapheme widths), so no character's width is
// in dispute.
func TestWideCharactersNeverBreakBorders(t *testing.T) {
	profile := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.Ascii)
	defer lipgloss.SetColorProfile(profile)
	cat, err := catalog.Parse("wide.json", []byte(`[
	 {"name": "☀️_weather", "description": "天気予報を返す。☀️ Returns the forecast ❤️ for a city.", "inputSchema": {"type": "object", "properties": {"都市": {"type": "string", "description": "都市の名前 ✈️"}}}},
	 {"name": "東京_forecast_tool_with_a_long_name", "description": "Forecast 👍 for Tokyo 東京."},
	 {"name": "✈️_flights", "description": "Flights ✈️."}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	opts := mockOptions(t)
	opts.Catalog = cat
	for _, size := range [][2]int{{80, 24}, {120, 40}, {250, 70}} {
		m := scoredModel(t, opts, size[0], size[1])
		for _, keys := range [][]string{nil, {"2"}, {"3", "g"}, {"enter"}, {"esc", "1", "down", "a"}} {
			press(m, keys...)
			for i, line := range strings.Split(m.View(), "\n") {
				if a, r := ansi.StringWidth(line), runewidth.StringWidth(line); a != size[0] || r != size[0] {
					t.Errorf("%dx%d after %v, line %d is %d (layout) / %d (terminal) wide: %q", size[0], size[1], keys, i, a, r, line)
				}
			}
		}
	}
}

func TestSkeletonFillsTheRequiredArguments(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{"type": "object"}`, `{}`},
		{`{"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["b"]}`, "{\n  \"b\": 0\n}"},
		{`{"properties": {"p": {"enum": ["gold", "silver"]}, "d": {"type": "string", "default": "x"}, "o": {"type": "object", "properties": {"q": {"type": ["boolean", "null"]}}, "required": ["q"]}, "l": {"type": "array"}}, "required": ["p", "d", "o", "l", "missing"]}`,
			"{\n  \"p\": \"gold\",\n  \"d\": \"x\",\n  \"o\": {\n    \"q\": false\n  },\n  \"l\": []\n}"},
	}
	for _, tt := range tests {
		v, err := jsonv.Parse([]byte(tt.schema))
		if err != nil {
			t.Fatal(err)
		}
		if got := skeleton(v); got != tt.want {
			t.Errorf("skeleton(%s) =\n%s\nwant\n%s", tt.schema, got, tt.want)
		}
		if _, err := jsonv.Parse([]byte(skeleton(v))); err != nil {
			t.Errorf("skeleton(%s) is not JSON: %v", tt.schema, err)
		}
	}
	m := newTestModel(t, 160, 45)
	press(m, "a", "esc", "t")
	if got := m.drawer.editor.Value(); got != "{\n  \"volume_id\": \"\"\n}" || !m.drawer.Typing() {
		t.Errorf("t gave %q (typing %v)", got, m.drawer.Typing())
	}
	press(m, "esc")
	drain(m, press(m, "t"))
	if !strings.Contains(footerLine(m), "not empty") {
		t.Errorf("t over a draft: footer %q", footerLine(m))
	}
}

// A call the schema takes but whose period the declarations refuse is not
// shown as a plain green pass.
func TestNoGreenVerdictAboveARefusedPeriod(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	press(m, "down", "a")
	send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(`{"volume_id": "vol-1", "window": "2 hours"}`), Paste: true})
	view := ansi.Strip(m.View())
	if strings.Contains(view, "✓ valid") || !strings.Contains(view, "the declarations refuse a value") {
		t.Errorf("green verdict above a refused period:\n%s", view)
	}
}

// Every question and prompt in the footer keeps its answers in view at 80
// columns, however long what it asks about: the words before them take
// the lines above, whole, and a field gets the room left.
func TestFooterPromptsKeepTheirAnswers(t *testing.T) {
	long := "mcp__a_server_with_a_rather_long_name__get_the_status_of_one_volume"
	cat, err := catalog.Parse("long.json", []byte(`[
	 {"name": "`+long+`", "description": "Get the live status of one storage volume.", "inputSchema": {"type": "object", "properties": {"limit": {"type": "integer"}, "mode": {"type": "string"}, "timezone": {"type": "string"}}}},
	 {"name": "`+long+`_history", "description": "Get the status history of one storage volume."}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	opts := mockOptions(t)
	opts.Catalog = cat
	opts.ConfigPath = dir + "/toolscope.yaml"
	opts.Call = func(context.Context, *catalog.Tool, json.RawMessage) (live.CallResult, error) {
		return live.CallResult{}, nil
	}
	opts.Export = func(io.Writer, string, *lint.Report, *catalog.Catalog) error { return nil }
	opts.ExportDir = dir
	m := scoredModel(t, opts, 80, 24)
	check := func(what string, wants ...string) {
		t.Helper()
		f := footerLine(m)
		for _, line := range strings.Split(ansi.Strip(m.View()), "\n") {
			if w := ansi.StringWidth(line); w > 80 {
				t.Errorf("%s: a line is %d wide", what, w)
			}
		}
		for _, want := range wants {
			if !strings.Contains(f, want) {
				t.Errorf("%s: the footer %q lacks %q", what, f, want)
			}
		}
	}
	press(m, "a")
	typeKeys(m, `{}`)
	press(m, "esc", "C")
	check("the call's question", ": ▏ · enter confirm · esc no")
	press(m, "esc", "2", "I")
	check("the finding to ignore", "? 1-4, numbered in the Tool pane", "esc cancel")
	view := ansi.Strip(m.View())
	for _, want := range []string{"1 ~ ", "2 ~ ", "3 ~ "} {
		if !strings.Contains(view, want) {
			t.Errorf("the Tool pane does not number the findings to pick (%q):\n%s", want, view)
		}
	}
	press(m, "1")
	if strings.Contains(ansi.Strip(m.View()), "1 ~ ") {
		t.Error("the findings stay numbered after the pick")
	}
	check("the reason", ", because: ", "enter write · esc cancel")
	typeKeys(m, strings.Repeat("a long reason ", 8))
	check("a long reason", "enter write · esc cancel")
	press(m, "esc", "3", "A")
	check("the pair's reason", "enter write · esc cancel")
	press(m, "esc", "e", "j")
	check("the export's file name", "enter write · esc cancel")
}

// 1-4 and / do what help says from every view that does not take typed
// text: each pane, the drawer at rest, help, the comparison, a zoomed pane
// and a search in the Tool pane.
func TestNumberKeysAndSlashFromEveryView(t *testing.T) {
	views := []struct {
		name string
		keys []string
	}{
		{"tools", nil}, {"tool", []string{"2"}}, {"pairs", []string{"3"}}, {"drawer at rest", []string{"a", "esc"}},
		{"help", []string{"2", "?"}}, {"comparison", []string{"3", "enter"}}, {"zoomed", []string{"2", "z"}},
		{"a search in the tool", []string{"2", "f", "v", "enter"}},
	}
	goes := []struct {
		key  string
		want paneID
	}{{"1", paneTools}, {"2", paneTool}, {"3", panePairs}, {"4", paneArgs}, {"/", paneTools}}
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		m := scoredModel(t, mockOptions(t), size[0], size[1])
		for _, v := range views {
			for _, g := range goes {
				press(m, "esc", "esc", "esc", "1")
				if m.zoomed {
					press(m, "z")
				}
				press(m, v.keys...)
				press(m, g.key)
				if m.focus != g.want || m.helpOpen() || m.compare() != nil {
					t.Errorf("%dx%d, %s, %s: focus %v (help %v, comparison %v), want %v", size[0], size[1], v.name, g.key, m.focus, m.helpOpen(), m.compare() != nil, g.want)
				}
				if g.key == "/" && !m.tools.Typing() {
					t.Errorf("%dx%d, %s: / did not start the filter", size[0], size[1], v.name)
				}
				if g.key == "/" {
					press(m, "esc")
				}
				if m.zoomed {
					press(m, "z")
				}
			}
		}
	}
}

// pairNames keeps the part of two names that tells them apart, within
// its width, and the ↔ between them.
func TestPairNamesShowWhereTheNamesDiffer(t *testing.T) {
	for _, tc := range []struct {
		a, b   string
		w      int
		wantIn []string
	}{
		{"workplace_v1_data_search", "workplace_v2_data_search", 30, []string{"v1", "v2", " ↔ "}},
		{"workplace_calendar_event_search", "workplace_calendar_room_search", 36, []string{"event", "room"}},
		{"mcp__github__create_pull_request", "mcp__github__create_pull_request_review", 40, []string{"request ↔", "review"}},
		{"get_volume_status", "hist_volume_status", 60, []string{"get_volume_status ↔ hist_volume_status"}},
		{"a_very_long_common_prefix_then_x_and_a_very_long_common_suffix", "a_very_long_common_prefix_then_y_and_a_very_long_common_suffix", 24, []string{"x", "y"}},
	} {
		got := pairNames(tc.a, tc.b, tc.w)
		if w := ansi.StringWidth(got); w > tc.w {
			t.Errorf("%s ↔ %s in %d: %q is %d wide", tc.a, tc.b, tc.w, got, w)
		}
		for _, want := range tc.wantIn {
			if !strings.Contains(got, want) {
				t.Errorf("%s ↔ %s in %d: %q lacks %q", tc.a, tc.b, tc.w, got, want)
			}
		}
	}
}

// The first screen's footer shows the way to the worst pairs (g), and the
// zoom where panes share the screen (not at 80x24, one pane at a time);
// g goes to the ranking from any pane; a ranking cut at the rank limit
// says so.
func TestTheWorstPairsAreOneKeyAway(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 80, 24)
	if f := footerLine(m); !strings.Contains(f, "g worst pairs") || strings.Contains(f, "z zoom") {
		t.Errorf("first footer at 80x24: %q", f)
	}
	if f := footerLine(scoredModel(t, mockOptions(t), 160, 45)); !strings.Contains(f, "g worst pairs") || !strings.Contains(f, "z zoom") {
		t.Errorf("first footer at 160x45: %q", f)
	}
	for _, from := range []string{"1", "2"} {
		press(m, from, "g")
		if m.focus != panePairs || !m.pairs.global {
			t.Errorf("g from pane %s: focus %v, ranking %v", from, m.focus, m.pairs.global)
		}
	}
	opts := mockOptions(t)
	opts.Lint.RankLimit = 3
	m = scoredModel(t, opts, 160, 45)
	press(m, "g")
	if text := ansi.Strip(m.View()); !strings.Contains(text, "the top 3 of 15 pairs") {
		t.Errorf("the cut ranking does not say so:\n%s", text)
	}
}

// One symbol, one meaning: a pair's verdict marks are not the findings'
// (✗ error, ~ warning), and help lists every symbol.
func TestSymbolsMeanOneThing(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	press(m, "3", "g")
	pairs := ansi.Strip(m.pairs.View())
	if !strings.Contains(pairs, "⇄ 0.") || !strings.Contains(pairs, "≈ 0.") || strings.Contains(pairs, "✗ 0.") || strings.Contains(pairs, "~ 0.") {
		t.Errorf("the ranking's marks:\n%s", pairs)
	}
	if strings.Contains(pairs, " ⇄ hist") || !strings.Contains(pairs, " ↔ ") {
		t.Errorf("the pairs' names are not joined by ↔:\n%s", pairs)
	}
	press(m, "?")
	help := ansi.Strip(strings.Join(m.helpLines(), "\n"))
	for _, sym := range []string{"✗  an error", "~  a warning", "⇄  a confusable pair", "≈  a review pair", "○  accepted", "✓  valid", "↔  between", "⏱", "!  a caveat"} {
		if !strings.Contains(help, sym) {
			t.Errorf("help does not list %q", sym)
		}
	}
}

// The header's form follows the width alone: short under 140 columns
// whatever it says, long from there when it fits.
func TestHeaderFormFollowsTheWidth(t *testing.T) {
	for _, tc := range []struct {
		w    int
		long bool
	}{{80, false}, {120, false}, {139, false}, {140, true}, {200, true}} {
		m := scoredModel(t, mockOptions(t), tc.w, 40)
		for _, state := range []string{"scored", "scoring"} {
			if state == "scoring" {
				m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("s")})
			}
			h := ansi.Strip(m.header())
			if long := strings.Contains(h, "confusable"); long != tc.long {
				t.Errorf("%d columns, %s: %q", tc.w, state, h)
			}
		}
	}
}
