package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// Exact checks for what reviewers reading real catalogs would act on:
// a schema that contradicts itself or its own text, in a way that a model
// following either cannot satisfy. Each reads only the tool (and, for a
// copied description, the catalog's other descriptions), never a list of
// words fitted to one catalog.

// The ids of the exact checks.
const (
	RuleRequiredImpossible   = "required-param-impossible"
	RuleRequiredSaidOptional = "required-said-optional"
	RuleAlternativesNone     = "alternatives-none-required"
	RuleRequiredUnclear      = "required-param-unclear"
	RuleDescriptionCopied    = "param-description-copied"
)

// impossible says why a parameter schema admits no value, "" when it
// admits some: an empty enum, a const its own type rejects, an empty type
// list, or a lower bound over its upper bound.
func impossible(s *jsonv.Value) string {
	if e := s.Get("enum"); e.Is(jsonv.Array) && len(e.Items) == 0 {
		return "its enum is empty"
	}
	if typ := s.Get("type"); typ.Is(jsonv.Array) && len(typ.Items) == 0 {
		return "its type list is empty"
	}
	if k := s.Get("const"); k != nil {
		if types, ok := declaredTypes(s.Get("type")); ok && !typeAccepts(types, k) {
			return fmt.Sprintf("its const %s is %s, but its type is %s", cut(k.JSON(), 40), k.ArticleType(), strings.Join(types, " or "))
		}
	}
	for _, b := range [][2]string{{"minimum", "maximum"}, {"exclusiveMinimum", "exclusiveMaximum"}, {"minLength", "maxLength"}, {"minItems", "maxItems"}} {
		lo, ok1 := s.Get(b[0]).Float()
		hi, ok2 := s.Get(b[1]).Float()
		if ok1 && ok2 && lo > hi {
			return fmt.Sprintf("its %s (%g) is over its %s (%g)", b[0], lo, b[1], hi)
		}
	}
	return ""
}

// RequiredImpossibleRule flags a required parameter no value can
// satisfy, and a required list whose entries none can (it can only be
// empty).
func RequiredImpossibleRule() Rule {
	return Rule{
		ID:       RuleRequiredImpossible,
		Severity: SeverityError,
		Summary:  "a required parameter that no value can satisfy",
		Teaching: Teaching{
			Why:    "A required parameter whose enum is empty, or whose const is a string where the type says integer, cannot be sent: every call the model makes fails validation, and the tool is dead however well the model reads it. Generated schemas produce this when the list of allowed values is filled from a source that came back empty.",
			Fix:    "Fill the enum (or drop it and describe the values), make the const agree with the type, or make the bounds meet; if the parameter is really unused, drop it from required.",
			Before: `"project": {"type": "string", "enum": []}  ...  "required": ["project"]`,
			After:  `"project": {"type": "string", "description": "The project's key, as list_projects returns it (e.g. OPS)."}  ...  "required": ["project"]`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			requiredFields(t.Schema, func(f requiredField) {
				if why := impossible(f.Schema); why != "" {
					out = append(out, Finding{Severity: SeverityError, Param: f.Path, Line: f.Schema.Pos.Line, Column: f.Schema.Pos.Col,
						Message: fmt.Sprintf("%s '%s' can take no value: %s, so every call fails validation", fieldWord(f.Path), f.Path, why)})
					return
				}
				// A list whose entries can take no value can only be empty:
				// with minItems it can take no value at all.
				items := f.Schema.Get("items")
				if !items.Is(jsonv.Object) && !items.Is(jsonv.Bool) {
					return
				}
				why := "items is false"
				if items.Is(jsonv.Object) {
					if why = impossible(items); why == "" {
						return
					}
					why = "the entries' " + strings.TrimPrefix(why, "its ")
				} else if items.Bool {
					return
				}
				if n, ok := f.Schema.Get("minItems").Float(); ok && n >= 1 {
					out = append(out, Finding{Severity: SeverityError, Param: f.Path, Line: f.Schema.Pos.Line, Column: f.Schema.Pos.Col,
						Message: fmt.Sprintf("%s '%s' can take no value: no entry is valid (%s) and it needs at least one, so every call fails validation", fieldWord(f.Path), f.Path, why)})
					return
				}
				out = append(out, Finding{Severity: SeverityWarn, Param: f.Path, Line: f.Schema.Pos.Line, Column: f.Schema.Pos.Col,
					Message: fmt.Sprintf("%s '%s' can only be an empty list: no entry is valid (%s), so the model cannot name anything to act on", fieldWord(f.Path), f.Path, why)})
			})
			return out
		},
	}
}

