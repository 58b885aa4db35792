package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/textutil"
)

// Rules for the problems reviewers reading real catalogs said a model
// trips on: a quantity with no unit, an object with no shape, an action
// that never names its system, a destructive tool that never says what it
// destroys, values nobody lists, and a schema that contradicts its own
// description. Each is opt-in until measured (docs/rules.md).

// The ids of the rules for what reviewers act on.
const (
	RuleQuantityUnit        = "quantity-unit-unstated"
	RuleShapelessParam      = "shapeless-param"
	RuleGenericAction       = "generic-action"
	RuleDestructiveUnstated = "destructive-unstated"
	RuleUnexplainedValues   = "values-unexplained"
	RuleSchemaContradicts   = "schema-contradicts-description"
)

// Quantity is what a parameter carrying a time or a period states of
// it, as QuantityOf finds it.
type Quantity struct {
	// Param is the parameter's name.
	Param string
	// Kind is "time" (an instant or a bound of a window) or "duration".
	Kind string
	// Type is the schema's declared type ("number", "string", "").
	Type string
	// Partner is the other bound of a window ("to" for "from"), "" for
	// none.
	Partner string
	// Said is what the description says of the value, an excerpt; "" for
	// no description.
	Said string
	// Unstated says no unit or format is stated: not in the name, the
	// schema (format, pattern) or the description.
	Unstated bool
	// Declaration is the period declaration that would make the value
	// parse, "" when none fits.
	Declaration string
}

