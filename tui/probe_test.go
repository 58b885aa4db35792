package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	chat "toolscope/core/judge"
)

// testProbe is a probe of the test catalog: get_volume_status's five
// requests, two to hist_volume_status; hist_volume_status's five, one to
// get_volume_status; list_volumes' three, all its own. list_volumes' text
// was another when it was probed, so its pairs are stale; delete_volume
// and query_metrics were not probed.
func testProbe(t testing.TB) *chat.ProbeRecord {
	t.Helper()
	cat := testCatalog(t)
	var tools []chat.Tool
	for _, tl := range cat.Tools {
		jt := chat.FromCatalog(tl)
		if jt.Name == "list_volumes" {
			jt.Description = "List volumes."
		}
		tools = append(tools, jt)
	}
	var cases []chat.ProbeCase
	add := func(meant string, picks ...string) {
		for i, p := range picks {
			cases = append(cases, chat.ProbeCase{Tool: meant, Request: meant + " " + strings.Repeat("x", i), Picked: p})
		}
	}
	add("get_volume_status", "get_volume_status", "hist_volume_status", "get_volume_status", "hist_volume_status", "get_volume_status")
	add("hist_volume_status", "hist_volume_status", "hist_volume_status", "get_volume_status", "hist_volume_status", "hist_volume_status")
	add("list_volumes", "list_volumes", "list_volumes", "list_volumes")
	names := make([]string, len(cat.Tools))
	for i, tl := range cat.Tools {
		names[i] = tl.Name
	}
	return chat.NewProbeRecord(chat.Tabulate("openai:m", names, cases), tools, time.Date(2026, 3, 9, 8, 0, 0, 0, time.UTC))
}

// rowOf is the screen line that shows the pair "a ↔ b".
func rowOf(view, pair string) string {
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Contains(l, pair) {
			return l
		}
	}
	return ""
}

// The Pairs pane shows, beside each pair's score, how many of the
// requests for either tool went to the other: aligned, dim and marked
// when stale, nothing for a pair not probed; the detail and the
// comparison say it in sentences.
func TestPairsShowTheProbedRate(t *testing.T) {
	opts := mockOptions(t)
	opts.Probe = testProbe(t)
	m := scoredModel(t, opts, 80, 24)
	press(m, "3")
	press(m, "g")
	view := m.View()
	if w := lipgloss.Width(view); w > 80 {
		t.Fatalf("the ranking is %d columns wide in 80", w)
	}
	cols := map[string]int{}
	for _, tc := range []struct{ pair, rate string }{
		{"get_volume_status ↔ hist_volume_status", "0.692  3/10 "},
		{"hist_volume_status ↔ list_volumes", "0.096   0/8*"},
		{"get_volume_status ↔ list_volumes", "0.089   0/8*"},
		{"resize_volume ↔ delete_volume", "0.091       "},
		{"hist_volume_status ↔ query_metrics", "0.051       "},
	} {
		row := rowOf(view, tc.pair)
		if row == "" {
			t.Fatalf("no row for %s:\n%s", tc.pair, ansi.Strip(view))
		}
		// The rate stands between the score and the names.
		if !strings.Contains(row, tc.rate+"  "+tc.pair) {
			t.Errorf("%s: row %q; want %q before the names", tc.pair, row, tc.rate)
		}
		cols[tc.pair] = ansi.StringWidth(row[:strings.Index(row, tc.pair)])
	}
	for pair, c := range cols {
		if c != cols["get_volume_status ↔ hist_volume_status"] {
			t.Errorf("%s's names start at column %d, not aligned with the others (%v)", pair, c, cols)
		}
	}
	if !strings.Contains(ansi.Strip(view), "N/M probed mix-ups") {
		t.Errorf("the line under the list does not name the column:\n%s", ansi.Strip(view))
	}
	// The view's text without the frame, one space between words.
	flat := func(s string) string {
		return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(s), "│", " ")), " ")
	}
	detail := flat(view)
	for _, want := range []string{
		"probe (openai:m, 2026-03-09): 2 of 5 requests for get_volume_status went to hist_volume_status; 1 of 5 requests for hist_volume_status went to get_volume_status.",
	} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail lacks %q:\n%s", want, ansi.Strip(view))
		}
	}
	press(m, "enter")
	if m.compare() == nil {
		t.Fatal("enter opened no comparison")
	}
	if c := flat(strings.Join(m.compare().lines, "\n")); !strings.Contains(c, "probe (openai:m, 2026-03-09): 2 of 5 requests for get_volume_status went to hist_volume_status; 1 of 5") {
		t.Errorf("the comparison lacks the probe's sentences:\n%s", c)
	}
	press(m, "esc")

	// A stale pair says so in the detail.
	for range 8 {
		if pr, _ := m.pairs.selected(); pairKey(pr) == [2]string{"get_volume_status", "list_volumes"} {
			break
		}
		press(m, "down")
	}
	if d := flat(m.View()); !strings.Contains(d, "0 of 5 requests for get_volume_status went to list_volumes") || !strings.Contains(d, "Stale: a tool's texts changed since the probe") {
		t.Errorf("the stale pair's detail:\n%s", ansi.Strip(m.View()))
	}

	// Without a record the column is not there at all.
	plain := scoredModel(t, mockOptions(t), 80, 24)
	press(plain, "3")
	press(plain, "g")
	if row := rowOf(plain.View(), "get_volume_status ↔ hist_volume_status"); strings.Contains(row, "/") || !strings.Contains(row, "0.692  get_volume_status") {
		t.Errorf("a rate column without a probe: %q", row)
	}
}

