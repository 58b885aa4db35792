package declare

import (
	"testing"
	"time"
)

// TestSuggest pins the nearest passing value proposed for a near miss, and
// that nothing is proposed where nothing is clear.
func TestSuggest(t *testing.T) {
	berlin, err := LoadZone("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		sp    Spelling
		text  string
		zone  *time.Location
		value string // "" means no suggestion
		why   string
	}{
		{"days in words", Lookback, "7 days", nil, "7d", "a whole count and one unit letter: m, h, d or w"},
		{"no space", Lookback, "7days", nil, "7d", "a whole count and one unit letter: m, h, d or w"},
		{"one week", Lookback, "1 week", nil, "1w", "a whole count and one unit letter: m, h, d or w"},
		{"hours stay hours", Lookback, "24 hours", nil, "24h", "a whole count and one unit letter: m, h, d or w"},
		{"mins", Lookback, "30 mins", nil, "30m", "a whole count and one unit letter: m, h, d or w"},
		{"upper case", Lookback, "24H", nil, "24h", "a whole count and one unit letter: m, h, d or w"},
		{"last n", Lookback, "last 7 days", nil, "7d", "a whole count and one unit letter: m, h, d or w"},
		{"n ago", Lookback, "1h ago", nil, "1h", "a whole count and one unit letter: m, h, d or w; the length back from now, without \"ago\""},
		{"n words ago", Lookback, "1 hour ago", nil, "1h", "a whole count and one unit letter: m, h, d or w; the length back from now, without \"ago\""},
		{"n words ago, signed", SignedLookback, "2 days ago", nil, "-2d", "a whole count and one unit letter: m, h, d or w; the length back from now, without \"ago\"; a signed-lookback starts with a minus"},
		{"a fraction in a smaller unit", Lookback, "1.5 hours", nil, "90m", "a whole count and one unit letter: m, h, d or w"},
		{"iso duration", Lookback, "PT24H", nil, "24h", "a whole count and one unit letter: m, h, d or w"},
		{"a minus under lookback", Lookback, "-24h", nil, "24h", "a lookback has no minus"},
		{"no minus under signed-lookback", SignedLookback, "24h", nil, "-24h", "a signed-lookback starts with a minus"},
		{"words under signed-lookback", SignedLookback, "7 days", nil, "-7d", "a whole count and one unit letter: m, h, d or w; a signed-lookback starts with a minus"},
		{"iso end with no zone", ISORange, "2026-03-01T09:00:00Z..2026-03-01T17:00:00", nil, "2026-03-01T09:00:00Z..2026-03-01T17:00:00Z", "each end with a zone: Z for UTC"},
		{"iso ends in the zone argument's zone", ISORange, "2026-03-01T09:00..2026-07-01T17:00", berlin, "2026-03-01T09:00:00+01:00..2026-07-01T17:00:00+02:00", "each end with Europe/Berlin's offset"},
		{"slash", ISORange, "2026-03-01T09:00:00Z/2026-03-01T17:00:00Z", nil, "2026-03-01T09:00:00Z..2026-03-01T17:00:00Z", `the ends joined by .., not "/"`},
		{"to", ISORange, "2026-03-01T09:00:00Z to 2026-03-01T17:00:00Z", nil, "2026-03-01T09:00:00Z..2026-03-01T17:00:00Z", `the ends joined by .., not " to "`},
		{"en dash", WallRange, "2026-03-01T09:00–2026-03-01T17:00", nil, "2026-03-01T09:00..2026-03-01T17:00", `the ends joined by .., not "–"`},
		{"date-only range", ISORange, "2026-03-01..2026-03-02", nil, "2026-03-01T00:00:00Z..2026-03-03T00:00:00Z", "whole days, midnight to midnight, the last day included; each end with a zone: Z for UTC"},
		{"date-only wall range", WallRange, "2026-02-28..2026-02-28", nil, "2026-02-28T00:00..2026-03-01T00:00", "whole days, midnight to midnight, the last day included"},
		{"a space for T", ISORange, "2026-03-01 09:00:00Z..2026-03-01 10:00:00Z", nil, "2026-03-01T09:00:00Z..2026-03-01T10:00:00Z", "a T between date and time"},
		{"a single instant in the past", ISORange, "2026-03-01T09:00:00Z", nil, "2026-03-01T09:00:00Z..2026-03-02T10:07:00Z", "one instant is no range: from it up to now"},
		{"a single instant in the future", ISORange, "2026-03-03T09:00:00+01:00", nil, "2026-03-02T10:07:00Z..2026-03-03T08:00:00Z", "one instant is no range: from now up to it"},
		{"a single date", WallRange, "2026-03-01", nil, "2026-03-01T00:00..2026-03-02T00:00", "one date is no range: that whole day"},
		{"a single wall time on the zone's clock", WallRange, "2026-03-01T09:00", berlin, "2026-03-01T09:00:00..2026-03-02T11:07:00", "one instant is no range: from it up to now"},
		{"since a weekday", ISORange, "since Monday", nil, "2026-03-02T00:00:00Z..2026-03-02T10:07:00Z", "since monday: from its midnight up to now"},
		{"since an earlier weekday, on the zone's clock", WallRange, "since last Fri", berlin, "2026-02-27T00:00:00..2026-03-02T11:07:00", "since fri: from its midnight up to now"},
		{"since yesterday", ISORange, "Since yesterday", berlin, "2026-03-01T00:00:00+01:00..2026-03-02T11:07:00+01:00", "since yesterday: from its midnight up to now"},
		{"since a word that is no day", ISORange, "since launch", nil, "", ""},
		{"a lookback under a range", ISORange, "24h", nil, "2026-03-01T10:07:00Z..2026-03-02T10:07:00Z", "a lookback is no range: the same span up to now"},

		{"a value that passes needs nothing", Lookback, "7d", nil, "", ""},
		{"months are not clear", Lookback, "1M", nil, "", ""},
		{"last week is not clear", Lookback, "last week", nil, "", ""},
		{"seconds that are no whole minute", Lookback, "90 seconds", nil, "", ""},
		{"a date that does not exist", ISORange, "2026-02-30..2026-03-02", nil, "", ""},
		{"a wall end with a zone is not clear", WallRange, "2026-03-01T09:00Z..2026-03-01T10:00", nil, "", ""},
		{"a single wall time with no zone", WallRange, "2026-03-01T09:00", nil, "", ""},
		{"prose", ISORange, "yesterday", nil, "", ""},
		{"empty", Lookback, "", nil, "", ""},
		{"white space only", Lookback, " 7d ", nil, "7d", "without the white space around it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, ok := Suggest(c.sp, c.text, now.Add(time.Nanosecond*42), c.zone)
			if ok != (c.value != "") || s.Value != c.value || s.Why != c.why {
				t.Errorf("Suggest(%s, %q) = %q (%q), %v; want %q (%q)", c.sp, c.text, s.Value, s.Why, ok, c.value, c.why)
			}
			if ok {
				if _, err := Parse(c.sp, s.Value); err != nil {
					t.Errorf("suggestion %q does not parse as %s: %v", s.Value, c.sp, err)
				}
			}
		})
	}
}
