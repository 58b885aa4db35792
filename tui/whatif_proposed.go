package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/similarity"
)

// The what-if also scores the advice: each flagged pair of the tool whose
// hint proposes a sentence for both descriptions is scored once with both
// sentences in, and its row says the risk that gives. One sentence alone
// can raise a pair's risk (it names the other tool in one description
// only), so the row shows the pair with both.

// proposedTexts are the tool's description with the sentences its flagged
// pairs propose for it, and each other tool's description with the one
// proposed for it; nil when no pair proposes both.
func proposedTexts(sim *similarity.Result, tool int, description string, describe func(int) string) (string, map[int]string) {
	if sim == nil {
		return "", nil
	}
	text := description
	var others map[int]string
	for _, p := range append(append([]similarity.PairFinding(nil), sim.Confusable...), sim.Watch...) {
		if p.I != tool && p.J != tool || len(p.Fixes) != 2 {
			continue
		}
		j, name := p.J, p.A
		if p.J == tool {
			j, name = p.I, p.B
		}
		for _, f := range p.Fixes {
			if f.Tool == name {
				text = strings.TrimSpace(text + " " + f.Sentence)
				continue
			}
			if others == nil {
				others = map[int]string{}
			}
			if _, ok := others[j]; !ok {
				others[j] = describe(j)
			}
			others[j] = strings.TrimSpace(others[j] + " " + f.Sentence)
		}
	}
	if others == nil {
		return "", nil
	}
	return text, others
}

// startProposed asks for the pairs' risks with the proposed sentences in.
func (v *whatIfView) startProposed() tea.Cmd {
	if v.proposedOthers == nil {
		return nil
	}
	*v.ids++
	v.proposedID = *v.ids
	return v.score(v.proposedID, v.proposedText, v.proposedOthers)
}

// takeProposed keeps the risks with the sentences in, for the pairs that
// propose both.
func (v *whatIfView) takeProposed(msg whatIfMsg) {
	if msg.err != nil {
		return
	}
	v.proposed = map[int]float64{}
	for _, p := range msg.pairs {
		if _, ok := v.proposedOthers[p.J]; ok {
			v.proposed[p.J] = p.Similarity
		}
	}
}

// proposedLine says a row's risk with both proposed sentences in; "" for a
// pair with no such proposal.
func (v *whatIfView) proposedLine(j int) string {
	risk, ok := v.proposed[j]
	if !ok {
		return ""
	}
	_, name := v.band(risk)
	if name != "" {
		name = " " + name
	}
	return fmt.Sprintf("    with both proposed sentences in (the hint's, one per description): %.2f%s; one alone can raise it", risk, name)
}
