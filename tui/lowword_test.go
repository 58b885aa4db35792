package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/similarity"
)

// A pair under the review start is "low" wherever the explorer speaks of
// it, as the help's account of the risk calls it: the pair's detail, the
// compare view, the copy key and the accept key's notice.
func TestALowPairIsCalledLowEverywhere(t *testing.T) {
	opts, _ := triageFixture(t, false)
	m := scoredModel(t, opts, 160, 45)
	if !strings.Contains(m.eng.scoring.Explain(), "under that, low") {
		t.Fatalf("the help's account of the risk: %q", m.eng.scoring.Explain())
	}
	var low *similarity.Pair
	for i, pr := range m.snap.sim.Ranked {
		if m.snap.verdict(pr) == nil {
			low = &m.snap.sim.Ranked[i]
			break
		}
	}
	if low == nil {
		t.Fatal("no low pair in the fixture: the case tests nothing")
	}
	selectPair(t, m, low.A, low.B)
	says := map[string]string{"the detail": ansi.Strip(strings.Join(m.pairs.detail(), "\n"))}
	_, says["the copy key"] = m.copyText()
	press(m, "A")
	says["the accept key"] = m.notice
	press(m, "enter")
	if m.compare() == nil {
		t.Fatal("enter did not open the compare view")
	}
	says["the compare view"] = ansi.Strip(strings.Join(m.compare().lines, "\n"))
	_, says["the copy key in compare"] = m.copyText()
	for where, text := range says {
		if !strings.Contains(text, "low") || strings.Contains(text, "no verdict:") || strings.Contains(text, "· no verdict") || strings.Contains(text, "has no verdict") || strings.Contains(text, "not flagged") {
			t.Errorf("%s does not call the pair low: %q", where, text)
		}
	}
}
