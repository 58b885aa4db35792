package lint

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/textutil"
)

// The recommended checks of the seed's four heuristic rules. Each keeps
// its rule's id and meaning, and reports only where reviewers rating real
// findings agreed the author's time is well spent (docs/rules.md).

// ToldDescriptionRule is description-missing-or-short judged by what the
// text tells: no description is an error; one under minChars warns only
// when it tells nothing beyond the tool's name, when it is a generic
// action ("Run a read-only SQL query"), or when it is that short for a tool whose input needs
// explaining (six or more parameters of its own, or an object with no
// stated shape).
func ToldDescriptionRule(minChars int) Rule {
	return Rule{
		ID:       RuleDescription,
		Severity: SeverityError,
		Summary:  "no description, or one that tells nothing beyond the tool's name",
		Teaching: Teaching{
			Why:    "The description is most of what a model reads when it picks a tool and fills its arguments. \"Delete a file share\" is short and enough; \"Sort an Excel range.\" on a tool that takes a free-form body leaves the model to invent the body, and \"Update properties of a server endpoint.\" on a tool with a dozen settings says nothing the name did not.",
			Fix:    "Say what the tool acts on, what it returns, and for a tool with a rich input, how the input is built. Length is not the aim: the words the name does not already say are.",
			Before: `{"name": "sort-excel-range", "description": "Sort an Excel range.", "inputSchema": {"type": "object", "properties": {"body": {}}}}`,
			After:  `{"name": "sort-excel-range", "description": "Sort the rows of a range in an Excel workbook in place. body: {\"fields\": [{\"key\": 0, \"ascending\": true}], \"hasHeaders\": true}; key is the column's offset in the range."}`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			d := textutil.JSTrim(t.Description)
			if d == "" {
				return []Finding{{Severity: SeverityError, Message: "the tool has no description: the model can only guess from its name"}}
			}
			own, _ := ownText(d)
			n := textutil.UTF16Len(own)
			if n >= minChars {
				return nil
			}
			told := toldWords(own, t.Name)
			switch {
			case genericAction(own, t.Name):
				return []Finding{{Severity: SeverityWarn, Message: fmt.Sprintf("the description (%s) is a generic action in %d characters: say which system, dialect and scope it acts on", excerpt(own, 60), n)}}
			case len(told) == 0:
				return []Finding{{Severity: SeverityWarn, Message: fmt.Sprintf("the description (%s) says nothing the name %s does not: say what it acts on and returns", excerpt(own, 60), jsonv.Quote(t.Name))}}
			}
			if p, ok := firstShapeless(t); ok {
				return []Finding{{Severity: SeverityWarn, Message: fmt.Sprintf("the description is %d characters and parameter '%s' has no stated shape: say what the input holds", n, p)}}
			}
			if k := len(c.ownParams(t)); k >= 6 {
				return []Finding{{Severity: SeverityWarn, Message: fmt.Sprintf("the description is %d characters for a tool with %d parameters: say what it acts on and how the parameters combine", n, k)}}
			}
			return nil
		},
	}
}

// whenPhrases are the ways descriptions say when to pick a tool, beside
// the seed's cue words.
var whenPhrases = []string{"use this", "use it", "use to", "use when", "use for", "use if", "useful", "ideal", "before", "instead",
	"deprecated", "prefer", "call this", "if you", "whenever", "unless", "in order to", "so that", "must", "should", "e.g.", "example"}

// hasWhen reports whether a description says when to pick its tool.
func hasWhen(d string) bool {
	if hasAnyWord(d, DefaultWhenCues) {
		return true
	}
	low := strings.ToLower(d)
	return slices.ContainsFunc(whenPhrases, func(p string) bool { return strings.Contains(low, p) })
}

