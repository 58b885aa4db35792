//go:build unix

package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The jobs docs/ci.md gives, run step by step as the GitHub runner runs
// them, in scratch git repositories: each `run:` step as written (bash,
// -e, pipefail, with GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY), the
// action's own steps for `uses: ./.toolscope`, and stand-ins for the
// actions a runner would fetch (checkout, setup-go, the cache, the SARIF
// upload, the artifact), each acting as GitHub's does in that case.

type ghStep struct {
	ID               string `yaml:"id"`
	Name             string `yaml:"name"`
	Uses             string `yaml:"uses"`
	Run              string `yaml:"run"`
	If               string `yaml:"if"`
	Shell            string `yaml:"shell"`
	WorkingDirectory string `yaml:"working-directory"`
	ContinueOnError  string `yaml:"continue-on-error"`
	Env              map[string]string
	With             map[string]string
}

type ghAction struct {
	Inputs map[string]struct {
		Required bool
		Default  string
	}
	Runs struct {
		Using string
		Steps []ghStep
	}
}

// ciJob reads the job marked `<!-- job: NAME -->` in docs/ci.md.
func ciJob(t *testing.T, name string) (string, []ghStep) {
	t.Helper()
	data := mustReadBytes(t, "docs/ci.md")
	m := regexp.MustCompile("(?s)<!-- job: " + regexp.QuoteMeta(name) + " -->\n```yaml\n(.*?)```\n").FindSubmatch(data)
	if m == nil {
		t.Fatalf("docs/ci.md has no job %q", name)
	}
	var wf struct {
		Jobs map[string]struct {
			RunsOn      string `yaml:"runs-on"`
			Permissions map[string]string
			Steps       []ghStep
		}
	}
	if err := yaml.Unmarshal(m[1], &wf); err != nil {
		t.Fatalf("docs/ci.md's job %q is not YAML: %v", name, err)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("docs/ci.md's %q block holds %d jobs", name, len(wf.Jobs))
	}
	for _, j := range wf.Jobs {
		// What the upload needs on every kind of repository docs/ci.md names.
		for _, p := range []string{"contents", "security-events", "actions"} {
			if j.Permissions[p] == "" {
				t.Errorf("job %q asks no %s permission: %v", name, p, j.Permissions)
			}
		}
		return string(m[1]), j.Steps
	}
	return "", nil
}

// ghCase is one repository and pull request the job meets.
type ghCase struct {
	vars        map[string]string
	fork        bool // the pull request comes from a fork
	noScanning  bool // a private repository without code scanning
	baseFiles   map[string]string
	headFiles   map[string]string
	actionInput map[string]string
	// toolscope, when set, is what `go install` installs instead of the
	// built binary.
	toolscope string
}

// ghRun is one job's run.
type ghRun struct {
	t        *testing.T
	c        ghCase
	ws, temp string
	gopath   string
	bin      string // the directory of the fake go
	pathAdds []string
	log      bytes.Buffer
	summary  string
	failed   bool
	ran      []string // the steps that ran, by name or uses
	uploaded []string // SARIF logs uploaded
	kept     []string // files kept as artifacts
	cacheKey string
	checkout map[string]string // path -> "repository@ref"
}

const toolscopeRepo = "tools-org/toolscope"

