package tui

import (
	"context"
	"strings"
	"testing"
	"toolscope/core/catalog"
	chat "toolscope/core/judge"
	"toolscope/core/similarity"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// whatIfRisk is the what-if's after risk of the pair with other.
func whatIfRisk(t *testing.T, v *whatIfView, other string) whatIfRow {
	t.Helper()
	for _, r := range v.rows {
		if r.other == other {
			return r
		}
	}
	t.Fatalf("the what-if has no pair with %s: %+v", other, v.rows)
	return whatIfRow{}
}

// The what-if field scores the selected tool's edited description against
// the others on every change; a when-clause naming the other tool takes a
// confusable pair out of the band, and esc leaves with nothing changed.
func TestWhatIfField(t *testing.T) {
	opts := mockOptions(t)
	// The other tool already says when to choose get_volume_status; the
	// edit completes the pair's guidance.
	hist := opts.Catalog.Tools[1]
	hist.Description += " Use `get_volume_status` instead when the request is about the present (live)."
	m := scoredModel(t, opts, 160, 45)
	if selectedName(m) != "get_volume_status" || !m.keys.WhatIf.Enabled() {
		t.Fatalf("selected %s, what-if key enabled %v", selectedName(m), m.keys.WhatIf.Enabled())
	}
	th := m.eng.thresholds()
	original := m.snap.cat.Tools[0].Description
	drain(m, press(m, "d"))
	v := m.whatIf()
	if v == nil || v.field.Value() != original {
		t.Fatalf("d opened %+v", v)
	}
	start := whatIfRisk(t, v, "hist_volume_status")
	if start.before != start.after || start.before < th.Confusability {
		t.Fatalf("before any edit: %+v, want the scored confusable risk on both sides", start)
	}
	view := ansi.Strip(m.View())
	for _, want := range []string{"What if · get_volume_status", "Nothing is written", "confusable → ", "hist_volume_status", "why: "} {
		if !strings.Contains(view, want) {
			t.Errorf("the what-if lacks %q:\n%s", want, view)
		}
	}
	// Typed keys go into the field, never to the explorer's keys.
	drain(m, send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" Use `hist_volume_status` instead when the request is about the past (history).q"), Paste: true}))
	if m.quitting || m.whatIf() == nil {
		t.Fatal("a typed q left the field")
	}
	drain(m, press(m, "backspace"))
	after := whatIfRisk(t, m.whatIf(), "hist_volume_status")
	if after.before != start.before || after.after >= th.Confusability {
		t.Errorf("with the when-clause: %+v, want the risk below the confusable band %v", after, th.Confusability)
	}
	if _, name := m.whatIf().band(after.after); name == "confusable" {
		t.Errorf("band %q after the when-clause", name)
	}
	if m.keys.WhatIf.Enabled() {
		t.Error("the what-if key is offered while its field is open")
	}
	drain(m, press(m, "esc"))
	if !strings.Contains(strings.Join(m.helpLines(), "\n"), "what-if: edit the description") {
		t.Error("help does not list the what-if key")
	}
	if m.whatIf() != nil || m.snap.cat.Tools[0].Description != original {
		t.Errorf("esc: open %v, description %q", m.whatIf() != nil, m.snap.cat.Tools[0].Description)
	}
	if p := m.snap.verdict(similarity.Pair{I: 0, J: 1}); p == nil || p.Kind != similarity.Confusable {
		t.Errorf("the pair's verdict changed after esc: %+v", p)
	}
}

// Runs are one at a time: text typed while one goes is scored when it
// ends, and the answer for a superseded text is dropped.
func TestWhatIfSupersededRunsAreDropped(t *testing.T) {
	var asked []string
	v := newWhatIfView(ptr(DefaultKeyMap()), ptr(DefaultStyles()), new(int), &catalog.Tool{Index: 0, Name: "a", Description: "first"}, similarity.Thresholds{Confusability: 0.5, WatchBand: 0.1},
		func(id int, text string, _ map[int]string) tea.Cmd {
			asked = append(asked, text)
			return nil
		})
	v.setSize(60, 20)
	v.start()
	v.field.SetValue("second")
	v.ask()
	v.field.SetValue("third")
	v.ask()
	if len(asked) != 1 {
		t.Fatalf("runs started while one was going: %q", asked)
	}
	pair := func(risk float64) []similarity.WhatIfPair {
		return []similarity.WhatIfPair{{Pair: similarity.Pair{B: "b", J: 1, Similarity: risk}}}
	}
	v.answered(whatIfMsg{id: 1, pairs: pair(0.9)})
	if len(asked) != 2 || asked[1] != "third" || v.before[1] != 0.9 {
		t.Fatalf("after the first answer: asked %q, before %v", asked, v.before)
	}
	v.answered(whatIfMsg{id: 2, pairs: pair(0.1)})
	if v.rows[0].after != 0.9 {
		t.Errorf("a superseded answer was taken: %+v", v.rows)
	}
	v.answered(whatIfMsg{id: 3, pairs: pair(0.2)})
	if r := v.rows[0]; r.before != 0.9 || r.after != 0.2 {
		t.Errorf("the latest answer: %+v", r)
	}
}