// SaysWhenRule is says-what-not-when for descriptions that leave the
// choice to the name alone: no condition in any of the ways authors write
// one ("Use this to…", "before…", "DEPRECATED: use X instead"), and no
// word beyond what the name says. A plain action on one thing whose
// description names what it acts on ("Mute a host in Datadog") is left
// alone: its "when" follows from its "what".
func SaysWhenRule() Rule {
	return Rule{
		ID:       RuleSaysWhatNotWhen,
		Severity: SeverityWarn,
		Summary:  "the description repeats the name and never says when to pick the tool",
		Teaching: Teaching{
			Why:    "A model tells siblings apart by what their descriptions add to their names. \"Notion | Retrieve a block\" beside \"Retrieve block children\" gives it nothing to choose by, and it fetches the block when it wanted its content.",
			Fix:    "Add what the name leaves out: which object, which source, which step, and when to pick this tool over its neighbour (\"Use when …\", \"Call first …\", \"for … use X instead\").",
			Before: `{"name": "API-retrieve-a-block", "description": "Notion | Retrieve a block"}`,
			After:  `{"name": "API-retrieve-a-block", "description": "Retrieve one block's own properties (type, text, whether it has children). For the content under a block or a page, use API-get-block-children."}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			d := textutil.JSTrim(t.Description)
			if d == "" || hasWhen(d) {
				return nil
			}
			own, _ := ownText(d)
			if len(toldWords(own, t.Name)) > 0 {
				return nil
			}
			return []Finding{{Severity: SeverityWarn,
				Message: fmt.Sprintf("the description (%s) repeats the name and never says when to pick this tool: add what it acts on and the choice condition, e.g. \"Use when ...\"", excerpt(own, 60))}}
		},
	}
}

// branchEnum reports whether an anyOf or oneOf branch declares the
// values: a single style as an enum, several as an array of it.
func branchEnum(s *jsonv.Value) bool {
	for _, k := range []string{"anyOf", "oneOf"} {
		branches := s.Get(k)
		if !branches.Is(jsonv.Array) {
			continue
		}
		for _, b := range branches.Items {
			if b.Has("enum") || b.Has("const") || b.Get("items").Has("enum") {
				return true
			}
		}
	}
	return false
}

// notAValue reports whether a literal read from prose is an example of a
// free value rather than one of a closed set: a placeholder (<id>,
// {name}, $VAR, ...) or an id (digits, or letters and digits mixed in a
// long token).
func notAValue(s string) bool {
	if strings.ContainsAny(s, "<>{}$") || strings.Contains(s, "...") || strings.Contains(s, "…") {
		return true
	}
	digits, letters := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
		}
	}
	return digits >= 4 || digits >= 2 && letters == 0
}

// freeFormWords in a parameter's name mark a value that is not picked
// from a list, whatever its description shows as examples.
var freeFormWords = []string{"query", "q", "search", "term", "keyword", "keywords", "text", "prompt", "message", "content",
	"id", "ids", "key", "name", "file", "filename", "path", "url", "uri", "title", "body", "code", "expression", "filter"}

// ClosedListInProseRule is enum-in-prose for closed lists only: a string
// parameter without enum whose description lists its values, where the
// parameter is not a free-form value (a query, an id, a file name, a key)
// and the list is not introduced as examples.
func ClosedListInProseRule() Rule {
	commaList := commaListPattern(DefaultValueMarkers)
	return Rule{
		ID:       RuleEnumInProse,
		Severity: SeverityWarn,
		Summary:  "a parameter with a closed list of values lists them in prose instead of an enum",
		Teaching: Teaching{
			Why:    "A model picks reliably from an enum, and validators enforce one; values listed in a sentence are a guess for the model and invisible to validation. Reviewers found the alert-group state of a Grafana OnCall tool (new, acknowledged, resolved, silenced) and a disk's upload type written only in prose.",
			Fix:    "Declare the values as a JSON Schema enum and keep the description for what each one means. Leave free-form values alone: a list of examples for a query or a name is not an enum.",
			Before: `"state": {"type": "string", "description": "Filter by state: one of new, acknowledged, resolved, silenced"}`,
			After:  `"state": {"type": "string", "enum": ["new", "acknowledged", "resolved", "silenced"], "description": "Only alert groups in this state."}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			for _, p := range properties(t.Schema) {
				if p.Value.Has("enum") || p.Value.Has("const") || branchEnum(p.Value) || nameHas(p.Key, freeFormWords...) {
					continue
				}
				if typ := p.Value.Get("type"); typ != nil && !(typ.Kind == jsonv.String && typ.Text == "string") {
					continue
				}
				desc := descOf(p.Value)
				if desc == "" {
					continue
				}
				low := strings.ToLower(desc)
				// "matching /^(\d+) +(second|minute|hour)s?$/": alternatives inside a
				// pattern are parts of a value, not the values.
				if strings.Contains(low, "e.g.") || strings.Contains(low, "for example") || strings.Contains(low, "such as") || strings.Contains(low, "example:") || strings.Contains(low, "examples:") || strings.Contains(desc, "/^") {
					continue
				}
				literals := closedLiterals(desc, commaList)
				if literals == nil || slices.ContainsFunc(literals, func(s string) bool { return len(s) > 40 || notAValue(s) }) {
					continue
				}
				enum, _ := json.Marshal(literals)
				out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
					Message:    fmt.Sprintf("parameter '%s' lists its legal values in prose (%s): declare them as an enum so the model picks one reliably", p.Key, excerpt(desc, 80)),
					Suggestion: `"enum": ` + string(enum), Fix: enumFix(t, p.Value, literals)})
			}
			return out
		},
	}
}