// saidOptional finds, in a required parameter's description, words that
// call it optional or say what happens when it is left out.
var saidOptional = regexp.MustCompile(`(?i)^\W*optional\b|\(optional\b|\boptional\s*[.;,:)]|\[optional\]|\bdefaults?\s+(?:to|is)\b|\bdefault\s*(?:value\s*)?[:=]|\bby\s+default\b|\bif\s+(?:omitted|unspecified|unset|absent|not\s+(?:provided|specified|given|set|supplied|passed))\b|\bwhen\s+(?:omitted|unspecified|unset|absent|not\s+(?:provided|specified|given|set|supplied|passed))\b|\bleave\s+(?:it\s+)?(?:unset|out|empty|blank)\b|\b(?:can|may)\s+be\s+(?:omitted|left\s+(?:out|unset|empty|blank))\b|^\W*omit\s+(?:it\s+)?(?:to|for)\b|[.;]\s*omit\s+(?:it\s+)?(?:to|for)\b|\bnot\s+required\b|\bdefault\s+(?:\w+\s+)?(?:will\s+be|is|gets)\s+used\b|\bfalls?\s+back\s+to\b|\bdefault\s+\d`)

// mayCallOptional is the cheap test before saidOptional: a word every
// match holds.
func mayCallOptional(desc string) bool {
	low := strings.ToLower(desc)
	return strings.Contains(low, "optional") || strings.Contains(low, "default") || strings.Contains(low, "omit") || strings.Contains(low, "not ") || strings.Contains(low, "leave") ||
		strings.Contains(low, "unspecified") || strings.Contains(low, "unset") || strings.Contains(low, "fall") || strings.Contains(low, "absent") || strings.Contains(low, "left ")
}

// callsOptional reports whether a description calls its parameter
// optional or defaulted; "if not provided in the context, look it up"
// is about where the value comes from, not about leaving it out.
//
// In the description of a list or an object, a default in a sentence
// about its entries ("Each entry defaults to action 'create'") is a
// member's default, not the parameter's.
func callsOptional(desc string, composite bool) bool {
	for _, m := range saidOptional.FindAllStringIndex(desc, -1) {
		rest := strings.ToLower(desc[m[1]:])
		said := strings.ToLower(desc[m[0]:m[1]])
		conditional := strings.HasPrefix(said, "if") || strings.HasPrefix(said, "when")
		if strings.HasPrefix(rest, " in ") || strings.HasPrefix(rest, " by ") || conditional && obtains(rest) {
			continue
		}
		if inBulletLine(desc, m[0]) || inFieldNote(desc, m[0]) || strings.HasPrefix(said, "by") && inParens(desc, m[0]) {
			continue
		}
		if composite {
			start := strings.LastIndexAny(desc[:m[0]], ".;\n") + 1
			if textHasWord(strings.ToLower(desc[start:m[1]]), memberWords...) {
				continue
			}
		}
		return true
	}
	return false
}

