package similarity

import (
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
