package tui

import (
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/lint"
)

// stackKinds names the layers on m's stack, bottom first.
func stackKinds(m *Model) string {
	var kinds []string
	for _, l := range m.stack {
		switch l.(type) {
		case *question:
			kinds = append(kinds, "question")
		case *starting:
			kinds = append(kinds, "start")
		case *whatIfView:
			kinds = append(kinds, "what-if")
		case *helpLayer:
			kinds = append(kinds, "help")
		case *exportLayer:
			kinds = append(kinds, "export")
		case *triagePrompt:
			kinds = append(kinds, "triage")
		case *compareView:
			kinds = append(kinds, "compare")
		case *drawerLayer:
			kinds = append(kinds, "drawer")
		}
	}
	return strings.Join(kinds, " ")
}

// stackMsg is the message for a step's key: a key name, a rune, ctrl+r,
// or "paste:" and the text pasted.
func stackMsg(k string) tea.KeyMsg {
	switch {
	case k == "ctrl+r":
		return tea.KeyMsg{Type: tea.KeyCtrlR}
	case strings.HasPrefix(k, "paste:"):
		return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.TrimPrefix(k, "paste:")), Paste: true}
	}
	return keyMsg(k)
}

// stackStep is a key sent through Update, the stack it leaves (bottom
// first) and what else must hold after it.
type stackStep struct {
	key   string
	stack string
	check func(m *Model) string
	// drain runs the key's background work (a what-if's scoring) to
	// its end.
	drain bool
}

// TestLayersStackAndTheTopTakesTheKeys drives Update as a plain function:
// opening a mode pushes its layer, the top layer gets the keys (and only
// ctrl+c goes past a prompt), closing pops it, a key a layer passes goes
// on to the global keys, and typed text is never taken for a command.
func TestLayersStackAndTheTopTakesTheKeys(t *testing.T) {
	quitting := func(want bool) func(*Model) string {
		return func(m *Model) string {
			if m.quitting != want {
				return "quitting is " + map[bool]string{true: "true", false: "false"}[m.quitting]
			}
			return ""
		}
	}
	cases := []struct {
		name  string
		steps []stackStep
	}{
		{"help over a comparison scrolls the help, then each closes in turn", []stackStep{
			{key: "3"}, {key: "enter", stack: "compare"},
			{key: "?", stack: "compare help"},
			{key: "j", stack: "compare help", check: func(m *Model) string {
				if m.help().scroll != 1 || m.compare().scroll != 0 {
					return "j scrolled the comparison, not the help on top"
				}
				return ""
			}},
			{key: "esc", stack: "compare"},
			{key: "esc", stack: ""},
		}},
		{"a key that goes somewhere closes the comparison and goes there", []stackStep{
			{key: "3"}, {key: "enter", stack: "compare"},
			{key: "1", stack: "", check: func(m *Model) string {
				if m.focus != paneTools {
					return "1 did not reach the Tools pane through the comparison"
				}
				return ""
			}},
		}},
		{"the drawer stays under a comparison and closes only when focused", []stackStep{
			{key: "a", stack: "drawer"},
			{key: "esc", stack: "drawer"}, // stops typing
			{key: "3", stack: "drawer"}, {key: "enter", stack: "drawer compare"},
			{key: "esc", stack: "drawer"},
			{key: "esc", stack: "drawer"}, // the Pairs pane has focus
			{key: "4", stack: "drawer"}, {key: "esc", stack: "", check: func(m *Model) string {
				if m.focus != panePairs {
					return "closing the drawer did not give focus back to Pairs"
				}
				return ""
			}},
		}},
		{"the export prompt takes its keys and pops on esc", []stackStep{
			{key: "e", stack: "export"},
			{key: "q", stack: "export", check: quitting(false)},
			{key: "esc", stack: ""},
		}},
		{"a question over the what-if takes the keys, and no pops it", []stackStep{
			{key: "d", stack: "what-if", drain: true},
			{key: "paste: edited", stack: "what-if", drain: true},
			{key: "ctrl+r", stack: "what-if question"},
			{key: "x", stack: "what-if question", check: func(m *Model) string {
				if strings.HasSuffix(m.whatIf().field.Value(), "x") || m.asking().ignored != 1 {
					return "x went past the question into the field"
				}
				return ""
			}},
			{key: "n", stack: "what-if"},
		}},
		{"a typed q and ? in the editor are text", []stackStep{
			{key: "a", stack: "drawer"},
			{key: "q", stack: "drawer", check: quitting(false)},
			{key: "?", stack: "drawer", check: func(m *Model) string {
				if !strings.HasSuffix(m.drawer.editor.Value(), "q?") {
					return "the editor holds " + m.drawer.editor.Value()
				}
				return ""
			}},
			// ctrl+c is global even while typing: the draft makes it ask.
			{key: "ctrl+c", stack: "drawer question", check: quitting(false)},
			{key: "ctrl+c", stack: "drawer", check: quitting(false)},
		}},
		{"a typed q in the filter is text", []stackStep{
			{key: "/"}, {key: "q", stack: "", check: func(m *Model) string {
				if m.quitting || m.tools.filter.Value() != "q" {
					return "q left the filter"
				}
				return ""
			}},
		}},
		{"ctrl+c quits over help", []stackStep{{key: "?", stack: "help"}, {key: "ctrl+c", stack: "help", check: quitting(true)}}},
		{"ctrl+c quits over the export prompt", []stackStep{{key: "e", stack: "export"}, {key: "ctrl+c", stack: "export", check: quitting(true)}}},
		{"ctrl+c quits over a comparison", []stackStep{{key: "3"}, {key: "enter", stack: "compare"}, {key: "ctrl+c", stack: "compare", check: quitting(true)}}},
		{"q over help closes the help only", []stackStep{{key: "?", stack: "help"}, {key: "q", stack: "", check: quitting(false)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := mockOptions(t)
			opts.Export = func(io.Writer, string, *lint.Report, *catalog.Catalog) error { return nil }
			m := scoredModel(t, opts, 160, 20)
			for i, s := range c.steps {
				cmd := send(m, stackMsg(s.key))
				if s.drain {
					drain(m, cmd)
				}
				if got := stackKinds(m); got != s.stack {
					t.Fatalf("step %d (%s): stack %q, want %q", i, s.key, got, s.stack)
				}
				if s.check != nil {
					if msg := s.check(m); msg != "" {
						t.Fatalf("step %d (%s): %s", i, s.key, msg)
					}
				}
			}
		})
	}
}

// TestTheTopLayerDrawsOverTheRest: the body is the topmost layer that
// covers it, the footer the topmost prompt.
func TestTheTopLayerDrawsOverTheRest(t *testing.T) {
	opts := mockOptions(t)
	opts.Export = func(io.Writer, string, *lint.Report, *catalog.Catalog) error { return nil }
	m := scoredModel(t, opts, 160, 30)
	press(m, "3", "enter")
	if got := stackKinds(m); got != "compare" {
		t.Fatalf("stack %q", got)
	}
	compared := m.body()
	press(m, "?")
	if body := m.body(); body == compared || !strings.Contains(body, "Help") {
		t.Error("help on top of the comparison does not draw over it")
	}
	press(m, "esc", "esc", "e")
	if f := footerLine(m); !strings.Contains(f, "export the report as") {
		t.Errorf("the export prompt is not the footer: %q", f)
	}
}
