package similarity

import (
	"os"
	"slices"
	"strings"
	"testing"

	"toolscope/core/catalog"
)

// hintPairs are real pairs whose hints once named the wrong axis, from
// public MCP servers' catalogs (datadog-mcp-server, mcp-grafana) and the
// demo: testdata/hint_pairs.json.
func hintPairs(t *testing.T) map[string]*catalog.Tool {
	t.Helper()
	data, err := os.ReadFile("testdata/hint_pairs.json")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Parse("hint_pairs.json", data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*catalog.Tool{}
	for _, tl := range cat.Tools {
		out[tl.Name] = tl
	}
	return out
}

func TestHintsNameTheRightAxis(t *testing.T) {
	tools := hintPairs(t)
	cases := []struct {
		a, b string
		hint string   // how the hint starts
		fixA string   // the sentence added to a
		not  []string // what the hint must not say
	}{
		// get_logs returns many logs: sharing "get" with get_all_services
		// does not make it the "one item" tool; the sentence says what
		// get_all_services is for, in its own words.
		{"get_logs", "get_all_services", "say in each description when to pick it over the other (what differs: the names' words ('logs' vs 'all services'))",
			"Use `get_all_services` instead to extract all unique service names from logs.", []string{"how many items", "one item it is given", "all or services", "the request is about"}},
		// In rollback_deploy, deploy is the thing (get_deploy's object)
		// and rollback the action.
		{"get_deploy", "rollback_deploy", "say in each description when to pick it over the other (what differs: the names' actions ('get' vs 'rollback')",
			"Use `rollback_deploy` instead to roll a service back to the deploy before the given one; it takes `reason`.", []string{"'deploy' explicit", "deploy the rollback"}},
		// Both are about incidents: the list and the single one. No axis of
		// how many is made up; each says what the other is for.
		{"list_incidents", "get_incident", "say in each description when to pick it over the other (what differs: the names' actions ('list' vs 'get'); list_incidents takes",
			"Use `get_incident` instead to get a single incident by ID; it takes `id`.", []string{"how many items", "several items", "one item"}},
	}
	for _, c := range cases {
		a, b := tools[c.a], tools[c.b]
		parts := parseNames([]*catalog.Tool{a, b})
		ax := chooseAxis(parts[0], parts[1], descriptionTerms(a.Description), descriptionTerms(b.Description))
		fixes := riskFixes(a, b, parts[0], parts[1], false, false)
		hint := riskHint(a, b, ax, fixes)
		if !strings.HasPrefix(hint, c.hint) {
			t.Errorf("%s ↔ %s: hint %q, want it to start %q", c.a, c.b, hint, c.hint)
		}
		for _, bad := range c.not {
			if strings.Contains(hint, bad) {
				t.Errorf("%s ↔ %s: the hint says %q: %s", c.a, c.b, bad, hint)
			}
		}
		if len(fixes) == 0 || fixes[0].Tool != a.Name || fixes[0].Sentence != c.fixA {
			t.Errorf("%s ↔ %s: fixes %+v, want the one for %s to be %q", c.a, c.b, fixes, c.a, c.fixA)
		}
	}
}

// add_activity_to_incident adds to an incident; it is no create_incident
// narrowed by "activity" and "to".
func TestNestedTextReadsPrepositions(t *testing.T) {
	tools := hintPairs(t)
	cases := []struct {
		a, b string
		want string
	}{
		{"add_activity_to_incident", "create_incident", "add_activity_to_incident acts on 'activity' of the incident that create_incident is about"},
		{"create_incident", "add_activity_to_incident", "add_activity_to_incident acts on 'activity' of the incident that create_incident is about"},
	}
	for _, c := range cases {
		a, b := tools[c.a], tools[c.b]
		parts := parseNames([]*catalog.Tool{a, b})
		got := nestedText(reasonContext{a: parts[0], b: parts[1], nameA: a.Name, nameB: b.Name})
		if got != c.want {
			t.Errorf("%s ↔ %s: %q, want %q", c.a, c.b, got, c.want)
		}
	}
	// Without a preposition the narrowing stands, its stop words left out.
	parts := parseNames([]*catalog.Tool{{Name: "list_issues"}, {Name: "list_open_issues"}})
	if got := nestedText(reasonContext{a: parts[0], b: parts[1], nameA: "list_issues", nameB: "list_open_issues"}); got != "list_open_issues is list_issues narrowed by 'open': a specific tool beside a general one" {
		t.Errorf("list_issues ↔ list_open_issues: %q", got)
	}
}

// A term list holds words: not the other tool's words in their other
// number, not pieces of identifiers.
func TestOwnTermsAreWords(t *testing.T) {
	uuid := "Get one incident by its id, e.g. 3fa85f64-5717-4562-b3fc-2c963f66afa6, with its timeline."
	cases := []struct {
		x, y []string
		want []string
		name nameParts
	}{
		{descriptionTerms(uuid), descriptionTerms("List the incidents and their severity."), []string{"one", "timeline"}, nameParts{}},
		{descriptionTerms("List the incidents and their severity."), descriptionTerms(uuid), []string{"list", "their", "severity"}, nameParts{}},
		{[]string{"pools", "pool", "cluster"}, []string{"disks"}, []string{"pools", "cluster"}, nameParts{}},
		// The other's words in either number, "ies" and "y" alike.
		{[]string{"policies", "scope", "entry"}, []string{"policy", "entries"}, []string{"scope"}, nameParts{}},
		// A plain word is kept in no form, so its plural is looked at on
		// its own; a word the name holds is no term.
		{[]string{"tool", "tools", "policies", "policy"}, nil, []string{"tools", "policies"}, nameParts{}},
		{[]string{"incidents", "scope"}, nil, []string{"scope"}, nameParts{said: []string{"incident"}}},
	}
	for _, c := range cases {
		_, terms := ownWords(c.name, nameParts{}, c.x, c.y)
		if !slices.Equal(terms, c.want) {
			t.Errorf("own terms of %q beside %q: %q, want %q", c.x, c.y, terms, c.want)
		}
	}
	for w, want := range map[string]bool{"3fa85f64": true, "4562": true, "b3fc": true, "2c963f66afa6": true, "2024": true, "cafe": false, "md5": false, "v1": false, "iops": false} {
		if idFragment(w) != want {
			t.Errorf("idFragment(%q) = %v", w, !want)
		}
	}
}
