package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
)

// Triage: a pair accepted or a finding ignored, with a reason, written to
// the project config (toolscope.yaml) through its edit API, so lint's gate
// honours it too; the report is then derived again with the new config.

// triageEdit is one change to the config: accept a pair, ignore a finding,
// or undo either.
type triageEdit struct {
	pair bool
	a, b string // the pair's tools
	// tools are the pair's tools as the catalog has them now, for the
	// person's judgment an accept records (nil when unknown).
	tools [2]*catalog.Tool
	// ignore is the entry a finding is ignored by (Reason unset until the
	// prompt gives it); to undo, the config entry that matched it.
	ignore config.Ignore
	undo   bool
}

// what names the edit for the prompt and the status line.
func (e triageEdit) what() string {
	if e.pair {
		return shown(e.a) + " ↔ " + shown(e.b)
	}
	s := shown(e.ignore.Tool)
	if e.ignore.Param != "" {
		s += "." + shown(e.ignore.Param)
	}
	if e.ignore.Rule != "" {
		s = shown(e.ignore.Rule) + " on " + s
	}
	return s
}

// apply makes the edit on c.
func (e triageEdit) apply(c *config.Config, reason string) error {
	g := e.ignore
	switch {
	case e.pair && e.undo:
		return removed(c.RemovePair(e.a, e.b))
	case e.pair:
		return c.AcceptPair(e.a, e.b, reason)
	case e.undo:
		return removed(c.RemoveIgnore(g.Rule, g.Tool, g.Param))
	}
	g.Reason = reason
	return c.IgnoreFinding(g)
}

func removed(ok bool, err error) error {
	if err == nil && !ok {
		return errors.New("the entry is no longer in the file")
	}
	return err
}

// triagePrompt is the footer while a triage is being asked for: the choice
// of a finding when the tool has several, then the reason.
type triagePrompt struct {
	layerBase
	// choices are the findings to pick from with 1-9; nil once picked.
	choices []lint.Finding
	undo    bool
	edit    triageEdit
	reason  textinput.Model
}

// triagedMsg answers a config write: the config as written, or why not.
type triagedMsg struct {
	cfg    *config.Config
	edit   triageEdit
	reason string
	err    error
	// judgments is the judgments file the accept's judgment went to ("" for
	// none); judgmentsErr why it did not.
	judgments    string
	judgmentsErr error
}

// configPath is the file triage writes: the config in force, else the
// one to create; "" when triage is off.
func (m *Model) configPath() string {
	if m.eng.cfg != nil {
		return m.eng.cfg.Path
	}
	return m.opts.ConfigPath
}

// configShown is the config file as the prompt and status line name it:
// relative to the working directory when under it.
func (m *Model) configShown() string { return shownPath(m.configPath()) }

// shownPath is a file's path as the status line names it: relative to the
// working directory when under it.
func shownPath(p string) string {
	if wd, err := os.Getwd(); err == nil && filepath.IsAbs(p) {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			p = rel
		}
	}
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, ".") {
		p = "." + string(filepath.Separator) + p
	}
	return shown(p)
}

// triagePair is the pair the accept and undo keys act on: the comparison's,
// else the pairs pane's selection.
func (m *Model) triagePair() (similarity.Pair, bool) {
	if c := m.compare(); c != nil {
		return c.pair, true
	}
	if m.focus == panePairs {
		return m.pairs.selected()
	}
	return similarity.Pair{}, false
}

// triageFindings are the selected tool's findings the ignore key
// (ignored false) or the undo key (ignored true) can act on.
func (m *Model) triageFindings(ignored bool) []lint.Finding {
	t := m.tools.selectedTool()
	if m.compare() != nil || m.focus != paneTool || t < 0 || t >= len(m.snap.byTool) {
		return nil
	}
	var out []lint.Finding
	for _, f := range m.snap.byTool[t] {
		if (f.Suppression != "") == ignored {
			out = append(out, f)
		}
	}
	return out
}

// enableTriageKeys turns on the triage keys that can act now.
func (m *Model) enableTriageKeys() {
	k := &m.keys
	on := m.configPath() != ""
	pr, paired := m.triagePair()
	v := m.snap.verdict(pr)
	k.Accept.SetEnabled(on && paired && v != nil)
	k.Ignore.SetEnabled(on && len(m.triageFindings(false)) > 0)
	k.Undo.SetEnabled(on && (paired && v != nil && v.Suppression != "" || len(m.triageFindings(true)) > 0))
	k.HideTriaged.SetEnabled(m.eng.cfg != nil)
}

// acceptOff says why A does nothing here: no file to write to, no pair,
// or a pair without a verdict.
func (m *Model) acceptOff() string {
	pr, paired := m.triagePair()
	switch {
	case m.configPath() == "":
		return "triage is off here: no toolscope.yaml to write to (the demo, or --no-config)"
	case !paired:
		return "no pair selected: A accepts the pair under the cursor"
	}
	return shown(pr.A) + " ↔ " + shown(pr.B) + " is " + similarity.LowShown + ": only a confusable or review pair can be accepted"
}

