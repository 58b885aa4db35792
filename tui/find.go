package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// finder searches a view's lines for text, as less does: f asks for the
// text, enter jumps to the first line at or after the top that has it, n
// and N to the next and previous; the matches are marked.
type finder struct {
	input  textinput.Model
	typing bool
	query  string // lower case; "" is no search
	hits   []int  // the lines that have the query
	at     int    // the current hit
}

func newFinder() finder {
	in := textinput.New()
	in.Prompt = "find: "
	in.Placeholder = "text"
	return finder{input: in}
}

// start asks for the text.
func (f *finder) start() tea.Cmd {
	f.typing = true
	f.input.SetValue("")
	return f.input.Focus()
}

// active reports whether n and N move between matches.
func (f *finder) active() bool { return f.query != "" }

// key takes a key while the text is typed: enter searches from top, esc
// gives up. jump is the line to show, -1 for none.
func (f *finder) key(msg tea.KeyMsg, lines []string, top int) (jump int, cmd tea.Cmd) {
	switch msg.Type {
	case tea.KeyEsc:
		f.typing = false
		f.input.Blur()
		return -1, nil
	case tea.KeyEnter:
		f.typing = false
		f.input.Blur()
		f.query = strings.ToLower(f.input.Value())
		f.refind(lines)
		for i, h := range f.hits {
			if h >= top {
				f.at = i
				return h, nil
			}
		}
		if len(f.hits) > 0 {
			f.at = 0
			return f.hits[0], nil
		}
		return -1, nil
	}
	f.input, cmd = f.input.Update(msg)
	return -1, cmd
}

// refind finds the query in lines again (they were rebuilt).
func (f *finder) refind(lines []string) {
	f.hits = f.hits[:0]
	if f.query == "" {
		return
	}
	for i, l := range lines {
		if strings.Contains(strings.ToLower(ansi.Strip(l)), f.query) {
			f.hits = append(f.hits, i)
		}
	}
	f.at = clampInt(f.at, 0, max(len(f.hits)-1, 0))
}

// step moves to the next (d = 1) or previous (d = -1) hit and returns its
// line, -1 when there is none.
func (f *finder) step(d int) int {
	if len(f.hits) == 0 {
		return -1
	}
	f.at = (f.at + d + len(f.hits)) % len(f.hits)
	return f.hits[f.at]
}

// clear ends the search.
func (f *finder) clear() { f.query, f.hits = "", nil }

// mark shows line with the query's occurrences marked (the line loses its
// own styling: the match is what matters on it).
func (f *finder) mark(line string, st *Styles) string {
	if f.query == "" {
		return line
	}
	plain := ansi.Strip(line)
	lower := strings.ToLower(plain)
	if !strings.Contains(lower, f.query) || len(lower) != len(plain) {
		return line
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, f.query)
		if i < 0 {
			b.WriteString(plain)
			return b.String()
		}
		b.WriteString(plain[:i])
		b.WriteString(st.Match.Render(plain[i : i+len(f.query)]))
		plain, lower = plain[i+len(f.query):], lower[i+len(f.query):]
	}
}

// status is the search's state for the pane's position: the prompt while
// typing, then which match of how many.
func (f *finder) status() string {
	switch {
	case f.typing:
		return ""
	case f.query == "":
		return ""
	case len(f.hits) == 0:
		return "no " + strconv.Quote(f.query)
	}
	return strconv.Quote(f.query) + " " + strconv.Itoa(f.at+1) + "/" + strconv.Itoa(len(f.hits))
}

// findView shows h lines of lines from top with the matches marked and,
// while the text is typed, the prompt on the first line.
func findView(f *finder, lines []string, top, h int, st *Styles) string {
	var out []string
	if f.typing {
		out = append(out, f.input.View())
		h--
	}
	for i := top; i < len(lines) && i < top+h; i++ {
		out = append(out, f.mark(lines[i], st))
	}
	return strings.Join(out, "\n")
}

// joinNonEmpty joins the parts that are not empty with " · ".
func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " · ")
}