// The neighbours list carries the column too, at 80 columns.
func TestNeighboursShowTheProbedRate(t *testing.T) {
	opts := mockOptions(t)
	opts.Probe = testProbe(t)
	m := scoredModel(t, opts, 80, 24)
	press(m, "3")
	row := rowOf(m.View(), "hist_volume_status")
	if !strings.Contains(row, "0.692  3/10   hist_volume_status") {
		t.Errorf("get_volume_status's neighbour row %q lacks the rate", row)
	}
}

// A probe record is data from the repository: its model name reaches the
// screen with its control characters spelled out.
func TestProbeRecordTextIsEscaped(t *testing.T) {
	rec := testProbe(t)
	rec.Model = "openai:m\x1b]52;c;aGk=\x07\x1b[2J"
	opts := mockOptions(t)
	opts.Probe = rec
	m := scoredModel(t, opts, 160, 45)
	press(m, "3")
	press(m, "g")
	press(m, "enter")
	for _, screen := range []string{m.View(), strings.Join(m.compare().lines, "\n")} {
		if strings.Contains(screen, "\x1b]52") || strings.Contains(screen, "\x1b[2J") || strings.Contains(screen, "\x07") {
			t.Fatalf("the record's control characters reached the screen: %q", screen)
		}
	}
	if !strings.Contains(strings.Join(m.compare().lines, "\n"), "probe (openai:m") {
		t.Error("no probe line in the comparison")
	}
}

// Narrow and tiny panes keep the column inside the width.
func TestProbedRateFitsSmallPanes(t *testing.T) {
	opts := mockOptions(t)
	opts.Probe = testProbe(t)
	for _, size := range [][2]int{{20, 5}, {40, 12}, {60, 20}, {100, 30}, {140, 40}} {
		m := scoredModel(t, opts, size[0], size[1])
		for _, k := range []string{"3", "g", "down", "enter", "esc"} {
			press(m, k)
			if w, h := lipgloss.Width(m.View()), lipgloss.Height(m.View()); w > size[0] || h > size[1] {
				t.Fatalf("%dx%d after %q: the screen is %dx%d", size[0], size[1], k, w, h)
			}
		}
	}
}

// p in the arguments drawer loads the model's own calls to the selected
// tool from the probe record, one after the other, and the boundary
// judges them as typed ones; it never replaces typed text.
func TestDrawerLoadsTheModelsArguments(t *testing.T) {
	cat := testCatalog(t)
	opts := Options{Catalog: cat}
	first := cat.Tools[0].Name
	var tools []chat.Tool
	names := make([]string, len(cat.Tools))
	for i, tl := range cat.Tools {
		tools, names[i] = append(tools, chat.FromCatalog(tl)), tl.Name
	}
	cases := []chat.ProbeCase{
		{Tool: first, Request: "one", Picked: first, Arguments: []byte(`{"volume_id":"vol-1"}`)},
		{Tool: cat.Tools[1].Name, Request: "two", Picked: first, Arguments: []byte(`{"volume_id":7}`)},
		{Tool: first, Request: "three", Picked: cat.Tools[1].Name, Arguments: []byte(`{}`)},
	}
	opts.Probe = chat.NewProbeRecord(chat.Tabulate("openai:m", names, cases), tools, time.Now())
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	press(m, "a", "esc")
	drain(m, press(m, "p"))
	if got := m.drawer.editor.Value(); got != "{\n  \"volume_id\": \"vol-1\"\n}" {
		t.Fatalf("p loaded %q", got)
	}
	if !strings.Contains(footerLine(m), "call 1 of 2") || !strings.Contains(footerLine(m), "one") {
		t.Errorf("footer %q", footerLine(m))
	}
	drain(m, press(m, "p"))
	if got := m.drawer.editor.Value(); got != "{\n  \"volume_id\": 7\n}" {
		t.Fatalf("p again loaded %q", got)
	}
	if res := ansi.Strip(strings.Join(m.drawer.results, "\n")); !strings.Contains(res, "'volume_id': expected string, got number") {
		t.Errorf("the model's bad call is not judged:\n%s", res)
	}
	drain(m, press(m, "p"))
	if got := m.drawer.editor.Value(); !strings.Contains(got, "vol-1") {
		t.Errorf("p wraps round to the first call; got %q", got)
	}
	press(m, "x", "i", "{", "esc")
	drain(m, press(m, "p"))
	if m.drawer.editor.Value() != "{" || !strings.Contains(footerLine(m), "not empty") {
		t.Errorf("p over typed text: %q, footer %q", m.drawer.editor.Value(), footerLine(m))
	}
	// Without a record, p says where the calls come from.
	m = newTestModel(t, 160, 45)
	press(m, "a", "esc")
	drain(m, press(m, "p"))
	if !strings.Contains(footerLine(m), "no probe record") {
		t.Errorf("footer %q", footerLine(m))
	}
}