// triageKey starts a triage from the accept, ignore or undo key.
func (m *Model) triageKey(msg tea.KeyMsg) tea.Cmd {
	k := &m.keys
	if m.writingConfig {
		m.notice = "still writing " + m.configShown()
		return nil
	}
	undo := key.Matches(msg, k.Undo)
	if pr, ok := m.triagePair(); ok {
		v := m.snap.verdict(pr)
		switch {
		case v == nil:
			m.notice = shown(pr.A) + " ↔ " + shown(pr.B) + " is " + similarity.LowShown + ": nothing to accept"
			return nil
		case undo && v.Suppression == "":
			m.notice = shown(pr.A) + " ↔ " + shown(pr.B) + " is not accepted"
			return nil
		case undo:
			for _, a := range m.eng.cfg.AcceptedPairs {
				if a.Matches(pr.A, pr.B) {
					return m.confirmUndo(triageEdit{pair: true, a: a.A, b: a.B, tools: m.pairTools(pr), undo: true})
				}
			}
			return nil
		}
		return m.askReason(triageEdit{pair: true, a: pr.A, b: pr.B, tools: m.pairTools(pr)}, v.Suppression)
	}
	fs := m.triageFindings(undo)
	switch {
	case len(fs) == 0:
		return nil
	case len(fs) > 1:
		m.push(&triagePrompt{choices: fs, undo: undo})
		return nil
	}
	return m.pickFinding(fs[0], undo)
}

// pairTools are the pair's two tools in the catalog shown, when its
// indices still name them.
func (m *Model) pairTools(pr similarity.Pair) [2]*catalog.Tool {
	ts := m.snap.cat.Tools
	if pr.I < 0 || pr.J < 0 || pr.I >= len(ts) || pr.J >= len(ts) || ts[pr.I].Name != pr.A || ts[pr.J].Name != pr.B {
		return [2]*catalog.Tool{}
	}
	return [2]*catalog.Tool{ts[pr.I], ts[pr.J]}
}

// pickFinding goes on with the finding chosen: the reason for an ignore,
// the question for an undo.
func (m *Model) pickFinding(f lint.Finding, undo bool) tea.Cmd {
	m.pop(m.triage())
	if !undo {
		return m.askReason(triageEdit{ignore: config.Ignore{Rule: f.Rule, Tool: config.ToolPattern(f.Tool), Param: f.Param}}, "")
	}
	for _, g := range m.eng.cfg.Ignores {
		// The first entry that matches is the one lint applied.
		if g.Matches(f) {
			return m.confirmUndo(triageEdit{ignore: g, undo: true})
		}
	}
	return nil
}

// confirmUndo asks before removing an entry from the config.
func (m *Model) confirmUndo(e triageEdit) tea.Cmd {
	verb := "un-ignore "
	if e.pair {
		verb = "un-accept "
	}
	m.ask(verb+e.what()+" in "+m.configShown()+"?", func() tea.Cmd { return m.writeConfig(e, "") })
	return nil
}

// askReason opens the reason prompt, prefilled with the reason given
// before (a pair accepted already, or a write that failed).
func (m *Model) askReason(e triageEdit, reason string) tea.Cmd {
	if m.triageDraft != "" && m.triageDraftFor == e.what() {
		reason = m.triageDraft
	}
	in := textinput.New()
	in.Prompt = ""
	in.Placeholder = "the reason"
	in.SetValue(termsafe.Line(reason)) // escaped, as the field would drop an ESC silently
	in.CursorEnd()
	cmd := in.Focus()
	m.push(&triagePrompt{edit: e, reason: in})
	return cmd
}

// triagePromptKey takes a key while the triage prompt is up: a finding's
// number, then the reason; enter writes, esc cancels.
func (m *Model) triagePromptKey(msg tea.KeyMsg) tea.Cmd {
	t := m.triage()
	if msg.Type == tea.KeyEsc {
		m.pop(t)
		return nil
	}
	if t.choices != nil {
		if n, err := strconv.Atoi(msg.String()); err == nil && n >= 1 && n <= min(len(t.choices), 9) {
			return m.pickFinding(t.choices[n-1], t.undo)
		}
		return nil
	}
	if msg.Type == tea.KeyEnter {
		reason := strings.TrimSpace(t.reason.Value())
		if reason == "" {
			m.notice = "a reason is required"
			return nil
		}
		m.pop(t)
		return m.writeConfig(t.edit, reason)
	}
	var cmd tea.Cmd
	t.reason, cmd = t.reason.Update(msg)
	return cmd
}

