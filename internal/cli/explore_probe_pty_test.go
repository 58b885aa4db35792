//go:build unix

package cli

import (
	"strings"
	"testing"
)

// On a terminal, p in the arguments drawer loads the probed model's own
// call to the selected tool from the probe record beside the catalog,
// and the boundary's verdict on it shows.
func TestExplorerLoadsTheModelsArgumentsOnATerminal(t *testing.T) {
	_, _, cat := probedStandIn(t)
	tm := startTerm(t, runOpts{w: 160, h: 45, args: []string{"--embedder", "mock", cat}})
	tm.waitText("tools.json", "search_files")
	tm.send("a")
	tm.waitText("Arguments · search_files")
	tm.send("\x1b")
	tm.waitText("enter/i edit")
	tm.send("p")
	tm.waitText(`"query": "report"`, "valid: the call runs")
	tm.send("p")
	tm.waitText("'query' is required but missing", "the model would get")
	// Cleared, the draft asks nothing on the way out.
	tm.send("x")
	tm.waitText("No arguments yet")
	tm.send("q")
	tm.end()
}

// On a terminal, F on a pair the probe saw confused asks with the cost
// first, then tests the judge's sentences on the probe's requests; the
// kept fix is told in the footer, shown in the pair's detail, and its
// sentences become the what-if drafts.
func TestExplorerFixesAConfusedPairOnATerminal(t *testing.T) {
	s, url, cat := probedStandIn(t)
	tm := startTerm(t, runOpts{w: 160, h: 45, args: []string{"--embedder", "mock", "--judge", "openai:standin", "--judge-url", url, cat}})
	tm.waitText("tools.json", "search_files")
	tm.send("/search_logs")
	tm.waitText("Tools 1/4")
	tm.send("\r")
	tm.waitText("─ search_logs ── [Findings]")
	tm.send("3")
	tm.waitFor("the Pairs pane focused", func(s string) bool { return strings.Contains(footerOf(s), "enter compare") })
	tm.send("F")
	tm.waitText("fix search_files ⇄ search_logs: test the judge's sentences", "5 requests", "y yes · n no")
	tm.send("y")
	tm.waitText("fix search_files ⇄ search_logs: kept:", "the proven text is in the what-if (d)")
	s.mu.Lock()
	judged := s.judged
	s.mu.Unlock()
	if judged == 0 {
		t.Error("the fix was kept without asking the judge")
	}
	// The pair's detail tells the trial; quitting asks about the drafts.
	tm.waitText("fix: kept: 1 more request went right", "Before 3 of 4 right, after 4 of 4")
	tm.send("q")
	tm.waitText("quit and lose the drafts (descriptions of 2 tools)?")
	tm.send("y")
	tm.end()
}
