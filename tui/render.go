package tui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/termsafe"
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

// clipMiddle cuts one line of plain text to at most w cells by dropping
// its middle, marked …: names differ at their ends (a server's prefix, the
// verb or noun at the end), so both are kept.
// clipWords is clip cutting between words: the words that fit whole, then
// "…" (a word longer than the line is cut as clip cuts it).
func clipWords(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	line := wrap(s, max(w-1, 1))[0]
	if ansi.StringWidth(line) >= w || !strings.Contains(strings.TrimSpace(line), " ") {
		return clip(s, w)
	}
	return strings.TrimRight(line, " ") + "…"
}

func clipMiddle(s string, w int) string {
	head, tail := middleCut(s, w)
	if head == tail {
		return s
	}
	return s[:head] + "…" + s[tail:]
}

// pairNames shows "a ↔ b" in at most w cells. A name too long for its
// half is cut where it does not differ from the other: two names sharing
// a long prefix and suffix (workplace_v1_data_search and
// workplace_v2_data_search) keep the part that tells them apart.
func pairNames(a, b string, w int) string {
	const sep = " ↔ "
	if ansi.StringWidth(a)+ansi.StringWidth(sep)+ansi.StringWidth(b) <= w {
		return a + sep + b
	}
	half := max((w-ansi.StringWidth(sep))/2, 1)
	p, sa, sb := commonEnds(a, b)
	// Both halves the same width, so the two cut the same way.
	return clipAround(a, p, len(a)-sa, half) + sep + clipAround(b, p, len(b)-sb, half)
}

// commonEnds is the byte length of a's and b's common prefix, and of the
// common suffix of each, on rune boundaries and never overlapping the
// prefix.
func commonEnds(a, b string) (prefix, suffixA, suffixB int) {
	for prefix < len(a) && prefix < len(b) {
		ra, n := utf8.DecodeRuneInString(a[prefix:])
		rb, _ := utf8.DecodeRuneInString(b[prefix:])
		if ra != rb {
			break
		}
		prefix += n
	}
	s := 0
	for s < len(a)-prefix && s < len(b)-prefix {
		ra, n := utf8.DecodeLastRuneInString(a[:len(a)-s])
		rb, _ := utf8.DecodeLastRuneInString(b[:len(b)-s])
		if ra != rb {
			break
		}
		s += n
	}
	return prefix, s, s
}

// clipAround cuts s to w cells keeping s[from:to], the part that differs
// from another name, in view: the middle cut when it spares that part,
// else the end or the start of s, else the part itself between two ….
func clipAround(s string, from, to, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	if to <= from {
		// s is the other's prefix or suffix: what differs is at the cut.
		to = min(from+1, len(s))
	}
	head, tail := middleCut(s, w)
	if to <= head || from >= tail {
		return s[:head] + "…" + s[tail:]
	}
	if ansi.StringWidth(s[from:]) <= w-1 {
		return "…" + ansi.TruncateLeft(s, ansi.StringWidth(s)-(w-1), "")
	}
	if ansi.StringWidth(s[:to]) <= w-1 {
		return ansi.Truncate(s, w-1, "") + "…"
	}
	return "…" + ansi.Truncate(s[from:], max(w-2, 0), "") + "…"
}

// middleCut is where clipMiddle cuts s: it keeps s[:head] and s[tail:];
// head == tail when s fits.
func middleCut(s string, w int) (head, tail int) {
	if ansi.StringWidth(s) <= w {
		return len(s), len(s)
	}
	if w <= 1 {
		return 0, len(s)
	}
	budget := w - 1
	headW := (budget + 1) / 2
	used := 0
	for i, r := range s {
		rw := ansi.StringWidth(string(r))
		if used+rw > headW {
			head = i
			break
		}
		used += rw
	}
	// What the head could not use (a wide character at the cut) goes to
	// the tail.
	tailW := budget - used
	tail = len(s)
	tw := 0
	for tail > head {
		r, size := utf8.DecodeLastRuneInString(s[:tail])
		rw := ansi.StringWidth(string(r))
		if tw+rw > tailW {
			break
		}
		tw += rw
		tail -= size
	}
	return head, tail
}