func newGHRun(t *testing.T, c ghCase) *ghRun {
	t.Helper()
	toolscope := c.toolscope
	if toolscope == "" {
		toolscope = binary(t)
	}
	root := t.TempDir()
	r := &ghRun{t: t, c: c, ws: filepath.Join(root, "ws"), temp: filepath.Join(root, "temp"), gopath: filepath.Join(root, "gopath"), bin: filepath.Join(root, "bin"), checkout: map[string]string{}}
	for _, d := range []string{r.temp, r.bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// `go install .` in the action's checkout installs the binary built
	// for the tests; `go env GOPATH` answers.
	fakeGo := fmt.Sprintf("#!/bin/sh\ncase \"$1\" in\ninstall) [ -f go.mod ] || { echo 'go: no go.mod here' >&2; exit 1; }; mkdir -p %q && cp %q %q ;;\nenv) echo %q ;;\n*) echo \"go $*: not in the stand-in\" >&2; exit 2 ;;\nesac\n",
		filepath.Join(r.gopath, "bin"), toolscope, filepath.Join(r.gopath, "bin", "toolscope"), r.gopath)
	if err := os.WriteFile(filepath.Join(r.bin, "go"), []byte(fakeGo), 0o755); err != nil {
		t.Fatal(err)
	}
	// The repository: main holds the base files, the pull request's
	// branch the head files; the workspace is its clone at the head with
	// origin/main fetched, as checkout with fetch-depth 0 leaves it.
	origin := filepath.Join(root, "origin")
	r.git(root, "init", "-q", "-b", "main", origin)
	writeTree(t, origin, c.baseFiles)
	r.git(origin, "add", "-A")
	r.git(origin, "commit", "-q", "--allow-empty", "-m", "base")
	r.git(origin, "checkout", "-q", "-b", "change")
	writeTree(t, origin, c.headFiles)
	r.git(origin, "add", "-A")
	r.git(origin, "commit", "-q", "--allow-empty", "-m", "the change")
	r.git(root, "clone", "-q", "-b", "change", origin, r.ws)
	return r
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func (r *ghRun) git(dir string, args ...string) {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// ctx answers an expression's context lookups.
type ghCtx struct {
	r      *ghRun
	inputs map[string]string
	steps  map[string]map[string]string // id -> outputs, plus "outcome"
	action string                       // github.action_path
	failed bool                         // an earlier step of this scope failed
}

func (c *ghCtx) lookup(name string) string {
	switch {
	case strings.HasPrefix(name, "vars."):
		return c.r.c.vars[strings.TrimPrefix(name, "vars.")]
	case strings.HasPrefix(name, "inputs."):
		return c.inputs[strings.TrimPrefix(name, "inputs.")]
	case strings.HasPrefix(name, "steps."):
		parts := strings.Split(name, ".")
		if len(parts) == 4 && parts[2] == "outputs" {
			return c.steps[parts[1]][parts[3]]
		}
		if len(parts) == 3 && parts[2] == "outcome" {
			return c.steps[parts[1]]["outcome"]
		}
	}
	head := "tools-org/app"
	if c.r.c.fork {
		head = "someone/app"
	}
	switch name {
	case "github.event_name":
		return "pull_request"
	case "github.repository":
		return "tools-org/app"
	case "github.event.pull_request.head.repo.full_name":
		return head
	case "github.action_path":
		return c.action
	case "github.workspace":
		return c.r.ws
	case "runner.temp":
		return c.r.temp
	case "runner.os":
		return "Linux"
	}
	c.r.t.Fatalf("the expression reads %q, which the stand-in runner does not know", name)
	return ""
}

var ghExpr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

func (c *ghCtx) subst(s string) string {
	return ghExpr.ReplaceAllStringFunc(s, func(m string) string {
		return ghString(c.eval(ghExpr.FindStringSubmatch(m)[1]))
	})
}

func ghString(v any) string {
	if b, ok := v.(bool); ok {
		if b {
			return "true"
		}
		return "false"
	}
	return v.(string)
}

func ghTruthy(v any) bool {
	if b, ok := v.(bool); ok {
		return b
	}
	return v.(string) != ""
}

// eval evaluates the part of the expression language the jobs use:
// contexts, string literals, ==, !=, !, &&, ||, parentheses, always(),
// success(), failure() and hashFiles('file').
func (c *ghCtx) eval(expr string) any {
	toks := regexp.MustCompile(`'[^']*'|==|!=|&&|\|\||[!()]|[A-Za-z_][A-Za-z0-9_.-]*\([^)]*\)|[A-Za-z_][A-Za-z0-9_.-]*|\S`).FindAllString(expr, -1)
	p := &ghParser{c: c, toks: toks}
	v := p.or()
	if p.i != len(toks) {
		c.r.t.Fatalf("the stand-in runner cannot read %q (stopped at %q)", expr, toks[p.i])
	}
	return v
}

type ghParser struct {
	c    *ghCtx
	toks []string
	i    int
}

func (p *ghParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *ghParser) or() any {
	v := p.and()
	for p.peek() == "||" {
		p.i++
		w := p.and()
		if !ghTruthy(v) {
			v = w
		}
	}
	return v
}

func (p *ghParser) and() any {
	v := p.cmp()
	for p.peek() == "&&" {
		p.i++
		w := p.cmp()
		if ghTruthy(v) {
			v = w
		}
	}
	return v
}

func (p *ghParser) cmp() any {
	v := p.unary()
	for p.peek() == "==" || p.peek() == "!=" {
		op := p.toks[p.i]
		p.i++
		w := p.unary()
		eq := strings.EqualFold(ghString(v), ghString(w))
		v = eq == (op == "==")
	}
	return v
}

func (p *ghParser) unary() any {
	switch t := p.peek(); {
	case t == "!":
		p.i++
		return !ghTruthy(p.unary())
	case t == "(":
		p.i++
		v := p.or()
		if p.peek() != ")" {
			p.c.r.t.Fatalf("unbalanced parentheses in %q", strings.Join(p.toks, " "))
		}
		p.i++
		return v
	case strings.HasPrefix(t, "'"):
		p.i++
		return strings.Trim(t, "'")
	case t == "always()":
		p.i++
		return true
	case t == "success()":
		p.i++
		return !p.c.failed
	case t == "failure()":
		p.i++
		return p.c.failed
	case strings.HasPrefix(t, "hashFiles("):
		p.i++
		arg := strings.Trim(strings.TrimSuffix(strings.TrimPrefix(t, "hashFiles("), ")"), "'")
		if _, err := os.Stat(filepath.Join(p.c.r.ws, arg)); err == nil {
			return "a-hash"
		}
		return ""
	case t == "true" || t == "false":
		p.i++
		return t == "true"
	case t != "":
		p.i++
		return p.c.lookup(t)
	}
	p.c.r.t.Fatalf("an expression ends early: %q", strings.Join(p.toks, " "))
	return ""
}

// runSteps runs steps in order as the runner does: a step runs when its
// `if` holds (success() by default), a failed step fails the scope
// unless continue-on-error is true.
func (r *ghRun) runSteps(c *ghCtx, steps []ghStep) {
	for _, s := range steps {
		cond := "success()"
		if s.If != "" {
			cond = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s.If), "${{"), "}}")
		}
		label := s.Name
		if label == "" {
			label = s.Uses
		}
		outcome := "skipped"
		if ghTruthy(c.eval(cond)) {
			r.ran = append(r.ran, label)
			outputs, err := r.step(c, s)
			outcome = "success"
			if err != nil {
				outcome = "failure"
				fmt.Fprintf(&r.log, "[step %q failed: %v]\n", label, err)
				if c.subst(s.ContinueOnError) != "true" {
					c.failed = true
				}
			}
			if s.ID != "" {
				c.steps[s.ID] = outputs
			}
		}
		if s.ID != "" {
			if c.steps[s.ID] == nil {
				c.steps[s.ID] = map[string]string{}
			}
			c.steps[s.ID]["outcome"] = outcome
		}
	}
}

