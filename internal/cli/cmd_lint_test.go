package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cleanCatalog passes every rule: distinct, described tools that say when
// to use them.
const cleanCatalog = `[
 {"name": "get_weather", "description": "Current weather for one city; use for questions about right now.",
  "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name."}}, "required": ["city"]}},
 {"name": "convert_currency", "description": "Converts an amount between two currencies at today's rate, for prices.",
  "inputSchema": {"type": "object", "properties": {"amount": {"type": "number", "description": "How much."}}, "required": ["amount"]}}
]`

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLintExitCodes(t *testing.T) {
	clean := writeFile(t, "clean.json", cleanCatalog)
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		out   string // in stdout
		err   string // in stderr
	}{
		{"a clean catalog passes", "", []string{"lint", "--embedder", "mock", "--scoring", "cosine", "--threshold", "0.99", clean}, 0, "RESULT: ok", ""},
		{"structural rules only", "", []string{"lint", "--no-similarity", clean}, 0, "Similarity: skipped", ""},
		{"the demo fails the gate", "", []string{"lint", "--embedder", "mock", "--scoring", "cosine", demoPath}, 1, "RESULT: FAIL", ""},
		{"report-only similarity does not gate", "", []string{"lint", "--embedder", "mock", "--threshold", "off", "--disable", "declaration-refused", demoPath}, 0, "report-only", ""},
		{"strict: warnings fail", "", []string{"lint", "--no-similarity", "--strict", "--disable", "declaration-refused", demoPath}, 1, "warnings (strict)", ""},
		{"review pairs are advisory", "", []string{"lint", "--embedder", "mock", "--scoring", "cosine", "--threshold", "0.99", "--watch-band", "2", clean}, 0, "RESULT: ok", ""},
		{"--fail-on review: review pairs fail", "", []string{"lint", "--embedder", "mock", "--scoring", "cosine", "--threshold", "0.99", "--watch-band", "2", "--fail-on", "review", clean}, 1, "review pair", ""},
		{"strict: review pairs fail", "", []string{"lint", "--embedder", "mock", "--scoring", "cosine", "--threshold", "0.99", "--watch-band", "2", "--strict", clean}, 1, "review pair", ""},
		{"an unknown --fail-on", "", []string{"lint", "--fail-on", "watch", clean}, 2, "", `--fail-on watch: want review or stale`},
		{"flags after the catalog", "", []string{"lint", clean, "--no-similarity", "--format", "json"}, 0, `"ok": true`, ""},
		{"stdin", cleanCatalog, []string{"lint", "--no-similarity", "-"}, 0, "toolscope lint · stdin", ""},
		{"-- ends the flags", "", []string{"lint", "--no-similarity", "--", clean}, 0, "RESULT: ok", ""},
		{"help", "", []string{"lint", "--help"}, 0, "Usage: toolscope lint [flags] CATALOG", ""},
		{"an unknown flag", "", []string{"lint", "--bogus", clean}, 2, "", "flag provided but not defined: --bogus"},
		{"a bad flag value", "", []string{"lint", "--threshold", "abc", clean}, 2, "", `invalid value "abc" for flag --threshold`},
		{"no catalog", "", []string{"lint", "--no-similarity"}, 2, "", "want a CATALOG"},
		{"one catalog given twice is linted once", "", []string{"lint", "--no-similarity", clean, clean}, 0, "RESULT: ok", ""},
		{"two catalogs, one failing", "", []string{"lint", "--no-similarity", clean, demoPath}, 1, "2 catalogs: 1 fail: ", ""},
		{"a pattern matching nothing", "", []string{"lint", "--no-similarity", "testdata/nothing/**/*.json"}, 2, "", "testdata/nothing/**/*.json: no file matches"},
		{"stdin with another catalog", cleanCatalog, []string{"lint", "--no-similarity", "-", clean}, 2, "", "stdin ('-') can only be linted alone"},
		{"an unknown rule", "", []string{"lint", "--disable", "nope", clean}, 2, "", "--disable nope: no such rule"},
		{"an unknown format", "", []string{"lint", "--format", "xml", clean}, 2, "", `--format "xml"`},
		{"an unknown scoring", "", []string{"lint", "--scoring", "dot", clean}, 2, "", `--scoring "dot"`},
		{"a threshold that is no number", "", []string{"lint", "--threshold", "high", clean}, 2, "", "want a number"},
		{"a negative rank limit", "", []string{"lint", "--rank-limit", "-2", clean}, 2, "", "--rank-limit -2"},
		{"a risk threshold over 1", "", []string{"lint", "--threshold", "7", clean}, 2, "", "--threshold 7: a risk runs from 0 to 1"},
		{"a risk threshold under 0", "", []string{"lint", "--threshold", "-0.1", clean}, 2, "", "--threshold -0.1: a risk runs from 0 to 1"},
		{"a cosine threshold under -1", "", []string{"lint", "--scoring", "cosine", "--threshold", "-2", clean}, 2, "", "--threshold -2: a cosine runs from -1 to 1"},
		{"a negative cosine threshold in range", "", []string{"lint", "--embedder", "mock", "--scoring", "cosine", "--threshold", "-0.5", clean}, 1, "RESULT: FAIL", ""},
		{"an adaptive threshold below -1", "", []string{"lint", "--embedder", "mock", "--scoring", "adaptive", "--threshold", "-2", clean}, 1, "RESULT: FAIL", ""},
		{"a negative review band, by its old spelling", "", []string{"lint", "--watch-band", "-1", clean}, 2, "", "--review-band -1: want zero or more"},
		{"an unknown embedder", "", []string{"lint", "--embedder", "nope", clean}, 2, "", `unknown embedder "nope"`},
		{"a missing file", "", []string{"lint", "--no-similarity", "missing.json"}, 2, "", "missing.json: cannot read"},
		{"not JSON", "{", []string{"lint", "--no-similarity", "-"}, 2, "", "not valid JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCmd(c.stdin, c.args...)
			if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) {
				t.Errorf("exit %d, want %d\nstdout: %.600s\nstderr: %s", code, c.code, out, errOut)
			}
			if c.code == 2 && strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("a usage or input error must be one line: %q", errOut)
			}
		})
	}
}