// inBulletLine reports whether offset at of desc lies on a later line of
// a bulleted list, or on an indented line under one: such a line
// describes one of the values ("- BaseCurve: ... no fee by default") or a
// field of one ("  If access is omitted, defaults to owner"), not the
// parameter.
func inBulletLine(desc string, at int) bool {
	nl := strings.LastIndexByte(desc[:at], '\n')
	if nl < 0 {
		return false
	}
	raw := desc[nl+1 : at]
	line := strings.TrimSpace(raw)
	if bullet(line) {
		return true
	}
	// An indented line under a bullet goes on describing that item.
	if raw == "" || raw[0] != ' ' && raw[0] != '\t' {
		return false
	}
	for _, above := range slices.Backward(strings.Split(desc[:nl], "\n")) {
		if a := strings.TrimSpace(above); bullet(a) {
			return true
		} else if above == "" || above[0] != ' ' && above[0] != '\t' {
			return false
		}
	}
	return false
}

// bullet reports whether a trimmed line opens an item of a list.
func bullet(line string) bool {
	return strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ") || strings.HasPrefix(line, "• ")
}

// inFieldNote reports whether offset at of desc lies in a parenthesis
// that gives a field's type: "commit_sha (string, optional; if omitted,
// resolved from the Hub)" describes a field of the value, not the value.
func inFieldNote(desc string, at int) bool {
	open := strings.LastIndexByte(desc[:at], '(')
	if open < 0 || strings.IndexByte(desc[open:at], ')') >= 0 {
		return false
	}
	w := wordsOf(desc[open+1 : at])
	return len(w) > 0 && slices.Contains([]string{"string", "integer", "number", "boolean", "array", "object", "int", "bool", "float"}, w[0])
}

// inParens reports whether offset at of desc lies in a parenthesis: "The
// search pattern (regex by default)" says how the value is read, not
// that it may be left out.
func inParens(desc string, at int) bool {
	open := strings.LastIndexByte(desc[:at], '(')
	return open >= 0 && strings.IndexByte(desc[open:at], ')') < 0
}

// obtainVerbs open a clause that says how to get a value the model
// lacks: "If not provided, ask the user", "... use the listTestIds tool".
var obtainVerbs = []string{"ask", "prompt", "call", "use", "look", "fetch", "get", "find", "request", "check", "run", "query"}

// obtains reports whether the text after "if not provided" tells the
// model how to obtain the value rather than what the tool does without it.
func obtains(rest string) bool {
	w := wordsOf(rest)
	if len(w) > 0 && (w[0] == "always" || w[0] == "first" || w[0] == "please") {
		w = w[1:]
	}
	return len(w) > 0 && slices.Contains(obtainVerbs, w[0])
}

// memberWords name the entries or fields of a list or an object.
var memberWords = []string{"each", "every", "per", "entry", "entries", "item", "items", "element", "elements", "field", "fields", "member", "members"}

// RequiredSaidOptionalRule flags a required parameter whose own
// description calls it optional or gives a default.
func RequiredSaidOptionalRule() Rule {
	return Rule{
		ID:       RuleRequiredSaidOptional,
		Severity: SeverityWarn,
		Summary:  "a required parameter its own description calls optional or defaulted",
		Teaching: Teaching{
			Why:    "When the schema requires a parameter that the description says may be left out, the model obeys one of them: it leaves the value out and validation rejects the call, or it invents a value where the default was wanted. Schemas built by hand drift this way when a parameter gains a default after its schema was written.",
			Fix:    "Decide which is true. If the tool has a default, drop the parameter from required and declare the default; if it is needed, remove \"optional\" and the default from its description.",
			Before: `"region": {"type": "string", "description": "Optional. Defaults to us-east-1."}  ...  "required": ["region"]`,
			After:  `"region": {"type": "string", "default": "us-east-1", "description": "The region to deploy to."}  ...  "required": []`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			var out []Finding
			required := requiredNames(t.Schema)
			common := c.commonParams()
			for _, p := range properties(t.Schema) {
				if !slices.Contains(required, p.Key) || common[p.Key] {
					continue
				}
				desc := descOf(p.Value)
				typ := typeOf(p.Value)
				if desc == "" || !mayCallOptional(desc) || !callsOptional(desc, typ == "array" || typ == "object") {
					continue
				}
				out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
					Message: fmt.Sprintf("parameter '%s' is required, but its description says it may be left out (%s): drop it from required and declare the default, or drop the words", p.Key, excerpt(desc, 80))})
			}
			return out
		},
	}
}

