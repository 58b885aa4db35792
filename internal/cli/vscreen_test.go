//go:build unix

package cli

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// vscreen is as much of a terminal as the explorer's screen needs: it
// keeps the cells the program wrote, follows the cursor, erases, switches
// to and from the alternate screen, and answers the two queries a
// terminal answers (the cursor position and the background colour).
type vscreen struct {
	w, h  int
	cells [][]rune // h rows of w cells; wideTail marks a wide rune's second cell
	r, c  int
	// main is the normal screen while the alternate one is shown.
	main    [][]rune
	alt     bool
	pending []byte
	reply   []byte
	queries int // cursor-position and colour queries seen
	// cursorFirst answers the cursor query before an earlier colour query,
	// as some terminals and multiplexers do: the colour's answer then
	// arrives after Bubble Tea stopped waiting for it.
	cursorFirst bool
	late        []byte
	altEnter    int // switches to the alternate screen
	altLeave    int // switches back
}

const wideTail = -1

func newVScreen(w, h int) *vscreen {
	s := &vscreen{}
	s.resize(w, h)
	return s
}

func blankRows(w, h int) [][]rune {
	rows := make([][]rune, h)
	for i := range rows {
		rows[i] = make([]rune, w)
	}
	return rows
}

// resize keeps what fits, as a terminal does before the program repaints.
func (s *vscreen) resize(w, h int) {
	rows := blankRows(w, h)
	for i := 0; i < min(h, len(s.cells)); i++ {
		copy(rows[i], s.cells[i])
	}
	s.w, s.h, s.cells = w, h, rows
	s.clamp()
}

func (s *vscreen) clamp() {
	s.r = min(max(s.r, 0), s.h-1)
	s.c = min(max(s.c, 0), s.w)
}

