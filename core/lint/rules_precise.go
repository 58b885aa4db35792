package lint

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

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
			case genericActions.MatchString(own):
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
				if p.Value.Has("enum") || p.Value.Has("const") || nameHas(p.Key, freeFormWords...) {
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
				if strings.Contains(low, "e.g.") || strings.Contains(low, "for example") || strings.Contains(low, "such as") {
					continue
				}
				literals := proseLiterals(desc, commaList)
				if literals == nil || slices.ContainsFunc(literals, func(s string) bool { return len(s) > 40 }) {
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

// omissionPhrases say what leaving a parameter out does, beside the
// seed's cue words.
var omissionPhrases = []string{"otherwise", "unless", "if empty", "leave empty", "leave blank", "if provided", "if specified",
	"if set", "if given", "when provided", "when specified", "when given", "not provided", "not specified", "not set",
	"not given", "if none", "by default", "current", "unchanged", "only the fields", "only fields", "only provided", "only the provided",
	"required for", "required when", "required if", "only when", "only if", "only used", "ignored", "none", "empty"}

// saysOmission reports whether text says what leaving a parameter out does.
func saysOmission(text string) bool {
	low := strings.ToLower(text)
	if slices.ContainsFunc(DefaultOmissionCues, func(w string) bool { return textutil.HasWholeWordLower(low, strings.ToLower(w)) }) {
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

// OmissionRule is optional-param-undocumented where omission is neither
// said nor plain: an optional parameter with no description at all, or
// one whose omission chooses something the reader cannot guess (how many
// results, which time or zone, which mode of several, what a destructive
// tool acts on) and no default, const, example, enum default or sentence
// says what. Parameters most of the catalog's tools repeat, booleans,
// filters, cursors and the fields of an update are left alone.
func OmissionRule() Rule {
	return Rule{
		ID:       RuleOptionalParam,
		Severity: SeverityWarn,
		Summary:  "an optional parameter whose omission chooses something the text never says",
		Teaching: Teaching{
			Why:    "Leaving out a filter, a cursor or an update's field means the obvious thing. Leaving out a count, a time, a zone or a mode does not: the tool picks for the model, and the model cannot plan around a choice it does not know (\"how many hosts come back?\", \"today in which time zone?\", \"reset the branch to what?\").",
			Fix:    "Declare a default in the schema (\"default\": 100), or say it in the description: \"Optional; defaults to 100\", \"Omit for now, in UTC\", \"If not given, resets to the last migration\".",
			Before: `"count": {"type": "number", "description": "Number of hosts to return"}`,
			After:  `"count": {"type": "number", "default": 100, "maximum": 1000, "description": "Number of hosts to return (default 100)."}`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			var out []Finding
			required := requiredNames(t.Schema)
			common := c.commonParams()
			update := nameHas(t.Name, updateVerbs...)
			destructive := destructiveName(t.Name)
			toolSays := update && saysOmission(t.Description)
			for _, p := range properties(t.Schema) {
				if slices.Contains(required, p.Key) || common[p.Key] || hasAny(p.Value, "default", "const", "examples") || declared(t, p.Key) {
					continue
				}
				desc := descOf(p.Value)
				if desc == "" {
					if !mentions(t.Description, p.Key) {
						out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
							Message: fmt.Sprintf("optional parameter '%s' has no description: say what it does and what happens when it is left out", p.Key)})
					}
					continue
				}
				typ := typeOf(p.Value)
				// The cheap tests first: reading the text is the cost.
				if toolSays || typ == "boolean" || (update && !destructive) || saysOmission(desc) {
					continue
				}
				if !destructive && nameHas(p.Key, plainOmissionWords...) {
					continue
				}
				if what := omissionChooses(p.Key, typ, p.Value, destructive); what != "" {
					out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
						Message: fmt.Sprintf("optional parameter '%s' never says what leaving it out means (%s): declare a default or say it, e.g. \"optional, defaults to ...\"", p.Key, what)})
				}
			}
			return out
		},
	}
}

// omissionChooses says what leaving a parameter out leaves to the tool,
// "" when nothing a reader needs to know.
func omissionChooses(key, typ string, s *jsonv.Value, destructive bool) string {
	switch {
	case destructive:
		return "what the tool acts on without it"
	case timeWords(key):
		return "which time or zone applies"
	case (typ == "number" || typ == "integer" || typ == "") && countLike(key, descOf(s)):
		return "how many or how much"
	case s.Has("enum") || nameHas(key, "mode"):
		return "which of the choices applies"
	}
	return ""
}

// timeWords reports whether a parameter's name says it carries a time,
// a date, a zone or a period.
func timeWords(key string) bool {
	return nameHas(key, "time", "date", "timezone", "tz", "zone", "since", "until",
		"timestamp", "ts", "period", "duration", "interval", "window", "ago", "day", "days", "hours", "minutes")
}

// countLike reports whether a number parameter says how many: a count,
// a limit, a size of a page or a depth.
func countLike(key, desc string) bool {
	if nameHas(key, "count", "limit", "max", "min", "num", "top", "n", "per", "depth", "breadth", "results", "size", "length", "k") {
		return true
	}
	low := strings.ToLower(desc)
	return strings.HasPrefix(low, "number of") || strings.HasPrefix(low, "maximum") || strings.HasPrefix(low, "how many")
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
