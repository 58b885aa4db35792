package judge

import "testing"

func TestRecordsTouches(t *testing.T) {
	r := NewRecords()
	if r.Touches([]string{"a"}) {
		t.Error("an empty set touches a")
	}
	r.Add(Judgment{A: "search_logs", B: "get_logs", By: "person", Texts: "x"})
	r.AddReview(Review{Tool: "send_invoice", By: "person", Texts: "y"})
	for _, c := range []struct {
		names []string
		want  bool
	}{
		{[]string{"get_logs"}, true},
		{[]string{"x", "search_logs"}, true},
		{[]string{"send_invoice"}, true},
		{[]string{"void_invoice", "search"}, false},
		{nil, false},
	} {
		if got := r.Touches(c.names); got != c.want {
			t.Errorf("Touches(%q) = %v, want %v", c.names, got, c.want)
		}
	}
}