func (r *ghRun) step(c *ghCtx, s ghStep) (map[string]string, error) {
	with := map[string]string{}
	for k, v := range s.With {
		with[k] = c.subst(v)
	}
	if s.Run != "" {
		return r.shell(c, s)
	}
	name, _, _ := strings.Cut(s.Uses, "@")
	switch name {
	case "actions/checkout":
		if with["path"] == "" {
			return nil, nil // the workspace is the repository's checkout
		}
		dest := filepath.Join(r.ws, with["path"])
		r.checkout[with["path"]] = with["repository"] + "@" + with["ref"]
		if with["repository"] == "" {
			// An empty repository is the workflow's own.
			r.git(r.ws, "clone", "-q", r.ws, dest)
			return nil, nil
		}
		if with["repository"] != toolscopeRepo {
			return nil, fmt.Errorf("repository %q not found", with["repository"])
		}
		writeTree(r.t, dest, map[string]string{"action.yml": string(mustReadBytes(r.t, "action.yml")), "go.mod": string(mustReadBytes(r.t, "go.mod"))})
		return nil, nil
	case "actions/setup-go":
		r.pathAdds = append(r.pathAdds, filepath.Join(r.gopath, "bin"))
		return nil, nil
	case "actions/cache":
		r.cacheKey = with["key"]
		return nil, nil
	case "github/codeql-action/upload-sarif":
		if r.c.fork {
			return nil, fmt.Errorf("Resource not accessible by integration")
		}
		if r.c.noScanning {
			return nil, fmt.Errorf("Code scanning is not enabled for this repository")
		}
		data, err := os.ReadFile(r.inWS(with["sarif_file"]))
		if err != nil {
			return nil, err
		}
		var log struct{ Version string }
		if json.Unmarshal(data, &log) != nil || log.Version != "2.1.0" {
			return nil, fmt.Errorf("%s is no SARIF 2.1.0 log", with["sarif_file"])
		}
		r.uploaded = append(r.uploaded, with["sarif_file"])
		return nil, nil
	case "actions/upload-artifact":
		for _, p := range strings.Split(strings.TrimSpace(with["path"]), "\n") {
			if _, err := os.Stat(r.inWS(strings.TrimSpace(p))); err == nil {
				r.kept = append(r.kept, filepath.Base(p))
			}
		}
		return nil, nil
	}
	if strings.HasPrefix(s.Uses, "./") {
		dir := filepath.Join(r.ws, s.Uses)
		data, err := os.ReadFile(filepath.Join(dir, "action.yml"))
		if err != nil {
			return nil, fmt.Errorf("Can't find 'action.yml' under '%s'", dir)
		}
		var a ghAction
		if err := yaml.Unmarshal(data, &a); err != nil {
			return nil, err
		}
		inputs := map[string]string{}
		for k, in := range a.Inputs {
			inputs[k] = in.Default
		}
		for k, v := range with {
			if _, ok := a.Inputs[k]; !ok {
				return nil, fmt.Errorf("unexpected input %q", k)
			}
			inputs[k] = v
		}
		for k, v := range r.c.actionInput {
			inputs[k] = v
		}
		inner := &ghCtx{r: r, inputs: inputs, steps: map[string]map[string]string{}, action: dir}
		r.runSteps(inner, a.Runs.Steps)
		if inner.failed {
			return nil, fmt.Errorf("the action failed")
		}
		return nil, nil
	}
	return nil, fmt.Errorf("the stand-in runner has no %s", s.Uses)
}

