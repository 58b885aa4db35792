//go:build unix

package cli

import (
	"strings"
	"testing"
)

// The first minutes in the explorer, on the demo with the built-in
// encoder, through the built binary on a pseudo-terminal: g opens the
// worst pairs at the top, enter in the filter hands the keys to the tool,
// closing the drawer returns focus, H says why it does nothing, the wide
// footer lists the keys that work, and titles keep the name.
func TestExplorerFirstMinutesOnATerminal(t *testing.T) {
	t.Run("160x45", func(t *testing.T) {
		t.Parallel()
		tm := startTerm(t, runOpts{w: 160, h: 45})
		tm.waitScored("use-lite risk")
		// The last tool's pairs are nowhere near the worst; g still opens
		// the ranking on its first row.
		tm.send("G")
		tm.waitFor("the last tool selected", func(s string) bool { return strings.Contains(s, "│▸ schedule_maintenance") })
		tm.send("g")
		tm.waitFor("the worst pair selected at the top of the ranking", func(s string) bool {
			return strings.Contains(s, "─ Ranking ─") && strings.Contains(s, "▸ ⇄ 0.510  get_volume_metrics ↔ hist_volume_metrics") && strings.Contains(s, " 1/210")
		})
		// The footer lists the keys that work now, those whose words do
		// not fit by their key.
		footer := footerOf(tm.screen())
		for _, k := range []string{" d", " n", " c", " s", " m"} {
			if !strings.Contains(footer, k+" ") && !strings.Contains(footer, k) {
				t.Errorf("the footer leaves out %q: %q", k, footer)
			}
		}
		if !strings.Contains(footer, "also ") {
			t.Errorf("the wide footer has no 'also' keys: %q", footer)
		}
		// H without a config says why.
		tm.send("H")
		tm.waitFor("H's reason", func(s string) bool {
			return strings.Contains(footerOf(s), "H hides what toolscope.yaml accepts and ignores")
		})
		// enter in the filter opens the tool: w shows its teaching text.
		tm.send("/")
		tm.send("hist_volume_met")
		tm.waitText("Tools 1/21")
		tm.send("\r")
		tm.waitFor("the filter ended", func(s string) bool { return !strings.Contains(footerOf(s), "ctrl+c quit") })
		tm.send("w")
		s := tm.waitText("│ why:")
		// The Detail title keeps the name whole.
		if !strings.Contains(s, "─ hist_volume_metrics ── [Findings]") {
			t.Errorf("the Detail title cuts the name:\n%s", s)
		}
		tm.send("q")
		tm.end()
	})
	t.Run("80x24", func(t *testing.T) {
		t.Parallel()
		tm := startTerm(t, runOpts{w: 80, h: 24})
		tm.waitScored("use-lite risk")
		// The drawer, opened from Pairs, gives focus back to Pairs.
		tm.send("3")
		tm.waitText("[3 Pairs]")
		tm.send("a")
		tm.waitText("[4 Arguments]")
		tm.send("\x1b")
		tm.waitFor("the editor left", func(s string) bool { return strings.Contains(footerOf(s), "enter/i edit") })
		tm.send("\x1b")
		tm.waitText("[3 Pairs]")
		// g from Pairs' neighbours: the ranking at its top.
		tm.send("g")
		tm.waitText("▸ ⇄ 0.510  get_volume_metrics ↔ hist_volume_metrics")
		// The comparison's title keeps the verdict at 80 columns.
		tm.send("\r")
		tm.waitText("· confusable ")
		// The quit question, with a draft, fits with its answers.
		tm.send("a")
		tm.waitText("[4 Arguments]")
		tm.send("{")
		tm.send("\x1b")
		tm.waitFor("the editor left", func(s string) bool { return strings.Contains(footerOf(s), "enter/i edit") })
		tm.send("q")
		tm.waitFor("the whole quit question", func(s string) bool {
			return strings.Contains(footerOf(s), "quit and lose the drafts (arguments of 1 tool)? y yes · n no")
		})
		tm.send("y")
		tm.end()
	})
}
