package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintFix: --fix writes each finding's fix into the catalog file,
// every other byte kept, and the report and the gate are the fixed
// file's; what is not a file is refused before anything runs.
func TestLintFix(t *testing.T) {
	src := "{\n  \"tools\": [\n    {\n      \"name\": \"math.sum\",\n      \"description\": \"Adds numbers up and returns their sum, exactly.\",\n      \"inputSchema\": {\"type\": \"object\", \"properties\": {\"mode\": {\"type\": \"string\", \"description\": \"one of fast | exact\"}}, \"required\": [\"mode\"]},\n      \"annotations\": {\"readOnlyHint\": true}\n    }\n  ]\n}\n"
	want := strings.Replace(strings.Replace(src, `"math.sum"`, `"math_sum"`, 1), `"description": "one of fast | exact"}`, `"description": "one of fast | exact", "enum": ["fast","exact"]}`, 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCmd("", "lint", "--no-similarity", "--no-config", "--format", "json", path)
	if !strings.Contains(out, `"fix"`) {
		t.Fatalf("exit %d, no fix in the JSON:\n%s", code, out)
	}
	code, out, errOut := runCmd("", "lint", "--fix", "--no-similarity", "--no-config", path)
	got, _ := os.ReadFile(path)
	if string(got) != want {
		t.Errorf("the file after --fix:\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(errOut, "fixed 2 findings in "+path+" (enum-in-prose ×1, name-provider-limits ×1)") {
		t.Errorf("stderr does not say what was fixed:\n%s", errOut)
	}
	if code != 0 || strings.Contains(out, "enum-in-prose") || strings.Contains(out, "name-provider-limits") {
		t.Errorf("exit %d; the report is not the fixed file's:\n%s", code, out)
	}
	// Again: nothing left to fix, nothing written.
	code, _, errOut = runCmd("", "lint", "--fix", "--no-similarity", "--no-config", path)
	if again, _ := os.ReadFile(path); code != 0 || string(again) != want || strings.Contains(errOut, "fixed") {
		t.Errorf("a second --fix: exit %d, stderr %q, file changed: %v", code, errOut, string(again) != want)
	}
	for _, args := range [][]string{
		{"lint", "--fix", "-"},
		{"lint", "--fix", "--merge", path, writeFile(t, "other.json", src)},
	} {
		code, _, errOut := runCmd(src, args...)
		if code != 2 || !strings.Contains(errOut, "--fix edits") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}

// The review band has one name: --review-band, with --watch-band read as
// its old spelling and left out of the help.
func TestReviewBandFlagAndItsOldSpelling(t *testing.T) {
	clean := writeFile(t, "clean.json", cleanCatalog)
	for _, flag := range []string{"--review-band", "--watch-band"} {
		code, out, errOut := runCmd("", "lint", "--no-config", "--embedder", "mock", "--scoring", "cosine", "--threshold", "0.99", flag, "2", clean)
		if code != 0 || !strings.Contains(out, "review (advisory) from") && !strings.Contains(out, "review band 2") {
			t.Errorf("%s 2: exit %d\n%s%s", flag, code, out, errOut)
		}
		if code, _, errOut := runCmd("", "lint", "--no-config", flag, "-1", clean); code != 2 || !strings.Contains(errOut, "--review-band -1: want zero or more") {
			t.Errorf("%s -1: exit %d, %q", flag, code, errOut)
		}
	}
	_, out, errOut := runCmd("", "lint", "--help")
	help := out + errOut
	if !strings.Contains(help, "--review-band N") || strings.Contains(help, "--watch-band") && !strings.Contains(help, "--watch-band is the old spelling") {
		t.Errorf("help:\n%s", help)
	}
}
