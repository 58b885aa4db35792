package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"toolscope/core/config"
	"toolscope/core/lint"
)

// setting is a commented-out setting in init's file.
var setting = regexp.MustCompile(`^# (- |  )?[a-z][a-z-]*:`)

func TestInit(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd("", "init", dir)
	path := filepath.Join(dir, config.FileName)
	if code != 0 || errOut != "" || !strings.Contains(out, "wrote "+path) {
		t.Fatalf("init: exit %d %q %q", code, out, errOut)
	}
	c, err := config.Load(path)
	if err != nil {
		t.Fatalf("the file init writes does not load: %v", err)
	}
	if len(c.Rules) != 0 || c.Strict || len(c.AcceptedPairs)+len(c.Ignores) != 0 || c.Similarity != (config.Similarity{}) {
		t.Errorf("init's file must change nothing until edited: %+v", c)
	}
	data, _ := os.ReadFile(path)
	if c.RuleSet != "" || !strings.Contains(string(data), "# rule-set: recommended\n") {
		t.Errorf("init's file must name the rule set, commented out: rule-set %q", c.RuleSet)
	}
	for _, r := range lint.AllRules() {
		if !strings.Contains(string(data), "# "+r.ID+": ") {
			t.Errorf("init's file does not list rule %s", r.ID)
		}
	}
	// Every commented setting, uncommented, is a valid config.
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if t := strings.TrimLeft(l, " "); setting.MatchString(t) {
			indent := l[:len(l)-len(t)]
			body := strings.TrimPrefix(t, "# ")
			if strings.HasPrefix(body, "  ") {
				// A list item's later keys line up under its first.
				body = strings.TrimPrefix(body, "  ")
				indent += "  "
			}
			if strings.Contains(body, "  #") {
				body = body[:strings.Index(body, "  #")]
			}
			if strings.Contains(body, "https://") {
				body = "embed-url: http://localhost:8080"
			}
			l = indent + body
		}
		lines = append(lines, l)
	}
	if _, err := config.Parse("uncommented", []byte(strings.Join(lines, "\n"))); err != nil {
		t.Errorf("init's settings, uncommented, do not parse: %v\n%s", err, strings.Join(lines, "\n"))
	}
	if code, _, errOut := runCmd("", "init", dir); code != 2 || !strings.Contains(errOut, "exists (--force replaces it)") {
		t.Errorf("init over an existing file: exit %d %q", code, errOut)
	}
	if code, _, _ := runCmd("", "init", "--force", dir); code != 0 {
		t.Errorf("init --force: exit %d", code)
	}
	if code, out, _ := runCmd("", "init", "-"); code != 0 || out != string(data) {
		t.Errorf("init - prints the file: exit %d", code)
	}
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(dir, "missing"), "missing: no such directory"},
		{filepath.Join(dir, "file"), "file: not a directory"},
	} {
		if code, _, errOut := runCmd("", "init", c.dir); code != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("init into %s: exit %d %q, want %q", c.dir, code, errOut, c.want)
		}
	}
	hostile := filepath.Join(dir, "x\x1b]52;c;aGk=\x07\x1b[2J")
	if code, _, errOut := runCmd("", "init", hostile); code != 2 || strings.ContainsRune(errOut, 0x1b) || !strings.Contains(errOut, `\x1b]52`) {
		t.Errorf("init names a hostile path raw: exit %d %q", code, errOut)
	}
	if _, out, _ := runCmd("", "--help"); !strings.Contains(out, "toolscope init [--force] [DIR|-]") {
		t.Errorf("--help does not list init")
	}
}

