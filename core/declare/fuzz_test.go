package declare

import (
	"strings"
	"testing"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/fixtures"
)

// fuzzParse checks one spelling's parser on any text: no panic, and a value
// that parses places into a window; a lookback's window ends at now and
// starts before it, and converting it to the other lookback spelling and
// back gives the value again.
func fuzzParse(f *testing.F, sp Spelling, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		p, err := Parse(sp, value)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q refused with no reason", value)
			}
			return
		}
		w, err := p.Window(now, time.UTC)
		if err != nil {
			t.Fatalf("%q parses as %s but places no window in UTC: %v", value, sp, err)
		}
		switch sp {
		case Lookback, SignedLookback:
			if !w.To.Equal(now) || !w.From.Before(w.To) {
				t.Fatalf("%q: lookback window %v .. %v does not end at now after its start", value, w.From, w.To)
			}
			other := SignedLookback
			if sp == SignedLookback {
				other = Lookback
			}
			there, ok := ConvertSpelling(value, sp, other)
			back, ok2 := ConvertSpelling(there, other, sp)
			if !ok || !ok2 || back != value {
				t.Fatalf("%q does not convert to %s and back (%q, %q)", value, other, there, back)
			}
		}
	})
}

func FuzzParseLookback(f *testing.F) {
	fuzzParse(f, Lookback, "30m", "24h", "7d", "2w", "0h", "-24h", "2 hours", "99999999999999w", "9223372036w")
}

func FuzzParseSignedLookback(f *testing.F) {
	fuzzParse(f, SignedLookback, "-30m", "-24h", "24h", "-", "--1d", "-0w")
}

func FuzzParseISORange(f *testing.F) {
	fuzzParse(f, ISORange,
		"2026-03-01T00:00:00Z..2026-03-02T00:00:00Z",
		"2026-03-01T09:00:00.123+01:00..2026-03-01T17:30-05:30",
		"2026-02-30T00:00:00Z..2026-03-01T00:00:00Z",
		"2026-03-01T24:00:00Z..2026-03-02T00:00:00Z",
		"0000-01-01T00:00:00-23:59..9999-12-31T23:59:59.999999999+23:59")
}

func FuzzParseWallRange(f *testing.F) {
	fuzzParse(f, WallRange,
		"2026-03-01T09:00..2026-03-01T17:30",
		"2026-03-29T02:30:00.5..2026-03-29T05:00",
		"2026-03-01T09:00Z..2026-03-01T17:30")
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"30d", "24h", "1m", "15s", "2w", "0d", "1y", "9223372037s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, err := ParseDuration(text)
		if err == nil && d <= 0 {
			t.Fatalf("%q reads as a non-positive duration %v", text, d)
		}
	})
}

// FuzzJudge feeds any declaration and any arguments through the judge and
// the resolution: nothing panics, and a refusal always names the tool.
func FuzzJudge(f *testing.F) {
	f.Add(`{"window": {"assume": "24h"}, "tz": {"ask": "Zone?", "choices": ["UTC", {"value": "Europe/Paris", "said": ["paris"]}]}}`,
		`{"argument": "window", "accepts": ["lookback", "wall-range"], "zoneArgument": "tz", "maxRange": "7d", "granularity": "1h"}`,
		`{"window": "2026-03-01T09:00..2026-03-01T17:00", "tz": "Europe/Paris"}`)
	f.Add(`{"start": {"assume": 0}, "end": {"ask": "Until?"}, "day": {"ask": "Day?"}, "last": {"assume": 2}}`,
		`{"forms": [{"kind": "bounds", "from": {"argument": "start", "as": "epoch-ms"}, "to": {"argument": "end", "as": "epoch-s", "edge": "inclusive"}},
		  {"kind": "day", "argument": "day", "zoneArgument": "tz"}, {"kind": "lookback", "argument": "last", "unitArgument": "unit"},
		  {"kind": "object", "argument": "range", "from": "a", "to": "b", "as": "date"}], "wallZone": "app", "direction": "past", "retention": "30d"}`,
		`{"end": "1e300", "range": {"a": "2026-01-01", "b": "2026-02-30"}, "unit": "weeks"}`)
	f.Add(`{"last": {"assume": 1e300}, "unit": {"assume": "w"}}`,
		`{"forms": [{"kind": "lookback", "argument": "last", "unitArgument": "unit"}]}`, `{}`)
	schema := mustJSON(f, resolveSchema)
	f.Fuzz(func(t *testing.T, aoa, period, args string) {
		a, _ := jsonv.Parse([]byte(aoa))
		p, _ := jsonv.Parse([]byte(period))
		rules, ref := Judge("fuzzed", a, p, nil, schema)
		if ref != nil {
			if ref.Tool != "fuzzed" || ref.Error() == "" {
				t.Fatalf("refusal without the tool: %+v", ref)
			}
			return
		}
		call, _ := jsonv.Parse([]byte(args))
		res := Resolve(rules, call, now, time.UTC)
		_ = res.Lines()
	})
}