// listEnd is how prose closes a comma list: "a, b or c", "a, b, and c",
// the last value ending the sentence or the clause ("a, b and more are
// coming" is no list's end).
var listEnd = regexp.MustCompile(`^` + jsSpaceClass + `*,?` + jsSpaceClass + `*(?:or|and)` + jsSpaceClass + `+(` + identPattern + `)(?:$|[,;:)]|\.(?:$|` + jsSpaceClass + `))`)

// lastWord is the word a comma list's last item runs on into: "a, b, and
// c" reads "and" as the last item, "c" follows it.
var lastWord = regexp.MustCompile(`^` + jsSpaceClass + `+(` + identPattern + `)(?:$|[,;:)]|\.(?:$|` + jsSpaceClass + `))`)

// closedLiterals are the values a description lists (proseLiterals), the
// list read to its end as prose closes it: "open, closed or all" holds
// all, "null, Minor, NotAdult, and Adult" holds Adult and not "and". The
// seed's rule reads the comma list alone; an enum without the last value
// would refuse it.
func closedLiterals(desc string, commaList *regexp.Regexp) []string {
	if strings.IndexByte(desc, '|') >= 0 && pipeList.MatchString(desc) {
		return proseLiterals(desc, commaList)
	}
	if strings.IndexByte(desc, ',') < 0 {
		return nil
	}
	m := commaList.FindStringSubmatchIndex(desc)
	if m == nil {
		return nil
	}
	literals := trimAll(strings.Split(desc[m[2]:m[3]], ","))
	rest := desc[m[3]:]
	switch last := literals[len(literals)-1]; {
	case last == "and" || last == "or":
		w := lastWord.FindStringSubmatch(rest)
		if w == nil {
			return nil // the list runs on past what can be read as values
		}
		literals[len(literals)-1] = strings.TrimRight(w[1], ".")
	case strings.HasSuffix(desc[m[2]:m[3]], "."):
		// The sentence ended with the list.
	default:
		if w := listEnd.FindStringSubmatch(rest); w != nil {
			literals = append(literals, strings.TrimRight(w[1], "."))
		}
	}
	return literals
}

// omissionPhrases say what leaving a parameter out does, beside the
// seed's cue words.
var omissionPhrases = []string{"otherwise", "unless", "if empty", "leave empty", "leave blank", "if provided", "if specified",
	"if set", "if given", "when provided", "when specified", "when given", "not provided", "not specified", "not set",
	"not given", "if none", "by default", "current", "unchanged", "only the fields", "only fields", "only provided", "only the provided",
	"required for", "required when", "required if", "needed for", "needed when", "needed if", "only needed", "only when", "only if", "only used",
	"only applicable", "only applies", "only relevant", "only valid", "applies only", "applicable only",
	"ignored", "none", "empty", "optionally set", "optionally add", "optionally post", "optionally attach", "optionally include",
	"optionally apply", "optionally send", "null if", "null means", "null for",
	// An alternative to another parameter: left out, the other applies.
	"alternative to", "instead of",
	// The same said in Chinese and Japanese: 默认/缺省 "default", 不填/不传/未指定 "not given", 省略 "omitted".
	"默认", "默認", "缺省", "不填", "不传", "未指定", "未填写", "省略", "デフォルト", "既定"}