// timeNames and the other name lists sort a parameter by its name's words.
var (
	timeNames     = []string{"time", "timestamp", "ts", "date", "datetime", "since", "until", "start", "end", "from", "to", "before", "after", "at", "expiry", "expires", "deadline"}
	durationNames = []string{"duration", "timeout", "interval", "period", "ttl", "delay", "age", "window", "lookback", "ago", "retention", "wait"}
	// unitWords state a unit or a format.
	unitWords = []string{"s", "ms", "sec", "secs", "second", "seconds", "millisecond", "milliseconds", "minute", "minutes", "min", "mins",
		"hour", "hours", "h", "day", "days", "week", "weeks", "month", "months", "year", "years", "epoch", "unix", "posix", "iso", "iso8601", "rfc", "rfc3339",
		"utc", "yyyy", "mm", "dd", "hh", "bytes", "byte", "kb", "mb", "gb", "tb", "kib", "mib", "gib", "mbps", "iops", "dtu", "vcore", "units", "count", "number", "percent", "percentage", "meters", "metres",
		"meter", "km", "kms", "kilometers", "miles", "usd", "eur", "cents", "dollars", "gmt", "timestamp", "z", "relative", "now", "ago", "format", "cron",
		"ns", "nanosecond", "nanoseconds", "us", "microsecond", "microseconds", "radians", "degrees", "kg", "kgs", "kilograms", "grams", "lbs", "pounds",
		"cm", "inches", "feet", "ft", "px", "pixels", "yyyymmdd", "iso-8601", "8601", "beats", "frames", "ticks",
		// The same units in the languages catalogs are written in.
		"segundo", "segundos", "minuto", "minutos", "hora", "horas", "dia", "dias", "días", "seconde", "secondes", "heure", "heures",
		"jour", "jours", "sekunde", "sekunden", "minute", "minuten", "stunde", "stunden", "tag", "tage", "secondi", "minuti", "ore", "giorni"}
	// cjkUnits state a unit or a format in Chinese, Japanese or Korean
	// text, where words are not split by spaces.
	cjkUnits = []string{"毫秒", "秒", "分钟", "分", "小时", "時間", "时", "天", "日", "周", "週", "月", "年", "时间戳", "時間戳", "格式", "字节", "バイト", "초", "분", "시간", "일", "년"}
	// notAQuantityText in a description says the value is something else
	// read as a time by its name: a hash, a flag, a setting's name.
	notAQuantityText = []string{"hash", "sha", "commit", "whether", "flag", "enable", "enabled", "disable", "boolean", "true", "false", "policy", "strategy", "version", "identifier", "condition"}
	// durationText in a description says a value is a length of time.
	durationText = []string{"time", "duration", "period", "interval", "long", "wait", "delay", "ttl", "expire", "expires", "expiry",
		"age", "lifetime", "window", "timeout", "how", "until", "before", "after", "elapsed", "retain", "retained", "kept"}
	// unitShown is a value written with its unit or format ("30s", "5m",
	// "2024-01-01").
	unitShown = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b|\b\d+\s?(?:ms|s|m|h|d|w)\b`)
	// notAQuantity in a name means the value is not a quantity at all:
	// a zone, a name, a format, a flag.
	notAQuantity = []string{"zone", "timezone", "tz", "name", "format", "type", "id", "ids", "key", "mode", "unit", "units", "field", "fields",
		"sort", "order", "by", "filter", "token", "cursor", "page", "url", "path", "text", "query", "status", "granularity", "offset", "index", "point", "address",
		"uid", "uuid", "char", "chars", "line", "lines", "version", "row", "column", "set", "access", "email", "node", "element",
		"lat", "lon", "lng", "latitude", "longitude", "x", "y", "z", "coordinate", "coordinates", "range", "supplier", "factory"}
	// notATime in a description says a "start" or a "from" is a place,
	// not a time.
	notATime = []string{"offset", "position", "index", "character", "version", "page", "row", "line", "email", "address", "element", "node", "id", "uid"}
)

// exampleGiven is an example or a default in a description ("e.g.
// daily", "like 2024-01-01", "default: 5m"), which states a format by
// showing it.
var exampleGiven = regexp.MustCompile(`(?i)\b(e\.g\.|eg\.|i\.e\.|for example|example|such as|format|default|one of|allowed|allows|possible values)|\blike\s+\S*\d|\w\s*\|\s*\w`)

// QuantityOf reads a parameter schema: the time or duration it carries,
// or ok false for none. q.Unstated says nothing states its unit
// or format. siblings are the tool's other parameter names, for a
// window's other bound.
func QuantityOf(key string, s *jsonv.Value, siblings []string) (q Quantity, ok bool) {
	typ := typeOf(s)
	if typ != "" && typ != "number" && typ != "integer" && typ != "string" {
		return q, false
	}
	if hasAny(s, "enum", "const") || nameHas(key, notAQuantity...) {
		return q, false
	}
	// A person's age is in years; a sibling holding the unit states it.
	if nameHas(key, "age") && !nameHas(key, "max", "min", "cache") || slices.ContainsFunc(siblings, func(n string) bool { return n != key && nameHas(n, "unit", "units") }) {
		return q, false
	}
	kind := ""
	switch {
	case nameHas(key, durationNames...):
		kind = "duration"
	case nameHas(key, timeNames...):
		kind = "time"
	}
	if kind == "" {
		return q, false
	}
	desc := descOf(s)
	if textHasWord(desc, notAQuantityText...) || typ == "" && desc == "" {
		return q, false
	}
	// A string whose name reads as a duration (retention, window) is one
	// only if its description talks of time: "keep-all or keep-last" is a
	// setting.
	if kind == "duration" && typ == "string" && desc != "" && !textHasWord(desc, durationText...) {
		return q, false
	}
	q = Quantity{Param: key, Kind: kind, Type: typ, Said: cut(desc, 120)}
	if kind == "time" {
		// "from" and "to" are times only beside their other bound, or when
		// the description says so.
		q.Partner = partnerOf(key, siblings)
		if textHasWord(desc, notATime...) {
			return q, false
		}
		saysTime := textHasWord(desc, "time", "date", "when", "timestamp", "datetime", "epoch", "unix") || nameHas(key, "time", "date", "timestamp", "ts", "datetime")
		numeric := typ == "number" || typ == "integer"
		if nameHas(key, "from", "to", "at", "before", "after", "start", "end") && !saysTime && !(numeric && q.Partner != "" && desc == "") {
			return q, false
		}
	}
	// A unit in the name says it (timeout_ms, size_gb, days), as do a
	// format, a pattern, a unit word or an example in the description.
	unitNamed := slices.ContainsFunc(wordsOf(key), func(w string) bool { return slices.Contains(unitWords, w) && len(w) > 1 })
	q.Unstated = !unitNamed && !hasAny(s, "format", "pattern", "default", "examples", "example", "example_value") &&
		!textHasWord(desc, unitWords...) && !exampleGiven.MatchString(desc) && !unitShown.MatchString(desc) && !unitInScript(desc)
	q.Declaration = declarationFor(q, desc)
	return q, true
}

// unitInScript reports whether a description in a script without spaces
// between words (Chinese, Japanese, Korean) or in one toolscope does
// not read (any letter outside Latin) states a unit or cannot be read:
// either way, what it says is not for a word list to judge.
func unitInScript(desc string) bool {
	for _, r := range desc {
		if r > unicode.MaxLatin1 && unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			return true
		}
	}
	return slices.ContainsFunc(cjkUnits, func(u string) bool { return strings.Contains(desc, u) })
}

// resolveRef is the definition a parameter's local $ref
// ("#/$defs/Duration", "#/definitions/Duration") points at in the tool's
// schema, merged under the parameter's own keys; s itself when it has no
// such $ref.
func resolveRef(root, s *jsonv.Value) *jsonv.Value {
	ref, ok := s.Get("$ref").Str()
	if !ok || !strings.HasPrefix(ref, "#/") {
		return s
	}
	target := root
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		target = target.Get(part)
	}
	if !target.Is(jsonv.Object) {
		return s
	}
	merged := &jsonv.Value{Kind: jsonv.Object, Pos: s.Pos}
	for _, m := range s.Members {
		if m.Key != "$ref" {
			merged.Members = append(merged.Members, m)
		}
	}
	for _, m := range target.Members {
		if !merged.Has(m.Key) {
			merged.Members = append(merged.Members, m)
		}
	}
	return merged
}

// boundPairs are the names a window's two ends go by.
var boundPairs = [][2]string{{"from", "to"}, {"start", "end"}, {"since", "until"}, {"after", "before"}, {"begin", "end"}, {"start", "stop"}}

// partnerOf finds the other bound of a window among siblings.
func partnerOf(key string, siblings []string) string {
	low := strings.ToLower(key)
	for _, bp := range boundPairs {
		for side := range 2 {
			a, b := bp[side], bp[1-side]
			if !nameHas(key, a) {
				continue
			}
			i := strings.Index(low, a)
			want := low[:i] + b + low[i+len(a):]
			for _, s := range siblings {
				if strings.ToLower(s) == want {
					return s
				}
			}
		}
	}
	return ""
}

// declarationFor is the period declaration that would make q's value
// parse (docs/declarations.md#period): bounds for a window's two ends,
// a lookback for a window's length, a day for a date. How an end is
// written comes from the description when it says (milliseconds, epoch
// seconds, ISO 8601, a date); otherwise it is a guess from the type
// (epoch seconds for a number, ISO 8601 for a string) for the author to
// confirm.
func declarationFor(q Quantity, desc string) string {
	as := "iso"
	numeric := q.Type == "number" || q.Type == "integer"
	switch {
	case textHasWord(desc, "ms", "millisecond", "milliseconds"):
		as = "epoch-ms"
	case numeric || textHasWord(desc, "epoch", "unix", "posix", "seconds"):
		as = "epoch-s"
	case textHasWord(desc, "yyyy") && !textHasWord(desc, "hh", "time", "t") || nameHas(q.Param, "date") && !textHasWord(desc, "time"):
		as = "date"
	}
	switch {
	case q.Kind == "time" && q.Partner != "":
		from, to := q.Param, q.Partner
		if isUpperBound(q.Param) {
			from, to = q.Partner, q.Param
		}
		return fmt.Sprintf(`"period": {"forms": [{"kind": "bounds", "from": {"argument": %s, "as": %q}, "to": {"argument": %s, "as": %q}}]}`,
			jsonv.Quote(from), as, jsonv.Quote(to), as)
	case q.Kind == "time" && as == "date":
		return fmt.Sprintf(`"period": {"forms": [{"kind": "day", "argument": %s}]}`, jsonv.Quote(q.Param))
	case q.Kind == "duration" && numeric && nameHas(q.Param, "lookback", "window", "ago", "period", "last"):
		return fmt.Sprintf(`"period": {"forms": [{"kind": "lookback", "argument": %s, "unit": "s"}]}`, jsonv.Quote(q.Param))
	}
	return ""
}

// isUpperBound reports whether a bound's name is the window's end.
func isUpperBound(key string) bool { return nameHas(key, "to", "end", "until", "before", "stop") }

// QuantityUnitRule flags a parameter carrying a time or a duration whose
// unit or format nothing states: no format, pattern, enum, default or
// example in the schema, no unit in its name, no unit word or example in
// its description. For a time or a period it suggests the period
// declaration that would make the value parse.
func QuantityUnitRule() Rule {
	return Rule{
		ID:       RuleQuantityUnit,
		Severity: SeverityWarn,
		Summary:  "a time or a duration with no unit or format stated",
		Teaching: Teaching{
			Why:    "A number called start could be epoch seconds, epoch milliseconds or minutes from now; a string called since could be ISO 8601, a date, or \"1h ago\". The model guesses, and a wrong guess is a valid call that asks for the wrong window: Datadog's schedule_downtime takes start and end with nothing said of either.",
			Fix:    "State the unit or the format: a JSON Schema format (\"date-time\"), the unit in the description (\"POSIX seconds\"), or an example. For a window, declare its period so toolscope can check and show what a call asks for.",
			Before: `"start": {"type": "number"}, "end": {"type": "number"}`,
			After:  `"start": {"type": "number", "description": "Start of the downtime, POSIX seconds (e.g. 1767225600)."}, "end": {"type": "number", "description": "End, POSIX seconds; omit for an open-ended downtime."}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			props := properties(t.Schema)
			names := make([]string, len(props))
			for i, p := range props {
				names[i] = p.Key
			}
			var out []Finding
			for _, p := range props {
				q, ok := QuantityOf(p.Key, resolveRef(t.Schema, p.Value), names)
				if !ok || !q.Unstated || mentions(t.Description, p.Key) || declared(t, p.Key) {
					continue
				}
				what, say := "a time", `"POSIX seconds", "ISO 8601 with a zone"`
				if q.Kind == "duration" {
					what, say = "a duration", `"in seconds", "in milliseconds", "like 5m"`
				}
				// No fix: the unit is what the text leaves out, and a period
				// declaration would have to guess it.
				msg := fmt.Sprintf("parameter '%s' carries %s but never states its unit or format: which is it? Say it (%s)", p.Key, what, say)
				if q.Declaration != "" {
					msg += ", then declare its period (docs/declarations.md#period) so toolscope reads the window a call asks for"
				}
				out = append(out, Finding{Severity: SeverityWarn, Param: p.Key, Message: msg})
			}
			return out
		},
	}
}

