package lint

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/similarity"
	"toolscope/embed"
)

// The reference's reports (../shared/parity, copied into testdata with the
// catalogs they were made from) pinned: same ranking in the same order,
// similarities equal to the last bit, the same verdicts, the same hint
// axes and the same structural findings.

type refReport struct {
	OK         bool `json:"ok"`
	ToolCount  int  `json:"toolCount"`
	Similarity struct {
		Analyzed   bool             `json:"analyzed"`
		Confusable []refPairFinding `json:"confusable"`
		Watch      []refPairFinding `json:"watch"`
		Ranked     []refPair        `json:"ranked"`
		Thresholds struct {
			Confusability *float64 `json:"confusabilityThreshold"`
			WatchBand     float64  `json:"watchBand"`
		} `json:"thresholds"`
	} `json:"similarity"`
	Structural []Finding `json:"structural"`
	Summary    Summary   `json:"summary"`
}

type refPair struct {
	A          string  `json:"a"`
	B          string  `json:"b"`
	Similarity float64 `json:"similarity"`
}

type refPairFinding struct {
	Kind similarity.Verdict `json:"kind"`
	refPair
	Hint string `json:"hint"`
}

var (
	refQualifier = regexp.MustCompile(`^names differ only by (.*?) — make the descriptions`)
	refTerms     = regexp.MustCompile(`distinct terms are .*?: \[(.*?)\] vs .*?: \[(.*?)\] — lead`)
	refQuoted    = regexp.MustCompile(`'([^']*)'`)
)

// refAxis reads the axis out of a reference hint.
func refAxis(t *testing.T, hint string) similarity.Axis {
	t.Helper()
	if m := refQualifier.FindStringSubmatch(hint); m != nil {
		ax := similarity.Axis{Kind: similarity.AxisQualifier}
		for _, q := range refQuoted.FindAllStringSubmatch(m[1], -1) {
			ax.Qualifiers = append(ax.Qualifiers, q[1])
		}
		return ax
	}
	if m := refTerms.FindStringSubmatch(hint); m != nil {
		split := func(s string) []string {
			if s == "" {
				return nil
			}
			return strings.Split(s, ", ")
		}
		return similarity.Axis{Kind: similarity.AxisTerms, TermsA: split(m[1]), TermsB: split(m[2])}
	}
	if strings.Contains(hint, "near-duplicates") {
		return similarity.Axis{Kind: similarity.AxisNearDuplicate}
	}
	t.Fatalf("unrecognised reference hint %q", hint)
	return similarity.Axis{}
}

func TestParityWithReference(t *testing.T) {
	files, _ := filepath.Glob("testdata/parity/lint-*.json")
	if len(files) != 8 {
		t.Fatalf("want 8 parity vectors in testdata/parity, found %d", len(files))
	}
	for _, file := range files {
		base := strings.TrimPrefix(filepath.Base(file), "lint-")
		name, mode, _ := strings.Cut(strings.TrimSuffix(base, ".json"), ".")
		t.Run(name+"/"+mode, func(t *testing.T) {
			var ref refReport
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &ref); err != nil {
				t.Fatal(err)
			}
			cat, err := catalog.Load(filepath.Join("../similarity/testdata/catalogs", name+".json"), nil)
			if err != nil {
				t.Fatal(err)
			}
			opts := DefaultOptions()
			opts.Set, opts.Rules = RuleSetReference, ReferenceRules()
			opts.Embedder = embed.Mock{}
			opts.Scoring = similarity.ScoringCosine
			opts.RankLimit = 0
			if mode == "report-only" {
				inf := math.Inf(1)
				opts.Threshold = &inf
			} else {
				th, band := 0.94, 0.02
				opts.Threshold, opts.WatchBand = &th, &band
			}
			got, err := Analyze(context.Background(), cat, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkParity(t, &ref, got)
		})
	}
}

func checkParity(t *testing.T, ref *refReport, got *Report) {
	t.Helper()
	if got.OK != ref.OK || got.ToolCount != ref.ToolCount || got.Summary != ref.Summary {
		t.Errorf("ok/toolCount/summary = %v/%d/%+v, reference %v/%d/%+v", got.OK, got.ToolCount, got.Summary, ref.OK, ref.ToolCount, ref.Summary)
	}
	rs := ref.Similarity
	if got.Similarity.Analyzed != rs.Analyzed {
		t.Errorf("analyzed = %v, reference %v", got.Similarity.Analyzed, rs.Analyzed)
	}
	if (rs.Thresholds.Confusability == nil) != got.Similarity.Thresholds.ReportOnly() ||
		rs.Thresholds.Confusability != nil && *rs.Thresholds.Confusability != got.Similarity.Thresholds.Confusability ||
		rs.Thresholds.WatchBand != got.Similarity.Thresholds.WatchBand {
		t.Errorf("thresholds = %+v, reference %+v", got.Similarity.Thresholds, rs.Thresholds)
	}
	if len(got.Similarity.Ranked) != len(rs.Ranked) {
		t.Fatalf("ranked %d pairs, reference %d", len(got.Similarity.Ranked), len(rs.Ranked))
	}
	for k, p := range rs.Ranked {
		g := got.Similarity.Ranked[k]
		if g.A != p.A || g.B != p.B || math.Float64bits(g.Similarity) != math.Float64bits(p.Similarity) {
			t.Fatalf("ranked[%d] = %s/%s %v, reference %s/%s %v", k, g.A, g.B, g.Similarity, p.A, p.B, p.Similarity)
		}
	}
	checkVerdicts(t, "confusable", rs.Confusable, got.Similarity.Confusable)
	checkVerdicts(t, "watch", rs.Watch, got.Similarity.Watch)
	if len(got.Structural) != len(ref.Structural) {
		t.Errorf("%d structural findings, reference %d", len(got.Structural), len(ref.Structural))
	}
	for k := range min(len(got.Structural), len(ref.Structural)) {
		g, r := got.Structural[k], ref.Structural[k]
		if g.Rule != r.Rule || g.Tool != r.Tool || g.Param != r.Param || g.Severity != r.Severity || g.Suggestion != r.Suggestion {
			t.Errorf("structural[%d] = %s %s.%s %s %q, reference %s %s.%s %s %q", k, g.Rule, g.Tool, g.Param, g.Severity, g.Suggestion, r.Rule, r.Tool, r.Param, r.Severity, r.Suggestion)
		}
	}
}

func checkVerdicts(t *testing.T, what string, ref []refPairFinding, got []similarity.PairFinding) {
	t.Helper()
	if len(got) != len(ref) {
		t.Errorf("%d %s pairs, reference %d", len(got), what, len(ref))
		return
	}
	for k, r := range ref {
		g := got[k]
		if g.Kind != r.Kind || g.A != r.A || g.B != r.B || math.Float64bits(g.Similarity) != math.Float64bits(r.Similarity) {
			t.Errorf("%s[%d] = %s %s/%s %v, reference %s %s/%s %v", what, k, g.Kind, g.A, g.B, g.Similarity, r.Kind, r.A, r.B, r.Similarity)
			continue
		}
		want := refAxis(t, r.Hint)
		if g.Axis.Kind != want.Kind || !slices.Equal(g.Axis.Qualifiers, want.Qualifiers) ||
			!slices.Equal(g.Axis.TermsA, want.TermsA) || !slices.Equal(g.Axis.TermsB, want.TermsB) {
			t.Errorf("%s[%d] %s/%s axis = %+v, reference %+v (%q)", what, k, g.A, g.B, g.Axis, want, r.Hint)
		}
	}
}
