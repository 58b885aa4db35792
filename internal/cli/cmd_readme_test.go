package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"toolscope/embed/cache"
)

// checkedBlock is a sample in the docs whose output the tests check: a
// `$ toolscope ...` line, its output to the character, and the exit code.
var checkedBlock = regexp.MustCompile("(?s)<!-- checked -->\n```\n\\$ (toolscope [^\n]*)\n(.*?)\\$ echo \\$\\?\n([0-9]+)\n```\n")

// The samples marked checked in the README and docs are what the commands
// print today.
func TestDocSamples(t *testing.T) {
	t.Setenv(cache.EnvDir, t.TempDir())
	docs, _ := filepath.Glob("docs/*.md")
	found := 0
	for _, doc := range append([]string{"README.md"}, docs...) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range checkedBlock.FindAllStringSubmatch(string(data), -1) {
			found++
			args := strings.Fields(m[1])[1:]
			code, out, _ := runCmd("", args...)
			want, _ := strconv.Atoi(m[3])
			if code != want || out != m[2] {
				t.Errorf("%s: `%s`: exit %d (the doc says %d), output:\n%s\nthe doc shows:\n%s", doc, m[1], code, want, out, m[2])
			}
		}
	}
	if found == 0 {
		t.Error("no checked samples found")
	}
}

// The README's and docs/ci.md's GitHub Actions jobs and the action are
// run step by step in ci_jobs_test.go.

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
