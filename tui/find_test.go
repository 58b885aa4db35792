package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/lint"
)

// The filter also finds tools by their description and parameters, after
// the name matches, and says where it matched.
func TestFilterByDescriptionAndParameters(t *testing.T) {
	m := newTestModel(t, 160, 45)
	press(m, "/")
	typeKeys(m, "dashboards")
	if len(m.tools.rows) != 1 || selectedName(m) != "query_metrics" {
		t.Fatalf("dashboards: rows %v, selected %q", m.tools.rows, selectedName(m))
	}
	if m.tools.rows[0].via != "in the description" || !strings.Contains(ansi.Strip(m.View()), "query_metrics  in the") {
		t.Errorf("no 'in the description':\n%s", ansi.Strip(m.View()))
	}
	press(m, "esc", "/")
	typeKeys(m, "size_gb")
	if len(m.tools.rows) != 1 || selectedName(m) != "resize_volume" || m.tools.rows[0].via != "in parameter size_gb" {
		t.Fatalf("size_gb: rows %+v", m.tools.rows)
	}
}

// n and N go to the next and previous tool with findings or confusable
// pairs, from any pane, wrapping around.
func TestNextAndPreviousFlaggedTool(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	var flagged []string
	for _, r := range m.tools.rows {
		if in := m.snap.tools[r.tool]; in.errors+in.warnings+in.confusable > 0 {
			flagged = append(flagged, m.snap.cat.Tools[r.tool].Name)
		}
	}
	if len(flagged) < 2 {
		t.Fatalf("the test catalog has %d flagged tools", len(flagged))
	}
	press(m, "2")
	start := selectedName(m)
	press(m, "n")
	if got := selectedName(m); got == start || !contains(flagged, got) {
		t.Errorf("n went from %q to %q, not a flagged tool", start, got)
	}
	if m.tool.name() != selectedName(m) {
		t.Error("the tool pane did not follow n")
	}
	press(m, "N")
	if got := selectedName(m); got != start && contains(flagged, start) {
		t.Errorf("N did not come back to %q: %q", start, got)
	}
}

// f searches the Tool pane's text: enter jumps to the first match, n and
// N between them, esc ends the search; the comparison searches the same
// way.
func TestFindInTheToolAndTheComparison(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 100, 24)
	press(m, "2", "f")
	if !m.tool.Typing() {
		t.Fatal("f did not ask for the text")
	}
	typeKeys(m, "volume")
	press(m, "enter")
	if len(m.tool.find.hits) < 2 {
		t.Fatalf("hits %v", m.tool.find.hits)
	}
	first := m.tool.scroll
	if first != m.tool.find.hits[0] {
		t.Errorf("enter scrolled to %d, want the first hit %d", first, m.tool.find.hits[0])
	}
	if !strings.Contains(ansi.Strip(m.View()), `"volume" 1/`) {
		t.Errorf("no match count:\n%s", ansi.Strip(m.View()))
	}
	before := selectedName(m)
	press(m, "n")
	if m.tool.scroll != m.tool.find.hits[1] || selectedName(m) != before {
		t.Errorf("n: scroll %d, want %d; selection %q", m.tool.scroll, m.tool.find.hits[1], selectedName(m))
	}
	press(m, "N")
	if m.tool.scroll != first {
		t.Errorf("N: scroll %d, want %d", m.tool.scroll, first)
	}
	press(m, "esc")
	if m.tool.searching() {
		t.Error("esc did not end the search")
	}
	press(m, "3", "enter", "f")
	typeKeys(m, "embedded as")
	press(m, "enter")
	if m.compare() == nil || len(m.compare().find.hits) == 0 {
		t.Fatal("no match in the comparison")
	}
	press(m, "esc")
	if m.compare() == nil || m.compare().searching() {
		t.Errorf("esc in a comparison search: compare open %v, searching", m.compare() != nil)
	}
}

