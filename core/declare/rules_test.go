package declare

import (
	"strings"
	"testing"
)

func TestIsMissing(t *testing.T) {
	cases := []struct {
		args string
		want bool
	}{
		{`{"service": "checkout"}`, true},
		{`{"window": null}`, true},
		{`{"window": ""}`, true},
		{`{"window": "  \t\n"}`, true},
		{`{"window": "\u00a0\ufeff"}`, true},
		{`{"window": "2h"}`, false},
		{`{"window": 0}`, false},
		{`{"window": false}`, false},
		{`{"window": []}`, false},
		{`{"window": {}}`, false},
		{`[]`, true},
		{`null`, true},
		{``, true},
	}
	for _, c := range cases {
		if got := IsMissing(mustJSON(t, c.args), "window"); got != c.want {
			t.Errorf("IsMissing(%s, window) = %v, want %v", c.args, got, c.want)
		}
	}
}

func TestSameArgumentValue(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{`"41,200"`, `"41200"`, true},
		{`"1,000,000"`, `"1000000"`, true},
		{`"Europe/Paris"`, `"europe paris"`, true},
		{`"Last Week"`, `"last-week"`, true},
		{`"41,20"`, `"4120"`, false}, // not a digit group
		{`"41,2000"`, `"412000"`, false},
		{`"a,b"`, `"ab"`, false},
		{`"-24h"`, `"24h"`, false}, // a sign before a digit is kept
		{`"2026-03-01"`, `"2026 03 01"`, true},
		{`"x"`, `"x "`, true},
		{`1`, `1.0`, true},
		{`1e2`, `100`, true},
		{`1`, `-1`, false},
		{`1`, `"1"`, false}, // same type required
		{`true`, `true`, true},
		{`true`, `"true"`, false},
		{`""`, `""`, false}, // no token equals nothing, not even itself
		{`"--"`, `"--"`, false},
		{`null`, `null`, false},
		{`[1]`, `[1]`, false},
		{`{}`, `{}`, false},
		{`"Café"`, `"CAFÉ"`, true},
	}
	for _, c := range cases {
		a, b := mustJSON(t, c.a), mustJSON(t, c.b)
		if got := SameArgumentValue(a, b); got != c.want {
			t.Errorf("SameArgumentValue(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := SameArgumentValue(b, a); got != c.want {
			t.Errorf("SameArgumentValue(%s, %s) is not symmetric", c.b, c.a)
		}
	}
	if SameArgumentValue(nil, nil) {
		t.Error("two absent values are the same")
	}
}

func TestTokens(t *testing.T) {
	cases := []struct {
		v, want string
	}{
		{`"Sales, 41,200 units (Q3)"`, "sales|41200|units|q3"},
		{`"from -5 to x-5"`, "from|-5|to|x|5"},
		{`"日本 東京"`, "日本|東京"},
		{`2.50`, "2.5"},
		{`false`, "false"},
		{`"  "`, ""},
	}
	for _, c := range cases {
		if got := strings.Join(Tokens(mustJSON(t, c.v)), "|"); got != c.want {
			t.Errorf("Tokens(%s) = %q, want %q", c.v, got, c.want)
		}
	}
}
