package declare

import (
	"slices"
	"testing"
)

const periodSchema = `{"type": "object", "properties": {
  "window": {"type": "string"}, "start": {"type": "integer"}, "end": {"type": "integer"},
  "day": {"type": "string"}, "last": {"type": "number"}, "unit": {"type": "string"},
  "tz": {"type": "string"}, "range": {"type": "object"}}}`

// readPeriod judges a declaration against periodSchema and fails the test
// on a refusal.
func readPeriod(t *testing.T, aoa, period string) *Rules {
	t.Helper()
	rules, ref := Judge("t", mustJSON(t, aoa), mustJSON(t, period), nil, mustJSON(t, periodSchema))
	if ref != nil {
		t.Fatalf("refused: %v", ref)
	}
	return rules
}

const threeForms = `{"forms": [
  {"kind": "joined", "argument": "window", "spelling": "lookback"},
  {"kind": "bounds", "from": {"argument": "start", "as": "epoch-ms"}, "to": {"argument": "end", "as": "epoch-ms", "edge": "exclusive"}},
  {"kind": "day", "argument": "day", "zoneArgument": "tz"}]}`

const threeRules = `{"window": {"ask": "How far back?"}, "start": {"assume": 0}, "end": {"assume": 86400000}, "day": {"ask": "Which day?"}}`

func TestSentForm(t *testing.T) {
	forms := readPeriod(t, threeRules, threeForms).Period.Forms
	cases := []struct {
		args string
		want int
	}{
		{`{}`, -1},
		{`{"window": "24h"}`, 0},
		{`{"start": 1, "end": 2}`, 1},
		{`{"end": 2}`, 1},                             // given in part
		{`{"start": 1, "day": "2026-03-01"}`, 2},      // a form given whole beats one given in part
		{`{"window": "24h", "day": "2026-03-01"}`, 0}, // the first given whole
		{`{"tz": "UTC"}`, -1},                         // the zone alone takes no form
		{`{"window": "  ", "start": null}`, -1},       // blank and null are left out
		{`[]`, -1},
	}
	for _, c := range cases {
		if got := SentForm(forms, mustJSON(t, c.args)); got != c.want {
			t.Errorf("SentForm(%s) = %d, want %d", c.args, got, c.want)
		}
	}
}