// identityWords end the name of a parameter that identifies one thing.
var identityWords = []string{"id", "key", "name", "slug", "number", "uuid", "uid", "url", "code", "ref", "handle", "email"}

// singleTargetVerbs in the name of a tool say it acts on one thing.
var singleTargetVerbs = []string{"get", "update", "delete", "remove", "edit", "patch", "retrieve", "fetch", "read", "archive", "close",
	"rename", "move", "assign", "describe", "show", "view", "open", "transition", "restore", "unarchive", "reopen", "merge"}

// manyVerbs name a tool over many things.
var manyVerbs = []string{"list", "search", "find", "query", "bulk", "batch", "all", "many"}

// alternatives groups a tool's optional parameters that name the same
// thing in different ways (issueId, issueKey): parameters whose names
// differ only in their last word, an identity word, keyed by what comes
// before it.
func alternatives(t *catalog.Tool) map[string][]string {
	groups := map[string][]string{}
	for _, p := range properties(t.Schema) {
		w := wordsOf(p.Key)
		if len(w) == 0 || !slices.Contains(identityWords, w[len(w)-1]) {
			continue
		}
		stem := strings.Join(w[:len(w)-1], " ")
		groups[stem] = append(groups[stem], p.Key)
	}
	return groups
}

// setsNew reports whether a parameter's description gives a value to
// set ("The new name for the project"), not one that finds the thing.
func setsNew(desc string) bool {
	w := wordsOf(desc)
	if len(w) > 0 && slices.Contains([]string{"the", "a", "an", "optional"}, w[0]) {
		w = w[1:]
	}
	return len(w) > 0 && (w[0] == "new" || w[0] == "updated")
}

// identifiesOne reports whether key names one thing of the tool's name
// by an identity word: projectSlug on update_project.
func identifiesOne(key string, toolWords []string) bool {
	w := wordsOf(key)
	return len(w) > 1 && slices.Contains(identityWords, w[len(w)-1]) && slices.Contains(toolWords, w[len(w)-2])
}

// saysOneOf finds text that says one of several parameters is needed.
var saysOneOf = regexp.MustCompile(`(?i)\beither\b|\bone\s+of\b|\bat\s+least\s+one\b|\bexactly\s+one\b|\bmust\s+(?:be\s+)?(?:provide|give|specif|set|pass)|\b(?:is|are)\s+required\b|\brequired\s+(?:if|when|unless)\b|\bor\b[^.]{0,40}\bmust\b|\bmutually\s+exclusive\b`)

// saysFallback finds words that rank alternatives, and so say one of
// them is to be given: "URL lookup as fallback", "used if key not
// provided", "takes precedence over name".
var saysFallback = regexp.MustCompile(`(?i)\bfall\s*back\b|\bprecedence\b|\bused\s+(?:if|when)\b[^.]{0,30}\bnot\s+(?:provided|given|set|specified)\b|\bif\s+\w+\s+(?:is\s+)?not\s+(?:provided|given)\b`)

