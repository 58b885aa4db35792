package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// A qualifier hint names the words that differ, and never an empty list
// (a merged catalog's names differ by the server's prefix alone).
func TestShortHintQualifiers(t *testing.T) {
	cases := []struct {
		qualifiers []string
		want       string
	}{
		{[]string{"get", "hist"}, "names differ by 'get' vs 'hist': say WHEN to pick each"},
		{nil, "names alike: say WHEN to pick each"},
		{[]string{"", " "}, "names alike: say WHEN to pick each"},
		{[]string{"", "hist"}, "names differ by 'hist': say WHEN to pick each"},
	}
	for _, c := range cases {
		v := &similarity.PairFinding{Axis: similarity.Axis{Kind: similarity.AxisQualifier, Qualifiers: c.qualifiers}}
		if got := shortHint(v); got != c.want {
			t.Errorf("%q: %q, want %q", c.qualifiers, got, c.want)
		}
	}
}

// z zooms where there are panes side by side; in the one-pane layout it
// neither shows nor does anything. 4 and a say different things.
func TestZoomOnlyWherePanesShareTheScreen(t *testing.T) {
	small := newTestModel(t, 80, 24)
	if small.layout.Mode != ModeTabs || small.keys.Zoom.Enabled() {
		t.Fatalf("80x24: mode %v, z enabled %v", small.layout.Mode, small.keys.Zoom.Enabled())
	}
	press(small, "z")
	if small.zoomed || strings.Contains(footerLine(small), "z zoom") {
		t.Errorf("80x24: z zoomed %v, footer %q", small.zoomed, footerLine(small))
	}
	press(small, "?")
	if strings.Contains(ansi.Strip(small.View()), "z zoom") {
		t.Error("80x24: help offers z")
	}
	big := newTestModel(t, 160, 45)
	if !big.keys.Zoom.Enabled() {
		t.Fatal("160x45: z disabled")
	}
	press(big, "z")
	if !big.zoomed {
		t.Error("160x45: z did not zoom")
	}
	if big.keys.GoArgs.Help().Desc == big.keys.Arguments.Help().Desc {
		t.Errorf("4 and a both say %q", big.keys.Arguments.Help().Desc)
	}
}

