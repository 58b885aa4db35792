package report

import (
	"bytes"
	"strings"
	"testing"

	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// A threshold is written one way in every report, as the explorer writes
// it: "from" and two decimals (the review start 0.06891 is "from 0.07");
// a pair's risk that two decimals would put on a start it is under gets
// the digits that tell them apart.
func TestThresholdsReadOneWay(t *testing.T) {
	th := similarity.Thresholds{Confusability: 0.44, WatchBand: 0.44 - 0.06891, CrossServer: 0.0417}
	under := similarity.PairFinding{Pair: similarity.Pair{A: "get_a", B: "get_b", Similarity: 0.4399}, Kind: similarity.Watch, Hint: "say when"}
	over := similarity.PairFinding{Pair: similarity.Pair{A: "get_c", B: "get_d", Similarity: 0.0692}, Kind: similarity.Watch, Hint: "say when"}
	r := &lint.Report{OK: true, ToolCount: 4, Similarity: similarity.Result{Thresholds: th, Analyzed: true, Scoring: similarity.ScoringRisk,
		Watch: []similarity.PairFinding{under, over}}}
	var text, md, page bytes.Buffer
	if err := WriteText(&text, r, DefaultTextOptions("tools.json")); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r, MarkdownOptions{Source: "tools.json"}); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&page, r, HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": page.String()} {
		for _, want := range []string{"confusable from risk 0.44, review (advisory) from 0.07", "across servers, confusable from 0.04,", "risk 0.4399", "risk 0.07"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
		for _, not := range []string{"0.06891", "0.0417", "and above", "risk 0.44 "} {
			if strings.Contains(out, not) {
				t.Errorf("%s has %q:\n%s", name, not, out)
			}
		}
	}
}