// AlternativesNoneRule flags a tool that acts on one thing, takes two or
// more optional parameters identifying it (issueId, issueKey) and
// requires none of them, while nothing says that one must be given.
func AlternativesNoneRule() Rule {
	return Rule{
		ID:       RuleAlternativesNone,
		Severity: SeverityWarn,
		Summary:  "alternatives of which one is needed, none required and nothing saying so",
		Teaching: Teaching{
			Why:    "A get_issue tool that takes issueId or issueKey, both optional, must be given one of them, but its schema lets the model send neither: it calls with no arguments, or fills both with guesses. The schema can say \"one of these\" exactly, and a model reads it.",
			Fix:    "Say it in the schema with anyOf: [{\"required\": [\"issueId\"]}, {\"required\": [\"issueKey\"]}], and in the description (\"Give either issueId or issueKey\").",
			Before: `{"name": "get_issue", "inputSchema": {"type": "object", "properties": {"issueId": {"type": "string"}, "issueKey": {"type": "string"}}}}`,
			After:  `{"name": "get_issue", "description": "Get one issue. Give either issueId (numeric) or issueKey (e.g. OPS-12).", "inputSchema": {"type": "object", "properties": {"issueId": {"type": "string"}, "issueKey": {"type": "string"}}, "anyOf": [{"required": ["issueId"]}, {"required": ["issueKey"]}]}}`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			if hasAny(t.Schema, "anyOf", "oneOf", "allOf", "if", "dependentRequired", "dependencies") {
				return nil
			}
			name := wordsOf(t.Name)
			// A server's prefix may come first (jira_get_issue); a tool
			// over many (list, search, bulk) names no one thing.
			if !slices.ContainsFunc(name, func(w string) bool { return slices.Contains(singleTargetVerbs, w) }) || nameHas(t.Name, manyVerbs...) {
				return nil
			}
			if saysOneOf.MatchString(t.Description) {
				return nil
			}
			required := requiredNames(t.Schema)
			common := c.commonParams()
			groups := alternatives(t)
			stems := make([]string, 0, len(groups))
			for stem := range groups {
				stems = append(stems, stem)
			}
			slices.Sort(stems)
			var out []Finding
			for _, stem := range stems {
				// One of them required settles it; other required
				// parameters (a site's id beside issueId and issueKey) do not.
				keys := slices.DeleteFunc(slices.Clone(groups[stem]), func(k string) bool { return common[k] })
				if len(keys) < 2 || slices.ContainsFunc(groups[stem], func(k string) bool { return slices.Contains(required, k) }) {
					continue
				}
				// The stem is the thing the tool acts on: "issue" of get_issue,
				// or nothing (id, name) when the tool's name says it.
				if stem != "" && !slices.Contains(name, strings.Fields(stem)[len(strings.Fields(stem))-1]) {
					continue
				}
				if slices.ContainsFunc(keys, func(k string) bool {
					d := descOf(propertyOf(t.Schema, k))
					return saysOneOf.MatchString(d) || saysFallback.MatchString(d)
				}) || saysFallback.MatchString(t.Description) {
					continue
				}
				// A new name or slug is a value to set, not a way to name
				// the thing: update_project finds its project by
				// projectSlug (or projectId, projectKey) and takes name and
				// slug as changes.
				if slices.ContainsFunc(keys, func(k string) bool { return setsNew(descOf(propertyOf(t.Schema, k))) }) ||
					stem == "" && slices.ContainsFunc(properties(t.Schema), func(p jsonv.Member) bool { return identifiesOne(p.Key, name) }) {
					continue
				}
				quoted := make([]string, len(keys))
				for i, k := range keys {
					quoted[i] = "'" + k + "'"
				}
				out = append(out, Finding{Severity: SeverityWarn, Param: keys[0], Params: keys,
					Message: fmt.Sprintf("parameters %s each identify what the tool acts on, all optional, and nothing says one is needed: require one with anyOf and say so in the description", strings.Join(quoted, " and "))})
			}
			return out
		},
	}
}

// propertyOf is the schema of the property key, nil for none.
func propertyOf(schema *jsonv.Value, key string) *jsonv.Value {
	return schema.Get("properties").Get(key)
}

// unclearNames are names that do not say what value they take: a key of
// what, a slug of what, from where, a type among which.
var unclearNames = []string{"slug", "key", "uri", "from", "to", "type", "role", "kind", "mode", "level", "scope", "target", "source",
	"value", "ref", "reference", "handle", "token", "prefix", "model", "code", "spec", "identifier", "resource", "entity", "object",
	"item", "format", "category", "status", "state", "version", "channel", "context", "variant", "template", "profile", "provider", "engine",
	"lang", "language", "locale"}

