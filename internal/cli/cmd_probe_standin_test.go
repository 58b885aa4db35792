package cli

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"toolscope/core/judge"
)

// probeStandIn runs the probe on the stand-in's catalog and examples
// with extra flags, and reads its JSON.
func probeStandIn(t *testing.T, url string, extra ...string) (judge.Probe, string, string) {
	t.Helper()
	cat := writeFile(t, "tools.json", standInCatalog)
	ex := writeFile(t, "examples.jsonl", standInExamples)
	args := append([]string{"probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--format", "json"}, extra...)
	code, out, errb := runCmd("", append(args, cat)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var p judge.Probe
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return p, cat, errb
}

// The model's arguments go through the boundary against the tool called:
// each case carries them and their issues, each tool its counts, and the
// reports name each tool's commonest issue.
func TestProbeChecksTheModelsArguments(t *testing.T) {
	_, url := newStandIn(t)
	p, cat, _ := probeStandIn(t, url, "--tool-choice", "auto")
	want := []judge.ToolTally{
		{Tool: "search_files", Requests: 2, Right: 2, ValidArguments: 1, Calls: 3, CommonestIssue: "'query' is required but missing", IssueCount: 1},
		{Tool: "search_logs", Requests: 2, Right: 1, ValidArguments: 1, Calls: 1},
		{Tool: "send_mail", Requests: 3, Right: 3, ValidArguments: 2, Calls: 4, CommonestIssue: "'body' is required but missing", IssueCount: 2},
		{Tool: "read_calendar", Requests: 2, Right: 1, ValidArguments: 0, Calls: 2, CommonestIssue: "'day': expected string, got number", IssueCount: 1},
	}
	if !reflect.DeepEqual(p.PerTool, want) {
		t.Errorf("perTool\n got %+v\nwant %+v", p.PerTool, want)
	}
	byRequest := map[string]judge.ProbeCase{}
	for _, c := range p.Cases {
		byRequest[c.Request] = c
	}
	for _, tc := range []struct{ request, picked, args, issues string }{
		{"find files for the budget", "search_files", `{}`, "'query' is required but missing"},
		{"search files named report", "search_files", `{"query":"report"}`, ""},
		{"show events by person", "send_mail", `{"to":"person"}`, "'body' is required but missing"},
		{"read calendar today", "read_calendar", `{"day":5}`, "'day': expected string, got number"},
		{"tell me a joke", judge.NoPick, `null`, ""},
	} {
		c := byRequest[tc.request]
		var compact bytes.Buffer
		json.Compact(&compact, c.Arguments)
		args := compact.String()
		if c.Arguments == nil {
			args = "null"
		}
		if c.Picked != tc.picked || args != tc.args || strings.Join(c.ArgumentIssues, "; ") != tc.issues || c.ArgumentIssues == nil {
			t.Errorf("%q: picked %s, arguments %s, issues %q; want %s, %s, %q", tc.request, c.Picked, args, c.ArgumentIssues, tc.picked, tc.args, tc.issues)
		}
	}
	if p.Accuracy.Right != 8 || p.Accuracy.Of != 11 || p.Accuracy.Low <= 0 || p.Accuracy.High >= 1 || p.Accuracy.Low > p.Accuracy.Rate || p.Accuracy.High < p.Accuracy.Rate {
		t.Errorf("accuracy %+v", p.Accuracy)
	}
	ex := writeFile(t, "examples.jsonl", standInExamples)
	for _, format := range []string{"text", "markdown"} {
		code, out, errb := runCmd("", "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--format", format, cat)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errb)
		}
		for _, s := range []string{"'body' is required but missing (2 of 4 calls)", "'query' is required but missing (1 of 3 calls)", "8 of 11 (73%, 95% interval 43–90%)"} {
			if !strings.Contains(out, s) {
				t.Errorf("%s: no %q in\n%s", format, s, out)
			}
		}
	}
}

