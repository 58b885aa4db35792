package lint

import (
	"testing"

	"toolscope/core/similarity"
	"toolscope/core/tokens"
)

func TestShareByServer(t *testing.T) {
	cat := merged("neon/list_projects", "neon/run_sql", "supabase/list_projects", "supabase/execute_sql", "pg/query")
	r := &Report{
		Similarity: similarity.Result{Confusable: []similarity.PairFinding{
			{Pair: similarity.Pair{I: 0, J: 2}}, // neon–supabase
			{Pair: similarity.Pair{I: 1, J: 3}}, // neon–supabase
			{Pair: similarity.Pair{I: 3, J: 4}}, // supabase–pg
			{Pair: similarity.Pair{I: 0, J: 1}}, // inside neon: no twin
		}},
		Structural: []Finding{{ToolIndex: 0, Severity: SeverityError}, {ToolIndex: 4, Severity: SeverityWarn}, {ToolIndex: 4, Severity: SeverityWarn}, {ToolIndex: -1}},
	}
	r.ShareByServer(cat)
	if len(r.Servers) != 3 {
		t.Fatalf("%d servers, want 3: %+v", len(r.Servers), r.Servers)
	}
	want := []struct {
		server          string
		tools, err, wrn int
		twins           map[string]int
	}{
		{"neon", 2, 1, 0, map[string]int{"supabase": 2}},
		{"supabase", 2, 0, 0, map[string]int{"neon": 2, "pg": 1}},
		{"pg", 1, 0, 2, map[string]int{"supabase": 1}},
	}
	for k, w := range want {
		s := r.Servers[k]
		if s.Server != w.server || s.Tools != w.tools || s.Errors != w.err || s.Warnings != w.wrn || !sameCounts(s.Twins, w.twins) || s.Tokens <= 0 {
			t.Errorf("server %d: %+v, want %+v", k, s, w)
		}
	}
	one := &Report{}
	one.ShareByServer(merged("neon/a", "neon/b"))
	if one.Servers != nil {
		t.Errorf("one server: shares %+v, want none", one.Servers)
	}
}

func sameCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// The servers' token counts are the same from any source: counted afresh,
// by a shared meter (counting each definition once), or read from the
// report's own counts; and they are each tool's whole count summed.
func TestShareByServerCounts(t *testing.T) {
	cat := merged("neon/list_projects", "neon/run_sql", "supabase/list_projects", "pg/query")
	want := map[string]int{}
	for _, tl := range cat.Tools {
		want[tl.Server] += tokens.MustCount(tokens.O200k, tokens.Definition(tl))
	}
	measured := tokens.Measure(cat, 0, false)
	meter := tokens.NewMeter(nil)
	for _, tt := range []struct {
		name   string
		report *Report
		meter  *tokens.Meter
	}{
		{"own meter", &Report{}, nil},
		{"shared meter", &Report{}, meter},
		{"shared meter again", &Report{}, meter},
		{"report's counts", &Report{Tokens: &measured}, nil},
	} {
		tt.report.ShareByServerWith(cat, tt.meter)
		got := map[string]int{}
		for _, s := range tt.report.Servers {
			got[s.Server] = s.Tokens
		}
		if !sameCounts(got, want) {
			t.Errorf("%s: tokens by server %v, want %v", tt.name, got, want)
		}
	}
}