// An answer for a field opened earlier (on another tool, say) is not
// taken by the field open now, nor ends its run.
func TestWhatIfAnswersOfAnEarlierFieldAreDropped(t *testing.T) {
	ids := 0
	var asked []string
	run := func(id int, text string, _ map[int]string) tea.Cmd { asked = append(asked, text); return nil }
	th := similarity.Thresholds{Confusability: 0.5, WatchBand: 0.1}
	old := newWhatIfView(ptr(DefaultKeyMap()), ptr(DefaultStyles()), &ids, &catalog.Tool{Index: 0, Name: "a", Description: "of a"}, th, run)
	old.start()
	v := newWhatIfView(ptr(DefaultKeyMap()), ptr(DefaultStyles()), &ids, &catalog.Tool{Index: 1, Name: "b", Description: "of b"}, th, run)
	v.setSize(60, 20)
	v.start()
	v.field.SetValue("of b, edited")
	v.ask()
	v.answered(whatIfMsg{id: old.reqID, pairs: []similarity.WhatIfPair{{Pair: similarity.Pair{B: "x", J: 2, Similarity: 0.9}}}})
	if v.before != nil || !v.inFlight || len(asked) != 2 {
		t.Fatalf("an earlier field's answer was taken: before %v, in flight %v, asked %q", v.before, v.inFlight, asked)
	}
	v.answered(whatIfMsg{id: v.firstID, pairs: []similarity.WhatIfPair{{Pair: similarity.Pair{B: "y", J: 3, Similarity: 0.4}}}})
	if v.before[3] != 0.4 || len(asked) != 3 || asked[2] != "of b, edited" {
		t.Errorf("its own first answer: before %v, asked %q", v.before, asked)
	}
}

func ptr[T any](v T) *T { return &v }

// An edited description is a draft: esc keeps it, d reopens it (scored
// against the file's text as the before), ctrl+y copies it, ctrl+r asks
// before dropping it, and quitting asks before losing it.
func TestWhatIfKeepsADraftPerTool(t *testing.T) {
	opts := mockOptions(t)
	var clip strings.Builder
	opts.Clipboard = &clip
	m := scoredModel(t, opts, 160, 45)
	original := m.snap.cat.Tools[0].Description
	drain(m, press(m, "d"))
	before := whatIfRisk(t, m.whatIf(), "hist_volume_status").before
	drain(m, send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" Use it for the present."), Paste: true}))
	edited := m.whatIf().field.Value()
	press(m, "esc")
	if m.whatIf() != nil || !strings.Contains(footerLine(m), "is kept") {
		t.Fatalf("esc: open %v, footer %q", m.whatIf() != nil, footerLine(m))
	}
	drain(m, press(m, "d"))
	if v := m.whatIf(); v == nil || v.field.Value() != edited {
		t.Fatalf("d did not reopen the draft: %q", m.whatIf().field.Value())
	}
	if r := whatIfRisk(t, m.whatIf(), "hist_volume_status"); r.before != before {
		t.Errorf("the reopened draft's before is %v, want the file's %v", r.before, before)
	}
	send(m, tea.KeyMsg{Type: tea.KeyCtrlY})
	if !strings.Contains(clip.String(), "\x1b]52;c;") || !strings.Contains(footerLine(m), "sent the edited description to the terminal's clipboard") {
		t.Errorf("ctrl+y: clipboard %q, footer %q", clip.String(), footerLine(m))
	}
	send(m, tea.KeyMsg{Type: tea.KeyCtrlR})
	if m.asking() == nil {
		t.Fatal("ctrl+r did not ask before dropping the draft")
	}
	drain(m, press(m, "n"))
	if m.whatIf().field.Value() != edited {
		t.Fatal("no to ctrl+r dropped the draft")
	}
	press(m, "esc", "q")
	if m.quitting || m.asking() == nil || !strings.Contains(m.asking().text, "descriptions of 1 tool") {
		t.Fatalf("q with a draft: quitting %v, question %+v", m.quitting, m.asking())
	}
	press(m, "n")
	drain(m, press(m, "d"))
	send(m, tea.KeyMsg{Type: tea.KeyCtrlR})
	drain(m, press(m, "y"))
	if m.whatIf().field.Value() != original {
		t.Errorf("yes to ctrl+r: %q, want the file's text", m.whatIf().field.Value())
	}
	press(m, "esc", "q")
	if !m.quitting {
		t.Error("q without drafts did not quit")
	}
}

