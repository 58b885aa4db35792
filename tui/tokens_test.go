package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/config"
	"toolscope/core/lint"
	"toolscope/core/tokens"
)

// The catalog's tokens are measured by a command, not on the Update path:
// the header has none until it has run, then the total and the share of
// the context window catalog-tokens uses (the config's, else 128k), and
// the Detail pane has the selected tool's count.
func TestTokensInTheHeaderAndDetail(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    *config.Config
		window int
		label  string
	}{
		{"default window", nil, tokens.DefaultContext, "of 128k"},
		{"the config's window", &config.Config{Rules: map[string]config.Rule{lint.RuleCatalogTokens: {Context: 8000}}}, 8000, "of 8k"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := mockOptions(t)
			opts.Config = tc.cfg
			m := New(opts)
			m.Update(tea.WindowSizeMsg{Width: 200, Height: 45})
			cmd := m.Init()
			if h := ansi.Strip(m.header()); strings.Contains(h, "tokens") {
				t.Fatalf("tokens counted before any command ran: %q", h)
			}
			drain(m, cmd)
			want := tokens.Measure(opts.Catalog, tc.window, false)
			h := ansi.Strip(m.header())
			if s := thousands(want.Total.O200k) + " tokens (" + sharePercent(want.Share) + " " + tc.label + ")"; !strings.Contains(h, s) {
				t.Errorf("header %q lacks %q", h, s)
			}
			for i := range opts.Catalog.Tools[:3] {
				m.tool.show(m.snap, i)
				detail := ansi.Strip(strings.Join(m.tool.lines, "\n"))
				if s := plural(want.Tools[i].O200k, "token") + " (o200k_base)"; !strings.Contains(detail, s) {
					t.Errorf("tool %d's detail lacks %q:\n%s", i, s, detail)
				}
			}
		})
	}
}

// An accept adds "1 accepted" to the header; at a width where the tokens
// fitted before, they still do after (the accepted count gives way), and
// the header keeps its long form.
func TestAnAcceptKeepsTheTokensInTheHeader(t *testing.T) {
	opts, _ := triageFixture(t, false)
	opts.Origin = "the-team-mcp-servers-merged-catalog.json" // a name long enough for the header to be tight
	m := scoredModel(t, opts, 160, 45)
	headers := func() map[int]string {
		out := map[int]string{}
		for w := WideMinWidth; w <= 260; w++ {
			m.Update(tea.WindowSizeMsg{Width: w, Height: 45})
			out[w] = ansi.Strip(m.header())
		}
		return out
	}
	before := headers()
	selectPair(t, m, "get_volume_status", "hist_volume_status")
	press(m, "A")
	triage(m, "hist is only on the audit agent")
	if len(m.snap.report.Suppressed.Pairs) != 1 {
		t.Fatalf("the accept did not take: %+v", m.snap.report.Suppressed)
	}
	after := headers()
	tight := 0
	for w := WideMinWidth; w <= 260; w++ {
		if !strings.Contains(before[w], "tokens") {
			continue
		}
		if !strings.Contains(after[w], "tokens") || !strings.HasPrefix(after[w], " toolscope · ") {
			t.Errorf("width %d: the accept took the tokens away:\n before %q\n after  %q", w, before[w], after[w])
		}
		if !strings.Contains(after[w], "1 accepted") {
			tight++
		}
	}
	if tight == 0 {
		t.Error("no width where the accepted count had to give way: the case tests nothing")
	}
	if !strings.Contains(after[260], "1 accepted") || !strings.Contains(after[260], "tokens (") {
		t.Errorf("at 260 columns both fit: %q", after[260])
	}
}
