package main

import (
	"bytes"
	"encoding/json"
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
