package report

import (
	"bytes"
	"strings"
	"testing"

	"toolscope/core/lint"
	"toolscope/core/similarity"
)

func TestServerShares(t *testing.T) {
	r := &lint.Report{OK: true, Similarity: similarity.Result{Thresholds: similarity.Thresholds{Confusability: 0.44, WatchBand: 0.37, CrossServer: 0.0417}, Analyzed: true, Scoring: similarity.ScoringRisk},
		Servers: []lint.ServerShare{
			{Server: "neon", Tools: 16, Tokens: 5144, Warnings: 17, Twins: map[string]int{"supabase": 11}},
			{Server: "pg", Tools: 1, Tokens: 40, Twins: map[string]int{"supabase": 2}},
			{Server: "supabase", Tools: 31, Tokens: 4328, Errors: 1, Twins: map[string]int{"neon": 11, "pg": 2}},
		}}
	var text bytes.Buffer
	if err := WriteText(&text, r, DefaultTextOptions("merged")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Servers (3 merged",
		"neon      16 tools   5,144 tokens (54%)    0 errors, 17 warnings  twins: supabase 11",
		"supabase  31 tools   4,328 tokens (46%)    1 error, 0 warnings  twins: neon 11, pg 2",
		"pg        1 tool     40 tokens (0%)",
		"across servers, confusable from 0.04,",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r, MarkdownOptions{Source: "merged"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| `supabase` | 31 | 4,328 (46%) | 1 | 0 | `neon` 11, `pg` 2 |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	r.Servers = nil
	text.Reset()
	if err := WriteText(&text, r, DefaultTextOptions("one")); err != nil || strings.Contains(text.String(), "Servers") {
		t.Errorf("one catalog's report has a servers section:\n%s", text.String())
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}