// listPosition is a list's position for its frame: the selected row of
// total, with ↑ when rows are hidden above the shown ones and ↓ below.
func listPosition(cursor, total, first, shownRows int) string {
	if total == 0 {
		return ""
	}
	pos := strconv.Itoa(cursor+1) + "/" + strconv.Itoa(total)
	return arrows(pos, first > 0, first+shownRows < total)
}

// viewPosition is a scrolled view's position: the lines shown of total.
func viewPosition(first, shownLines, total int) string {
	if total <= shownLines || shownLines <= 0 {
		return ""
	}
	last := min(first+shownLines, total)
	pos := strconv.Itoa(first+1) + "–" + strconv.Itoa(last) + "/" + strconv.Itoa(total)
	return arrows(pos, first > 0, last < total)
}

func arrows(pos string, above, below bool) string {
	if above {
		pos = "↑ " + pos
	}
	if below {
		pos += " ↓"
	}
	return pos
}

// wholeSentences wraps text to w cells in at most h lines, dropping whole
// sentences from the end when it does not fit and saying so with more
// (so a hint is never cut mid-sentence); only a first sentence longer than
// the whole area is cut, at a line.
func wholeSentences(text string, w, h int, more string) []string {
	if h <= 0 {
		return nil
	}
	lines := wrap(text, w)
	if len(lines) <= h {
		return lines
	}
	sentences := splitSentences(text)
	for n := len(sentences) - 1; n > 0; n-- {
		lines = wrap(strings.Join(sentences[:n], " ")+" "+more, w)
		if len(lines) <= h {
			return lines
		}
	}
	lines = wrap(text, w)[:h]
	lines[h-1] = clip(lines[h-1]+"…", w)
	return lines
}

// splitSentences splits text after each ". ", "? " or "! ".
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(text); i++ {
		if (text[i] == '.' || text[i] == '?' || text[i] == '!') && text[i+1] == ' ' {
			out = append(out, text[start:i+1])
			start = i + 2
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
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
	return s.frameWith(title, "", body, w, h, focused)
}

// frameWith is frame with foot set into the bottom edge, at the right: a
// pane's position (3/12, more above ↑ or below ↓).
func (s Styles) frameWith(title, foot, body string, w, h int, focused bool) string {
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
	if f := " " + foot + " "; foot != "" && ansi.StringWidth(f)+2 <= inner {
		b.WriteString(color.Render(bd.BottomLeft + strings.Repeat(bd.Bottom, inner-1-ansi.StringWidth(f))))
		b.WriteString(s.Muted.Render(f))
		b.WriteString(color.Render(bd.Bottom + bd.BottomRight))
	} else {
		b.WriteString(color.Render(bd.BottomLeft + strings.Repeat(bd.Bottom, inner) + bd.BottomRight))
	}
	return b.String()
}

// frameSize is what a pane's border takes from its rect.
func (s Styles) frameSize() (w, h int) {
	return s.Pane.GetHorizontalBorderSize(), s.Pane.GetVerticalBorderSize()
}

// oneLine folds every run of white space, line breaks included, into one
// space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// shown makes untrusted text (a catalog's, a server's) fit to draw on one
// line: every control character and bidi override escaped visibly
// (core/termsafe), and the emoji presentation selector U+FE0F dropped, as
// terminals disagree on whether it widens the character before it, which
// would shift every border after it; without it they all draw one cell.
func shown(s string) string {
	s = termsafe.Line(s)
	if strings.Contains(s, "\ufe0f") {
		s = strings.ReplaceAll(s, "\ufe0f", "")
	}
	return s
}

// fieldView is a text field's rendering with the characters that reorder
// or hide text (bidi embeddings, overrides, isolates and marks, line and
// paragraph separators) escaped visibly, as shown does for other text. The
// field components draw their value as it is, and strip only C0 and C1
// controls; the styling escapes of the rendering hold none of these.
func fieldView(view string) string {
	if !strings.ContainsFunc(view, isBidi) {
		return view
	}
	var b strings.Builder
	for _, r := range view {
		if isBidi(r) {
			b.WriteString(termsafe.Line(string(r)))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isBidi reports the format characters fieldView escapes.
func isBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0x200e || r == 0x200f || r == 0x061c || r == 0x2028 || r == 0x2029
}