// lint finds toolscope.yaml from the catalog's directory up to the
// repository's root; flags win.
func TestLintConfig(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	sub := filepath.Join(root, "catalogs")
	os.Mkdir(sub, 0o755)
	data, _ := os.ReadFile(demoPath)
	cat := filepath.Join(sub, "ops.json")
	os.WriteFile(cat, data, 0o644)
	os.WriteFile(filepath.Join(root, config.FileName), []byte(`
rules:
  declaration-refused: warn
similarity:
  embedder: mock
  scoring: cosine
  threshold: off
ignore:
  - rule: enum-in-prose
    tool: "*"
    reason: enums arrive with the next API version
`), 0o644)
	code, out, errOut := runCmd("", "lint", cat)
	if code != 0 || errOut != "" {
		t.Fatalf("with the config: exit %d %s\n%.800s", code, errOut, out)
	}
	for _, want := range []string{"mock cosine", "report-only", "Config " + filepath.Join(root, config.FileName) + ": 7 findings ignored, 0 pairs accepted"} {
		if !strings.Contains(out, want) {
			t.Errorf("lint output lacks %q:\n%.800s", want, out)
		}
	}
	if strings.Contains(out, "[enum-in-prose]") {
		t.Error("ignored findings listed")
	}
	// Flags win over the config.
	if code, out, _ := runCmd("", "lint", "--threshold", "0.5", cat); code != 1 || !strings.Contains(out, "confusable from 0.50,") {
		t.Errorf("--threshold over the config: exit %d\n%.400s", code, out)
	}
	// strict: true in the config fails on warnings; --strict=false wins.
	strict := writeFile(t, "strict.yaml", "strict: true\nsimilarity:\n  embedder: none\nrules:\n  declaration-refused: warn\n  duplicate-name: warn\n  required-undeclared: warn\n  name-provider-limits: warn\n  description-missing-or-short: warn\n")
	for _, c := range []struct {
		flags []string
		code  int
	}{{nil, 1}, {[]string{"--strict=false"}, 0}} {
		args := append(append([]string{"lint", "--config", strict}, c.flags...), cat)
		if code, out, errOut := runCmd("", args...); code != c.code {
			t.Errorf("%v: exit %d, want %d %s\n%.600s", c.flags, code, c.code, errOut, out)
		}
	}
	if code, out, _ := runCmd("", "lint", "--no-config", "--no-similarity", cat); code != 1 || strings.Contains(out, "Config ") {
		t.Errorf("--no-config: exit %d\n%.400s", code, out)
	}
	// A bad config is one line naming the file, line and column, for lint
	// and diff alike, the embedder it names included (opened only later).
	for _, c := range []struct{ in, want string }{
		{"similarity:\n  embeder: use\n", `bad.yaml:2:3: unknown key "embeder" in similarity`},
		{"similarity:\n  embedder: bogus\n", `bad.yaml:2:13: similarity: embedder: unknown embedder "bogus"`},
		{"similarity:\n  embedder: mock:x\n", `bad.yaml:2:13: similarity: embedder: embedder mock:x: the mock embedder takes no argument`},
		{"rules:\n  enum-in-prose: loud\n", `bad.yaml:2:18: rules: enum-in-prose: "loud": want off, warn or error`},
		{"\tversion: 1\n", `bad.yaml:1:1: found character that cannot start any token`},
		{"similarity:\n  threshold: 3\n", `bad.yaml:2:14: threshold 3: a risk runs from 0 to 1`},
	} {
		bad := writeFile(t, "bad.yaml", c.in)
		for _, cmd := range [][]string{{"lint", "--config", bad, cat}, {"diff", "--config", bad, cat, cat}} {
			code, _, errOut := runCmd("", cmd...)
			if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("%s with %q: exit %d %q, want one line with %q", cmd[0], c.in, code, errOut, c.want)
			}
		}
	}
}