func (r *ghRun) shell(c *ghCtx, s ghStep) (map[string]string, error) {
	script := filepath.Join(r.temp, "step.sh")
	if err := os.WriteFile(script, []byte(c.subst(s.Run)), 0o644); err != nil {
		r.t.Fatal(err)
	}
	outFile := filepath.Join(r.temp, "output")
	os.WriteFile(outFile, nil, 0o644)
	pathFile := filepath.Join(r.temp, "path")
	os.WriteFile(pathFile, nil, 0o644)
	summary := filepath.Join(r.temp, "summary")
	if _, err := os.Stat(summary); err != nil {
		os.WriteFile(summary, nil, 0o644)
	}
	path := append(slices.Clone(r.pathAdds), r.bin, "/usr/local/bin", "/usr/bin", "/bin")
	slices.Reverse(path[:len(r.pathAdds)])
	env := []string{
		"PATH=" + strings.Join(path, ":"), "HOME=" + filepath.Join(r.temp, "home"), "LANG=C.UTF-8",
		"GITHUB_OUTPUT=" + outFile, "GITHUB_PATH=" + pathFile, "GITHUB_STEP_SUMMARY=" + summary,
		"GITHUB_WORKSPACE=" + r.ws, "GITHUB_BASE_REF=main", "GITHUB_HEAD_REF=change", "GITHUB_ACTIONS=true",
		"GITHUB_EVENT_NAME=pull_request", "RUNNER_TEMP=" + r.temp, "RUNNER_OS=Linux",
	}
	for k, v := range s.Env {
		env = append(env, k+"="+c.subst(v))
	}
	shell := []string{"bash", "--noprofile", "--norc", "-eo", "pipefail", script}
	if s.Shell != "" && s.Shell != "bash" {
		r.t.Fatalf("step %q uses shell %q", s.Name, s.Shell)
	}
	cmd := exec.Command(shell[0], shell[1:]...)
	cmd.Dir = r.ws
	if s.WorkingDirectory != "" {
		cmd.Dir = filepath.Join(r.ws, c.subst(s.WorkingDirectory))
		if filepath.IsAbs(c.subst(s.WorkingDirectory)) {
			cmd.Dir = c.subst(s.WorkingDirectory)
		}
	}
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = &r.log, &r.log
	err := cmd.Run()
	outputs := map[string]string{}
	data, _ := os.ReadFile(outFile)
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outputs[k] = v
		}
	}
	data, _ = os.ReadFile(pathFile)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line != "" {
			r.pathAdds = append(r.pathAdds, line)
		}
	}
	sum, _ := os.ReadFile(summary)
	r.summary = string(sum)
	return outputs, err
}

