package jsonv

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting Parse accepts; deeper input is refused
// rather than risking the stack on hostile files.
const MaxDepth = 512

// SyntaxError says what is wrong with the input and where.
type SyntaxError struct {
	Pos Pos
	Msg string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d column %d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// bom is the UTF-8 byte order mark, which editors on Windows write at the
// start of a file.
const bom = "\uFEFF"

// Parse reads one JSON document. The input must be valid UTF-8 (invalid bytes
// are reported, never replaced), nested at most MaxDepth deep, and hold
// nothing but white space after the value. A leading BOM is skipped, as RFC
// 8259 allows: line 1 column 1 is the character after it, and offsets stay
// those of data.
func Parse(data []byte) (*Value, error) {
	p := &parser{data: data, line: 1, lineStart: 0}
	if bytes.HasPrefix(data, []byte(bom)) {
		p.i, p.lineStart = len(bom), len(bom)
	}
	p.skipSpace()
	if p.i >= len(data) {
		return nil, p.errf("no JSON value (the input is empty)")
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i < len(data) {
		return nil, p.errf("unexpected %s after the JSON value", p.describe())
	}
	return v, nil
}

type parser struct {
	data      []byte
	i         int
	line      int
	lineStart int
	// colAt and col remember the last column computed on the current line,
	// so a minified one-line catalog costs linear time, not quadratic.
	colAt, col int
	// slab holds the values made since the last one filled: a catalog's
	// values are allocated a slab at a time, not one by one.
	slab []Value
}

// slabSize is how many values a slab holds.
const slabSize = 128

// alloc places v in the current slab, starting a new one when it is full
// (a full slab is never grown, so its values stay where they are).
func (p *parser) alloc(v Value) *Value {
	if len(p.slab) == cap(p.slab) {
		p.slab = make([]Value, 0, slabSize)
	}
	p.slab = append(p.slab, v)
	return &p.slab[len(p.slab)-1]
}

func (p *parser) pos() Pos {
	if p.colAt < p.lineStart || p.colAt > p.i {
		p.colAt, p.col = p.lineStart, 0
	}
	p.col += utf8.RuneCount(p.data[p.colAt:p.i])
	p.colAt = p.i
	return Pos{Offset: p.i, Line: p.line, Col: p.col + 1}
}

func (p *parser) errf(format string, args ...any) error {
	return &SyntaxError{Pos: p.pos(), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) describe() string {
	if p.i >= len(p.data) {
		return "end of input"
	}
	r, size := utf8.DecodeRune(p.data[p.i:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02x (invalid UTF-8)", p.data[p.i])
	}
	return fmt.Sprintf("%q", r)
}

func (p *parser) skipSpace() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case '\n':
			p.i++
			p.line++
			p.lineStart = p.i
		case '\r':
			// A CR alone ends a line too (classic Mac files); CRLF counts
			// once, at its LF.
			p.i++
			if p.i >= len(p.data) || p.data[p.i] != '\n' {
				p.line++
				p.lineStart = p.i
			}
		case ' ', '\t':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*Value, error) {
	if depth >= MaxDepth {
		return nil, p.errf("nesting deeper than %d levels", MaxDepth)
	}
	if p.i >= len(p.data) {
		return nil, p.errf("unexpected end of input, want a value")
	}
	start := p.pos()
	switch c := p.data[p.i]; {
	case c == '{':
		return p.object(start, depth)
	case c == '[':
		return p.array(start, depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return p.alloc(Value{Kind: String, Text: s, Pos: start}), nil
	case c == '-' || (c >= '0' && c <= '9'):
		text, err := p.number()
		if err != nil {
			return nil, err
		}
		return p.alloc(Value{Kind: Number, Text: text, Pos: start}), nil
	default:
		for _, lit := range [...]struct {
			word string
			v    Value
		}{{"true", Value{Kind: Bool, Bool: true}}, {"false", Value{Kind: Bool}}, {"null", Value{Kind: Null}}} {
			if strings.HasPrefix(string(p.data[p.i:min(len(p.data), p.i+len(lit.word))]), lit.word) {
				p.i += len(lit.word)
				v := lit.v
				v.Pos = start
				return p.alloc(v), nil
			}
		}
		return nil, p.errf("unexpected %s, want a value", p.describe())
	}
}

func (p *parser) object(start Pos, depth int) (*Value, error) {
	p.i++ // {
	v := p.alloc(Value{Kind: Object, Pos: start})
	p.skipSpace()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return v, nil
	}
	var index map[string]int // built lazily: most objects are small
	for {
		p.skipSpace()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, p.errf("unexpected %s, want a string key", p.describe())
		}
		kpos := p.pos()
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, p.errf("unexpected %s, want ':' after key %s", p.describe(), Quote(key))
		}
		p.i++
		p.skipSpace()
		val, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		dup := -1
		if index != nil {
			if at, ok := index[key]; ok {
				dup = at
			}
		} else {
			for j := range v.Members {
				if v.Members[j].Key == key {
					dup = j
					break
				}
			}
		}
		if dup >= 0 {
			v.Members[dup].Value = val
			v.Dups = appendOnce(v.Dups, key)
		} else {
			v.Members = append(v.Members, Member{Key: key, Value: val, Pos: kpos})
			if index != nil {
				index[key] = len(v.Members) - 1
			} else if len(v.Members) > 16 {
				index = make(map[string]int, 2*len(v.Members))
				for j, m := range v.Members {
					index[m.Key] = j
				}
			}
		}
		p.skipSpace()
		if p.i >= len(p.data) {
			return nil, p.errf("unexpected end of input, want ',' or '}'")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return v, nil
		default:
			return nil, p.errf("unexpected %s, want ',' or '}'", p.describe())
		}
	}
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func (p *parser) array(start Pos, depth int) (*Value, error) {
	p.i++ // [
	v := p.alloc(Value{Kind: Array, Pos: start})
	p.skipSpace()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return v, nil
	}
	for {
		p.skipSpace()
		item, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.Items = append(v.Items, item)
		p.skipSpace()
		if p.i >= len(p.data) {
			return nil, p.errf("unexpected end of input, want ',' or ']'")
		}
		switch p.data[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return v, nil
		default:
			return nil, p.errf("unexpected %s, want ',' or ']'", p.describe())
		}
	}
}

func (p *parser) number() (string, error) {
	start := p.i
	d := p.data
	if p.i < len(d) && d[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(d) && d[p.i] == '0':
		p.i++
	case p.i < len(d) && d[p.i] >= '1' && d[p.i] <= '9':
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
		}
	default:
		return "", p.errf("malformed number: want a digit")
	}
	if p.i < len(d) && d[p.i] == '.' {
		p.i++
		if p.i >= len(d) || d[p.i] < '0' || d[p.i] > '9' {
			return "", p.errf("malformed number: want a digit after '.'")
		}
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
		}
	}
	if p.i < len(d) && (d[p.i] == 'e' || d[p.i] == 'E') {
		p.i++
		if p.i < len(d) && (d[p.i] == '+' || d[p.i] == '-') {
			p.i++
		}
		if p.i >= len(d) || d[p.i] < '0' || d[p.i] > '9' {
			return "", p.errf("malformed number: want a digit in the exponent")
		}
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
		}
	}
	return string(d[start:p.i]), nil
}

