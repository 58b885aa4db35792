package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/validate"
)

// periodCatalog has one tool whose period argument's choices carry said
// phrases, and one whose rule only assumes.
const periodCatalog = `[
 {"name": "metrics_history", "description": "Read metrics of the past, for a window back from now.",
  "inputSchema": {"type": "object", "properties": {"window": {"type": "string"}}},
  "askOrAssume": {"window": {"ask": "How far back?", "choices": ["24h", {"value": "7d", "said": ["last week", "past week"]}]}},
  "period": {"argument": "window", "spelling": "lookback"}},
 {"name": "metrics_assumed", "description": "Read metrics of the past, for a window back from now.",
  "inputSchema": {"type": "object", "properties": {"window": {"type": "string"}}},
  "askOrAssume": {"window": {"assume": "24h"}},
  "period": {"argument": "window", "spelling": "lookback"}}
]`

// TestDrawerPeriods pins what the drawer shows for a period value: the
// window to the second, the declaration's own phrases read as their
// choice (and only where declared), and a suggestion for a near miss.
func TestDrawerPeriods(t *testing.T) {
	cat, err := catalog.Parse("periods.json", []byte(periodCatalog))
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 3, 10, 12, 0, 0, 987654321, time.UTC)
	cases := []struct {
		name    string
		down    int // tools below the first
		window  string
		want    []string
		notWant []string
	}{
		{"the window to the second", 0, "24h",
			[]string{"✓ valid", `window "24h" (lookback): ok`, "covers 2026-03-09T12:00:00Z .. 2026-03-10T12:00:00Z (1d)"},
			[]string{".987"}},
		{"the declaration's own phrase", 0, "Last Week",
			[]string{"✓ valid", `window "Last Week": read as 7d, the declaration's own phrase for that choice`, "covers 2026-03-03T12:00:00Z .. 2026-03-10T12:00:00Z (7d)"},
			[]string{"not a lookback"}},
		{"a phrase not declared stays refused", 1, "last week",
			[]string{"the declarations refuse a value", `window "last week" (lookback): not a lookback`},
			[]string{"read as", "did you mean", "✓ valid"}},
		{"a suggestion for a near miss", 1, "7 days",
			[]string{`window "7 days" (lookback): not a lookback`, `window: did you mean "7d"? a whole count and one unit letter`},
			[]string{"covers"}},
		{"a slip of a phrase", 0, "past weeek",
			[]string{`window: did you mean "past week"? the declaration's own phrase for 7d`},
			[]string{"covers"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := settledModel(Options{Catalog: cat, Now: func() time.Time { return clock }}, 160, 45)
			for range c.down {
				press(m, "down")
			}
			press(m, "a")
			send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(`{"window": "` + c.window + `"}`), Paste: true})
			view := ansi.Strip(m.View())
			for _, w := range c.want {
				if !strings.Contains(view, w) {
					t.Errorf("drawer lacks %q:\n%s", w, view)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(view, w) {
					t.Errorf("drawer shows %q:\n%s", w, view)
				}
			}
		})
	}
}

// TestDrawerPeriodAdvice: a time argument that fails on a tool declaring
// no period gets what its description says of the format and the
// declaration that would let toolscope read the window; a declared period,
// a value that passes, or a parameter that is no time get nothing.
func TestDrawerPeriodAdvice(t *testing.T) {
	const src = `[
 {"name": "query_metrics", "description": "Query timeseries points of metrics from Datadog",
  "inputSchema": {"type": "object", "properties": {
   "from": {"type": "number", "description": "Start of the queried time period, seconds since the Unix epoch."},
   "to": {"type": "number", "description": "End of the queried time period, seconds since the Unix epoch."},
   "query": {"type": "string"}}, "required": ["from", "to", "query"]}}
]`
	cat, err := catalog.Parse("dd.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	decl := `"period": {"forms": [{"kind": "bounds", "from": {"argument": "from", "as": "epoch-s"}, "to": {"argument": "to", "as": "epoch-s"}}]}`
	cases := []struct {
		name, args    string
		want, notWant []string
	}{
		{"a relative time where epoch seconds are wanted", `{"from": "1h ago", "to": 1767225600, "query": "avg:cpu{*}"}`,
			[]string{"'from': expected number, got string", "its description says: Start of the queried time period, seconds since the Unix epoch.", "no period is declared; with"},
			nil},
		{"a value that passes", `{"from": 1767222000, "to": 1767225600, "query": "avg:cpu{*}"}`,
			[]string{"✓ valid"}, []string{"no period is declared"}},
		{"a parameter that is no time", `{"from": 1767222000, "to": 1767225600, "query": 5}`,
			[]string{"'query': expected string, got number"}, []string{"its description says", "no period is declared"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := settledModel(Options{Catalog: cat}, 200, 50)
			press(m, "a")
			send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(c.args), Paste: true})
			view := ansi.Strip(m.View())
			for _, w := range c.want {
				if !strings.Contains(view, w) {
					t.Errorf("drawer lacks %q:\n%s", w, ansi.Strip(m.View()))
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(view, w) {
					t.Errorf("drawer shows %q:\n%s", w, ansi.Strip(m.View()))
				}
			}
		})
	}
	// The whole declaration, as the drawer's lines hold it before wrapping.
	lines, _ := judgeArguments(cat.Tools[0], declaration{}, cases[0].args, validate.Enforce, time.Now(), time.UTC)
	var text []string
	for _, l := range lines {
		text = append(text, l.text)
	}
	if !strings.Contains(strings.Join(text, "\n"), "no period is declared; with "+decl+" (and an askOrAssume rule for each of its arguments) toolscope reads the window a call asks for") {
		t.Errorf("drawer lines lack the declaration:\n%s", strings.Join(text, "\n"))
	}
}

// With no unit stated, the drawer proposes no period: it would assert the
// unit the text leaves out; it asks for the unit first.
func TestPeriodAdviceProposesNoGuessedUnit(t *testing.T) {
	cat, err := catalog.Parse("t.json", []byte(`[{"name": "schedule_downtime", "description": "Schedules a downtime.",
  "inputSchema": {"type": "object", "properties": {"start": {"type": "number"}, "end": {"type": "number"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	periodAdvice(func(_ tone, s string) { said = append(said, s) }, cat.Tools[0], declaration{}, validate.Issue{Path: "start", Got: "string"})
	text := strings.Join(said, "\n")
	if strings.Contains(text, `"period"`) || strings.Contains(text, "epoch-s") || !strings.Contains(text, "say which first") {
		t.Errorf("the advice for a time with no unit:\n%s", text)
	}
}
