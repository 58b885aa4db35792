package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// KeyMap is every key the explorer answers to. Bindings that do nothing in
// the current state are disabled, so help and the hint line show only what
// works now.
type KeyMap struct {
	// Global, except while typing in the filter or the editor.
	Quit      key.Binding
	ForceQuit key.Binding
	Help      key.Binding
	NextPane  key.Binding
	PrevPane  key.Binding
	GoTools   key.Binding
	GoTool    key.Binding
	GoPairs   key.Binding
	GoArgs    key.Binding
	Back      key.Binding

	Filter    key.Binding
	Arguments key.Binding
	Raise     key.Binding
	Lower     key.Binding
	Widen     key.Binding
	Narrow    key.Binding
	Scoring   key.Binding
	Embedder  key.Binding
	Export    key.Binding
	Reload    key.Binding
	Copy      key.Binding
	Zoom      key.Binding
	EditFile  key.Binding
	// HideTriaged hides and shows what the project config accepted.
	HideTriaged key.Binding
	// WhatIf opens the what-if field on the selected tool's description.
	WhatIf key.Binding
	// In the what-if, whose field takes every printable key: edit the
	// catalog file, copy the edited description, start again from the file.
	WhatIfEdit  key.Binding
	WhatIfCopy  key.Binding
	WhatIfReset key.Binding
	WhatIfOther key.Binding
	// WhatIfFix adds the sentence the judge proposed for the tool (the
	// Pairs pane's selected pair's judgment) to the what-if's text.
	WhatIfFix key.Binding

	// Jumps: n and N move between the matches of a search in the Tool
	// pane or the comparison, else between the tools with findings or
	// confusable pairs.
	NextMatch key.Binding
	PrevMatch key.Binding

	// Movement, shared by every list.
	Up     key.Binding
	Down   key.Binding
	PgUp   key.Binding
	PgDown key.Binding
	Home   key.Binding
	End    key.Binding

	// Tool list.
	Sort key.Binding
	Open key.Binding

	// Tool pane.
	NextSection key.Binding
	PrevSection key.Binding
	Why         key.Binding
	Find        key.Binding
	Ignore      key.Binding
	// ApplyFix writes the selected tool's findings' fixes to the catalog
	// file (lint --fix for one tool).
	ApplyFix key.Binding

	// Triage, in the Tool pane and on a pair.
	Undo key.Binding

	// Pairs pane.
	Scope   key.Binding
	Compare key.Binding
	Accept  key.Binding
	// Judge asks the chat model (--judge) about the selected pair.
	Judge key.Binding
	// FixPair tests the judge's sentences for a pair the probe saw
	// confused.
	FixPair key.Binding

	// Arguments drawer.
	Edit     key.Binding
	Skeleton key.Binding
	// ModelArgs loads the model's own arguments from the probe record.
	ModelArgs key.Binding
	CallTool  key.Binding
	Mode      key.Binding
	Clear     key.Binding

	// A question in the footer (quit with argument drafts).
	Yes key.Binding
	No  key.Binding

	// Export prompt.
	FormatJSON     key.Binding
	FormatSARIF    key.Binding
	FormatMarkdown key.Binding
	FormatHTML     key.Binding
}

