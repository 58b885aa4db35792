package tui

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	chat "toolscope/core/judge"
	"toolscope/core/lint"
)

// J on a pair asks with the cost first, then judges it in the background;
// the label, the reason and the proposed sentences show in the detail.
func TestJudgeThePairWithCostFirst(t *testing.T) {
	var asked [][2]string
	fail := false
	opts := mockOptions(t)
	opts.JudgeCost = func(a, b *catalog.Tool, siblings []string) string {
		return "openai:m: 1 request, about 900 input tokens, about $0.01"
	}
	opts.Judge = func(ctx context.Context, a, b *catalog.Tool, siblings []string) (chat.Judgment, bool, error) {
		asked = append(asked, [2]string{a.Name, b.Name})
		if fail {
			return chat.Judgment{}, false, errors.New("POST http://x/v1/chat/completions: HTTP 429")
		}
		return chat.Judgment{A: a.Name, B: b.Name, Label: 3, Reason: "both read volume status, live versus history is unsaid",
			Fix: &chat.Fix{A: "Use for the present.", B: "Use for the past."}, By: "openai:m"}, false, nil
	}
	m := scoredModel(t, opts, 160, 45)
	press(m, "3")
	pr, ok := m.pairs.selected()
	if !ok || !m.keys.Judge.Enabled() {
		t.Fatal("no selected pair, or J off with a judge")
	}
	press(m, "J")
	if m.asking() == nil || !strings.Contains(footerLine(m), "about $0.01") {
		t.Fatalf("J did not show the cost first: %q", footerLine(m))
	}
	press(m, "n")
	if len(asked) != 0 || m.judging != nil {
		t.Fatal("n judged the pair")
	}
	press(m, "J")
	cmd := press(m, "y")
	if cmd == nil || m.judging == nil {
		t.Fatal("y did not start the judgment")
	}
	m.Update(cmd())
	if len(asked) != 1 {
		t.Fatalf("asked %v", asked)
	}
	view := ansi.Strip(m.View())
	for _, want := range []string{"judge (openai:m): confusable, label 3", "live versus history is", "fix: get_volume_status:"} {
		if !strings.Contains(strings.Join(strings.Fields(view), " "), want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if _, ok := m.judgments[pairKey(pr)]; !ok {
		t.Error("the judgment is not kept for the pair")
	}
	// A failed request says so and keeps nothing new.
	fail = true
	press(m, "down", "J")
	m.Update(press(m, "y")())
	if !strings.Contains(m.notice, "judge: POST") || len(m.judgments) != 1 {
		t.Errorf("after a failure: notice %q, %d judgments", m.notice, len(m.judgments))
	}
	// Without a judge, J does nothing.
	m = scoredModel(t, mockOptions(t), 160, 45)
	press(m, "3", "J")
	if m.keys.Judge.Enabled() || m.asking() != nil {
		t.Error("J works without a judge")
	}
}

// A recorded judgment of the pair's texts shows in the detail without a
// request, and without a judge.
func TestRecordedJudgmentShowsInTheDetail(t *testing.T) {
	opts := mockOptions(t)
	var looked int
	opts.Recorded = func(a, b *catalog.Tool) (chat.Judgment, bool) {
		looked++
		return chat.Judgment{A: a.Name, B: b.Name, Label: 1, Reason: "the present against the past, said in both", By: chat.PersonBy}, true
	}
	m := scoredModel(t, opts, 160, 45)
	press(m, "3")
	view := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
	if !strings.Contains(view, "recorded judgment (person): cleared, label 1") || looked == 0 {
		t.Fatalf("no recorded judgment in the detail (%d lookups):\n%s", looked, view)
	}
	if m.keys.Judge.Enabled() {
		t.Error("J works without a judge")
	}
}

// J also offers every review pair, with their cost first; a judges each
// of them in turn, in the background, keeping each answer as it comes and
// saying how far it got.
func TestJudgeEveryReviewPair(t *testing.T) {
	var asked []string
	opts := mockOptions(t)
	opts.JudgeCost = func(a, b *catalog.Tool, siblings []string) string { return "one pair" }
	var costed int
	opts.JudgeCostAll = func(pairs [][2]*catalog.Tool, siblings [][]string) string {
		costed = len(pairs)
		return "about $0.03"
	}
	opts.Judge = func(ctx context.Context, a, b *catalog.Tool, siblings []string) (chat.Judgment, bool, error) {
		asked = append(asked, a.Name+"|"+b.Name)
		return chat.Judgment{A: a.Name, B: b.Name, Label: 1, Reason: "related, told apart", By: "openai:m"}, false, nil
	}
	m := scoredModel(t, opts, 160, 45)
	var review []string
	for _, p := range m.snap.report.Similarity.Watch {
		review = append(review, m.snap.cat.Tools[p.I].Name+"|"+m.snap.cat.Tools[p.J].Name)
	}
	if len(review) < 2 {
		t.Fatalf("the test catalog has %d review pairs", len(review))
	}
	press(m, "3", "J")
	if f := footerLine(m); costed != len(review) || !strings.Contains(f, "every review pair") || !strings.Contains(f, "about $0.03") {
		t.Fatalf("J did not offer the review pairs with their cost (%d costed): %q", costed, f)
	}
	cmd := press(m, "a")
	if cmd == nil || len(asked) != 0 {
		t.Fatalf("a sent before its command ran, or started nothing: %v", asked)
	}
	// One pair at a time, each answer taken before the next is asked.
	_, next := m.Update(cmd())
	if len(asked) != 1 || len(m.judgments) != 1 || !strings.HasPrefix(m.notice, "judging review pairs: 1 of "+strconv.Itoa(len(review))+" (0 confusable, 1 cleared)") {
		t.Fatalf("after the first answer: asked %v, %d judgments kept, notice %q", asked, len(m.judgments), m.notice)
	}
	drain(m, next)
	if strings.Join(asked, " ") != strings.Join(review, " ") {
		t.Errorf("asked %v, want the review pairs %v", asked, review)
	}
	if want := "judged " + strconv.Itoa(len(review)) + " review pairs: 0 confusable, " + strconv.Itoa(len(review)) + " cleared"; m.notice != want || len(m.judgments) != len(review) {
		t.Errorf("notice %q (want %q), %d judgments kept", m.notice, want, len(m.judgments))
	}
	// On a narrow screen the offer is cut in its middle, never the
	// answers nor the price at its end.
	long := opts
	long.JudgeCostAll = func([][2]*catalog.Tool, [][]string) string {
		return "openai:m: 3 not judged before, 3 requests, about 1490 input and 360 output tokens, about $0.01"
	}
	narrow := scoredModel(t, long, 80, 24)
	press(narrow, "3", "J")
	if f := strings.TrimRight(footerLine(narrow), " "); !strings.HasPrefix(f, " judge ") || !strings.Contains(f, "y yes · a every review pair ") || !strings.HasSuffix(f, "about $0.01) · n no") {
		t.Errorf("the question at 80 columns: %q", f)
	}
	// A failed request ends the run: the rest stay unjudged, and say why.
	asked = nil
	opts.Judge = func(ctx context.Context, a, b *catalog.Tool, siblings []string) (chat.Judgment, bool, error) {
		asked = append(asked, a.Name+"|"+b.Name)
		if len(asked) == 2 {
			return chat.Judgment{}, false, errors.New("401 Unauthorized")
		}
		return chat.Judgment{A: a.Name, B: b.Name, Label: 3, Reason: "same job", By: "openai:m"}, false, nil
	}
	m = scoredModel(t, opts, 160, 45)
	press(m, "3", "J")
	drain(m, press(m, "a"))
	if want := "judged 1 review pair: 1 confusable, 0 cleared, " + strconv.Itoa(len(review)-1) + " not judged (401 Unauthorized)"; len(asked) != 2 || m.notice != want || m.judging != nil {
		t.Errorf("after a failure: asked %v, notice %q (want %q)", asked, m.notice, want)
	}
	// Without a cost for them, J offers the one pair only.
	opts.JudgeCostAll = nil
	m = scoredModel(t, opts, 160, 45)
	press(m, "3", "J")
	if strings.Contains(footerLine(m), "every review pair") {
		t.Error("offered every review pair without their cost")
	}
}

// A pair a recorded judgment made confusable shows the judgment once: its
// line in the detail, not again as the verdict's hint.
func TestJudgedVerdictSaidOnce(t *testing.T) {
	opts := mockOptions(t)
	j := chat.Judgment{A: "get_volume_status", B: "hist_volume_status", Label: 3, Reason: "unsaid", By: "openai:m"}
	opts.Recorded = func(a, b *catalog.Tool) (chat.Judgment, bool) {
		return j, min(a.Name, b.Name) == j.A && max(a.Name, b.Name) == j.B
	}
	opts.Replay = func(r *lint.Report, cat *catalog.Catalog) *lint.Report {
		out := *r
		out.Similarity.Confusable = slices.Clone(r.Similarity.Confusable)
		for i, p := range out.Similarity.Confusable {
			if min(p.A, p.B) == j.A && max(p.A, p.B) == j.B {
				out.Similarity.Confusable[i].Reasons = nil
				out.Similarity.Confusable[i].Hint = chat.JudgedHint + " openai:m (label 3): " + j.Reason
			}
		}
		return &out
	}
	m := scoredModel(t, opts, 160, 45)
	selectPair(t, m, "get_volume_status", "hist_volume_status")
	view := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
	if n := strings.Count(view, j.Reason); n != 1 || !strings.Contains(view, "recorded judgment (openai:m): confusable, label 3") {
		t.Errorf("the judgment's reason shows %d times (want once, on the recorded judgment's line):\n%s", n, ansi.Strip(m.View()))
	}
}
