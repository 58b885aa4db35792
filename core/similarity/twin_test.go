package similarity

import (
	"math"
	"testing"

	"toolscope/core/catalog"
)

func TestNameTraits(t *testing.T) {
	for _, tc := range []struct {
		a, sa, b, sb string
		want         TwinTraits
	}{
		// the same name on two servers
		{"delete_branch", "neon-mcp-server", "delete_branch", "supabase-mcp-server", TwinTraits{0, 1, 1, 0}},
		// each server's own name set aside
		{"tavily_map", "tavily-mcp", "firecrawl_map", "firecrawl-mcp", TwinTraits{0, 1, 1, 0}},
		{"web_search_exa", "exa-mcp-server", "searxng_web_search", "mcp-searxng", TwinTraits{0, 1, 1, 0}},
		// verb synonyms and plurals
		{"run_sql", "neon", "execute_sql", "supabase", TwinTraits{0, 1, 1, 0}},
		{"fetch_pages", "a", "read_page", "b", TwinTraits{0, 1, 1, 0}},
		{"findUsers", "a", "query-user", "b", TwinTraits{0, 1, 1, 0}},
		// the same object, another verb
		{"list_projects", "a", "describe_project", "b", TwinTraits{0, 0, 1, 0}},
		// a generic verb shared alone
		{"get", "server-redis", "get_timestamp", "time-mcp", TwinTraits{0, 0, 0, 1}},
		{"delete_entities", "server-memory", "delete", "server-redis", TwinTraits{0, 0, 0, 1}},
		// nothing shared
		{"tavily_extract", "tavily-mcp", "scrape_as_markdown", "brightdata-mcp", TwinTraits{}},
		// a name of the server's words alone has no core
		{"tavily", "tavily", "tavily", "other", TwinTraits{}},
	} {
		if got := NameTraits(tc.a, tc.sa, tc.b, tc.sb); got != tc.want {
			t.Errorf("NameTraits(%s on %s, %s on %s) = %v, want %v", tc.a, tc.sa, tc.b, tc.sb, got, tc.want)
		}
		if got := NameTraits(tc.b, tc.sb, tc.a, tc.sa); got != tc.want {
			t.Errorf("NameTraits(%s on %s, %s on %s) = %v, want %v (not symmetric)", tc.b, tc.sb, tc.a, tc.sa, got, tc.want)
		}
	}
}