// saysOmission reports whether text says what leaving a parameter out
// does. "Optional" alone does not: it says that the parameter may be left
// out, not what then happens ("Optional: hours, limit").
func saysOmission(text string) bool {
	low := strings.ToLower(text)
	if strings.Contains(low, "`") {
		low = strings.ReplaceAll(low, "`", "") // "`null` if ..."
	}
	if slices.ContainsFunc(DefaultOmissionCues, func(w string) bool { return w != "optional" && textutil.HasWholeWordLower(low, strings.ToLower(w)) }) {
		return true
	}
	return slices.ContainsFunc(omissionPhrases, func(p string) bool { return strings.Contains(low, p) })
}

// plainOmissionWords name a parameter whose omission is plain: a filter
// means no filter, a cursor the first page, a selection every field, a
// tag or a flag nothing extra.
var plainOmissionWords = []string{"filter", "filters", "cursor", "page", "token", "offset", "after", "before", "select",
	"fields", "expand", "sort", "order", "orderby", "dir", "direction", "include", "exclude", "search", "query", "q",
	"language", "lang", "country", "locale", "tag", "tags", "label", "labels", "has", "is", "name", "title", "description",
	"note", "notes", "comment", "message", "parent", "retry", "retries", "tenant", "subscription", "auth", "id", "ids",
	"owner", "creator", "assignee", "recency", "domain", "range", "headers", "metadata", "options", "variables", "input",
	"context", "reason", "color", "icon", "emoji", "format"}

// updateVerbs in a tool's name make it an update: leaving a field out
// keeps it.
var updateVerbs = []string{"update", "patch", "edit", "modify", "set", "rename", "change", "configure", "upsert"}

// styleVerbs in a tool's name make it restyle what exists (format cells,
// style a shape): leaving an option out keeps the current look.
var styleVerbs = []string{"format", "style", "restyle"}

// lookWords name how something looks (a font size, an alignment, a
// border's dash): leaving one out keeps the default look, which a model
// need not plan around.
var lookWords = []string{"font", "align", "alignment", "dash", "bullet", "indent", "indentation", "spacing", "bold", "italic",
	"underline", "strikethrough", "opacity", "border", "borders", "outline", "shading", "foreground", "background", "weight"}

