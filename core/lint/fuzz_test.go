package lint

import (
	"strings"
	"testing"
	"unicode/utf8"

	"toolscope/core/catalog"
)

// FuzzSchemaRules puts any JSON in a tool's input schema and descriptions:
// the rules of every set must never panic on weird schemas.
func FuzzSchemaRules(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"string","description":"one of x, y | z","pattern":"(?<=a)b"}},"required":["a","b"]}`,
		`{"properties":[],"required":{"x":1},"items":[{"enum":null}]}`,
		`{"type":["integer",7],"enum":[1.5,"x",{"a":[]},null]}`,
		`{"type":"object","properties":{"n":{"type":"array","items":{"type":"object","patternProperties":{"^x":true},"required":["x1"]}}}}`,
		`{"type":"object","properties":{"start":{"type":["number","null"]},"end":{"type":"number"},"body":{},"v":{"type":"object","properties":{},"additionalProperties":false,"description":"pass keys {a}"}}}`,
		`{"properties":{"from":{"type":"string","description":"List of dates"},"to":{"enum":[]},"formToken":{"type":"string"}},"required":["formToken","from"]}`,
		`{"type":"object","$defs":{"D":{"type":"integer"}},"properties":{"timeout":{"$ref":"#/$defs/D"},"t2":{"$ref":"#/$defs/missing/x"},"issueId":{},"issueKey":{},"p":{"enum":[],"const":"x","type":"integer","minimum":5,"maximum":1,"description":"Optional. Defaults to 3."}},"required":["p"]}`,
		`"not an object"`, `[1,2]`, `null`, `{"pattern":"[","properties":{"p":{"pattern":"(?P<x>"}}}`,
	} {
		f.Add(s, "Use for one of: a, b.")
	}
	f.Fuzz(func(t *testing.T, schema, description string) {
		if !utf8.ValidString(description) {
			return
		}
		src := `[{"name": "t", "description": ` + jsonQuote(description) + `, "inputSchema": ` + schema + `}]`
		cat, err := catalog.Parse("fuzz.json", []byte(src))
		if err != nil {
			return
		}
		for _, set := range RuleSets {
			opts := DefaultOptions()
			opts.Set, opts.Rules = set, RulesOf(set)
			for _, f := range Structural(cat, opts) {
				if f.Rule == "" || f.Message == "" || (f.Severity != SeverityError && f.Severity != SeverityWarn) {
					t.Fatalf("%s: malformed finding %+v", set, f)
				}
			}
		}
	})
}

func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
