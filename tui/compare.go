package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/similarity"
)

// compareSplitMin is the least width at which the two tools sit side by
// side; narrower, one goes above the other.
const compareSplitMin = 80

// compareView opens a pair: both tools' texts with the terms they share and
// the terms only one uses marked, the score and the hint.
type compareView struct {
	paneBase
	layerBase

	a, b    *catalog.Tool
	pair    similarity.Pair
	verdict *similarity.PairFinding
	scoring similarity.Scoring
	// probe is the recorded probe's measure of the pair in sentences, ""
	// for none.
	probe string

	lines  []string
	scroll int
	find   finder
}

func newCompareView(keys *KeyMap, styles *Styles, s *snapshot, pr similarity.Pair) *compareView {
	c := &compareView{paneBase: paneBase{keys: keys, styles: styles}, a: s.cat.Tools[pr.I], b: s.cat.Tools[pr.J], pair: pr, verdict: s.verdict(pr), find: newFinder()}
	if s.sim != nil {
		c.scoring = s.sim.Scoring
	}
	return c
}

func (c *compareView) setSize(w, h int) {
	c.w, c.h = w, h
	c.rebuild()
}

func (c *compareView) title() string {
	names := shown(c.a.Name) + " ↔ " + shown(c.b.Name)
	score := " · " + scoreText(c.scoring, c.pair.Similarity)
	affinity, verdict := "", ""
	if c.pair.Affinity != nil {
		affinity = fmt.Sprintf(" · affinity %.2f", *c.pair.Affinity)
	}
	if c.verdict != nil {
		verdict = " · " + verdictText(c.verdict)
	}
	// The verdict ("confusable, accepted") and the score always show:
	// the affinity gives way first, then the names are cut in their
	// middles.
	room := c.w - 3 // the frame's border, its corner rule and the spaces around the title
	if c.w <= 0 || ansi.StringWidth(names+score+affinity+verdict) <= room {
		return names + score + affinity + verdict
	}
	if ansi.StringWidth(names+score+verdict) <= room {
		return names + score + verdict
	}
	return pairNames(shown(c.a.Name), shown(c.b.Name), max(room-ansi.StringWidth(score+verdict), 12)) + score + verdict
}

func (c *compareView) rebuild() {
	defer func() { c.find.refind(c.lines) }()
	c.lines = c.lines[:0]
	if c.w <= 0 {
		return
	}
	colW := c.w
	if c.w >= compareSplitMin {
		colW = (c.w - 3) / 2
	}
	left, right := c.column(c.a, c.b, colW), c.column(c.b, c.a, colW)
	if c.w >= compareSplitMin {
		h := max(len(left), len(right))
		sep := strings.TrimSuffix(strings.Repeat(" │ \n", h), "\n")
		row := lipgloss.JoinHorizontal(lipgloss.Top, fit(strings.Join(left, "\n"), colW, h), c.styles.Muted.Render(sep), fit(strings.Join(right, "\n"), colW, h))
		c.lines = append(c.lines, strings.Split(row, "\n")...)
	} else {
		c.lines = append(append(append(c.lines, left...), ""), right...)
	}
	c.lines = append(c.lines, "")
	if c.probe != "" {
		c.lines = append(c.lines, wrap(shown(oneLine(c.probe)), c.w)...)
	}
	if c.verdict != nil && c.verdict.Suppression != "" {
		c.lines = append(c.lines, c.styles.Muted.Render(clip(shown(oneLine("accepted: "+c.verdict.Suppression)), c.w)))
	}
	if c.verdict != nil {
		c.lines = append(c.lines, wrap(shown(oneLine("hint: "+c.verdict.Hint)), c.w)...)
	} else {
		c.lines = append(c.lines, c.styles.Muted.Render(similarity.LowShown+" at the current thresholds: no verdict, no hint"))
	}
	c.lines = append(c.lines, c.styles.Muted.Render(clip("marks: "+c.styles.Shared.Render("shared term")+" · "+c.styles.Distinct.Render("only this tool's term")+" · esc closes", c.w)))
}

