package similarity

import (
	"testing"

	"toolscope/core/catalog"
)

// TestMergedToolsCompareByTheirServedNames pins that a merge's server
// qualifier (`github__search_code`) is not what the similarity reads: a
// model sees two servers' search tools as alike whatever the host prefixes.
func TestMergedToolsCompareByTheirServedNames(t *testing.T) {
	merged := &catalog.Tool{Name: "github__search_code", ServedName: "search_code", Server: "github", Description: "Search code. More."}
	plain := &catalog.Tool{Name: "search_code", Description: "Search code. More."}
	if got, want := AdaptiveText(merged), AdaptiveText(plain); got != want {
		t.Errorf("AdaptiveText(merged) = %q, want %q", got, want)
	}
	if got, want := CosineText(merged), "search code: Search code. More."; got != want {
		t.Errorf("CosineText(merged) = %q, want %q", got, want)
	}
	ids, _ := nameTokenIDs([]*catalog.Tool{merged, plain})
	if len(ids[0]) != len(ids[1]) {
		t.Errorf("name tokens differ: %v vs %v", ids[0], ids[1])
	}
}