// OmissionRule is optional-param-undocumented where leaving a parameter
// out changes the result in a way a model cannot infer: how many come
// back (a count, a limit, a depth), which mode or visibility applies (a
// mode, a strategy, an enum on a tool that acts), or which time zone. It
// never reports a filter, a cursor, an id, a flag, a field an update
// keeps, a parameter the catalog repeats on most tools, or one whose
// default, const, example or omission some text states.
func OmissionRule() Rule {
	return Rule{
		ID:       RuleOptionalParam,
		Severity: SeverityWarn,
		Summary:  "an optional parameter whose omission chooses something the text never says",
		Teaching: Teaching{
			Why:    "Leaving out a filter, a cursor or an update's field means the obvious thing. Leaving out a count, a mode or a zone does not: the tool picks for the model, and the model cannot plan around a choice it does not know (\"how many hosts come back?\", \"driving or walking?\", \"today in which time zone?\").",
			Fix:    "Declare a default in the schema (\"default\": 100), or say it in the description: \"Optional; defaults to 100\", \"Omit for driving\", \"Omit for UTC\".",
			Before: `"count": {"type": "number", "description": "Number of hosts to return"}`,
			After:  `"count": {"type": "number", "default": 100, "maximum": 1000, "description": "Number of hosts to return (default 100)."}`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			var out []Finding
			required := requiredNames(t.Schema)
			common := c.commonParams()
			update := nameHas(t.Name, updateVerbs...) || nameHas(t.Name, styleVerbs...)
			reads := nameHas(t.Name, readVerbs...) || hasVerb(leadWords(t.Description), readOrReturn)
			makes := nameHas(t.Name, makeVerbs...)
			telemetry := nameHas(t.Name, telemetryWords...)
			toolSays := -1 // whether the tool's description says what omission does, read once on first need
			for _, p := range properties(t.Schema) {
				if update || slices.Contains(required, p.Key) || common[p.Key] || hasAny(p.Value, "default", "const", "examples") || declared(t, p.Key) {
					continue
				}
				typ := typeOf(p.Value)
				if typ == "boolean" || nameHas(p.Key, lookWords...) || singleChoice(p.Value) || namesDefault(p.Value) {
					continue
				}
				desc := descOf(p.Value)
				// What omission picks first, from the name and the schema;
				// reading the texts is the cost, so they come last.
				what := omissionChooses(p.Key, typ, p.Value, reads, makes, telemetry)
				if what == howMany && offsetText(desc) {
					continue // an amount added or a shift: left out, it is zero
				}
				// On a tool that reads, an undescribed option is a filter its
				// name says. On one that makes a record, a number or a
				// structure its schema lays out is a value of the record
				// (neck_cm, purchaseDetails): left out, it is not set; a bare
				// string (a milestone: its number or its title?) or a time
				// (a downtime's start: epoch seconds?) has no form. On one
				// that acts otherwise, nobody can tell what it does. On
				// either, a name that does not say what it takes (from, to,
				// key, a build ref) is reported.
				if what == "" && desc == "" {
					told := hasAny(p.Value, "enum", "format", "pattern", "examples", "example", "$ref", "title") || branchEnum(p.Value)
					formless := !reads && (!makes || (typ == "string" || typ == "") && !told)
					unclear := (unclearName(wordsOf(p.Key)) || makes && nameHas(p.Key, madeTimeWords...)) && !told
					if form := formUnsaid(p.Key, typ, p.Value); form != "" && !told {
						what = form
					} else if formless || unclear {
						what = undescribed
					}
				}
				form := what == whichTimeForm || what == whichColorForm || what == whichOrderForm
				if what == "" || what == undescribed && nameHas(p.Key, plainOmissionWords...) {
					continue
				}
				// Cheapest first: the expressions read the text last.
				if mentions(t.Description, p.Key) || desc != "" && (saysOmission(desc) || filterText(desc) || saysOneOf.MatchString(desc) || textHasWord(desc, "deprecated", "legacy", "override")) {
					continue
				}
				if toolSays < 0 {
					toolSays = 0
					if saysOmission(t.Description) {
						toolSays = 1
					}
				}
				if toolSays == 1 && sentenceSaysOmission(t.Description, p.Key) {
					continue
				}
				msg := fmt.Sprintf("optional parameter '%s' never says what leaving it out means (%s): declare a default or say it, e.g. \"optional, defaults to ...\"", p.Key, what)
				switch {
				case form:
					msg = fmt.Sprintf("optional parameter '%s' has no description, and its name does not say %s: describe the form it takes", p.Key, what)
				case what == undescribed:
					msg = fmt.Sprintf("optional parameter '%s' has no description: say what it does and what happens when it is left out", p.Key)
				case desc == "":
					msg = fmt.Sprintf("optional parameter '%s' has no description, and leaving it out chooses %s: say what it does and its default", p.Key, what)
				}
				out = append(out, Finding{Severity: SeverityWarn, Param: p.Key, Message: msg})
			}
			return out
		},
	}
}

// offsetText reports whether a number's description says it shifts or
// adds ("The number of hours before (negative value) or after", "days to
// add"): leaving it out shifts nothing.
func offsetText(desc string) bool {
	low := strings.ToLower(desc)
	return strings.Contains(low, "negative") || strings.Contains(low, "to add") || strings.Contains(low, "to subtract") || textHasWord(low, "offset", "shift", "skip")
}

// filterOpenings open the description of a parameter that narrows what
// comes back: leaving it out narrows nothing.
var filterOpenings = regexp.MustCompile(`(?i)^(optional\s+)?(filter|only|restrict|limit\s+(results\s+)?to|narrow|search|include|exclude|match|return\s+only)\b`)

// filterText reports whether a description says its parameter is a filter.
func filterText(desc string) bool {
	return filterOpenings.MatchString(desc) || textHasWord(desc, "filter", "filters", "filtering")
}

