package lint

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/similarity"
	"toolscope/core/textutil"
	"toolscope/core/tokens"
	"toolscope/core/validate"
	"toolscope/internal/par"
)

// Rule is one structural check. Rules are values: build them with their
// factories to tune them, and leave them out (Options.Disabled) to switch
// them off.
type Rule struct {
	// ID is stable and kebab-case; findings and --disable use it.
	ID string `json:"id"`
	// Severity is the most severe finding the rule gives.
	Severity Severity `json:"severity"`
	// Summary is one line saying what the rule catches.
	Summary  string   `json:"summary"`
	Teaching Teaching `json:"teaching"`
	// Tier says which rule sets run the rule (rulesets.go).
	Tier Tier `json:"tier"`
	// Check inspects one tool with the catalog as context. It fills
	// Severity, Message and, when they apply, Param and Suggestion; the
	// engine fills the rest. It must not panic on any schema.
	Check func(t *catalog.Tool, c *Context) []Finding `json:"-"`
}

// Teaching is what the explorer and `toolscope rules` show for a rule.
type Teaching struct {
	Why    string `json:"why"`
	Fix    string `json:"fix"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// Context is what a rule sees of the catalog beyond its tool.
type Context struct {
	Catalog *catalog.Catalog
	// first maps each name to the catalog index of its first tool.
	first map[string]int
	// distinct numbers each first-of-its-name tool from 0, in order; -1
	// for a later duplicate.
	distinct []int
	// Distinct is how many distinct names the catalog has.
	Distinct int
	// patterns bounds the compiling of the catalog's patterns, all rules
	// and tools together.
	patterns *validate.PatternBudget
	// common holds the parameter names most tools repeat, worked out on
	// first use (commonParams).
	commonOnce sync.Once
	common     map[string]bool
	// meter counts definitions' tokens; measured, when set, gives every
	// tool's count made beside the rules (Measure), in catalog order,
	// when it is done.
	meter    *tokens.Meter
	measured func() *tokens.Catalog
	// qualified are the tools each host qualifies into each name
	// (qualifiedNames), worked out once whichever rule asks first.
	qualifiedOnce sync.Once
	qualified     []map[string][]int
	// served are the tools of each served name (servedNames).
	servedOnce sync.Once
	served     map[string][]int
}

// TokensOver counts the catalog's tool definitions under o200k_base, in
// catalog order, until the running total passes limit: counting is the
// meter's cost, and a catalog over the limit needs no more to be told so.
// counted is the total so far (the whole catalog's when over is false),
// tools how many were counted, and longest the largest of those. The
// definitions are counted in batches that double, the first 32 tools,
// then 64, so a catalog far over the limit costs little more than the
// tools that take it over.
func (c *Context) TokensOver(limit int) (counted, tools int, over bool, longest tokens.Tool) {
	if m := c.counts(); m != nil {
		// Counted beside the rules (Measure): read in the same order.
		for _, t := range m {
			counted += t.O200k
			tools++
			if t.O200k > longest.O200k {
				longest = tokens.Tool{Name: t.Name, O200k: t.O200k}
			}
			if counted > limit {
				return counted, tools, true, longest
			}
		}
		return counted, tools, false, longest
	}
	meter := c.meter
	if meter == nil {
		meter = tokens.NewMeter(nil)
	}
	all := c.Catalog.Tools
	for start, size := 0, 32; start < len(all); start, size = start+size, size*2 {
		batch := all[start:min(start+size, len(all))]
		counts, err := meter.Counts(tokens.O200k, tokens.Definitions(batch))
		if err != nil {
			panic("lint: " + err.Error()) // o200k_base is embedded
		}
		for i, t := range batch {
			n := counts[i]
			counted += n
			tools++
			if n > longest.O200k {
				longest = tokens.Tool{Name: t.Name, O200k: n}
			}
			if counted > limit {
				return counted, tools, true, longest
			}
		}
	}
	return counted, tools, false, longest
}

func newContext(cat *catalog.Catalog) *Context {
	c := &Context{Catalog: cat, first: make(map[string]int, len(cat.Tools)), distinct: make([]int, len(cat.Tools)),
		patterns: validate.NewPatternBudget(validate.LintPatternChars, validate.LintPatternTime)}
	for i, t := range cat.Tools {
		if _, dup := c.first[t.Name]; dup {
			c.distinct[i] = -1
			continue
		}
		c.first[t.Name] = i
		c.distinct[i] = c.Distinct
		c.Distinct++
	}
	return c
}

// counts are the tools' counts made beside the rules, nil when none
// were made for this catalog.
func (c *Context) counts() []tokens.Tool {
	if c.measured == nil {
		return nil
	}
	if m := c.measured(); m != nil && len(m.Tools) == len(c.Catalog.Tools) {
		return m.Tools
	}
	return nil
}

// IsDuplicate reports whether t repeats the name of an earlier tool.
func (c *Context) IsDuplicate(t *catalog.Tool) bool { return c.distinct[t.Index] < 0 }

// DistinctIndex is t's place among the tools with distinct names, -1 for
// a later duplicate.
func (c *Context) DistinctIndex(t *catalog.Tool) int { return c.distinct[t.Index] }

// Structural runs the enabled rules over every tool. A tool repeating an
// earlier tool's name gets only the duplicate-name finding: it is left out
// of the analysis as it is of similarity. Findings come in catalog order,
// then rule order, then the order the rule found them (file order).
//
// The rules that cost the most or read the Context in catalog order
// (asideRules) run on a goroutine of their own, in catalog order; the
// others run on spans of the tools, on as many goroutines as there are
// processors. Every share's findings are put back in catalog and rule
// order, so the result is the one a single pass gives.
func Structural(cat *catalog.Catalog, opts Options) []Finding {
	rules := EnabledRules(opts.Rules, opts.Disabled)
	c := newContext(cat)
	c.meter = opts.Tokens
	c.measured = opts.measured
	side := newAsideRun(rules, len(cat.Tools))
	done := make(chan struct{})
	go func() {
		defer close(done)
		side.run(rules, cat.Tools, c)
	}()
	// found[t*len(rules)+r] is how many findings rule r made on tool t,
	// for the rules run in spans.
	var found []int
	if side.count > 0 {
		found = make([]int, len(cat.Tools)*len(rules))
	}
	size := spanTools
	if side.count == 0 {
		size = max(len(cat.Tools), 1) // a small catalog: one span
	}
	spans := make([][]Finding, (len(cat.Tools)+size-1)/size)
	progress := newRulesProgress(opts.Progress, len(cat.Tools))
	par.Chunks(len(cat.Tools), size, func(lo, hi int) {
		var out []Finding
		for i := lo; i < hi; i++ {
			progress.tool(i)
			t := cat.Tools[i]
			for ri, r := range rules {
				if side.aside[ri] {
					continue
				}
				n := len(out)
				out = check(out, r, t, c)
				if found != nil {
					found[i*len(rules)+ri] = len(out) - n
				}
			}
		}
		spans[lo/size] = out
	})
	out := slices.Concat(spans...)
	<-done
	if side.count == 0 {
		return finishFixes(cat, out)
	}
	return finishFixes(cat, side.merge(rules, len(cat.Tools), out, found))
}

// spanTools is how many tools a goroutine of Structural takes at a time.
const spanTools = 32

// rulesProgress says, from the goroutines of a Structural run, how many
// tools the rules have reached, every 1,024th, one call at a time.
type rulesProgress struct {
	mu    sync.Mutex
	say   func(similarity.Progress)
	total int
}

func newRulesProgress(say func(similarity.Progress), total int) *rulesProgress {
	return &rulesProgress{say: say, total: total}
}

func (p *rulesProgress) tool(i int) {
	if p.say == nil || i%1024 != 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.say(similarity.Progress{Stage: StageRules, Done: i, Total: p.total})
}

// asideRun is the aside rules' share of a Structural run: which of the
// enabled rules run aside, and what each found on each tool.
type asideRun struct {
	aside []bool // by the enabled rules' order
	count int    // how many run aside
	// found[t*count+k] is what the k-th aside rule found on tool t.
	found [][]Finding
}

// newAsideRun picks the aside rules among rules; a catalog of fewer than
// asideFrom tools runs none aside.
func newAsideRun(rules []Rule, tools int) *asideRun {
	a := &asideRun{aside: make([]bool, len(rules))}
	for i, r := range rules {
		if asideRules[r.ID] {
			a.aside[i] = true
			a.count++
		}
	}
	if a.count == 0 || tools < asideFrom {
		clear(a.aside)
		a.count = 0
	}
	a.found = make([][]Finding, tools*a.count)
	return a
}

// run checks every tool against the aside rules, in catalog order.
func (a *asideRun) run(rules []Rule, tools []*catalog.Tool, c *Context) {
	if a.count == 0 {
		return
	}
	for i, t := range tools {
		k := 0
		for ri, r := range rules {
			if a.aside[ri] {
				a.found[i*a.count+k] = check(nil, r, t, c)
				k++
			}
		}
	}
}

// merge puts the aside rules' findings back among out, the other rules'
// (found[t*len(rules)+r] of them by rule r on tool t), in catalog order
// then rule order, as a single pass gives them.
func (a *asideRun) merge(rules []Rule, tools int, out []Finding, found []int) []Finding {
	merged := make([]Finding, 0, len(out))
	next := 0
	for i := range tools {
		k := 0
		for ri := range rules {
			if a.aside[ri] {
				merged = append(merged, a.found[i*a.count+k]...)
				k++
				continue
			}
			n := found[i*len(rules)+ri]
			merged = append(merged, out[next:next+n]...)
			next += n
		}
	}
	return merged
}

// asideRules are the rules Structural runs in catalog order, beside the
// others: the tool-poisoning rule, which takes most of the rules' time,
// and the rules whose Context reads depend on that order (the pattern
// rule's compile budget, spent tool by tool; the token rule, on the last
// tool, reading the counts).
var asideRules = map[string]bool{RuleToolPoisoning: true, RulePatternNotECMA: true, RuleCatalogTokens: true}

// asideFrom is the catalog size from which the aside rules get their own
// goroutine.
const asideFrom = 64

// check appends what rule r finds on tool t to dst, each finding labelled
// and located.
func check(dst []Finding, r Rule, t *catalog.Tool, c *Context) []Finding {
	if c.IsDuplicate(t) && r.ID != RuleDuplicateName {
		return dst
	}
	for _, f := range r.Check(t, c) {
		f.Rule, f.Tool, f.ToolIndex = r.ID, t.Name, t.Index
		locate(&f, t)
		dst = append(dst, f)
	}
	return dst
}

// EnabledRules returns rules without those whose id is in disabled.
func EnabledRules(rules []Rule, disabled []string) []Rule {
	var out []Rule
	for _, r := range rules {
		if !slices.Contains(disabled, r.ID) {
			out = append(out, r)
		}
	}
	return out
}

// The ids of the built-in rules.
const (
	RuleDuplicateName      = "duplicate-name"
	RuleDescription        = "description-missing-or-short"
	RuleSaysWhatNotWhen    = "says-what-not-when"
	RuleEnumInProse        = "enum-in-prose"
	RuleOptionalParam      = "optional-param-undocumented"
	RuleNameLimits         = "name-provider-limits"
	RuleSchemaNotObject    = "schema-not-object"
	RuleRequiredUndeclared = "required-undeclared"
	RuleEnumTypeMismatch   = "enum-type-mismatch"
	RuleTooManyTools       = "too-many-tools"
	RuleDuplicateJSONKey   = "duplicate-json-key"
	RulePatternNotECMA     = "pattern-not-ecma"
	RuleDeclarationRefused = "declaration-refused"
	RuleTypeNotAName       = "type-not-a-name"
	RuleCatalogTokens      = "catalog-tokens"
	RuleInputExample       = "input-example-invalid"
)

// DuplicateNameRule flags a tool that repeats an earlier tool's name.
func DuplicateNameRule() Rule {
	return Rule{
		ID:       RuleDuplicateName,
		Severity: SeverityError,
		Summary:  "two tools share a name",
		Teaching: Teaching{
			Why: "A model calls a tool by name. With two tools under one name it cannot address either reliably, and the later one is usually dropped or overrides the first depending on the client. toolscope keeps the first and leaves the others out of the analysis.",
			Fix: "Rename one of them after what sets it apart, or merge them into one tool with a parameter for the difference.",
			Before: `[{"name": "search", "description": "Search issues."},
 {"name": "search", "description": "Search pull requests."}]`,
			After: `[{"name": "search_issues", "description": "Search issues."},
 {"name": "search_pull_requests", "description": "Search pull requests."}]`,
		},
		Check: func(t *catalog.Tool, c *Context) []Finding {
			if !c.IsDuplicate(t) {
				return nil
			}
			first := c.Catalog.Tools[c.first[t.Name]]
			return []Finding{{Severity: SeverityError,
				Message: fmt.Sprintf("another tool already has this name (%s, line %d): the model cannot address them distinctly", first.Entry, first.Pos.Line)}}
		},
	}
}

// DefaultMinDescriptionChars is the description length below which
// description-missing-or-short warns.
const DefaultMinDescriptionChars = 40

// DescriptionRule: no description is an error, one shorter than minChars
// (UTF-16 code units, as the reference counts) a warning.
func DescriptionRule(minChars int) Rule {
	return Rule{
		ID:       RuleDescription,
		Severity: SeverityError,
		Summary:  "no description, or one too short to tell the tool from its siblings",
		Teaching: Teaching{
			Why:    "The description is most of what a model reads when it picks a tool. Without one it can only guess from the name; a few words rarely say enough to choose between two siblings.",
			Fix:    fmt.Sprintf("Write at least %d characters: what the tool does, what it returns, and when to pick it over its neighbours.", minChars),
			Before: `{"name": "get_volume", "description": "Gets a volume."}`,
			After:  `{"name": "get_volume", "description": "Returns one volume's size, pool and state by id. Use after list_volumes when you already know the id."}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			d := textutil.JSTrim(t.Description)
			n := textutil.UTF16Len(d)
			switch {
			case n == 0:
				return []Finding{{Severity: SeverityError, Message: "the tool has no description: the model can only guess from its name"}}
			case n < minChars:
				return []Finding{{Severity: SeverityWarn, Message: fmt.Sprintf("the description is %d characters (under %d): too short to tell this tool from its siblings", n, minChars)}}
			}
			return nil
		},
	}
}

