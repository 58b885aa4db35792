package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// sortMode orders the tool list.
type sortMode int

const (
	sortFile       sortMode = iota // as the catalog lists them
	sortName                       // by name
	sortFindings                   // failing results (errors, confusable pairs), then warnings, then review pairs, most first
	sortConfusable                 // confusable pairs, then watch, then best score
	sortServer                     // grouped by server (a merged catalog only), the most confusable first in each
	sortModes
)

var sortNames = [...]string{"file order", "name", "findings", "confusable", "server"}

func (s sortMode) String() string { return sortNames[s] }

// toolList is the tool list pane: every tool with its badges, a fuzzy
// filter and a sort order.
type toolList struct {
	paneBase

	snap   *snapshot
	sort   sortMode
	filter textinput.Model
	typing bool
	// last is the query the latest / replaced: ↑ in an empty filter
	// brings it back.
	last string
	// shownTools marks the tools the filter keeps (by catalog index), nil
	// when there is no filter; the ranking follows it.
	shownTools []bool
	// rows are the tools shown, in order, with the filter's matched byte
	// offsets in each name.
	rows   []listRow
	cursor int
	offset int
	// nameWidth is the widest name, where descriptions start.
	nameWidth int
	// catalog are the catalog-wide findings' lines (catalogLines).
	catalog []string
}

type listRow struct {
	tool    int
	matched []int
	// via says where the filter matched when not in the name: the
	// description or a parameter.
	via string
}

func newToolList(keys *KeyMap, styles *Styles) *toolList {
	ti := textinput.New()
	ti.Prompt = "/ "
	ti.Placeholder = "filter"
	return &toolList{paneBase: paneBase{keys: keys, styles: styles}, filter: ti}
}

// setSnapshot shows a new catalog, keeping the selected tool when it is
// still there (by name, since a reload renumbers).
func (l *toolList) setSnapshot(s *snapshot) {
	keep := ""
	if t := l.selectedTool(); t >= 0 {
		keep = l.snap.cat.Tools[t].Name
	}
	l.snap = s
	l.findCatalogLines()
	l.nameWidth = 0
	for _, t := range s.cat.Tools {
		l.nameWidth = max(l.nameWidth, ansi.StringWidth(shown(t.Name)))
	}
	l.refresh()
	if keep != "" {
		l.selectWhere(func(t int) bool { return l.snap.cat.Tools[t].Name == keep })
	}
}

// selectedTool is the catalog index of the tool under the cursor, or -1.
func (l *toolList) selectedTool() int {
	if l.cursor < 0 || l.cursor >= len(l.rows) {
		return -1
	}
	return l.rows[l.cursor].tool
}

// selectWhere moves the cursor to the first row whose tool is wanted.
func (l *toolList) selectWhere(wanted func(tool int) bool) {
	for i, r := range l.rows {
		if wanted(r.tool) {
			l.cursor = i
			l.scroll()
			return
		}
	}
}

// refresh rebuilds the rows from the snapshot, the sort and the filter.
func (l *toolList) refresh() {
	l.rows = l.rows[:0]
	if l.snap == nil {
		return
	}
	order := l.sorted()
	l.shownTools = nil
	if words := strings.Fields(l.filter.Value()); len(words) > 0 {
		l.rows = filterRows(l.snap.cat.Tools, order, words, l.rows)
		l.shownTools = make([]bool, len(l.snap.cat.Tools))
		for _, r := range l.rows {
			l.shownTools[r.tool] = true
		}
	} else {
		for _, t := range order {
			l.rows = append(l.rows, listRow{tool: t})
		}
	}
	l.cursor = clampInt(l.cursor, 0, max(len(l.rows)-1, 0))
	l.scroll()
}

