package validate

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"toolscope/core/jsonv"
)

var (
	shapeGot      = regexp.MustCompile(`^string of [0-9]+ chars?$`)
	structuralGot = map[string]bool{"null": true, "boolean": true, "number": true, "string": true, "array": true, "object": true, "missing": true, "undefined": true}
	transportGot  = regexp.MustCompile(`^((unparseable|truncated) JSON|JSON nested deeper than 512 levels) at byte [0-9]+$`)
)

// FuzzValidate: any schema and any arguments give at most MaxIssues issues,
// value and hint only on string-shape issues, excerpts capped, and text
// that renders; nothing panics.
func FuzzValidate(f *testing.F) {
	f.Add(typicalSchema, `{"volume_id":"yes please","metric":"iops","limit":2.5,"labels":[{"value":"x"}],"extra":1}`)
	f.Add(`{"type":["string","null"],"enum":[1,"a",null],"pattern":"^(?!x)"}`, `"xyz"`)
	f.Add(`{"items":{"minLength":2,"maxLength":3,"description":"d"}}`, `["a","abcd","😀😀"]`)
	f.Add(`{"properties":{"a":{"pattern":"([bad"}},"additionalProperties":false,"patternProperties":{}}`, `{"a":"x","b":1}`)
	f.Add(`{"required":["a","b","c","d","e","f","g","h","i","j","k"]}`, `null`)
	f.Fuzz(func(t *testing.T, schemaText, argsText string) {
		schema, err := jsonv.Parse([]byte(schemaText))
		if err != nil {
			return
		}
		args, _ := ParseArguments(argsText)
		for _, r := range []Result{Validate(args, schema), ValidatePropertyValue(args, schema)} {
			checkResult(t, r)
		}
	})
}

func checkResult(t *testing.T, r Result) {
	t.Helper()
	if len(r.Issues) > MaxIssues {
		t.Fatalf("%d issues, over the cap", len(r.Issues))
	}
	if r.OK != (len(r.Issues) == 0) {
		t.Fatalf("OK = %v with %d issues", r.OK, len(r.Issues))
	}
	for _, is := range r.Issues {
		if is.StringShape() {
			if !shapeGot.MatchString(is.Got) || utf8.RuneCountInString(is.Value) > MaxValueChars {
				t.Fatalf("string-shape issue out of bounds: %+v", is)
			}
			continue
		}
		if is.Value != "" || is.Hint != "" || !structuralGot[is.Got] {
			t.Fatalf("structural issue echoes more than a type: %+v", is)
		}
	}
	text := FormatIssues("tool", r.Issues)
	if lines := strings.Count(text, "\n"); len(r.Issues) > 0 && lines < len(r.Issues)+1 {
		t.Fatalf("text has %d lines for %d issues:\n%s", lines, len(r.Issues), text)
	}
}

// FuzzParseArguments: any text parses or gives exactly one value-free
// transport issue.
func FuzzParseArguments(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":`, `{"a": yes}`, "", "[", `"x`, "{\"a\":\"\xff\"}", strings.Repeat("[", 600), "\ufeff{\"a\":1}", "\ufeff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, issues := ParseArguments(text)
		switch {
		case len(issues) == 0:
			if v == nil && strings.TrimSpace(text) != "" {
				t.Fatalf("no value and no issue for %q", text)
			}
		case len(issues) == 1:
			is := issues[0]
			if v != nil || is.Path != "" || is.Expected != ExpectedArguments || !transportGot.MatchString(is.Got) || is.Value != "" || is.Hint != "" {
				t.Fatalf("bad transport issue %+v (value %v)", is, v)
			}
		default:
			t.Fatalf("%d transport issues", len(issues))
		}
	})
}

// FuzzCompilePattern: any pattern text compiles or is refused with a
// PatternError naming it; the scan for .NET syntax never panics, and a
// refused pattern is never handed to the engine.
func FuzzCompilePattern(f *testing.F) {
	for _, p := range []string{`^vol-[0-9a-f]{8}$`, `(?i)a`, `(?i:a)`, `\A\z`, `[\e]`, `(?<n>a)\k<n>`, `(?<a-b>x)`, `\p{IsGreek}`, `\`, `(?`, `[`, `\\A`,
		strings.Repeat("(a?", MaxPatternDepth+1) + strings.Repeat(")?", MaxPatternDepth+1), strings.Repeat(`[(]\(`, 9) + "(((x)))", strings.Repeat("é|", MaxPatternChars/2+1)} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		re, err := CompilePattern(p)
		if err != nil {
			var pe *PatternError
			if !errors.As(err, &pe) || pe.Pattern != p || re != nil {
				t.Fatalf("CompilePattern(%q) = %v, %v", p, re, err)
			}
			if n := utf8.RuneCountInString(err.Error()); n > MaxQuotedPatternChars+200 {
				t.Fatalf("the error for a pattern of %d characters is %d characters long", utf8.RuneCountInString(p), n)
			}
			return
		}
		if utf8.RuneCountInString(p) > MaxPatternChars || groupDepth(p) > MaxPatternDepth {
			t.Fatalf("CompilePattern compiled a pattern over the limits: %.100q", p)
		}
		if why, _ := notECMA(p); why != "" || re == nil {
			t.Fatalf("CompilePattern(%q) accepted a pattern the scan refuses (%s)", p, why)
		}
		matchString(re, "vol-0a1b2c3d", MatchTimeout)
	})
}
