package report

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The arrows between core's packages point one way: the renderings take
// lint's and diff's results and nothing in core imports them; similarity
// knows nothing of lint; the text helpers import nothing of the project.
// Core is below both front ends: it imports neither the command line nor
// the explorer, nor a terminal library (internal/par, a worker pool,
// is shared).
func TestCoreImportDirection(t *testing.T) {
	forbidden := map[string][]string{
		"":           {"toolscope/core/report", "toolscope/internal/cli", "toolscope/internal/cmd", "toolscope/tui", "github.com/charmbracelet/"},
		"similarity": {"toolscope/core/lint", "toolscope/core/report", "toolscope/core/diff"},
		"textutil":   {"toolscope/"},
	}
	checked := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		rel, _ := filepath.Rel("..", path)
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if pkg == "report" {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		bad := append(slices.Clone(forbidden[""]), forbidden[pkg]...)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			for _, b := range bad {
				if strings.HasPrefix(p, b) {
					t.Errorf("core/%s imports %s", rel, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d files: is the walk rooted at core/?", checked)
	}
}