// filterRows keeps the tools (in order) that every word of the query
// matches, as fzf does: a word matches a name fuzzily, or a description or
// parameter when it is in it. Tools whose name every word matches come
// first, best first (equal scores keep order); then the others, each
// saying where its first word not in the name was found.
func filterRows(tools []*catalog.Tool, order []int, words []string, rows []listRow) []listRow {
	names := make([]string, len(order))
	for i, t := range order {
		names[i] = shown(tools[t].Name)
	}
	type hit struct {
		score   int
		matched []int
		inName  int
	}
	hits := make([]hit, len(order))
	for _, w := range words {
		for _, m := range fuzzy.Find(w, names) {
			h := &hits[m.Index]
			h.score += m.Score
			h.inName++
			h.matched = append(h.matched, m.MatchedIndexes...)
		}
	}
	var byName, byText []listRow
	var scores []int
	for i, t := range order {
		h := hits[i]
		if h.inName == len(words) {
			slices.Sort(h.matched)
			byName = append(byName, listRow{tool: t, matched: slices.Compact(h.matched)})
			scores = append(scores, h.score)
			continue
		}
		via, ok := "", true
		for _, w := range words {
			if fuzzy.Find(w, names[i:i+1]) != nil {
				continue
			}
			where := textMatch(tools[t], strings.ToLower(w))
			if where == "" {
				ok = false
				break
			}
			if via == "" {
				via = where
			}
		}
		if ok {
			byText = append(byText, listRow{tool: t, via: via})
		}
	}
	idx := make([]int, len(byName))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return scores[b] - scores[a] })
	rows = rows[:0]
	for _, i := range idx {
		rows = append(rows, byName[i])
	}
	return append(rows, byText...)
}

func (l *toolList) sorted() []int {
	tools := l.snap.cat.Tools
	order := make([]int, len(tools))
	for i := range order {
		order[i] = i
	}
	info := l.snap.tools
	byName := func(a, b int) int { return cmp.Compare(tools[a].Name, tools[b].Name) }
	switch l.sort {
	case sortName:
		slices.SortStableFunc(order, byName)
	case sortFindings:
		// What fails the gate first: errors and confusable pairs alike,
		// then warnings, then review pairs.
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(info[b].errors+info[b].confusable, info[a].errors+info[a].confusable),
				cmp.Compare(info[b].warnings, info[a].warnings), cmp.Compare(info[b].watch, info[a].watch))
		})
	case sortConfusable:
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(info[b].confusable, info[a].confusable), cmp.Compare(info[b].watch, info[a].watch), cmp.Compare(info[b].best, info[a].best))
		})
	case sortServer:
		// Servers in the order the catalog first lists them.
		rank := map[string]int{}
		for _, t := range tools {
			if _, ok := rank[t.Server]; !ok {
				rank[t.Server] = len(rank)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(rank[tools[a].Server], rank[tools[b].Server]),
				cmp.Compare(info[b].confusable, info[a].confusable), cmp.Compare(info[b].watch, info[a].watch), cmp.Compare(info[b].best, info[a].best))
		})
	}
	return order
}

// merged reports whether the catalog's tools come from several servers.
func (l *toolList) merged() bool {
	if l.snap == nil || len(l.snap.cat.Tools) == 0 {
		return false
	}
	first := l.snap.cat.Tools[0].Server
	for _, t := range l.snap.cat.Tools {
		if t.Server != first {
			return true
		}
	}
	return false
}

func (l *toolList) setSize(w, h int) {
	l.w, l.h = w, h
	l.findCatalogLines()
	l.filter.Width = max(w-4, 1)
	l.scroll()
}

// listHeight is how many rows fit under the filter line.
func (l *toolList) listHeight() int { return max(l.h-1-len(l.catalog), 1) }

// catalogLines are the findings about the whole catalog (too many tools),
// each on a line of its own above the tools: reported on whichever tool
// crosses the limit, they are no one tool's news. None on a pane too short
// to keep a row of tools besides. They are kept in l.catalog until the
// snapshot or the size changes.
func (l *toolList) catalogLines() []string { return l.catalog }

func (l *toolList) findCatalogLines() {
	l.catalog = nil
	if l.snap == nil || l.h < 4 {
		return
	}
	var out []string
	for _, f := range l.snap.report.Structural {
		if lint.FindingKey(f) != f.Rule {
			continue
		}
		mark, style := "~ ", l.styles.Warn
		if f.Severity == lint.SeverityError {
			mark, style = "✗ ", l.styles.Error
		}
		// Wrapped, at most three lines: the count is the point.
		lines := wrap(mark+"catalog, "+f.Rule+": "+shown(oneLine(f.Message)), max(l.w, 1))
		if len(lines) > 3 {
			lines = append(lines[:2], clip(lines[2]+"…", l.w))
		}
		for _, line := range lines {
			out = append(out, style.Render(line))
		}
	}
	l.catalog = out
}

func (l *toolList) scroll() {
	n := l.listHeight()
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+n {
		l.offset = l.cursor - n + 1
	}
	l.offset = clampInt(l.offset, 0, max(len(l.rows)-n, 0))
}

// Typing reports whether keys go to the filter.
func (l *toolList) Typing() bool { return l.typing }

