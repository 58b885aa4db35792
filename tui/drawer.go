package tui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"toolscope/core/catalog"
	"toolscope/core/declare"
	"toolscope/core/jsonv"
	chat "toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/validate"
)

// drawerSplitMin is the least width at which the editor and the results
// sit side by side; narrower, the results go under the editor.
const drawerSplitMin = 90

// drawer is the arguments drawer: an editor for a call's arguments as JSON
// and, on every change, what the boundary would say about them.
type drawer struct {
	paneBase

	snap    *snapshot
	tool    int
	editor  textarea.Model
	editing bool
	mode    validate.Mode
	// drafts keeps each tool's arguments (by name) while the user looks at
	// another tool.
	drafts map[string]string
	// reqID numbers the judgements asked for; job is the latest, until
	// its answer comes. verdict is the last answer, results its rendering
	// for the current width; scroll is the first result line shown.
	reqID     int
	job       *argsJob
	verdict   []verdictLine
	modelText string
	// call is a live call's answer (or its progress) for the current
	// text, shown under the verdict.
	call    []verdictLine
	results []string
	scroll  int
	// now and zone are what pasted periods are read against.
	now  func() time.Time
	zone *time.Location
	// probe is the recorded probe whose calls p loads; loaded is the last
	// call loaded, so that p again moves to the next one.
	probe  *chat.ProbeRecord
	loaded loadedCall
}

// loadedCall is the model's call the editor was last filled with: the
// tool, which of its recorded calls, and the text put in.
type loadedCall struct {
	tool string
	n    int
	text string
}

func newDrawer(keys *KeyMap, styles *Styles, now func() time.Time, zone *time.Location) *drawer {
	ed := textarea.New()
	ed.ShowLineNumbers = false
	ed.Prompt = ""
	ed.Placeholder = "type or paste the arguments as JSON"
	ed.Cursor.SetMode(cursor.CursorStatic)
	ed.FocusedStyle.CursorLine = lipgloss.NewStyle()
	return &drawer{paneBase: paneBase{keys: keys, styles: styles}, editor: ed, mode: validate.Enforce, drafts: map[string]string{}, tool: -1, now: now, zone: zone}
}

// show follows the selected tool, saving the draft of the one left.
func (d *drawer) show(s *snapshot, tool int) {
	old, name := nameAt(d.snap, d.tool), nameAt(s, tool)
	if old != name {
		if old != "" {
			d.drafts[old] = d.editor.Value()
		}
		d.editor.SetValue(d.drafts[name])
		// The last verdict was about another tool.
		d.verdict = []verdictLine{{toneMuted, "judging…"}}
		d.render()
	}
	if s == d.snap && tool == d.tool && d.verdict != nil {
		return
	}
	d.snap, d.tool = s, tool
	d.evaluate()
}

func (d *drawer) setSize(w, h int) {
	d.w, d.h = w, h
	ew, eh := d.editorSize()
	d.editor.SetWidth(max(ew, 1))
	d.editor.SetHeight(max(eh, 1))
	d.render()
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
	t := "Arguments · " + shown(name) + " · " + string(d.mode)
	if d.judging() {
		t += " · judging…"
	}
	return t
}