// Two requests meant for no tool, sent with tool_choice auto: the model
// calls a tool for one, and the report names it. Required refuses them.
func TestProbeNegativesCountOverTriggers(t *testing.T) {
	s, url := newStandIn(t)
	p, cat, _ := probeStandIn(t, url, "--tool-choice", "auto")
	want := judge.Negatives{Requests: 2, OverTriggered: 1, Calls: []judge.OverTrigger{{Request: "read me a poem", Picked: "read_calendar", Repeat: 1}}}
	if !reflect.DeepEqual(p.Negatives, want) {
		t.Errorf("negatives %+v; want %+v", p.Negatives, want)
	}
	ex := writeFile(t, "examples.jsonl", standInExamples)
	code, out, _ := runCmd("", "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", cat)
	if code != 0 || !strings.Contains(out, "Negatives: 2 requests meant for no tool, 1 over-triggered:\n  \"read me a poem\" called read_calendar\n") {
		t.Errorf("exit %d, the text does not name the over-trigger:\n%s", code, out)
	}
	before := s.sent
	code, _, errb := runCmd("", "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", cat)
	if code != 2 || !strings.Contains(errb, "2 requests are meant for no tool") || !strings.Contains(errb, "--tool-choice auto") || s.sent != before {
		t.Errorf("negatives under required: exit %d, %d requests sent: %s", code, s.sent-before, errb)
	}
}

// Under --repeats 10 only the requests whose picks hang on the order of
// the tools (ties, the first listed winning) are unstable; the first
// repeat is in catalog order; the same seed gives the same orders.
func TestProbeRepeatsReportOnlyOrderDependentRequests(t *testing.T) {
	s, url := newStandIn(t)
	p, _, _ := probeStandIn(t, url, "--tool-choice", "auto", "--repeats", "10")
	if p.Repeats != 10 || p.Seed != 1 || len(p.Cases) != 110 || s.sent != 110 {
		t.Fatalf("repeats %d seed %d, %d cases, %d sent", p.Repeats, p.Seed, len(p.Cases), s.sent)
	}
	var tools []standInTool
	json.Unmarshal([]byte(strings.ReplaceAll(standInCatalog, "inputSchema", "x")), &tools)
	// What the stand-in picks in each repeat's order, worked out here.
	expect := map[string]map[string]int{}
	for r := 1; r <= 10; r++ {
		order := judge.Order(len(tools), 1, r)
		listed := make([]standInTool, len(tools))
		for i, j := range order {
			listed[i] = tools[j]
		}
		for _, line := range strings.Split(strings.TrimSpace(standInExamples), "\n") {
			var e struct{ Request string }
			json.Unmarshal([]byte(line), &e)
			pick := standInPick(e.Request, listed, true)
			if pick == "" {
				pick = judge.NoPick
			}
			if expect[e.Request] == nil {
				expect[e.Request] = map[string]int{}
			}
			expect[e.Request][pick]++
		}
	}
	got := map[string]map[string]int{}
	for _, u := range p.Unstable {
		got[u.Request] = u.Picks
	}
	for request, picks := range expect {
		tie := request == "search the error" || request == "read my mail" || request == "show events by person"
		switch {
		case len(picks) > 1 && !reflect.DeepEqual(got[request], picks):
			t.Errorf("%q: unstable picks %v; want %v", request, got[request], picks)
		case len(picks) == 1 && got[request] != nil:
			t.Errorf("%q is stable but reported unstable: %v", request, got[request])
		case !tie && len(picks) > 1:
			t.Errorf("%q: the stand-in is not order-dependent there: %v", request, picks)
		}
	}
	if len(p.Unstable) < 2 {
		t.Errorf("the shuffled orders split fewer than two tied requests: %+v", p.Unstable)
	}
	for _, c := range p.Cases {
		if c.Repeat == 1 && c.Request == "search the error" && c.Picked != "search_files" {
			t.Errorf("repeat 1 is not in catalog order: %+v", c)
		}
	}
	again, _, _ := probeStandIn(t, url, "--tool-choice", "auto", "--repeats", "10")
	if !reflect.DeepEqual(again.Unstable, p.Unstable) {
		t.Errorf("the same seed gave other orders")
	}
	other, _, _ := probeStandIn(t, url, "--tool-choice", "auto", "--repeats", "10", "--seed", "7")
	if other.Seed != 7 || reflect.DeepEqual(other.Cases, p.Cases) {
		t.Errorf("--seed 7 sent the same orders as seed 1")
	}
}

