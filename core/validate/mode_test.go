package validate

import "testing"

func TestModes(t *testing.T) {
	ok := Result{OK: true}
	bad := Result{Issues: []Issue{iss("a", "required", "missing")}}
	cases := []struct {
		mode   Mode
		r      Result
		want   Action
		runs   bool
		String string
	}{
		{Enforce, ok, Accepted, true, "accepted"},
		{Enforce, bad, Rejected, false, "rejected before dispatch"},
		{Warn, ok, Accepted, true, "accepted"},
		{Warn, bad, RunsWithWarning, true, "runs with a warning"},
		{Off, ok, NotChecked, true, "not checked"},
		{Off, bad, NotChecked, true, "not checked"},
	}
	for _, c := range cases {
		a := c.mode.Apply(c.r)
		if a != c.want || a.Runs() != c.runs || a.String() != c.String {
			t.Errorf("%s on ok=%v: %v (runs %v), want %v (runs %v)", c.mode, c.r.OK, a, a.Runs(), c.String, c.runs)
		}
	}
}

func TestParseMode(t *testing.T) {
	for in, want := range map[string]Mode{"": Enforce, "enforce": Enforce, "warn": Warn, "off": Off} {
		if m, err := ParseMode(in); err != nil || m != want {
			t.Errorf("ParseMode(%q) = %v, %v; want %v", in, m, err, want)
		}
	}
	for _, in := range []string{"Enforce", "strict", " off"} {
		if _, err := ParseMode(in); err == nil {
			t.Errorf("ParseMode(%q) accepted", in)
		}
	}
}
