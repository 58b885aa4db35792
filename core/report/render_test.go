package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"toolscope/core/catalog"
	"toolscope/core/internal/testcat"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/embed"
)

// renderCatalog has a confusable pair, a watch pair, findings with and
// without parameters and suggestions, and a duplicate name.
const renderCatalog = `[
  {"name": "get_volume_status", "description": "Live status of one volume.",
   "inputSchema": {"type": "object", "properties": {"pool": {"type": "string", "description": "one of gold | silver"}}}},
  {"name": "hist_volume_status", "description": "Recorded status of one volume."},
  {"name": "list_pools", "description": "Lists storage pools | with sizes."},
  {"name": "get_volume_status", "description": "dup"}
]`

func renderReport(t *testing.T, scoring similarity.Scoring) (*lint.Report, *catalog.Catalog) {
	t.Helper()
	cat, err := catalog.Parse("catalogs/ops demo.json", []byte(renderCatalog))
	if err != nil {
		t.Fatal(err)
	}
	// similarity.Thresholds from the ranking itself: the best pair confusable, the
	// next two watch.
	opts := mockOptions(scoring)
	s, err := similarity.Score(context.Background(), cat, opts.Options)
	if err != nil {
		t.Fatal(err)
	}
	ranked := s.Judge(s.Thresholds()).Ranked
	th := similarity.Thresholds{Confusability: ranked[0].Similarity, WatchBand: ranked[0].Similarity - ranked[2].Similarity}
	if scoring == similarity.ScoringAdaptive {
		th.AffinityFloor = 0.5
	}
	r := lint.NewReport(cat, lint.Structural(cat, opts), s.Judge(th), opts.Gate)
	if len(r.Similarity.Confusable) == 0 || len(r.Similarity.Watch) == 0 {
		t.Fatalf("the render catalog needs both verdicts: %+v", r.Summary)
	}
	return r, cat
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestJSONFieldNames(t *testing.T) {
	for _, scoring := range []similarity.Scoring{similarity.ScoringCosine, similarity.ScoringAdaptive} {
		r, _ := renderReport(t, scoring)
		var buf bytes.Buffer
		if err := WriteJSON(&buf, r); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		check := func(what string, got map[string]any, want ...string) {
			t.Helper()
			slices.Sort(want)
			if k := keys(got); !slices.Equal(k, want) {
				t.Errorf("%s %s fields %v, want %v", scoring, what, k, want)
			}
		}
		check("report", doc, "ok", "toolCount", "similarity", "structural", "summary")
		sim := doc["similarity"].(map[string]any)
		check("similarity", sim, "analyzed", "embedder", "scoring", "calibrated", "thresholds", "pairCount", "confusable", "watch", "ranked", "notes")
		check("summary", doc["summary"].(map[string]any), "confusable", "watch", "errors", "warnings")
		pairFields := []string{"a", "b", "similarity"}
		thFields := []string{"confusability", "watchBand"}
		if scoring == similarity.ScoringAdaptive {
			pairFields = append(pairFields, "affinity")
			thFields = append(thFields, "affinityFloor")
		}
		check("thresholds", sim["thresholds"].(map[string]any), thFields...)
		check("ranked pair", sim["ranked"].([]any)[0].(map[string]any), pairFields...)
		check("verdict", sim["confusable"].([]any)[0].(map[string]any), append([]string{"kind", "hint"}, pairFields...)...)
		for _, f := range doc["structural"].([]any) {
			for k := range f.(map[string]any) {
				if !slices.Contains([]string{"rule", "tool", "severity", "message", "param", "suggestion", "fix", "line", "column"}, k) {
					t.Errorf("finding field %q", k)
				}
			}
		}
		var back lint.Report
		if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Summary != r.Summary || back.Similarity.Thresholds != r.Similarity.Thresholds {
			t.Errorf("the JSON does not read back: %v", err)
		}
	}
}

func TestReportOnlyThresholdIsNull(t *testing.T) {
	cat := testcat.Parse(t, renderCatalog)
	opts := mockOptions(similarity.ScoringCosine)
	inf := math.Inf(1)
	opts.Threshold = &inf
	r, err := lint.Analyze(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"confusability": null`) || !strings.Contains(buf.String(), `"watchBand": 0`) {
		t.Errorf("report-only thresholds not written as the reference writes them:\n%s", buf.String()[:400])
	}
	if r.Summary.Confusable != 0 || r.Summary.Watch != 0 || len(r.Similarity.Ranked) == 0 {
		t.Errorf("report-only: %+v, ranked %d", r.Summary, len(r.Similarity.Ranked))
	}
}

func TestTextReport(t *testing.T) {
	r, cat := renderReport(t, similarity.ScoringCosine)
	var plain, color bytes.Buffer
	o := DefaultTextOptions(cat.Source)
	if err := WriteText(&plain, r, o); err != nil {
		t.Fatal(err)
	}
	o.Color = true
	if err := WriteText(&color, r, o); err != nil {
		t.Fatal(err)
	}
	text := plain.String()
	for _, want := range []string{
		"toolscope lint · catalogs/ops demo.json · 4 tools · mock cosine",
		"✗ confusable", "~ review", "hint: names differ only by 'get' vs 'hist'",
		"[duplicate-name] get_volume_status  (line 6)",
		"[enum-in-prose] get_volume_status.pool  (line 3)", `fix (lint --fix applies it): "enum": ["gold","silver"]`,
		"note: the mock embedder", "RESULT: FAIL (1 confusable pair, 1 error)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\x1b[") || !strings.Contains(color.String(), "\x1b[31;1m") {
		t.Errorf("colour must appear only when asked for")
	}
}

func TestMarkdownReport(t *testing.T) {
	r, cat := renderReport(t, similarity.ScoringAdaptive)
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, r, MarkdownOptions{Source: cat.Source, MaxRows: 50, Top: 3}); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"### toolscope lint: ❌ FAIL", "`catalogs/ops demo.json`", "#### Confusable pairs (", "<summary>Review pairs (advisory) (",
		"| ❌ error | `duplicate-name` | `get_volume_status` | 6 |", "<summary>Most similar pairs (top 3 of 3)</summary>",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	// A pipe in a cell would split the table.
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| ⚠️") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 6 {
			t.Errorf("a finding row with a stray pipe: %s", line)
		}
	}
}

// sarifSchema finds the official SARIF 2.1.0 schema (OASIS errata01) in the
// gosec module, which ships it as test data: from the module cache, or
// downloaded with the go command into it. Reading the file keeps the
// module out of go.mod.
func sarifSchema(t *testing.T) []byte {
	t.Helper()
	const mod, file = "github.com/securego/gosec/v2@v2.30.0", "report/sarif/testdata/sarif-schema-2.1.0.json"
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("SARIF schema: no go command to find the module cache: %v", err)
	}
	path := filepath.Join(strings.TrimSpace(string(gomodcache)), filepath.FromSlash(mod), filepath.FromSlash(file))
	if data, err := os.ReadFile(path); err == nil {
		return data
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module sarifschema\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "mod", "download", "-json", mod)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if err != nil || json.Unmarshal(out, &info) != nil || info.Error != "" {
		t.Skipf("SARIF schema: %s is not in the module cache and cannot be downloaded (%v %s)", mod, err, info.Error)
	}
	data, err := os.ReadFile(filepath.Join(info.Dir, filepath.FromSlash(file)))
	if err != nil {
		t.Skipf("SARIF schema: %v", err)
	}
	return data
}

// compiledSARIFSchema is the SARIF 2.1.0 schema, compiled to validate
// a report against.
func compiledSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(sarifSchema(t)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

func TestSARIFIsSchemaValid(t *testing.T) {
	schema := compiledSARIFSchema(t)
	r, cat := renderReport(t, similarity.ScoringAdaptive)
	compared, _ := renderReport(t, similarity.ScoringAdaptive)
	withBaseline(compared)
	for k, source := range []string{cat.Source, "/abs/path/cat.json", "stdin", "mcp:npx server", cat.Source} {
		cat.Source = source
		if k == 4 {
			r = compared
		}
		var buf bytes.Buffer
		if err := WriteSARIF(&buf, r, cat, SARIFOptions{Rules: lint.DefaultRules(), Version: "v1.2.3"}); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("source %q: SARIF does not validate: %v", source, err)
		}
	}
	// Several runs, with %SRCROOT%, automation ids and help links.
	other := *cat
	other.Source = "services/b/tools.json"
	var buf bytes.Buffer
	o := SARIFOptions{Version: "v1.2.3", InformationURI: "https://example.com/toolscope", SrcRoot: "/work/repo",
		HelpURI: func(id string) string { return "https://example.com/toolscope/docs/rules.md#" + id }}
	if err := WriteSARIFRuns(&buf, []SARIFRun{{Report: r, Catalog: cat, Rules: lint.DefaultRules()}, {Report: r, Catalog: &other, Rules: lint.DefaultRules()[:3]}}, o); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("several runs: SARIF does not validate: %v", err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil || len(log.Runs) != 2 {
		t.Fatalf("%v: %d runs", err, len(log.Runs))
	}
	for i, want := range []string{"toolscope/catalogs/ops%20demo.json/", "toolscope/services/b/tools.json/"} {
		run := log.Runs[i]
		if run.AutomationDetails == nil || run.AutomationDetails.ID != want {
			t.Errorf("run %d: automation %+v, want %s", i, run.AutomationDetails, want)
		}
		if run.OriginalURIBaseIDs[srcRoot].URI != "file:///work/repo/" || run.Artifacts[0].Location.URIBaseID != srcRoot {
			t.Errorf("run %d: base ids %+v, artifact %+v", i, run.OriginalURIBaseIDs, run.Artifacts[0].Location)
		}
		d := run.Tool.Driver
		if d.InformationURI == "" || d.Rules[0].HelpURI != "https://example.com/toolscope/docs/rules.md#"+d.Rules[0].ID {
			t.Errorf("run %d: driver %s, rule help %q", i, d.InformationURI, d.Rules[0].HelpURI)
		}
	}
	// The rule list is each run's own pack, and review-pair declares note,
	// with watch-pair, its old id, deprecated.
	if d := log.Runs[1].Tool.Driver.Rules; len(d) < 5 || d[2].ID != lint.DefaultRules()[2].ID || d[3].ID != sarifConfusableRule || d[4].ID != sarifWatchRule {
		t.Errorf("run 1 lists %+v, want its 3 rules, then the 2 verdicts", d)
	}
	for _, rule := range log.Runs[0].Tool.Driver.Rules {
		if rule.ID == sarifWatchRule && rule.DefaultConfiguration.Level != "note" {
			t.Errorf("review-pair declares %s", rule.DefaultConfiguration.Level)
		}
		if rule.ID == sarifWatchRule && (len(rule.DeprecatedIDs) != 1 || rule.DeprecatedIDs[0] != "watch-pair") {
			t.Errorf("review-pair's deprecated ids: %v", rule.DeprecatedIDs)
		}
	}
}

func TestSARIFPointsAtTheTool(t *testing.T) {
	r, cat := renderReport(t, similarity.ScoringCosine)
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r, cat, SARIFOptions{Rules: lint.DefaultRules()}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || len(run.Artifacts) != 1 || run.Artifacts[0].Location.URI != "catalogs/ops%20demo.json" {
		t.Fatalf("version %s, artifacts %+v", log.Version, run.Artifacts)
	}
	found := map[string]bool{}
	for _, res := range run.Results {
		found[res.RuleID] = true
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s points at rule %d (%s)", res.RuleID, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
		loc := res.Locations[0].PhysicalLocation
		if res.RuleID == lint.RuleDuplicateName && (loc.Region.StartLine != 6 || loc.Region.StartColumn != 3) {
			t.Errorf("duplicate-name at %+v, want line 6 column 3", loc.Region)
		}
		if res.RuleID == sarifConfusableRule && (res.Level != "error" || loc.Region.StartLine != 2 || res.RelatedLocations[0].PhysicalLocation.Region.StartLine != 4) {
			t.Errorf("confusable pair result %+v", res)
		}
	}
	for _, id := range []string{lint.RuleDuplicateName, lint.RuleEnumInProse, sarifConfusableRule, sarifWatchRule} {
		if !found[id] {
			t.Errorf("no %s result", id)
		}
	}
	cat.Source = "stdin"
	buf.Reset()
	if err := WriteSARIF(&buf, r, cat, SARIFOptions{Rules: lint.DefaultRules()}); err != nil || strings.Contains(buf.String(), "physicalLocation") {
		t.Errorf("stdin has no file to point into: %v", err)
	}
}

func TestRulesListings(t *testing.T) {
	var text, js bytes.Buffer
	if err := WriteRulesText(&text, lint.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	if err := WriteRulesJSON(&js, lint.DefaultRules()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rules []struct {
			ID, Severity, Summary, Tier string
			Teaching                    lint.Teaching
		}
		Scorings []struct{ Name, Meaning string }
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Rules) != len(lint.DefaultRules()) {
		t.Fatalf("%d rules in JSON", len(doc.Rules))
	}
	for _, r := range doc.Rules {
		if r.Teaching.Why == "" || r.Teaching.Before == "" || r.Tier != "recommended" || !strings.Contains(text.String(), r.ID+" ("+r.Severity+", "+r.Tier+")") {
			t.Errorf("rule %s incomplete in the listings", r.ID)
		}
	}
	// Both listings say what each scoring's score means.
	if len(doc.Scorings) != len(similarity.Scorings) {
		t.Fatalf("scorings in JSON: %+v", doc.Scorings)
	}
	for _, s := range doc.Scorings {
		if s.Meaning == "" || !strings.Contains(text.String(), s.Name+": "+s.Meaning) {
			t.Errorf("scoring %s is not explained in both listings", s.Name)
		}
	}
}

// TestColorTextKeepsOnlyItsOwnEscapes: with colour on, the only escape
// sequences in the text report are the report's own styles; a tool's name,
// description or parameter carrying ESC, C1 or a bidi override is spelled
// out.
func TestColorTextKeepsOnlyItsOwnEscapes(t *testing.T) {
	const h = `\u001b[2J\u001b]52;c;SGk=\u0007\u009b31m\u202e\r`
	cat, err := catalog.Parse("hostile"+"\x1b[2J.json", []byte(`[
	  {"name": "get_volume_status`+h+`", "description": "Live status of one volume.`+h+`",
	   "inputSchema": {"type": "object", "properties": {"pool`+h+`": {"type": "string", "description": "one of gold | silver"}}}},
	  {"name": "hist_volume_status`+h+`", "description": "Recorded status of one volume.`+h+`"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	opts := mockOptions(similarity.ScoringCosine)
	s, err := similarity.Score(context.Background(), cat, opts.Options)
	if err != nil {
		t.Fatal(err)
	}
	r := lint.NewReport(cat, lint.Structural(cat, opts), s.Judge(similarity.Thresholds{Confusability: -1}), opts.Gate)
	o := DefaultTextOptions(cat.Source)
	o.Color = true
	var b bytes.Buffer
	if err := WriteText(&b, r, o); err != nil {
		t.Fatal(err)
	}
	rest := b.String()
	for _, style := range []string{ansiRed, ansiYellow, ansiGreen, ansiDim, ansiBold, ansiReset} {
		rest = strings.ReplaceAll(rest, style, "")
	}
	for _, bad := range []string{"\x1b", "\u009b", "\u202e", "\r", "\x07"} {
		if strings.Contains(rest, bad) {
			t.Errorf("%q reached the coloured report:\n%s", bad, b.String())
		}
	}
	if !strings.Contains(rest, `get_volume_status\x1b[2J`) {
		t.Errorf("the hostile name is not spelled out:\n%s", rest)
	}
}

func mockOptions(scoring similarity.Scoring) lint.Options {
	o := lint.DefaultOptions()
	o.Embedder = embed.Mock{}
	o.Scoring = scoring
	return o
}

// The review list is shown in every output as advisory, and as failing
// when the gate counts it (--fail-on review, --strict).
func TestReviewPairsInEveryOutput(t *testing.T) {
	for _, counted := range []bool{false, true} {
		r, cat := renderReport(t, similarity.ScoringCosine)
		r.Review = counted
		var text, md, sarif, gh bytes.Buffer
		if err := WriteText(&text, r, DefaultTextOptions(cat.Source)); err != nil {
			t.Fatal(err)
		}
		if err := WriteMarkdown(&md, r, MarkdownOptions{Source: cat.Source}); err != nil {
			t.Fatal(err)
		}
		if err := WriteSARIF(&sarif, r, cat, SARIFOptions{Rules: lint.DefaultRules()}); err != nil {
			t.Fatal(err)
		}
		if err := WriteGitHub(&gh, r, cat); err != nil {
			t.Fatal(err)
		}
		level, ghLevel, folded, reason := `"level": "note"`, "::notice", "<summary>Review pairs (advisory) (", false
		if counted {
			level, ghLevel, folded, reason = `"level": "error"`, "::error", "#### Review pairs (fail the gate under --fail-on review) (", true
		}
		checks := []struct {
			what, out, want string
		}{
			{"text mark", text.String(), "~ review     "},
			{"text headline", text.String(), fmt.Sprintf("%d review", r.Summary.Watch)},
			{"markdown section", md.String(), folded},
			{"sarif level", sarif.String(), level},
			{"github level", gh.String(), ghLevel + " file="},
			{"github message", gh.String(), "are on the review list"},
		}
		for _, c := range checks {
			if !strings.Contains(c.out, c.want) {
				t.Errorf("counted %v: %s lacks %q:\n%s", counted, c.what, c.want, c.out)
			}
		}
		if got := strings.Contains(text.String(), "review pair"); got != reason {
			t.Errorf("counted %v: the result line names the review pairs: %v\n%s", counted, got, text.String())
		}
	}
}
