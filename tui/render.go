package tui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// fit clips every line of s to w cells (marking a cut with …) and pads or
// cuts s to exactly h lines of exactly w cells, so a pane can never push the
// screen wider or taller than its rect.
func fit(s string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	var b strings.Builder
	for i := range h {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := ""
		if i < len(lines) {
			line = clip(lines[i], w)
		}
		b.WriteString(line)
		if pad := w - ansi.StringWidth(line); pad > 0 {
			b.WriteString(strings.Repeat(" ", pad))
		}
	}
	return b.String()
}

// clip cuts one line to at most w cells, ending a cut line with ….
func clip(line string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(line) <= w {
		return line
	}
	return ansi.Truncate(line, w, "…")
}

// wrap breaks text into lines of at most w cells, at spaces when it can.
func wrap(text string, w int) []string {
	if w <= 0 {
		return nil
	}
	return strings.Split(ansi.Wrap(text, w, ""), "\n")
}

// frame draws body inside a rounded border of exactly w x h cells with title
// set into the top edge; the border colour says whether the pane has focus.
func (s Styles) frame(title, body string, w, h int, focused bool) string {
	fw, fh := s.frameSize()
	if w < fw || h < fh {
		return fit("", w, h)
	}
	st := s.Pane
	if focused {
		st = s.PaneFocused
	}
	bd := st.GetBorderStyle()
	color := lipgloss.NewStyle().Foreground(st.GetBorderTopForeground())
	inner := w - fw
	var b strings.Builder
	if t := clip(" "+title+" ", inner-1); title != "" && inner > 2 {
		b.WriteString(color.Render(bd.TopLeft + bd.Top))
		b.WriteString(s.PaneTitle.Render(t))
		b.WriteString(color.Render(strings.Repeat(bd.Top, max(inner-1-ansi.StringWidth(t), 0)) + bd.TopRight))
	} else {
		b.WriteString(color.Render(bd.TopLeft + strings.Repeat(bd.Top, inner) + bd.TopRight))
	}
	left, right := color.Render(bd.Left), color.Render(bd.Right)
	for _, line := range strings.Split(fit(body, inner, h-fh), "\n") {
		if h-fh == 0 {
			break
		}
		b.WriteByte('\n')
		b.WriteString(left)
		b.WriteString(line)
		b.WriteString(right)
	}
	b.WriteByte('\n')
	b.WriteString(color.Render(bd.BottomLeft + strings.Repeat(bd.Bottom, inner) + bd.BottomRight))
	return b.String()
}

// frameSize is what a pane's border takes from its rect.
func (s Styles) frameSize() (w, h int) {
	return s.Pane.GetHorizontalBorderSize(), s.Pane.GetVerticalBorderSize()
}

// oneLine folds every run of white space, line breaks included, into one
// space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
