package tui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	chat "toolscope/core/judge"
)

// F on a pair the probe saw confused asks with the cost first, then runs
// the fix loop in the background: the verdict, before and after show in
// the detail, and a kept fix's text waits in the what-if of both tools.
func TestFixTheConfusedPairWithCostFirst(t *testing.T) {
	var tried [][2]string
	kept, fail := true, false
	opts := mockOptions(t)
	opts.Probe = testProbe(t)
	opts.FixCost = func(cat *catalog.Catalog, a, b *catalog.Tool) (string, bool) {
		return "the judge asked, 10 requests to openai:m sent again: about $0.01", true
	}
	opts.Fix = func(ctx context.Context, cat *catalog.Catalog, a, b *catalog.Tool) (chat.FixTrial, error) {
		tried = append(tried, [2]string{a.Name, b.Name})
		if fail {
			return chat.FixTrial{}, errors.New("POST http://x/v1/chat/completions: HTTP 429")
		}
		tr := chat.FixTrial{A: a.Name, B: b.Name, Sentences: chat.FixSentences{A: "Use for the present.", B: "Use for the past."},
			Before: chat.Count{Right: 7, Of: 10}, After: chat.Count{Right: 9, Of: 10}, Better: 2, P: 0.5, Kept: true, Why: "kept: 2 more requests went right that went wrong before, none went wrong"}
		if !kept {
			tr.Kept, tr.Worse, tr.Why = false, 1, "rejected: 1 request that went right went wrong"
		}
		return tr, nil
	}
	m := scoredModel(t, opts, 160, 45)
	press(m, "3")
	press(m, "g")
	// The ranking's first pair is the confused one (3/10).
	pr, ok := m.pairs.selected()
	if !ok || !m.keys.FixPair.Enabled() || pairKey(pr) != [2]string{"get_volume_status", "hist_volume_status"} {
		t.Fatalf("selected %v (F enabled %v)", pr, m.keys.FixPair.Enabled())
	}
	press(m, "F")
	if m.asking() == nil || !strings.Contains(footerLine(m), "the judge asked, 10 requests") {
		t.Fatalf("F did not show the cost first: %q", footerLine(m))
	}
	press(m, "n")
	if len(tried) != 0 || m.fixing != nil {
		t.Fatal("n ran the fix")
	}
	press(m, "F")
	m.Update(press(m, "y")())
	if len(tried) != 1 || tried[0] != [2]string{"get_volume_status", "hist_volume_status"} {
		t.Fatalf("tried %v", tried)
	}
	view := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
	for _, want := range []string{"fix: kept: 2 more requests went right", "Before 7 of 10 right, after 9 of 10"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if !strings.Contains(m.notice, "the proven text is in the what-if") {
		t.Errorf("notice %q", m.notice)
	}
	gvs, _ := m.snap.cat.Lookup("get_volume_status")
	if got := m.whatIfDrafts["get_volume_status"]; got != gvs.Description+" Use for the present." {
		t.Errorf("what-if draft %q", got)
	}
	// A rejected fix leaves the what-if alone; a failed one says why.
	delete(m.whatIfDrafts, "get_volume_status")
	delete(m.whatIfDrafts, "hist_volume_status")
	kept = false
	press(m, "F")
	m.Update(press(m, "y")())
	if len(m.whatIfDrafts) != 0 || !strings.Contains(m.notice, "rejected: 1 request") {
		t.Errorf("rejected: drafts %v, notice %q", m.whatIfDrafts, m.notice)
	}
	fail = true
	press(m, "F")
	m.Update(press(m, "y")())
	if !strings.Contains(m.notice, "fix: POST") {
		t.Errorf("failed: notice %q", m.notice)
	}
	// A pair the probe never saw confused has nothing to fix.
	press(m, "down")
	if p, _ := m.pairs.selected(); !m.confusedInProbe(p) {
		drain(m, press(m, "F"))
		if m.asking() != nil || !strings.Contains(footerLine(m), "nothing to fix") {
			t.Errorf("F on an unconfused pair: footer %q", footerLine(m))
		}
	}
}