// lint --min-accuracy replays the recorded probe with no model
// reachable: the share of right picks against the minimum, a stale or
// missing record failing closed with a line saying why.
func TestLintMinAccuracyReplaysTheRecordedProbe(t *testing.T) {
	s := &standIn{args: map[string]string{}}
	srv := httptest.NewServer(s)
	clearJudgeEnv(t)
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	os.WriteFile(cat, []byte(standInCatalog), 0o644)
	ex := writeFile(t, "examples.jsonl", standInExamples)
	code, _, errb := runCmd("", "probe", "--model", "openai:standin", "--url", srv.URL+"/v1", "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--record", cat)
	if code != 0 {
		t.Fatalf("probe: exit %d: %s", code, errb)
	}
	srv.Close() // no model reachable from here on
	sent := s.sent
	base, _, errb := runCmd("", "lint", "--no-similarity", cat)
	if base != 0 {
		t.Fatalf("the catalog fails lint on its own: %s", errb)
	}
	for _, tc := range []struct {
		min  string
		code int
		says string
	}{
		{"0.4", 0, "right picks 8 of 11 (73%, 95% interval 43–90%); --min-accuracy 0.4: ok"},
		{"40%", 0, "--min-accuracy 0.4: ok"},
		// The gate is on the interval's lower bound: 73% measured of
		// 11 requests does not show 70%.
		{"0.7", 1, "--min-accuracy 0.7: under"},
		{"0.8", 1, "--min-accuracy 0.8: under"},
	} {
		code, out, errb := runCmd("", "lint", "--no-similarity", "--min-accuracy", tc.min, cat)
		if code != tc.code || !strings.Contains(errb, tc.says) || !strings.Contains(errb, "openai:standin") {
			t.Errorf("--min-accuracy %s: exit %d; want %d saying %q:\n%s%s", tc.min, code, tc.code, tc.says, out, errb)
		}
	}
	code, out, _ := runCmd("", "lint", "--no-similarity", "--min-accuracy", "0.8", "--format", "json", cat)
	if code != 1 || !strings.Contains(out, "probe accuracy 8 of 11") || !strings.Contains(out, "lower bound 43% is under --min-accuracy 0.8") {
		t.Errorf("the JSON report does not say why the gate failed (exit %d):\n%s", code, out)
	}
	// Named elsewhere.
	moved := filepath.Join(t.TempDir(), "probe.json")
	data, _ := os.ReadFile(filepath.Join(dir, judge.ProbeFileName))
	os.WriteFile(moved, data, 0o644)
	if code, _, errb := runCmd("", "lint", "--no-similarity", "--min-accuracy", "0.4", "--probe-file", moved, cat); code != 0 {
		t.Errorf("--probe-file: exit %d: %s", code, errb)
	}
	// A changed description makes the record stale: the gate fails closed.
	os.WriteFile(cat, []byte(strings.Replace(standInCatalog, "Search logs by text.", "Search the logs by text.", 1)), 0o644)
	code, _, errb = runCmd("", "lint", "--no-similarity", "--min-accuracy", "0.1", cat)
	if code != 1 || !strings.Contains(errb, "fails closed") || !strings.Contains(errb, "search_logs (changed)") {
		t.Errorf("stale record: exit %d: %s", code, errb)
	}
	// Without --min-accuracy the stale record changes nothing.
	if code, _, _ := runCmd("", "lint", "--no-similarity", cat); code != 0 {
		t.Errorf("lint without --min-accuracy: exit %d", code)
	}
	os.Remove(filepath.Join(dir, judge.ProbeFileName))
	code, _, errb = runCmd("", "lint", "--no-similarity", "--min-accuracy", "0.1", cat)
	if code != 1 || !strings.Contains(errb, "no probe record at") {
		t.Errorf("missing record: exit %d: %s", code, errb)
	}
	for _, bad := range [][]string{{"--min-accuracy", "1.5"}, {"--min-accuracy", "NaN"}, {"--probe-file", moved}} {
		if code, _, errb := runCmd("", append(append([]string{"lint", "--no-similarity"}, bad...), cat)...); code != 2 {
			t.Errorf("%v: exit %d: %s", bad, code, errb)
		}
	}
	if s.sent != sent {
		t.Errorf("lint sent %d requests", s.sent-sent)
	}
}

