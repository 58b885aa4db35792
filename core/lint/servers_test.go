package lint

import (
	"testing"

	"toolscope/core/similarity"
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
