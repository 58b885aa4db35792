package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"toolscope/core/internal/testcat"
	"toolscope/core/tokens"
)

// ruleFindings runs one rule over the catalog (duplicates handled as the
// engine does) and renders each finding as "tool.param severity".
func ruleFindings(t testing.TB, rule Rule, src string) []string {
	t.Helper()
	opts := DefaultOptions()
	opts.Rules = []Rule{rule}
	var out []string
	for _, f := range Structural(testcat.Parse(t, src), opts) {
		s := f.Tool
		if f.Param != "" {
			s += "." + f.Param
		}
		s += " " + string(f.Severity)
		if f.Suggestion != "" {
			s += " " + f.Suggestion
		}
		out = append(out, s)
	}
	return out
}

func TestRules(t *testing.T) {
	cases := []struct {
		name string
		rule Rule
		src  string
		want []string
	}{
		// description-missing-or-short
		{"no description is an error", DescriptionRule(40), testcat.List(testcat.Tool("a", "-", "")), []string{"a error"}},
		{"a blank description is an error", DescriptionRule(40), testcat.List(testcat.Tool("a", " \t\u00a0\ufeff", "")), []string{"a error"}},
		{"39 characters warn", DescriptionRule(40), testcat.List(testcat.Tool("a", strings.Repeat("x", 39), "")), []string{"a warn"}},
		{"40 characters pass", DescriptionRule(40), testcat.List(testcat.Tool("a", strings.Repeat("x", 40)+"  ", "")), nil},
		{"length counts UTF-16 units like the reference", DescriptionRule(40), testcat.List(testcat.Tool("a", strings.Repeat("😀", 20), "")), nil},
		{"the minimum is configurable", DescriptionRule(80), testcat.List(testcat.Tool("a", testcat.Long, "")), []string{"a warn"}},

		// says-what-not-when
		{"no cue warns", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", testcat.Long, "")), []string{"a warn"}},
		{"cue for", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", "Use FOR history.", "")), nil},
		{"cue when", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", "Pick when stale", "")), nil},
		{"cue after", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", "Call after list_x", "")), nil},
		{"cue first", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", "Call FIRST.", "")), nil},
		{"cue fallback", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", "fallback-only", "")), nil},
		{"cue only", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", "(only) live data", "")), nil},
		{"a cue inside a word does not count", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", "before formatting firstly", "")), []string{"a warn"}},
		{"a cue next to an underscore counts (not a-z0-9)", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", "x_for_y", "")), nil},
		{"no description is the description rule's", SaysWhatNotWhenRule(DefaultWhenCues), testcat.List(testcat.Tool("a", "-", "")), nil},
		{"cues are configurable", SaysWhatNotWhenRule([]string{"prefer"}), testcat.List(testcat.Tool("a", "Use for x", ""), testcat.Tool("b", "Prefer this", "")), []string{"a warn"}},

		// enum-in-prose
		{"pipe list", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"type":"string","description":"avg_iops | peak_iops|mbps"}}}`)),
			[]string{`a.m warn "enum": ["avg_iops","peak_iops","mbps"]`}},
		{"comma list behind one of", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"description":"One of: red, green , blue."}}}`)),
			[]string{`a.m warn "enum": ["red","green","blue"]`}},
		{"allowed values", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"description":"Allowed values a, b"}}}`)), []string{`a.m warn "enum": ["a","b"]`}},
		{"valid value", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"description":"valid value: x,y"}}}`)), []string{`a.m warn "enum": ["x","y"]`}},
		{"options", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"description":"OPTIONS x, y"}}}`)), []string{`a.m warn "enum": ["x","y"]`}},
		{"values", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"description":"values: x, y"}}}`)), []string{`a.m warn "enum": ["x","y"]`}},
		{"a comma list without a marker is prose", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"description":"e.g. 1h, 24h, or 7d"}}}`)), nil},
		{"a marker inside a word is no marker", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"description":"IANA zone of Europe, Asia"}}}`)), nil},
		{"a declared enum is enough", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"type":"string","enum":["a"],"description":"a | b"}}}`)), nil},
		{"a non-string parameter is skipped", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"type":"integer","description":"a | b"}}}`)), nil},
		{"a type list is not the string type", EnumInProseRule(DefaultValueMarkers), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"type":["string","null"],"description":"a | b"}}}`)), nil},
		{"markers are configurable", EnumInProseRule([]string{"choose"}), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"m":{"description":"choose x, y; one of: p, q"}}}`)), []string{`a.m warn "enum": ["x","y"]`}},

		// optional-param-undocumented
		{"optional without description", OptionalParamRule(DefaultOmissionCues), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"p":{"type":"string"}}}`)), []string{"a.p warn"}},
		{"optional without an omission cue", OptionalParamRule(DefaultOmissionCues), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"p":{"description":"The pool."}}}`)), []string{"a.p warn"}},
		{"required parameters are skipped", OptionalParamRule(DefaultOmissionCues), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"p":{}},"required":["p"]}`)), nil},
		{"each omission cue counts", OptionalParamRule(DefaultOmissionCues), testcat.List(omissionCueTools()...), nil},
		{"omission cues are configurable", OptionalParamRule([]string{"unset"}), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"p":{"description":"Optional."},"q":{"description":"If unset, all."}}}`)), []string{"a.p warn"}},
		{"parameters in file order", OptionalParamRule(DefaultOmissionCues), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"z":{},"b":{},"1":{}}}`)), []string{"a.z warn", "a.b warn", "a.1 warn"}},

		// duplicate-name
		{"later duplicates are errors", DuplicateNameRule(), testcat.List(testcat.Tool("a", testcat.Long, ""), testcat.Tool("b", testcat.Long, ""), testcat.Tool("a", testcat.Long, ""), testcat.Tool("a", testcat.Long, "")), []string{"a error", "a error"}},

		// name-provider-limits
		{"portable names pass", NameLimitsRule(), testcat.List(testcat.Tool("get_x-1", testcat.Long, "")), nil},
		{"a dot is fine for MCP only", NameLimitsRule(), testcat.List(testcat.Tool("math.sum", testcat.Long, "")), []string{`math.sum warn "name": "math_sum"`}},
		{"65 characters are fine for MCP only", NameLimitsRule(), testcat.List(testcat.Tool(strings.Repeat("n", 65), testcat.Long, "")), []string{strings.Repeat("n", 65) + " warn a shorter name: at most 64 characters"}},
		{"a space breaks every rule", NameLimitsRule(), testcat.List(testcat.Tool("get x", testcat.Long, "")), []string{`get x error "name": "get_x"`}},
		{"an OpenAI tool's own provider rejects a dot", NameLimitsRule(), `[{"type":"function","function":{"name":"math.sum","description":"x"}}]`, []string{`math.sum error "name": "math_sum"`}},
		{"an Anthropic tool's own provider rejects a dot", NameLimitsRule(), `[{"name":"math.sum","input_schema":{"type":"object"}}]`, []string{`math.sum error "name": "math_sum"`}},

		// schema-not-object
		{"no schema passes", SchemaNotObjectRule(), testcat.List(testcat.Tool("a", testcat.Long, "")), nil},
		{"an object schema passes", SchemaNotObjectRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object"}`)), nil},
		{"a string schema fails", SchemaNotObjectRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"string"}`)), []string{"a error"}},
		{"a schema without type fails", SchemaNotObjectRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"properties":{}}`)), []string{"a error"}},
		{"a schema that is an array fails", SchemaNotObjectRule(), testcat.List(testcat.Tool("a", testcat.Long, `[]`)), []string{"a error"}},
		{"a type list fails", SchemaNotObjectRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":["object","null"]}`)), []string{"a error"}},

		// required-undeclared
		{"required names an undeclared property", RequiredUndeclaredRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"x":{}},"required":["x","y"]}`)), []string{"a.y error"}},
		{"required without properties", RequiredUndeclaredRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","required":["q"]}`)), []string{"a.q error"}},
		{"nested objects and items are checked", RequiredUndeclaredRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"f":{"type":"object","properties":{},"required":["n"]},"l":{"type":"array","items":{"type":"object","required":["t"]}}}}`)), []string{"a.f.n error", "a.l[].t error"}},
		{"patternProperties may declare it", RequiredUndeclaredRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","patternProperties":{"^x":{}},"required":["xy"]}`)), nil},
		{"empty patternProperties declare nothing", RequiredUndeclaredRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","patternProperties":{},"required":["xy"]}`)), []string{"a.xy error"}},

		// enum-type-mismatch
		{"a string member under integer", EnumTypeMismatchRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"n":{"type":"integer","enum":[1,"2",3.5,1e2]}}}`)), []string{"a.n error", "a.n error"}},
		{"members matching a type list pass", EnumTypeMismatchRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"n":{"type":["string","null"],"enum":["a",null]}}}`)), nil},
		{"no type, nothing to contradict", EnumTypeMismatchRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"n":{"enum":[1,"a"]}}}`)), nil},
		{"an unknown type accepts anything", EnumTypeMismatchRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"n":{"type":"date","enum":[1]}}}`)), nil},
		{"a huge enum of the wrong type is ten findings and a count", EnumTypeMismatchRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"n":{"type":"string","enum":[`+strings.TrimSuffix(strings.Repeat("1,", 5000), ",")+`]}}}`)), slices.Repeat([]string{"a.n error"}, 11)},
		{"a boolean member under string, in items", EnumTypeMismatchRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"l":{"type":"array","items":{"type":"string","enum":["a",true]}}}}`)), []string{"a.l[] error"}},

		// duplicate-json-key
		{"a repeated key warns", DuplicateJSONKeyRule(), `[{"name":"a","description":"x","description":"y"}]`, []string{"a warn"}},

		// pattern-not-ecma
		{"a Python-only group warns", PatternRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"s":{"type":"string","pattern":"^(?P<n>x)$"}}}`)), []string{"a.s warn"}},
		{"a .NET inline option warns", PatternRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"s":{"type":"string","pattern":"^(?i)[a-z]+$"}}}`)), []string{"a.s warn"}},
		{"a .NET anchor warns", PatternRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"s":{"type":"string","pattern":"\\Avol-[0-9]+\\z"}}}`)), []string{"a.s warn"}},
		{"an ES2025 modifier group compiles", PatternRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"s":{"type":"string","pattern":"^(?i:vol)-[0-9]+$"}}}`)), nil},
		{"ECMA lookbehind compiles", PatternRule(), testcat.List(testcat.Tool("a", testcat.Long, `{"type":"object","properties":{"s":{"type":"string","pattern":"(?<=a)b"}}}`)), nil},

		// declaration-refused
		{"a rule on an argument the schema does not offer", DeclarationRule(), `[{"name":"a","description":"x","inputSchema":{"type":"object","properties":{"u":{"type":"string"}}},"askOrAssume":{"v":{"assume":"s"}}}]`, []string{"a.v error"}},
		{"a good declaration passes", DeclarationRule(), `[{"name":"a","description":"x","inputSchema":{"type":"object","properties":{"u":{"type":"string","enum":["ms","s"]}}},"askOrAssume":{"u":{"assume":"s"}}}]`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ruleFindings(t, c.rule, c.src)
			if !slices.Equal(got, c.want) {
				t.Errorf("findings = %q, want %q", got, c.want)
			}
		})
	}
}

