package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"toolscope/core/lint"
)

// copyTree copies the directory src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// monorepo is a copy of testdata/monorepo made a git work tree (a .git
// directory at its top), five catalogs in subfolders.
func monorepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	copyTree(t, "testdata/monorepo", root)
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_WORKSPACE", "")
	return root
}

func TestGlobFiles(t *testing.T) {
	root := monorepo(t)
	t.Chdir(root)
	for _, extra := range []string{"services/github/.hidden/tools.json", "node_modules/x/tools.json", "services/db/package.json", "services/db/notes.txt"} {
		if err := os.MkdirAll(filepath.Dir(extra), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(extra, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := []string{"services/db/tools.json", "services/github/tools.json", "services/slack/tools.json", "tools/search/tools.json", "tools/time/tools.json"}
	cases := []struct {
		args []string
		want []string
		err  string
	}{
		{[]string{"**/tools.json"}, all, ""},
		{[]string{"node_modules/**/tools.json"}, []string{"node_modules/x/tools.json"}, ""},
		{[]string{"services/**/tools.json"}, all[:3], ""},
		{[]string{"services/*/tools.json"}, all[:3], ""},
		{[]string{"tools/s*/tools.json", "services/db/tools.json"}, []string{"tools/search/tools.json", "services/db/tools.json"}, ""},
		{[]string{"services"}, all[:3], ""},
		{[]string{"."}, all, ""},
		{[]string{"services/db/tools.json", "services", "**/db/*.json"}, []string{"services/db/tools.json", "services/github/tools.json", "services/slack/tools.json", "services/db/package.json"}, ""},
		{[]string{"nothing/**/*.json"}, nil, "nothing/**/*.json: no file matches"},
		{[]string{"services/[/x.json"}, nil, "a malformed pattern"},
		{[]string{"-"}, []string{"-"}, ""},
	}
	for _, c := range cases {
		targets, err := expandCatalogs(c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.args, err, c.err)
			}
			continue
		}
		var got []string
		for _, tg := range targets {
			got = append(got, filepath.ToSlash(filepath.Clean(tg.arg)))
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%v: %v (%v), want %v", c.args, got, err, c.want)
		}
	}
}

func TestRepoPath(t *testing.T) {
	root := monorepo(t)
	t.Chdir(filepath.Join(root, "services", "github"))
	if got := repoRoot(); got != root {
		evalRoot, _ := filepath.EvalSymlinks(root)
		evalGot, _ := filepath.EvalSymlinks(got)
		if evalRoot != evalGot {
			t.Fatalf("repoRoot() = %q, want %q", got, root)
		}
	}
	r := repoRoot()
	for arg, want := range map[string]string{
		"tools.json":                  "services/github/tools.json",
		"../slack/tools.json":         "services/slack/tools.json",
		filepath.Join(root, "x.json"): "x.json",
		"../../../outside.json":       "../../../outside.json",
		"-":                           "-",
		"mcp:server --flag":           "mcp:server --flag",
	} {
		if got := repoPath(r, arg); got != want {
			t.Errorf("repoPath(%q) = %q, want %q", arg, got, want)
		}
	}
	// $GITHUB_WORKSPACE wins over the git work tree.
	t.Setenv("GITHUB_WORKSPACE", filepath.Join(root, "services"))
	if got := repoPath(repoRoot(), "tools.json"); got != "github/tools.json" {
		t.Errorf("with GITHUB_WORKSPACE: %q", got)
	}
}

// annotationFiles lists the file= of each GitHub annotation line.
func annotationLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "::") {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestMonorepoLocations: five catalogs in subfolders, linted from the root
// and from a subfolder, give the same repository-relative annotations.
func TestMonorepoLocations(t *testing.T) {
	root := monorepo(t)
	run := func(dir string, args ...string) (int, string) {
		t.Chdir(dir)
		code, out, errOut := runCmd("", append([]string{"lint", "--no-similarity", "--format", "github"}, args...)...)
		if code == 2 {
			t.Fatalf("from %s: %s", dir, errOut)
		}
		return code, out
	}
	codeRoot, fromRoot := run(root, "**/tools.json")
	codeSub, fromSub := run(filepath.Join(root, "services", "github"), "../..")
	if codeRoot != 1 || codeSub != 1 {
		t.Errorf("exit %d and %d, want 1 (the slack catalog has an error)", codeRoot, codeSub)
	}
	a, b := annotationLines(fromRoot), annotationLines(fromSub)
	if len(a) < 6 || !slices.Equal(a, b) {
		t.Fatalf("annotations differ:\nfrom the root:\n%s\nfrom services/github:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	files := map[string]bool{}
	for _, l := range a {
		f := l[strings.Index(l, "file=")+5:]
		files[f[:strings.Index(f, ",")]] = true
	}
	for _, want := range []string{"services/db/tools.json", "services/github/tools.json", "services/slack/tools.json", "tools/search/tools.json", "tools/time/tools.json"} {
		if !files[want] {
			t.Errorf("no annotation on %s: %v", want, files)
		}
	}
	// The SARIF log, written from either place, is the same to the byte:
	// one run per catalog, each its own category, paths from %SRCROOT%.
	sarifFrom := func(dir, arg string) []byte {
		t.Chdir(dir)
		code, _, errOut := runCmd("", "lint", "--no-similarity", "--format", "sarif=out.sarif", arg)
		if code == 2 {
			t.Fatalf("from %s: %s", dir, errOut)
		}
		data, err := os.ReadFile("out.sarif")
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	s1 := sarifFrom(root, "**/tools.json")
	s2 := sarifFrom(filepath.Join(root, "services", "github"), "../..")
	if !bytes.Equal(s1, s2) {
		t.Errorf("the SARIF logs differ:\n%s\n----\n%s", s1, s2)
	}
	var log struct {
		Runs []struct {
			AutomationDetails  struct{ ID string }
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Results            []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string } `json:"artifactLocation"`
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(s1, &log); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, run := range log.Runs {
		ids[run.AutomationDetails.ID] = true
		if base := run.OriginalURIBaseIDs["%SRCROOT%"].URI; !strings.HasPrefix(base, "file:///") || !strings.HasSuffix(base, "/") {
			t.Errorf("%%SRCROOT%% is %q", base)
		}
		for _, res := range run.Results {
			loc := res.Locations[0].PhysicalLocation
			if loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || !strings.HasSuffix(loc.ArtifactLocation.URI, "/tools.json") || strings.HasPrefix(loc.ArtifactLocation.URI, ".") {
				t.Errorf("%s at %+v", res.RuleID, loc.ArtifactLocation)
			}
		}
	}
	if len(log.Runs) != 5 || len(ids) != 5 || !ids["toolscope/services/slack/tools.json/"] {
		t.Errorf("runs %d, automation ids %v", len(log.Runs), ids)
	}
	// Parameter findings point at the parameter's own line, an enum
	// member's at the member's.
	slack, _ := os.ReadFile(filepath.Join(root, "services/slack/tools.json"))
	lineOf := func(s string) int { return strings.Count(string(slack[:bytes.Index(slack, []byte(s))]), "\n") + 1 }
	want := map[string]int{"optional-param-undocumented": lineOf(`"thread"`), "enum-type-mismatch": lineOf(`"urgent"`)}
	for _, run := range log.Runs {
		for _, res := range run.Results {
			loc := res.Locations[0].PhysicalLocation
			if loc.ArtifactLocation.URI != "services/slack/tools.json" || want[res.RuleID] == 0 {
				continue
			}
			if res.RuleID == "optional-param-undocumented" && loc.Region.StartLine != want[res.RuleID] && loc.Region.StartLine != lineOf(`"priority"`) {
				t.Errorf("%s at line %d", res.RuleID, loc.Region.StartLine)
			}
			if res.RuleID == "enum-type-mismatch" && loc.Region.StartLine != want[res.RuleID] {
				t.Errorf("%s at line %d, want the member's %d", res.RuleID, loc.Region.StartLine, want[res.RuleID])
			}
		}
	}
	if l := annotationLines(fromRoot); !slices.ContainsFunc(l, func(s string) bool {
		return strings.Contains(s, fmt.Sprintf("file=services/slack/tools.json,line=%d,", want["enum-type-mismatch"]))
	}) {
		t.Errorf("no annotation at the enum member's line %d: %v", want["enum-type-mismatch"], l)
	}

	// One catalog, from its own folder: the path is still the repository's.
	_, one := run(filepath.Join(root, "services", "github"), "tools.json")
	if l := annotationLines(one); len(l) == 0 || !strings.Contains(l[0], "file=services/github/tools.json,") {
		t.Errorf("from the catalog's folder: %v", l)
	}
}

// TestLintSeveralOutputs: one run writes the gate's report on stdout and
// the others to their files.
func TestLintSeveralOutputs(t *testing.T) {
	root := monorepo(t)
	t.Chdir(root)
	code, out, errOut := runCmd("", "lint", "--no-similarity", "--format", "github", "--format", "json=out.json", "--format", "markdown=summary.md", "services")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if len(annotationLines(out)) == 0 {
		t.Errorf("stdout has no annotations: %s", out)
	}
	js, err := os.ReadFile("out.json")
	if err != nil || !strings.Contains(string(js), `"path": "services/slack/tools.json"`) || !strings.Contains(string(js), `"ok": false`) {
		t.Errorf("out.json: %v %.300s", err, js)
	}
	md, err := os.ReadFile("summary.md")
	if err != nil || strings.Count(string(md), "services/") < 3 {
		t.Errorf("summary.md: %v %.300s", err, md)
	}
	code, _, errOut = runCmd("", "lint", "--format", "json", "--format", "sarif", "services")
	if code != 2 || !strings.Contains(errOut, "stdout already has --format json") {
		t.Errorf("two formats on stdout: exit %d %s", code, errOut)
	}
}

// TestRulesDoc: docs/rules.md, where SARIF's helpUri points, has a section
// for every rule and verdict, with the rule's own summary.
func TestRulesDoc(t *testing.T) {
	data, err := os.ReadFile("docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, r := range lint.AllRules() {
		i := strings.Index(doc, "\n## "+r.ID+"\n")
		if i < 0 {
			t.Errorf("docs/rules.md has no section %q", r.ID)
			continue
		}
		summary := strings.ToUpper(r.Summary[:1]) + r.Summary[1:]
		if !strings.Contains(doc[i:], summary) {
			t.Errorf("docs/rules.md: %s: the summary %q is not the rule's", r.ID, r.Summary)
		}
	}
	for _, id := range []string{"confusable-pair", "review-pair", lint.RuleModelReview} {
		if !strings.Contains(doc, "\n## "+id+"\n") {
			t.Errorf("docs/rules.md has no section %q", id)
		}
	}
}

// The gate's flags beyond the results: an empty catalog, --max-warnings,
// --fail-on stale, --quiet.
func TestLintGateFlags(t *testing.T) {
	empty := writeFile(t, "empty.json", `{"tools": []}`)
	warned := writeFile(t, "warned.json", `[{"name": "get_weather", "description": "Current weather for one city, for questions about now.",
  "inputSchema": {"type": "object", "properties": {"units": {"type": "string"}}}}]`)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "stale.yaml")
	if err := os.WriteFile(cfg, []byte("ignore:\n  - {rule: enum-in-prose, tool: nothing_here, reason: gone}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		args     []string
		code     int
		out, err string
	}{
		{"an empty catalog passes, said in one line", []string{empty}, 0, "RESULT: ok", "empty.json: the catalog has no tools"},
		{"an empty catalog fails under --strict", []string{"--strict", empty}, 1, "RESULT: FAIL (no tools (strict))", "the catalog has no tools"},
		{"warnings under the limit", []string{"--max-warnings", "1", warned}, 0, "RESULT: ok", ""},
		{"warnings over the limit", []string{"--max-warnings", "0", warned}, 1, "RESULT: FAIL (warnings in the run: 1, over --max-warnings 0)", ""},
		{"a bad limit", []string{"--max-warnings", "-3", warned}, 2, "", "--max-warnings -3"},
		{"a stale entry passes by default", []string{"--config", cfg, warned}, 0, "RESULT: ok", ""},
		{"a stale entry fails with --fail-on stale", []string{"--config", cfg, "--fail-on", "stale", warned}, 1, "1 stale config or baseline entries (--fail-on stale)", ""},
		{"--fail-on something else", []string{"--fail-on", "warnings", warned}, 2, "", "--fail-on warnings: want review or stale"},
		{"--quiet hides warnings", []string{"--quiet", warned}, 0, "Structural findings: none", ""},
	}
	for _, c := range cases {
		code, out, errOut := runCmd("", append([]string{"lint", "--no-similarity"}, c.args...)...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", c.name, code, c.code, out, errOut)
		}
		if c.err != "" && strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: stderr is not one line: %q", c.name, errOut)
		}
	}
}

// Similarity stays inside each catalog unless --merge asks for a host's
// view of all of them: two servers' twins are then a confusable pair.
func TestLintMerge(t *testing.T) {
	dir := t.TempDir()
	for name, tool := range map[string]string{"weather": "get_weather", "forecast": "get_weather_now"} {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		js := `[{"name": "` + tool + `", "description": "Current weather for one city, for questions about right now."}]`
		if err := os.WriteFile(filepath.Join(dir, name, "tools.json"), []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"lint", "--no-config", "--embedder", "mock", "--scoring", "cosine", "--threshold", "0.9", "--format", "json"}
	code, out, errOut := runCmd("", append(args, dir)...)
	if code != 0 || strings.Contains(out, `"confusable": [{`) {
		t.Errorf("apart: exit %d %s\n%.500s", code, errOut, out)
	}
	code, out, errOut = runCmd("", append(args, "--merge", dir)...)
	if code != 1 || !strings.Contains(out, `"a": "forecast__get_weather_now"`) || !strings.Contains(out, `"b": "weather__get_weather"`) {
		t.Errorf("merged: exit %d %s\n%.800s", code, errOut, out)
	}
	// The merged catalog is no file: annotations and SARIF results name
	// no file, only the tools.
	_, out, _ = runCmd("", append(args[:len(args)-2], "--merge", "--format", "github", dir)...)
	if strings.Contains(out, "file=") || !strings.Contains(out, "::error title=toolscope confusable-pair::") {
		t.Errorf("merged annotations: %s", out)
	}
	_, out, _ = runCmd("", append(args[:len(args)-2], "--merge", "--format", "sarif", dir)...)
	if strings.Contains(out, "physicalLocation") || !strings.Contains(out, "logicalLocations") {
		t.Errorf("merged SARIF points into a file: %.600s", out)
	}
}

// The SARIF rule list is the pack as the config ran it: a rule set off is
// left out, a rule raised to error declares error, review-pair declares
// note.
func TestSARIFRulesFollowConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "toolscope.yaml")
	if err := os.WriteFile(cfg, []byte("rules:\n  enum-in-prose: off\n  says-what-not-when: error\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd("", "lint", "--no-similarity", "--config", cfg, "--format", "sarif", demoPath)
	if code == 2 {
		t.Fatal(errOut)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string
					Rules   []struct {
						ID                   string
						DefaultConfiguration struct{ Level string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	levels := map[string]string{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		levels[r.ID] = r.DefaultConfiguration.Level
	}
	if _, on := levels["enum-in-prose"]; on {
		t.Error("a rule set off is listed")
	}
	if v := log.Runs[0].Tool.Driver.Version; v != versionLine() || v == "" {
		t.Errorf("driver version %q, want --version's %q", v, versionLine())
	}
	if levels["says-what-not-when"] != "error" || levels["optional-param-undocumented"] != "warning" || levels["review-pair"] != "note" || levels["tool-poisoning"] != "error" {
		t.Errorf("levels %v", levels)
	}
}

// --version answers from the build info; --no-color and NO_COLOR take
// the colour off a terminal's report.
func TestVersionAndColour(t *testing.T) {
	code, out, _ := runCmd("", "--version")
	if code != 0 || !strings.HasPrefix(out, "toolscope ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version: exit %d %q", code, out)
	}
	clean := writeFile(t, "clean.json", cleanCatalog)
	colour := func(io stdio, args ...string) bool {
		var b bytes.Buffer
		io.out, io.err, io.in = &b, &bytes.Buffer{}, strings.NewReader("")
		run(args, io)
		return strings.Contains(b.String(), "\x1b[")
	}
	tty := stdio{outTTY: true}
	if !colour(tty, "lint", "--no-similarity", clean) {
		t.Fatal("a terminal's report has no colour to take off")
	}
	if colour(tty, "lint", "--no-similarity", "--no-color", clean) || colour(tty, "--no-color", "lint", "--no-similarity", clean) {
		t.Error("--no-color left colour")
	}
	if colour(stdio{outTTY: true, noColor: true}, "lint", "--no-similarity", clean) {
		t.Error("NO_COLOR left colour")
	}
}
