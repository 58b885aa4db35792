package judge

import (
	"testing"
)

const applyCatalog = `[
 {"name": "search_logs", "description": "Searches recent log lines for a text.", "inputSchema": {"type": "object"}},
 {"name": "search_log_lines", "description": "Searches recent log lines for a text.", "inputSchema": {"type": "object"}},
 {"name": "get_weather", "description": "Current weather for one city; use for questions about right now.", "inputSchema": {"type": "object"}},
 {"name": "get_forecast", "description": "Weather forecast for one city; use for the coming days.", "inputSchema": {"type": "object"}}
]`

// Apply turns judgments into verdicts: label 2-3 confusable (with the
// pair's score kept and the judge's reason and sentences), 0-1 cleared,
// unjudged pairs keep the offline verdict; the gate is counted again.
func TestApplyOverridesTheOfflineVerdicts(t *testing.T) {
	cat, r := pairRunReport(t)
	if len(r.Similarity.Confusable) != 1 || r.OK {
		t.Fatalf("offline: want the twin confusable and the gate failed, got %v", r.Similarity.Confusable)
	}
	tools := map[string]Tool{}
	for _, tl := range cat.Tools {
		tools[tl.Name] = FromCatalog(tl)
	}
	result := func(a, b string, label int, status Status) Result {
		p := NewPair(tools[a], tools[b], nil)
		j := Judgment{A: p.A.Name, B: p.B.Name, Label: label, Reason: "reason " + a, By: "openai:m", Prompt: PromptVersion, Texts: p.TextHash(),
			Fix: &Fix{A: "for " + p.A.Name, B: "for " + p.B.Name}}
		return Result{Pair: p, Status: status, Judgment: &j}
	}
	weather := result("get_weather", "get_forecast", 3, Asked)
	twins := result("search_logs", "search_log_lines", 0, Replayed)
	out := Apply(r, cat, []Result{weather, twins}, ApplyOptions{Judge: "openai:m", Asked: 1})
	if len(out.Similarity.Confusable) != 1 || out.OK {
		t.Fatalf("confusable %v, ok %v", out.Similarity.Confusable, out.OK)
	}
	got := out.Similarity.Confusable[0]
	if got.A != "get_weather" || got.B != "get_forecast" || got.Similarity == 0 ||
		got.Hint != `judged confusable by openai:m (label 3): reason get_weather; add to get_forecast "for get_forecast"; add to get_weather "for get_weather"; the pair clears only when both descriptions say it` || len(got.Fixes) != 2 || got.Fixes[0].Sentence != "for get_forecast" {
		t.Fatalf("judged pair %+v", got)
	}
	if out.Summary.Confusable != 1 || out.Judged.Asked != 1 || out.Judged.Replayed != 1 || len(out.Judged.Pairs) != 2 {
		t.Fatalf("summary %+v judged %+v", out.Summary, out.Judged)
	}
	cleared := out.Judged.Pairs[1]
	if cleared.Verdict != "cleared" || cleared.Offline != "confusable" || cleared.Reason != "reason search_logs" {
		t.Fatalf("cleared %+v", cleared)
	}
	// Clearing the only confusable pair passes the gate.
	out = Apply(r, cat, []Result{twins}, ApplyOptions{})
	if !out.OK || len(out.Similarity.Confusable) != 0 {
		t.Fatalf("after clearing: ok %v, %v", out.OK, out.Similarity.Confusable)
	}
	// An unjudged pair keeps its verdict and is listed.
	out = Apply(r, cat, []Result{{Pair: twins.Pair, Status: Unjudged, Why: WhyStale}}, ApplyOptions{})
	if out.OK || len(out.Judged.Unjudged) != 1 || out.Judged.Unjudged[0].Offline != "confusable" {
		t.Fatalf("unjudged: ok %v %+v", out.OK, out.Judged)
	}
}
