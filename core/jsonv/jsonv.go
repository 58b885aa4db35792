// Package jsonv reads JSON into an ordered tree that remembers where every
// value stood in the source.
//
// encoding/json decodes objects into Go maps, which forget key order, and
// numbers into float64, which forgets their text. A tool catalog needs both:
// authors wrote parameters in an order and the explorer, the findings and the
// validation issues follow it; `1.0` and `1e2` must stay what the author wrote
// until a check needs their value; and a finding must point at the line and
// column of the tool it is about. So the source is read once, here, into
// Values that keep member order, number text, duplicate keys and positions.
package jsonv

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The six JSON kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// String names the kind as JSON Schema does.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Pos is a place in the source: byte offset, 1-based line and column (in
// runes).
type Pos struct {
	Offset int `json:"offset"`
	Line   int `json:"line"`
	Col    int `json:"column"`
}

// Value is one JSON value. Text holds a string's content or a number's
// literal text; Members keep the order in which keys first appeared, with the
// last value given for a repeated key (as JavaScript's JSON.parse does).
type Value struct {
	Kind    Kind
	Text    string
	Bool    bool
	Items   []*Value
	Members []Member
	// Dups lists keys that appeared more than once in this object.
	Dups []string
	Pos  Pos
}

// Member is one key of an object with its value.
type Member struct {
	Key   string
	Value *Value
	Pos   Pos
}

// Get returns the member named key, or nil when v is not an object or has
// no such key.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := range v.Members {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// Has reports whether v is an object with an own key named key.
func (v *Value) Has(key string) bool { return v.Get(key) != nil }

// Is reports whether v is present and of kind k.
func (v *Value) Is(k Kind) bool { return v != nil && v.Kind == k }

// Str returns the string's content and true, or "" and false when v is not a
// string.
func (v *Value) Str() (string, bool) {
	if v == nil || v.Kind != String {
		return "", false
	}
	return v.Text, true
}

// Float returns a number's value. Literals beyond float64's range come back
// as ±Inf with ok still true: the text was a valid JSON number.
func (v *Value) Float() (float64, bool) {
	if v == nil || v.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Text, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// IsInteger reports whether v is a number with no fractional part (`1.0`
// and `1e2` are integers, as JSON Schema says).
func (v *Value) IsInteger() bool {
	f, ok := v.Float()
	if !ok || math.IsInf(f, 0) {
		return ok && v.Kind == Number && !strings.ContainsAny(v.Text, ".eE")
	}
	return f == math.Trunc(f)
}

// Int returns a number as an int when it is an integer that fits.
func (v *Value) Int() (int, bool) {
	f, ok := v.Float()
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

// TypeName is the JSON type of v as a validation message names it; nil is
// "undefined", as the seed's JavaScript would say.
func (v *Value) TypeName() string {
	if v == nil {
		return "undefined"
	}
	return v.Kind.String()
}

// ArticleType is TypeName with its article, as an error message puts it:
// "an array", "a string", "null".
func (v *Value) ArticleType() string {
	switch t := v.TypeName(); t {
	case "array", "object", "undefined":
		return "an " + t
	case "null":
		return t
	default:
		return "a " + t
	}
}

// Equal is JavaScript's === on primitives, lifted to whole values: numbers
// compare by value, strings by content, arrays and objects member by member
// in order.
func Equal(a, b *Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Bool == b.Bool
	case Number:
		fa, _ := a.Float()
		fb, _ := b.Float()
		return fa == fb
	case String:
		return a.Text == b.Text
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	default:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for i := range a.Members {
			if a.Members[i].Key != b.Members[i].Key || !Equal(a.Members[i].Value, b.Members[i].Value) {
				return false
			}
		}
		return true
	}
}

// IsPrimitive reports whether v is a string, number, boolean or null.
func (v *Value) IsPrimitive() bool {
	return v != nil && v.Kind != Array && v.Kind != Object
}

// JSON renders v as compact JSON, keeping member order and number text.
func (v *Value) JSON() string {
	var b bytes.Buffer
	v.write(&b, "", "")
	return b.String()
}

// AppendJSON appends JSON's text of v to dst.
func (v *Value) AppendJSON(dst []byte) []byte {
	b := bytes.NewBuffer(dst)
	v.write(b, "", "")
	return b.Bytes()
}

// IndentDepth is how deep Indent indents: an array or object nested
// deeper is written compact on its line. Indenting every level would make
// the text grow with the square of the nesting (each level indents every
// line below it): a 1 MB answer nested a few hundred deep became a
// 520 MB snapshot.
const IndentDepth = 16

// Indent renders v as indented JSON, keeping member order and number
// text; arrays and objects nested deeper than IndentDepth are compact.
func (v *Value) Indent(indent string) string {
	var b bytes.Buffer
	v.write(&b, "\n", indent)
	return b.String()
}

// MarshalJSON lets a Value sit inside structs that encoding/json renders.
func (v *Value) MarshalJSON() ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	return []byte(v.JSON()), nil
}

func (v *Value) write(b *bytes.Buffer, nl, indent string) {
	if v == nil {
		b.WriteString("null")
		return
	}
	if nl != "" && len(nl) > 1+IndentDepth*len(indent) && !v.IsPrimitive() {
		// Past IndentDepth: compact (see IndentDepth).
		v.write(b, "", "")
		return
	}
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteString(v.Text)
	case String:
		b.Write(AppendQuote(b.AvailableBuffer(), v.Text))
	case Array:
		if len(v.Items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		inner := nl + indent
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			it.write(b, inner, indent)
		}
		b.WriteString(nl)
		b.WriteByte(']')
	case Object:
		if len(v.Members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		inner := nl + indent
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			b.Write(AppendQuote(b.AvailableBuffer(), m.Key))
			b.WriteByte(':')
			if nl != "" {
				b.WriteByte(' ')
			}
			m.Value.write(b, inner, indent)
		}
		b.WriteString(nl)
		b.WriteByte('}')
	}
}

// Quote renders s as a JSON string literal, as JavaScript's JSON.stringify
// does (no HTML escaping; U+2028 and U+2029 left as they are).
func Quote(s string) string {
	return string(AppendQuote(make([]byte, 0, len(s)+2), s))
}

// AppendQuote appends s as Quote writes it. Invalid UTF-8 is written as
// U+FFFD, a byte at a time as ranging over the string reads it.
func AppendQuote(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			b = utf8.AppendRune(b, utf8.RuneError)
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// NewString, NewNumber, NewBool and NewNull build primitive values, for code
// that assembles a tree (tests, live sources).
func NewString(s string) *Value { return &Value{Kind: String, Text: s} }

// NewNumber builds a number from its literal text.
func NewNumber(text string) *Value { return &Value{Kind: Number, Text: text} }

// NewBool builds a boolean.
func NewBool(b bool) *Value { return &Value{Kind: Bool, Bool: b} }

// NewNull builds null.
func NewNull() *Value { return &Value{Kind: Null} }
