//go:build unix

package cli

import (
	"strings"
	"testing"
)

// promptText is the screen's last lines from the one holding from,
// joined as one line: a prompt wrapped over several.
func promptText(screen, from string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], from) {
			var parts []string
			for _, l := range lines[i:] {
				parts = append(parts, strings.TrimSpace(l))
			}
			return strings.Join(parts, " ")
		}
	}
	return ""
}

// On an 80-column terminal: ctrl+r's question in the what-if takes only
// y and n (esc): typed text neither answers it nor reaches the field, and
// the question says it waits and how many keys went nowhere; a question
// longer than the line wraps between words, never cut in one.
func TestExplorerQuestionTakesOnlyItsAnswers(t *testing.T) {
	tm := startTerm(t, runOpts{w: 80, h: 24, args: []string{"--embedder", "mock", copyDemo(t)}})
	tm.waitScored("mock risk")
	tm.send("d")
	tm.waitText("What if")
	tm.send("XYZ")
	tm.waitText("XYZ")
	tm.send("\x12") // ctrl+r
	question := "drop the edited description of get_volume_status and start again from the file?"
	scr := tm.waitText("drop the edited")
	if got := promptText(scr, "drop the edited"); !strings.Contains(got, question+" y yes · n no") {
		t.Errorf("the question at 80 columns reads %q, want it whole: %q", got, question)
	}
	if strings.Contains(footerOf(scr), "…") {
		t.Errorf("the question is cut: %q", footerOf(scr))
	}
	tm.send("hello world")
	scr = tm.waitText("waiting for an answer (11 keys ignored)")
	if strings.Contains(scr, "hello") || !strings.Contains(scr, "XYZ") || !strings.Contains(scr, "drop the edited") {
		t.Errorf("typed text reached the field or answered the question:\n%s", scr)
	}
	tm.send("n")
	tm.waitGone("drop the edited")
	if scr := tm.screen(); !strings.Contains(scr, "XYZ") || strings.Contains(scr, "hello") {
		t.Errorf("no kept the edit and only it:\n%s", scr)
	}
	// y drops the edit.
	tm.send("\x12")
	tm.waitText("drop the edited")
	tm.send("y")
	tm.waitGone("XYZ")
	tm.send("\x1b")
	tm.waitGone("What if")
	// The quit question after a draft, and the export's file name, at 80
	// columns: whole words.
	tm.send("a")
	tm.waitFor("the drawer's editor", func(s string) bool { return strings.Contains(footerOf(s), "esc back") })
	tm.send("{")
	// Each key waits for its answer: an esc and the next key sent
	// together read as alt+key, which the editor types.
	tm.waitText("JSON syntax")
	tm.send("\x1b")
	tm.waitFor("the drawer at rest", func(s string) bool { return strings.Contains(footerOf(s), "q quit") })
	tm.settle()
	tm.send("q")
	scr = tm.waitText("quit and lose")
	if got := promptText(scr, "quit and lose"); !strings.HasSuffix(got, "y yes · n no") || strings.Contains(got, "…") {
		t.Errorf("the quit question reads %q", got)
	}
	tm.send("x")
	tm.waitText("(1 key ignored)")
	tm.send("n")
	tm.waitGone("quit and lose")
	tm.send("e")
	tm.waitText("export the report as")
	tm.send("j")
	scr = tm.waitText("write the JSON report to")
	if got := promptText(scr, "write the JSON report to"); strings.Contains(got, "…") || !strings.Contains(got, "enter write · esc cancel") {
		t.Errorf("the export prompt reads %q", got)
	}
	tm.send("\x1b")
	tm.waitGone("write the JSON report to")
	tm.send("q")
	tm.waitText("quit and lose")
	tm.send("y")
	tm.end()
}
