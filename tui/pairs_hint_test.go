package tui

import (
	"testing"

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
