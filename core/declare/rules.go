// Package declare reads what a tool author declares about a tool's arguments
// (SPEC §3): which arguments a call may leave out and what then happens (the
// library assumes a declared value, or asks the person), which arguments
// bound the period the answer covers and how their values are spelled, and
// the facts about the source behind the period.
//
// Read judges a tool's declarations against its schema at load and refuses,
// never repairs, what it cannot apply; Resolve shows, for a pasted call, what
// the boundary would do with each ruled argument and which window the period
// arguments denote.
package declare

import (
	"strconv"
	"strings"
	"unicode"

	"toolscope/core/jsonv"
)

// RuledTypes are the JSON Schema types a ruled argument may have: flat
// primitives only.
var RuledTypes = []string{"string", "number", "integer", "boolean"}

// Bounds on a declaration, part of the contract.
const (
	// AskQuestionChars bounds an ask question, in code points.
	AskQuestionChars = 4096
	// MaxChoices bounds the choices of one ask rule.
	MaxChoices = 100
	// SaidPhraseChars bounds one said phrase, in code points.
	SaidPhraseChars = 120
	// MaxSaidPhrases bounds the said phrases of one choice.
	MaxSaidPhrases = 16
	// MaxAskArguments bounds the arguments of one tool that carry ask.
	MaxAskArguments = 32
	// MaxPeriodForms bounds the forms of one period.
	MaxPeriodForms = 8
)

// RuleKind says what happens to an argument a call leaves out.
type RuleKind string

// The two kinds of rule.
const (
	// Assume: the library fills the declared value, recorded as default.
	Assume RuleKind = "assume"
	// Ask: the person is asked once per batch, recorded as answered.
	Ask RuleKind = "ask"
)

// Rule is one ruled argument, read and judged.
type Rule struct {
	Argument string
	Kind     RuleKind
	// Type is the property's JSON Schema type, one of RuledTypes.
	Type string
	// Assume is the declared default of an assume rule.
	Assume *jsonv.Value
	// Question and Choices belong to an ask rule; nil Choices is a free answer.
	Question string
	Choices  []Choice
	// Period is set on the arguments the tool's period names.
	Period bool
	// Pos is where the rule stands in the source.
	Pos jsonv.Pos
}

// Choice is one allowed answer to an ask rule, with the phrases the author
// vouches for as meaning it.
type Choice struct {
	Value *jsonv.Value
	Said  []string
}

// Rules are a tool's declarations, read and judged.
type Rules struct {
	Tool string
	// Ruled lists the ruled arguments in declaration order.
	Ruled []Rule
	// Period is nil when the tool declares none.
	Period *Period
}

// Rule returns the rule on argument, or nil when it has none.
func (r *Rules) Rule(argument string) *Rule {
	if r == nil {
		return nil
	}
	for i := range r.Ruled {
		if r.Ruled[i].Argument == argument {
			return &r.Ruled[i]
		}
	}
	return nil
}

// IsMissing reports whether a call leaves argument out: no own key, a null
// value, or a string that is empty after trimming. Arguments that are not an
// object have no keys, so every argument is missing from them.
func IsMissing(args *jsonv.Value, argument string) bool {
	v := args.Get(argument)
	switch {
	case v == nil || v.Kind == jsonv.Null:
		return true
	case v.Kind == jsonv.String:
		return strings.TrimFunc(v.Text, isJSSpace) == ""
	default:
		return false
	}
}

// isJSSpace is the white space JavaScript's trim removes: Unicode spaces and
// line terminators, and the byte order mark that unicode.IsSpace leaves.
func isJSSpace(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// SameArgumentValue reports whether a and b are the same argument value: the
// same JSON type and the same token sequence under the one normaliser
// (Tokens). A value with no token equals nothing, not even itself: what
// cannot be checked is never "equal". Null, arrays and objects have no
// tokens.
func SameArgumentValue(a, b *jsonv.Value) bool {
	if a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	ta, tb := Tokens(a), Tokens(b)
	if len(ta) == 0 || len(ta) != len(tb) {
		return false
	}
	for i := range ta {
		if ta[i] != tb[i] {
			return false
		}
	}
	return true
}

// Tokens is the one normaliser behind SameArgumentValue. A string is
// lowercased and split into runs of letters, digits and combining marks;
// a comma between a digit and a group of exactly three digits is dropped
// (`41,200` is `41200`), and a minus sign that starts a run before a digit
// stays with it (`-5` is not `5`). A number's one token is its value in
// shortest form (`1.0` is `1`); a boolean's is its name.
func Tokens(v *jsonv.Value) []string {
	switch {
	case v == nil:
		return nil
	case v.Kind == jsonv.String:
		return stringTokens(v.Text)
	case v.Kind == jsonv.Number:
		f, ok := v.Float()
		if !ok {
			return nil
		}
		return []string{strconv.FormatFloat(f, 'g', -1, 64)}
	case v.Kind == jsonv.Bool:
		return []string{strconv.FormatBool(v.Bool)}
	default:
		return nil
	}
}

func stringTokens(s string) []string {
	rs := []rune(strings.ToLower(s))
	var out []string
	var cur []rune
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			cur = append(cur, r)
		case r == ',' && digitGroupComma(rs, i):
			// The token runs on across a thousands separator.
		case r == '-' && len(cur) == 0 && i+1 < len(rs) && unicode.IsDigit(rs[i+1]):
			cur = append(cur, r)
		case len(cur) > 0:
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}

// digitGroupComma reports whether the comma at rs[i] separates digit groups:
// a digit before it and exactly three digits after it.
func digitGroupComma(rs []rune, i int) bool {
	if i == 0 || i+3 >= len(rs) || !unicode.IsDigit(rs[i-1]) {
		return false
	}
	for k := 1; k <= 3; k++ {
		if !unicode.IsDigit(rs[i+k]) {
			return false
		}
	}
	return i+4 == len(rs) || !unicode.IsDigit(rs[i+4])
}