// DefaultWhenCues are words that suggest a description says when to use
// the tool.
var DefaultWhenCues = []string{"for", "when", "after", "first", "fallback", "only"}

// SaysWhatNotWhenRule warns when a description has none of cues as a whole
// word (case-insensitive). A tool without a description is the
// description rule's business.
func SaysWhatNotWhenRule(cues []string) Rule {
	quoted := quoteAll(cues)
	return Rule{
		ID:       RuleSaysWhatNotWhen,
		Severity: SeverityWarn,
		Summary:  "the description says what the tool returns, never when to pick it",
		Teaching: Teaching{
			Why:    "Twin tools are confused when each description says what it returns and neither says when it is the right call. The model needs the choice condition: which situation, which data source, which step in a sequence.",
			Fix:    "Add the condition in words the model can match: \"Use when ...\", \"Call first ...\", \"Only for ...\", \"Fallback if ...\".",
			Before: `{"name": "get_fcns_database", "description": "FC name server registrations."}`,
			After:  `{"name": "get_fcns_database", "description": "FC name server registrations, live from the switch. Use when the question is about the fabric right now; for history use influx_get_fcns_database."}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			d := textutil.JSTrim(t.Description)
			if d == "" || hasAnyWord(d, cues) {
				return nil
			}
			return []Finding{{Severity: SeverityWarn,
				Message: fmt.Sprintf("the description says what the tool does but not when to use it (none of %s): add the choice condition, e.g. \"Use when ...\", \"Call first\", \"Fallback if ...\"", quoted)}}
		},
	}
}

func hasAnyWord(text string, words []string) bool {
	low := strings.ToLower(text)
	for _, w := range words {
		if textutil.HasWholeWordLower(low, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + w + "'"
	}
	return strings.Join(q, ", ")
}

// DefaultValueMarkers introduce a comma list of legal values in prose.
var DefaultValueMarkers = []string{"one of", "allowed values", "allowed value", "valid values", "valid value", "options", "values"}

// jsSpaceClass is JavaScript's \s as a Go regexp class.
const jsSpaceClass = `[\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}]`

// identPattern is a literal value as prose lists it.
const identPattern = `[A-Za-z][A-Za-z0-9_.-]*`

// pipeList is two or more pipe-separated literals: `a | b | c`.
var pipeList = regexp.MustCompile(identPattern + `(?:` + jsSpaceClass + `*\|` + jsSpaceClass + `*` + identPattern + `)+`)

// caseless spells s as a pattern matching it in any ASCII case (and only
// ASCII: Go's (?i) would also fold 'ſ' into 's', JavaScript's does not).
func caseless(s string) string {
	var b strings.Builder
	for _, r := range s {
		lo, up := strings.ToLower(string(r)), strings.ToUpper(string(r))
		if lo != up && len(lo) == 1 && len(up) == 1 {
			b.WriteString("[" + lo + up + "]")
		} else {
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	return b.String()
}

// commaListPattern matches a comma list of literals behind one of markers,
// capturing the list.
func commaListPattern(markers []string) *regexp.Regexp {
	alts := make([]string, len(markers))
	for i, m := range markers {
		alts[i] = caseless(m)
	}
	// The marker must start a word: "zone of Europe, Asia" lists nothing.
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9_])(?:` + strings.Join(alts, "|") + `)` + jsSpaceClass + `*:?` + jsSpaceClass + `*(` +
		identPattern + `(?:` + jsSpaceClass + `*,` + jsSpaceClass + `*` + identPattern + `)+)`)
}