// shapeWords in a description say what an object or list holds.
var shapeWords = []string{"key", "keys", "field", "fields", "property", "properties", "containing", "contains", "with", "of", "each", "map", "mapping", "pairs", "json", "list", "array", "ids", "names", "strings", "objects"}

// shapeless reports whether a parameter schema is an object or an array
// (or untyped with no other keys) whose contents nothing states.
func shapeless(s *jsonv.Value) bool {
	if statesShape(s) {
		return false
	}
	switch typeOf(s) {
	case "object", "array":
	case "":
		if s.Has("type") || len(s.Members) > 1 || len(s.Members) == 1 && !s.Has("description") {
			return false
		}
	default:
		return false
	}
	d := descOf(s)
	if hasAny(s, "default", "examples", "example") || exampleGiven.MatchString(d) {
		return false
	}
	if textHasWord(d, "json") && textHasWord(d, "schema") {
		return false // a JSON Schema: its form is a standard's
	}
	return len(wordsOf(d)) < 5 || !textHasWord(d, shapeWords...) && !textHasWord(d, languageWords...) && !strings.ContainsAny(d, "{[:")
}

// languageWords in a description say the value is written in a known
// language whose shape a model knows: a query DSL, a filter's syntax,
// update operator expressions.
var languageWords = []string{"syntax", "dsl", "expression", "expressions", "operator", "operators"}