func omissionCueTools() []string {
	var out []string
	for i, cue := range DefaultOmissionCues {
		out = append(out, testcat.Tool(fmt.Sprintf("t%d", i), testcat.Long, fmt.Sprintf(`{"type":"object","properties":{"p":{"description":"Says %s here."}}}`, cue)))
	}
	return out
}

func TestTooManyTools(t *testing.T) {
	var tools []string
	for i := range 131 {
		tools = append(tools, testcat.Tool(fmt.Sprintf("t%d", i), testcat.Long, ""))
	}
	tools = append(tools[:5], append([]string{testcat.Tool("t1", testcat.Long, "")}, tools[5:]...)...) // a duplicate does not count
	got := ruleFindings(t, TooManyToolsRule(128), testcat.List(tools...))
	if want := []string{"t128 warn"}; !slices.Equal(got, want) {
		t.Errorf("findings = %q, want %q (once, on the first tool past the limit)", got, want)
	}
	if got := ruleFindings(t, TooManyToolsRule(128), testcat.List(tools[:129]...)); got != nil {
		t.Errorf("128 distinct tools: findings = %q, want none", got)
	}
}

func TestStructuralOrderPositionsAndDisable(t *testing.T) {
	src := `[
  {"name": "a", "inputSchema": {"type": "object", "properties": {"p": {}, "q": {}}}},
  {"name": "a", "description": "dup"},
  {"name": "b", "description": "Short."}
]`
	cat := testcat.Parse(t, src)
	opts := DefaultOptions()
	opts.Set, opts.Rules = RuleSetReference, ReferenceRules()
	var got []string
	for _, f := range Structural(cat, opts) {
		got = append(got, fmt.Sprintf("%s %s %s %d:%d #%d", f.Tool, f.Rule, f.Param, f.Line, f.Column, f.ToolIndex))
	}
	want := []string{
		"a description-missing-or-short  2:3 #0",
		"a optional-param-undocumented p 2:66 #0",
		"a optional-param-undocumented q 2:75 #0",
		"a duplicate-name  3:3 #1",
		"b description-missing-or-short  4:3 #2",
		"b says-what-not-when  4:3 #2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	opts.Disabled = []string{RuleOptionalParam, RuleDuplicateName}
	for _, f := range Structural(cat, opts) {
		if f.Rule == RuleOptionalParam || f.Rule == RuleDuplicateName {
			t.Errorf("disabled rule %s still reported", f.Rule)
		}
	}
}

func TestRulePackIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range DefaultRules() {
		if seen[r.ID] {
			t.Errorf("rule %s twice", r.ID)
		}
		seen[r.ID] = true
		if r.Summary == "" || r.Teaching.Why == "" || r.Teaching.Fix == "" || r.Teaching.Before == "" || r.Teaching.After == "" || r.Check == nil {
			t.Errorf("rule %s lacks a summary, teaching text or check", r.ID)
		}
		if r.Severity != SeverityError && r.Severity != SeverityWarn {
			t.Errorf("rule %s severity %q", r.ID, r.Severity)
		}
	}
	var seed []string
	for _, r := range SeedRules() {
		seed = append(seed, r.ID)
	}
	if want := []string{RuleDuplicateName, RuleDescription, RuleSaysWhatNotWhen, RuleEnumInProse, RuleOptionalParam}; !slices.Equal(seed, want) {
		t.Errorf("seed rules = %v, want %v", seed, want)
	}
}