// EnumInProseRule warns about a string (or untyped) parameter without enum
// whose description lists its legal values as `a | b | c`, or as a comma
// list behind one of markers ("one of: a, b, c"), and suggests the enum.
func EnumInProseRule(markers []string) Rule {
	commaList := commaListPattern(markers)
	return Rule{
		ID:       RuleEnumInProse,
		Severity: SeverityWarn,
		Summary:  "a parameter lists its legal values in prose instead of an enum",
		Teaching: Teaching{
			Why:    "A model picks reliably from an enum and validators can enforce one; values listed in a sentence are a guess for the model and invisible to validation.",
			Fix:    "Declare the values as a JSON Schema enum and keep the description for what each one means.",
			Before: `"metric": {"type": "string", "description": "avg_iops | peak_iops | mbps"}`,
			After:  `"metric": {"type": "string", "enum": ["avg_iops", "peak_iops", "mbps"], "description": "Which figure to rank ports by."}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			for _, p := range properties(t.Schema) {
				if p.Value.Has("enum") {
					continue
				}
				if typ := p.Value.Get("type"); typ != nil && !(typ.Kind == jsonv.String && typ.Text == "string") {
					continue
				}
				desc, _ := p.Value.Get("description").Str()
				if desc == "" {
					continue
				}
				literals := proseLiterals(desc, commaList)
				if literals == nil {
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

// proseLiterals finds the legal values a description lists, or nil.
// Each list holds its separator, so a description without one is not
// searched for that list.
func proseLiterals(desc string, commaList *regexp.Regexp) []string {
	if strings.IndexByte(desc, '|') >= 0 {
		if m := pipeList.FindString(desc); m != "" {
			return trimAll(strings.Split(m, "|"))
		}
	}
	if strings.IndexByte(desc, ',') < 0 {
		return nil
	}
	if m := commaList.FindStringSubmatch(desc); m != nil {
		return trimAll(strings.Split(m[1], ","))
	}
	return nil
}

// trimAll trims each literal, and the full stop that ends the sentence a
// list closes ("one of a | b | c." lists c, not "c.").
func trimAll(parts []string) []string {
	for i, p := range parts {
		parts[i] = strings.TrimRight(textutil.JSTrim(p), ".")
	}
	return parts
}

// excerpt quotes at most n code points of s, marking a cut with "…".
func excerpt(s string, n int) string { return jsonv.Quote(cut(s, n)) }

// cut shortens s to at most n code points, marking a cut with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// DefaultOmissionCues are words that say what leaving a parameter out means.
var DefaultOmissionCues = []string{"optional", "default", "defaults", "omit", "omitted", "if not", "when not", "absent", "all", "entire", "every", "fallback"}

// OptionalParamRule warns about an optional parameter with no description,
// or one that never says (none of cues) what leaving it out means.
func OptionalParamRule(cues []string) Rule {
	return Rule{
		ID:       RuleOptionalParam,
		Severity: SeverityWarn,
		Summary:  "an optional parameter never says what leaving it out means",
		Teaching: Teaching{
			Why:    "Leaving an optional parameter out usually means something: all switches instead of one, the last hour, the default pool. The model can only reason about omitting it if the description says so.",
			Fix:    "Say what omission does: \"Optional; defaults to ...\", \"Omit for all ...\", \"If not given, ...\".",
			Before: `"switch_name": {"type": "string", "description": "The switch."}`,
			After:  `"switch_name": {"type": "string", "description": "The switch to read. Omit for a fabric-wide sweep of all switches."}`,
		},
		Check: func(t *catalog.Tool, _ *Context) []Finding {
			var out []Finding
			required := requiredNames(t.Schema)
			for _, p := range properties(t.Schema) {
				if slices.Contains(required, p.Key) {
					continue
				}
				desc, _ := p.Value.Get("description").Str()
				desc = textutil.JSTrim(desc)
				switch {
				case desc == "":
					out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
						Message: fmt.Sprintf("optional parameter '%s' has no description: say what happens when it is left out (a default? a wider scope?)", p.Key)})
				case !hasAnyWord(desc, cues):
					out = append(out, Finding{Severity: SeverityWarn, Param: p.Key,
						Message: fmt.Sprintf("optional parameter '%s' never says what leaving it out means: add e.g. \"optional, defaults to ...\" or \"omit for all ...\"", p.Key)})
				}
			}
			return out
		},
	}
}

// properties lists a schema's properties whose schemas are objects, in
// file order; anything malformed lists nothing.
func properties(schema *jsonv.Value) []jsonv.Member {
	props := schema.Get("properties")
	if !props.Is(jsonv.Object) {
		return nil
	}
	// Most schemas' properties are all objects: then they are handed out
	// as they stand, capped so that an append copies them.
	all := props.Members[:len(props.Members):len(props.Members)]
	for k, m := range all {
		if !m.Value.Is(jsonv.Object) {
			var out []jsonv.Member
			out = append(out, all[:k]...)
			for _, m := range all[k+1:] {
				if m.Value.Is(jsonv.Object) {
					out = append(out, m)
				}
			}
			return out
		}
	}
	if len(all) == 0 {
		return nil
	}
	return all
}

// requiredNames lists the strings of a schema's required array.
func requiredNames(schema *jsonv.Value) []string {
	req := schema.Get("required")
	if !req.Is(jsonv.Array) {
		return nil
	}
	var out []string
	for _, r := range req.Items {
		if s, ok := r.Str(); ok {
			out = append(out, s)
		}
	}
	return out
}
