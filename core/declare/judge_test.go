package declare

import (
	"fmt"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// judgeSchema offers one property per situation the judge tells apart.
const judgeSchema = `{"type": "object", "required": ["pool"], "properties": {
  "unit": {"type": "string", "enum": ["ms", "s"]},
  "pool": {"type": "string"},
  "region": {"type": "string", "enum": ["eu", "us"]},
  "count": {"type": "integer"},
  "verbose": {"type": "boolean"},
  "ratio": {"type": "number"},
  "tags": {"type": "array"},
  "nullable": {"type": ["string", "null"]},
  "untyped": {"description": "no type"},
  "code": {"type": "string", "pattern": "^[a-z]+$"},
  "amount": {"type": "string"},
  "window": {"type": "string"},
  "start_time": {"type": "integer"},
  "end_time": {"type": "integer"},
  "tz": {"type": "string"},
  "day": {"type": "string"},
  "hours": {"type": "number"},
  "span_unit": {"type": "string"},
  "range": {"type": "object"}
}}`

func mustJSON(t testing.TB, s string) *jsonv.Value {
	t.Helper()
	if s == "" {
		return nil
	}
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

func choicesJSON(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%q", fmt.Sprintf("c%d", i))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func phrasesJSON(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%q", fmt.Sprintf("phrase %d", i))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func TestJudgeRefusesEachListedCase(t *testing.T) {
	q4096 := strings.Repeat("é", AskQuestionChars)
	said120 := strings.Repeat("x", SaidPhraseChars)
	cases := []struct {
		name        string
		aoa, period string
		wants       string
		// refusal is the expected sentence; "" means the declaration reads.
		refusal string
		arg     string
	}{
		// A rule on an argument the schema does not offer, or of a type no rule can hold.
		{name: "no such property", aoa: `{"nope": {"assume": "x"}}`,
			refusal: "tool t: askOrAssume.nope: the schema has no property nope", arg: "nope"},
		{name: "array type", aoa: `{"tags": {"assume": "x"}}`,
			refusal: `tool t: askOrAssume.tags: property tags is typed "array"; a ruled argument is exactly one of string, number, integer, boolean`, arg: "tags"},
		{name: "union type", aoa: `{"nullable": {"assume": "x"}}`,
			refusal: `tool t: askOrAssume.nullable: property nullable is typed ["string","null"]; a ruled argument is exactly one of string, number, integer, boolean`, arg: "nullable"},
		{name: "no type", aoa: `{"untyped": {"assume": "x"}}`,
			refusal: "tool t: askOrAssume.untyped: property untyped declares no type; a ruled argument is exactly one of string, number, integer, boolean", arg: "untyped"},
		{name: "wants argument", aoa: `{"pool": {"assume": "gold"}}`, wants: `{"pool": "the pool to read"}`,
			refusal: "tool t: askOrAssume.pool: pool is a wants argument; a rule cannot rule it too", arg: "pool"},
		{name: "wants not an object", aoa: `{"pool": {"assume": "gold"}}`, wants: `["pool"]`,
			refusal: "tool t: wants: is an array, want an object naming arguments"},
		// Rule shape.
		{name: "both forms", aoa: `{"pool": {"assume": "gold", "ask": "Which pool?"}}`,
			refusal: "tool t: askOrAssume.pool: has both assume and ask; a rule is one or the other", arg: "pool"},
		{name: "neither form", aoa: `{"pool": {}}`,
			refusal: `tool t: askOrAssume.pool: has neither assume nor ask; a rule is {"assume": V} or {"ask": "question", "choices": [...]}`, arg: "pool"},
		{name: "unknown key", aoa: `{"pool": {"assume": "gold", "default": "gold"}}`,
			refusal: `tool t: askOrAssume.pool: unknown key "default"; a rule is {"assume": V} or {"ask": "question", "choices": [...]}`, arg: "pool"},
		{name: "choices on assume", aoa: `{"pool": {"assume": "gold", "choices": ["gold"]}}`,
			refusal: "tool t: askOrAssume.pool.choices: choices belong to an ask rule, not an assume rule", arg: "pool"},
		{name: "rule not an object", aoa: `{"pool": "gold"}`,
			refusal: `tool t: askOrAssume.pool: is a string; a rule is {"assume": V} or {"ask": "question", "choices": [...]}`, arg: "pool"},
		{name: "askOrAssume not an object", aoa: `["pool"]`,
			refusal: "tool t: askOrAssume: is an array, want an object mapping argument names to rules"},
		// Questions.
		{name: "blank question", aoa: `{"pool": {"ask": " \t\n"}}`,
			refusal: "tool t: askOrAssume.pool: the ask question is blank", arg: "pool"},
		{name: "question too long", aoa: fmt.Sprintf(`{"pool": {"ask": %q}}`, q4096+"?"),
			refusal: "tool t: askOrAssume.pool: the ask question is 4097 characters, over 4096", arg: "pool"},
		{name: "question at the limit", aoa: fmt.Sprintf(`{"pool": {"ask": %q}}`, q4096)},
		{name: "question not a string", aoa: `{"pool": {"ask": 3}}`,
			refusal: "tool t: askOrAssume.pool: the ask question is a number, want a string", arg: "pool"},
		// Choices.
		{name: "empty choices", aoa: `{"pool": {"ask": "Which?", "choices": []}}`,
			refusal: "tool t: askOrAssume.pool.choices: is empty; leave choices out for a free answer", arg: "pool"},
		{name: "too many choices", aoa: fmt.Sprintf(`{"pool": {"ask": "Which?", "choices": %s}}`, choicesJSON(MaxChoices+1)),
			refusal: "tool t: askOrAssume.pool.choices: has 101 choices, over 100", arg: "pool"},
		{name: "choices at the limit", aoa: fmt.Sprintf(`{"pool": {"ask": "Which?", "choices": %s}}`, choicesJSON(MaxChoices))},
		{name: "choices not an array", aoa: `{"pool": {"ask": "Which?", "choices": "gold"}}`,
			refusal: "tool t: askOrAssume.pool.choices: is a string, want an array of choices", arg: "pool"},
		{name: "repeating choice", aoa: `{"pool": {"ask": "Which?", "choices": ["gold", "silver", "gold"]}}`,
			refusal: `tool t: askOrAssume.pool.choices[2]: choice "gold" repeats choices[0] ("gold")`, arg: "pool"},
		{name: "repeating under the normaliser", aoa: `{"amount": {"ask": "How much?", "choices": ["41,200", "Big", "41200"]}}`,
			refusal: `tool t: askOrAssume.amount.choices[2]: choice "41200" repeats choices[0] ("41,200")`, arg: "amount"},
		{name: "repeating numbers by value", aoa: `{"ratio": {"ask": "Ratio?", "choices": [1, 1.0]}}`,
			refusal: "tool t: askOrAssume.ratio.choices[1]: choice 1.0 repeats choices[0] (1)", arg: "ratio"},
		{name: "repeating said choice", aoa: `{"pool": {"ask": "Which?", "choices": [{"value": "gold", "said": ["the good one"]}, "GOLD"]}}`,
			refusal: `tool t: askOrAssume.pool.choices[1]: choice "GOLD" repeats choices[0] ("gold")`, arg: "pool"},
		// Declared values judged by the property's own schema.
		{name: "assume off the enum", aoa: `{"unit": {"assume": "minutes"}}`,
			refusal: `tool t: askOrAssume.unit: assume "minutes" is not one of "ms", "s"`, arg: "unit"},
		{name: "assume of the wrong type", aoa: `{"count": {"assume": 1.5}}`,
			refusal: "tool t: askOrAssume.count: assume 1.5 does not fit property count: expected integer, got number", arg: "count"},
		{name: "assume null", aoa: `{"pool": {"assume": null}}`,
			refusal: "tool t: askOrAssume.pool: assume null does not fit property pool: expected string, got null", arg: "pool"},
		{name: "assume off the pattern", aoa: `{"code": {"assume": "ABC"}}`,
			refusal: "tool t: askOrAssume.code: assume \"ABC\" does not fit property code: expected string matching /^[a-z]+$/, got string of 3 chars", arg: "code"},
		{name: "choice off the enum", aoa: `{"region": {"ask": "Which region?", "choices": ["eu", "asia"]}}`,
			refusal: `tool t: askOrAssume.region.choices[1]: choice "asia" is not one of "eu", "us"`, arg: "region"},
		{name: "said choice off the enum", aoa: `{"region": {"ask": "Which region?", "choices": [{"value": "mars", "said": ["red planet"]}]}}`,
			refusal: `tool t: askOrAssume.region.choices[0]: choice "mars" is not one of "eu", "us"`, arg: "region"},
		{name: "integer 1.0 fits", aoa: `{"count": {"assume": 1.0}, "verbose": {"assume": false}, "ratio": {"assume": 0.5}}`},
		{name: "root required plays no part", aoa: `{"pool": {"ask": "Which pool?"}}`},
		// Said phrases.
		{name: "blank phrase", aoa: `{"pool": {"ask": "Which?", "choices": [{"value": "gold", "said": ["  "]}]}}`,
			refusal: "tool t: askOrAssume.pool.choices[0].said[0]: the phrase is blank", arg: "pool"},
		{name: "phrase too long", aoa: fmt.Sprintf(`{"pool": {"ask": "Which?", "choices": [{"value": "gold", "said": [%q]}]}}`, said120+"x"),
			refusal: "tool t: askOrAssume.pool.choices[0].said[0]: the phrase is 121 characters, over 120", arg: "pool"},
		{name: "phrase at the limit", aoa: fmt.Sprintf(`{"pool": {"ask": "Which?", "choices": [{"value": "gold", "said": [%q]}]}}`, said120)},
		{name: "too many phrases", aoa: fmt.Sprintf(`{"pool": {"ask": "Which?", "choices": [{"value": "gold", "said": %s}]}}`, phrasesJSON(MaxSaidPhrases+1)),
			refusal: "tool t: askOrAssume.pool.choices[0].said: has 17 phrases, over 16", arg: "pool"},
		{name: "phrases at the limit", aoa: fmt.Sprintf(`{"pool": {"ask": "Which?", "choices": [{"value": "gold", "said": %s}]}}`, phrasesJSON(MaxSaidPhrases))},
		{name: "phrase not a string", aoa: `{"pool": {"ask": "Which?", "choices": [{"value": "gold", "said": [7]}]}}`,
			refusal: "tool t: askOrAssume.pool.choices[0].said[0]: the phrase is a number, want a string", arg: "pool"},
		{name: "said not an array", aoa: `{"pool": {"ask": "Which?", "choices": [{"value": "gold", "said": "the good one"}]}}`,
			refusal: "tool t: askOrAssume.pool.choices[0].said: is a string, want an array of phrases", arg: "pool"},
		{name: "choice object without value", aoa: `{"pool": {"ask": "Which?", "choices": [{"said": ["x"]}]}}`,
			refusal: `tool t: askOrAssume.pool.choices[0]: has no value; a choice is a value or {"value": V, "said": ["phrase", ...]}`, arg: "pool"},
		{name: "choice object with unknown key", aoa: `{"pool": {"ask": "Which?", "choices": [{"value": "gold", "label": "Gold"}]}}`,
			refusal: `tool t: askOrAssume.pool.choices[0]: unknown key "label"; a choice is a value or {"value": V, "said": ["phrase", ...]}`, arg: "pool"},
		{name: "choice array", aoa: `{"pool": {"ask": "Which?", "choices": [["gold"]]}}`,
			refusal: `tool t: askOrAssume.pool.choices[0]: is an array; a choice is a value or {"value": V, "said": ["phrase", ...]}`, arg: "pool"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkJudge(t, c.aoa, c.period, c.wants, c.refusal, c.arg)
		})
	}
}

func checkJudge(t *testing.T, aoa, period, wants, refusal, arg string) *Rules {
	t.Helper()
	rules, ref := Judge("t", mustJSON(t, aoa), mustJSON(t, period), mustJSON(t, wants), mustJSON(t, judgeSchema))
	switch {
	case refusal == "" && ref != nil:
		t.Fatalf("refused a good declaration: %v", ref)
	case refusal == "" && rules == nil:
		t.Fatal("no rules read from a good declaration")
	case refusal != "" && ref == nil:
		t.Fatalf("accepted, want refusal %q", refusal)
	case refusal != "" && ref.Error() != refusal:
		t.Fatalf("refusal\n got %q\nwant %q", ref.Error(), refusal)
	case refusal != "" && ref.Argument != arg:
		t.Fatalf("refusal names argument %q, want %q", ref.Argument, arg)
	}
	return rules
}

func TestJudgeRefusesTooManyAsks(t *testing.T) {
	for _, n := range []int{MaxAskArguments, MaxAskArguments + 1} {
		props, rules := make([]string, n), make([]string, n)
		for i := range props {
			props[i] = fmt.Sprintf(`"a%d": {"type": "string"}`, i)
			rules[i] = fmt.Sprintf(`"a%d": {"ask": "Which a%d?"}`, i, i)
		}
		schema := mustJSON(t, `{"type": "object", "properties": {`+strings.Join(props, ",")+`}}`)
		_, ref := Judge("t", mustJSON(t, "{"+strings.Join(rules, ",")+"}"), nil, nil, schema)
		if n <= MaxAskArguments && ref != nil {
			t.Errorf("%d asks refused: %v", n, ref)
		}
		if n > MaxAskArguments && (ref == nil || ref.Error() != "tool t: askOrAssume: 33 arguments carry ask; at most 32 may on one tool") {
			t.Errorf("%d asks: got %v", n, ref)
		}
	}
}

func TestJudgeNothingDeclared(t *testing.T) {
	for _, c := range []struct{ aoa, period string }{{"", ""}, {"null", "null"}, {"null", ""}} {
		rules, ref := Judge("t", mustJSON(t, c.aoa), mustJSON(t, c.period), nil, mustJSON(t, judgeSchema))
		if rules != nil || ref != nil {
			t.Errorf("aoa %q period %q: got rules %v refusal %v, want neither", c.aoa, c.period, rules, ref)
		}
	}
}

func TestJudgeRefusesPeriods(t *testing.T) {
	const ruled = `{"window": {"assume": "24h"}, "start_time": {"ask": "From when?"}, "end_time": {"ask": "Until when?"},
	  "day": {"ask": "Which day?"}, "hours": {"assume": 2}}`
	nineForms := "[" + strings.TrimSuffix(strings.Repeat(`{"kind": "day", "argument": "day"},`, MaxPeriodForms+1), ",") + "]"
	eightForms := "[" + strings.TrimSuffix(strings.Repeat(`{"kind": "day", "argument": "day"},`, MaxPeriodForms), ",") + "]"
	cases := []struct {
		name, aoa, period, refusal, arg string
	}{
		{name: "sugar", aoa: ruled, period: `{"argument": "window", "spelling": "lookback"}`},
		{name: "sugar with accepts and zone", aoa: `{"window": {"assume": "2026-03-01T09:00..2026-03-01T17:00"}}`,
			period: `{"argument": "window", "accepts": ["lookback", "wall-range"], "zoneArgument": "tz"}`},
		{name: "period on an argument with no rule", aoa: `{"pool": {"assume": "gold"}}`, period: `{"argument": "window", "spelling": "lookback"}`,
			refusal: "tool t: period: window has no rule in askOrAssume; a period argument needs one (assume a default window or ask for one)", arg: "window"},
		{name: "period with no rules at all", period: `{"argument": "window", "spelling": "lookback"}`,
			refusal: "tool t: period: window has no rule in askOrAssume; a period argument needs one (assume a default window or ask for one)", arg: "window"},
		{name: "period on a missing property", aoa: ruled, period: `{"argument": "when", "spelling": "lookback"}`,
			refusal: "tool t: period: the schema has no property when", arg: "when"},
		{name: "unknown spelling", aoa: ruled, period: `{"argument": "window", "spelling": "duration"}`,
			refusal: `tool t: period.spelling: unknown spelling "duration" (want one of lookback, signed-lookback, iso-range, wall-range)`, arg: "window"},
		{name: "unknown spelling in accepts", aoa: ruled, period: `{"argument": "window", "accepts": ["lookback", "relative"]}`,
			refusal: `tool t: period.accepts[1]: unknown spelling "relative" (want one of lookback, signed-lookback, iso-range, wall-range)`, arg: "window"},
		{name: "no spelling", aoa: ruled, period: `{"argument": "window"}`,
			refusal: "tool t: period: names window but no spelling (want spelling: one of lookback, signed-lookback, iso-range, wall-range, or accepts)", arg: "window"},
		{name: "assume not spelled that way", aoa: `{"window": {"assume": "2 hours"}}`, period: `{"argument": "window", "spelling": "lookback"}`,
			refusal: `tool t: askOrAssume.window: assume "2 hours" is not written as the period reads window (lookback): not a lookback (30m, 24h, 7d, 2w)`, arg: "window"},
		{name: "choice not spelled that way", aoa: `{"window": {"ask": "How far back?", "choices": ["24h", "-7d"]}}`, period: `{"argument": "window", "spelling": "lookback"}`,
			refusal: `tool t: askOrAssume.window.choices[1]: choice "-7d" is not written as the period reads window (lookback): has a minus sign; a lookback has none (that is a signed-lookback)`, arg: "window"},
		{name: "choice fits a second accepted spelling", aoa: `{"window": {"ask": "How far back?", "choices": ["24h", "-7d"]}}`,
			period: `{"argument": "window", "accepts": ["lookback", "signed-lookback"]}`},
		{name: "iso assume on a day that does not exist", aoa: `{"window": {"assume": "2026-02-30T00:00:00Z..2026-03-01T00:00:00Z"}}`, period: `{"argument": "window", "spelling": "iso-range"}`,
			refusal: `tool t: askOrAssume.window: assume "2026-02-30T00:00:00Z..2026-03-01T00:00:00Z" is not written as the period reads window (iso-range): from: 2026-02-30 does not exist (February 2026 has 28 days)`, arg: "window"},
		{name: "bounds assume not epoch", aoa: `{"start_time": {"assume": 1.5}, "end_time": {"ask": "Until?"}}`,
			period:  `{"forms": [{"kind": "bounds", "from": {"argument": "start_time", "as": "epoch-ms"}, "to": {"argument": "end_time", "as": "epoch-ms"}}]}`,
			refusal: "tool t: askOrAssume.start_time: assume 1.5 does not fit property start_time: expected integer, got number", arg: "start_time"},
		{name: "too many forms", aoa: ruled, period: `{"forms": ` + nineForms + `}`,
			refusal: "tool t: period.forms: has 9 forms, over 8"},
		{name: "forms at the limit", aoa: ruled, period: `{"forms": ` + eightForms + `}`},
		{name: "no forms", aoa: ruled, period: `{"forms": []}`,
			refusal: "tool t: period.forms: is empty; a period takes at least one form"},
		{name: "both sugar and forms", aoa: ruled, period: `{"argument": "window", "spelling": "lookback", "forms": [{"kind": "day", "argument": "day"}]}`,
			refusal: "tool t: period: declares both the single-argument form (argument) and forms; use one"},
		{name: "neither sugar nor forms", aoa: ruled, period: `{"direction": "past"}`,
			refusal: "tool t: period: names no argument: declare argument and spelling, or forms"},
		{name: "unknown period key", aoa: ruled, period: `{"argument": "window", "spelling": "lookback", "timezone": "UTC"}`,
			refusal: `tool t: period: unknown key "timezone" (a period has argument + spelling or accepts, or forms, and the facts direction, retention, maxRange, granularity, filtersToAsked, wallZone)`},
		{name: "unknown kind", aoa: ruled, period: `{"forms": [{"kind": "range", "argument": "window"}]}`,
			refusal: `tool t: period.forms[0].kind: unknown kind "range" (want one of joined, bounds, object, day, lookback)`},
		{name: "unknown form key", aoa: ruled, period: `{"forms": [{"kind": "day", "argument": "day", "spelling": "lookback"}]}`,
			refusal: `tool t: period.forms[0]: unknown key "spelling" for a day form (it takes argument, zoneArgument)`},
		{name: "bounds same argument", aoa: ruled, period: `{"forms": [{"kind": "bounds", "from": {"argument": "start_time", "as": "epoch-ms"}, "to": {"argument": "start_time", "as": "epoch-ms"}}]}`,
			refusal: "tool t: period.forms[0]: names start_time for both ends; a bounds form takes two arguments", arg: "start_time"},
		{name: "bounds bad as", aoa: ruled, period: `{"forms": [{"kind": "bounds", "from": {"argument": "start_time", "as": "unix"}, "to": {"argument": "end_time", "as": "epoch-ms"}}]}`,
			refusal: `tool t: period.forms[0].from.as: is "unix", want one of epoch-ms, epoch-s, iso, wall, date`, arg: "start_time"},
		{name: "bounds edge on from", aoa: ruled, period: `{"forms": [{"kind": "bounds", "from": {"argument": "start_time", "as": "epoch-ms", "edge": "inclusive"}, "to": {"argument": "end_time", "as": "epoch-ms"}}]}`,
			refusal: `tool t: period.forms[0].from: unknown key "edge" (a from end takes argument, as)`},
		{name: "bounds bad edge", aoa: ruled, period: `{"forms": [{"kind": "bounds", "from": {"argument": "start_time", "as": "epoch-ms"}, "to": {"argument": "end_time", "as": "epoch-ms", "edge": "open"}}]}`,
			refusal: `tool t: period.forms[0].to.edge: is "open", want inclusive or exclusive`, arg: "end_time"},
		{name: "bounds with a rule on neither end", aoa: `{"window": {"assume": "24h"}}`,
			period:  `{"forms": [{"kind": "bounds", "from": {"argument": "start_time", "as": "epoch-ms"}, "to": {"argument": "end_time", "as": "epoch-ms", "edge": "exclusive"}}]}`,
			refusal: "tool t: period.forms[0]: start_time has no rule in askOrAssume; a period argument needs one (assume a default window or ask for one)", arg: "start_time"},
		{name: "object form needs no rule", aoa: ruled, period: `{"forms": [{"kind": "object", "argument": "range", "from": "start", "to": "end", "as": "iso"}]}`},
		{name: "lookback without a unit", aoa: ruled, period: `{"forms": [{"kind": "lookback", "argument": "hours"}]}`,
			refusal: `tool t: period.forms[0]: names no unit: declare unit (like "h") or unitArgument`, arg: "hours"},
		{name: "lookback with a bad unit", aoa: ruled, period: `{"forms": [{"kind": "lookback", "argument": "hours", "unit": "fortnight"}]}`,
			refusal: `tool t: period.forms[0].unit: "fortnight" is not a unit (s, m, h, d, w, or seconds, minutes, hours, days, weeks)`, arg: "hours"},
		{name: "lookback assume not positive", aoa: `{"hours": {"assume": -2}}`, period: `{"forms": [{"kind": "lookback", "argument": "hours", "unit": "h"}]}`,
			refusal: "tool t: askOrAssume.hours: assume -2 is not written as the period reads hours (count): not positive; a lookback counts back a positive number of units", arg: "hours"},
		{name: "lookback with unit argument", aoa: ruled, period: `{"forms": [{"kind": "lookback", "argument": "hours", "unitArgument": "span_unit"}]}`},
		{name: "zone argument not in schema", aoa: ruled, period: `{"argument": "window", "spelling": "wall-range", "zoneArgument": "zone"}`,
			refusal: "tool t: period: the schema has no property zone", arg: "zone"},
		{name: "zone is the window", aoa: ruled, period: `{"forms": [{"kind": "day", "argument": "day", "zoneArgument": "day"}]}`,
			refusal: "tool t: period.forms[0].zoneArgument: day carries both the window and its zone", arg: "day"},
		{name: "zone assume not a zone", aoa: `{"window": {"assume": "24h"}, "tz": {"assume": "Mars/Olympus"}}`,
			period:  `{"argument": "window", "spelling": "lookback", "zoneArgument": "tz"}`,
			refusal: `tool t: askOrAssume.tz: assume "Mars/Olympus" is not written as the period reads tz (zone): not an IANA zone name (like Europe/Paris or UTC)`, arg: "tz"},
		{name: "bad retention", aoa: ruled, period: `{"argument": "window", "spelling": "lookback", "retention": "30 days"}`,
			refusal: `tool t: period.retention: "30 days" is not a duration: not a duration (like 30d, 24h, 1m; units s, m, h, d, w)`},
		{name: "retention not a string", aoa: ruled, period: `{"argument": "window", "spelling": "lookback", "maxRange": 24}`,
			refusal: "tool t: period.maxRange: 24 is not a duration: want a duration like 30d, 24h, 1m"},
		{name: "bad direction", aoa: ruled, period: `{"argument": "window", "spelling": "lookback", "direction": "both"}`,
			refusal: `tool t: period.direction: is "both", want past or future`},
		{name: "bad wallZone", aoa: ruled, period: `{"argument": "window", "spelling": "wall-range", "wallZone": "Europe/Paris"}`,
			refusal: `tool t: period.wallZone: is "Europe/Paris", want "app" (or a zoneArgument on the form)`},
		{name: "bad filtersToAsked", aoa: ruled, period: `{"argument": "window", "spelling": "lookback", "filtersToAsked": "yes"}`,
			refusal: `tool t: period.filtersToAsked: is "yes", want true or false`},
		{name: "every fact", aoa: ruled, period: `{"argument": "window", "spelling": "lookback", "direction": "past", "retention": "30d", "maxRange": "7d", "granularity": "1m", "filtersToAsked": true, "wallZone": "app"}`},
		{name: "period not an object", aoa: ruled, period: `"window"`,
			refusal: "tool t: period: is a string, want an object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkJudge(t, c.aoa, c.period, "", c.refusal, c.arg)
		})
	}
}