// omissionChooses says what leaving a parameter out leaves to the tool,
// "" when nothing a reader cannot infer: a count, a mode or visibility,
// a period, the start of a window over logs, metrics or traces, or a time
// zone. An enum alone is not enough: left out on a tool that reads it
// narrows nothing, and on one that acts it mostly leaves a thing as it
// is (a review's new status, a unit to convert to); reviewers of unseen
// catalogs called most such findings noise.
func omissionChooses(key, typ string, s *jsonv.Value, reads, makes, telemetry bool) string {
	switch {
	case typ != "boolean" && typ != "object" && typ != "array" && countLike(key, descOf(s), reads):
		return howMany
	case (typ == "number" || typ == "integer" || typ == "string") && !isUpperBound(key) && !(reads && (nameHas(key, recordTimeWords...) || attributeBound(key))) && !nameHas(key, "max", "min") && (nameHas(key, "duration", "timeout", "interval", "period", "window", "lookback", "granularity", "resolution", "step") ||
		// A made record's start, target or birth date is a value it
		// carries: left out, it is not set. Its own date (an invoice's,
		// a journal's) or an expiry is set by the server, to a day the
		// text must say.
		nameHas(key, "date", "day") && !(makes && nameHas(key, "start", "end", "begin", "birth", "target", "planned", "defer", "publish"))) && !namesOther(key):
		return whichPeriod
	case !namesOther(key) && ((typ == "string" || typ == "") && (nameHas(key, "mode", "visibility", "privacy", "strategy", "format", "unit", "units") ||
		// A model or an engine is what a tool that acts runs with; on one
		// that reads, it is a filter (traces of one model).
		!reads && nameHas(key, "engine", "model")) && !nameHas(key, "test", "debug", "dry", "verbose") ||
		// On a tool that reads, a language or a region narrows; on one
		// that writes or acts, it is what gets made. A language or locale
		// that is described ("Locale for content, e.g. en-US") left out is
		// the server's usual one; a region left out may be anywhere.
		typ != "array" && typ != "object" && !reads && descOf(s) == "" && nameHas(key, "language", "lang", "locale")):
		return whichMode
	case reads && (nameHas(key, recordTimeWords...) || attributeBound(key)) && (lowerTimeBound(key, typ, s) || isUpperBound(key)):
		return "" // created_after on a list: no bound when left out
	case telemetry && lowerTimeBound(key, typ, s):
		// Logs, metrics and traces are read over a window, and left out
		// its start is the server's choice (the last hour? a day?). On
		// any other tool a start is a filter (a list's from, a task's
		// start_on): left out, nothing is bounded.
		return windowStart
	case nameHas(key, "timezone", "tz") || nameHas(key, "time") && nameHas(key, "zone"):
		return "which time zone applies"
	}
	return ""
}

// What an undescribed parameter's name leaves open about its form.
const (
	whichTimeForm  = "in which form to write the time (an ISO date? a timestamp? epoch seconds?)"
	whichColorForm = "in which form to write the colour (a hex code? a name?)"
	whichOrderForm = "which values it sorts by (which fields? which direction?)"
)

// timeEnds end a name that holds a point in time: created_at,
// updatedSince, balance_as_of.
var timeEnds = []string{"at", "after", "before", "since", "until", "of"}

// formUnsaid says what the name of an undescribed value leaves open about
// the form to send it in, "" when nothing: a time written as a string (a
// date filter's form is a guess whatever the tool does), a colour, or
// the order of a list. A number, a flag, an id, a url and a name say
// their form; a time given as a number is quantity-unit-unstated's.
func formUnsaid(key, typ string, s *jsonv.Value) string {
	if typ != "" && typ != "string" && typ != "array" || namesOther(key) {
		return ""
	}
	w := wordsOf(key)
	if len(w) == 0 {
		return ""
	}
	last := w[len(w)-1]
	if typ == "array" {
		// A list of sort keys: which fields, and how is a direction written?
		items := s.Get("items")
		if items == nil || typeOf(items) != "string" || hasAny(items, "enum", "const", "pattern", "description") || !orderName(w) {
			return ""
		}
		return whichOrderForm
	}
	switch {
	case orderName(w):
		return whichOrderForm
	case last == "color" || last == "colour":
		return whichColorForm
	case slices.Contains([]string{"date", "datetime", "timestamp", "birthday", "birthdate", "dob"}, last),
		last == "time" && len(w) > 1 && (slices.Contains(recordTimeWords, w[0]) || slices.Contains([]string{"start", "end", "begin", "due"}, w[0])),
		len(w) == 1 && (last == "since" || last == "until"),
		len(w) > 1 && slices.Contains(timeEnds, last) && (last != "of" || w[len(w)-2] == "as") &&
			slices.ContainsFunc(w[:len(w)-1], func(x string) bool {
				return x == "as" || x == "date" || x == "time" || slices.Contains(recordTimeWords, x) || slices.Contains([]string{"start", "end", "begin"}, x)
			}):
		return whichTimeForm
	}
	return ""
}

