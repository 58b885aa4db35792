package validate

import (
	"reflect"
	"strings"
	"testing"

	"toolscope/core/jsonv"
)

// j parses a JSON literal for a test; "" stands for absent (nil).
func j(t testing.TB, s string) *jsonv.Value {
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

// iss builds a structural issue.
func iss(path, expected, got string) Issue { return Issue{Path: path, Expected: expected, Got: got} }

func TestValidateRules(t *testing.T) {
	long := strings.Repeat("é", 100)
	cases := []struct {
		name, schema, args string
		want               []Issue
	}{
		// type
		{"object ok", `{"type":"object"}`, `{}`, nil},
		{"object vs array", `{"type":"object"}`, `[]`, []Issue{iss("", "object", "array")}},
		{"array vs object", `{"type":"array"}`, `{}`, []Issue{iss("", "array", "object")}},
		{"string vs number", `{"type":"string"}`, `1`, []Issue{iss("", "string", "number")}},
		{"number accepts integer text", `{"type":"number"}`, `7`, nil},
		{"number vs string", `{"type":"number"}`, `"7"`, []Issue{iss("", "number", "string")}},
		{"integer 1.0", `{"type":"integer"}`, `1.0`, nil},
		{"integer 1e2", `{"type":"integer"}`, `1e2`, nil},
		{"integer 1.5", `{"type":"integer"}`, `1.5`, []Issue{iss("", "integer", "number")}},
		{"integer 1e-2", `{"type":"integer"}`, `1e-2`, []Issue{iss("", "integer", "number")}},
		{"boolean vs string", `{"type":"boolean"}`, `"true"`, []Issue{iss("", "boolean", "string")}},
		{"null ok", `{"properties":{"v":{"type":"null"}}}`, `{"v":null}`, nil},
		{"null vs false", `{"type":"null"}`, `false`, []Issue{iss("", "null", "boolean")}},
		{"union hit", `{"properties":{"v":{"type":["integer","null"]}}}`, `{"v":null}`, nil},
		{"union miss", `{"type":["integer","string"]}`, `true`, []Issue{iss("", "integer | string", "boolean")}},
		{"unknown type name", `{"type":"widget"}`, `1`, nil},
		{"union with unknown name", `{"type":["string","widget"]}`, `1`, nil},
		{"union with non-string entry", `{"type":["string",3]}`, `1`, []Issue{iss("", "string", "number")}},
		{"union with non-string entry, a string", `{"type":["string",3]}`, `"x"`, nil},
		{"union of non-strings only", `{"type":[1,null]}`, `1`, nil},
		{"union with non-string entries, two names", `{"type":[{},"string",true,"null"]}`, `3`, []Issue{iss("", "string | null", "number")}},
		{"empty union", `{"type":[]}`, `1`, nil},
		{"type of another kind", `{"type":{"a":1}}`, `1`, nil},
		{"type mismatch stops deeper", `{"type":"object","required":["a"]}`, `"x"`, []Issue{iss("", "object", "string")}},

		// required
		{"required missing", `{"type":"object","required":["a","b"]}`, `{"b":null}`, []Issue{iss("a", "required", "missing")}},
		{"required own keys only", `{"required":["constructor","__proto__"]}`, `{}`, []Issue{iss("constructor", "required", "missing"), iss("__proto__", "required", "missing")}},
		{"required non-strings skipped", `{"required":[1,null,"a"]}`, `{}`, []Issue{iss("a", "required", "missing")}},
		{"required listed twice reported once", `{"required":["a","a"]}`, `{}`, []Issue{iss("a", "required", "missing")}},
		{"required not an array", `{"required":"a"}`, `{}`, nil},
		{"required ignored on non-objects", `{"required":["a"]}`, `[1]`, nil},

		// properties
		{"properties in schema order", `{"properties":{"b":{"type":"string"},"a":{"type":"string"}}}`, `{"a":1,"b":2}`,
			[]Issue{iss("b", "string", "number"), iss("a", "string", "number")}},
		{"absent property not checked", `{"properties":{"a":{"type":"string"}}}`, `{}`, nil},
		{"present null is checked", `{"properties":{"a":{"type":"string"}}}`, `{"a":null}`, []Issue{iss("a", "string", "null")}},
		{"nested path", `{"properties":{"o":{"properties":{"p":{"type":"array","items":{"type":"integer"}}}}}}`, `{"o":{"p":[1,"x"]}}`,
			[]Issue{iss("o.p[1]", "integer", "string")}},
		{"child schema not an object", `{"properties":{"a":true,"b":"x","c":null}}`, `{"a":1,"b":2,"c":3}`, nil},
		{"properties not an object", `{"properties":["a"]}`, `{"a":1}`, nil},

		// items
		{"items each element", `{"items":{"type":"string"}}`, `["a",1,"b",null]`, []Issue{iss("[1]", "string", "number"), iss("[3]", "string", "null")}},
		{"tuple items ignored", `{"items":[{"type":"string"}]}`, `[1]`, nil},
		{"items after prefixItems skip the prefix", `{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}`, `["a",1,true,false]`, nil},
		{"items after prefixItems check the rest", `{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}`, `[2,"b",true,"x"]`, []Issue{iss("[3]", "boolean", "string")}},
		{"prefixItems longer than the array", `{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}`, `["a"]`, nil},
		{"empty prefixItems", `{"prefixItems":[],"items":{"type":"boolean"}}`, `[1]`, []Issue{iss("[0]", "boolean", "number")}},
		{"malformed prefixItems leaves items unchecked", `{"prefixItems":{"type":"string"},"items":{"type":"boolean"}}`, `[1,2]`, nil},
		{"items ignored on non-arrays", `{"items":{"type":"string"}}`, `{"a":1}`, nil},

		// enum
		{"enum hit", `{"enum":["asc","desc"]}`, `"asc"`, nil},
		{"enum miss echoes schema values", `{"type":"string","enum":["asc","desc"]}`, `"up"`, []Issue{iss("", `one of "asc", "desc"`, "string")}},
		{"enum numbers by value", `{"enum":[1,2.50]}`, `2.5`, nil},
		{"enum number text kept", `{"enum":[1.0,2]}`, `3`, []Issue{iss("", "one of 1.0, 2", "number")}},
		{"enum strict equality", `{"enum":["1",true]}`, `1`, []Issue{iss("", `one of "1", true`, "number")}},
		{"enum with null", `{"properties":{"v":{"enum":[null]}}}`, `{"v":null}`, nil},
		{"enum with an object member ignored", `{"enum":[{"a":1},"x"]}`, `"y"`, nil},
		{"enum empty ignored", `{"enum":[]}`, `"y"`, nil},
		{"enum not an array ignored", `{"enum":"x"}`, `"y"`, nil},
		{"enum miss stops string shape", `{"enum":["a"],"maxLength":1}`, `"abc"`, []Issue{iss("", `one of "a"`, "string")}},
		{"enum miss stops object checks", `{"enum":["a"],"required":["x"]}`, `{}`, []Issue{iss("", `one of "a"`, "object")}},

		// additionalProperties
		{"extra keys in argument order", `{"properties":{"a":{}},"additionalProperties":false}`, `{"z":1,"a":1,"y":[]}`,
			[]Issue{iss("z", "no additional properties", "number"), iss("y", "no additional properties", "array")}},
		{"no properties declares no names", `{"additionalProperties":false}`, `{"a":"x"}`, []Issue{iss("a", "no additional properties", "string")}},
		{"malformed properties defers", `{"properties":"oops","additionalProperties":false}`, `{"a":1}`, nil},
		{"null properties defers", `{"properties":null,"additionalProperties":false}`, `{"a":1}`, nil},
		{"patternProperties defers", `{"patternProperties":{"^x":{}},"additionalProperties":false}`, `{"a":1}`, nil},
		{"malformed patternProperties defers", `{"patternProperties":[],"additionalProperties":false}`, `{"a":1}`, nil},
		{"empty patternProperties does not defer", `{"patternProperties":{},"additionalProperties":false}`, `{"a":1}`, []Issue{iss("a", "no additional properties", "number")}},
		{"additionalProperties true", `{"additionalProperties":true}`, `{"a":1}`, nil},
		{"additionalProperties schema ignored", `{"properties":{},"additionalProperties":{"type":"string"}}`, `{"a":1}`, nil},
		{"deferral keeps other checks", `{"properties":"oops","required":["a"],"additionalProperties":false}`, `{"b":1}`, []Issue{iss("a", "required", "missing")}},

		// string shape
		{"pattern unanchored", `{"pattern":"vol-[0-9a-f]{4}"}`, `"my vol-0a1b here"`, nil},
		{"pattern miss", `{"type":"string","pattern":"^vol-[0-9a-f]{8}$","description":" The volume id, like vol-0a1b2c3d. "}`, `"yes please"`,
			[]Issue{{Path: "", Expected: "string matching /^vol-[0-9a-f]{8}$/", Got: "string of 10 chars", Value: "yes please", Hint: "The volume id, like vol-0a1b2c3d."}}},
		{"pattern lookahead", `{"pattern":"^(?!tmp_)[a-z_]+$"}`, `"tmp_x"`,
			[]Issue{{Expected: "string matching /^(?!tmp_)[a-z_]+$/", Got: "string of 5 chars", Value: "tmp_x"}}},
		{"pattern backreference", `{"pattern":"^(a)\\1$"}`, `"aa"`, nil},
		{"pattern unicode property", `{"pattern":"^\\p{L}+$"}`, `"héllo"`, nil},
		{"pattern that does not compile is dropped", `{"pattern":"([a-z"}`, `"anything"`, nil},
		{"pattern not applied to numbers", `{"pattern":"^x$"}`, `5`, nil},
		{"minLength in code points", `{"minLength":3}`, `"😀😀"`,
			[]Issue{{Expected: "at least 3 characters", Got: "string of 2 chars", Value: "😀😀"}}},
		{"minLength 1", `{"minLength":1}`, `""`, []Issue{{Expected: "at least 1 character", Got: "string of 0 chars"}}},
		{"minLength 3.0 is an integer", `{"minLength":3.0}`, `"ab"`, []Issue{{Expected: "at least 3 characters", Got: "string of 2 chars", Value: "ab"}}},
		{"maxLength", `{"properties":{"q":{"maxLength":5,"description":"Search text."}}}`, `{"q":"abcdefgh"}`,
			[]Issue{{Path: "q", Expected: "at most 5 characters", Got: "string of 8 chars", Value: "abcdefgh", Hint: "Search text."}}},
		{"maxLength counts code points", `{"maxLength":2}`, `"é😀"`, nil},
		{"length bounds must be non-negative integers", `{"minLength":-1,"maxLength":"3"}`, `"abcdef"`, nil},
		{"fractional bound ignored", `{"maxLength":2.5}`, `"abcdef"`, nil},
		{"pattern and length both reported", `{"pattern":"^a+$","maxLength":2}`, `"abc"`,
			[]Issue{{Expected: "string matching /^a+$/", Got: "string of 3 chars", Value: "abc"}, {Expected: "at most 2 characters", Got: "string of 3 chars", Value: "abc"}}},
		{"value capped at 80 code points", `{"maxLength":1}`, `"` + long + `"`,
			[]Issue{{Expected: "at most 1 character", Got: "string of 100 chars", Value: strings.Repeat("é", 79) + "…"}}},
		{"value of exactly 80 kept whole", `{"maxLength":1}`, `"` + long[:160] + `"`,
			[]Issue{{Expected: "at most 1 character", Got: "string of 80 chars", Value: long[:160]}}},
		{"description not a string gives no hint", `{"maxLength":1,"description":3}`, `"ab"`,
			[]Issue{{Expected: "at most 1 character", Got: "string of 2 chars", Value: "ab"}}},

		// order, cap, totality
		{"required, then properties, then extra keys", `{"properties":{"a":{"type":"string"}},"required":["r"],"additionalProperties":false}`, `{"x":1,"a":1}`,
			[]Issue{iss("r", "required", "missing"), iss("a", "string", "number"), iss("x", "no additional properties", "number")}},
		{"cap over items", `{"items":{"type":"string"}}`, `[1,2,3,4,5,6,7,8,9,10,11,12]`, func() []Issue {
			var out []Issue
			for i := range MaxIssues {
				out = append(out, iss("["+string(rune('0'+i))+"]", "string", "number"))
			}
			out[9].Path = "[9]"
			return out
		}()},
		{"absent args validate as {}", `{"required":["a"]}`, ``, []Issue{iss("a", "required", "missing")}},
		{"null args validate as {}", `{"type":"object","required":["a"]}`, `null`, []Issue{iss("a", "required", "missing")}},
		{"absent schema accepts everything", ``, `[1,"x"]`, nil},
		{"schema true accepts everything", `true`, `5`, nil},
		{"ignored keywords", `{"type":"object","properties":{"n":{"type":"number","minimum":5,"format":"x","const":1,"oneOf":[{"type":"string"}],"$ref":"#/x","not":{}}}}`, `{"n":100}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Validate(j(t, c.args), j(t, c.schema))
			if r.OK != (len(c.want) == 0) {
				t.Errorf("OK = %v with issues %+v", r.OK, r.Issues)
			}
			if !reflect.DeepEqual(r.Issues, c.want) {
				t.Errorf("issues\n got %+v\nwant %+v", r.Issues, c.want)
			}
		})
	}
}

func TestCapCountsNestedIssues(t *testing.T) {
	schema := j(t, `{"properties":{"list":{"items":{"required":["a","b","c"]}}},"required":["x","y"]}`)
	r := Validate(j(t, `{"list":[{},{},{},{}]}`), schema)
	if len(r.Issues) != MaxIssues {
		t.Fatalf("%d issues, want the cap %d", len(r.Issues), MaxIssues)
	}
	if r.Issues[0].Path != "x" || r.Issues[2].Path != "list[0].a" || r.Issues[9].Path != "list[2].b" {
		t.Errorf("order: %+v", r.Issues)
	}
}

func TestValidatePropertyValue(t *testing.T) {
	cases := []struct {
		name, schema, value string
		ok                  bool
	}{
		{"enum hit", `{"type":"string","enum":["1h","2h"]}`, `"2h"`, true},
		{"enum miss", `{"type":"string","enum":["1h","2h"]}`, `"9h"`, false},
		{"own pattern", `{"type":"string","pattern":"^[0-9]+[mhdw]$"}`, `"2 hours"`, false},
		{"null is not read as {}", `{"type":"object"}`, `null`, false},
		{"absent value matches no known type", `{"type":"string"}`, ``, false},
		{"absent value with no constraint", `{}`, ``, true},
		{"no schema", ``, `"x"`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if r := ValidatePropertyValue(j(t, c.value), j(t, c.schema)); r.OK != c.ok {
				t.Errorf("OK = %v, want %v (%+v)", r.OK, c.ok, r.Issues)
			}
		})
	}
	// The difference from Validate: no root `required` and no null-as-{}.
	schema := j(t, `{"type":"object","required":["a"]}`)
	if got := ValidatePropertyValue(j(t, `null`), schema).Issues; len(got) != 1 || got[0] != iss("", "object", "null") {
		t.Errorf("ValidatePropertyValue(null) = %+v", got)
	}
	if got := Validate(j(t, `null`), schema).Issues; len(got) != 1 || got[0] != iss("a", "required", "missing") {
		t.Errorf("Validate(null) = %+v", got)
	}
}

func TestStringShapeIssuesAloneCarryValues(t *testing.T) {
	r := Validate(j(t, `{"a":"secret","b":"secret-too","c":"x"}`), j(t, `{"properties":{"a":{"type":"integer","description":"d"},"b":{"enum":["p"],"description":"d"},"c":{"minLength":2,"description":"d"}},"additionalProperties":false,"required":["z"]}`))
	for _, is := range r.Issues {
		if is.StringShape() != (is.Value != "" || is.Hint != "") {
			t.Errorf("issue %+v: value/hint on a structural issue, or missing on a shape one", is)
		}
		if !is.StringShape() && strings.Contains(is.Got+is.Expected, "secret") {
			t.Errorf("issue %+v echoes the value", is)
		}
	}
	if len(r.Issues) != 4 {
		t.Errorf("want 4 issues, got %+v", r.Issues)
	}
}
