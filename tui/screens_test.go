package tui

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

// screenBlock is a text capture in the docs: a marker naming the golden,
// then the capture in a fenced block.
var screenBlock = regexp.MustCompile("(?s)<!-- screen: ([a-z0-9_]+) -->\n```\n(.*?)```\n")

// The screens docs/explorer.md shows are the goldens, to the character
// (the README shows the real binary on the demo: readme_pty_test.go); `go test ./tui -update` rewrites the goldens and then these.
func TestDocsShowTheGoldens(t *testing.T) {
	update := flag.Lookup("update") != nil && flag.Lookup("update").Value.String() == "true"
	for _, doc := range []string{"../docs/explorer.md"} {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		found := 0
		var failed bool
		fixed := screenBlock.ReplaceAllStringFunc(text, func(block string) string {
			found++
			m := screenBlock.FindStringSubmatch(block)
			golden, err := os.ReadFile("testdata/TestGoldens/" + m[1] + ".golden")
			if err != nil {
				t.Errorf("%s: screen %s: %v", doc, m[1], err)
				return block
			}
			want := strings.TrimRight(string(golden), "\n") + "\n"
			if m[2] != want {
				failed = true
				if !update {
					t.Errorf("%s: screen %s differs from its golden (go test ./tui -update rewrites it)", doc, m[1])
				}
			}
			return "<!-- screen: " + m[1] + " -->\n```\n" + want + "```\n"
		})
		if found == 0 {
			t.Errorf("%s shows no screens", doc)
		}
		if failed && update {
			if err := os.WriteFile(doc, []byte(fixed), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
