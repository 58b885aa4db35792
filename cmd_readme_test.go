package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

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

// The README's GitHub Actions workflow parses, and every toolscope command
// it runs is a real command with real flags: each is run, in a directory
// holding the files the workflow expects, and must not be refused as a
// usage or input error.
func TestREADMEWorkflow(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- workflow -->\n```yaml\n(.*?)```\n").FindStringSubmatch(string(data))
	if m == nil {
		t.Fatal("the README has no workflow block")
	}
	var wf struct {
		On   any `yaml:"on"`
		Jobs map[string]struct {
			RunsOn string `yaml:"runs-on"`
			Steps  []struct {
				Name, Run, Uses, If string
				With                map[string]any
			}
		}
	}
	if err := yaml.Unmarshal([]byte(m[1]), &wf); err != nil {
		t.Fatalf("the workflow is not YAML: %v", err)
	}
	var commands []string
	for _, job := range wf.Jobs {
		if job.RunsOn == "" || len(job.Steps) == 0 {
			t.Errorf("a job without runs-on or steps: %+v", job)
		}
		for _, s := range job.Steps {
			if (s.Run == "") == (s.Uses == "") {
				t.Errorf("a step needs one of run and uses: %+v", s)
			}
			for _, line := range strings.Split(s.Run, "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "toolscope ") {
					commands = append(commands, strings.TrimSpace(line))
				}
			}
		}
	}
	if len(commands) < 3 {
		t.Fatalf("the workflow runs %d toolscope commands: %q", len(commands), commands)
	}
	// The files the workflow reads: the catalog, its base version, and
	// the baseline the README says to write once.
	demo, err := os.ReadFile(demoPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"tools.json", "base-tools.json"} {
		os.WriteFile(filepath.Join(dir, name), demo, 0o644)
	}
	t.Chdir(dir)
	t.Setenv(cache.EnvDir, t.TempDir())
	if code, _, errOut := runCmd("", "lint", "--write-baseline", "toolscope-baseline.json", "tools.json"); code != 0 {
		t.Fatalf("the one-time baseline: exit %d %s", code, errOut)
	}
	for _, c := range commands {
		// The shell's part: redirections and `|| true`.
		for _, cut := range []string{" >", " ||", " |"} {
			if i := strings.Index(c, cut); i >= 0 {
				c = c[:i]
			}
		}
		args := strings.Fields(c)[1:]
		code, out, errOut := runCmd("", args...)
		if code != 0 {
			t.Errorf("`%s`: exit %d (the baselined catalog against itself must pass)\n%s\n%.400s", c, code, errOut, out)
		}
	}
	// A change that removes a tool and adds one without a description: the
	// gate and the diff fail, the annotations point into tools.json, and
	// the SARIF step (`|| true`) still writes a log.
	var doc struct{ Tools []json.RawMessage }
	if err := json.Unmarshal(demo, &doc); err != nil {
		t.Fatal(err)
	}
	changed := append(doc.Tools[1:], json.RawMessage(`{"name": "zz_new_tool", "inputSchema": {"type": "object"}}`))
	js, _ := json.MarshalIndent(map[string]any{"tools": changed}, "", " ")
	os.WriteFile("tools.json", js, 0o644)
	for _, c := range commands {
		shell := c
		for _, cut := range []string{" >", " ||", " |"} {
			if i := strings.Index(c, cut); i >= 0 {
				c = c[:i]
			}
		}
		code, out, errOut := runCmd("", strings.Fields(c)[1:]...)
		var want []string
		switch {
		case strings.Contains(c, "--format github"):
			want = []string{"::error file=tools.json,line=", "zz_new_tool", "RESULT: FAIL"}
		case strings.Contains(c, "--format sarif"):
			want = []string{`"baselineState": "new"`, `"version": "2.1.0"`}
		case strings.HasPrefix(c, "toolscope diff"):
			want = []string{"FAIL", "tool removed", "zz_new_tool"}
		}
		if code != 1 || errOut != "" {
			t.Errorf("`%s` on a regressed catalog: exit %d, want 1\n%s", shell, code, errOut)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("`%s` on a regressed catalog: output lacks %q\n%.1500s", shell, w, out)
			}
		}
	}
}

