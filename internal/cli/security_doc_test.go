package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every test docs/security.md names exists, in the file it links: the
// threat model's claims point at tests that hold them.
func TestSecurityDocNamesRealTests(t *testing.T) {
	data, err := os.ReadFile("docs/security.md")
	if err != nil {
		t.Fatal(err)
	}
	token := regexp.MustCompile("\\[`([^`]+)`\\]\\(\\.\\./([^)]+)\\)|`((?:Test|Fuzz)[A-Za-z0-9_]+)`")
	named := 0
	for _, item := range strings.Split(string(data), "\n- ") {
		file := ""
		for _, m := range token.FindAllStringSubmatch(item, -1) {
			if m[2] != "" {
				file = m[2]
				continue
			}
			if file == "" {
				t.Errorf("%s is named before any file", m[3])
				continue
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			if !strings.Contains(string(src), "func "+m[3]+"(") {
				t.Errorf("%s has no %s", file, m[3])
			}
			named++
		}
	}
	if named < 30 {
		t.Errorf("only %d tests named", named)
	}
}