// probe diff pairs two records request by request, with McNemar's exact
// p, in every format; records of other models, requests or repeats are
// refused.
func TestProbeDiffPairsTwoRecords(t *testing.T) {
	_, url := newStandIn(t)
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	ex := writeFile(t, "examples.jsonl", standInExamples)
	record := func(catalog, name string, extra ...string) string {
		os.WriteFile(cat, []byte(catalog), 0o644)
		path := filepath.Join(dir, name)
		args := append([]string{"probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--record", "--probe-file", path}, extra...)
		if code, _, errb := runCmd("", append(args, cat)...); code != 0 {
			t.Fatalf("probe: exit %d: %s", code, errb)
		}
		return path
	}
	old := record(standInCatalog, "old.json")
	// "error" now leads to search_logs; "mail" leads to read_calendar too.
	changed := strings.NewReplacer("Search logs by text.", "Search logs by error text.", "Read calendar events.", "Read calendar events and mail.").Replace(standInCatalog)
	now := record(changed, "new.json")
	code, out, errb := runCmd("", "probe", "diff", "--format", "json", old, now)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	var d judge.ProbeDiff
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	// The error request now goes right; "read my mail" now shares two
	// words with read_calendar and goes wrong.
	if d.Better != 1 || d.Worse != 1 || d.P != 1 || d.Before.Right != 8 || d.After.Right != 8 || d.Requests != 11 ||
		len(d.Improved) != 1 || d.Improved[0].Request != "search the error" || d.Improved[0].Before != "search_files" ||
		len(d.Worsened) != 1 || d.Worsened[0].Request != "read my mail" || d.Worsened[0].After != "read_calendar" {
		t.Errorf("diff %+v", d)
	}
	for _, f := range []struct{ format, says string }{
		{"text", "1 went right that went wrong before, 1 went wrong that went right; McNemar exact p = 1"},
		{"text", "Went right:\n  \"search the error\" (for search_logs): search_files, now search_logs\n"},
		{"text", "Went wrong:\n  \"read my mail\" (for send_mail): send_mail, now read_calendar\n"},
		{"markdown", "| read my mail | `send_mail` | `send_mail` | `read_calendar` |"},
	} {
		code, out, _ := runCmd("", "probe", "diff", "--format", f.format, old, now)
		if code != 0 || !strings.Contains(out, f.says) {
			t.Errorf("%s: exit %d, no %q in\n%s", f.format, code, f.says, out)
		}
	}
	data, _ := os.ReadFile(old)
	otherModel := filepath.Join(dir, "other-model.json")
	os.WriteFile(otherModel, []byte(strings.Replace(string(data), `"openai:standin"`, `"openai:other"`, 1)), 0o644)
	repeats := record(standInCatalog, "repeats.json", "--repeats", "2")
	lines := strings.Split(string(data), "\n")
	var kept []string
	for _, l := range lines {
		if !strings.Contains(l, "tell me a joke") {
			kept = append(kept, l)
		}
	}
	fewer := filepath.Join(dir, "fewer.json")
	os.WriteFile(fewer, []byte(strings.Join(kept, "\n")), 0o644)
	// A record whose "repeats" its cases contradict: one sending claimed,
	// a request in a second; two claimed, a request in the first only.
	rdata, _ := os.ReadFile(repeats)
	claimsOne := filepath.Join(dir, "claims-one.json")
	os.WriteFile(claimsOne, []byte(strings.Replace(string(rdata), `"repeats": 2,`, `"repeats": 1,`, 1)), 0o644)
	var once []string
	for _, l := range strings.Split(string(rdata), "\n") {
		if !(strings.Contains(l, "tell me a joke") && strings.Contains(l, `"repeat":2`)) {
			once = append(once, l)
		}
	}
	missing := filepath.Join(dir, "missing-repeat.json")
	os.WriteFile(missing, []byte(strings.Join(once, "\n")), 0o644)
	for _, tc := range []struct{ other, says string }{
		{claimsOne, "is in repeat 2, but the record says each request was sent 1 time"},
		{missing, `request "tell me a joke" for (none) is in repeat 1 1 time and in repeat 2 0 times; the record says each request was sent 2 times`},
		{otherModel, "different models: openai:standin, then openai:other"},
		{repeats, "different repeats: 1, then 2"},
		{fewer, "different requests: 1 sent only before, 0 only after"},
		{filepath.Join(dir, "missing.json"), "no such file"},
	} {
		code, out, errb := runCmd("", "probe", "diff", old, tc.other)
		if code != 2 || out != "" || !strings.Contains(errb, tc.says) {
			t.Errorf("%s: exit %d, stderr %q; want 2 saying %q", filepath.Base(tc.other), code, errb, tc.says)
		}
	}
	if code, _, _ := runCmd("", "probe", "diff", old); code != 2 {
		t.Errorf("one record: exit %d", code)
	}
}
