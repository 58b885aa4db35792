package tui

import (
	"toolscope/core/declare"
)

// declaration is a tool's declarations as judged at load: its rules, or
// the refusal that stops them.
type declaration struct {
	rules   *declare.Rules
	refusal *declare.Refusal
}

// declarationLines renders the Declarations section: a refusal in red with
// its sentence, else each ruled argument, the period's forms and its facts.
func (s *Styles) declarationLines(d declaration, w int) []string {
	if d.refusal != nil {
		out := wrapIndented(shown(oneLine("✗ refused: "+d.refusal.Error())), "", w)
		for i := range out {
			out[i] = s.Error.Render(out[i])
		}
		return append(out, s.Muted.Render("a refused declaration is never repaired: the tool's calls run without its rules"))
	}
	if d.rules == nil {
		return []string{s.Muted.Render("no declarations: every argument runs as the model sends it")}
	}
	var out []string
	for _, r := range d.rules.Ruled {
		head := s.Bold.Render(shown(r.Argument)) + "  " + string(r.Kind)
		var text string
		if r.Kind == declare.Assume {
			text = r.Assume.JSON() + " when left out, recorded as default"
		} else {
			text = r.Question
			if len(r.Choices) > 0 {
				text += "  " + declare.ChoicesText(r.Choices)
			}
		}
		if r.Period {
			head += s.Muted.Render("  (period)")
		}
		out = append(out, head)
		out = append(out, wrapIndented(shown(oneLine(text)), "    ", w-4)...)
	}
	if p := d.rules.Period; p != nil {
		out = append(out, s.Bold.Render("period"))
		for i := range p.Forms {
			label := "  "
			if len(p.Forms) > 1 {
				label = "  " + string(rune('1'+i)) + ". "
			}
			out = append(out, wrapIndented(shown(oneLine(p.Forms[i].String())), label, w-len(label))...)
		}
		if facts := p.Facts.Text(); facts != "" {
			out = append(out, wrapIndented(shown(oneLine(facts)), "  ", w-2)...)
		}
	}
	return out
}
