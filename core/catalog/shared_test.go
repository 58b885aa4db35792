package catalog

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sharedDir is where the project's shared material sits beside a checkout;
// a user's clone has none, and the tests that need it skip.
const sharedDir = "../../../shared"

// TestEveryRealCatalogLoads loads every catalog listed in the shared INDEX.md
// and checks the tool count the index gives.
func TestEveryRealCatalogLoads(t *testing.T) {
	index := filepath.Join(sharedDir, "catalogs", "INDEX.md")
	f, err := os.Open(index)
	if err != nil {
		t.Skipf("shared catalogs not present (%v); CI has them", err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 5 || !strings.HasSuffix(strings.TrimSpace(cols[1]), ".json") {
			continue
		}
		file := strings.TrimSpace(cols[1])
		want, err := strconv.Atoi(strings.TrimSpace(cols[3]))
		if err != nil {
			continue
		}
		n++
		t.Run(file, func(t *testing.T) {
			c, err := Load(filepath.Join(sharedDir, "catalogs", file), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Tools) != want {
				t.Errorf("%d tools, INDEX.md says %d", len(c.Tools), want)
			}
			for _, tool := range c.Tools {
				if tool.Pos.Line < 1 {
					t.Fatalf("%s has no position", tool.Name)
				}
			}
		})
	}
	if n < 30 {
		t.Errorf("read %d catalogs from INDEX.md, want at least 30", n)
	}
}