// ctrl+g goes to the other side of the riskiest pair, each tool keeping
// its own draft.
func TestWhatIfEditsBothSides(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	drain(m, press(m, "d"))
	other := m.whatIf().rows[0].other
	drain(m, send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" For now."), Paste: true}))
	drain(m, send(m, tea.KeyMsg{Type: tea.KeyCtrlG}))
	if m.whatIf() == nil || m.whatIf().name != other || selectedName(m) != other {
		t.Fatalf("ctrl+g: what-if on %v, selected %s; want %s", m.whatIf(), selectedName(m), other)
	}
	drain(m, send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(" For the past."), Paste: true}))
	press(m, "esc")
	if len(m.whatIfDrafts) != 2 || !strings.HasSuffix(m.whatIfDrafts["get_volume_status"], " For now.") || !strings.HasSuffix(m.whatIfDrafts[other], " For the past.") {
		t.Errorf("drafts after both sides: %q", m.whatIfDrafts)
	}
	// Back on the first side, the pair's after is scored with both drafts,
	// the before with neither.
	first := m.snap.cat.Tools[0]
	m.tools.selectWhere(func(t int) bool { return t == 0 })
	m.selectionChanged()
	drain(m, press(m, "d"))
	if m.whatIf() == nil || m.whatIf().name != first.Name {
		t.Fatalf("d on %s opened %v", first.Name, m.whatIf())
	}
	row := whatIfRisk(t, m.whatIf(), other)
	var j int
	for _, tl := range m.snap.cat.Tools {
		if tl.Name == other {
			j = tl.Index
		}
	}
	e := m.eng.embedders[m.eng.spec]
	riskWith := func(others map[int]string) float64 {
		t.Helper()
		pairs, err := m.eng.scores.WhatIfExplained(context.Background(), e, first.Index, m.whatIfDrafts[first.Name], others)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pairs {
			if p.J == j {
				return p.Similarity
			}
		}
		t.Fatalf("no pair with %s", other)
		return 0
	}
	both, alone := riskWith(map[int]string{j: m.whatIfDrafts[other]}), riskWith(nil)
	if both == alone {
		t.Fatalf("the second draft does not move the pair (%v): the test cannot tell", both)
	}
	if row.after != both || !row.drafted {
		t.Errorf("the pair with both drafts: after %v (drafted %v), want %v (the edited side alone gives %v)", row.after, row.drafted, both, alone)
	}
	if !strings.Contains(ansi.Strip(m.View()), other+" (with its draft)") {
		t.Errorf("the row does not say the other tool's draft is in:\n%s", ansi.Strip(m.View()))
	}
	if o := whatIfRisk(t, m.whatIf(), m.whatIf().rows[len(m.whatIf().rows)-1].other); o.other != other && o.drafted {
		t.Errorf("%s is marked drafted", o.other)
	}
}

