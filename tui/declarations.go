package tui

import (
	"strings"

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
				text += "  " + choicesText(r.Choices)
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
		if facts := factsText(p.Facts); facts != "" {
			out = append(out, wrapIndented(shown(oneLine(facts)), "  ", w-2)...)
		}
	}
	return out
}

// choicesText lists an ask's choices with the phrases vouched for each.
func choicesText(cs []declare.Choice) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Value.JSON()
		if len(c.Said) > 0 {
			parts[i] += " (said: " + strings.Join(c.Said, ", ") + ")"
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// factsText states the declared facts about the period's source.
func factsText(f declare.Facts) string {
	var parts []string
	if f.Direction != "" {
		parts = append(parts, "direction "+string(f.Direction))
	}
	for _, d := range []struct {
		label string
		v     declare.Duration
	}{{"retention", f.Retention}, {"max range", f.MaxRange}, {"granularity", f.Granularity}} {
		if d.v.Text != "" {
			parts = append(parts, d.label+" "+d.v.Text)
		}
	}
	if f.FiltersToAsked {
		parts = append(parts, "filters to the asked window")
	}
	if f.WallZoneApp {
		parts = append(parts, "wall times in the app's zone")
	}
	return strings.Join(parts, " · ")
}