// The filter takes words as fzf does: every space-separated word must
// match, each in the name (fuzzily) or the description or a parameter.
func TestFilterWordsMustAllMatch(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string
		via   string
	}{
		{"vol hist", []string{"hist_volume_status"}, ""},
		{"hist vol", []string{"hist_volume_status"}, ""},
		{"query dashboards", []string{"query_metrics"}, "in the description"},
		{"storage history", []string{"hist_volume_status"}, "in the description"},
		{"vol dashboards", nil, ""},
		{"  resize  ", []string{"resize_volume"}, ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			m := newTestModel(t, 160, 45)
			press(m, "/")
			typeKeys(m, tc.query)
			var got []string
			for _, r := range m.tools.rows {
				got = append(got, m.snap.cat.Tools[r.tool].Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("rows %v, want %v", got, tc.want)
			}
			if len(got) > 0 && m.tools.rows[0].via != tc.via {
				t.Errorf("via %q, want %q", m.tools.rows[0].via, tc.via)
			}
		})
	}
}

// / starts a new filter, the old query one ↑ away; esc clears the filter
// from any pane; the global ranking keeps to the pairs of filtered tools.
func TestFilterStartsFreshClearsAnywhereAndNarrowsTheRanking(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	all := len(m.tools.rows)
	press(m, "/")
	typeKeys(m, "hist")
	press(m, "enter")
	if len(m.tools.rows) >= all {
		t.Fatalf("hist kept %d of %d tools", len(m.tools.rows), all)
	}
	press(m, "/")
	if v := m.tools.filter.Value(); v != "" || len(m.tools.rows) != all || !m.tools.Typing() {
		t.Fatalf("/ again: filter %q, %d rows, typing %v; want a fresh filter", v, len(m.tools.rows), m.tools.Typing())
	}
	press(m, "up")
	if v := m.tools.filter.Value(); v != "hist" {
		t.Fatalf("↑ in the fresh filter: %q, want the old query", v)
	}
	press(m, "enter", "3", "g")
	if len(m.pairs.rows) == 0 || len(m.pairs.rows) >= len(m.snap.sim.Ranked) {
		t.Fatalf("the filtered ranking has %d of %d pairs", len(m.pairs.rows), len(m.snap.sim.Ranked))
	}
	for _, pr := range m.pairs.rows {
		if !strings.Contains(pr.A+pr.B, "hist") {
			t.Errorf("the filtered ranking lists %s ↔ %s", pr.A, pr.B)
		}
	}
	if !strings.Contains(m.pairs.title(), "filtered") {
		t.Errorf("the ranking's title %q does not say it is filtered", m.pairs.title())
	}
	for _, pane := range []string{"2", "3"} {
		press(m, "1", "/")
		typeKeys(m, "hist")
		press(m, "enter", pane, "esc")
		if v := m.tools.filter.Value(); v != "" || len(m.tools.rows) != all {
			t.Errorf("esc in pane %s: filter %q, %d rows", pane, v, len(m.tools.rows))
		}
	}
	if len(m.pairs.rows) != len(m.snap.sim.Ranked) {
		t.Errorf("the ranking has %d of %d pairs after the filter cleared", len(m.pairs.rows), len(m.snap.sim.Ranked))
	}
}

// A finding about the whole catalog (too many tools) has a line of its
// own above the tools, not only a place among one tool's findings.
func TestCatalogFindingsHaveTheirOwnLine(t *testing.T) {
	opts := mockOptions(t)
	for i, r := range opts.Lint.Rules {
		if r.ID == lint.RuleTooManyTools {
			opts.Lint.Rules[i] = lint.TooManyToolsRule(4)
		}
	}
	m := settledModel(opts, 160, 45)
	lines := strings.Split(ansi.Strip(m.tools.View()), "\n")
	n := len(m.tools.catalogLines())
	head := strings.Join(strings.Fields(strings.Join(lines[1:1+n], " ")), " ")
	if n == 0 || !strings.Contains(head, "catalog, too-many-tools: the catalog has 6 tools") {
		t.Fatalf("the tool list's first lines:\n%s", strings.Join(lines[:min(len(lines), 5)], "\n"))
	}
	if !strings.Contains(lines[1+n], "get_volume_status") {
		t.Errorf("the tools do not follow the catalog's lines:\n%s", strings.Join(lines[:2+n], "\n"))
	}
	// A click on the first tool's row still selects it.
	press(m, "end")
	m.tools.clickRow(1 + n)
	if selectedName(m) != "get_volume_status" {
		t.Errorf("a click on the first row selected %q", selectedName(m))
	}
	m = settledModel(mockOptions(t), 160, 45)
	if c := m.tools.catalogLines(); len(c) != 0 {
		t.Errorf("a catalog within the limit has catalog lines %q", c)
	}
}
