package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// mockPairs is the catalog's pairs as lint scores them with the mock
// embedder, highest risk first.
func mockPairs(t *testing.T, cat string) []similarity.Pair {
	t.Helper()
	code, out, errb := runCmd("", "lint", "--embedder", "mock", "--no-config", "--format", "json", cat)
	if code > 1 {
		t.Fatalf("lint: exit %d: %s", code, errb)
	}
	var r lint.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	pairs := r.Similarity.Ranked
	if len(pairs) != 3 || pairs[0].Similarity == pairs[1].Similarity || pairs[1].Similarity == pairs[2].Similarity {
		t.Fatalf("want three pairs of distinct risks, got %+v", pairs)
	}
	return pairs
}

// The probe sets the model's picks beside the offline check of the same
// catalog: with thresholds that make the riskiest pair confusable, the
// second a review pair and the third unflagged, a script that confuses
// the second and third pairs and never the first gives one confusion
// flagged, one missed and one pair flagged but never confused; the
// config's thresholds and accepted pairs count as lint counts them.
func TestProbeSetsThePicksBesideTheOfflineCheck(t *testing.T) {
	clearJudgeEnv(t)
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	os.WriteFile(cat, []byte(probeCatalog), 0o644)
	pairs := mockPairs(t, cat)
	confusable, review, quiet := pairs[0], pairs[1], pairs[2]
	threshold := (confusable.Similarity + review.Similarity) / 2
	band := threshold - (review.Similarity+quiet.Similarity)/2

	// Three requests per tool, each going to its tool unless said here:
	// one request for review.A goes to review.B, one for quiet.B to
	// quiet.A (two for quiet.B go nowhere else).
	s := &scriptedModel{written: map[string][]string{}, picks: map[string]string{}}
	for _, tool := range []string{"alpha_search", "beta_lookup", "gamma"} {
		for i := range 3 {
			q := fmt.Sprintf("request %d for the %c tool", i, tool[0])
			s.written[tool] = append(s.written[tool], q)
			s.picks[q] = tool
		}
	}
	s.picks[s.written[review.A][0]] = review.B
	s.picks[s.written[quiet.B][1]] = quiet.A
	srv := httptest.NewServer(s)
	defer srv.Close()
	probe := func(extra ...string) (judge.Probe, string) {
		t.Helper()
		args := append([]string{"probe", "--model", "openai:scripted", "--url", srv.URL + "/v1", "--k", "3", "--format", "json"}, extra...)
		code, out, errb := runCmd("", append(args, cat)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errb)
		}
		var got judge.Probe
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		return got, out
	}
	flags := []string{"--embedder", "mock", "--threshold", fmt.Sprint(threshold), "--watch-band", fmt.Sprint(band)}
	got, _ := probe(flags...)

	verdictOf := map[string]string{}
	for _, c := range got.Confusions {
		if c.Offline == nil {
			t.Fatalf("confusion %s has no offline verdict", c.Sentence())
		}
		verdictOf[c.Tool+">"+c.Picked] = c.Offline.Verdict
	}
	wantVerdicts := map[string]string{review.A + ">" + review.B: judge.OfflineWatch, quiet.B + ">" + quiet.A: judge.OfflineNone}
	if !reflect.DeepEqual(verdictOf, wantVerdicts) {
		t.Errorf("the confusions' verdicts %v; want %v", verdictOf, wantVerdicts)
	}
	o := got.Offline
	if o == nil {
		t.Fatal("no offline section in the JSON")
	}
	if o.Embedder != "mock" || o.Scoring != similarity.ScoringRisk || o.Thresholds.Confusability != threshold || o.Config != "" {
		t.Errorf("the offline check's settings: %+v", o)
	}
	if len(o.Missed) != 1 || o.Missed[0].A != quiet.A || o.Missed[0].B != quiet.B || o.Missed[0].Count() != 1 || o.Missed[0].Of() != 6 || o.Missed[0].Offline.Score != quiet.Similarity {
		t.Errorf("missed %+v; want %s ↔ %s, 1 of 6, risk %v", o.Missed, quiet.A, quiet.B, quiet.Similarity)
	}
	if len(o.NeverConfused) != 1 || o.NeverConfused[0].A != confusable.A || o.NeverConfused[0].Count() != 0 || o.NeverConfused[0].Of() != 6 || o.NeverConfused[0].Offline.Verdict != judge.OfflineConfusable {
		t.Errorf("never confused %+v; want %s ↔ %s, 0 of 6", o.NeverConfused, confusable.A, confusable.B)
	}
	if lo, hi := judge.Wilson(0, 6); o.NeverConfused[0].Low != lo || o.NeverConfused[0].High != hi {
		t.Errorf("0 of 6: interval %v–%v; want %v–%v", o.NeverConfused[0].Low, o.NeverConfused[0].High, lo, hi)
	}
	if want := (judge.Tally{Pairs: 3, ConfusedFlagged: 1, Missed: 1, NeverConfused: 1}); o.Tally != want {
		t.Errorf("tally %+v; want %+v", o.Tally, want)
	}

	// The text says the same: each confusion with its verdict, the missed
	// pair first.
	args := append([]string{"probe", "--model", "openai:scripted", "--url", srv.URL + "/v1", "--k", "3"}, flags...)
	code, text, errb := runCmd("", append(args, cat)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, line := range []string{
		fmt.Sprintf("1 of 3 requests for %s went to %s (offline: risk %.2f, review)", review.A, review.B, review.Similarity),
		fmt.Sprintf("1 of 3 requests for %s went to %s (offline: risk %.2f, not flagged)", quiet.B, quiet.A, quiet.Similarity),
		fmt.Sprintf("Offline check (mock, risk scoring, confusable from %.2f):", threshold),
		fmt.Sprintf("%s ↔ %s: 1 of 6 requests for either went to the other (95%% interval 3–56%%); offline: risk %.2f, not flagged", quiet.A, quiet.B, quiet.Similarity),
		fmt.Sprintf("%s ↔ %s: 0 of 6 requests for either went to the other (95%% interval 0–39%%); offline: risk %.2f, confusable", confusable.A, confusable.B, confusable.Similarity),
		"  Note: the mock embedder counts characters",
		"Of 3 pairs probed: 1 confused and flagged offline, 1 confused but not flagged, 1 flagged confusable but never confused, 0 neither.",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("the text lacks %q:\n%s", line, text)
		}
	}
	if !strings.HasPrefix(errb, "toolscope probe: openai:scripted at ") {
		t.Errorf("the cost estimate is not the first line on stderr:\n%s", errb)
	}
	if strings.Index(text, "not flagged offline") > strings.Index(text, "never confused") {
		t.Errorf("the missed pairs are not named first:\n%s", text)
	}
	code, md, _ := runCmd("", append(append(args, "--format", "markdown"), cat)...)
	if code != 0 || !strings.Contains(md, "| offline |") || !strings.Contains(md, fmt.Sprintf("| `%s` ↔ `%s` | 1 of 6 | 3–56%% |", quiet.A, quiet.B)) || !strings.Contains(md, "#### Offline check") {
		t.Errorf("the Markdown lacks the offline check:\n%s", md)
	}

	// The same thresholds from toolscope.yaml, which accepts the review
	// pair: its confusion is then one the check does not flag.
	os.WriteFile(filepath.Join(dir, "toolscope.yaml"), []byte(fmt.Sprintf(
		"similarity:\n  embedder: mock\n  threshold: %v\n  watch-band: %v\naccepted-pairs:\n  - tools: [%s, %s]\n    reason: told apart by their inputs\n",
		threshold, band, review.B, review.A)), 0o644)
	got, _ = probe()
	o = got.Offline
	if o == nil || !strings.HasSuffix(o.Config, "toolscope.yaml") || o.Thresholds.Confusability != threshold {
		t.Fatalf("the config's check: %+v", o)
	}
	var missed []string
	for _, c := range o.Missed {
		missed = append(missed, c.A+"/"+c.B+"/"+c.Offline.Accepted)
	}
	slices.Sort(missed)
	want := []string{quiet.A + "/" + quiet.B + "/", review.A + "/" + review.B + "/told apart by their inputs"}
	slices.Sort(want)
	if !reflect.DeepEqual(missed, want) || o.Tally.ConfusedFlagged != 0 || o.Tally.Missed != 2 {
		t.Errorf("missed %v, tally %+v; want %v", missed, o.Tally, want)
	}
	code, text, _ = runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "3", cat)
	if line := fmt.Sprintf("1 of 3 requests for %s went to %s (offline: risk %.2f, accepted in toolscope.yaml)", review.A, review.B, review.Similarity); code != 0 || !strings.Contains(text, line) {
		t.Errorf("the text lacks %q:\n%s", line, text)
	}
	// --no-config reads none: the accepted pair is flagged again, and the
	// flags' thresholds rule.
	got, _ = probe(append(flags, "--no-config")...)
	if got.Offline == nil || got.Offline.Config != "" || got.Offline.Tally.ConfusedFlagged != 1 {
		t.Errorf("--no-config: %+v", got.Offline)
	}
}