// The composite action (action.yml) parses, has the steps it promises
// (setup-go, go install, the vector cache, lint, the SARIF upload, the
// gate), and its lint command is a real command: run as the action runs
// it over the monorepo fixture, it fails the gate on the one catalog with
// an error, writes a SARIF log with a run per catalog, and passes once the
// error is fixed.
func TestActionYML(t *testing.T) {
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Name   string
		Inputs map[string]struct {
			Required bool
			Default  string
		}
		Runs struct {
			Using string
			Steps []struct {
				ID, Name, Uses, Run, Shell, If string
				Env                            map[string]string
				With                           map[string]any
			}
		}
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("action.yml is not YAML: %v", err)
	}
	if action.Runs.Using != "composite" || !action.Inputs["catalogs"].Required {
		t.Fatalf("runs.using %q, inputs %+v", action.Runs.Using, action.Inputs)
	}
	var uses []string
	var lintRun string
	var lintEnv map[string]string
	for _, s := range action.Runs.Steps {
		if s.Run != "" && s.Shell == "" {
			t.Errorf("step %q runs without a shell (a composite action needs one)", s.Name)
		}
		switch {
		case s.Uses != "":
			uses = append(uses, s.Uses[:strings.Index(s.Uses, "@")])
		case strings.Contains(s.Run, "go install"):
			uses = append(uses, "go install")
		case s.ID == "lint":
			uses = append(uses, "lint")
			lintRun, lintEnv = s.Run, s.Env
		}
	}
	want := []string{"actions/setup-go", "go install", "actions/cache", "lint", "github/codeql-action/upload-sarif"}
	if !slices.Equal(uses, want) {
		t.Fatalf("steps %v, want %v", uses, want)
	}
	if lintEnv[cache.EnvDir] == "" || !strings.Contains(lintRun, "set -f") {
		t.Errorf("the lint step sets no %s, or lets the shell expand the patterns: %v\n%s", cache.EnvDir, lintEnv, lintRun)
	}
	var command string
	for _, line := range strings.Split(lintRun, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "toolscope lint") {
			command = strings.TrimSpace(line)
		}
	}
	if i := strings.Index(command, " ||"); i >= 0 {
		command = command[:i]
	}
	root := monorepo(t)
	t.Chdir(root)
	t.Setenv(cache.EnvDir, t.TempDir())
	run := func(args, catalogs string) int {
		env := map[string]string{"$SARIF": "out.sarif", "$ARGS": args, "$CATALOGS": catalogs}
		var argv []string
		for _, f := range strings.Fields(command)[1:] {
			f = strings.Trim(f, `"`)
			for k, v := range env {
				f = strings.ReplaceAll(f, k, v)
			}
			argv = append(argv, strings.Fields(f)...)
		}
		code, _, errOut := runCmd("", argv...)
		if code == 2 {
			t.Fatalf("`%s` as the action runs it: %s", command, errOut)
		}
		return code
	}
	if code := run("--no-similarity", "services/**/tools.json tools/"); code != 1 {
		t.Errorf("exit %d on the catalog with an error, want 1", code)
	}
	sarif, err := os.ReadFile("out.sarif")
	if err != nil || strings.Count(string(sarif), `"automationDetails"`) != 5 {
		t.Errorf("the SARIF log: %v, %d runs", err, strings.Count(string(sarif), `"automationDetails"`))
	}
	fixed := strings.Replace(mustRead(t, "services/slack/tools.json"), `"urgent"`, `3`, 1)
	if err := os.WriteFile("services/slack/tools.json", []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run("--no-similarity", "services/**/tools.json tools/"); code != 0 {
		t.Errorf("exit %d once fixed, want 0", code)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
