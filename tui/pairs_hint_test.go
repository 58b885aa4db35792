package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

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