// namesFields reports whether a description says which fields an object
// takes: an example or a list ({, :), the words key, field, property or
// JSON, or a language the object is written in ("matching the syntax of
// the filter argument of db.collection.updateOne()", "update operator
// expressions"); "Properties of the page" or "data with the values" do
// not.
func namesFields(d string) bool {
	return strings.ContainsAny(d, "{[:`") || strings.Contains(d, "->") ||
		textHasWord(d, "key", "keys", "field", "fields", "property", "properties", "json", "schema", "format",
			"pairs", "map", "mapping", "column", "columns") || textHasWord(d, languageWords...)
}

// shapelessWrite reports whether an object parameter of a tool that
// writes has no stated fields: what it holds is what gets written, so a
// vague description ("Page properties") does not do.
func shapelessWrite(toolName string, s *jsonv.Value) bool {
	if typeOf(s) != "object" || !nameHas(toolName, writeVerbs...) && !nameHas(toolName, updateVerbs...) {
		return false
	}
	if statesShape(s) || hasAny(s, "default", "examples", "example") {
		return false
	}
	return !namesFields(descOf(s))
}

// statesShape reports whether a schema says what its value holds: its
// properties, its items, a $ref or a combination, an enum or a const.
// Keys that say nothing do not count: "properties": {},
// "additionalProperties": true (what any object allows), and items that
// are themselves bare objects ("items": {"type": "object"}: rows of
// what?).
func statesShape(s *jsonv.Value) bool {
	if hasAny(s, "patternProperties", "prefixItems", "$ref", "oneOf", "anyOf", "allOf", "enum", "const") {
		return true
	}
	if p := s.Get("properties"); p != nil && !(p.Is(jsonv.Object) && len(p.Members) == 0) {
		return true
	}
	if a := s.Get("additionalProperties"); a != nil && !a.Is(jsonv.Bool) && !(a.Is(jsonv.Object) && len(a.Members) == 0) || a.Is(jsonv.Bool) && !a.Bool {
		return true
	}
	if it := s.Get("items"); it != nil {
		bare := it.Is(jsonv.Bool) && it.Bool || it.Is(jsonv.Object) && (typeOf(it) == "" || typeOf(it) == "object") && descOf(it) == "" && !statesShape(it)
		if !bare {
			return true
		}
	}
	return false
}

// firstShapeless is the first parameter of t with no stated shape.
func firstShapeless(t *catalog.Tool) (string, bool) {
	for _, p := range properties(t.Schema) {
		if shapeless(p.Value) && !mentionsFold(t.Description, p.Key) {
			return p.Key, true
		}
	}
	return "", false
}

// mentionsFold is mentions in any case, or an example call that gives
// the parameter an object or a list: a description that shows the shape
// as "Body: { values: [[...]] }" or data={"name": "John"} documents it.
func mentionsFold(text, key string) bool {
	return mentions(text, key) || mentions(strings.ToLower(text), strings.ToLower(key)) || strings.Contains(text, key+"={") || strings.Contains(text, key+"=[")
}

