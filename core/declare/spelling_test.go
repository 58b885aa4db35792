package declare

import (
	"testing"
	"time"
)

func TestParseSpellings(t *testing.T) {
	cases := []struct {
		sp     Spelling
		value  string
		reason string // "" when the value parses
	}{
		// lookback: a positive integer and a unit m, h, d, w.
		{Lookback, "30m", ""},
		{Lookback, "24h", ""},
		{Lookback, "7d", ""},
		{Lookback, "2w", ""},
		{Lookback, "007d", ""},
		{Lookback, "", "empty"},
		{Lookback, "-24h", "has a minus sign; a lookback has none (that is a signed-lookback)"},
		{Lookback, "24", "no unit (m, h, d, w)"},
		{Lookback, "24x", `unit "x" is not one of m, h, d, w`},
		{Lookback, "24H", `unit "H" is not one of m, h, d, w`},
		{Lookback, "30s", `unit "s" is not one of m, h, d, w`},
		{Lookback, "0h", "zero; the count must be positive"},
		{Lookback, "2 hours", "not a lookback (30m, 24h, 7d, 2w)"},
		{Lookback, "1.5h", "not a lookback (30m, 24h, 7d, 2w)"},
		{Lookback, "24hh", "not a lookback (30m, 24h, 7d, 2w)"},
		{Lookback, " 24h", "not a lookback (30m, 24h, 7d, 2w)"},
		{Lookback, "+24h", "not a lookback (30m, 24h, 7d, 2w)"},
		{Lookback, "h", "not a lookback (30m, 24h, 7d, 2w)"},
		{Lookback, "99999999999999w", "too long (over 292 years)"},
		// signed-lookback: the same with a leading minus.
		{SignedLookback, "-24h", ""},
		{SignedLookback, "-30m", ""},
		{SignedLookback, "24h", "no leading minus (a signed-lookback is like -24h)"},
		{SignedLookback, "-", "not a signed-lookback (-30m, -24h, -7d, -2w)"},
		{SignedLookback, "--24h", "not a signed-lookback (-30m, -24h, -7d, -2w)"},
		{SignedLookback, "-0d", "zero; the count must be positive"},
		{SignedLookback, "-24y", `unit "y" is not one of m, h, d, w`},
		// iso-range: two instants with a zone, real calendar.
		{ISORange, "2026-03-01T00:00:00Z..2026-03-02T00:00:00Z", ""},
		{ISORange, "2026-03-01T09:00:00+01:00..2026-03-01T17:30:00-05:30", ""},
		{ISORange, "2026-03-01T09:00Z..2026-03-01T10:00Z", ""},
		{ISORange, "2026-03-01t09:00:00.5z..2026-03-01T09:00:01.123456789Z", ""},
		{ISORange, "2024-02-29T00:00:00Z..2024-03-01T00:00:00Z", ""},
		{ISORange, "2026-03-02T00:00:00Z..2026-03-01T00:00:00Z", ""}, // backwards reads; advice says so
		{ISORange, "", "empty"},
		{ISORange, "1000-01-01T00:00:00Z..2000-01-01T00:00:00Z", "spans more than 292 years, longer than a window can be measured"},
		{ISORange, "2000-01-01T00:00:00Z..1000-01-01T00:00:00Z", "spans more than 292 years, longer than a window can be measured"},
		{ISORange, "1800-01-01T00:00:00Z..2000-01-01T00:00:00Z", ""},
		{WallRange, "1000-01-01T00:00..2000-01-01T00:00", "spans more than 292 years, longer than a window can be measured"},
		{ISORange, "2026-03-01T00:00:00Z", `no ".." joining two instants`},
		{ISORange, "2026-02-30T00:00:00Z..2026-03-01T00:00:00Z", "from: 2026-02-30 does not exist (February 2026 has 28 days)"},
		{ISORange, "2025-02-28T00:00:00Z..2025-02-29T00:00:00Z", "to: 2025-02-29 does not exist (February 2025 has 28 days)"},
		{ISORange, "2026-04-31T00:00:00Z..2026-05-01T00:00:00Z", "from: 2026-04-31 does not exist (April 2026 has 30 days)"},
		{ISORange, "2026-13-01T00:00:00Z..2026-03-01T00:00:00Z", "from: month 13 does not exist (01-12)"},
		{ISORange, "2026-00-01T00:00:00Z..2026-03-01T00:00:00Z", "from: month 00 does not exist (01-12)"},
		{ISORange, "2026-03-00T00:00:00Z..2026-03-01T00:00:00Z", "from: 2026-03-00 does not exist (March 2026 has 31 days)"},
		{ISORange, "2026-03-01T24:00:00Z..2026-03-02T01:00:00Z", "from: hour 24 does not exist (00-23)"},
		{ISORange, "2026-03-01T10:60:00Z..2026-03-02T01:00:00Z", "from: minute 60 does not exist (00-59)"},
		{ISORange, "2026-03-01T10:00:60Z..2026-03-02T01:00:00Z", "from: second 60 does not exist (00-59)"},
		{ISORange, "2026-03-01T10:00:00..2026-03-02T01:00:00Z", "from: no zone (end it with Z or ±hh:mm)"},
		{ISORange, "2026-03-01T10:00:00Z..2026-03-02T01:00:00+0100", `to: zone "+0100" is not Z or ±hh:mm`},
		{ISORange, "2026-03-01T10:00:00Z..2026-03-02T01:00:00+24:00", "to: zone offset +24:00 does not exist"},
		{ISORange, "2026-03-01T10:00:00Z..2026-03-02T01:00:00 Z", `to: zone " Z" is not Z or ±hh:mm`},
		{ISORange, "2026-03-01..2026-03-02", "from: a date with no time of day (like 2026-03-01T09:00:00Z)"},
		{ISORange, "2026-03-01 10:00Z..2026-03-02T10:00Z", "from: not a date and time like 2026-03-01T09:00:00Z"},
		{ISORange, "yesterday..today", "from: not a date and time like 2026-03-01T09:00:00Z"},
		{ISORange, "2026-03-01T10:00:00Z .. 2026-03-02T10:00:00Z", `from: zone "Z " is not Z or ±hh:mm`},
		{ISORange, "2026-03-01T10:00:00Z..2026-03-02T10:00:00Z..2026-03-03T10:00:00Z", `to: zone "Z..2026-03-03T10:00:00Z" is not Z or ±hh:mm`},
		{ISORange, "2026-03-01T10:00:00.Z..2026-03-02T10:00:00Z", "from: a fraction of a second needs 1 to 9 digits"},
		{ISORange, "2026-03-01T10:00:00.1234567890Z..2026-03-02T10:00:00Z", "from: a fraction of a second needs 1 to 9 digits"},
		// wall-range: two wall times with no zone.
		{WallRange, "2026-03-01T09:00..2026-03-01T17:30", ""},
		{WallRange, "2026-03-01T09:00:15..2026-03-01T17:30:00.25", ""},
		{WallRange, "2026-03-01T09:00Z..2026-03-01T17:30", "from: carries a zone; a wall time has none (its zone comes from the zone argument)"},
		{WallRange, "2026-03-01T09:00..2026-03-01T17:30+01:00", "to: carries a zone; a wall time has none (its zone comes from the zone argument)"},
		{WallRange, "2026-02-30T09:00..2026-03-01T17:30", "from: 2026-02-30 does not exist (February 2026 has 28 days)"},
		{WallRange, "2026-03-01T24:00..2026-03-01T17:30", "from: hour 24 does not exist (00-23)"},
		{WallRange, "09:00..17:30", "from: not a date and time like 2026-03-01T09:00"},
		{WallRange, "2026-03-01T09:00", `no ".." joining two wall times`},
		{"relative", "24h", `unknown spelling "relative" (want one of lookback, signed-lookback, iso-range, wall-range)`},
	}
	for _, c := range cases {
		_, err := Parse(c.sp, c.value)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.reason {
			t.Errorf("Parse(%s, %q):\n got %q\nwant %q", c.sp, c.value, got, c.reason)
		}
	}
}