func FuzzSameArgumentValue(f *testing.F) {
	f.Add(`"41,200"`, `"41200"`)
	f.Add(`1`, `1.0`)
	f.Add(`"-5 apples"`, `"5 apples"`)
	f.Fuzz(func(t *testing.T, a, b string) {
		va, err1 := jsonv.Parse([]byte(a))
		vb, err2 := jsonv.Parse([]byte(b))
		if err1 != nil || err2 != nil {
			return
		}
		if SameArgumentValue(va, vb) != SameArgumentValue(vb, va) {
			t.Fatalf("not symmetric on %s, %s", a, b)
		}
		if SameArgumentValue(va, va) != (len(Tokens(va)) > 0) {
			t.Fatalf("%s: equal to itself exactly when it has a token", a)
		}
	})
}

// FuzzResolve resolves any arguments against every declaring tool of the
// demo catalog: nothing panics, every ruled argument gets a fate, and a
// window that places has a non-negative length unless the advice says its
// from is after its to.
func FuzzResolve(f *testing.F) {
	f.Add(`{"start_ms": 1772355600000, "end_ms": "1772442000000", "day": "2026-02-29", "between": "2026-03-01T09:00..2026-03-01T17:30", "tz": "Asia/Kolkata"}`)
	f.Add(`{"window": "-24h", "created_within": "7d", "last": 1e308, "unit": "WEEKS", "range": "2026-03-01T00:00:00Z..2026-02-01T00:00:00Z"}`)
	f.Add(`{"since": "2026-03-01T00:00:00+14:00", "until": null, "days": -3, "window": "   "}`)
	cat, err := catalog.Parse(fixtures.DemoName, fixtures.Demo())
	if err != nil {
		f.Fatal(err)
	}
	var all []*Rules
	for _, tool := range cat.Tools {
		if rules, ref := Read(tool); rules != nil && ref == nil {
			all = append(all, rules)
		}
	}
	f.Fuzz(func(t *testing.T, args string) {
		call, err := jsonv.Parse([]byte(args))
		if err != nil {
			return
		}
		for _, rules := range all {
			res := Resolve(rules, call, now, time.UTC)
			if len(res.Arguments) != len(rules.Ruled) {
				t.Fatalf("%s: %d fates for %d rules", rules.Tool, len(res.Arguments), len(rules.Ruled))
			}
			if p := res.Period; p != nil && p.Window != nil && p.Window.Length() < 0 && !strings.Contains(strings.Join(p.Advice, "|"), "from is after to") {
				t.Fatalf("%s: a backwards window without the advice: %+v", rules.Tool, p)
			}
			_ = res.Lines()
		}
	})
}

// FuzzSuggest looks for a suggestion in any text under every spelling, in
// UTC, in a zone and with none: nothing panics, and a suggestion always
// parses under its spelling and differs from the text.
func FuzzSuggest(f *testing.F) {
	for _, s := range []string{"7 days", "-24h", "PT24H", "1.5 hours", "last 30 mins", "24h",
		"2026-03-01T09:00..2026-03-01T17:00", "2026-03-01/2026-03-02", "2026-03-01 09:00 to 2026-03-01 10:00+0100",
		"2026-03-01T09:00:00Z", "2026-03-29T02:30", "9999-12-31", "0000-01-01T00:00:00-23:59 – 9999-12-31", "since Monday", "since last fri"} {
		f.Add(s, uint8(0))
	}
	berlin, err := LoadZone("Europe/Berlin")
	if err != nil {
		f.Fatal(err)
	}
	zones := []*time.Location{nil, time.UTC, berlin}
	f.Fuzz(func(t *testing.T, text string, pick uint8) {
		sp := PeriodSpellings[int(pick)%len(PeriodSpellings)]
		zone := zones[int(pick/4)%len(zones)]
		s, ok := Suggest(sp, text, now, zone)
		if !ok {
			return
		}
		if s.Value == text || s.Why == "" {
			t.Fatalf("Suggest(%s, %q) = %+v: the same text, or no reason", sp, text, s)
		}
		if _, err := Parse(sp, s.Value); err != nil {
			t.Fatalf("Suggest(%s, %q) = %q, which does not parse: %v", sp, text, s.Value, err)
		}
	})
}