func TestLintFormats(t *testing.T) {
	for _, format := range []string{"json", "sarif", "markdown", "text"} {
		code, out, errOut := runCmd("", "lint", "--embedder", "mock", "--scoring", "cosine", "--format", format, demoPath)
		if code != 1 || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %s", format, code, errOut)
		}
		switch format {
		case "json":
			var r struct {
				OK         bool `json:"ok"`
				Similarity struct {
					Embedder, Scoring string
				} `json:"similarity"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil || r.OK || r.Similarity.Embedder != "mock" || r.Similarity.Scoring != "cosine" {
				t.Errorf("json: %v %+v", err, r)
			}
		case "sarif":
			var log struct {
				Version string `json:"version"`
				Runs    []struct {
					Results []json.RawMessage `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(out), &log); err != nil || log.Version != "2.1.0" || len(log.Runs[0].Results) == 0 {
				t.Errorf("sarif: %v %+v", err, log.Version)
			}
		case "markdown":
			if !strings.HasPrefix(out, "### toolscope lint: ❌ FAIL") {
				t.Errorf("markdown starts %q", out[:60])
			}
		case "text":
			if strings.Contains(out, "\x1b[") {
				t.Errorf("colour in a report that is not on a terminal")
			}
		}
	}
}

func TestLintDisable(t *testing.T) {
	_, out, _ := runCmd("", "lint", "--no-similarity", "--format", "json", "--disable", "says-what-not-when,enum-in-prose", "--disable", "declaration-refused", demoPath)
	for _, id := range []string{"says-what-not-when", "enum-in-prose", "declaration-refused"} {
		if strings.Contains(out, `"rule": "`+id+`"`) {
			t.Errorf("disabled rule %s reported", id)
		}
	}
	if !strings.Contains(out, `"rule": "optional-param-undocumented"`) {
		t.Errorf("other rules must still run")
	}
}

func TestRulesCommand(t *testing.T) {
	code, out, _ := runCmd("", "rules")
	if code != 0 || !strings.Contains(out, "says-what-not-when (warn, recommended)") || !strings.Contains(out, "Before:") || strings.Contains(out, "destructive-unstated") {
		t.Errorf("rules: exit %d\n%.300s", code, out)
	}
	// Each set lists its own rules; all shows the opt-in ones with their tier.
	if code, out, _ := runCmd("", "rules", "--rule-set", "all"); code != 0 || !strings.Contains(out, "destructive-unstated (warn, opt-in)") {
		t.Errorf("rules --rule-set all: exit %d\n%.300s", code, out)
	}
	if code, out, _ := runCmd("", "rules", "--rule-set", "reference"); code != 0 || !strings.Contains(out, "says-what-not-when (warn, reference)") || strings.Contains(out, "tool-poisoning") {
		t.Errorf("rules --rule-set reference: exit %d\n%.300s", code, out)
	}
	if code, _, errOut := runCmd("", "rules", "--rule-set", "strict"); code != 2 || !strings.Contains(errOut, "want recommended, reference, all") {
		t.Errorf("rules --rule-set strict: exit %d %s", code, errOut)
	}
	code, out, _ = runCmd("", "rules", "--format", "json")
	var doc struct{ Rules []struct{ ID string } }
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || len(doc.Rules) < 12 {
		t.Errorf("rules --format json: exit %d, %v, %d rules", code, err, len(doc.Rules))
	}
	if code, _, errOut := runCmd("", "rules", "extra"); code != 2 || !strings.Contains(errOut, "unexpected argument") {
		t.Errorf("rules extra: exit %d %s", code, errOut)
	}
	if code, _, _ := runCmd("", "rules", "--format", "yaml"); code != 2 {
		t.Errorf("rules --format yaml: exit %d", code)
	}
}