func TestParsedWindow(t *testing.T) {
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	paris, err := LoadZone("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		sp       Spelling
		value    string
		zone     *time.Location
		from, to string
		err      string
	}{
		{Lookback, "24h", nil, "2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z", ""},
		{Lookback, "2w", nil, "2026-02-16T10:00:00Z", "2026-03-02T10:00:00Z", ""},
		{SignedLookback, "-30m", nil, "2026-03-02T09:30:00Z", "2026-03-02T10:00:00Z", ""},
		{ISORange, "2026-03-01T09:00:00+01:00..2026-03-01T17:30:00.5Z", nil, "2026-03-01T08:00:00Z", "2026-03-01T17:30:00.5Z", ""},
		{ISORange, "2026-03-01T09:00:00-05:30..2026-03-01T17:30:00Z", nil, "2026-03-01T14:30:00Z", "2026-03-01T17:30:00Z", ""},
		{WallRange, "2026-03-01T09:00..2026-03-01T17:30", paris, "2026-03-01T08:00:00Z", "2026-03-01T16:30:00Z", ""},
		{WallRange, "2026-07-01T09:00..2026-07-01T17:30", paris, "2026-07-01T07:00:00Z", "2026-07-01T15:30:00Z", ""},
		{WallRange, "2026-03-01T09:00..2026-03-01T17:30", nil, "", "", "no zone to read the wall times and days in"},
		{WallRange, "2026-03-29T02:30..2026-03-29T05:00", paris, "", "", "2026-03-29T02:30 does not exist in Europe/Paris (the clocks skip it)"},
	}
	for _, c := range cases {
		p, err := Parse(c.sp, c.value)
		if err != nil {
			t.Fatalf("Parse(%s, %q): %v", c.sp, c.value, err)
		}
		w, err := p.Window(now, c.zone)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%s %q: window error %v, want %q", c.sp, c.value, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %q: %v", c.sp, c.value, err)
			continue
		}
		if got := w.From.UTC().Format(time.RFC3339Nano); got != c.from {
			t.Errorf("%s %q: from %s, want %s", c.sp, c.value, got, c.from)
		}
		if got := w.To.UTC().Format(time.RFC3339Nano); got != c.to {
			t.Errorf("%s %q: to %s, want %s", c.sp, c.value, got, c.to)
		}
	}
}