// run runs the job and reports whether it passed.
func (r *ghRun) run(steps []ghStep) bool {
	c := &ghCtx{r: r, steps: map[string]map[string]string{}}
	r.runSteps(c, steps)
	r.failed = c.failed
	return !c.failed
}

func (r *ghRun) read(path string) string {
	r.t.Helper()
	data, err := os.ReadFile(r.inWS(path))
	if err != nil {
		return ""
	}
	return string(data)
}

// The cases each job must handle, from docs/ci.md's table.
func TestCIJobs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git here")
	}
	demo := string(mustReadBytes(t, demoPath))
	// The baseline the docs say to write once, from the catalog as it is.
	baselineOf := func(catalog string) string {
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"tools.json": catalog})
		// The built binary, as the job runs it: a lint in this process
		// would use up warn-once warnings other tests look for.
		cmd := exec.Command(binary(t), "lint", "--write-baseline", "toolscope-baseline.json", "tools.json")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the one-time baseline: %v %s", err, out)
		}
		return mustRead(t, filepath.Join(dir, "toolscope-baseline.json"))
	}
	baseline := baselineOf(demo)
	reworded := strings.Replace(demo, `"description": "`, `"description": "Reworded. `, 1)
	var doc struct{ Tools []json.RawMessage }
	if err := json.Unmarshal([]byte(demo), &doc); err != nil {
		t.Fatal(err)
	}
	regressed, _ := json.MarshalIndent(map[string]any{"tools": append(doc.Tools[1:], json.RawMessage(`{"name": "zz_new_tool", "inputSchema": {"type": "object"}}`))}, "", " ")
	clean := string(mustReadBytes(t, "testdata/diff/v1.json"))
	cleanBaseline := baselineOf(clean)
	set := map[string]string{"TOOLSCOPE_REPOSITORY": toolscopeRepo, "TOOLSCOPE_REF": "v0.9.0"}
	base := map[string]string{"tools.json": demo, "toolscope-baseline.json": baseline}

	cases := []struct {
		name string
		c    ghCase
		pass bool
		// check asserts what the case is about.
		check func(t *testing.T, job string, r *ghRun)
	}{
		{"a pull request in a public repository", ghCase{vars: set, baseFiles: base, headFiles: map[string]string{"tools.json": reworded}}, true,
			func(t *testing.T, job string, r *ghRun) {
				if len(r.uploaded) != 1 {
					t.Errorf("uploaded %v, want the one SARIF log", r.uploaded)
				}
				if !slices.Contains(r.kept, "toolscope.html") || !slices.Contains(r.kept, "toolscope-badge.svg") {
					t.Errorf("the artifact keeps %v, want the page and the badge", r.kept)
				}
				if got := r.checkout[".toolscope"]; got != toolscopeRepo+"@v0.9.0" {
					t.Errorf("toolscope was checked out from %q, want the variables' repository at their ref", got)
				}
				if job == "plain" && !strings.Contains(r.summary, "toolscope diff") {
					t.Errorf("the summary lacks the diff:\n%s", r.summary)
				}
				if job == "action" && !strings.HasPrefix(r.cacheKey, "toolscope-vectors-Linux-") || job == "action" && len(r.cacheKey) < len("toolscope-vectors-Linux-")+32 {
					t.Errorf("the cache key %q has no hash of the catalogs", r.cacheKey)
				}
			}},
		{"a pull request that adds tools.json", ghCase{vars: set, headFiles: map[string]string{"tools.json": clean, "toolscope-baseline.json": cleanBaseline}}, true,
			func(t *testing.T, job string, r *ghRun) {
				if job == "plain" && (!strings.Contains(r.summary, "tools.json is new in this pull request") || !strings.Contains(r.summary, "get_weather")) {
					t.Errorf("the summary does not show the new catalog:\n%s", r.summary)
				}
			}},
		{"a pull request from a fork", ghCase{vars: set, fork: true, baseFiles: base, headFiles: map[string]string{"tools.json": reworded}}, true,
			func(t *testing.T, job string, r *ghRun) {
				for _, s := range r.ran {
					if strings.HasPrefix(s, "github/codeql-action/upload-sarif") || strings.Contains(s, "code scanning") {
						t.Errorf("the upload step ran on a fork's pull request (%q)", s)
					}
				}
				if !slices.Contains(r.kept, "toolscope.html") {
					t.Errorf("the artifact keeps %v on a fork's pull request", r.kept)
				}
			}},
		{"a private repository without code scanning", ghCase{vars: set, noScanning: true, baseFiles: base, headFiles: map[string]string{"tools.json": reworded}}, true,
			func(t *testing.T, job string, r *ghRun) {
				if !strings.Contains(r.log.String(), "Code scanning is not enabled") {
					t.Errorf("the upload was not tried")
				}
			}},
		{"a regression", ghCase{vars: set, baseFiles: base, headFiles: map[string]string{"tools.json": string(regressed)}}, false,
			func(t *testing.T, job string, r *ghRun) {
				if !strings.Contains(r.log.String(), "::error file=tools.json,line=") {
					t.Errorf("no annotation in tools.json")
				}
				if len(r.uploaded) != 1 || !slices.Contains(r.kept, "toolscope.html") {
					t.Errorf("a failing gate still uploads and keeps the page: uploaded %v, kept %v", r.uploaded, r.kept)
				}
				if job == "plain" && !strings.Contains(r.summary, "zz_new_tool") {
					t.Errorf("the summary lacks the change:\n%s", r.summary)
				}
			}},
		{"unset repository variables", ghCase{vars: map[string]string{}, baseFiles: base, headFiles: map[string]string{"tools.json": reworded}}, false,
			func(t *testing.T, job string, r *ghRun) {
				lines := strings.Split(strings.TrimSpace(r.log.String()), "\n")
				var said []string
				for _, l := range lines {
					if !strings.HasPrefix(l, "[step ") {
						said = append(said, l)
					}
				}
				if len(said) != 1 || !strings.HasPrefix(said[0], "::error::") || !strings.Contains(said[0], "TOOLSCOPE_REPOSITORY") || !strings.Contains(said[0], "TOOLSCOPE_REF") {
					t.Errorf("want one ::error:: line naming both variables, got:\n%s", r.log.String())
				}
				if len(r.ran) != 1 {
					t.Errorf("steps ran after the failed check: %v", r.ran)
				}
			}},
		{"an unset ref", ghCase{vars: map[string]string{"TOOLSCOPE_REPOSITORY": toolscopeRepo}, baseFiles: base, headFiles: map[string]string{"tools.json": reworded}}, false,
			func(t *testing.T, job string, r *ghRun) {
				if out := r.log.String(); strings.Count(out, "::error::") != 1 || !strings.Contains(out, "TOOLSCOPE_REF") || strings.Contains(out, "TOOLSCOPE_REPOSITORY") {
					t.Errorf("want one line naming TOOLSCOPE_REF only, got:\n%s", out)
				}
			}},
	}
	for _, job := range []string{"action", "plain"} {
		_, steps := ciJob(t, job)
		for _, tc := range cases {
			t.Run(job+"/"+tc.name, func(t *testing.T) {
				r := newGHRun(t, tc.c)
				if passed := r.run(steps); passed != tc.pass {
					t.Errorf("the job passed: %v, want %v; steps run %q\n%s", passed, tc.pass, r.ran, r.log.String())
				}
				tc.check(t, job, r)
			})
		}
	}
}

