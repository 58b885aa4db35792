package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/embed/cache"
)

// What a newcomer types first: the demo, a mistyped command or flag, a
// YAML file, a catalog of one tool. Each gives the exit code and the one
// line a person can act on.
func TestFirstRun(t *testing.T) {
	t.Setenv(cache.EnvDir, t.TempDir())
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := write("one.json", `{"tools": [{"name": "get_thing", "description": "Get one thing by its id.", "inputSchema": {"type": "object"}}]}`)
	twin := write("twin.json", `{"tools": [{"name": "a", "description": "Get one thing.", "inputSchema": {"type": "object"}}, {"name": "a", "description": "Get it again.", "inputSchema": {"type": "object"}}]}`)
	pair := write("pair.json", `{"tools": [{"name": "get_thing", "description": "Get one thing by its id. Use when the id is known.", "inputSchema": {"type": "object"}}, {"name": "send_mail", "description": "Send an email to one person. Use to notify.", "inputSchema": {"type": "object"}}]}`)
	yamlFile := write("tools.yaml", "tools:\n  - name: get_thing\n")
	yamlNamedJSON := write("tools.json", "# the catalog\ntools: []\n")
	notJSON := write("notes.txt", "hello world\n")
	cases := []struct {
		name    string
		args    []string
		code    int
		out     string // a line stdout holds
		errLine string // what stderr holds
		errNot  string // what stderr must not hold
	}{
		{"the demo off a terminal is not a gate", nil, 0, "RESULT: FAIL", "the demo fails its gate on purpose", ""},
		{"lint gives the demo's gate", []string{"lint", demoPath}, 1, "RESULT: FAIL", "", "on purpose"},
		{"a catalog file off a terminal keeps the gate", []string{demoPath}, 1, "RESULT: FAIL", "", "on purpose"},
		{"a mistyped command", []string{"lnt", "x.json"}, 2, "", `unknown command "lnt" (did you mean lint?)`, "CATALOG"},
		{"a swap of letters", []string{"lnit"}, 2, "", `unknown command "lnit" (did you mean lint?)`, ""},
		{"a mistyped command alone", []string{"porbe"}, 2, "", "(did you mean probe?)", ""},
		{"an unknown word before a catalog", []string{"frobnicate", demoPath}, 2, "", `unknown command "frobnicate" (the commands: cache, check-args, diff, help, init, lint`, ""},
		{"a lone word that is no file is a catalog that cannot be read", []string{"frobnicate"}, 2, "", "frobnicate: cannot read", "unknown command"},
		{"a mistyped flag", []string{"lint", "--thresold", "0.5", demoPath}, 2, "", "flag provided but not defined: --thresold (did you mean --threshold?)", ""},
		{"a flag's prefix", []string{"lint", "--no-simil", demoPath}, 2, "", "(did you mean --no-similarity?)", ""},
		{"a flag with nothing near", []string{"lint", "--zzzzzzzz", demoPath}, 2, "", "flag provided but not defined: --zzzzzzzz (see", "did you mean"},
		{"a mistyped explorer flag", []string{"--embeder", "mock", demoPath}, 2, "", "(did you mean --embedder?)", ""},
		{"YAML by its name", []string{"lint", yamlFile}, 2, "", "not valid JSON: unexpected 't', want a value (a catalog is JSON; this reads as YAML", ""},
		{"YAML by its text", []string{"lint", yamlNamedJSON}, 2, "", "(a catalog is JSON; this reads as YAML", ""},
		{"text that is no YAML either", []string{"lint", notJSON}, 2, "", "not valid JSON", "YAML"},
		{"one tool says so", []string{"lint", one}, 0, "Similarity: skipped (one tool: nothing to compare it with); structural rules only", "", ""},
		{"no similarity says so", []string{"lint", "--no-similarity", demoPath}, 1, "Similarity: skipped (no embedder: --no-similarity); structural rules only", "", ""},
		{"one argument is one", []string{"check-args", demoPath}, 2, "", "want CATALOG TOOL [ARGS], got 1 argument (see", ""},
		{"one argument to diff", []string{"diff", demoPath}, 2, "", "got 1 argument (see", ""},
		{"one pair is one", []string{"lint", pair}, 0, "; 1 pair compared)", "", ""},
		{"one name twice says so", []string{"lint", twin}, 1, "Similarity: skipped (fewer than two distinct tools: the 2 share one name)", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCmd("", tc.args...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errLine) || (tc.errNot != "" && strings.Contains(errOut, tc.errNot)) {
				t.Errorf("toolscope %s: exit %d (want %d)\nstderr: %s\nstdout: %.600s", strings.Join(tc.args, " "), code, tc.code, errOut, out)
			}
			if tc.code == 2 && strings.Count(strings.TrimRight(errOut, "\n"), "\n") != 0 {
				t.Errorf("more than one line on stderr:\n%s", errOut)
			}
		})
	}
}

func TestClosest(t *testing.T) {
	commands := []string{"check-args", "diff", "help", "init", "lint", "period", "probe", "rules"}
	cases := []struct {
		word string
		want string
	}{
		{"lnt", "lint"},
		{"lnit", "lint"}, // a swap, and a tie with init broken by the first letter
		{"int", "init"},
		{"difff", "diff"},
		{"rule", "rules"},
		{"chek-args", "check-args"},
		{"check", "check-args"}, // a prefix of one name only
		{"lint", ""},            // the name itself needs no suggestion
		{"x", ""},
		{"ab", ""},
		{"tools", ""},
		{"catalog", ""},
	}
	for _, tc := range cases {
		if got := closest(tc.word, commands); got != tc.want {
			t.Errorf("closest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