func TestConvertSpelling(t *testing.T) {
	cases := []struct {
		value    string
		from, to Spelling
		want     string
		ok       bool
	}{
		{"24h", Lookback, SignedLookback, "-24h", true},
		{"-7d", SignedLookback, Lookback, "7d", true},
		{"24h", Lookback, Lookback, "24h", true},
		{"-24h", Lookback, SignedLookback, "", false}, // does not parse under from
		{"24h", SignedLookback, Lookback, "", false},
		{"24h", Lookback, ISORange, "", false},
		{"2026-03-01T00:00:00Z..2026-03-02T00:00:00Z", ISORange, Lookback, "", false},
		{"2026-03-01T00:00..2026-03-02T00:00", WallRange, ISORange, "", false},
	}
	for _, c := range cases {
		got, ok := ConvertSpelling(c.value, c.from, c.to)
		if got != c.want || ok != c.ok {
			t.Errorf("ConvertSpelling(%q, %s, %s) = %q, %v; want %q, %v", c.value, c.from, c.to, got, ok, c.want, c.ok)
		}
	}
}

func TestParseDuration(t *testing.T) {
	cases := []struct {
		text   string
		want   time.Duration
		reason string
	}{
		{"30d", 30 * 24 * time.Hour, ""},
		{"24h", 24 * time.Hour, ""},
		{"1m", time.Minute, ""},
		{"15s", 15 * time.Second, ""},
		{"2w", 14 * 24 * time.Hour, ""},
		{"30", 0, "no unit (s, m, h, d, w)"},
		{"30 days", 0, "not a duration (like 30d, 24h, 1m; units s, m, h, d, w)"},
		{"0d", 0, "zero; the count must be positive"},
		{"1y", 0, `unit "y" is not one of s, m, h, d, w`},
		{"", 0, "empty"},
	}
	for _, c := range cases {
		got, err := ParseDuration(c.text)
		reason := ""
		if err != nil {
			reason = err.Error()
		}
		if got != c.want || reason != c.reason {
			t.Errorf("ParseDuration(%q) = %v, %q; want %v, %q", c.text, got, reason, c.want, c.reason)
		}
	}
}

func TestLoadZone(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"Europe/Paris", true}, {"UTC", true}, {"America/Argentina/Buenos_Aires", true},
		{"Local", false}, {"", false}, {"Mars/Olympus", false}, {"../../etc/passwd", false}, {"europe/paris", false},
	} {
		loc, err := LoadZone(c.name)
		if (err == nil) != c.ok {
			t.Errorf("LoadZone(%q): err %v, want ok %v", c.name, err, c.ok)
		}
		if c.ok && loc.String() != c.name {
			t.Errorf("LoadZone(%q) named %q", c.name, loc)
		}
	}
}
