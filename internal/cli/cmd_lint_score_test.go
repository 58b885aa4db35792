package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/judge"
)

// lintScore lints a catalog file with the default embedder and returns
// the JSON report's score.
func lintScore(t *testing.T, path string) (catalogScore int, tools map[string]int) {
	t.Helper()
	code, out, errb := runCmd("", "lint", "--no-config", "--format", "json", path)
	if code == 2 {
		t.Fatalf("lint %s: exit 2: %s", path, errb)
	}
	var r struct {
		Score *struct {
			Catalog *int           `json:"catalog"`
			Tools   map[string]int `json:"tools"`
		} `json:"score"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.Score == nil || r.Score.Catalog == nil {
		t.Fatalf("the JSON report has no score.catalog:\n%.400s", out)
	}
	return *r.Score.Catalog, r.Score.Tools
}

// The JSON report carries the score, every tool's and the catalog's
// within 0 to 100; blanking any one tool's description lowers that tool's
// score and the catalog's.
func TestLintScoreFallsWithABlankDescription(t *testing.T) {
	data, err := os.ReadFile(demoPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	base, tools := lintScore(t, demoPath)
	if base < 0 || base > 100 || len(tools) != len(doc.Tools) {
		t.Fatalf("catalog score %d, %d tools scored of %d", base, len(tools), len(doc.Tools))
	}
	for name, s := range tools {
		if s < 0 || s > 100 {
			t.Errorf("%s scores %d", name, s)
		}
	}
	dir := t.TempDir()
	for i, tool := range doc.Tools {
		name := tool["name"].(string)
		t.Run(name, func(t *testing.T) {
			saved := tool["description"]
			tool["description"] = ""
			blank, _ := json.Marshal(doc)
			tool["description"] = saved
			path := filepath.Join(dir, "blank.json")
			if err := os.WriteFile(path, blank, 0o644); err != nil {
				t.Fatal(err)
			}
			got, gotTools := lintScore(t, path)
			if gotTools[name] >= tools[name] {
				t.Errorf("tools[%d] %s blanked: its score %d -> %d, want lower", i, name, tools[name], gotTools[name])
			}
			if got >= base {
				t.Errorf("tools[%d] %s blanked: the catalog's score %d -> %d, want lower", i, name, base, got)
			}
		})
	}
}

// The built binary writes the page and the badge beside the text report,
// keeps the gate's exit code, and refuses a page over several catalogs
// linted apart (exit 2, one line).
func TestLintPageAndBadgeBinary(t *testing.T) {
	dir := t.TempDir()
	page, badge := filepath.Join(dir, "report.html"), filepath.Join(dir, "badge.svg")
	cases := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"page and badge", []string{"lint", "--no-config", "--format", "html=" + page, "--format", "badge=" + badge, demoPath}, 1, ""},
		{"a page over two catalogs", []string{"lint", "--no-config", "--format", "html=" + filepath.Join(dir, "two.html"), demoPath, "testdata/lint/tools.json"}, 2,
			"--format html is about one catalog: lint 2 catalogs one at a time, or as one with --merge"},
		{"a badge on stdout over two merged catalogs", []string{"lint", "--no-config", "--merge", "--format", "badge", demoPath, "testdata/lint/tools.json"}, 1, ""},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runBuilt(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.err) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, stderr, tt.code, tt.err)
			}
			if tt.err != "" && strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("the error is more than one line: %q", stderr)
			}
			if strings.HasSuffix(tt.name, "merged catalogs") && !strings.HasPrefix(stdout, "<svg ") {
				t.Errorf("the badge on stdout starts %.40q", stdout)
			}
		})
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(badge)
	if err != nil {
		t.Fatal(err)
	}
	catalogScore, _ := lintScore(t, demoPath)
	if !strings.Contains(string(html), fmt.Sprintf("%d/100", catalogScore)) || !strings.Contains(string(html), "RESULT: FAIL") {
		t.Errorf("the page lacks the score %d/100 or the gate's result", catalogScore)
	}
	if !strings.Contains(string(svg), fmt.Sprintf(">score %d<", catalogScore)) {
		t.Errorf("the badge lacks the score %d:\n%s", catalogScore, svg)
	}
}

// A probe record beside the catalog counts in the score: a pair whose
// requests crossed costs both tools; one written before the texts changed
// counts nothing; a record that cannot be read is an input error.
func TestLintScoreReadsTheProbeRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(path, []byte(cleanCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse(path, []byte(cleanCatalog))
	if err != nil {
		t.Fatal(err)
	}
	var tools []judge.Tool
	var names []string
	for _, tl := range cat.Tools {
		tools = append(tools, judge.FromCatalog(tl))
		names = append(names, tl.Name)
	}
	a, b := names[0], names[1]
	cases := []judge.ProbeCase{{Tool: a, Request: "r1", Picked: b}, {Tool: a, Request: "r2", Picked: a}, {Tool: b, Request: "r3", Picked: b}, {Tool: b, Request: "r4", Picked: b}}
	record := judge.NewProbeRecord(judge.Tabulate("openai:m", names, cases), tools, time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC))

	base, before := lintScore(t, path)
	probeFile := filepath.Join(dir, judge.ProbeFileName)
	if err := record.WriteFile(probeFile); err != nil {
		t.Fatal(err)
	}
	got, after := lintScore(t, path)
	// One of four requests crossed: each tool keeps three quarters.
	if after[a] != before[a]*3/4 || after[b] != before[b]*3/4 || got >= base {
		t.Errorf("with the probe: %s %d -> %d, %s %d -> %d, catalog %d -> %d; want three quarters and a lower catalog", a, before[a], after[a], b, before[b], after[b], base, got)
	}
	// The catalog's texts changed since: the measure is stale and counts
	// nothing.
	changed := strings.Replace(cleanCatalog, "Current weather", "The current weather", 1)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stale := lintScore(t, path); stale[a] != before[a] {
		t.Errorf("a stale measure counted: %s scores %d, %d without the probe", a, stale[a], before[a])
	}
	// A record no flag asked for that cannot be read stops nothing: one
	// line says it is not used, once however many catalogs share it.
	if err := os.WriteFile(filepath.Join(dir, "more.json"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	conflicted := "<<<<<<< HEAD\n" + string(record.Encode()) + "=======\n{}\n>>>>>>> theirs\n"
	for _, bad := range []string{`{"probe": 2}`, conflicted, `{"probe": 1, "date": `} {
		if err := os.WriteFile(probeFile, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{path}, {dir}} {
			code, _, errb := runCmd("", append([]string{"lint", "--no-config"}, args...)...)
			if code != 0 || !strings.Contains(errb, "the probe record is not used: probe "+probeFile) || strings.Count(errb, "\n") != 1 {
				t.Errorf("a bad probe record (%.20q), lint %v: exit %d, stderr %q; want exit 0 and one line naming the file", bad, args, code, errb)
			}
		}
		// Asked for, it fails the gate closed.
		if code, _, errb := runCmd("", "lint", "--no-config", "--min-accuracy", "0.5", path); code != 1 || !strings.Contains(errb, "fails closed") {
			t.Errorf("a bad probe record under --min-accuracy: exit %d, stderr %q; want exit 1, failing closed", code, errb)
		}
	}
}

// --version: a release's version; a development build's commit and date,
// or how to get them when the build recorded none.
func TestVersionFrom(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	cases := []struct {
		name     string
		bi       *debug.BuildInfo
		ok       bool
		line     string
		wantHint bool
	}{
		{"a release", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, true, "v1.2.0", false},
		{"a clone's build", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "6fea14f1c2d3aa00", "vcs.time", "2026-05-01T10:20:30Z", "vcs.modified", "true")}, true, "devel 6fea14f1c2d3 2026-05-01, modified", false},
		{"a clean clone", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", "6fea14f1c2d3aa00", "vcs.time", "2026-05-01T10:20:30Z", "vcs.modified", "false")}, true, "devel 6fea14f1c2d3 2026-05-01", false},
		{"no vcs recorded", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel", true},
		{"no build info", nil, false, "devel", true},
	}
	for _, c := range cases {
		line, hint := versionFrom(c.bi, c.ok)
		if line != c.line || (hint != "") != c.wantHint || c.wantHint && !strings.Contains(hint, "git clone") {
			t.Errorf("%s: %q, hint %q", c.name, line, hint)
		}
	}
}