func TestCatalogTokens(t *testing.T) {
	var tools []string
	for i := range 6 {
		tools = append(tools, testcat.Tool(fmt.Sprintf("t%d", i), testcat.Long, ""))
	}
	src := testcat.List(tools...)
	cat := testcat.Parse(t, src)
	total := 0
	for _, t := range cat.Tools {
		total += tokens.MustCount(tokens.O200k, tokens.Definition(t))
	}
	for _, tc := range []struct {
		name   string
		share  float64
		window int
		want   []string
	}{
		{"over the share: once, on the last tool", 0.5, total + 1, []string{"t5 warn"}},
		{"at the share exactly: nothing", 1, total, nil},
		{"a larger window: nothing", 0.1, total * 10, nil},
		{"just over 10% of the window", 0.1, total*10 - 1, []string{"t5 warn"}},
	} {
		if got := ruleFindings(t, CatalogTokensRule(tc.share, tc.window), src); !slices.Equal(got, tc.want) {
			t.Errorf("%s: findings %q; want %q", tc.name, got, tc.want)
		}
	}
	opts := DefaultOptions()
	opts.Rules = []Rule{CatalogTokensRule(1, total-1)}
	f := Structural(cat, opts)
	if len(f) != 1 || !strings.Contains(f[0].Message, fmt.Sprintf("the catalog's 6 tool definitions take %s tokens", thousands(total))) {
		t.Fatalf("message: %v", f)
	}
	// Past the limit the message says the whole catalog's size, as a
	// multiple of the window when it passes it.
	first := tokens.MustCount(tokens.O200k, tokens.Definition(cat.Tools[0]))
	opts.Rules = []Rule{CatalogTokensRule(1, first)}
	f = Structural(cat, opts)
	if want := fmt.Sprintf("the catalog's 6 tool definitions take %s tokens (o200k_base), %s a %s-token context", thousands(total), ContextShare(total, first), thousands(first)); len(f) != 1 || !strings.Contains(f[0].Message, want) || !strings.Contains(want, "×") {
		t.Fatalf("message: %v, want %q", f, want)
	}
	// The report carries every tool's counts when asked, and none else.
	opts.MeasureTokens = true
	r, err := Analyze(t.Context(), cat, opts)
	if err != nil || r.Tokens == nil || r.Tokens.Total.O200k != total || len(r.Tokens.Tools) != 6 {
		t.Fatalf("report tokens %+v, %v; want total %d", r.Tokens, err, total)
	}
	opts.MeasureTokens = false
	if r, _ := Analyze(t.Context(), cat, opts); r.Tokens != nil {
		t.Error("tokens measured unasked")
	}
}

