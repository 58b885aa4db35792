package lint

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/declare"
	"toolscope/core/jsonv"
	"toolscope/core/validate"
)

// The providers' name rules: OpenAI and Anthropic accept
// ^[a-zA-Z0-9_-]{1,64}$, MCP's naming guidance ^[A-Za-z0-9._-]{1,128}$.
var (
	openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	mcpName    = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)
)

// strictFormat reports whether t came in a provider's own shape, whose API
// rejects what breaks its rules (an MCP list may be served to any client).
func strictFormat(t *catalog.Tool) bool {
	switch t.Format {
	case catalog.FormatOpenAIChat, catalog.FormatOpenAIResponses, catalog.FormatAnthropic:
		return true
	}
	return false
}

// NameLimitsRule checks a tool's name against the providers' name rules: an
// error when no provider accepts it, or when the tool's own provider does
// not; a warning when only MCP clients would pass it through.
func NameLimitsRule() Rule {
	return Rule{
		ID:       RuleNameLimits,
		Severity: SeverityError,
		Summary:  "the tool name breaks a provider's name rule",
		Teaching: Teaching{
			Why:    "OpenAI and Anthropic reject the whole request when one tool name is outside ^[a-zA-Z0-9_-]{1,64}$, and MCP's naming guidance allows only ^[A-Za-z0-9._-]{1,128}$. A name with a dot, a space or 70 characters works with one client and fails with the next.",
			Fix:    "Use letters, digits, `_` and `-` only, at most 64 characters.",
			Before: `{"name": "math.factorial"}`,
			After:  `{"name": "math_factorial"}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			if openAIName.MatchString(t.Name) {
				return nil
			}
			f := Finding{Severity: SeverityError}
			// A name over the limit needs a shorter one the author picks: a
			// cut is no name; a character swap is mechanical.
			if to := portableName(t.Name); len([]rune(t.Name)) <= 64 {
				f.Suggestion, f.Fix = `"name": `+jsonv.Quote(to), renameFix(t, to)
			} else {
				f.Suggestion = "a shorter name: at most 64 characters"
			}
			switch {
			case !mcpName.MatchString(t.Name):
				f.Message = fmt.Sprintf("name %s is outside every provider's name rule (letters, digits, '_', '-', at most 64 characters)", jsonv.Quote(t.Name))
			case strictFormat(t):
				f.Message = fmt.Sprintf("name %s breaks %s's name rule ^[a-zA-Z0-9_-]{1,64}$: the API rejects the request", jsonv.Quote(t.Name), providerOf(t))
			default:
				f.Severity = SeverityWarn
				f.Message = fmt.Sprintf("name %s is fine for MCP but OpenAI and Anthropic reject it (^[a-zA-Z0-9_-]{1,64}$)", jsonv.Quote(t.Name))
			}
			return []Finding{f}
		},
	}
}

func providerOf(t *catalog.Tool) string {
	if t.Format == catalog.FormatAnthropic {
		return "Anthropic"
	}
	return "OpenAI"
}

// portableName is the closest name every provider accepts.
func portableName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 0x80 && (r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
		if b.Len() == 64 {
			break
		}
	}
	if b.Len() == 0 {
		return "tool"
	}
	return b.String()
}

// SchemaNotObjectRule: providers want a tool's input schema to be an object
// schema (type "object"). A tool without a schema takes no arguments and
// passes.
func SchemaNotObjectRule() Rule {
	return Rule{
		ID:       RuleSchemaNotObject,
		Severity: SeverityError,
		Summary:  "the input schema is not an object schema",
		Teaching: Teaching{
			Why:    "Arguments arrive as one JSON object, and OpenAI, Anthropic and MCP all require the input schema to say type \"object\". Another root type, or none, is rejected by some clients and leaves the model guessing with the rest.",
			Fix:    "Make the root {\"type\": \"object\"} and put the arguments under properties.",
			Before: `"inputSchema": {"type": "string"}`,
			After:  `"inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			s := t.Schema
			if s == nil {
				return nil
			}
			var msg string
			typ := s.Get("type")
			switch {
			case !s.Is(jsonv.Object):
				msg = fmt.Sprintf("the input schema is %s, not an object schema", s.TypeName())
			case typ == nil:
				msg = "the input schema has no type: providers want \"type\": \"object\" at the root"
			case typ.Kind != jsonv.String || typ.Text != "object":
				msg = fmt.Sprintf("the input schema's type is %s, not \"object\": arguments always arrive as one object", typ.JSON())
			default:
				return nil
			}
			return []Finding{{Severity: SeverityError, Message: msg}}
		},
	}
}