func TestJudgeReadsRules(t *testing.T) {
	rules := checkJudge(t, `{"pool": {"assume": "gold"}, "region": {"ask": "Which region?", "choices": ["eu", {"value": "us", "said": ["america"]}]},
	  "start_time": {"ask": "From?"}, "end_time": {"ask": "Until?"}, "window": {"assume": "24h"}}`,
		`{"forms": [{"kind": "joined", "argument": "window", "spelling": "lookback"},
		  {"kind": "bounds", "from": {"argument": "start_time", "as": "epoch-ms"}, "to": {"argument": "end_time", "as": "epoch-ms", "edge": "exclusive"}, "zoneArgument": "tz"}],
		  "direction": "past", "retention": "30d"}`, "", "", "")
	if len(rules.Ruled) != 5 {
		t.Fatalf("got %d rules, want 5", len(rules.Ruled))
	}
	pool, region := rules.Rule("pool"), rules.Rule("region")
	if pool.Kind != Assume || pool.Assume.Text != "gold" || pool.Type != "string" || pool.Period {
		t.Errorf("pool read as %+v", pool)
	}
	if region.Kind != Ask || region.Question != "Which region?" || len(region.Choices) != 2 || region.Choices[1].Said[0] != "america" {
		t.Errorf("region read as %+v", region)
	}
	if !rules.Rule("window").Period || !rules.Rule("start_time").Period {
		t.Error("period arguments are not marked")
	}
	p := rules.Period
	if p.Sugar || len(p.Forms) != 2 || p.Facts.Direction != Past || p.Facts.Retention.Text != "30d" || p.Facts.Retention.Length.Hours() != 720 {
		t.Errorf("period read as %+v", p)
	}
	if got := p.Forms[1]; got.To.Edge != EdgeExclusive || got.From.As != AsEpochMS || got.ZoneArgument != "tz" {
		t.Errorf("bounds form read as %+v", got)
	}
}

func TestReadCatalogTool(t *testing.T) {
	cat, err := catalog.Parse("t.json", []byte(`[{"name": "get_volume_status", "inputSchema": {"type": "object", "properties": {"unit": {"type": "string", "enum": ["ms", "s"]}}},
	  "_meta": {"askOrAssume": {"unit": {"assume": "minutes"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	_, ref := Read(cat.Tools[0])
	want := `tool get_volume_status: askOrAssume.unit: assume "minutes" is not one of "ms", "s"`
	if ref == nil || ref.Error() != want {
		t.Fatalf("got %v, want %q", ref, want)
	}
	if ref.Pos.Line != 2 {
		t.Errorf("refusal points at line %d, want 2 (the assume value)", ref.Pos.Line)
	}
}