// ShapelessParamRule flags an object or array parameter whose contents
// are nowhere stated: no properties or items in the schema, and neither
// its description nor the tool's says what goes in it.
func ShapelessParamRule() Rule {
	return Rule{
		ID:       RuleShapelessParam,
		Severity: SeverityWarn,
		Summary:  "an object or array parameter whose contents are nowhere stated",
		Teaching: Teaching{
			Why:    "An object with no properties and a description like \"Request body\" leaves the model to invent field names; it will send something plausible that the server rejects or, worse, half-applies. Reviewers found this on a spreadsheet sort whose body was untyped and on a workflow update whose content was a bare object.",
			Fix:    "Declare the properties (or items), or at least describe them with an example: the keys, their types, which are required.",
			Before: `"content": {"type": "object", "description": "Workflow content"}`,
			After:  `"content": {"type": "object", "description": "The workflow's script and bindings.", "properties": {"script": {"type": "string"}, "bindings": {"type": "array", "items": {"type": "string"}}}, "required": ["script"]}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			for _, p := range properties(t.Schema) {
				if !shapeless(p.Value) && !shapelessWrite(t.Name, p.Value) || mentionsFold(t.Description, p.Key) || freeFormMap(p.Key, p.Value) || passedThrough(t, p.Key, p.Value) {
					continue
				}
				kind := typeOf(p.Value)
				if kind == "" {
					kind = "untyped value"
				}
				out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
					Message: fmt.Sprintf("parameter '%s' is an %s whose contents are nowhere stated: declare its properties or items, or describe them with an example", p.Key, kindArticle(kind))})
			}
			return out
		},
	}
}

// passedThrough reports whether a described object parameter is handed
// on to something whose shape the tool does not own, so its author cannot
// state it: a query or a script in the store's own language, an event's
// payload, the body or parameters of a raw API call (a tool that also
// takes a method and a path, or a service and an action), or data the
// text says is passed to a workflow or merged into state.
func passedThrough(t *catalog.Tool, key string, s *jsonv.Value) bool {
	d := descOf(s)
	if typeOf(s) != "object" || d == "" {
		return false
	}
	if w := wordsOf(key); len(w) > 0 && slices.Contains([]string{"query", "script", "payload"}, w[len(w)-1]) {
		return true
	}
	props := t.Schema.Get("properties")
	has := func(name string) bool { return props.Is(jsonv.Object) && props.Has(name) }
	if has("method") && (has("path") || has("endpoint") || has("url")) || has("service") && has("action") {
		return true
	}
	return textHasWord(d, "pass", "passed", "forward", "forwarded", "merge", "merged")
}

// mapNames name an object that by convention holds the caller's own
// keys and values (Stripe's metadata, Kubernetes' labels): any keys are
// right, so there is no shape to state.
var mapNames = []string{"metadata", "meta", "labels", "annotations"}

// freeFormMap reports whether an object parameter is such a map: named
// metadata, labels or annotations, with no description and extra keys
// not forbidden ("Metadata specific to the engagement type" has fields
// the text must name), or a request's headers, described or not.
func freeFormMap(key string, s *jsonv.Value) bool {
	w := wordsOf(key)
	if typeOf(s) == "object" && len(w) > 0 && w[len(w)-1] == "headers" {
		return true // HTTP headers: names to values, a form every model knows
	}
	if typeOf(s) != "object" || descOf(s) != "" || len(w) == 0 || !slices.Contains(mapNames, w[len(w)-1]) {
		return false
	}
	a := s.Get("additionalProperties")
	return !(a.Is(jsonv.Bool) && !a.Bool)
}

func kindArticle(kind string) string {
	if kind == "array" {
		return "array (a list)"
	}
	return kind
}

// genericActions are actions that need a system to mean anything.
var genericActions = regexp.MustCompile(`(?i)^\s*(run|execute|perform|make|send|call|invoke)\s+(a|an|the|one|any)?\s*(read-only\s+|raw\s+|custom\s+|arbitrary\s+|generic\s+)*(sql\s+)?(query|queries|statement|request|command|script|operation|call)\b`)

// genericWords say nothing of a generic action's system.
var genericWords = []string{"run", "execute", "perform", "send", "call", "invoke", "only", "raw", "custom", "arbitrary", "generic",
	"sql", "query", "queries", "statement", "request", "command", "script", "operation", "result", "results", "returns", "given", "against"}

// genericAction reports whether a description is a generic action that
// names no system, dialect or scope, in its words or in the tool's name:
// "Run a read-only SQL query" is, "Execute SQL queries on DuckDB" is not.
func genericAction(d, name string) bool {
	if !genericActions.MatchString(d) {
		return false
	}
	for _, w := range toldWords(d, name) {
		if !slices.Contains(genericWords, w) {
			return false
		}
	}
	return true
}

// GenericActionRule flags a tool whose description is a generic action
// ("Run a read-only SQL query", "Execute a request") that never names the
// system, dialect or scope it acts on, neither in the description nor in
// the name.
func GenericActionRule() Rule {
	return Rule{
		ID:       RuleGenericAction,
		Severity: SeverityWarn,
		Summary:  "a generic action that never names its system, dialect or scope",
		Teaching: Teaching{
			Why:    "\"Run a read-only SQL query\" is true of every database tool a model has ever seen. Without the system and its dialect the model writes SQL for the wrong engine, and among several servers it cannot tell which one this tool reaches.",
			Fix:    "Name the system, the dialect and the scope: which database, which connection, which schema, and what comes back.",
			Before: `{"name": "query", "description": "Run a read-only SQL query"}`,
			After:  `{"name": "query", "description": "Run a read-only SQL query (PostgreSQL 16 dialect) against the connected database; returns the rows as JSON. Use list_tables first to see the schema."}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			d, _ := ownText(t.Description)
			if !genericAction(d, t.Name) {
				return nil
			}
			return []Finding{{Severity: SeverityWarn,
				Message: fmt.Sprintf("the description (%s) is a generic action that never names its system: say which system, dialect and scope it acts on", excerpt(d, 60))}}
		},
	}
}

// namesTarget reports whether a schema has, at any depth, a parameter
// naming what to act on: an id, a name, a key, a path.
func namesTarget(s *jsonv.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	for _, p := range properties(s) {
		if nameHas(p.Key, "id", "ids", "name", "names", "key", "keys", "uid", "uuid", "slug", "path", "url") || namesTarget(p.Value, depth+1) {
			return true
		}
	}
	return false
}