// ctrl+x in the what-if adds the sentence the selected pair's judgment
// proposes for the open tool (a judgment made with J, else a recorded
// one), once, and scores it; without such a sentence the footer says why
// and the text stays.
func TestWhatIfTakesTheJudgesSentence(t *testing.T) {
	fix := &chat.Fix{A: "Use for the present (live).", B: "Use for the past (history)."}
	cases := []struct {
		name     string
		made     *chat.Judgment // in m.judgments
		recorded *chat.Judgment // from opts.Recorded
		want     string         // the sentence added, "" for none
		notice   string
	}{
		{name: "a judgment made here", made: &chat.Judgment{Label: 3, Fix: fix}, want: "the open tool's"},
		{name: "a recorded judgment", recorded: &chat.Judgment{Label: 2, Fix: fix}, want: "the open tool's"},
		{name: "made beats recorded", made: &chat.Judgment{Label: 3, Fix: fix}, recorded: &chat.Judgment{Label: 2, Fix: &chat.Fix{A: "Recorded A.", B: "Recorded B."}}, want: "the open tool's"},
		{name: "no judgment", notice: "has no judgment"},
		{name: "a judgment without a fix", made: &chat.Judgment{Label: 0}, notice: "proposes no sentence for get_volume_status"},
		{name: "a fix for the other side only", made: &chat.Judgment{Label: 3, Fix: &chat.Fix{}}, notice: "proposes no sentence"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := mockOptions(t)
			var pairNames [2]string
			if c.recorded != nil {
				opts.Recorded = func(a, b *catalog.Tool) (chat.Judgment, bool) {
					j := *c.recorded
					j.A, j.B = pairNames[0], pairNames[1]
					return j, true
				}
			}
			m := scoredModel(t, opts, 160, 45)
			press(m, "3")
			pr, ok := m.pairs.selected()
			if !ok || (pr.A != "get_volume_status" && pr.B != "get_volume_status") {
				t.Fatalf("selected pair %+v, want one of get_volume_status's", pr)
			}
			pairNames = pairKey(pr)
			if c.made != nil {
				j := *c.made
				j.A, j.B = pairNames[0], pairNames[1]
				if j.Fix != nil && *j.Fix == (chat.Fix{}) {
					// The sentence is for the other tool only.
					j.Fix = &chat.Fix{A: "For the other.", B: "For the other."}
					if j.A == "get_volume_status" {
						j.Fix.A = ""
					} else {
						j.Fix.B = ""
					}
				}
				m.judgments[pairNames] = j
			}
			want := ""
			if c.want != "" {
				want = fix.A
				if pairNames[1] == "get_volume_status" {
					want = fix.B
				}
			}
			drain(m, press(m, "d"))
			v := m.whatIf()
			if v == nil || v.name != "get_volume_status" {
				t.Fatalf("d opened %+v", v)
			}
			original := v.field.Value()
			before := whatIfRisk(t, v, other(pairNames, "get_volume_status")).after
			drain(m, send(m, tea.KeyMsg{Type: tea.KeyCtrlX}))
			if m.whatIf() != v {
				t.Fatal("ctrl+x left the what-if")
			}
			got := v.field.Value()
			if want == "" {
				if got != original || !strings.Contains(footerLine(m), c.notice) {
					t.Errorf("text %q (was %q), footer %q, want %q", got, original, footerLine(m), c.notice)
				}
				return
			}
			if got != original+" "+want {
				t.Fatalf("ctrl+x: %q, want the file's text and %q", got, want)
			}
			if after := whatIfRisk(t, v, other(pairNames, "get_volume_status")).after; after == before {
				t.Errorf("the pair's risk did not move with the sentence (%v)", after)
			}
			drain(m, send(m, tea.KeyMsg{Type: tea.KeyCtrlX}))
			if v.field.Value() != got || !strings.Contains(footerLine(m), "already") {
				t.Errorf("a second ctrl+x: %q, footer %q", v.field.Value(), footerLine(m))
			}
		})
	}
	// A selected pair that is not the open tool's gives no sentence.
	m := scoredModel(t, mockOptions(t), 160, 45)
	press(m, "3")
	if s, why := m.judgedFix("no_such_tool"); s != "" || !strings.Contains(why, "is not about no_such_tool") {
		t.Errorf("a pair not about the tool: %q, %q", s, why)
	}
	drain(m, press(m, "d"))
	if view := strings.Join(strings.Fields(ansi.Strip(m.View())), " "); !strings.Contains(view, "ctrl+x adds the judge's proposed sentence") {
		t.Errorf("the what-if does not name ctrl+x:\n%s", view)
	}
}

// other is the name of the pair that is not name.
func other(pair [2]string, name string) string {
	if pair[0] == name {
		return pair[1]
	}
	return pair[0]
}