// What the config accepts (a pair) and ignores (a rule on tools by
// pattern, a rule on one parameter, not another) neither fails the gate nor shows as a result in any
// format, and each format says it was accepted.
func TestLintConfigEveryFormat(t *testing.T) {
	// The seed's pack flags both optional parameters, so the ignore by
	// parameter shows: one ignored, the other kept.
	cfg := writeFile(t, "toolscope.yaml", `
rule-set: reference
rules:
  says-what-not-when: error
accepted-pairs:
  - tools: [search_archived_logs, search_logs]
    reason: split by age
ignore:
  - rule: says-what-not-when
    tool: restart_*
    reason: the system prompt says when
  - rule: enum-in-prose
    tool: search_logs
    param: level
    reason: levels change
  - rule: optional-param-undocumented
    tool: "*"
    param: force
    reason: force is documented in the runbook
`)
	cases := []struct {
		format       string
		absent, want []string
	}{
		{"text", []string{"[says-what-not-when]", "[enum-in-prose]", "✗ confusable", "restart_service.force"},
			[]string{"3 findings ignored, 1 pair accepted", "search_logs <> search_archived_logs  [accepted]",
				"[optional-param-undocumented] search_logs.level"}},
		{"json", []string{`"rule": "says-what-not-when"`}, // only under suppressed, checked below
			[]string{`"suppression": "split by age"`, `"suppression": "levels change"`}},
		{"sarif", nil, []string{`"justification": "the system prompt says when"`, `"justification": "split by age"`}},
		{"markdown", []string{"| `says-what-not-when` | `restart_service`", "#### Confusable pairs"},
			[]string{"Accepted by the config (4)", "| `enum-in-prose` on `search_logs.level` | levels change |", "`search_logs` ↔ `search_archived_logs` (accepted)"}},
		{"github", []string{"title=toolscope says-what-not-when", "title=toolscope enum-in-prose", "title=toolscope confusable-pair"},
			[]string{"3 findings ignored, 1 pair accepted", "RESULT: ok", "title=toolscope optional-param-undocumented::search_logs.level"}},
	}
	for _, c := range cases {
		t.Run(c.format, func(t *testing.T) {
			code, out, errOut := runCmd("", "lint", "--embedder", "mock", "--config", cfg, "--format", c.format, "testdata/lint/tools.json")
			if code != 0 {
				t.Fatalf("exit %d %s\n%.1500s", code, errOut, out)
			}
			check := out
			if c.format == "json" {
				// The accepted results are under "suppressed" only.
				var r struct {
					Structural []struct{ Rule, Tool, Param string }
					Similarity struct{ Confusable []struct{ A, B string } }
					Suppressed struct {
						Findings []struct{ Rule string }
						Pairs    []struct{ A, B string }
					}
				}
				if err := json.Unmarshal([]byte(out), &r); err != nil {
					t.Fatal(err)
				}
				for _, f := range r.Structural {
					if f.Rule == "says-what-not-when" || (f.Rule == "enum-in-prose" && f.Param == "level") {
						t.Errorf("an ignored finding reported: %+v", f)
					}
				}
				if len(r.Similarity.Confusable) != 0 || len(r.Suppressed.Pairs) != 1 || len(r.Suppressed.Findings) != 3 {
					t.Errorf("confusable %+v, suppressed %+v", r.Similarity.Confusable, r.Suppressed)
				}
				check = ""
			}
			if c.format == "sarif" {
				// Every result of an accepted thing carries its suppression.
				var log struct {
					Runs []struct {
						Results []struct {
							RuleID       string
							Suppressions []struct{ Justification string }
						}
					}
				}
				if err := json.Unmarshal([]byte(out), &log); err != nil {
					t.Fatal(err)
				}
				for _, res := range log.Runs[0].Results {
					if (res.RuleID == "says-what-not-when" || res.RuleID == "confusable-pair") && len(res.Suppressions) == 0 {
						t.Errorf("an accepted %s result without a suppression", res.RuleID)
					}
				}
			}
			for _, a := range c.absent {
				if strings.Contains(check, a) {
					t.Errorf("%s output has %q:\n%.2000s", c.format, a, out)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("%s output lacks %q:\n%.2000s", c.format, w, out)
				}
			}
		})
	}
}
