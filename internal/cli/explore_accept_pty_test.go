//go:build unix

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An accept on a terminal: the header that showed the catalog's token
// count before shows it after, at every width, with the demo's own name
// and with a name long enough to make the header tight.
func TestExplorerAcceptKeepsTheTokens(t *testing.T) {
	data, err := os.ReadFile("fixtures/demo/ops-demo.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		w    int
	}{
		{"ops-demo.json", 80}, {"ops-demo.json", 100}, {"ops-demo.json", 120}, {"ops-demo.json", 160},
		{"the-platform-team-ops-tools-catalog.json", 160}, {"the-platform-team-ops-tools-catalog.json", 170},
	} {
		t.Run(fmt.Sprintf("%s_%d", c.name, c.w), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), c.name)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			tm := startTerm(t, runOpts{w: c.w, h: 40, args: []string{"--embedder", "mock", path}})
			tm.waitScored("mock risk")
			header := func(s string) string { h, _, _ := strings.Cut(s, "\n"); return h }
			before := header(tm.screen())
			if c.w >= 140 {
				// The counts are in once the Detail pane has the catalog's
				// (narrower, the header is the short form, without them).
				before = header(tm.waitText("tool definitions take"))
			}
			// The worst pair of the global ranking, accepted with a reason.
			tm.send("3g")
			tm.waitText("Ranking")
			tm.send("A")
			tm.waitText("because:")
			tm.send("the two are never offered together\r")
			after := header(tm.waitFor("the accept done", func(s string) bool {
				return strings.Contains(header(s), "1 accepted") || strings.Contains(s, "accepted ")
			}))
			if strings.Contains(before, "tokens") && !strings.Contains(after, "tokens") {
				t.Errorf("the accept took the tokens out of the header:\n before %q\n after  %q", before, after)
			}
			tm.send("q")
			tm.end()
		})
	}
}
