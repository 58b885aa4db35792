package declare

import (
	"fmt"
	"strings"

	"toolscope/core/jsonv"
)

// Tone says how a line of a resolution reads, for renderers that colour it.
type Tone uint8

// The tones.
const (
	// ToneInfo is a plain fact: a fate, the form taken, the window.
	ToneInfo Tone = iota
	// ToneOK is a period value that reads under its spelling.
	ToneOK
	// ToneAdvice is a conflict with the declared facts: advice, never a change.
	ToneAdvice
	// ToneBad is a period value that does not read.
	ToneBad
)

// Line is one line of a rendered resolution.
type Line struct {
	Tone Tone
	Text string
}

// maxShownChoices bounds the choices one ask line lists.
const maxShownChoices = 8

// Lines renders the resolution as plain-text lines, for the command line and
// the explorer alike.
func (r *Resolution) Lines() []Line {
	var out []Line
	add := func(t Tone, format string, a ...any) {
		out = append(out, Line{Tone: t, Text: fmt.Sprintf(format, a...)})
	}
	for _, f := range r.Arguments {
		switch f.Fate {
		case FateOwn:
			add(ToneInfo, "%s: model's own %s", f.Argument, show(f.Value))
		case FateAssumed:
			add(ToneInfo, "%s: assumed %s (recorded as default)", f.Argument, show(f.Value))
		case FateAsked:
			add(ToneInfo, "%s: asked %s%s", f.Argument, jsonv.Quote(clip(f.Question)), choiceList(f.Choices))
		case FateUntaken:
			add(ToneInfo, "%s: not filled; the period is read from another form", f.Argument)
		}
	}
	if len(r.Asks) > 0 {
		add(ToneInfo, "asked in one batch, before anything runs: %s", strings.Join(r.Asks, ", "))
	}
	if p := r.Period; p != nil {
		p.lines(add)
	}
	return out
}

// Text is Lines joined, one per line.
func (r *Resolution) Text() string {
	var b strings.Builder
	for i, l := range r.Lines() {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.Text)
	}
	return b.String()
}

func (p *PeriodResolution) lines(add func(Tone, string, ...any)) {
	n := len(p.Forms)
	switch {
	case p.Taken >= 0 && n == 1:
		add(ToneInfo, "period: %s", p.Forms[0])
	case p.Taken >= 0:
		add(ToneInfo, "period: took form %d of %d, %s%s", p.Taken+1, n, p.Forms[p.Taken], untakenList(p.Untaken))
	case n == 1:
		add(ToneInfo, "period: left out; %s", p.Forms[0])
	default:
		add(ToneInfo, "period: left out; owes form %d of %d, %s%s", p.Owed+1, n, p.Forms[p.Owed], untakenList(p.Untaken))
	}
	for _, v := range p.Values {
		as := v.As
		if v.Source == FateAssumed {
			as += ", assumed"
		}
		switch {
		case v.Value == nil && v.Source == FateAsked:
			add(ToneInfo, "%s (%s): asked; the window waits for the answer", v.Argument, as)
		case v.Value == nil:
			add(ToneInfo, "%s (%s): left out, and no rule fills it", v.Argument, as)
		case v.OK && v.ReadAs != nil:
			add(ToneOK, "%s %s: read as %s, the declaration's own phrase for that choice", v.Argument, show(v.Value), showBare(v.ReadAs))
		case v.OK:
			add(ToneOK, "%s %s (%s): ok", v.Argument, show(v.Value), as)
		default:
			add(ToneBad, "%s %s (%s): %s", v.Argument, show(v.Value), as, v.Reason)
			if s := v.Suggestion; s != nil {
				add(ToneAdvice, "%s: did you mean %s? %s", v.Argument, jsonv.Quote(clip(s.Value)), s.Why)
			}
		}
	}
	if w := p.Window; w != nil {
		covers, inZone := w.Describe(p.zone)
		add(ToneInfo, "%s", covers)
		if inZone != "" {
			add(ToneInfo, "%s", inZone)
		}
	}
	if p.Unplaced != "" {
		add(ToneAdvice, "no window: %s", p.Unplaced)
	}
	for _, a := range p.Advice {
		add(ToneAdvice, "advice: %s", a)
	}
}

func untakenList(untaken []string) string {
	if len(untaken) == 0 {
		return ""
	}
	return "; not taken: " + strings.Join(untaken, ", ")
}

func choiceList(choices []*jsonv.Value) string {
	if len(choices) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(" [")
	for i, c := range choices {
		if i == maxShownChoices {
			fmt.Fprintf(&b, ", … %d more", len(choices)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(show(c))
	}
	b.WriteByte(']')
	return b.String()
}

// ChoicesText lists an ask's choices with the phrases vouched for each.
func ChoicesText(cs []Choice) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Value.JSON()
		if len(c.Said) > 0 {
			parts[i] += " (said: " + strings.Join(c.Said, ", ") + ")"
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Text states the declared facts about the period's source, "" for
// none.
func (f Facts) Text() string {
	var parts []string
	if f.Direction != "" {
		parts = append(parts, "direction "+string(f.Direction))
	}
	for _, d := range []struct {
		label string
		v     Duration
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
