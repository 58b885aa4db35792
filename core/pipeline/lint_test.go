package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/live"
	"toolscope/core/similarity"
	"toolscope/embed"
)

// Two servers' catalogs: a's second tool has a name no provider takes
// and a parameter whose values are listed in prose, b's one tool reads
// as a's first.
const (
	catalogA = `{"tools": [
 {"name": "search_issues", "description": "Searches the issues of one repository by text and returns the twenty best matches.", "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "The text to search for."}, "state": {"type": "string", "description": "Which issues to search: one of open, closed or all."}}, "required": ["query"]}},
 {"name": "get issue", "description": "Gets one issue of a repository by its number, with its title, body, labels and state.", "inputSchema": {"type": "object", "properties": {"number": {"type": "integer", "description": "The issue's number."}}, "required": ["number"]}}
]}`
	catalogB = `{"tools": [
 {"name": "search_tickets", "description": "Searches the issues of one repository by text and returns the twenty best matches.", "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "The text to search for."}}, "required": ["query"]}}
]}`
)

// project writes a folder of catalogs as a project holds them, with
// files a folder's walk must pass over, and returns its root.
func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for path, data := range map[string]string{
		"servers/a/tools.json":                catalogA,
		"servers/b/tools.json":                catalogB,
		"servers/c/tools.json":                `{"tools": []}`,
		"servers/package.json":                `{"name": "servers"}`,
		"servers/a/" + judge.ProbeFileName:    `{"probe": 1}`,
		"servers/b/report.toolscope.json":     `{"ok": true}`,
		"servers/node_modules/x/tools.json":   catalogB,
		"servers/.hidden/tools.json":          catalogB,
		"servers/a/notes.md":                  "not a catalog",
		"servers/b/exported-lint-report.json": `{"ok": false, "toolCount": 1}`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// files is a Source of catalog files named from root; it records what it
// loaded.
type files struct {
	root   string
	loaded []string
}

func (s *files) Label(arg string) string { return "loading " + arg }

func (s *files) Load(arg string) (*catalog.Catalog, error) {
	s.loaded = append(s.loaded, arg)
	return catalog.Load(arg, nil)
}

func (s *files) Path(arg string, _ *catalog.Catalog) string {
	rel, _ := filepath.Rel(s.root, arg)
	return filepath.ToSlash(rel)
}

func (s *files) Probe(*Linted) *judge.ProbeRecord { return nil }

// steps records what a run says on its progress line.
type steps struct{ said []string }

func (p *steps) Step(label string)          { p.said = append(p.said, label) }
func (p *steps) Update(similarity.Progress) {}
func (p *steps) End()                       { p.said = append(p.said, "end") }

// mockSetup is every catalog's setup: the recommended rules and the mock
// embedder, strict where strict says.
func mockSetup(strict bool) func(string) (*Setup, error) {
	return func(arg string) (*Setup, error) {
		return &Setup{Options: lint.DefaultOptions(), Strict: strict, Own: arg,
			Embedder: func() (embed.Embedder, error) { return embed.Mock{}, nil }}, nil
	}
}

func rulesOf(r *lint.Report) []string {
	var ids []string
	for _, f := range r.Structural {
		ids = append(ids, f.Rule+" "+f.Tool)
	}
	slices.Sort(ids)
	return ids
}

// A whole run over a folder, with no command line: the folder expands to
// its catalogs (nothing else it holds), each is loaded, analysed and
// named from the root, and the gate fails the run on a's error and
// notes c's empty catalog, failing it under strict.
func TestLintRunOverAFolder(t *testing.T) {
	dir := project(t)
	args, err := Expand([]string{filepath.Join(dir, "servers")})
	if err != nil {
		t.Fatal(err)
	}
	src := &files{root: dir}
	p := &steps{}
	runs, err := Lint(context.Background(), LintRequest{Args: args, Setup: mockSetup(true), Source: src, Progress: p})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range runs {
		paths = append(paths, r.Path)
	}
	if want := []string{"servers/a/tools.json", "servers/b/tools.json", "servers/c/tools.json"}; !slices.Equal(paths, want) {
		t.Fatalf("linted %q, want %q", paths, want)
	}
	if !slices.Equal(src.loaded, args) {
		t.Errorf("loaded %q, want each catalog once in order", src.loaded)
	}
	if got, want := rulesOf(runs[0].Report), []string{"enum-in-prose search_issues", "name-provider-limits get issue"}; !slices.Equal(got, want) {
		t.Errorf("a's findings %q, want %q", got, want)
	}
	if got := rulesOf(runs[1].Report); len(got) != 0 {
		t.Errorf("b's findings %q, want none", got)
	}
	if runs[0].Report.Score == nil || runs[0].Report.Score.Catalog >= 100 {
		t.Errorf("a's score %+v: want one that counts its findings", runs[0].Report.Score)
	}
	if !strings.HasPrefix(p.said[0], "loading ") || !slices.Contains(p.said, "opening the embedder") {
		t.Errorf("progress said %q", p.said)
	}
	var notes []string
	ok := Gate(runs, GateRequest{MaxWarnings: -1, Note: func(l string) { notes = append(notes, l) }})
	if ok {
		t.Error("the run passed with an error in a")
	}
	if !runs[1].Report.OK {
		t.Error("b failed: it has no finding")
	}
	if runs[2].Report.OK || !slices.Equal(notes, []string{"servers/c/tools.json: the catalog has no tools"}) {
		t.Errorf("c: ok %v, notes %q; want it failed (strict) and noted", runs[2].Report.OK, notes)
	}
}

// --max-warnings counts over every catalog and fails those with warnings;
// a baseline of the run accepts what it holds.
func TestLintRunGateAndBaseline(t *testing.T) {
	dir := project(t)
	args := []string{filepath.Join(dir, "servers/a/tools.json"), filepath.Join(dir, "servers/b/tools.json")}
	run := func() []*Linted {
		runs, err := Lint(context.Background(), LintRequest{Args: args, Setup: mockSetup(false), Source: &files{root: dir}})
		if err != nil {
			t.Fatal(err)
		}
		return runs
	}
	runs := run()
	if Gate(runs, GateRequest{MaxWarnings: 0}) || !runs[1].Report.OK {
		t.Fatal("want a failed (its error and warning over --max-warnings 0), b passed")
	}
	if !strings.Contains(strings.Join(runs[0].Report.FailedOn, "; "), "over --max-warnings 0") {
		t.Errorf("a's failures %q, want the warnings' limit named", runs[0].Report.FailedOn)
	}
	b := Baseline(run())
	again := run()
	Accept(again, b, "baseline.json")
	if !Gate(again, GateRequest{MaxWarnings: -1}) {
		t.Errorf("a run its own baseline accepts failed: %q", again[0].Report.FailedOn)
	}
}

// --merge: the catalogs load as one, each tool qualified by its server,
// and a's search reads as b's across the servers.
func TestLintRunMerged(t *testing.T) {
	dir := project(t)
	args := []string{filepath.Join(dir, "servers/a/tools.json"), filepath.Join(dir, "servers/b/tools.json")}
	p := &steps{}
	runs, err := Lint(context.Background(), LintRequest{Args: args, Merge: true, Setup: mockSetup(false), Source: &files{root: dir}, Progress: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 {
		t.Fatalf("%d reports, want one for the merge", len(runs))
	}
	m := runs[0]
	if !strings.HasPrefix(m.Path, catalog.MergedPrefix) || len(m.Catalog.Tools) != 3 {
		t.Fatalf("merged %q with %d tools", m.Path, len(m.Catalog.Tools))
	}
	a, b := live.QualifiedName("a", "search_issues"), live.QualifiedName("b", "search_tickets")
	found := false
	for _, pf := range slices.Concat(m.Report.Similarity.Confusable, m.Report.Similarity.Watch) {
		found = found || (pf.A == a && pf.B == b)
	}
	if !found {
		t.Errorf("no pair %s <> %s among %+v", a, b, m.Report.Similarity.Ranked)
	}
	if p.said[0] != "loading the catalogs" {
		t.Errorf("progress said %q", p.said)
	}
}

// --fix: a catalog whose fixes the front end applied is linted again, and
// the findings it fixed are gone.
func TestLintRunFixesAndLintsAgain(t *testing.T) {
	dir := project(t)
	path := filepath.Join(dir, "servers/a/tools.json")
	setups := 0
	setup := mockSetup(false)
	req := LintRequest{Args: []string{path}, Source: &files{root: dir},
		Setup: func(arg string) (*Setup, error) { setups++; return setup(arg) },
		Fix: func(l *Linted) (int, error) {
			var fixes []catalog.ToolFix
			for _, f := range l.Report.Structural {
				if len(f.Fix) > 0 {
					fixes = append(fixes, catalog.ToolFix{Tool: f.ToolIndex, Ops: f.Fix})
				}
			}
			return len(fixes), catalog.WriteFixes(l.Arg, l.Catalog, fixes)
		},
	}
	runs, err := Lint(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if setups != 2 {
		t.Errorf("set up %d times, want 2 (the lint, then the lint of the fixed file)", setups)
	}
	if got := rulesOf(runs[0].Report); len(got) != 0 {
		t.Errorf("after the fix: %q, want no finding", got)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"get_issue"`) {
		t.Errorf("the file was not fixed:\n%s", data)
	}
}

// The judge is asked only for a catalog its setup judges, after the
// config and with the progress line ended; an error a setup has said, or
// a catalog that does not load, ends the run there.
func TestLintRunJudgesAndStops(t *testing.T) {
	dir := project(t)
	a, b := filepath.Join(dir, "servers/a/tools.json"), filepath.Join(dir, "servers/b/tools.json")
	var judged []string
	p := &steps{}
	setup := func(arg string) (*Setup, error) {
		s, _ := mockSetup(false)(arg)
		s.Judging = arg == b
		return s, nil
	}
	judgeHook := func(_ context.Context, l *Linted) (*lint.Report, error) {
		judged = append(judged, l.Arg)
		if p.said[len(p.said)-1] != "end" {
			t.Error("judged with the progress line on")
		}
		l.Report.Fail("judged")
		return l.Report, nil
	}
	runs, err := Lint(context.Background(), LintRequest{Args: []string{a, b}, Setup: setup, Source: &files{root: dir}, Progress: p, Judge: judgeHook})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(judged, []string{b}) || runs[1].Report.OK {
		t.Errorf("judged %q, b ok %v: want b only, its judgment kept", judged, runs[1].Report.OK)
	}

	src := &files{root: dir}
	_, err = Lint(context.Background(), LintRequest{Args: []string{a, b}, Source: src,
		Setup: func(arg string) (*Setup, error) {
			if arg == a {
				return nil, Said{Code: 2}
			}
			return mockSetup(false)(arg)
		}})
	var said Said
	if !errors.As(err, &said) || said.Code != 2 || len(src.loaded) != 0 {
		t.Errorf("err %v, loaded %q: want the said error and nothing loaded", err, src.loaded)
	}
	_, err = Lint(context.Background(), LintRequest{Args: []string{filepath.Join(dir, "missing.json"), b}, Setup: mockSetup(false), Source: src})
	if err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("err %v, want the missing catalog named", err)
	}
}