func (p *parser) str() (string, error) {
	p.i++ // opening quote
	d := p.data
	start := p.i
	// Fast path: no escapes.
	for p.i < len(d) {
		c := d[p.i]
		if c == '"' {
			s := d[start:p.i]
			if !utf8.Valid(s) {
				return "", p.badUTF8(start)
			}
			p.i++
			return string(s), nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		p.i++
	}
	return p.strEscaped(start)
}

// strEscaped reads the rest of a string that str's fast path stopped in,
// at an escape, a control character or the end of input, from start where
// its text began. It stands apart so the common string, with no escape,
// runs str's short loop alone.
func (p *parser) strEscaped(start int) (string, error) {
	d := p.data
	var b strings.Builder
	b.Write(d[start:p.i])
	if !utf8.ValidString(b.String()) {
		return "", p.badUTF8(start)
	}
	for {
		if p.i >= len(d) {
			return "", p.errf("unterminated string")
		}
		c := d[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			if c == '\n' {
				return "", p.errf("unterminated string (raw line break inside it)")
			}
			return "", p.errf("control character 0x%02x inside a string; escape it", c)
		case c == '\\':
			if err := p.escape(&b); err != nil {
				return "", err
			}
		default:
			r, size := utf8.DecodeRune(d[p.i:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.badUTF8(p.i)
			}
			b.WriteRune(r)
			p.i += size
		}
	}
}

// escape reads the backslash escape at p.i and writes what it stands for
// to b.
func (p *parser) escape(b *strings.Builder) error {
	d := p.data
	if p.i+1 >= len(d) {
		return p.errf("unterminated string")
	}
	e := d[p.i+1]
	p.i += 2
	switch e {
	case '"', '\\', '/':
		b.WriteByte(e)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, ok := p.hex4()
		if !ok {
			return p.errf("malformed \\u escape")
		}
		b.WriteRune(p.surrogatePair(r))
	default:
		p.i -= 1
		if e < 0x20 || e == 0x7f {
			// Printed raw it would break the error's one line.
			return p.errf("unknown escape: a backslash before control character 0x%02x", e)
		}
		return p.errf("unknown escape \\%c", e)
	}
	return nil
}

// surrogatePair is r, read from a \u escape, or, when r is half of a
// surrogate pair, the rune it makes with the \u escape after it. A half
// without a valid other half is U+FFFD, and the escape after it, if any,
// is read on its own.
func (p *parser) surrogatePair(r rune) rune {
	if !utf16.IsSurrogate(r) {
		return r
	}
	d := p.data
	if p.i+1 < len(d) && d[p.i] == '\\' && d[p.i+1] == 'u' {
		save := p.i
		p.i += 2
		r2, ok := p.hex4()
		if ok && utf16.DecodeRune(r, r2) != utf8.RuneError {
			return utf16.DecodeRune(r, r2)
		}
		p.i = save
	}
	return utf8.RuneError
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.i : p.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}

// badUTF8 reports the first invalid byte at or after from.
func (p *parser) badUTF8(from int) error {
	i := from
	for i < len(p.data) {
		r, size := utf8.DecodeRune(p.data[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	p.i = i
	return p.errf("invalid UTF-8 (byte 0x%02x)", p.data[min(i, len(p.data)-1)])
}