// DefaultKeyMap is the explorer's key map.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	off := func(b key.Binding) key.Binding {
		b.SetEnabled(false)
		return b
	}
	return KeyMap{
		Quit:      b("q", "quit", "q"),
		ForceQuit: b("ctrl+c", "quit", "ctrl+c"),
		Help:      b("?", "help", "?"),
		NextPane:  b("tab", "pane", "tab"),
		PrevPane:  b("shift+tab", "previous pane", "shift+tab"),
		GoTools:   b("1", "tools", "1"),
		GoTool:    b("2", "detail (the selected tool)", "2"),
		GoPairs:   b("3", "pairs", "3"),
		GoArgs:    b("4", "arguments pane", "4"),
		Back:      b("esc", "back", "esc"),

		Filter:    b("/", "filter", "/"),
		Arguments: b("a", "try a call", "a"),
		Raise:     b("+", "raise threshold", "+", "="),
		Lower:     b("-", "lower threshold", "-", "_"),
		Widen:     b("]", "widen review band", "]"),
		Narrow:    b("[", "narrow review band", "["),
		Scoring:   b("s", "scoring", "s"),
		Embedder:  b("m", "embedder", "m"),
		Export:    b("e", "export", "e"),
		Reload:    b("r", "reload", "r"),
		Copy:      b("c", "copy (tool JSON, hint, model's text)", "c"),
		Zoom:      b("z", "zoom the pane", "z"),
		EditFile:  b("E", "edit the catalog at the tool", "E"),
		WhatIf:    b("d", "what-if: edit the description, see its risk live (nothing written)", "d"),

		WhatIfEdit:  b("ctrl+o", "edit the catalog file at the tool (the draft is kept)", "ctrl+o"),
		WhatIfCopy:  b("ctrl+y", "copy the edited description", "ctrl+y"),
		WhatIfReset: b("ctrl+r", "start again from the file's description (asks first)", "ctrl+r"),
		WhatIfOther: b("ctrl+g", "edit the other tool of the riskiest pair (each keeps its draft)", "ctrl+g"),
		WhatIfFix:   b("ctrl+x", "add the judge's proposed sentence for this tool (the selected pair's judgment)", "ctrl+x"),

		HideTriaged: b("H", "hide/show accepted and ignored", "H"),

		NextMatch: b("n", "next match or flagged tool", "n"),
		PrevMatch: b("N", "previous match or flagged tool", "N"),

		Up:     b("↑/k", "up", "up", "k"),
		Down:   b("↓/j", "down", "down", "j"),
		PgUp:   b("pgup", "page up", "pgup", "ctrl+b"),
		PgDown: b("pgdn", "page down", "pgdown", "ctrl+f", " "),
		Home:   b("home", "first", "home"),
		End:    b("end", "last", "end", "G"),

		Sort: b("o", "sort", "o"),
		Open: b("enter", "open", "enter"),

		NextSection: b("→/l", "next section", "right", "l"),
		PrevSection: b("←/h", "previous section", "left", "h"),
		Why:         b("w", "why", "w"),
		Find:        b("f", "find in the text", "f"),
		Ignore:      b("I", "ignore a finding (toolscope.yaml)", "I"),
		ApplyFix:    b("X", "apply the tool's fixes to the catalog file, as lint --fix (asks first)", "X"),

		Undo: b("U", "undo accept/ignore (toolscope.yaml)", "U"),

		Scope:   b("g", "neighbours/ranking", "g"),
		Compare: b("enter", "compare", "enter"),
		Accept:  b("A", "accept the pair (toolscope.yaml)", "A"),
		Judge:   b("J", "judge the pair with the chat model (cost first)", "J"),
		FixPair: b("F", "fix the confused pair: the judge's sentences tested on the probe's requests (cost first)", "F"),

		Edit:      b("enter/i", "edit", "enter", "i"),
		Skeleton:  b("t", "skeleton of the required arguments", "t"),
		ModelArgs: b("p", "the model's own arguments (probe record)", "p"),
		CallTool:  b("C", "call the tool on the live server", "C"),
		Mode:      b("v", "mode", "v"),
		Clear:     b("x", "clear", "x"),

		// Enabled only while a question is asked.
		Yes: off(b("y", "yes", "y")),
		No:  off(b("n", "no", "n")),

		// Enabled only while the export prompt is up.
		FormatJSON:     off(b("j", "JSON", "j")),
		FormatSARIF:    off(b("s", "SARIF", "s")),
		FormatMarkdown: off(b("m", "Markdown", "m")),
		FormatHTML:     off(b("h", "HTML", "h")),
	}
}

// movement is how far a movement key moves through total lines or rows in
// pages of page; ok is false for any other key. Every list and view moves
// by it.
func (k *KeyMap) movement(msg tea.KeyMsg, page, total int) (delta int, ok bool) {
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PgUp):
		return -page, true
	case key.Matches(msg, k.PgDown):
		return page, true
	case key.Matches(msg, k.Home):
		return -total, true
	case key.Matches(msg, k.End):
		return total, true
	}
	return 0, false
}

// movementKeys are the movement keys, for help.
func (k *KeyMap) movementKeys() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PgUp, k.PgDown, k.Home, k.End}
}