// The what-if explains a pair that is or was flagged, once: a pair clear
// before and after gets no "why", and a sentence the row above gave is
// not repeated.
func TestWhatIfSaysEachWhyOnce(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	drain(m, press(m, "d"))
	v := m.whatIf()
	if v == nil {
		t.Fatal("d did not open the what-if")
	}
	th := m.snap.sim.Thresholds
	flagged, clear := th.Confusability+0.01, 0.01
	same := []similarity.Reason{{Feature: "adaptive", Effect: 1, Text: "their names and first sentences read closer than each usually does to its nearest tools"}}
	other := []similarity.Reason{{Feature: "rare", Effect: 1, Text: "their names, descriptions and parameters use the same rare words"}}
	v.rows = []whatIfRow{
		{other: "a_tool", before: flagged, after: clear, reasons: same},
		{other: "b_tool", before: flagged, after: flagged, reasons: same},
		{other: "c_tool", before: clear, after: clear, reasons: same},
		{other: "d_tool", before: clear, after: clear, reasons: other},
		{other: "e_tool", before: clear, after: flagged, reasons: other},
	}
	v.render()
	text := ansi.Strip(strings.Join(v.lines, "\n"))
	if n := strings.Count(text, "read closer than each usually does"); n != 1 {
		t.Errorf("the same reason said %d times:\n%s", n, text)
	}
	if n := strings.Count(text, "why: as above"); n != 1 {
		t.Errorf("%d 'as above', want 1 (b_tool):\n%s", n, text)
	}
	if n := strings.Count(text, "same rare words"); n != 1 {
		t.Errorf("e_tool, flagged after, has its why %d times; d_tool, clear, must have none:\n%s", n, text)
	}
	if n := strings.Count(text, "why:"); n != 3 {
		t.Errorf("%d whys, want 3 (a, b as above, e):\n%s", n, text)
	}
}

// The what-if shows each flagged pair's risk with both of its proposed
// sentences in, scored with the other tool's sentence too, and says one
// alone can raise it.
func TestWhatIfShowsTheRiskWithBothProposedSentences(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	p := m.snap.verdict(similarity.Pair{I: 0, J: 1})
	if p == nil || len(p.Fixes) != 2 {
		t.Fatalf("the fixture's pair has no two sentences: %+v", p)
	}
	drain(m, press(m, "d"))
	v := m.whatIf()
	risk, ok := v.proposed[1]
	if !ok {
		t.Fatalf("no risk with the proposed sentences: %+v", v.proposed)
	}
	// The same texts scored as a draft of each give the same risk.
	text, others := proposedTexts(m.snap.sim, 0, m.snap.cat.Tools[0].Description, func(j int) string { return m.snap.cat.Tools[j].Description })
	pairs, err := m.eng.scores.WhatIfExplained(context.Background(), m.eng.embedders[m.eng.spec], 0, text, others)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range pairs {
		if q.J == 1 && q.Similarity != risk {
			t.Errorf("shown %v, scored %v", risk, q.Similarity)
		}
	}
	if !strings.Contains(text, p.Fixes[0].Sentence) && !strings.Contains(text, p.Fixes[1].Sentence) || len(others[1]) <= len(m.snap.cat.Tools[1].Description) {
		t.Errorf("the texts scored lack a sentence: %q, %q", text, others[1])
	}
	if view := ansi.Strip(m.View()); !strings.Contains(view, "with both proposed sentences in") || !strings.Contains(view, "one alone can raise it") {
		t.Errorf("the what-if does not show the risk with both sentences:\n%s", view)
	}
}

// The what-if's bands are the help's: a pair under the review start is
// "low", and a risk just under a start keeps the digits that say so.
func TestWhatIfBandsAreTheHelps(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	drain(m, press(m, "d"))
	v := m.whatIf()
	if v == nil {
		t.Fatal("d did not open the what-if")
	}
	v.th = similarity.Thresholds{Confusability: 0.44, WatchBand: 0.44 - 0.06891}
	v.rows = []whatIfRow{{other: "a_tool", before: 0.45, after: 0.0688}}
	v.render()
	text := ansi.Strip(strings.Join(v.lines, "\n"))
	if !strings.Contains(text, "0.45 confusable →   0.0688 low") {
		t.Errorf("the row does not read 0.45 confusable → 0.0688 low (was 0.07 clear):\n%s", text)
	}
}
