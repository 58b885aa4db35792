package tui

import "github.com/charmbracelet/bubbles/key"

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

	// Pairs pane.
	Scope   key.Binding
	Compare key.Binding

	// Arguments drawer.
	Edit  key.Binding
	Mode  key.Binding
	Clear key.Binding

	// Export prompt.
	FormatJSON     key.Binding
	FormatSARIF    key.Binding
	FormatMarkdown key.Binding
}

// DefaultKeyMap is the explorer's key map.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Quit:      b("q", "quit", "q"),
		ForceQuit: b("ctrl+c", "quit, even while typing", "ctrl+c"),
		Help:      b("?", "help for this pane", "?"),
		NextPane:  b("tab", "next pane", "tab"),
		PrevPane:  b("shift+tab", "previous pane", "shift+tab"),
		GoTools:   b("1", "tools", "1"),
		GoTool:    b("2", "tool", "2"),
		GoPairs:   b("3", "pairs", "3"),
		GoArgs:    b("4", "arguments", "4"),
		Back:      b("esc", "back / stop typing / close", "esc"),

		Filter:    b("/", "filter tools", "/"),
		Arguments: b("a", "arguments drawer", "a"),
		Raise:     b("+", "raise threshold", "+", "="),
		Lower:     b("-", "lower threshold", "-", "_"),
		Widen:     b("]", "widen watch band", "]"),
		Narrow:    b("[", "narrow watch band", "["),
		Scoring:   b("s", "switch scoring", "s"),
		Embedder:  b("m", "switch embedder", "m"),
		Export:    b("e", "export report", "e"),
		Reload:    b("r", "reload catalog", "r"),

		Up:     b("↑/k", "up", "up", "k"),
		Down:   b("↓/j", "down", "down", "j"),
		PgUp:   b("pgup", "page up", "pgup", "ctrl+b"),
		PgDown: b("pgdn", "page down", "pgdown", "ctrl+f", " "),
		Home:   b("home", "first", "home"),
		End:    b("end", "last", "end", "G"),

		Sort: b("o", "sort: name / findings / confusable", "o"),
		Open: b("enter", "show the tool", "enter"),

		NextSection: b("→/l", "next section", "right", "l"),
		PrevSection: b("←/h", "previous section", "left", "h"),
		Why:         b("w", "why: the rule's teaching text", "w"),

		Scope:   b("g", "neighbours / global ranking", "g"),
		Compare: b("enter", "compare the pair", "enter"),

		Edit:  b("enter/i", "edit arguments", "enter", "i"),
		Mode:  b("v", "mode: enforce / warn / off", "v"),
		Clear: b("x", "clear arguments", "x"),

		FormatJSON:     b("j", "JSON", "j"),
		FormatSARIF:    b("s", "SARIF", "s"),
		FormatMarkdown: b("m", "Markdown", "m"),
	}
}