// reversibility words say whether a destructive action can be undone.
var reversibility = []string{"permanent", "permanently", "irreversible", "irreversibly", "undone", "undo", "recoverable", "restore", "restorable",
	"trash", "recycle", "soft", "archive", "archives", "cannot", "can't", "forever", "recover"}

// DestructiveUnstatedRule flags a destructive tool (delete, drop, reset,
// purge, …) which takes no argument naming what it destroys and whose
// description says neither its target nor whether it can be undone.
// Annotations that contradict the name are AnnotationsContradictRule's.
func DestructiveUnstatedRule() Rule {
	return Rule{
		ID:       RuleDestructiveUnstated,
		Severity: SeverityWarn,
		Tier:     TierOptIn,
		Summary:  "a destructive tool that never says what it destroys or whether it can be undone",
		Teaching: Teaching{
			Why:    "A model calls a reset as readily as a read when nothing says what it wipes. \"Reset branch\" with an optional migration version does not say whether it resets to the last migration or to nothing; a delete annotated readOnlyHint: true is approved by hosts that auto-approve reads.",
			Fix:    "Say exactly what is destroyed, what is kept, and whether it can be undone; make the annotations agree (destructiveHint: true, readOnlyHint: false).",
			Before: `{"name": "reset_branch", "description": "Resets migrations of a development branch.", "annotations": {"readOnlyHint": true}}`,
			After:  `{"name": "reset_branch", "description": "Resets a development branch to a migration version, discarding every migration and the data written after it. Cannot be undone.", "annotations": {"destructiveHint": true}}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			if !destructiveName(t.Name) {
				return nil
			}
			if len(requiredNames(t.Schema)) > 0 || len(properties(t.Schema)) == 0 || namesTarget(t.Schema, 0) {
				return nil
			}
			d := t.Description
			if textHasWord(d, reversibility...) {
				return nil
			}
			return []Finding{{Severity: SeverityWarn,
				Message: "the tool destroys but takes no required argument naming what, and its description says neither its target nor whether it can be undone: say what is affected when the optional arguments are left out"}}
		},
	}
}

// UnexplainedValuesRule flags a required string parameter with no
// description, no enum, no format and no pattern whose name says it picks
// from a closed set (a type, a level, a kind) or names an id, token or key
// of an unstated kind.
func UnexplainedValuesRule() Rule {
	return Rule{
		ID:       RuleUnexplainedValues,
		Severity: SeverityWarn,
		Summary:  "a parameter whose accepted values are neither listed nor described",
		Teaching: Teaching{
			Why:    "A required formToken with no description could be a form's id, its URL token or a board id; a level with no enum could be any word. The model invents a plausible value and the call fails, or succeeds on the wrong thing.",
			Fix:    "List a closed set as an enum; for an id or a token, say which kind and where it comes from (\"the form's token from its share URL, e.g. abc123\").",
			Before: `"formToken": {"type": "string"}`,
			After:  `"formToken": {"type": "string", "description": "The form's token: the last part of its share URL (https://forms.monday.com/forms/<token>). Get it from get_form."}`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			var out []Finding
			required := requiredNames(t.Schema)
			common := c.commonParams()
			for _, p := range properties(t.Schema) {
				s := p.Value
				if common[p.Key] || !slices.Contains(required, p.Key) || typeOf(s) != "string" || hasAny(s, "enum", "const", "format", "pattern", "examples", "example", "example_value", "default") {
					continue
				}
				desc := descOf(s)
				closed, opaque := closedName(p.Key), nameHas(p.Key, "token", "handle")
				if !closed && !opaque {
					continue
				}
				// A description that says anything beyond the names explains.
				if desc != "" && (opaque || !restates(desc, p.Key, t.Name)) {
					continue
				}
				// A listing in the tool's description ("Requires title,
				// severity, and room prefix") leaves a level, a role or a
				// severity as open as before; a type, a kind or a category
				// named there is often free text the tool takes as given.
				if nameHas(p.Key, strictlyClosedNames...) && explainsIn(t, p.Key) || !nameHas(p.Key, strictlyClosedNames...) && mentionedIn(t, p.Key) {
					continue
				}
				what := "its accepted values are neither listed nor described: declare an enum or describe them"
				if opaque {
					what = "its kind is not said: say which token or key it is and where the model gets it"
				}
				out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
					Message: fmt.Sprintf("parameter '%s': %s", p.Key, what)})
			}
			return out
		},
	}
}

// strictlyClosedNames pick from a set the server defines: no word
// outside it is a severity or a role.
var strictlyClosedNames = []string{"level", "severity", "priority", "access", "role", "scope", "visibility", "permission"}

// mentionedIn reports whether the tool's description names the
// parameter key at all.
func mentionedIn(t *catalog.Tool, key string) bool {
	return mentions(t.Description, key) || strings.Contains(strings.ToLower(t.Description), strings.Join(wordsOf(key), " "))
}

// explainsIn reports whether the tool's description speaks of the
// parameter key beyond listing it: a sentence naming it that is not just
// a roll of parameter names ("Requires title, severity, and room
// prefix" says severity is needed, not which severities exist).
func explainsIn(t *catalog.Tool, key string) bool {
	if !mentionedIn(t, key) {
		return false
	}
	phrase := strings.Join(wordsOf(key), " ")
	var others []string
	for _, p := range properties(t.Schema) {
		if p.Key != key {
			others = append(others, strings.Join(wordsOf(p.Key), " "))
		}
	}
	for _, sentence := range strings.FieldsFunc(t.Description, func(r rune) bool { return r == '.' || r == '\n' || r == ';' }) {
		low := strings.ToLower(sentence)
		if !strings.Contains(low, phrase) && !strings.Contains(sentence, key) {
			continue
		}
		named := 0
		for _, o := range others {
			if o != "" && strings.Contains(low, o) {
				named++
			}
		}
		if named < 2 || len(wordsOf(sentence)) > 4*(named+1)+2 {
			return true // the sentence says something of it
		}
	}
	return false
}

// closedValueNames in a parameter's name say it picks from a closed set.
var closedValueNames = []string{"type", "kind", "level", "severity", "priority", "access", "role", "scope", "category", "visibility", "permission"}

// valuesUnexplained reports whether UnexplainedValuesRule speaks for an
// undescribed required parameter: a string naming a closed set or an
// opaque token, with nothing in the schema listing or showing it.
func valuesUnexplained(key string, s *jsonv.Value, tool string) bool {
	desc := descOf(s)
	if desc != "" && (nameHas(key, "token", "handle") || !restates(desc, key, tool)) {
		return false
	}
	if typeOf(s) != "string" || hasAny(s, "enum", "const", "format", "pattern", "examples", "example", "example_value", "default") {
		return false
	}
	return closedName(key) || nameHas(key, "token", "handle")
}

// closedName reports whether a parameter's name says it picks from a
// closed set. The last word says what the value is: permissionId is an
// id, permissionLevel a level.
func closedName(key string) bool {
	w := wordsOf(key)
	return len(w) > 0 && slices.Contains(closedValueNames, w[len(w)-1])
}

// passWords in a description ask the model to pass keys of an object.
var passKeys = regexp.MustCompile(`(?i)\b(pass|provide|supply|include|with|set|specify)\b[^.]{0,40}\b(keys?|fields?|properties|variables|values|pairs)\b`)

// SchemaContradictsRule flags a schema that forbids what its description
// asks for: an object parameter that allows no keys (no properties and
// additionalProperties false) though its description asks for keys, or a
// parameter described as a list whose schema wants an object or a string.
func SchemaContradictsRule() Rule {
	return Rule{
		ID:       RuleSchemaContradicts,
		Severity: SeverityWarn,
		Summary:  "a schema that forbids what its own description asks for",
		Teaching: Teaching{
			Why:    "When the description and the schema disagree, a model follows one and a validator the other: a variables object the description says to fill, but whose schema allows no keys, makes every call that follows the description invalid.",
			Fix:    "Make the schema say what the description says: declare the keys (or additionalProperties with their type), or the array the description promises.",
			Before: `"variables": {"type": "object", "additionalProperties": false, "description": "Values for the %placeholders% in the action, e.g. {\"email\": \"a@b.c\"}"}`,
			After:  `"variables": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Values for the %placeholders% in the action, e.g. {\"email\": \"a@b.c\"}"}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			for _, p := range properties(t.Schema) {
				s := p.Value
				desc := descOf(s)
				if desc == "" {
					continue
				}
				if typeOf(s) == "object" && noKeysAllowed(s) && (passKeys.MatchString(desc) || strings.Contains(desc, "{")) {
					out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
						Message: fmt.Sprintf("parameter '%s' allows no keys (no properties, additionalProperties false), but its description asks for some (%s): declare them", p.Key, excerpt(desc, 60))})
					continue
				}
				if t := typeOf(s); (t == "object" || t == "string") && describesList(desc) {
					out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
						Message: fmt.Sprintf("parameter '%s' is described as a list (%s) but its schema wants %s: make it an array or say how the list is written", p.Key, excerpt(desc, 60), withArticle(t))})
				}
			}
			return out
		},
	}
}