// orderWords name an ordering: sort, order, ordering, orderBy.
var orderWords = []string{"sort", "order", "ordering", "orderby", "sortby"}

// orderName reports whether a name's words are only of ordering: sort,
// order, ordering, sort_by, orderBy.
func orderName(w []string) bool {
	return slices.ContainsFunc(w, func(x string) bool { return slices.Contains(orderWords, x) }) &&
		!slices.ContainsFunc(w, func(x string) bool { return x != "by" && !slices.Contains(orderWords, x) })
}

// otherKinds end a name that is about something else than the words
// before them: candidate_model_uuid is an id, date_field a field's name.
var otherKinds = []string{"id", "ids", "uuid", "uuids", "key", "keys", "name", "names", "field", "fields", "column", "columns"}

// namesOther reports whether a name ends in one of otherKinds: its value
// is an id or a name, not a mode, a period or a date.
func namesOther(key string) bool {
	w := wordsOf(key)
	return len(w) > 1 && slices.Contains(otherKinds, w[len(w)-1])
}

// recordTimeWords name a time a record carries (created_after,
// due_date, updated_since): on a tool that reads, a bound on one is a
// filter, and leaving it out bounds nothing.
var recordTimeWords = []string{"created", "updated", "modified", "changed", "closed", "merged", "published", "deleted", "resolved",
	"due", "edited", "released", "committed", "archived", "completed", "finished", "started", "ended", "expired", "expires"}

// madeTimeWords name a time a made record carries: undescribed, its
// form (epoch seconds? a date?) is a guess, whatever its type.
var madeTimeWords = []string{"start", "end", "date", "time", "timestamp", "deadline", "due", "until", "since"}

// makeVerbs in a tool's name say it makes a record: a start it takes is
// the record's, not a window.
var makeVerbs = []string{"create", "add", "insert", "new", "schedule", "book"}

// singleChoice reports whether an enum holds one value: leaving it out
// picks the only other way, which its description names ("Use raw for
// unprocessed output").
func singleChoice(s *jsonv.Value) bool {
	e := s.Get("enum")
	return e != nil && e.Is(jsonv.Array) && len(e.Items) == 1
}

// namesDefault reports whether an enum holds a value that names the
// default ("default"): left out, that one applies. "auto" need not be
// the default (a proxy of basic or auto).
func namesDefault(s *jsonv.Value) bool {
	e := s.Get("enum")
	if e == nil || !e.Is(jsonv.Array) {
		return false
	}
	return slices.ContainsFunc(e.Items, func(v *jsonv.Value) bool {
		return v.Kind == jsonv.String && strings.EqualFold(v.Text, "default")
	})
}

// attributeBound reports whether a name bounds a time a record carries
// by ending in since, until, after or before (startDateSince,
// dueDateUntil): "since" alone starts a window, "startDateSince" filters.
func attributeBound(key string) bool {
	w := wordsOf(key)
	return len(w) > 1 && slices.Contains([]string{"since", "until", "after", "before"}, w[len(w)-1])
}

// undescribed is what leaving out a parameter with no description
// chooses: the model cannot even tell what it is.
const undescribed = "what it is"

// telemetryWords name a tool that reads logs, metrics or traces: data
// only ever queried over a time window.
var telemetryWords = []string{"log", "logs", "metric", "metrics", "trace", "traces", "span", "spans", "analytics", "prometheus", "loki", "timeseries"}

// windowStart is what leaving out the start of a time window chooses.
const windowStart = "where the time window starts"

// lowerTimeBound reports whether a parameter is the start of a time
// window (start, since, from, after) carrying a time: leaving it out
// picks a window the model cannot see, where leaving out its end means
// now.
func lowerTimeBound(key, typ string, s *jsonv.Value) bool {
	if !nameHas(key, "start", "since", "from", "after", "begin") || typ != "" && typ != "number" && typ != "integer" && typ != "string" {
		return false
	}
	if nameHas(key, "time", "date", "timestamp", "ts", "datetime") || nameHas(key, "since") {
		return true
	}
	desc := descOf(s)
	return desc == "" && (typ == "number" || typ == "integer") && nameHas(key, "start") || textHasWord(desc, "time", "date", "timestamp", "datetime", "epoch")
}