// An embedder that fails after the picks are paid for loses nothing: the
// probe is reported without the offline verdicts, and one note says why.
func TestProbeReportsThePicksWhenTheOfflineCheckFails(t *testing.T) {
	clearJudgeEnv(t)
	t.Setenv("TOOLSCOPE_EMBED_URL", "")
	t.Setenv("TOOLSCOPE_EMBED_KEY", "")
	s := &scriptedModel{
		written: map[string][]string{"alpha_search": {"find the a"}, "beta_lookup": {"record 7"}, "gamma": {"do g"}},
		picks:   map[string]string{"find the a": "beta_lookup", "record 7": "beta_lookup", "do g": "gamma"},
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"no such model"}}`, http.StatusBadRequest)
	}))
	defer broken.Close()
	cat := writeFile(t, "cat.json", probeCatalog)
	for _, format := range []string{"text", "json"} {
		code, out, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "1", "--no-cache",
			"--embedder", "openai:missing", "--embed-url", broken.URL+"/v1", "--format", format, cat)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errb)
		}
		if strings.Count(errb, "note: no offline verdicts beside the picks:") != 1 || !strings.Contains(errb, "no such model") {
			t.Errorf("%s: stderr lacks the one note:\n%s", format, errb)
		}
		if format == "text" {
			if !strings.Contains(out, "1 of 1 request for alpha_search went to beta_lookup\n") || strings.Contains(out, "offline") {
				t.Errorf("the text report:\n%s", out)
			}
			continue
		}
		var got judge.Probe
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.Offline != nil || !strings.Contains(got.OfflineError, "no such model") || len(got.Cases) != 3 || got.Confusions[0].Offline != nil {
			t.Errorf("the JSON report: offline %+v, error %q, %d cases", got.Offline, got.OfflineError, len(got.Cases))
		}
	}
	// --no-similarity leaves the check out, and says so.
	code, out, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "1", "--no-similarity", "--format", "json", cat)
	if code != 0 || !strings.Contains(errb, "note: similarity is off") || strings.Contains(out, `"offline`) {
		t.Errorf("--no-similarity: exit %d, stderr %s\n%s", code, errb, out)
	}
	// An embedder name that does not exist is a usage error, before any
	// request.
	code, _, errb = runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--embedder", "nope", cat)
	if code != 2 || !strings.Contains(errb, `unknown embedder "nope" (known: `) || len(s.tools) != 9 {
		t.Errorf("an unknown embedder: exit %d, %d picks asked: %s", code, len(s.tools), errb)
	}
}

// A tool name with control characters reaches the terminal spelled out,
// and its pair keeps its offline verdict.
func TestProbeOfflineVerdictsOfHostileNames(t *testing.T) {
	clearJudgeEnv(t)
	hostile := "alpha\x1b[31m"
	data, _ := json.Marshal([]map[string]any{
		{"name": hostile, "description": "Searches alpha.", "inputSchema": map[string]any{"type": "object"}},
		{"name": "beta", "description": "Looks up beta.", "inputSchema": map[string]any{"type": "object"}},
	})
	cat := writeFile(t, "cat.json", string(data))
	s := &scriptedModel{
		written: map[string][]string{hostile: {"find the a"}, "beta": {"record 7"}},
		picks:   map[string]string{"find the a": "beta", "record 7": "beta"},
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	code, out, errb := runCmd("", "probe", "--model", "openai:scripted", "--url", srv.URL+"/v1", "--k", "1", "--embedder", "mock", "--threshold", "off", cat)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if strings.Contains(out, "\x1b") || !regexp.MustCompile(`went to beta \(offline: risk [0-9.]+\)\n`).MatchString(out) || !strings.Contains(out, "No verdicts to compare with: the threshold is off.") {
		t.Errorf("the text report:\n%q", out)
	}
}