// draftCount is how many tools have arguments typed, which quitting would
// lose.
func (d *drawer) draftCount() int {
	cur := nameAt(d.snap, d.tool)
	n := 0
	for name, text := range d.drafts {
		if name != cur && strings.TrimSpace(text) != "" {
			n++
		}
	}
	if cur != "" && strings.TrimSpace(d.editor.Value()) != "" {
		n++
	}
	return n
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
	case key.Matches(km, k.Skeleton):
		if strings.TrimSpace(d.editor.Value()) != "" {
			return notify("the editor is not empty: x clears it first")
		}
		d.editor.SetValue(skeleton(d.snap.cat.Tools[d.tool].Schema))
		d.evaluate()
		return d.startEditing()
	case key.Matches(km, k.ModelArgs):
		return d.loadModelArgs()
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

// modelCalls are the recorded probe's calls to the tool that carry
// arguments, in the record's order.
func (d *drawer) modelCalls(name string) []chat.ProbeCase {
	if d.probe == nil {
		return nil
	}
	var out []chat.ProbeCase
	for _, c := range d.probe.Cases {
		if c.Picked == name && c.Arguments != nil {
			out = append(out, c)
		}
	}
	return out
}

// loadModelArgs fills the editor with the arguments the probed model sent
// to the selected tool; pressed again, with its next call. Typed text is
// never replaced.
func (d *drawer) loadModelArgs() tea.Cmd {
	name := nameAt(d.snap, d.tool)
	if name == "" {
		return nil
	}
	if d.probe == nil {
		return notify("no probe record: toolscope probe --record keeps the model's calls")
	}
	calls := d.modelCalls(name)
	if len(calls) == 0 {
		return notify("the probe record has no call to " + shown(name))
	}
	text := d.editor.Value()
	n := 0
	if d.loaded.tool == name && text == d.loaded.text {
		n = (d.loaded.n + 1) % len(calls)
	} else if strings.TrimSpace(text) != "" {
		return notify("the editor is not empty: x clears it first")
	}
	c := calls[n]
	args := c.ArgumentsText()
	if v, err := jsonv.Parse([]byte(args)); err == nil {
		args = v.Indent("  ")
	}
	d.editor.SetValue(args)
	d.loaded = loadedCall{tool: name, n: n, text: d.editor.Value()}
	d.evaluate()
	meant := "meant for " + shown(c.Tool)
	if c.Tool == name {
		meant = "a right pick"
	} else if c.Negative() {
		meant = "meant for no tool"
	}
	return notify(fmt.Sprintf("the model's call %d of %d to %s (%s): %s", n+1, len(calls), shown(name), meant, shown(c.Request)))
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

// tone is how a verdict line is drawn; the background judgement names
// tones, the drawer maps them to styles when it renders.
type tone int

const (
	tonePlain tone = iota
	toneMuted
	toneBold
	toneOK
	toneWarn
	toneError
)

// verdictLine is one line of a judgement, before wrapping and styling.
type verdictLine struct {
	tone tone
	text string
}

// argsJob is a judgement of the editor's text in flight: run computes it
// off the UI goroutine; its reply carries id, and only the latest id is
// taken, so a slow pattern never freezes typing nor overwrites a newer
// verdict.
type argsJob struct {
	id   int
	run  func() tea.Msg
	sent bool
}

// argsJudgedMsg answers an argsJob.
type argsJudgedMsg struct {
	id    int
	lines []verdictLine
	// modelText is what the model would get back instead of a result, ""
	// when the call is not rejected.
	modelText string
}

// evaluate asks for the editor's text to be judged again, in the
// background (the root sends the job's command after the update).
func (d *drawer) evaluate() {
	d.reqID++
	d.call = nil
	name := nameAt(d.snap, d.tool)
	if name == "" {
		d.job = nil
		d.verdict = nil
		d.render()
		return
	}
	id, tool, decl, text, mode, now, zone := d.reqID, d.snap.cat.Tools[d.tool], d.snap.decls[d.tool], d.editor.Value(), d.mode, d.now(), d.zone
	d.job = &argsJob{id: id, run: safeID("arguments", id, func() tea.Msg {
		lines, modelText := judgeArguments(tool, decl, text, mode, now, zone)
		return argsJudgedMsg{id: id, lines: lines, modelText: modelText}
	})}
}

// command hands the pending judgement to the runtime, once.
func (d *drawer) command() tea.Cmd {
	if d.job == nil || d.job.sent {
		return nil
	}
	d.job.sent = true
	return d.job.run
}

// judging reports whether a judgement is still to come.
func (d *drawer) judging() bool { return d.job != nil }

// judged takes a judgement; a stale one (the text, tool or mode changed
// since) is dropped.
func (d *drawer) judged(msg argsJudgedMsg) {
	if d.job == nil || msg.id != d.job.id {
		return
	}
	d.job = nil
	d.verdict, d.modelText = msg.lines, msg.modelText
	d.render()
}

// render wraps and styles the verdict for the results' width.
func (d *drawer) render() {
	defer d.scrollBy(0)
	d.results = d.results[:0]
	w, _ := d.resultsSize()
	st := d.styles
	styles := [...]lipgloss.Style{tonePlain: st.Plain, toneMuted: st.Muted, toneBold: st.Bold, toneOK: st.OK, toneWarn: st.Warn, toneError: st.Error}
	lines := d.verdict
	if len(d.call) > 0 {
		lines = append(append(append([]verdictLine{}, d.verdict...), verdictLine{tonePlain, ""}), d.call...)
	}
	for _, v := range lines {
		for _, l := range wrap(shown(v.text), w) {
			d.results = append(d.results, styles[v.tone].Render(l))
		}
	}
}

// judgeArguments judges a call's arguments text against a tool: the
// boundary's verdict and issues, how the declarations resolve the call,
// and what the model would get back. It reads only what it is given, so it
// runs in the background.
func judgeArguments(tool *catalog.Tool, decl declaration, text string, mode validate.Mode, now time.Time, zone *time.Location) (lines []verdictLine, modelText string) {
	var out []verdictLine
	add := func(t tone, text string) { out = append(out, verdictLine{t, text}) }
	if strings.TrimSpace(text) == "" {
		add(toneMuted, "No arguments yet: the call would send {}. Type or paste the arguments a model would send, as one JSON object.")
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
			add(toneError, "✗ JSON syntax, line "+strconv.Itoa(se.Pos.Line)+" column "+strconv.Itoa(se.Pos.Col)+": "+se.Msg)
		}
	}
	issues := res.Issues
	action := mode.Apply(res)
	verdict := len(out)
	switch {
	case action == validate.Accepted:
		add(toneOK, "✓ valid: the call runs ("+string(mode)+")")
	case action == validate.NotChecked:
		add(toneMuted, "validation off: the call runs unchecked")
	case action == validate.RunsWithWarning:
		add(toneWarn, "~ "+action.String()+": the issues are reported beside the result")
	default:
		add(toneError, "✗ "+action.String())
	}
	if action != validate.NotChecked {
		for _, is := range issues {
			add(toneError, "  "+issueLine(is))
			if is.Hint != "" {
				add(toneMuted, "    hint: "+is.Hint)
			}
			periodAdvice(add, tool, decl, is)
		}
		for _, warn := range res.Warnings {
			add(toneWarn, "  ~ "+warn)
		}
	}
	before := len(out)
	// A required argument the call lacks is rejected before dispatch,
	// which its declaration's "asked before anything runs" would
	// contradict: the declaration's line says what a host does instead.
	missing := map[string]bool{}
	if action == validate.Rejected {
		for _, is := range issues {
			if is.Expected == "required" && is.Got == "missing" && is.Path != "" {
				missing[is.Path] = true
			}
		}
	}
	resolution(add, decl, parsedCall{args: args, unparsed: transport != nil, missing: missing}, now, zone)
	if action == validate.Accepted && refused(out[before:]) {
		// The schema takes the call but a declared value is refused: a
		// green line above a red one would read as a contradiction.
		out[verdict] = verdictLine{toneWarn, "~ the schema accepts the call (" + string(mode) + "), but the declarations refuse a value: see the red line below"}
	}
	if action == validate.Rejected {
		modelText = validate.FormatIssues(tool.Name, issues)
		add(toneBold, "the model would get:")
		for _, l := range strings.Split(modelText, "\n") {
			add(toneMuted, "  "+l)
		}
	}
	return out, modelText
}

// periodAdvice follows an issue on a time or a period the tool declares
// no period for: what the parameter's description says of its format,
// and the declaration that would let toolscope read the window a call
// asks for (the quantity-unit-unstated rule's reading of the parameter).
func periodAdvice(add func(tone, string), tool *catalog.Tool, decl declaration, is validate.Issue) {
	if is.Path == "" || strings.ContainsAny(is.Path, ".[") || is.Got == "missing" || decl.refusal != nil || decl.rules != nil && decl.rules.Period != nil {
		return
	}
	q, ok := lint.TimeArgument(tool.Schema, is.Path)
	if !ok {
		return
	}
	if q.Said != "" {
		add(toneMuted, "    its description says: "+q.Said)
	} else {
		add(toneMuted, "    its description says nothing of the format")
	}
	switch {
	case q.Declaration != "" && q.Unstated:
		// The declaration would assert the unit the text leaves out.
		add(toneMuted, "    no period is declared, and no unit or format is stated: say which first, then declare the period (docs/declarations.md#period)")
	case q.Declaration != "":
		add(toneMuted, "    no period is declared; with "+q.Declaration+" (and an askOrAssume rule for each of its arguments) toolscope reads the window a call asks for")
	}
}

// refused reports whether any line is a refusal.
func refused(lines []verdictLine) bool {
	for _, l := range lines {
		if l.tone == toneError {
			return true
		}
	}
	return false
}

// parsedCall is the call as the drawer read it: the arguments, whether
// they failed to parse, and the required ones missing (by name).
type parsedCall struct {
	args     *jsonv.Value
	unparsed bool
	missing  map[string]bool
}

// resolution shows how the tool's declarations would resolve the call at
// now in zone: each ruled argument's fate, the batch of asks, the period
// and its window with advice. Arguments that do not parse have nothing to
// resolve.
func resolution(add func(tone, string), decl declaration, call parsedCall, now time.Time, zone *time.Location) {
	missing := call.missing
	switch {
	case decl.refusal != nil:
		add(toneError, "declarations refused, so nothing is assumed or asked: "+decl.refusal.Error())
		return
	case decl.rules == nil:
		return
	case call.unparsed:
		add(toneMuted, "declarations: waiting for arguments that parse")
		return
	}
	tones := map[declare.Tone]tone{declare.ToneInfo: tonePlain, declare.ToneOK: toneOK, declare.ToneAdvice: toneWarn, declare.ToneBad: toneError}
	const batch = "asked in one batch, before anything runs: "
	for _, l := range declare.Resolve(decl.rules, call.args, now, zone).Lines() {
		text := l.Text
		if name, rest, ok := strings.Cut(text, ": asked "); ok && missing[name] {
			text = name + ": missing, so this call is rejected; a host that follows the declarations asks for it first, " + rest
		}
		if names, ok := strings.CutPrefix(text, batch); ok && len(missing) > 0 {
			var kept []string
			for _, n := range strings.Split(names, ", ") {
				if !missing[n] {
					kept = append(kept, n)
				}
			}
			if len(kept) == 0 {
				continue
			}
			text = batch + strings.Join(kept, ", ")
		}
		add(tones[l.Tone], text)
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
	ed := fit(fieldView(d.editor.View()), ew, eh)
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
	return append([]key.Binding{k.Edit, k.Skeleton, k.ModelArgs, k.CallTool, k.Mode, k.Clear, k.Arguments}, k.movementKeys()...)
}

func (d *drawer) position() string {
	_, h := d.resultsSize()
	return viewPosition(d.scroll, h, len(d.results))
}

// setCall shows a live call's progress or answer under the verdict.
func (d *drawer) setCall(lines []verdictLine) {
	d.call = lines
	d.render()
}
