package declare

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// now is the fixed instant every resolution test reads against: a Monday.
var now = time.Date(2026, 3, 2, 10, 7, 0, 0, time.UTC)

func paris(t testing.TB) *time.Location {
	t.Helper()
	loc, err := LoadZone("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

const resolveSchema = `{"type": "object", "properties": {
  "pool": {"type": "string"}, "region": {"type": "string", "enum": ["eu", "us"]}, "verbose": {"type": "boolean"},
  "window": {"type": "string"}, "start": {"type": "integer"}, "end": {"type": "integer"},
  "since": {"type": "string"}, "until": {"type": "string"},
  "day": {"type": "string"}, "last": {"type": "number"}, "unit": {"type": "string"},
  "tz": {"type": "string"}, "range": {"type": "object"}}}`

func TestResolve(t *testing.T) {
	cases := []struct {
		name, aoa, period, args string
		want                    []string
	}{
		{name: "fates and the batch of asks",
			aoa:  `{"pool": {"assume": "gold"}, "region": {"ask": "Which region?", "choices": ["eu", {"value": "us", "said": ["america"]}]}, "verbose": {"ask": "Verbose?"}}`,
			args: `{"pool": "silver"}`,
			want: []string{
				`pool: model's own "silver"`,
				`region: asked "Which region?" ["eu", "us"]`,
				`verbose: asked "Verbose?"`,
				`asked in one batch, before anything runs: region, verbose`,
			}},
		{name: "a blank value is left out",
			aoa:  `{"pool": {"assume": "gold"}}`,
			args: `{"pool": "   "}`,
			want: []string{`pool: assumed "gold" (recorded as default)`}},
		{name: "a value that does not parse",
			aoa:    `{"window": {"assume": "2h"}}`,
			period: `{"argument": "window", "spelling": "lookback"}`,
			args:   `{"window": "2 hours"}`,
			want: []string{
				`window: model's own "2 hours"`,
				`period: joined window (lookback)`,
				`window "2 hours" (lookback): not a lookback (30m, 24h, 7d, 2w)`,
				`window: did you mean "2h"? a whole count and one unit letter: m, h, d or w`,
			}},
		{name: "a suggestion that breaks the facts says so",
			aoa:    `{"window": {"assume": "2h"}}`,
			period: `{"argument": "window", "spelling": "lookback", "maxRange": "30d", "retention": "90d"}`,
			args:   `{"window": "20 weeks"}`,
			want: []string{
				`window: model's own "20 weeks"`,
				`period: joined window (lookback)`,
				`window "20 weeks" (lookback): not a lookback (30m, 24h, 7d, 2w)`,
				`window: did you mean "20w"? a whole count and one unit letter: m, h, d or w; but the source would still refuse it: it spans 140d, wider than the maxRange 30d; it reaches back 140 days, beyond the retention 90d: the oldest part holds no data`,
			}},
		{name: "a said phrase of a choice reads as that choice",
			aoa:    `{"window": {"ask": "How far back?", "choices": [{"value": "7d", "said": ["last week", "the past week"]}, "24h"]}}`,
			period: `{"argument": "window", "spelling": "lookback", "maxRange": "3d"}`,
			args:   `{"window": "  Last   WEEK "}`,
			want: []string{
				`window: model's own "  Last   WEEK "`,
				`period: joined window (lookback)`,
				`window "  Last   WEEK ": read as 7d, the declaration's own phrase for that choice`,
				`covers 2026-02-23T10:07:00Z .. 2026-03-02T10:07:00Z (7d)`,
				`in Europe/Paris: 2026-02-23T11:07:00+01:00 .. 2026-03-02T11:07:00+01:00`,
				`advice: spans 7d, wider than the maxRange 3d`,
			}},
		{name: "a phrase the declaration does not vouch for stays refused",
			aoa:    `{"window": {"assume": "7d"}}`,
			period: `{"argument": "window", "spelling": "lookback"}`,
			args:   `{"window": "last week"}`,
			want: []string{
				`window: model's own "last week"`,
				`period: joined window (lookback)`,
				`window "last week" (lookback): not a lookback (30m, 24h, 7d, 2w)`,
			}},
		{name: "a slip of a said phrase is suggested",
			aoa:    `{"window": {"ask": "How far back?", "choices": [{"value": "7d", "said": ["last week"]}, {"value": "24h", "said": ["last day"]}]}}`,
			period: `{"argument": "window", "spelling": "lookback"}`,
			args:   `{"window": "last weak"}`,
			want: []string{
				`window: model's own "last weak"`,
				`period: joined window (lookback)`,
				`window "last weak" (lookback): not a lookback (30m, 24h, 7d, 2w)`,
				`window: did you mean "last week"? the declaration's own phrase for 7d`,
			}},
		{name: "an iso end with no zone: the zone argument's offset is suggested",
			aoa:    `{"window": {"ask": "When?"}, "tz": {"assume": "Europe/Berlin"}}`,
			period: `{"argument": "window", "spelling": "iso-range", "zoneArgument": "tz"}`,
			args:   `{"window": "2026-03-01T09:00/2026-03-01T17:00"}`,
			want: []string{
				`window: model's own "2026-03-01T09:00/2026-03-01T17:00"`,
				`tz: assumed "Europe/Berlin" (recorded as default)`,
				`period: joined window (iso-range), zone in tz`,
				`window "2026-03-01T09:00/2026-03-01T17:00" (iso-range): no ".." joining two instants`,
				`window: did you mean "2026-03-01T09:00:00+01:00..2026-03-01T17:00:00+01:00"? the ends joined by .., not "/"; each end with Europe/Berlin's offset`,
				`tz "Europe/Berlin" (zone, assumed): ok`,
			}},
		{name: "an assumed lookback and its advice",
			aoa:    `{"window": {"assume": "100d"}}`,
			period: `{"argument": "window", "spelling": "lookback", "retention": "90d", "maxRange": "30d", "granularity": "3w"}`,
			args:   `{}`,
			want: []string{
				`window: assumed "100d" (recorded as default)`,
				`period: left out; joined window (lookback)`,
				`window "100d" (lookback, assumed): ok`,
				`covers 2025-11-22T10:07:00Z .. 2026-03-02T10:07:00Z (100d)`,
				`in Europe/Paris: 2025-11-22T11:07:00+01:00 .. 2026-03-02T11:07:00+01:00`,
				`advice: spans 100d, wider than the maxRange 30d`,
				`advice: reaches back 100 days, beyond the retention 90d: the oldest part holds no data`,
				`advice: spans 100d, not a whole number of the source's 3w steps (granularity)`,
			}},
		{name: "bounds taken over the alternatives",
			aoa:    `{"window": {"assume": "24h"}, "start": {"ask": "From?"}, "end": {"ask": "Until?"}}`,
			period: `{"forms": [{"kind": "joined", "argument": "window", "spelling": "lookback"}, {"kind": "bounds", "from": {"argument": "start", "as": "epoch-ms"}, "to": {"argument": "end", "as": "epoch-ms", "edge": "exclusive"}}], "direction": "past", "granularity": "1h"}`,
			args:   `{"start": 1772355600000, "end": "1772442000000"}`,
			want: []string{
				`window: not filled; the period is read from another form`,
				`start: model's own 1772355600000`,
				`end: model's own "1772442000000"`,
				`period: took form 2 of 2, bounds start (epoch-ms) .. end (epoch-ms, exclusive); not taken: window`,
				`start 1772355600000 (epoch-ms): ok`,
				`end "1772442000000" (epoch-ms): ok`,
				`covers 2026-03-01T09:00:00Z .. 2026-03-02T09:00:00Z (1d)`,
				`in Europe/Paris: 2026-03-01T10:00:00+01:00 .. 2026-03-02T10:00:00+01:00`,
			}},
		{name: "bounds in part: the missing end is asked",
			aoa:    `{"window": {"assume": "24h"}, "start": {"ask": "From?"}, "end": {"ask": "Until?"}}`,
			period: `{"forms": [{"kind": "joined", "argument": "window", "spelling": "lookback"}, {"kind": "bounds", "from": {"argument": "start", "as": "epoch-ms"}, "to": {"argument": "end", "as": "epoch-ms"}}]}`,
			args:   `{"start": 1772355600000, "window": ""}`,
			want: []string{
				`window: not filled; the period is read from another form`,
				`start: model's own 1772355600000`,
				`end: asked "Until?"`,
				`asked in one batch, before anything runs: end`,
				`period: took form 2 of 2, bounds start (epoch-ms) .. end (epoch-ms); not taken: window`,
				`start 1772355600000 (epoch-ms): ok`,
				`end (epoch-ms): asked; the window waits for the answer`,
			}},
		{name: "a second form given too",
			aoa:    `{"window": {"assume": "24h"}, "day": {"ask": "Which day?"}}`,
			period: `{"forms": [{"kind": "joined", "argument": "window", "spelling": "lookback"}, {"kind": "day", "argument": "day"}], "wallZone": "app"}`,
			args:   `{"window": "1h", "day": "2026-03-01"}`,
			want: []string{
				`window: model's own "1h"`,
				`day: model's own "2026-03-01"`,
				`period: took form 1 of 2, joined window (lookback); not taken: day`,
				`window "1h" (lookback): ok`,
				`covers 2026-03-02T09:07:00Z .. 2026-03-02T10:07:00Z (1h)`,
				`in Europe/Paris: 2026-03-02T10:07:00+01:00 .. 2026-03-02T11:07:00+01:00`,
				`advice: also gives day, which belongs to another form; the call took form 1, so day is not read`,
			}},
		{name: "bounds more than 292 years apart",
			aoa:    `{"since": {"ask": "Since?"}, "until": {"ask": "Until?"}}`,
			period: `{"forms": [{"kind": "bounds", "from": {"argument": "since", "as": "iso"}, "to": {"argument": "until", "as": "iso"}}]}`,
			args:   `{"since": "1700-01-01T00:00:00Z", "until": "2026-01-01T00:00:00Z"}`,
			want: []string{
				`since: model's own "1700-01-01T00:00:00Z"`,
				`until: model's own "2026-01-01T00:00:00Z"`,
				`period: bounds since (iso) .. until (iso)`,
				`since "1700-01-01T00:00:00Z" (iso): ok`,
				`until "2026-01-01T00:00:00Z" (iso): ok`,
				`no window: spans more than 292 years, longer than a window can be measured`,
			}},
		{name: "the owed form is the first assumed whole",
			aoa:    `{"since": {"ask": "Since?"}, "until": {"ask": "Until?"}, "last": {"assume": 3}}`,
			period: `{"forms": [{"kind": "bounds", "from": {"argument": "since", "as": "iso"}, "to": {"argument": "until", "as": "iso"}}, {"kind": "lookback", "argument": "last", "unit": "d"}], "direction": "past"}`,
			args:   `{}`,
			want: []string{
				`since: not filled; the period is read from another form`,
				`until: not filled; the period is read from another form`,
				`last: assumed 3 (recorded as default)`,
				`period: left out; owes form 2 of 2, lookback last (d); not taken: since, until`,
				`last 3 (count, assumed): ok`,
				`covers 2026-02-27T10:07:00Z .. 2026-03-02T10:07:00Z (3d)`,
				`in Europe/Paris: 2026-02-27T11:07:00+01:00 .. 2026-03-02T11:07:00+01:00`,
			}},
		{name: "a lookback with a unit argument",
			aoa:    `{"last": {"assume": 1.5}, "unit": {"assume": "h"}}`,
			period: `{"forms": [{"kind": "lookback", "argument": "last", "unitArgument": "unit"}]}`,
			args:   `{"unit": "Days"}`,
			want: []string{
				`last: assumed 1.5 (recorded as default)`,
				`unit: model's own "Days"`,
				`period: lookback last x unit`,
				`last 1.5 (count, assumed): ok`,
				`unit "Days" (unit): ok`,
				`covers 2026-02-28T22:07:00Z .. 2026-03-02T10:07:00Z (1d12h)`,
				`in Europe/Paris: 2026-02-28T23:07:00+01:00 .. 2026-03-02T11:07:00+01:00`,
			}},
		{name: "a wall range in the call's zone",
			aoa:    `{"window": {"ask": "Between when?"}, "tz": {"assume": "Europe/Berlin"}}`,
			period: `{"argument": "window", "spelling": "wall-range", "zoneArgument": "tz", "direction": "past", "granularity": "15m"}`,
			args:   `{"window": "2026-03-01T09:00..2026-03-01T17:10", "tz": "America/New_York"}`,
			want: []string{
				`window: model's own "2026-03-01T09:00..2026-03-01T17:10"`,
				`tz: model's own "America/New_York"`,
				`period: joined window (wall-range), zone in tz`,
				`window "2026-03-01T09:00..2026-03-01T17:10" (wall-range): ok`,
				`tz "America/New_York" (zone): ok`,
				`covers 2026-03-01T14:00:00Z .. 2026-03-01T22:10:00Z (8h10m)`,
				`in America/New_York: 2026-03-01T09:00:00-05:00 .. 2026-03-01T17:10:00-05:00`,
				`advice: to 2026-03-01T17:10:00-05:00 is not on a 15m step (granularity)`,
			}},
		{name: "a zone that does not read is never replaced",
			aoa:    `{"window": {"ask": "Between when?"}}`,
			period: `{"argument": "window", "spelling": "wall-range", "zoneArgument": "tz", "wallZone": "app"}`,
			args:   `{"window": "2026-03-01T09:00..2026-03-01T17:00", "tz": "CET+1"}`,
			want: []string{
				`window: model's own "2026-03-01T09:00..2026-03-01T17:00"`,
				`period: joined window (wall-range), zone in tz`,
				`window "2026-03-01T09:00..2026-03-01T17:00" (wall-range): ok`,
				`tz "CET+1" (zone): not an IANA zone name (like Europe/Paris or UTC)`,
			}},
		{name: "a wall range with no zone",
			aoa:    `{"window": {"ask": "Between when?"}}`,
			period: `{"argument": "window", "spelling": "wall-range", "zoneArgument": "tz"}`,
			args:   `{"window": "2026-03-01T09:00..2026-03-01T17:00"}`,
			want: []string{
				`window: model's own "2026-03-01T09:00..2026-03-01T17:00"`,
				`period: joined window (wall-range), zone in tz`,
				`window "2026-03-01T09:00..2026-03-01T17:00" (wall-range): ok`,
				`tz (zone): left out, and no rule fills it`,
				`no window: no zone: the call gives no tz and the period declares no wallZone "app"`,
			}},
		{name: "a day in the app's zone",
			aoa:    `{"day": {"ask": "Which day?"}}`,
			period: `{"forms": [{"kind": "day", "argument": "day"}], "wallZone": "app", "direction": "past"}`,
			args:   `{"day": "2026-03-02"}`,
			want: []string{
				`day: model's own "2026-03-02"`,
				`period: day (argument day)`,
				`day "2026-03-02" (day): ok`,
				`covers 2026-03-01T23:00:00Z .. 2026-03-02T23:00:00Z (1d)`,
				`in Europe/Paris: 2026-03-02T00:00:00+01:00 .. 2026-03-03T00:00:00+01:00`,
				`advice: runs 12h53m past now; the source holds only the past`,
			}},
		{name: "an object form with date ends, inclusive",
			period: `{"forms": [{"kind": "object", "argument": "range", "from": "since", "to": "until", "as": "date"}], "wallZone": "app", "maxRange": "7d"}`,
			args:   `{"range": {"since": "2026-02-01", "until": "2026-02-28"}}`,
			want: []string{
				`period: object range {since .. until} (date)`,
				`range {"since":"2026-02-01","until":"2026-02-28"} ({since, until} as date): ok`,
				`covers 2026-01-31T23:00:00Z .. 2026-02-28T23:00:00Z (28d)`,
				`in Europe/Paris: 2026-02-01T00:00:00+01:00 .. 2026-03-01T00:00:00+01:00`,
				`advice: spans 28d, wider than the maxRange 7d`,
			}},
		{name: "an object missing a key",
			period: `{"forms": [{"kind": "object", "argument": "range", "from": "since", "to": "until", "as": "iso"}]}`,
			args:   `{"range": {"since": "2026-02-01T00:00:00Z"}}`,
			want: []string{
				`period: object range {since .. until} (iso)`,
				`range {"since":"2026-02-01T00:00:00Z"} ({since, until} as iso): has no until`,
			}},
		{name: "an iso range in the future, backwards",
			aoa:    `{"window": {"ask": "When?"}}`,
			period: `{"argument": "window", "spelling": "iso-range", "direction": "future"}`,
			args:   `{"window": "2026-03-01T12:00:00Z..2026-03-01T10:00:00Z"}`,
			want: []string{
				`window: model's own "2026-03-01T12:00:00Z..2026-03-01T10:00:00Z"`,
				`period: joined window (iso-range)`,
				`window "2026-03-01T12:00:00Z..2026-03-01T10:00:00Z" (iso-range): ok`,
				`covers 2026-03-01T12:00:00Z .. 2026-03-01T10:00:00Z (-2h)`,
				`in Europe/Paris: 2026-03-01T13:00:00+01:00 .. 2026-03-01T11:00:00+01:00`,
				`advice: from is after to by 2h`,
				`advice: lies before now; the source holds only the future`,
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rules, ref := Judge("t", mustJSON(t, c.aoa), mustJSON(t, c.period), nil, mustJSON(t, resolveSchema))
			if ref != nil {
				t.Fatalf("refused: %v", ref)
			}
			got := Resolve(rules, mustJSON(t, c.args), now, paris(t)).Text()
			if want := strings.Join(c.want, "\n"); got != want {
				t.Errorf("got\n%s\n\nwant\n%s", got, want)
			}
		})
	}
}

func TestResolveNothingDeclared(t *testing.T) {
	r := Resolve(nil, mustJSON(t, `{"a": 1}`), now, nil)
	if len(r.Arguments) != 0 || r.Period != nil || r.Text() != "" {
		t.Errorf("resolved something from no rules: %+v", r)
	}
}

func TestResolveTones(t *testing.T) {
	rules, _ := Judge("t", mustJSON(t, `{"window": {"assume": "24h"}}`), mustJSON(t, `{"argument": "window", "spelling": "lookback", "maxRange": "1h"}`), nil, mustJSON(t, resolveSchema))
	tones := func(args string) []Tone {
		var out []Tone
		for _, l := range Resolve(rules, mustJSON(t, args), now, time.UTC).Lines() {
			out = append(out, l.Tone)
		}
		return out
	}
	if got := tones(`{"window": "24x"}`); got[len(got)-1] != ToneBad {
		t.Errorf("a value that does not parse ends in tone %v", got)
	}
	if got := tones(`{"window": "2h"}`); got[2] != ToneOK || got[len(got)-1] != ToneAdvice {
		t.Errorf("a parsing value with advice has tones %v", got)
	}
}

func TestResolutionJSON(t *testing.T) {
	rules, ref := Judge("t", mustJSON(t, `{"window": {"ask": "How far back?", "choices": ["1h", "24h"]}}`),
		mustJSON(t, `{"argument": "window", "spelling": "lookback", "maxRange": "12h"}`), nil, mustJSON(t, resolveSchema))
	if ref != nil {
		t.Fatal(ref)
	}
	b, err := json.Marshal(Resolve(rules, mustJSON(t, `{"window": "24h"}`), now, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"arguments":[{"argument":"window","fate":"own","value":"24h"}],` +
		`"period":{"forms":["joined window (lookback)"],"taken":0,"owed":-1,` +
		`"values":[{"argument":"window","as":"lookback","source":"own","value":"24h","ok":true}],` +
		`"zone":"UTC","window":{"from":"2026-03-01T10:07:00Z","to":"2026-03-02T10:07:00Z","duration":"1d"},` +
		`"advice":["spans 1d, wider than the maxRange 12h"]}}`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

func TestAdvise(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	hour := Duration{Text: "1h", Length: time.Hour}
	cases := []struct {
		name     string
		from, to string
		facts    Facts
		relative bool
		want     []string
	}{
		{"nothing declared", "2026-03-01T00:00:00Z", "2026-03-02T00:00:00Z", Facts{}, false, nil},
		{"backwards", "2026-03-02T00:00:00Z", "2026-03-01T00:00:00Z", Facts{}, false, []string{"from is after to by 1d"}},
		{"at maxRange is fine", "2026-03-01T00:00:00Z", "2026-03-01T01:00:00Z", Facts{MaxRange: hour}, false, nil},
		{"past maxRange", "2026-03-01T00:00:00Z", "2026-03-01T01:00:01Z", Facts{MaxRange: hour}, false,
			[]string{"spans 1h1s, wider than the maxRange 1h"}},
		{"within retention", "2026-03-02T09:07:00Z", "2026-03-02T10:00:00Z", Facts{Retention: hour}, false, nil},
		{"past retention", "2026-03-02T09:00:00Z", "2026-03-02T10:00:00Z", Facts{Retention: hour}, false,
			[]string{"reaches back 1h7m, beyond the retention 1h: the oldest part holds no data"}},
		{"wholly past retention", "2026-03-02T08:00:00Z", "2026-03-02T09:00:00Z", Facts{Retention: hour}, false,
			[]string{"ended 1h7m ago, wholly beyond the retention 1h: the source holds no data for any of it"}},
		{"years past retention, in days", "2023-02-01T00:00:00Z", "2023-02-02T00:00:00Z", Facts{Retention: Duration{Text: "90d", Length: 90 * 24 * time.Hour}}, false,
			[]string{"ended 1124 days ago, wholly beyond the retention 90d: the source holds no data for any of it"}},
		{"past source, future window", "2026-03-03T00:00:00Z", "2026-03-04T00:00:00Z", Facts{Direction: Past}, false,
			[]string{"lies after now; the source holds only the past"}},
		{"past source, window ends at now", "2026-03-02T00:00:00Z", "2026-03-02T10:07:00Z", Facts{Direction: Past}, false, nil},
		{"future source, past window", "2026-03-01T00:00:00Z", "2026-03-02T00:00:00Z", Facts{Direction: Future}, false,
			[]string{"lies before now; the source holds only the future"}},
		{"future source, window straddles now", "2026-03-02T10:00:00Z", "2026-03-02T12:00:00Z", Facts{Direction: Future}, false,
			[]string{"starts 7m before now; the source holds only the future"}},
		{"aligned ends", "2026-03-02T08:00:00Z", "2026-03-02T09:00:00Z", Facts{Granularity: hour}, false, nil},
		{"unaligned from", "2026-03-02T08:30:00Z", "2026-03-02T09:00:00Z", Facts{Granularity: hour}, false,
			[]string{"from 2026-03-02T08:30:00Z is not on a 1h step (granularity)"}},
		{"days align to midnight, weeks to Monday", "2026-02-23T00:00:00Z", "2026-03-02T00:00:00Z",
			Facts{Granularity: Duration{Text: "1w", Length: 7 * 24 * time.Hour}}, false, nil},
		{"a relative window checks its length", "2026-03-02T08:37:00Z", "2026-03-02T10:07:00Z", Facts{Granularity: hour}, true,
			[]string{"spans 1h30m, not a whole number of the source's 1h steps (granularity)"}},
		{"a relative window of whole steps", "2026-03-02T08:07:00Z", "2026-03-02T10:07:00Z", Facts{Granularity: hour}, true, nil},
	}
	for _, c := range cases {
		got := Advise(Window{From: at(c.from), To: at(c.to)}, c.facts, now, time.UTC, c.relative)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestFormatLength pins lengths for a person (to the second, the fraction
// cut) beside the exact form JSON gives.
func TestFormatLength(t *testing.T) {
	cases := []struct {
		d            time.Duration
		shown, exact string
	}{
		{0, "0s", "0s"},
		{90 * time.Minute, "1h30m", "1h30m"},
		{36*time.Hour + 30*time.Second, "1d12h30s", "1d12h30s"},
		{-2 * time.Hour, "-2h", "-2h"},
		{1500 * time.Millisecond, "1s", "1s500ms"},
		{time.Hour + 999*time.Millisecond, "1h", "1h999ms"},
		{time.Duration(-1 << 63), "-106751d23h47m16s", "-2562047h47m16.854775808s"},
		{14*24*time.Hour + 5*time.Minute, "14d5m", "14d5m"},
		{250 * time.Microsecond, "<1s", "250µs"},
		{-time.Nanosecond, "-<1s", "-1ns"},
	}
	for _, c := range cases {
		if got := FormatLength(c.d); got != c.shown {
			t.Errorf("FormatLength(%v) = %q, want %q", c.d, got, c.shown)
		}
		if got := lengthText(c.d, true); got != c.exact {
			t.Errorf("lengthText(%v, exact) = %q, want %q", c.d, got, c.exact)
		}
	}
}

// TestWindowToTheSecond pins how a window is shown: to the second in the
// text, whatever the clock's nanoseconds; the JSON keeps a fraction the
// call wrote, never one that came from now.
func TestWindowToTheSecond(t *testing.T) {
	ticking := now.Add(123456789 * time.Nanosecond)
	cases := []struct {
		name, value string
		text        []string
		json        string
	}{
		{"a lookback ends at now, to the second", "1h",
			[]string{`covers 2026-03-02T09:07:00Z .. 2026-03-02T10:07:00Z (1h)`, `in Europe/Paris: 2026-03-02T10:07:00+01:00 .. 2026-03-02T11:07:00+01:00`},
			`{"from":"2026-03-02T09:07:00Z","to":"2026-03-02T10:07:00Z","duration":"1h"}`},
		{"a written fraction is cut in the text, kept in JSON", "2026-03-01T09:00:00.25Z..2026-03-01T09:30:00.75+01:00",
			[]string{`covers 2026-03-01T09:00:00Z .. 2026-03-01T08:30:00Z (-29m59s)`, `in Europe/Paris: 2026-03-01T10:00:00+01:00 .. 2026-03-01T09:30:00+01:00`},
			`{"from":"2026-03-01T09:00:00.25Z","to":"2026-03-01T08:30:00.75Z","duration":"-29m59s500ms"}`},
	}
	rules, ref := Judge("t", mustJSON(t, `{"window": {"ask": "When?"}}`), mustJSON(t, `{"argument": "window", "accepts": ["lookback", "iso-range"]}`), nil, mustJSON(t, resolveSchema))
	if ref != nil {
		t.Fatal(ref)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Resolve(rules, mustJSON(t, `{"window": `+strconvQuote(c.value)+`}`), ticking, paris(t))
			text := res.Text()
			for _, want := range c.text {
				if !strings.Contains(text, want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
			b, err := json.Marshal(res.Period.Window)
			if err != nil || string(b) != c.json {
				t.Errorf("window JSON %s (%v), want %s", b, err, c.json)
			}
		})
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