// pickedNames are the unclear names whose value is picked from a set the
// server knows (a model, a type, a room's prefix): restating the name
// does not say which values exist.
var pickedNames = []string{"type", "role", "kind", "mode", "level", "scope", "model", "format", "category", "status", "state", "version",
	"prefix", "slug", "handle", "template", "provider", "engine", "channel", "variant", "profile", "source", "target", "lang", "language", "locale"}

// opaqueKinds end a compound name that still does not say what it takes:
// a room prefix, a build ref.
var opaqueKinds = []string{"slug", "uri", "prefix", "handle", "ref", "spec"}

// unclearName reports whether a parameter name's words do not say what
// value it takes: one word of unclearNames, or a compound ending in one
// of opaqueKinds.
func unclearName(w []string) bool {
	return len(w) == 1 && slices.Contains(unclearNames, w[0]) || len(w) > 1 && slices.Contains(opaqueKinds, w[len(w)-1])
}

// RequiredUnclearRule flags a required parameter with no description
// whose name does not say what it takes (slug, key, uri, from, type,
// role, a room prefix), where neither the schema (enum, const, format,
// pattern, example, default) nor the tool's description tells.
func RequiredUnclearRule() Rule {
	return Rule{
		ID:       RuleRequiredUnclear,
		Severity: SeverityWarn,
		Summary:  "a required parameter with no description whose name does not say what it takes",
		Teaching: Teaching{
			Why:    "A model must send every required parameter, so it invents a value for one it cannot read: a key could be an API key, a record's key or a sort key; from could be a date, a sender or a branch; a slug is whatever the server calls one. The call fails, or succeeds on the wrong thing.",
			Fix:    "Describe it in a sentence: what kind of value, in which form, and where the model gets it (\"the project's slug, as in its URL: acme/web\").",
			Before: `"slug": {"type": "string"}`,
			After:  `"slug": {"type": "string", "description": "The project's slug: the last part of its URL (https://app.example.com/p/<slug>), e.g. \"web-frontend\"."}`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			var out []Finding
			common := c.commonParams()
			requiredFields(t.Schema, func(f requiredField) {
				if f.Path == f.Key && common[f.Key] {
					return
				}
				if fd, ok := unclearRequired(t, f); ok {
					out = append(out, fd)
				}
			})
			return out
		},
	}
}

// requiredField is one required value of a tool's input: a top-level
// parameter, or a field of a required object (Path "data.name.lang").
type requiredField struct {
	Path, Key string
	Schema    *jsonv.Value
	Siblings  []string // the keys beside it, itself included
	Around    string   // the enclosing fields' descriptions
}

// requiredFields calls visit with each required parameter of a tool's
// schema and, down to maxFieldDepth, each required field of a required
// object or of a required array's object items, by its path
// (data.name.lang). An object or array that holds fields is followed, not
// visited.
func requiredFields(schema *jsonv.Value, visit func(f requiredField)) {
	var walk func(schema *jsonv.Value, prefix, around string, depth int)
	walk = func(schema *jsonv.Value, prefix, around string, depth int) {
		required := requiredNames(schema)
		props := properties(schema)
		names := make([]string, len(props))
		for i, p := range props {
			names[i] = p.Key
		}
		for _, p := range props {
			if !slices.Contains(required, p.Key) {
				continue
			}
			if depth < maxFieldDepth {
				inner := p.Value
				if typeOf(inner) == "array" {
					inner = inner.Get("items")
				}
				if inner.Is(jsonv.Object) && inner.Get("properties").Is(jsonv.Object) {
					walk(inner, prefix+p.Key+".", around+"\n"+descOf(p.Value)+"\n"+descOf(inner), depth+1)
					continue
				}
			}
			visit(requiredField{Path: prefix + p.Key, Key: p.Key, Schema: p.Value, Siblings: names, Around: around})
		}
	}
	walk(schema, "", "", 0)
}