func TestUntakenBesides(t *testing.T) {
	forms := readPeriod(t, threeRules, threeForms).Period.Forms
	shared := readPeriod(t, `{"start": {"assume": 0}, "end": {"assume": 1}, "day": {"ask": "Which day?"}}`, `{"forms": [
	  {"kind": "bounds", "from": {"argument": "start", "as": "epoch-ms"}, "to": {"argument": "end", "as": "epoch-ms"}, "zoneArgument": "tz"},
	  {"kind": "day", "argument": "day", "zoneArgument": "tz"}]}`).Period.Forms
	single := readPeriod(t, threeRules, `{"argument": "window", "spelling": "lookback"}`).Period.Forms
	cases := []struct {
		name  string
		forms []Form
		taken int
		want  []string
	}{
		{"joined taken", forms, 0, []string{"start", "end", "day", "tz"}},
		{"bounds taken", forms, 1, []string{"window", "day", "tz"}},
		{"day taken", forms, 2, []string{"window", "start", "end"}},
		{"a shared zone stays", shared, 0, []string{"day"}},
		{"single form", single, 0, nil},
		{"nothing taken", forms, -1, nil},
		{"out of range", forms, 3, nil},
	}
	for _, c := range cases {
		if got := UntakenBesides(c.forms, c.taken); !slices.Equal(got, c.want) {
			t.Errorf("%s: UntakenBesides = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestOwedForm(t *testing.T) {
	cases := []struct {
		name     string
		rules    string
		answered []string
		want     int
	}{
		{"the first form assumed whole", threeRules, nil, 1},
		{"answers fill a form whole", threeRules, []string{"day"}, 2},
		{"answers first, then assumptions", threeRules, []string{"window"}, 0},
		{"a form assumed in part is not assumed whole",
			`{"window": {"ask": "?"}, "start": {"assume": 0}, "end": {"ask": "?"}, "day": {"ask": "?"}}`, nil, 0},
		{"nothing assumed: the first form",
			`{"window": {"ask": "?"}, "start": {"ask": "?"}, "end": {"ask": "?"}, "day": {"ask": "?"}}`, nil, 0},
	}
	for _, c := range cases {
		rules := readPeriod(t, c.rules, threeForms)
		var answered func(string) bool
		if c.answered != nil {
			answered = func(a string) bool { return slices.Contains(c.answered, a) }
		}
		if got := OwedForm(rules.Period.Forms, rules, answered); got != c.want {
			t.Errorf("%s: OwedForm = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestPeriodArguments(t *testing.T) {
	p := readPeriod(t, threeRules, threeForms).Period
	if got, want := p.Arguments(), []string{"window", "start", "end", "day", "tz"}; !slices.Equal(got, want) {
		t.Errorf("Arguments = %v, want %v", got, want)
	}
	if got := p.Argument(); got != "window" {
		t.Errorf("Argument = %q, want window", got)
	}
	bounds := readPeriod(t, `{"start": {"ask": "?"}, "end": {"ask": "?"}}`,
		`{"forms": [{"kind": "bounds", "from": {"argument": "start", "as": "epoch-s"}, "to": {"argument": "end", "as": "epoch-s"}}]}`).Period
	if got := bounds.Argument(); got != "start" {
		t.Errorf("a bounds period is known by %q, want its first bound start", got)
	}
	var none *Period
	if none.Arguments() != nil || none.Argument() != "" {
		t.Error("a nil period names arguments")
	}
}

func TestSugarExpands(t *testing.T) {
	p := readPeriod(t, `{"window": {"assume": "24h"}}`,
		`{"argument": "window", "accepts": ["lookback", "wall-range"], "zoneArgument": "tz", "direction": "future", "maxRange": "7d", "granularity": "1m", "filtersToAsked": true, "wallZone": "app"}`).Period
	if !p.Sugar || len(p.Forms) != 1 {
		t.Fatalf("sugar read as %+v", p)
	}
	f := p.Forms[0]
	if f.Kind != KindJoined || f.Argument != "window" || !slices.Equal(f.Spellings, []Spelling{Lookback, WallRange}) || f.ZoneArgument != "tz" {
		t.Errorf("sugar expanded to %+v", f)
	}
	facts := p.Facts
	if facts.Direction != Future || facts.MaxRange.Text != "7d" || facts.Granularity.Length.Minutes() != 1 || !facts.FiltersToAsked || !facts.WallZoneApp || facts.Retention.Text != "" {
		t.Errorf("facts read as %+v", facts)
	}
}

func TestFormString(t *testing.T) {
	p := readPeriod(t, `{"window": {"assume": "24h"}, "start": {"ask": "?"}, "end": {"ask": "?"}, "day": {"ask": "?"}, "last": {"assume": 2}}`, `{"forms": [
	  {"kind": "joined", "argument": "window", "accepts": ["lookback", "signed-lookback"]},
	  {"kind": "bounds", "from": {"argument": "start", "as": "epoch-ms"}, "to": {"argument": "end", "as": "epoch-ms", "edge": "exclusive"}},
	  {"kind": "object", "argument": "range", "from": "since", "to": "until", "as": "iso"},
	  {"kind": "day", "argument": "day", "zoneArgument": "tz"},
	  {"kind": "lookback", "argument": "last", "unit": "h"},
	  {"kind": "lookback", "argument": "last", "unitArgument": "unit"}]}`).Period
	want := []string{
		"joined window (lookback or signed-lookback)",
		"bounds start (epoch-ms) .. end (epoch-ms, exclusive)",
		"object range {since .. until} (iso)",
		"day (argument day), zone in tz",
		"lookback last (h)",
		"lookback last x unit",
	}
	if len(p.Forms) != len(want) {
		t.Fatalf("read %d forms, want %d", len(p.Forms), len(want))
	}
	for i, f := range p.Forms {
		if got := f.String(); got != want[i] {
			t.Errorf("form %d: %q, want %q", i, got, want[i])
		}
	}
}