// walkSchemas calls visit for schema and every object schema nested under
// its properties and items, with the parameter path ("" for the root).
func walkSchemas(schema *jsonv.Value, path string, visit func(node *jsonv.Value, path string)) {
	if !schema.Is(jsonv.Object) {
		return
	}
	visit(schema, path)
	for _, p := range properties(schema) {
		walkSchemas(p.Value, joinParam(path, p.Key), visit)
	}
	walkSchemas(schema.Get("items"), path+"[]", visit)
}

func joinParam(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// RequiredUndeclaredRule flags a required name that the same object schema
// does not declare under properties: the model is told to send an argument
// it knows nothing about. A non-empty patternProperties may declare it, so
// such objects are left alone.
func RequiredUndeclaredRule() Rule {
	return Rule{
		ID:       RuleRequiredUndeclared,
		Severity: SeverityError,
		Summary:  "required names a property the schema does not declare",
		Teaching: Teaching{
			Why:    "A required argument with no declaration has no type and no description: the model must send it but cannot know what it is, and with additionalProperties false no call can ever be valid.",
			Fix:    "Declare the property (type and description), or take it out of required; check for a typo between the two lists.",
			Before: `{"type": "object", "properties": {"volume_id": {"type": "string"}}, "required": ["volumeId"]}`,
			After:  `{"type": "object", "properties": {"volume_id": {"type": "string"}}, "required": ["volume_id"]}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			walkSchemas(t.Schema, "", func(node *jsonv.Value, path string) {
				if pp := node.Get("patternProperties"); pp != nil && !(pp.Is(jsonv.Object) && len(pp.Members) == 0) {
					return
				}
				props := node.Get("properties")
				for _, name := range requiredNames(node) {
					if props.Has(name) {
						continue
					}
					out = append(out, Finding{Severity: SeverityError, Param: joinParam(path, name),
						Message: fmt.Sprintf("'%s' is required but not declared under properties: the model must send it without knowing what it is", name)})
				}
			})
			return out
		},
	}
}

// maxEnumFindings is how many members of one enum enum-type-mismatch
// names one by one; the rest are counted in one finding.
const maxEnumFindings = 10

// EnumTypeMismatchRule flags enum members that the node's own declared type
// rejects: a model that picks one fails validation.
func EnumTypeMismatchRule() Rule {
	return Rule{
		ID:       RuleEnumTypeMismatch,
		Severity: SeverityError,
		Summary:  "an enum member contradicts the declared type",
		Teaching: Teaching{
			Why:    "The enum is the menu the model picks from. A member the type rejects is a trap: the model picks it and validation refuses the call.",
			Fix:    "Spell the member in the declared type (\"10\" as 10 for a number), or widen the type.",
			Before: `"limit": {"type": "integer", "enum": ["10", "50", "100"]}`,
			After:  `"limit": {"type": "integer", "enum": [10, 50, 100]}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			walkSchemas(t.Schema, "", func(node *jsonv.Value, path string) {
				enum := node.Get("enum")
				types, ok := declaredTypes(node.Get("type"))
				if !enum.Is(jsonv.Array) || !ok {
					return
				}
				var first *jsonv.Value // the first member past the named ones
				named, more := 0, 0
				for _, m := range enum.Items {
					if typeAccepts(types, m) {
						continue
					}
					if named++; named > maxEnumFindings {
						// A huge enum of the wrong type is one problem, not
						// millions of findings.
						if more++; first == nil {
							first = m
						}
						continue
					}
					out = append(out, Finding{Severity: SeverityError, Param: path, Line: m.Pos.Line, Column: m.Pos.Col,
						Message: fmt.Sprintf("enum member %s is %s, but the type is %s: a model that picks it fails validation",
							cut(m.JSON(), 40), m.ArticleType(), strings.Join(types, " or "))})
				}
				if more > 0 {
					out = append(out, Finding{Severity: SeverityError, Param: path, Line: first.Pos.Line, Column: first.Pos.Col,
						Message: fmt.Sprintf("%d more enum members contradict the type %s, from this one on", more, strings.Join(types, " or "))})
				}
			})
			return out
		},
	}
}

// TypeNotANameRule flags a type keyword, or an entry of a type union, that
// is not a string: validators ignore it, so the schema means less than it
// seems to ("type": [1, "string"] takes strings only; "type": 3 anything).
func TypeNotANameRule() Rule {
	return Rule{
		ID:       RuleTypeNotAName,
		Severity: SeverityWarn,
		Summary:  "a type keyword holds something that is not a type name",
		Teaching: Teaching{
			Why:    "A type is a name (\"string\") or a list of names. An entry that is not a string names no type: validators ignore it, so a union like [1, \"string\"] takes strings only, and a type that is a number or an object constrains nothing.",
			Fix:    "Write each type as one of object, array, string, number, integer, boolean or null, in quotes.",
			Before: `"limit": {"type": [1, "integer"]}`,
			After:  `"limit": {"type": "integer"}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			walkSchemas(t.Schema, "", func(node *jsonv.Value, path string) {
				typ := node.Get("type")
				switch {
				case typ == nil || typ.Is(jsonv.String):
				case typ.Is(jsonv.Array):
					for _, it := range typ.Items {
						if !it.Is(jsonv.String) {
							out = append(out, Finding{Severity: SeverityWarn, Param: path,
								Message: fmt.Sprintf("type %s holds %s, which is no type name: validation ignores it", cut(typ.JSON(), 60), cut(it.JSON(), 20))})
						}
					}
				default:
					out = append(out, Finding{Severity: SeverityWarn, Param: path,
						Message: fmt.Sprintf("type %s is %s, not a type name: validation ignores it and takes any value", cut(typ.JSON(), 60), typ.ArticleType())})
				}
			})
			return out
		},
	}
}

// declaredTypes reads a type keyword (a name or a list of names); ok is
// false when there is none to check against, or it names a type this rule
// does not know (an unknown type accepts anything).
func declaredTypes(typ *jsonv.Value) ([]string, bool) {
	var names []string
	switch {
	case typ.Is(jsonv.String):
		names = []string{typ.Text}
	case typ.Is(jsonv.Array):
		for _, it := range typ.Items {
			s, ok := it.Str()
			if !ok {
				return nil, false
			}
			names = append(names, s)
		}
	default:
		return nil, false
	}
	for _, n := range names {
		switch n {
		case "object", "array", "string", "number", "integer", "boolean", "null":
		default:
			return nil, false
		}
	}
	return names, len(names) > 0
}

func typeAccepts(types []string, v *jsonv.Value) bool {
	for _, t := range types {
		switch {
		case t == "integer" && v.Kind == jsonv.Number && v.IsInteger(),
			t == "number" && v.Kind == jsonv.Number,
			t == v.Kind.String():
			return true
		}
	}
	return false
}

// DefaultMaxTools is OpenAI's limit of tools per request.
const DefaultMaxTools = 128

// TooManyToolsRule flags the first tool past max distinct tools, once: a
// request carrying the whole catalog is refused (OpenAI), or the model
// chooses worse among so many.
func TooManyToolsRule(max int) Rule {
	return Rule{
		ID:       RuleTooManyTools,
		Severity: SeverityError,
		Summary:  fmt.Sprintf("more tools than OpenAI accepts in one request (%d): an error on an OpenAI or Anthropic catalog, a warning on an MCP or Gemini one", max),
		Teaching: Teaching{
			Why:    fmt.Sprintf("OpenAI refuses a request with more than %d tools, and every model chooses worse as the list grows: more near-neighbours, more tokens before the question.", max),
			Fix:    "Split the catalog by task and offer each conversation the part it needs, or merge families of tools into one tool with a parameter.",
			Before: `200 tools in one list: get_issue, get_issue_comments, get_issue_events, ...`,
			After:  `an "issues" toolset of 12 tools offered when the user works on issues, others on demand`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			if c.DistinctIndex(t) != max {
				return nil
			}
			sev := SeverityWarn
			if strictFormat(t) {
				sev = SeverityError
			}
			return []Finding{{Severity: sev,
				Message: fmt.Sprintf("the catalog has %d tools; OpenAI accepts at most %d per request, so this tool and the %d after it do not fit", c.Distinct, max, c.Distinct-max-1)}}
		},
	}
}

// DefaultMaxTokenShare is the share of a context window a catalog's
// definitions may take before catalog-tokens warns.
const DefaultMaxTokenShare = 0.10

// CatalogTokensRule warns, once, on the last tool, when the catalog's
// definitions take more than maxShare of a context window of window
// tokens (counted under o200k_base, as OpenAI's current models read
// them): every request pays them before the conversation starts.
func CatalogTokensRule(maxShare float64, window int) Rule {
	return Rule{
		ID:       RuleCatalogTokens,
		Severity: SeverityWarn,
		Summary:  fmt.Sprintf("the catalog's definitions take more than %s of a %s-token context", percent(maxShare), thousands(window)),
		Teaching: Teaching{
			Why:    "Every request carries the whole catalog: its tokens are paid on every turn, crowd out the conversation, and a long list makes the model choose worse.",
			Fix:    "Shorten the longest definitions (examples and boilerplate belong in the docs), drop tools the agent does not need, or offer the catalog in task-sized parts.",
			Before: "400 tools whose definitions take 30,000 tokens, 23% of a 128k context",
			After:  "the 60 tools of the task at hand, 4,500 tokens",
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			if c.DistinctIndex(t) != c.Distinct-1 || window <= 0 {
				return nil
			}
			limit := int(math.Floor(maxShare * float64(window)))
			if _, _, over, _ := c.TokensOver(limit); !over {
				return nil
			}
			// Over the limit, the whole catalog is counted: the message
			// says its size, not where the limit was passed.
			counted, tools, _, longest := c.TokensOver(math.MaxInt)
			return []Finding{{Severity: SeverityWarn,
				Message: fmt.Sprintf("the catalog's %d tool definitions take %s tokens (o200k_base), %s a %s-token context, over the %s allowed (%s tokens); the longest is %s (%s tokens)",
					tools, thousands(counted), ContextShare(counted, window), thousands(window), percent(maxShare), thousands(limit), longest.Name, thousands(longest.O200k))}}
		},
	}
}

// ContextShare says how much of a context window of window tokens n
// tokens take: "12% of", or "1.9×" when they pass it.
func ContextShare(n, window int) string {
	if window <= 0 {
		return "of no"
	}
	if n >= window {
		return strconv.FormatFloat(float64(n)/float64(window), 'f', 1, 64) + "×"
	}
	return percent(float64(n)/float64(window)) + " of"
}

// percent writes a share as a percentage, one decimal when under 10%.
func percent(share float64) string {
	if share < 0.1 && share != 0 {
		return strconv.FormatFloat(100*share, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(100*share, 'f', 0, 64) + "%"
}

// thousands writes n with comma-separated thousands.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// DuplicateJSONKeyRule warns about a key repeated in one object of the
// tool's entry: the last one wins, which the author rarely meant.
func DuplicateJSONKeyRule() Rule {
	return Rule{
		ID:       RuleDuplicateJSONKey,
		Severity: SeverityWarn,
		Summary:  "a key appears twice in one object of the tool's entry",
		Teaching: Teaching{
			Why:    "JSON parsers keep the last of two equal keys and drop the first silently, so half of what the author wrote never reaches the model; different parsers may even disagree.",
			Fix:    "Keep one of the two, merged.",
			Before: `"limit": {"type": "integer", "description": "Max rows.", "description": "Rows to return."}`,
			After:  `"limit": {"type": "integer", "description": "Rows to return, at most 100."}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			out := make([]Finding, 0, len(t.DuplicateKeys))
			for _, path := range t.DuplicateKeys {
				out = append(out, Finding{Severity: SeverityWarn,
					Message: fmt.Sprintf("key '%s' appears more than once in its object; only the last one counts", path)})
			}
			return out
		},
	}
}

// PatternRule warns about a `pattern` that does not compile as ECMA-262:
// validation drops it, so the constraint the author wrote is not enforced.
func PatternRule() Rule {
	return Rule{
		ID:       RulePatternNotECMA,
		Severity: SeverityWarn,
		Summary:  "a pattern does not compile as an ECMA-262 regular expression",
		Teaching: Teaching{
			Why:    "JSON Schema patterns are ECMA-262 regular expressions. One that does not compile (a Python-only (?P<name>...), .NET's inline (?i) or \\A...\\z anchors, an unbalanced bracket) is ignored by validators, so the value it was meant to constrain goes through unchecked, and a model reading it learns nothing.",
			Fix:    "Rewrite it in ECMA-262 syntax and test it against a value that should pass and one that should not.",
			Before: `"volume_id": {"type": "string", "pattern": "^(?P<prefix>vol)-[0-9a-f]{8}$"}`,
			After:  `"volume_id": {"type": "string", "pattern": "^vol-[0-9a-f]{8}$"}`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			compile := validate.CompilePattern
			if c != nil && c.patterns != nil {
				compile = c.patterns.Compile
			}
			var out []Finding
			walkSchemas(t.Schema, "", func(node *jsonv.Value, path string) {
				p, ok := node.Get("pattern").Str()
				if !ok {
					return
				}
				if _, err := compile(p); err != nil {
					reason, what := err.Error(), "does not compile as ECMA-262"
					var pe *validate.PatternError
					if errors.As(err, &pe) {
						reason = pe.Reason
						if pe.NotCompiled() {
							what = "is not compiled"
						}
					}
					out = append(out, Finding{Severity: SeverityWarn, Param: path,
						Message: fmt.Sprintf("pattern %s %s (%s): validation ignores it", excerpt(p, 60), what, reason)})
				}
			})
			return out
		},
	}
}

// DeclarationRule reports a tool whose argument declarations (askOrAssume,
// period, wants; SPEC §3) the judge refuses: they are not applied, so the
// arguments they rule run as the model sends them.
func DeclarationRule() Rule {
	return Rule{
		ID:       RuleDeclarationRefused,
		Severity: SeverityError,
		Summary:  "the tool's argument declarations are refused",
		Teaching: Teaching{
			Why:    "askOrAssume and period say what happens when the model leaves an argument out: assume a value or ask the person. A declaration that does not fit the schema (an argument it does not offer, a value its own schema rejects, an unknown spelling) is refused whole rather than repaired, so none of it applies until it is fixed.",
			Fix:    "Read the sentence: it names the argument and what is wrong. Make the declaration agree with the property's schema.",
			Before: `"unit": {"type": "string", "enum": ["ms", "s"]}  ...  "askOrAssume": {"unit": {"assume": "minutes"}}`,
			After:  `"unit": {"type": "string", "enum": ["ms", "s"]}  ...  "askOrAssume": {"unit": {"assume": "s"}}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			_, refusal := declare.Read(t)
			if refusal == nil {
				return nil
			}
			return []Finding{{Severity: SeverityError, Param: refusal.Argument,
				Message: fmt.Sprintf("declaration refused at %s: %s; none of the tool's declarations apply", refusal.Path, refusal.Reason)}}
		},
	}
}

// maxExamplesChecked bounds the input_examples one tool has validated.
const maxExamplesChecked = 20

// InputExampleRule flags an Anthropic input_example that the tool's own
// input schema refuses: the example teaches the model a call that fails.
func InputExampleRule() Rule {
	return Rule{
		ID:       RuleInputExample,
		Severity: SeverityError,
		Summary:  "an input_examples entry does not validate against the tool's input schema",
		Teaching: Teaching{
			Why: "input_examples show the model what a well-formed call looks like, and it copies them: an example the schema refuses teaches calls that fail validation (and Anthropic's API may refuse the tool definition).",
			Fix: "Make the example a call the schema accepts: the declared names and types, every required argument; or fix the schema if the example is right.",
			Before: `"input_schema": {"type": "object", "properties": {"limit": {"type": "integer"}}, "required": ["query"]},
"input_examples": [{"limit": "10"}]`,
			After: `"input_schema": {"type": "object", "properties": {"limit": {"type": "integer"}, "query": {"type": "string"}}, "required": ["query"]},
"input_examples": [{"query": "open incidents", "limit": 10}]`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			for i, ex := range t.InputExamples[:min(len(t.InputExamples), maxExamplesChecked)] {
				r := validate.Validate(ex, t.Schema)
				if r.OK || len(r.Issues) == 0 {
					continue
				}
				first := r.Issues[0]
				where := "the example"
				if first.Path != "" {
					where = "'" + first.Path + "'"
				}
				msg := fmt.Sprintf("input_examples[%d] is refused by the input schema: %s expected %s, got %s", i, where, first.Expected, first.Got)
				if n := len(r.Issues) - 1; n > 0 {
					msg += fmt.Sprintf(" (and %d more)", n)
				}
				out = append(out, Finding{Severity: SeverityError, Param: first.Path, Message: msg})
			}
			return out
		},
	}
}
