package tui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/lint"
	"toolscope/core/tokens"
)

// tokensMsg carries a catalog's token counts, measured in the background.
type tokensMsg struct {
	cat    *catalog.Catalog
	counts tokens.Catalog
}

// tokenCounts are the token counts of one catalog (cat, by pointer: a
// reload's catalog is another).
type tokenCounts struct {
	cat *catalog.Catalog
	tokens.Catalog
}

// contextWindow is the context window the catalog's share is taken of:
// the project config's for the catalog-tokens rule, as lint's rule takes
// it, else tokens.DefaultContext.
func contextWindow(cfg *config.Config) int {
	if cfg != nil {
		if rc, ok := cfg.Rules[lint.RuleCatalogTokens]; ok && rc.Context > 0 {
			return rc.Context
		}
	}
	return tokens.DefaultContext
}

// measureTokens counts cat's definitions (o200k_base) off the Update path.
func measureTokens(cat *catalog.Catalog, window int) tea.Cmd {
	return safe("tokens", func() tea.Msg { return tokensMsg{cat: cat, counts: tokens.Measure(cat, window, false)} })
}

// tokensTaken keeps the counts when they are about the catalog shown.
func (m *Model) tokensTaken(msg tokensMsg) {
	if m.snap == nil || msg.cat != m.snap.cat {
		return
	}
	m.tokens = &tokenCounts{cat: msg.cat, Catalog: msg.counts}
	m.tool.tokens = m.tokens
	m.tool.show(m.snap, m.tool.tool)
}

// tokensStatus is the catalog's total and its share of the context
// window, "" until counted.
func (m *Model) tokensStatus() string {
	t := m.tokens
	if t == nil || m.snap == nil || t.cat != m.snap.cat {
		return ""
	}
	return fmt.Sprintf("%s tokens (%s of %s)", thousands(t.Total.O200k), sharePercent(t.Share), kilo(t.Context))
}

// tokensShort is the catalog's token count alone: "3,044 tokens".
func (m *Model) tokensShort() string {
	t := m.tokens
	if t == nil || m.snap == nil || t.cat != m.snap.cat {
		return ""
	}
	return thousands(t.Total.O200k) + " tokens"
}

// toolTokens is tool i's o200k_base count, false until counted.
func toolTokens(t *tokenCounts, s *snapshot, i int) (int, bool) {
	if t == nil || s == nil || t.cat != s.cat || i < 0 || i >= len(t.Tools) {
		return 0, false
	}
	return t.Tools[i].O200k, true
}

// sharePercent writes a share as a percentage, one decimal under 10%.
func sharePercent(share float64) string {
	if share < 0.1 {
		return fmt.Sprintf("%.1f%%", 100*share)
	}
	return fmt.Sprintf("%.0f%%", 100*share)
}

// kilo writes a window as 128k when it is whole thousands.
func kilo(n int) string {
	if n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return thousands(n)
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