// inWS resolves a path a step names: absolute, or under the workspace.
func (r *ghRun) inWS(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(r.ws, p)
}

// The action hands toolscope its args and headers argument for argument:
// a header's spaces, quotes and $(...) stay in it and nothing runs; a flag
// and its value split by a space fail with one line saying how to write it.
func TestActionArgs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git here")
	}
	_, steps := ciJob(t, "action")
	argv := filepath.Join(t.TempDir(), "argv")
	fake := filepath.Join(t.TempDir(), "toolscope")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nprintf '%s\\0' \"$@\" > "+argv+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	set := map[string]string{"TOOLSCOPE_REPOSITORY": toolscopeRepo, "TOOLSCOPE_REF": "v0.9.0"}
	files := map[string]string{"tools.json": "{}"}
	r := newGHRun(t, ghCase{vars: set, headFiles: files, toolscope: fake, actionInput: map[string]string{
		"catalogs": "tools.json servers/**/tools.json",
		"args":     "--baseline=toolscope baseline.json\n\n  --strict  \n--mcp-config=mcp.json",
		"headers":  "Authorization: Bearer a'b\"c $(touch pwned) `id`\nX-Team: tools *",
	}})
	if !r.run(steps) {
		t.Fatalf("the job failed: %s", r.log.String())
	}
	data, err := os.ReadFile(argv)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	out := filepath.Join(r.temp, "toolscope")
	want := []string{"lint", "--format", "github", "--format", "sarif=" + out + "/toolscope.sarif",
		"--baseline=toolscope baseline.json", "--strict", "--mcp-config=mcp.json",
		"--header", "Authorization: Bearer a'b\"c $(touch pwned) `id`", "--header", "X-Team: tools *",
		"tools.json", "servers/**/tools.json"}
	if !slices.Equal(got, want) {
		t.Errorf("toolscope got\n%q\nwant\n%q", got, want)
	}
	if _, err := os.Stat(filepath.Join(r.ws, "pwned")); err == nil {
		t.Error("a header's $(...) ran")
	}

	r = newGHRun(t, ghCase{vars: set, headFiles: files, toolscope: fake, actionInput: map[string]string{"catalogs": "tools.json", "args": "--strict\n--baseline toolscope-baseline.json"}})
	if r.run(steps) {
		t.Fatal("a flag split from its value by a space passed")
	}
	if n := strings.Count(r.log.String(), "::error::"); n != 1 || !strings.Contains(r.log.String(), "args line 2") || !strings.Contains(r.log.String(), "--name=value") {
		t.Errorf("want one line naming args line 2 and the --name=value form:\n%s", r.log.String())
	}
}

