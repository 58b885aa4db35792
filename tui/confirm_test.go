package tui

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/live"
)

// In every question ctrl+c and esc say no, like n; only y says yes. A
// question with a word to type says yes only to that word and enter.
func TestPromptsCtrlCAndEscSayNo(t *testing.T) {
	tests := []struct {
		name  string
		typed string // the word to type; "" for a y/n question
		keys  []string
		yes   bool
	}{
		{"y", "", []string{"y"}, true},
		{"n", "", []string{"n"}, false},
		{"esc", "", []string{"esc"}, false},
		{"ctrl+c", "", []string{"ctrl+c"}, false},
		{"typed word and enter", "drop_db", []string{"d", "r", "o", "p", "_", "d", "b", "enter"}, true},
		{"y at a typed question", "drop_db", []string{"y", "enter"}, false},
		{"a wrong word", "drop_db", []string{"d", "r", "o", "p", "enter"}, false},
		{"backspace fixes a typo", "drop_db", []string{"d", "r", "x", "backspace", "o", "p", "_", "d", "b", "enter"}, true},
		{"ctrl+c after the word", "drop_db", []string{"d", "r", "o", "p", "_", "d", "b", "ctrl+c"}, false},
		{"esc after the word", "drop_db", []string{"d", "r", "o", "p", "_", "d", "b", "esc"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newTestModel(t, 120, 30)
			said := false
			yes := func() tea.Cmd { said = true; return nil }
			if tt.typed == "" {
				m.ask("do it?", yes)
			} else {
				m.askTyped("type drop_db to do it", tt.typed, yes)
			}
			press(m, tt.keys...)
			if said != tt.yes {
				t.Errorf("%v: yes ran %v, want %v", tt.keys, said, tt.yes)
			}
			if m.asking() != nil {
				t.Errorf("%v: the question is still open", tt.keys)
			}
			if m.quitting {
				t.Errorf("%v: the explorer quits", tt.keys)
			}
		})
	}
}

// A live call of a tool that may destroy something, or does not say,
// asks for the tool's name; one that says it reads only, or is not
// destructive, asks y/n. ctrl+c or esc at either question make no call.
func TestLiveCallOfADestructiveToolNeedsTheNameTyped(t *testing.T) {
	tests := []struct {
		annotations string
		typed       bool
	}{
		{``, true},
		{`, "annotations": {}`, true},
		{`, "annotations": {"destructiveHint": true}`, true},
		{`, "annotations": {"destructiveHint": "false"}`, true},
		{`, "annotations": {"readOnlyHint": false}`, true},
		{`, "annotations": {"readOnlyHint": true}`, false},
		{`, "annotations": {"destructiveHint": false}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.annotations, func(t *testing.T) {
			cat, err := catalog.Parse("t.json", []byte(`[
			 {"name": "delete_thing", "description": "Delete one thing by its id."`+tt.annotations+`},
			 {"name": "list_things", "description": "List the things there are."}]`))
			if err != nil {
				t.Fatal(err)
			}
			var calls []string
			opts := mockOptions(t)
			opts.Catalog = cat
			opts.Call = func(_ context.Context, tool *catalog.Tool, args json.RawMessage) (live.CallResult, error) {
				calls = append(calls, tool.Name+" "+string(args))
				return live.CallResult{Text: "done"}, nil
			}
			m := scoredModel(t, opts, 160, 45)
			run := func(keys ...string) {
				t.Helper()
				press(m, "4")
				m.drawer.editor.SetValue(`{"id":"prod-db-1"}`)
				press(m, "C")
				if m.asking() == nil {
					t.Fatalf("C did not ask: %q", footerLine(m))
				}
				if got := m.asking().confirm != ""; got != tt.typed {
					t.Fatalf("the question asks for the name typed: %v, want %v (%q)", got, tt.typed, footerLine(m))
				}
				for _, k := range keys {
					if cmd := press(m, k); cmd != nil {
						m.Update(cmd())
					}
				}
			}
			for _, no := range []string{"ctrl+c", "esc"} {
				run(no)
				if len(calls) != 0 || m.quitting {
					t.Fatalf("%s: calls %q, quitting %v", no, calls, m.quitting)
				}
			}
			if tt.typed {
				run("y", "enter")
				if len(calls) != 0 {
					t.Fatalf("y called a destructive tool: %q", calls)
				}
				run(append(strings.Split("delete_thing", ""), "enter")...)
			} else {
				run("y")
			}
			if len(calls) != 1 || calls[0] != `delete_thing {"id":"prod-db-1"}` {
				t.Errorf("calls %q", calls)
			}
		})
	}
}

// ctrl+c or esc at the undo question leaves the config as it was.
func TestUndoQuestionCtrlCKeepsTheConfig(t *testing.T) {
	for _, no := range []string{"ctrl+c", "esc"} {
		opts, _ := triageFixture(t, false)
		m := scoredModel(t, opts, 160, 45)
		selectPair(t, m, "get_volume_status", "hist_volume_status")
		press(m, "A")
		triage(m, "only the audit agent")
		before, err := os.ReadFile(opts.ConfigPath)
		if err != nil || !strings.Contains(string(before), "only the audit agent") {
			t.Fatalf("the accept was not written: %v\n%s", err, before)
		}
		press(m, "U")
		if m.asking() == nil {
			t.Fatalf("U did not ask: %q", footerLine(m))
		}
		drain(m, press(m, no))
		if after, _ := os.ReadFile(opts.ConfigPath); string(after) != string(before) || m.quitting {
			t.Errorf("%s at the undo question: quitting %v, config\n%s", no, m.quitting, after)
		}
	}
}
