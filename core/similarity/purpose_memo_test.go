package similarity

import (
	"maps"
	"reflect"
	"testing"

	"toolscope/core/catalog"
)

// A tool's purpose read through the memo is purposeOf's, for its own
// parts and for the parts a pair reads it as (asHint), however often
// and in whatever order it is asked.
func TestPurposeMemo(t *testing.T) {
	tools := []*catalog.Tool{
		{Name: "rollback_deploy", Description: "Roll a deployment back to the release before it. Needs the deploy id."},
		{Name: "get_deploy", Description: "Get one deployment with its status and its logs."},
		{Name: "list_logs", Description: "Lists the logs."},
	}
	parts := parseNames(tools)
	s := &Scores{tools: tools, purposes: make([]purposeMemo, len(tools))}
	for round := 0; round < 2; round++ {
		for i, tl := range tools {
			for j := range tools {
				if i == j {
					continue
				}
				q := asHint(parts[i], parts[j])
				want := purposeOf(tl, q)
				if got := s.purposeOf(i, parts[i])(tl, q); got != want {
					t.Errorf("%s beside %s (round %d): %q, want %q", tl.Name, tools[j].Name, round, got, want)
				}
			}
		}
	}
	if got := s.purposeOf(0, parts[0])(tools[0], parts[0]); got == "" {
		t.Errorf("rollback_deploy: no purpose read")
	}
}

// A tool's terms by their singular, made once, are singularSet's, and
// chooseAxisOf with them is chooseAxis.
func TestTermSetMemo(t *testing.T) {
	tools := []*catalog.Tool{
		{Name: "get_incident", Description: "Get one incident with its timeline and policies."},
		{Name: "list_incidents", Description: "List the incidents and the policy each follows."},
	}
	s := &Scores{tools: tools, termSets: make([]termSetMemo, len(tools))}
	for _, tl := range tools {
		s.words = append(s.words, wordsOf(tl.OwnName(), tl.Description))
	}
	parts := parseNames(tools)
	for round := 0; round < 2; round++ {
		for i := range tools {
			if got, want := s.termSet(i), singularSet(s.words[i].terms); !maps.Equal(got, want) {
				t.Errorf("%s (round %d): %v, want %v", tools[i].Name, round, got, want)
			}
		}
	}
	got := chooseAxisOf(parts[0], parts[1], s.words[0].terms, s.words[1].terms, s.termSet(0), s.termSet(1))
	want := chooseAxis(parts[0], parts[1], s.words[0].terms, s.words[1].terms)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chooseAxisOf %+v, chooseAxis %+v", got, want)
	}
	if _, ok := s.termSet(0)["policy"]; !ok {
		t.Errorf("policies not kept as policy: %v", s.termSet(0))
	}
}