// The action over the monorepo fixture: its one lint run fails the gate
// on the one catalog with an error, writes a SARIF log with a run per
// catalog, and passes once the error is fixed.
func TestActionMonorepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git here")
	}
	_, steps := ciJob(t, "action")
	files := map[string]string{}
	err := filepath.WalkDir("testdata/monorepo", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("testdata/monorepo", p)
		files[rel] = mustRead(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	set := map[string]string{"TOOLSCOPE_REPOSITORY": toolscopeRepo, "TOOLSCOPE_REF": "v0.9.0"}
	in := map[string]string{"catalogs": "services/**/tools.json tools/", "args": "--no-similarity"}
	r := newGHRun(t, ghCase{vars: set, headFiles: files, actionInput: in})
	if r.run(steps) {
		t.Errorf("the job passed on the catalog with an error:\n%s", r.log.String())
	}
	sarif := r.read(filepath.Join(r.temp, "toolscope", "toolscope.sarif"))
	if n := strings.Count(sarif, `"automationDetails"`); n != 5 {
		t.Errorf("the SARIF log has %d runs, want 5", n)
	}
	key := r.cacheKey
	files["services/slack/tools.json"] = strings.Replace(files["services/slack/tools.json"], `"urgent"`, `3`, 1)
	r = newGHRun(t, ghCase{vars: set, headFiles: files, actionInput: in})
	if !r.run(steps) {
		t.Errorf("the job failed once the error was fixed:\n%s", r.log.String())
	}
	if r.cacheKey == key {
		t.Errorf("the cache key %q did not change with a catalog", key)
	}
	// A file no catalog names leaves the key alone.
	files["node_modules/x/tools.json"] = "{}"
	files["README.json"] = "{}"
	key = r.cacheKey
	r = newGHRun(t, ghCase{vars: set, headFiles: files, actionInput: in})
	r.run(steps)
	if r.cacheKey != key {
		t.Errorf("the cache key changed with files outside the catalogs: %q, then %q", key, r.cacheKey)
	}
}

// The README's action job is docs/ci.md's, which TestCIJobs runs.
func TestREADMEActionJobIsDocs(t *testing.T) {
	m := regexp.MustCompile("(?s)<!-- action -->\n```yaml\n(.*?)```\n").FindSubmatch(mustReadBytes(t, "README.md"))
	if m == nil {
		t.Fatal("the README has no action job")
	}
	if doc, _ := ciJob(t, "action"); doc != string(m[1]) {
		t.Errorf("the README's action job differs from docs/ci.md's:\n%s\ndocs/ci.md:\n%s", m[1], doc)
	}
}