func withArticle(t string) string {
	if t == "object" {
		return "an object"
	}
	return "a " + t
}

// noKeysAllowed reports whether an object schema admits only {}.
func noKeysAllowed(s *jsonv.Value) bool {
	ap := s.Get("additionalProperties")
	if ap == nil || ap.Kind != jsonv.Bool || ap.Bool {
		return false
	}
	props := s.Get("properties")
	return !hasAny(s, "patternProperties", "$ref", "oneOf", "anyOf", "allOf") && (props == nil || props.Is(jsonv.Object) && len(props.Members) == 0)
}

// listOpening is a description that starts by saying its value is a list.
var listOpening = regexp.MustCompile(`(?i)^(an? )?(array|list) of\b`)

// describesList reports whether a description opens by calling its value
// an array or a list ("Array of user ids"), and does not say how it is
// written in one string (comma-separated, JSON).
func describesList(desc string) bool {
	d := textutil.JSTrim(desc)
	if !listOpening.MatchString(d) {
		return false
	}
	low := strings.ToLower(d)
	return !strings.Contains(low, "comma") && !strings.Contains(low, "separated") && !strings.Contains(low, "json") && !strings.Contains(low, "string")
}

// RuleAnnotationsContradict is the id of AnnotationsContradictRule.
const RuleAnnotationsContradict = "annotations-contradict-name"

