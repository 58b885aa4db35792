package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// demoIn copies the demo catalog into dir and returns its path.
func demoIn(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(demoPath)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "catalog.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFoundJudgmentsMustBeYours: a judgments file found beside the
// catalog, or in the working directory for stdin, is refused like the
// config when every user may write it; --judgments FILE reads it anyway.
func TestFoundJudgmentsMustBeYours(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix owners here")
	}
	dir := t.TempDir()
	cat := demoIn(t, dir)
	judgments := filepath.Join(dir, "toolscope.judgments.jsonl")
	if err := os.WriteFile(judgments, []byte("# planted\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(judgments, 0o666); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(cat)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	refused := "judgments " + judgments + ": writable by every user"
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  string // a line of stderr starting so; "" for a run that reads it
	}{
		{"beside the catalog", "", []string{"lint", "--no-similarity", "--no-config", cat}, "toolscope lint: " + refused},
		{"in the working directory, for stdin", string(data), []string{"lint", "--no-similarity", "--no-config", "-"}, "toolscope lint: judgments toolscope.judgments.jsonl: writable by every user"},
		{"named by --judgments", "", []string{"lint", "--no-similarity", "--no-config", "--judgments", judgments, cat}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := runCmd(c.stdin, c.args...)
			lines := withoutProgress(errOut)
			if c.want == "" {
				if code == 2 {
					t.Errorf("exit 2, stderr %q; want the named file read", errOut)
				}
				return
			}
			if code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], c.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line starting %q", code, errOut, c.want)
			}
		})
	}
}

// TestMaxCostMustBeANumber: a cost cap that is no number would skip the
// confirmation; it is a usage error before anything is sent.
func TestMaxCostMustBeANumber(t *testing.T) {
	for _, v := range []string{"NaN", "Inf", "-1"} {
		code, _, errOut := runCmd("", "probe", "--model", "openai:m", "--max-cost", v, demoPath)
		if code != 2 || !strings.Contains(errOut, "--max-cost") {
			t.Errorf("--max-cost %s: exit %d, stderr %q; want a usage error naming it", v, code, errOut)
		}
	}
}