// fieldWord is what a finding calls a required value at path: a
// parameter at the top, a field inside one.
func fieldWord(path string) string {
	if strings.Contains(path, ".") {
		return "required field"
	}
	return "required parameter"
}

// maxFieldDepth bounds how deep requiredFields follows required object
// fields: data.name.lang is three.
const maxFieldDepth = 4

// unclearRequired reports a required parameter or field that has no
// description of its own and whose name does not say what it takes.
func unclearRequired(t *catalog.Tool, f requiredField) (Finding, bool) {
	s := f.Schema
	w := wordsOf(f.Key)
	unclear := unclearName(w)
	if !unclear || s.Has("title") ||
		hasAny(s, "enum", "const", "format", "pattern", "examples", "example", "default", "$ref", "oneOf", "anyOf", "allOf") {
		return Finding{}, false
	}
	typ := typeOf(s)
	if typ == "boolean" || typ == "object" || typ == "array" || shapeless(s) || !restates(descOf(s), f.Key, t.Name) {
		return Finding{}, false
	}
	// A key, a value or a uri described by its tool's object (the key of
	// a KV pair, the value of a secret) says what it is; a model, a
	// prefix or a type so described still lists nothing.
	if descOf(s) != "" && !slices.Contains(pickedNames, w[len(w)-1]) {
		return Finding{}, false
	}
	// The tool's description, or an enclosing field's, may show it:
	// "edges: [{ source: 'node1', target: 'node2' }]".
	if mentions(t.Description, f.Key) || f.Around != "" && mentions(f.Around, f.Key) || valuesUnexplained(f.Key, s, t.Name) || pairHalf(f.Key, f.Siblings) || keyOfTool(f.Key, t.Name) {
		return Finding{}, false
	}
	if q, ok := QuantityOf(f.Key, s, f.Siblings); ok && q.Unstated {
		return Finding{}, false // quantity-unit-unstated says it
	}
	return Finding{Severity: SeverityWarn, Param: f.Path,
		Message: fmt.Sprintf("%s '%s' %s, and its name does not say what to send: say what kind of value it is and where the model gets it", fieldWord(f.Path), f.Path, saysOfIt(descOf(s)))}, true
}

// pairHalf reports whether key is one half of a key and value pair
// beside the other (an environment variable's key and value, a tag's
// name and value): together they say what each takes.
func pairHalf(key string, siblings []string) bool {
	other := map[string]string{"key": "value", "name": "value", "value": "key"}[strings.ToLower(key)]
	return other != "" && slices.ContainsFunc(siblings, func(s string) bool { return strings.EqualFold(s, other) })
}

// keyedThings are what a key is the well-known string of: a license
// key, an API key, an SSH key.
var keyedThings = []string{"license", "licenses", "licence", "licences", "api", "ssh", "gpg", "pgp", "encryption", "activation", "product", "deploy", "signing"}

// keyOfTool reports whether a bare key belongs to what its tool's name
// acts on, and so is that thing's familiar key: licenses-validate's key
// is the license key.
func keyOfTool(key, tool string) bool {
	return strings.EqualFold(key, "key") && nameHas(tool, keyedThings...)
}

// restates reports whether a parameter's description says nothing beyond
// its own name and its tool's ("The severity of the incident" on
// create_incident's severity), or there is none.
func restates(desc, key, tool string) bool {
	if desc == "" {
		return true
	}
	if strings.ContainsAny(desc, "0123456789\"'`:(") {
		return false
	}
	name := key + " " + tool
	for _, w := range wordsOf(key) {
		if long, ok := abbreviations[w]; ok {
			name += " " + long
		}
	}
	told := slices.DeleteFunc(toldWords(desc, name), func(w string) bool { return slices.Contains(emptyWords, w) })
	return len(told) == 0
}