// readVerbs name a tool that only reads; writeVerbs one that changes
// something.
var (
	readVerbs  = []string{"get", "list", "search", "retrieve", "query", "read", "fetch", "describe", "find", "show", "lookup", "view", "count"}
	writeVerbs = []string{"update", "create", "set", "patch", "put", "add", "move", "send", "run", "execute", "write", "upload", "insert", "edit", "submit", "trigger", "start", "stop", "cancel", "archive"}
)

// hasVerb reports whether text uses one of verbs in any of its plain
// forms (create, creates, created, creating): a description that says
// the tool writes agrees with a destructive hint whatever its title says.
func hasVerb(text string, verbs []string) bool {
	for _, w := range wordsOf(text) {
		for _, v := range verbs {
			if verbForm(w, v) {
				return true
			}
		}
	}
	return false
}

// verbForm reports whether w is verb v, or v with -s, -es, -d, -ed or
// -ing, or v's final e dropped before -ing (w == v+"s" || ..., with
// nothing built).
func verbForm(w, v string) bool {
	if rest, ok := strings.CutPrefix(w, v); ok {
		switch rest {
		case "", "s", "es", "d", "ed", "ing":
			return true
		}
		return false
	}
	stem, ok := strings.CutSuffix(v, "e")
	return ok && len(w) == len(stem)+3 && strings.HasPrefix(w, stem) && strings.HasSuffix(w, "ing")
}

// leadWords are the first three words of a description: its verb, which
// says what the tool does ("Creates a starter project", not "Get
// guidance for modifying ...").
func leadWords(d string) string {
	// Three words fit in the first 60 bytes of any description worth
	// reading this way; splitting the rest is the cost.
	if len(d) > 60 {
		d = d[:60]
	}
	w := wordsOf(d)
	return strings.Join(w[:min(3, len(w))], " ")
}

// AnnotationsContradictRule flags MCP annotations that say the opposite
// of what the tool's title (its own or the annotations', else its name)
// says it does: a
// tool that only reads (search, get, list, query, find) annotated
// destructiveHint: true, or one that destroys (delete, drop, purge, reset)
// annotated readOnlyHint: true.
func AnnotationsContradictRule() Rule {
	return Rule{
		ID:       RuleAnnotationsContradict,
		Severity: SeverityWarn,
		Summary:  "annotations that say the opposite of what the tool's name says it does",
		Teaching: Teaching{
			Why:    "Hosts act on annotations: they ask before a destructive call and may run read-only ones unasked, and a model reads them as a warning. A title search annotated destructiveHint: true gets a confirmation prompt or is avoided; a delete annotated readOnlyHint: true is run without one.",
			Fix:    "Make the annotations say what the tool does: readOnlyHint true and destructiveHint false for a read, destructiveHint true for what deletes or overwrites.",
			Before: `{"name": "API-post-search", "title": "Search by title", "annotations": {"destructiveHint": true}}`,
			After:  `{"name": "API-post-search", "title": "Search by title", "annotations": {"readOnlyHint": true, "destructiveHint": false}}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			ann := t.Raw.Get("annotations")
			if ann == nil {
				return nil
			}
			says := t.Title
			if says == "" {
				says, _ = ann.Get("title").Str()
			}
			if says == "" {
				says = t.Name
			}
			hint := func(k string) bool { v := ann.Get(k); return v != nil && v.Kind == jsonv.Bool && v.Bool }
			switch {
			case hint("destructiveHint") && !hint("readOnlyHint") && nameHas(says, readVerbs...) && !nameHas(says, writeVerbs...) && !nameHas(says, destructiveVerbs...) &&
				!hasVerb(leadWords(t.Description), writeVerbs) && !hasVerb(leadWords(t.Description), destructiveVerbs):
				return []Finding{{Severity: SeverityWarn,
					Message: fmt.Sprintf("%s reads, but the annotations say destructiveHint: true: hosts ask before every call and models avoid it; set readOnlyHint true and destructiveHint false", jsonv.Quote(says))}}
			case hint("readOnlyHint") && nameHas(says, destructiveVerbs...):
				return []Finding{{Severity: SeverityWarn,
					Message: fmt.Sprintf("%s destroys, but the annotations say readOnlyHint: true: hosts may run it without asking; set readOnlyHint false and destructiveHint true", jsonv.Quote(says))}}
			}
			return nil
		},
	}
}

// TimeArgument reads the top-level parameter param of a tool's input
// schema as QuantityOf does, for a value that failed: ok only when it
// carries a time or a duration. The explorer uses it to say what the
// description says of the format and which period declaration would let
// toolscope read the window.
func TimeArgument(schema *jsonv.Value, param string) (Quantity, bool) {
	props := properties(schema)
	var names []string
	var s *jsonv.Value
	for _, p := range props {
		names = append(names, p.Key)
		if p.Key == param {
			s = p.Value
		}
	}
	if s == nil {
		return Quantity{}, false
	}
	return QuantityOf(param, s, names)
}
