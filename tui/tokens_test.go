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