// triagePromptText is the footer's triage prompt in w cells: the findings
// to pick from, or the reason's field, with the keys kept in view.
func (m *Model) triagePromptText(w int) string {
	t := m.triage()
	if t.choices == nil {
		before, after := m.triageReasonParts()
		return promptLine(before, &t.reason, after, w)
	}
	verb := "ignore"
	if t.undo {
		verb = "un-ignore"
	}
	choices := t.choices[:min(len(t.choices), 9)]
	heads := make([]string, len(choices))
	for i, f := range choices {
		heads[i] = shown(findingHead(f))
	}
	items := []string{verb + " which finding of " + shown(nameAt(m.snap, m.tools.selectedTool())) + "?"}
	for i, h := range heads {
		items = append(items, strconv.Itoa(i+1)+" "+h)
	}
	if full := strings.Join(append(items, "esc cancel"), " · "); ansi.StringWidth(full) <= w {
		return full
	}
	// Short of room the numbers stand alone: the Tool pane shows them
	// beside the findings while the prompt is up.
	return clip(verb+" which finding? 1-"+strconv.Itoa(len(heads))+", numbered in the Tool pane · esc cancel", w)
}

// triageReasonParts are the words around the reason's field.
func (m *Model) triageReasonParts() (before, after string) {
	verb := "ignore "
	if m.triage().edit.pair {
		verb = "accept "
	}
	where := m.configShown()
	if _, err := os.Stat(m.configPath()); m.eng.cfg == nil && errors.Is(err, fs.ErrNotExist) {
		// Not there yet: the write creates it. A file made since the
		// explorer started is edited, and not called new.
		// It then applies to every catalog under its folder: lint finds
		// toolscope.yaml from a catalog's directory upward.
		dir := shownPath(filepath.Dir(m.configPath()))
		where += " (new: it applies to every catalog under " + strings.TrimSuffix(dir, string(filepath.Separator)) + string(filepath.Separator) + ")"
	}
	return verb + m.triage().edit.what() + " in " + where + ", because: ", " · enter write · esc cancel"
}

// writeConfig makes the edit on the config file in the background: read
// again (so edits made meanwhile in an editor are kept), changed through
// the config's edit API (comments kept), saved whole or not at all.
func (m *Model) writeConfig(e triageEdit, reason string) tea.Cmd {
	path := m.configPath()
	m.writingConfig = true
	record := m.opts.RecordAccept
	return safe("config", func() tea.Msg {
		// Under the file's lock: another explorer or an editor saving at
		// the same moment keeps its entries.
		c, err := config.Update(path, !e.undo, func(c *config.Config) error { return e.apply(c, reason) })
		if err != nil {
			return triagedMsg{edit: e, reason: reason, err: err}
		}
		msg := triagedMsg{cfg: c, edit: e, reason: reason}
		if e.pair && record != nil && e.tools[0] != nil && e.tools[1] != nil {
			// The accept is a person's judgment too, kept with the pair's
			// texts: a later change to either tool makes it stale.
			msg.judgments, msg.judgmentsErr = record(c.Path, e.tools[0], e.tools[1], reason, e.undo)
		}
		return msg
	})
}

// triaged takes a config write: on success the new config judges the
// report again, so the gate follows; on failure the config in force and
// the reason typed are kept, and the banner says why.
func (m *Model) triaged(msg triagedMsg) {
	m.writingConfig = false
	if msg.err != nil {
		m.triageDraft, m.triageDraftFor = msg.reason, msg.edit.what()
		m.fail("config", fmt.Errorf("not written: %w", msg.err))
		return
	}
	m.triageDraft, m.triageDraftFor = "", ""
	delete(m.problems, "config")
	m.eng.cfg = msg.cfg
	m.setSnapshot(m.snap)
	if c := m.compare(); c != nil {
		c.verdict = m.snap.verdict(c.pair)
		c.rebuild()
	}
	verb := "ignored "
	switch {
	case msg.edit.pair && msg.edit.undo:
		verb = "un-accepted "
	case msg.edit.pair:
		verb = "accepted "
	case msg.edit.undo:
		verb = "un-ignored "
	}
	m.notice = verb + msg.edit.what() + " in " + m.configShown()
	switch {
	case msg.judgmentsErr != nil:
		m.fail("judgments", fmt.Errorf("%s in %s, but the person's judgment was not recorded: %w", strings.TrimSpace(verb)+" "+msg.edit.what(), m.configShown(), msg.judgmentsErr))
	case msg.judgments != "":
		// Named short: it sits beside the config, as lint looks for it.
		delete(m.problems, "judgments")
		file := shownPath(msg.judgments)
		if filepath.Dir(msg.judgments) == filepath.Dir(m.configPath()) {
			file = filepath.Base(msg.judgments)
		}
		m.notice += " + " + file
	}
}

// toggleTriaged hides or shows what the config accepted, in the Tool and
// Pairs panes.
func (m *Model) toggleTriaged() {
	m.hideTriaged = !m.hideTriaged
	m.tool.hideTriaged, m.pairs.hideTriaged = m.hideTriaged, m.hideTriaged
	m.selectionChanged()
	m.notice = "accepted and ignored results shown"
	if m.hideTriaged {
		m.notice = "accepted and ignored results hidden"
	}
}

// noConfigWhy says why there is nothing for H to hide: no config read,
// and whether triage could write one.
func (m *Model) noConfigWhy() string {
	if m.configPath() == "" {
		return "none is read here (the demo, or --no-config)"
	}
	return "there is none yet (A accepts a pair, I ignores a finding, and either writes " + m.configShown() + ")"
}
