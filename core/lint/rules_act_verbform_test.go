package lint

import "testing"

// verbForm holds the forms hasVerb counts as the verb, and no other
// word that starts or ends like one.
func TestVerbForm(t *testing.T) {
	cases := []struct {
		w, v string
		want bool
	}{
		{"get", "get", true},
		{"gets", "get", true},
		{"getting", "get", false},
		{"fetches", "fetch", true},
		{"fetched", "fetch", true},
		{"fetching", "fetch", true},
		{"fetcher", "fetch", false},
		{"retrieve", "retrieve", true},
		{"retrieved", "retrieve", true},
		{"retrieves", "retrieve", true},
		{"retrieving", "retrieve", true},
		{"retrieveing", "retrieve", true},
		{"retrievxing", "retrieve", false},
		{"retriev", "retrieve", false},
		{"reading", "read", true},
		{"reader", "read", false},
		{"re", "read", false},
		{"ing", "e", true},
		{"", "e", false},
	}
	for _, c := range cases {
		if got := verbForm(c.w, c.v); got != c.want {
			t.Errorf("verbForm(%q, %q) = %v, want %v", c.w, c.v, got, c.want)
		}
	}
}
