package lint

import (
	"strings"
	"testing"

	"toolscope/core/catalog"
)

// merged builds a catalog merged from servers: each entry "server/tool".
func merged(entries ...string) *catalog.Catalog {
	cat := &catalog.Catalog{Source: "merged"}
	for k, e := range entries {
		server, tool, _ := strings.Cut(e, "/")
		cat.Tools = append(cat.Tools, &catalog.Tool{Index: k, Name: server + "__" + tool, ServedName: tool, Server: server,
			Description: "Does one thing for the tests, and says so at length."})
	}
	return cat
}

func TestServerRules(t *testing.T) {
	long := strings.Repeat("x", 50)
	for _, tc := range []struct {
		name  string
		cat   *catalog.Catalog
		want  []string // rule@tool, in order
		words string   // in the first finding's message
	}{
		{"single catalog", &catalog.Catalog{Tools: []*catalog.Tool{{Name: "list_projects"}, {Index: 1, Name: "list_projects_2"}}}, nil, ""},
		{"distinct names", merged("neon/run_sql", "supabase/execute_sql"), nil, ""},
		{"same served name", merged("neon/list_projects", "supabase/list_projects", "supabase/get_project"),
			[]string{RuleServerSameName + "@supabase__list_projects"}, `server "neon" serves "list_projects" too`},
		{"same name, one server", merged("neon/list", "neon/list"), nil, ""},
		{"collide once qualified", merged("my.db/query", "my_db/query"),
			[]string{RuleServerSameName + "@my_db__query", RuleQualifiedCollision + "@my_db__query"}, ""},
		{"one character apart", merged("my.db/query", "my db/query"),
			[]string{RuleServerSameName + "@my db__query", RuleQualifiedCollision + "@my db__query"}, ""},
		{"past Claude's 64", merged("observability/" + long),
			[]string{RuleQualifiedNameTooLong + "@observability__" + long}, "Claude Code: 70 characters, over 64"},
		{"past Cursor's 60 only", merged("srv/" + strings.Repeat("y", 58)),
			[]string{RuleQualifiedNameTooLong + "@srv__" + strings.Repeat("y", 58)}, "Cursor: server and tool names 61 characters together"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.Rules = ServerRules()
			fs := Structural(tc.cat, opts)
			var got []string
			for _, f := range fs {
				got = append(got, f.Rule+"@"+f.Tool)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("findings %v, want %v", got, tc.want)
			}
			if tc.words != "" && !strings.Contains(fs[0].Message, tc.words) {
				t.Errorf("message %q lacks %q", fs[0].Message, tc.words)
			}
		})
	}
}