// sentenceSaysOmission reports whether a sentence of text names the
// parameter key as a word and says what leaving it out does.
func sentenceSaysOmission(text, key string) bool {
	words := wordsOf(key)
	for _, sentence := range strings.FieldsFunc(text, func(r rune) bool { return r == '.' || r == '\n' || r == ';' }) {
		// A sentence about the parameter names it, or every word of its
		// name: "across all script sources" is not about maxResultsPerScript.
		if strings.Contains(sentence, key) || len(words) == 1 && textHasWord(sentence, words[0]) || len(words) > 1 && describes(wordsOf(sentence), key) {
			if saysOmission(sentence) {
				return true
			}
		}
	}
	return false
}

// whichMode is what leaving out a mode, a format or a language chooses.
const whichMode = "which mode, unit, format or language applies"

// readOrReturn are the lead verbs of a description of a tool that reads.
var readOrReturn = append(slices.Clone(readVerbs), "return")

// whichPeriod is what leaving out a period, an interval or a date
// chooses.
const whichPeriod = "which period, interval or date applies"

// resultWords name what a tool returns several of: a bound on them is a
// count.
var resultWords = []string{"results", "items", "records", "entries", "rows", "tokens", "pages", "hits", "docs", "documents", "messages", "length", "depth"}

// howMany is what leaving out a count chooses.
const howMany = "how many or how much"

// countLike reports whether a number parameter says how many: a count,
// a limit, a size of a page or a depth. A bare max or min is a bound of
// a filter (max_price) unless the description says it counts.
func countLike(key, desc string, reads bool) bool {
	if nameHas(key, "min", "minimum") {
		return false // a lower bound narrows; it counts nothing
	}
	w := wordsOf(key)
	if nameHas(key, "max", "maximum", "num", "number") {
		// maxResults, num_results: how many come back; max_price,
		// num_baths: a value the results must meet.
		// On a tool that reads, only a bound on what comes back counts;
		// on one that acts, a bound on anything plural (maxLabels).
		return len(w) == 1 || slices.ContainsFunc(w[1:], func(x string) bool {
			return slices.Contains(resultWords, x) || !reads && len(x) > 3 && strings.HasSuffix(x, "s")
		})
	}
	if nameHas(key, "count", "limit", "top", "depth", "breadth", "results", "k", "n", "per", "size") {
		return true
	}
	low := strings.ToLower(desc)
	for _, article := range []string{"the ", "a ", "an "} {
		low = strings.TrimPrefix(low, article)
	}
	if !strings.HasPrefix(low, "number of") && !strings.HasPrefix(low, "maximum number") && !strings.HasPrefix(low, "max number") && !strings.HasPrefix(low, "how many") {
		return false
	}
	// On a tool that reads, "Number of adults" is what to look for, not
	// how many come back: only a number of results, of what the text says
	// is returned, or of hours or days to look back counts.
	return !reads || textHasWord(low, resultWords...) || textHasWord(low, "return", "returned", "returns", "retrieve", "fetch", "show", "list") ||
		textHasWord(low, "minutes", "hours", "days", "weeks", "months", "years")
}

// mentions reports whether text documents the parameter key: names it
// as a term (`key`, "key", 'key') or as a list entry ("key: ...").
func mentions(text, key string) bool {
	if key == "" {
		return false
	}
	for _, form := range []string{"`" + key + "`", `"` + key + `"`, "'" + key + "'", key + ":", key + " :", key + " -", key + " ("} {
		if strings.Contains(text, form) {
			return true
		}
	}
	return false
}

// destructiveVerbs in a tool's name make it destructive.
var destructiveVerbs = []string{"delete", "drop", "reset", "purge", "destroy", "remove", "truncate", "wipe", "clear", "erase", "revoke", "terminate", "kill", "overwrite"}

// destructiveName reports whether a tool's name says it destroys.
func destructiveName(name string) bool { return nameHas(name, destructiveVerbs...) }

// declared reports whether the tool's declarations rule the argument: an
// askOrAssume rule says what its omission does, a period how it is
// written.
func declared(t *catalog.Tool, key string) bool {
	if t.AskOrAssume.Has(key) {
		return true
	}
	return t.Period != nil && strings.Contains(t.Period.JSON(), jsonv.Quote(key))
}