// A required argument the call lacks, which its declaration asks for: the
// drawer rejects the call and says what a host does instead, never also
// that it is "asked ... before anything runs".
func TestDrawerMissingAskedArgument(t *testing.T) {
	cat, err := catalog.Parse("ask.json", []byte(`[
	 {"name": "hist_volume_status", "description": "Get the status history of one storage volume.",
	  "inputSchema": {"type": "object", "properties": {"volume_id": {"type": "string"}, "window": {"type": "string", "description": "How far back to look, like 24h."}}, "required": ["volume_id", "window"]},
	  "askOrAssume": {"window": {"ask": "How far back?", "choices": ["1h", "24h", "7d"]}}},
	 {"name": "get_volume_status", "description": "Get the live status of one storage volume.", "inputSchema": {"type": "object", "properties": {"volume_id": {"type": "string"}}}}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	opts := mockOptions(t)
	opts.Catalog = cat
	m := scoredModel(t, opts, 160, 45)
	selectTool(t, m, "hist_volume_status")
	press(m, "a")
	typeKeys(m, `{"volume_id": "vol-0a1b2c3d"}`)
	view := oneLine(ansi.Strip(m.drawer.View()))
	if !strings.Contains(view, "'window' is required but missing") {
		t.Fatalf("the drawer does not reject the call:\n%s", view)
	}
	if strings.Contains(view, "before anything runs: window") || strings.Contains(view, "window: asked") {
		t.Errorf("the drawer says both rejected and asked before anything runs:\n%s", view)
	}
	if !strings.Contains(view, "window: missing, so this call is rejected; a host that follows the declarations asks for it first") {
		t.Errorf("the drawer does not say what a host does:\n%s", view)
	}
}

// o's "findings" order puts what fails the gate first: a tool in a
// confusable pair before one with warnings only; the selected tool stays
// selected and on screen.
func TestSortByFindingsFailingFirst(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 14)
	l := m.tools
	for l.sort != sortFindings {
		press(m, "1", "o")
	}
	info := m.snap.tools
	failing := func(i int) bool { return info[i].errors+info[i].confusable > 0 }
	seenPassing := false
	for _, r := range l.rows {
		switch {
		case failing(r.tool) && seenPassing:
			t.Errorf("%s fails the gate but is listed after a tool that does not", m.snap.cat.Tools[r.tool].Name)
		case !failing(r.tool):
			seenPassing = true
		}
	}
	// A tool low in the list, selected, then sorted: still on screen.
	for range 5 {
		press(m, "o")
		press(m, "G")
		want := l.selectedTool()
		press(m, "o")
		if l.selectedTool() != want || l.cursor < l.offset || l.cursor >= l.offset+l.listHeight() {
			t.Errorf("after o (%s): selected %d (want %d), cursor %d, rows %d..%d", l.sort, l.selectedTool(), want, l.cursor, l.offset, l.offset+l.listHeight())
		}
	}
}

// s, m and the threshold keys change the header's score; it then says it
// is not the gate's, and says so no more once back where lint runs.
func TestHeaderScoreSaysWhenNotTheGates(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	if h := ansi.Strip(m.header()); !strings.Contains(h, "score ") || strings.Contains(h, "not the gate's") {
		t.Fatalf("at start: %q", h)
	}
	drain(m, press(m, "+"))
	if h := ansi.Strip(m.header()); !strings.Contains(h, "(your thresholds, not the gate's)") {
		t.Errorf("after +: %q", h)
	}
	m.eng.th = nil
	m.eng.switchScoring()
	if got := m.eng.departed(); got != "scoring" {
		t.Errorf("after s: departed %q", got)
	}
	narrow := scoredModel(t, mockOptions(t), 100, 30)
	drain(narrow, press(narrow, "+"))
	if h := ansi.Strip(narrow.header()); !strings.Contains(h, "(not the gate's)") {
		t.Errorf("the short header after +: %q", h)
	}
}

// A reload whose tools are the same but whose findings are not (an error
// about where they come from) shows the new findings and never says the
// reload changed nothing.
func TestReloadWithANewErrorIsNoNoOp(t *testing.T) {
	listed := testCatalog(t)
	calls := 0
	opts := mockOptions(t)
	opts.Reload = func(context.Context) (*catalog.Catalog, error) { return listed, nil }
	opts.SourceFindings = func(cat *catalog.Catalog) []lint.Finding {
		calls++
		if calls < 2 {
			return nil
		}
		return []lint.Finding{{Rule: "config-server-unavailable", Tool: "ops", Severity: lint.SeverityError, Message: "server \"ops\" could not be listed", ToolIndex: -1}}
	}
	m := settledModel(opts, 160, 45)
	errorsBefore := m.snap.report.Summary.Errors
	drain(m, press(m, "r"))
	if strings.Contains(m.notice, "unchanged") && !strings.Contains(m.notice, "findings changed") {
		t.Errorf("a reload that added an error says %q", m.notice)
	}
	if got := m.snap.report.Summary.Errors; got != errorsBefore+1 {
		t.Errorf("errors %d after the reload, want %d", got, errorsBefore+1)
	}
}

// A caveat cut to one line is cut between words.
func TestClipWords(t *testing.T) {
	note := "! the mock embedder counts characters, it does not read meaning: trust the relative order of pairs, not its verdicts"
	for w := 20; w < len(note); w += 7 {
		got := clipWords(note, w)
		if ansi.StringWidth(got) > w || !strings.HasSuffix(got, "…") {
			t.Errorf("%d: %q", w, got)
		}
		if kept := strings.TrimSuffix(got, "…"); !strings.HasPrefix(note, kept) || note[len(kept)] != ' ' {
			t.Errorf("%d: cut in a word: %q", w, got)
		}
	}
	if got := clipWords("short", 10); got != "short" {
		t.Errorf("%q", got)
	}
}