// abbreviations spell out the short names parameters go by: "Language"
// only restates lang.
var abbreviations = map[string]string{"lang": "language", "desc": "description", "org": "organization", "repo": "repository",
	"env": "environment", "config": "configuration", "info": "information", "msg": "message", "addr": "address", "dir": "directory",
	"ref": "reference", "num": "number", "qty": "quantity", "src": "source", "dst": "destination", "dest": "destination", "tz": "timezone"}

// emptyWords say nothing of a value: "the model to use".
var emptyWords = []string{"use", "used", "using", "specify", "specified", "which", "want", "wants", "you", "should", "will", "be", "can"}

// saysOfIt says what a parameter's description gives: none, or its name.
func saysOfIt(desc string) string {
	if desc == "" {
		return "has no description"
	}
	return fmt.Sprintf("is described only by its name (%s)", excerpt(desc, 60))
}

// normDesc is a description as compared for copying: lower case, its
// words joined by single spaces.
func normDesc(d string) string { return strings.Join(wordsOf(d), " ") }

// describes reports whether description words d hold every word of the
// name key (of three letters or more), that is, the text is about key.
func describes(d []string, key string) bool {
	n := 0
	for _, w := range wordsOf(key) {
		if len(w) < 3 {
			continue
		}
		if !slices.Contains(d, w) {
			return false
		}
		n++
	}
	return n > 0
}

// idWords are the ways of saying "identifier".
var idWords = []string{"id", "ids", "uuid", "uid", "identifier", "guid"}

// mentionsAny reports whether description words d hold a word of key
// (any way of saying id counting as one).
func mentionsAny(d []string, key string) bool {
	return slices.ContainsFunc(wordsOf(key), func(w string) bool {
		return slices.Contains(d, w) || slices.Contains(idWords, w) && slices.ContainsFunc(d, func(x string) bool { return slices.Contains(idWords, x) })
	})
}

// DescriptionCopiedRule flags a parameter whose description is a
// sibling parameter's word for word, where the text names that sibling
// and nothing of this one: an "end" described as "Start of the time
// range", a latitude described as the user's longitude.
func DescriptionCopiedRule() Rule {
	return Rule{
		ID:       RuleDescriptionCopied,
		Severity: SeverityWarn,
		// Two findings over 6,160 tools, one of them true: too few to
		// measure, so opt-in (docs/rules.md).
		Tier:    TierOptIn,
		Summary: "a parameter description copied from a sibling parameter, describing that one",
		Teaching: Teaching{
			Why:    "Descriptions get copied from one parameter to the next and not edited: a latitude described as \"User's longitude\", an end bound described as the start. The model believes the description over the name and sends the wrong value, or cannot tell the two apart.",
			Fix:    "Write the parameter its own description: what it is, in which form, and how it differs from the one it was copied from.",
			Before: `"latitude": {"type": "string", "description": "User's longitude (optional)"}, "longitude": {"type": "string", "description": "User's longitude (optional)"}`,
			After:  `"latitude": {"type": "string", "description": "User's latitude in decimal degrees, e.g. 40.71 (optional)"}, "longitude": {"type": "string", "description": "User's longitude in decimal degrees, e.g. -74.01 (optional)"}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			props := properties(t.Schema)
			norm := make([]string, len(props))
			for i, p := range props {
				norm[i] = normDesc(descOf(p.Value))
			}
			for i, p := range props {
				words := strings.Fields(norm[i])
				if len(words) < 2 || mentionsAny(words, p.Key) {
					continue
				}
				j := slices.IndexFunc(props, func(q jsonv.Member) bool { return q.Key != p.Key && describes(words, q.Key) })
				if j < 0 || norm[j] != norm[i] {
					continue
				}
				other := props[j].Key
				out = append(out, Finding{Severity: SeverityWarn, Param: p.Key, Params: []string{p.Key, other},
					Message: fmt.Sprintf("parameter '%s' has the description of its sibling '%s' word for word (%s), which names '%s' and nothing of '%s': write it its own", p.Key, other, excerpt(descOf(p.Value), 60), other, p.Key)})
			}
			return out
		},
	}
}
