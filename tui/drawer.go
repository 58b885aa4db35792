package tui

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"toolscope/core/declare"
	"toolscope/core/jsonv"
	"toolscope/core/validate"
)

// drawerSplitMin is the least width at which the editor and the results
// sit side by side; narrower, the results go under the editor.
const drawerSplitMin = 90

// drawer is the arguments drawer: an editor for a call's arguments as JSON
// and, on every change, what the boundary would say about them.
type drawer struct {
	keys   *KeyMap
	styles *Styles
	w, h   int

	snap    *snapshot
	tool    int
	editor  textarea.Model
	editing bool
	mode    validate.Mode
	// drafts keeps each tool's arguments (by name) while the user looks at
	// another tool.
	drafts map[string]string
	// results caches the rendered verdict for the current text; scroll is
	// the first result line shown.
	results []string
	scroll  int
	// now and zone are what pasted periods are read against.
	now  func() time.Time
	zone *time.Location
}

func newDrawer(keys *KeyMap, styles *Styles, now func() time.Time, zone *time.Location) *drawer {
	ed := textarea.New()
	ed.ShowLineNumbers = false
	ed.Prompt = ""
	ed.Placeholder = "type or paste the arguments as JSON"
	ed.Cursor.SetMode(cursor.CursorStatic)
	ed.FocusedStyle.CursorLine = lipgloss.NewStyle()
	return &drawer{keys: keys, styles: styles, editor: ed, mode: validate.Enforce, drafts: map[string]string{}, tool: -1, now: now, zone: zone}
}

// show follows the selected tool, saving the draft of the one left.
func (d *drawer) show(s *snapshot, tool int) {
	old, name := nameAt(d.snap, d.tool), nameAt(s, tool)
	if old != name {
		if old != "" {
			d.drafts[old] = d.editor.Value()
		}
		d.editor.SetValue(d.drafts[name])
	}
	d.snap, d.tool = s, tool
	d.evaluate()
}

func (d *drawer) setSize(w, h int) {
	d.w, d.h = w, h
	ew, eh := d.editorSize()
	d.editor.SetWidth(max(ew, 1))
	d.editor.SetHeight(max(eh, 1))
	d.evaluate()
}

// split reports whether editor and results sit side by side.
func (d *drawer) split() bool { return d.w >= drawerSplitMin }

// editorSize is the editor's box: a third of the width beside the results,
// or a third of the height above them.
func (d *drawer) editorSize() (w, h int) {
	if d.split() {
		return d.w/3 - 1, d.h
	}
	return d.w, max(d.h/3, 1)
}

func (d *drawer) title() string {
	name := nameAt(d.snap, d.tool)
	if name == "" {
		return "Arguments"
	}
	return "Arguments · " + name + " · " + string(d.mode)
}

func (d *drawer) Typing() bool { return d.editing }

// startEditing focuses the editor.
func (d *drawer) startEditing() tea.Cmd {
	d.editing = true
	return d.editor.Focus()
}

func (d *drawer) Update(msg tea.Msg) tea.Cmd {
	km, ok := msg.(tea.KeyMsg)
	if d.editing {
		if ok && km.Type == tea.KeyEsc {
			d.editing = false
			d.editor.Blur()
			return nil
		}
		before := d.editor.Value()
		var cmd tea.Cmd
		d.editor, cmd = d.editor.Update(msg)
		if d.editor.Value() != before {
			d.evaluate()
		}
		return cmd
	}
	if !ok {
		return nil
	}
	k := d.keys
	switch {
	case key.Matches(km, k.Edit):
		return d.startEditing()
	case key.Matches(km, k.Mode):
		d.mode = nextMode(d.mode)
		d.evaluate()
	case key.Matches(km, k.Clear):
		d.editor.Reset()
		d.evaluate()
	default:
		if n, ok := k.movement(km, d.h, len(d.results)); ok {
			d.scrollBy(n)
		}
	}
	return nil
}

// scrollBy moves the results, which may be longer than the drawer.
func (d *drawer) scrollBy(n int) {
	_, h := d.resultsSize()
	d.scroll = clampInt(d.scroll+n, 0, max(len(d.results)-h, 0))
}

func nextMode(m validate.Mode) validate.Mode {
	for i, x := range validate.Modes {
		if x == m {
			return validate.Modes[(i+1)%len(validate.Modes)]
		}
	}
	return validate.Enforce
}

