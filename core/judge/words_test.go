package judge

import (
	"strings"
	"testing"
)

// One of anything is singular: "1 request", never "1 requests".
func TestOneIsSingular(t *testing.T) {
	one := Confusion{Tool: "a", Picked: "b", Count: 1, Of: 1}
	cases := []struct{ got, want string }{
		{one.Sentence(), "1 of 1 request for a went to b"},
		{Confusion{Tool: "a", Picked: "b", Count: 1, Of: 2}.Sentence(), "1 of 2 requests for a went to b"},
		{Estimate{Requests: 1}.String("--price"), "1 request, about"},
		{Tally{Pairs: 1}.line(), "Of 1 pair probed:"},
	}
	for _, tc := range cases {
		if !strings.Contains(tc.got, tc.want) {
			t.Errorf("%q lacks %q", tc.got, tc.want)
		}
	}
}