// The evidence lowers a cross-server pair's start by the bonuses, never
// under the floor.
func TestTwinLogitAndFloor(t *testing.T) {
	m := &RiskModel{Twins: 0.3, TwinBonus: TwinTraits{1, 0.5, 0.5, -1}}
	if got := m.TwinLogit(0.3, TwinTraits{}); got != logit(0.3) {
		t.Errorf("no evidence: %v, want %v", got, logit(0.3))
	}
	if got, want := m.TwinLogit(0.3, TwinTraits{1, 0, 0, 1}), logit(0.3); got != want {
		t.Errorf("mutual with a verb shared alone: %v, want %v", got, want)
	}
	floor := m.TwinFloor()
	if want := sigmoid(logit(0.3) - 2); abs(floor-want) > 1e-12 {
		t.Errorf("floor %v, want %v", floor, want)
	}
	if m.TwinLogit(floor, TwinTraits{1, 1, 1, 0}) < logit(0.3)-1e-9 || m.TwinLogit(floor*0.99, TwinTraits{1, 1, 1, 0}) >= logit(0.3) {
		t.Errorf("the floor %v is not where the most evidence reaches the start", floor)
	}
	if (&RiskModel{}).TwinFloor() != 0 {
		t.Errorf("no band, a floor")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// A merged catalog's cross-server verdicts say what evidence lifted them;
// pairs inside one server and single catalogs say nothing of twins.
func TestTwinReason(t *testing.T) {
	j := &twinJudge{m: RiskModel{TwinBonus: TwinTraits{1.1, 0.8, 1.1, -0.005}}}
	for _, tc := range []struct {
		x    TwinTraits
		want string
		ok   bool
	}{
		{TwinTraits{1, 1, 1, 0}, "across servers, each is the other's closest tool on the other's server, and the names are the same once the servers' own names, plurals and verb synonyms are set aside", true},
		{TwinTraits{0, 0, 1, 0}, "across servers, the names act on the same object", true},
		{TwinTraits{0, 0, 0, 1}, "", false}, // a trait of next to no weight
		{TwinTraits{}, "", false},
	} {
		r, ok := j.reasonOf(tc.x)
		if ok != tc.ok || r.Text != tc.want {
			t.Errorf("%v: %q %v, want %q %v", tc.x, r.Text, ok, tc.want, tc.ok)
		}
		if ok && r.Effect <= 0 {
			t.Errorf("%v: effect %v, want it positive", tc.x, r.Effect)
		}
	}
	rs := withTwinReason([]Reason{{Text: "a"}, {Text: "b"}, {Text: "c"}}, Reason{Text: "twin"})
	if len(rs) != MaxReasons || rs[0].Text != "twin" || rs[2].Text != "b" {
		t.Errorf("reasons %v: want the twin reason first, %d kept", rs, MaxReasons)
	}
}

// twinNames.traits, read from word ids, is coreTraits for every pair of
// names: the table's, and names that repeat a word or are all verbs.
func TestTwinNamesTraitsAreCoreTraits(t *testing.T) {
	names := twinTestNames
	tools := make([]*catalog.Tool, len(names))
	for k, n := range names {
		tools[k] = &catalog.Tool{Name: n[0], Server: n[1]}
	}
	tn := newTwinNames(tools, TwinTraits{})
	seen := map[TwinTraits]bool{}
	for i := range tools {
		for j := range tools {
			want := coreTraits(tn.cores[i], tn.cores[j])
			seen[want] = true
			if got := tn.traits(int32(i), int32(j)); got != want {
				t.Errorf("%s on %s, %s on %s: traits %v, coreTraits %v", names[i][0], names[i][1], names[j][0], names[j][1], got, want)
			}
		}
	}
	if len(seen) < 4 {
		t.Fatalf("the names meet only %d kinds of evidence", len(seen))
	}
}

// twinNames.need, the kernel's bar for a cross-server pair, never asks
// more of a pair than reaches does, whatever the bonuses' signs; with
// the fitted bonuses it asks exactly that of every pair whose names do
// not share verbs alone (whose bonus it leaves out).
func TestTwinNeedBoundsReaches(t *testing.T) {
	tools := make([]*catalog.Tool, len(twinTestNames))
	for k, n := range twinTestNames {
		tools[k] = &catalog.Tool{Name: n[0], Server: n[1]}
	}
	start := logit(0.0417)
	fitted := DefaultRiskModel().TwinBonus
	for _, bonus := range []TwinTraits{fitted, {-1, 2, -0.5, 0.7}, {0.3, -0.2, 0.9, -1}} {
		tn := newTwinNames(tools, bonus)
		for i := range tools {
			for j := range tools {
				x := tn.traits(int32(i), int32(j))
				if bonus[TraitMutual] > 0 {
					x[TraitMutual] = 1
				}
				asked := start
				for k, w := range bonus {
					asked -= w * x[k]
				}
				got := tn.need(i, j, start)
				if got > asked+1e-12 {
					t.Errorf("bonus %v, %s and %s: need %v, reaches asks %v", bonus, tools[i].Name, tools[j].Name, got, asked)
				}
				if bonus == fitted && x[TraitVerbOnly] == 0 && math.Abs(got-asked) > 1e-12 {
					t.Errorf("%s and %s: need %v, looser than the %v reaches asks", tools[i].Name, tools[j].Name, got, asked)
				}
			}
		}
	}
}

var twinTestNames = [][2]string{
	{"delete_branch", "neon-mcp-server"}, {"delete_branch", "supabase-mcp-server"}, {"tavily_map", "tavily-mcp"},
	{"firecrawl_map", "firecrawl-mcp"}, {"web_search_exa", "exa-mcp-server"}, {"searxng_web_search", "mcp-searxng"},
	{"run_sql", "neon"}, {"execute_sql", "supabase"}, {"fetch_pages", "a"}, {"read_page", "b"}, {"findUsers", "a"},
	{"query-user", "b"}, {"list_projects", "a"}, {"describe_project", "b"}, {"get", "server-redis"},
	{"get_timestamp", "time-mcp"}, {"delete_entities", "server-memory"}, {"delete", "server-redis"},
	{"tavily_extract", "tavily-mcp"}, {"scrape_as_markdown", "brightdata-mcp"}, {"tavily", "tavily"},
	{"get_get_user", "c"}, {"user_user", "d"}, {"get_list", "e"}, {"list_get", "f"}, {"set_send", "g"},
	{"send", "h"}, {"take_screenshot", "i"}, {"take", "j"}, {"", "k"},
}

// FuzzTwinNamesTraits: traits read from ids are coreTraits, and need
// asks no more than reaches, for any two names and servers.
func FuzzTwinNamesTraits(f *testing.F) {
	f.Add("get_user", "a", "fetch_users", "b")
	f.Add("delete", "x", "delete_entities", "y")
	f.Fuzz(func(t *testing.T, a, sa, b, sb string) {
		tools := []*catalog.Tool{{Name: a, Server: sa}, {Name: b, Server: sb}}
		bonus := DefaultRiskModel().TwinBonus
		tn := newTwinNames(tools, bonus)
		x := tn.traits(0, 1)
		if want := coreTraits(tn.cores[0], tn.cores[1]); x != want {
			t.Fatalf("traits %v, coreTraits %v", x, want)
		}
		x[TraitMutual] = 1
		asked := logit(0.0417)
		for k, w := range bonus {
			asked -= w * x[k]
		}
		if need := tn.need(0, 1, logit(0.0417)); need > asked+1e-12 {
			t.Fatalf("need %v, reaches asks %v", need, asked)
		}
	})
}