// evaluate judges the editor's text and renders the verdict.
func (d *drawer) evaluate() {
	defer d.scrollBy(0)
	d.results = d.results[:0]
	name := nameAt(d.snap, d.tool)
	if name == "" {
		return
	}
	w, _ := d.resultsSize()
	tool := d.snap.cat.Tools[d.tool]
	text := d.editor.Value()
	st := d.styles
	add := func(style lipgloss.Style, text string) {
		for _, l := range wrap(text, w) {
			d.results = append(d.results, style.Render(l))
		}
	}
	if strings.TrimSpace(text) == "" {
		add(st.Muted, "No arguments yet: the call would send {}. Type or paste the arguments a model would send, as one JSON object.")
	}
	// Text that is not JSON is a transport failure for the boundary; the
	// author also gets the line and column (the text stays as typed).
	args, transport := validate.ParseArguments(text)
	res := validate.Result{Issues: transport}
	if transport == nil {
		res = validate.Validate(args, tool.Schema)
	} else if _, err := jsonv.Parse([]byte(text)); err != nil {
		var se *jsonv.SyntaxError
		if errors.As(err, &se) {
			add(st.Error, "✗ JSON syntax, line "+strconv.Itoa(se.Pos.Line)+" column "+strconv.Itoa(se.Pos.Col)+": "+se.Msg)
		}
	}
	issues := res.Issues
	action := d.mode.Apply(res)
	switch {
	case action == validate.Accepted:
		add(st.OK, "✓ valid: the call runs ("+string(d.mode)+")")
	case action == validate.NotChecked:
		add(st.Muted, "validation off: the call runs unchecked")
	case action == validate.RunsWithWarning:
		add(st.Warn, "~ "+action.String()+": the issues are reported beside the result")
	default:
		add(st.Error, "✗ "+action.String())
	}
	if action != validate.NotChecked {
		for _, is := range issues {
			add(st.Error, "  "+issueLine(is))
			if is.Hint != "" {
				add(st.Muted, "    hint: "+is.Hint)
			}
		}
		for _, warn := range res.Warnings {
			add(st.Warn, "  ~ "+warn)
		}
	}
	d.resolution(add, args, transport != nil)
	if action == validate.Rejected {
		d.results = append(d.results, st.Bold.Render("the model would get:"))
		for _, l := range strings.Split(validate.FormatIssues(tool.Name, issues), "\n") {
			add(st.Muted, "  "+l)
		}
	}
}

// resolution shows how the tool's declarations would resolve the call:
// each ruled argument's fate, the batch of asks, the period and its window
// with advice. Arguments that do not parse have nothing to resolve.
func (d *drawer) resolution(add func(lipgloss.Style, string), args *jsonv.Value, unparsed bool) {
	st := d.styles
	decl := d.snap.decls[d.tool]
	switch {
	case decl.refusal != nil:
		add(st.Error, "declarations refused, so nothing is assumed or asked: "+decl.refusal.Error())
		return
	case decl.rules == nil:
		return
	case unparsed:
		add(st.Muted, "declarations: waiting for arguments that parse")
		return
	}
	tones := map[declare.Tone]lipgloss.Style{declare.ToneInfo: st.Plain, declare.ToneOK: st.OK, declare.ToneAdvice: st.Warn, declare.ToneBad: st.Error}
	for _, l := range declare.Resolve(decl.rules, args, d.now(), d.zone).Lines() {
		add(tones[l.Tone], l.Text)
	}
}

// issueLine is one issue as the drawer lists it.
func issueLine(is validate.Issue) string {
	path := "the arguments"
	if is.Path != "" {
		path = "'" + is.Path + "'"
	}
	if is.Expected == "required" && is.Got == "missing" {
		return "✗ " + path + " is required but missing"
	}
	got := is.Got
	if is.StringShape() {
		got = jsonv.Quote(is.Value) + " (" + is.Got + ")"
	}
	return "✗ " + path + ": expected " + is.Expected + ", got " + got
}

func (d *drawer) resultsSize() (w, h int) {
	ew, eh := d.editorSize()
	if d.split() {
		return max(d.w-ew-3, 1), d.h
	}
	return d.w, max(d.h-eh-1, 0)
}

func (d *drawer) View() string {
	if d.w <= 0 || d.h <= 0 {
		return ""
	}
	ew, eh := d.editorSize()
	rw, rh := d.resultsSize()
	ed := fit(d.editor.View(), ew, eh)
	shown := d.results[min(d.scroll, len(d.results)):]
	res := fit(strings.Join(shown, "\n"), rw, rh)
	if d.split() {
		sep := strings.TrimSuffix(strings.Repeat(" │ \n", d.h), "\n")
		return lipgloss.JoinHorizontal(lipgloss.Top, ed, d.styles.Muted.Render(sep), res)
	}
	return ed + "\n" + d.styles.Muted.Render(strings.Repeat("─", d.w)) + "\n" + res
}

func (d *drawer) Keys() []key.Binding {
	k := d.keys
	if d.editing {
		return []key.Binding{k.Back}
	}
	return append([]key.Binding{k.Edit, k.Mode, k.Clear, k.Arguments}, k.movementKeys()...)
}