func TestThousandsAndPercent(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 128000: "128,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q", n, got)
		}
	}
	if percent(0.1) != "10%" || percent(0.053) != "5.3%" {
		t.Errorf("percent: %s %s", percent(0.1), percent(0.053))
	}
}

// input-example-invalid: an Anthropic input_examples entry the tool's own
// schema refuses, one finding per example, naming it and the first issue.
func TestInputExampleRule(t *testing.T) {
	const schema = `{"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["query"]}`
	tool := func(name, examples string) string {
		return `{"name": "` + name + `", "description": "Search the incidents.", "input_schema": ` + schema + `, "input_examples": ` + examples + `}`
	}
	for _, tc := range []struct {
		name     string
		examples string
		want     []string
		message  string
	}{
		{"valid examples", `[{"query": "open"}, {"query": "sev1", "limit": 5}]`, nil, ""},
		{"a wrong type", `[{"query": "open"}, {"query": "x", "limit": "10"}]`, []string{"s.limit error"}, "input_examples[1] is refused by the input schema: 'limit' expected integer, got string"},
		{"a required argument missing, and more", `[{"limit": "x"}]`, []string{"s.query error"}, "(and 1 more)"},
		{"none", `[]`, nil, ""},
	} {
		src := "[" + tool("s", tc.examples) + "]"
		got := ruleFindings(t, InputExampleRule(), src)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: findings %q; want %q", tc.name, got, tc.want)
			continue
		}
		if tc.message == "" {
			continue
		}
		opts := DefaultOptions()
		opts.Rules = []Rule{InputExampleRule()}
		if f := Structural(testcat.Parse(t, src), opts); len(f) != 1 || !strings.Contains(f[0].Message, tc.message) {
			t.Errorf("%s: message %v; want it to contain %q", tc.name, f, tc.message)
		}
	}
	// At most 20 examples of a tool are checked.
	many := strings.Repeat(`{"query": 1},`, 25)
	if got := ruleFindings(t, InputExampleRule(), "["+tool("s", "["+strings.TrimSuffix(many, ",")+"]")+"]"); len(got) != maxExamplesChecked {
		t.Errorf("%d findings for 25 bad examples; want %d", len(got), maxExamplesChecked)
	}
}