// column is one tool's side: its name and description with terms marked,
// the text the scoring embeds, its parameters and its term lists.
func (c *compareView) column(t, other *catalog.Tool, w int) []string {
	st := c.styles
	own, theirs := similarity.DescriptionTerms(t.Description), similarity.DescriptionTerms(other.Description)
	var out []string
	out = append(out, st.Bold.Render(c.markWords(shown(t.Name), similarity.NameTokens(t.Name), similarity.NameTokens(other.Name))))
	desc := shown(oneLine(t.Description))
	if desc == "" {
		out = append(out, st.Error.Render("no description"))
	} else {
		out = append(out, wrap(c.markWords(desc, own, theirs), w)...)
	}
	text := similarity.AdaptiveText(t)
	if c.scoring == similarity.ScoringCosine {
		text = similarity.CosineText(t)
	}
	out = append(out, "")
	for _, l := range wrap(shown("embedded as: "+oneLine(text)), w) {
		out = append(out, st.Muted.Render(l))
	}
	if props := t.Schema.Get("properties"); props.Is(jsonv.Object) && len(props.Members) > 0 {
		names := make([]string, len(props.Members))
		for i, m := range props.Members {
			names[i] = m.Key
		}
		out = append(out, wrap(shown("parameters: "+strings.Join(names, ", ")), w)...)
	}
	var shared, only []string
	for _, term := range own {
		if slices.Contains(theirs, term) {
			shared = append(shared, term)
		} else {
			only = append(only, term)
		}
	}
	out = append(out, wrap(shown("shared terms: "+listOrNone(shared)), w)...)
	out = append(out, wrap(shown("only here: "+listOrNone(only)), w)...)
	return out
}

func listOrNone(words []string) string {
	if len(words) == 0 {
		return "none"
	}
	return strings.Join(words, ", ")
}

// markWords styles each word of text (a run of ASCII letters, digits and
// `_`, compared in lower case) that is one of own's terms: shared when
// theirs has it too, distinct otherwise.
func (c *compareView) markWords(text string, own, theirs []string) string {
	var b strings.Builder
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		word := text[start:end]
		lower := strings.ToLower(word)
		switch {
		case !slices.Contains(own, lower):
			b.WriteString(word)
		case slices.Contains(theirs, lower):
			b.WriteString(c.styles.Shared.Render(word))
		default:
			b.WriteString(c.styles.Distinct.Render(word))
		}
		start = -1
	}
	for i := 0; i < len(text); i++ {
		ch := text[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		b.WriteByte(ch)
	}
	flush(len(text))
	return b.String()
}

func (c *compareView) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	k := c.keys
	jump := -1
	var cmd tea.Cmd
	switch {
	case c.find.typing:
		jump, cmd = c.find.key(km, c.lines, c.scroll)
	case key.Matches(km, k.Find):
		return c.find.start()
	case key.Matches(km, k.NextMatch) && c.find.active():
		jump = c.find.step(1)
	case key.Matches(km, k.PrevMatch) && c.find.active():
		jump = c.find.step(-1)
	default:
		if d, ok := k.movement(km, c.h, len(c.lines)); ok {
			c.scroll = clampInt(c.scroll+d, 0, max(len(c.lines)-c.h, 0))
		}
	}
	if jump >= 0 {
		c.scroll = clampInt(jump, 0, max(len(c.lines)-1, 0))
	}
	return cmd
}

func (c *compareView) View() string {
	return findView(&c.find, c.lines, c.scroll, c.h, c.styles)
}

func (c *compareView) Keys() []key.Binding {
	k := c.keys
	if c.find.typing {
		return []key.Binding{k.Back}
	}
	return append([]key.Binding{k.Back, k.Accept, k.Undo, k.Find, k.NextMatch, k.PrevMatch}, k.movementKeys()...)
}

func (c *compareView) Typing() bool { return c.find.typing }

func (c *compareView) searching() bool { return c.find.active() }

func (c *compareView) position() string {
	return joinNonEmpty(c.find.status(), viewPosition(c.scroll, c.h, len(c.lines)))
}