// text is the screen, one line a row, each trimmed on the right.
func (s *vscreen) text() string {
	var b strings.Builder
	for i, row := range s.cells {
		if i > 0 {
			b.WriteByte('\n')
		}
		var line strings.Builder
		for _, r := range row {
			switch r {
			case wideTail:
			case 0:
				line.WriteByte(' ')
			default:
				line.WriteRune(r)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
	}
	return b.String()
}

// write takes the program's output; what is left of an unfinished
// sequence waits for the next write. The answers to queries are returned.
func (s *vscreen) write(p []byte) []byte {
	buf := append(s.pending, p...)
	s.pending = nil
	i := 0
	for i < len(buf) {
		n := s.step(buf[i:])
		if n == 0 {
			s.pending = append([]byte(nil), buf[i:]...)
			break
		}
		i += n
	}
	out := s.reply
	s.reply = nil
	return out
}

// step takes one character or sequence from the start of b and returns
// its length, 0 when b holds only its beginning.
func (s *vscreen) step(b []byte) int {
	switch c := b[0]; {
	case c == 0x1b:
		return s.escape(b)
	case c == '\r':
		s.c = 0
	case c == '\n':
		s.lineFeed()
	case c == '\b':
		s.c = max(s.c-1, 0)
	case c == '\t':
		s.c = min((s.c/8+1)*8, s.w-1)
	case c < 0x20 || c == 0x7f:
	default:
		if !utf8.FullRune(b) {
			return 0
		}
		r, n := utf8.DecodeRune(b)
		s.put(r)
		return n
	}
	return 1
}

func (s *vscreen) lineFeed() {
	if s.r < s.h-1 {
		s.r++
		return
	}
	s.cells = append(s.cells[1:], make([]rune, s.w))
}

func (s *vscreen) put(r rune) {
	w := ansi.StringWidth(string(r))
	if w == 0 {
		return
	}
	if s.c+w > s.w {
		s.c = 0
		s.lineFeed()
	}
	s.cells[s.r][s.c] = r
	if w == 2 && s.c+1 < s.w {
		s.cells[s.r][s.c+1] = wideTail
	}
	s.c += w
}

func (s *vscreen) escape(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '[':
		for j := 2; j < len(b); j++ {
			if b[j] >= 0x40 && b[j] <= 0x7e {
				s.csi(string(b[2:j]), b[j])
				return j + 1
			}
		}
		return 0
	case ']', 'P', '_', '^', 'X':
		// A string up to BEL or ESC \.
		for j := 2; j < len(b); j++ {
			switch {
			case b[j] == 0x07:
				s.osc(b[1], string(b[2:j]))
				return j + 1
			case b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\':
				s.osc(b[1], string(b[2:j]))
				return j + 2
			case b[j] == 0x1b && j+1 == len(b):
				return 0
			}
		}
		return 0
	case '(', ')', '*', '+', '#', ' ':
		if len(b) < 3 {
			return 0
		}
		return 3
	}
	return 2
}

func (s *vscreen) osc(kind byte, body string) {
	if kind == ']' && (body == "11;?" || body == "10;?") {
		s.queries++
		answer := fmt.Appendf(nil, "\x1b]%s;rgb:0000/0000/0000\x1b\\", body[:2])
		if s.cursorFirst {
			s.late = append(s.late, answer...)
			return
		}
		s.reply = append(s.reply, answer...)
	}
}

func (s *vscreen) csi(params string, final byte) {
	private := ""
	if params != "" && strings.ContainsRune("<=>?", rune(params[0])) {
		private, params = params[:1], params[1:]
	}
	if strings.IndexFunc(params, func(r rune) bool { return r < '0' || r > ';' }) >= 0 {
		return // intermediates: a mode query or the like, nothing to draw
	}
	var nums []int
	for _, f := range strings.Split(params, ";") {
		n, _ := strconv.Atoi(strings.SplitN(f, ":", 2)[0])
		nums = append(nums, n)
	}
	arg := func(i, def int) int {
		if i < len(nums) && nums[i] > 0 {
			return nums[i]
		}
		return def
	}
	if private == "?" {
		if final == 'h' || final == 'l' {
			for _, n := range nums {
				if n == 1049 || n == 1047 || n == 47 {
					s.switchScreen(final == 'h')
				}
			}
		}
		return
	}
	if private != "" {
		return
	}
	switch final {
	case 'A':
		s.r -= arg(0, 1)
	case 'B':
		s.r += arg(0, 1)
	case 'C':
		s.c += arg(0, 1)
	case 'D':
		s.c -= arg(0, 1)
	case 'E':
		s.r, s.c = s.r+arg(0, 1), 0
	case 'F':
		s.r, s.c = s.r-arg(0, 1), 0
	case 'G':
		s.c = arg(0, 1) - 1
	case 'd':
		s.r = arg(0, 1) - 1
	case 'H', 'f':
		s.r, s.c = arg(0, 1)-1, arg(1, 1)-1
	case 'J':
		s.eraseScreen(arg(0, 0))
	case 'K':
		s.eraseLine(arg(0, 0))
	case 'n':
		if arg(0, 0) == 6 {
			s.queries++
			s.reply = fmt.Appendf(s.reply, "\x1b[%d;%dR", s.r+1, s.c+1)
			s.reply, s.late = append(s.reply, s.late...), nil
		}
	}
	s.clamp()
}

func (s *vscreen) switchScreen(alt bool) {
	if alt == s.alt {
		return
	}
	s.alt = alt
	if alt {
		s.altEnter++
		s.main, s.cells = s.cells, blankRows(s.w, s.h)
		return
	}
	s.altLeave++
	s.cells = blankRows(s.w, s.h)
	for i := 0; i < min(s.h, len(s.main)); i++ {
		copy(s.cells[i], s.main[i])
	}
}

func (s *vscreen) eraseLine(mode int) {
	row := s.cells[s.r]
	from, to := s.c, s.w
	switch mode {
	case 1:
		from, to = 0, min(s.c+1, s.w)
	case 2:
		from = 0
	}
	for i := from; i < to; i++ {
		row[i] = 0
	}
}

func (s *vscreen) eraseScreen(mode int) {
	switch mode {
	case 0:
		s.eraseLine(0)
		for i := s.r + 1; i < s.h; i++ {
			clear(s.cells[i])
		}
	case 1:
		s.eraseLine(1)
		for i := 0; i < s.r; i++ {
			clear(s.cells[i])
		}
	default:
		for i := range s.cells {
			clear(s.cells[i])
		}
	}
}