// Update handles a key for the list; the root has already taken the
// global ones.
func (l *toolList) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		if l.typing {
			var cmd tea.Cmd
			l.filter, cmd = l.filter.Update(msg)
			return cmd
		}
		return nil
	}
	if l.typing {
		switch km.Type {
		case tea.KeyEsc:
			l.typing = false
			l.filter.Blur()
			l.clearFilter()
			return nil
		case tea.KeyUp:
			if l.filter.Value() == "" && l.last != "" {
				// The query the / replaced, one key away.
				l.filter.SetValue(l.last)
				l.filter.CursorEnd()
				l.cursor = 0
				l.refresh()
				return nil
			}
			l.typing = false
			l.filter.Blur()
		case tea.KeyEnter, tea.KeyDown:
			l.typing = false
			l.filter.Blur()
			if km.Type == tea.KeyEnter {
				return nil
			}
		default:
			before := l.filter.Value()
			var cmd tea.Cmd
			l.filter, cmd = l.filter.Update(msg)
			if l.filter.Value() != before {
				l.cursor = 0
				l.refresh()
			}
			return cmd
		}
	}
	k := l.keys
	switch {
	case key.Matches(km, k.Filter):
		// A new filter starts empty; the old query is ↑ away.
		if q := l.filter.Value(); q != "" {
			l.last = q
			l.clearFilter()
		}
		l.filter.Placeholder = "filter"
		if l.last != "" {
			l.filter.Placeholder = "filter (↑ " + shown(l.last) + ")"
		}
		l.typing = true
		return l.filter.Focus()
	case key.Matches(km, k.Back) && l.filter.Value() != "":
		l.clearFilter()
	case key.Matches(km, k.Sort):
		l.sort = (l.sort + 1) % sortModes
		if l.sort == sortServer && !l.merged() {
			l.sort = sortFile
		}
		keep := l.selectedTool()
		l.refresh()
		l.selectWhere(func(t int) bool { return t == keep })
	default:
		if d, ok := k.movement(km, l.listHeight(), len(l.rows)); ok {
			l.move(d)
		}
	}
	return nil
}

// clearFilter shows every tool again, the one selected still selected.
func (l *toolList) clearFilter() {
	keep := l.selectedTool()
	l.filter.SetValue("")
	l.refresh()
	l.selectWhere(func(t int) bool { return t == keep })
}

func (l *toolList) move(d int) {
	l.cursor = clampInt(l.cursor+d, 0, max(len(l.rows)-1, 0))
	l.scroll()
}

// title is the pane's frame title.
func (l *toolList) title() string {
	if l.snap == nil {
		return "Tools"
	}
	t := fmt.Sprintf("Tools %d", len(l.snap.cat.Tools))
	if len(l.rows) != len(l.snap.cat.Tools) {
		t = fmt.Sprintf("Tools %d/%d", len(l.rows), len(l.snap.cat.Tools))
	}
	if l.sort != sortFile {
		t += " · by " + l.sort.String()
	}
	return t
}

// View renders the list's content (the root draws the frame).
func (l *toolList) View() string {
	var b strings.Builder
	switch {
	case l.typing:
		b.WriteString(l.filter.View())
	case l.filter.Value() != "":
		b.WriteString(l.styles.Muted.Render("/ " + l.filter.Value() + "  (esc clears)"))
	default:
		b.WriteString(l.styles.Muted.Render("/ filter · o sort"))
	}
	if l.snap == nil {
		return b.String()
	}
	for _, c := range l.catalogLines() {
		b.WriteString("\n" + c)
	}
	if len(l.rows) == 0 {
		b.WriteString("\n" + l.styles.Muted.Render("no tool matches"))
	}
	end := min(l.offset+l.listHeight(), len(l.rows))
	for i := l.offset; i < end; i++ {
		b.WriteByte('\n')
		b.WriteString(l.row(i))
	}
	return b.String()
}

// describeMin is the least room left after a name for the list to show
// the start of the tool's description beside it (a wide list, as the tab
// of a narrow screen is).
const describeMin = 24

func (l *toolList) row(i int) string {
	r := l.rows[i]
	t := l.snap.cat.Tools[r.tool]
	badges := l.badges(r.tool)
	room := max(l.w-2-ansi.StringWidth(badges)-1, 1)
	marker := "  "
	if i == l.cursor {
		marker = "▸ "
	}
	name := l.highlight(shown(t.Name), r.matched, room)
	used := ansi.StringWidth(name)
	if i == l.cursor {
		name = l.styles.Selected.Render(name)
	}
	if r.via != "" {
		if rest := room - used - 2; rest >= 8 {
			via := clip(r.via, rest)
			name += "  " + l.styles.Muted.Render(via)
			used += 2 + ansi.StringWidth(via)
		}
	} else if rest := room - l.nameWidth - 2; rest >= describeMin && used <= l.nameWidth {
		desc := clip(shown(similarity.FirstSentence(oneLine(t.Description))), rest)
		name += strings.Repeat(" ", l.nameWidth-used+2) + l.styles.Muted.Render(desc)
		used = l.nameWidth + 2 + ansi.StringWidth(desc)
	}
	return marker + name + strings.Repeat(" ", max(room-used, 0)) + " " + badges
}

// highlight marks the filter's matched bytes of name, cut in the middle
// to w cells.
func (l *toolList) highlight(name string, matched []int, w int) string {
	head, tail := middleCut(name, w)
	var b strings.Builder
	next := 0
	for i, r := range name {
		if i >= head && i < tail {
			if i == head {
				b.WriteString("…")
			}
			continue
		}
		for next < len(matched) && matched[next] < i {
			next++
		}
		if next < len(matched) && matched[next] == i {
			b.WriteString(l.styles.Match.Render(string(r)))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// badges is the short mark set after a tool's name: ✗ errors, ~ warnings,
// ⇄ confusable pairs, ? ruled arguments, ⏱ a declared period.
func (l *toolList) badges(tool int) string {
	in := l.snap.tools[tool]
	var parts []string
	if in.errors > 0 {
		parts = append(parts, l.styles.Error.Render(fmt.Sprintf("✗%d", in.errors)))
	}
	if in.warnings > 0 {
		parts = append(parts, l.styles.Warn.Render(fmt.Sprintf("~%d", in.warnings)))
	}
	if in.confusable > 0 {
		parts = append(parts, l.styles.Confusable.Render(fmt.Sprintf("⇄%d", in.confusable)))
	}
	if in.ruled > 0 {
		parts = append(parts, fmt.Sprintf("?%d", in.ruled))
	}
	if in.period {
		parts = append(parts, "⏱")
	}
	return strings.Join(parts, " ")
}

// Keys are the list's own keys, for help and the hint line.
func (l *toolList) Keys() []key.Binding {
	k := l.keys
	if l.typing {
		// Typed keys are the filter's text: o and enter are no keys now.
		return []key.Binding{k.Back}
	}
	return append([]key.Binding{k.Filter, k.Sort, k.Open}, k.movementKeys()...)
}

func (l *toolList) position() string {
	return listPosition(l.cursor, len(l.rows), l.offset, min(l.listHeight(), len(l.rows)-l.offset))
}

// textMatch says where a tool's description or parameters contain lq (in
// lower case): "in the description", "in parameter p", or "".
func textMatch(t *catalog.Tool, lq string) string {
	if strings.Contains(strings.ToLower(t.Description), lq) {
		return "in the description"
	}
	if props := t.Schema.Get("properties"); props.Is(jsonv.Object) {
		for _, m := range props.Members {
			if strings.Contains(strings.ToLower(m.Key), lq) {
				return "in parameter " + shown(m.Key)
			}
			if d, ok := m.Value.Get("description").Str(); ok && strings.Contains(strings.ToLower(d), lq) {
				return "in parameter " + shown(m.Key) + "'s description"
			}
		}
	}
	return ""
}

// jumpFlagged moves the cursor to the next (d = 1) or previous (d = -1)
// tool with findings or confusable pairs, wrapping around; false when
// there is none.
func (l *toolList) jumpFlagged(d int) bool {
	n := len(l.rows)
	for step := 1; step <= n; step++ {
		i := ((l.cursor+d*step)%n + n) % n
		in := l.snap.tools[l.rows[i].tool]
		if in.errors+in.warnings+in.confusable > 0 {
			l.cursor = i
			l.scroll()
			return true
		}
	}
	return false
}

// clickRow selects the tool shown on content row row (the filter line is
// row 0); false when no tool is there.
func (l *toolList) clickRow(row int) bool {
	top := 1 + len(l.catalogLines())
	i := l.offset + row - top
	if row < top || row-top >= l.listHeight() || i >= len(l.rows) {
		return false
	}
	l.cursor = i
	l.scroll()
	return true
}
