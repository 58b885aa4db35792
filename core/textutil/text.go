// Package textutil holds the text helpers the rules, the similarity scoring
// and the renderings share. The reference is JavaScript, so "whitespace",
// "trim" and "length" here mean what they mean there: parity depends on it.
package textutil

import (
	"strings"
	"unicode/utf8"
)

// IsJSSpace reports whether r is whitespace to JavaScript (\s, trim).
func IsJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// JSTrim is JavaScript's String.prototype.trim.
func JSTrim(s string) string { return strings.TrimFunc(s, IsJSSpace) }

// UTF16Len is JavaScript's String.prototype.length.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// IsLowerOrDigit reports whether b is an ASCII lower-case letter or digit.
func IsLowerOrDigit(b byte) bool { return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' }

// IsUpper reports whether b is an ASCII capital.
func IsUpper(b byte) bool { return b >= 'A' && b <= 'Z' }

// HasWholeWord reports whether word occurs in text, case-insensitively,
// bounded on both sides by the text's ends or by characters other than
// ASCII letters and digits.
func HasWholeWord(text, word string) bool {
	return HasWholeWordLower(strings.ToLower(text), strings.ToLower(word))
}

// HasWholeWordLower is HasWholeWord for a text and a word already in
// lower case (strings.ToLower): a text read for many words is lowered
// once.
func HasWholeWordLower(text, word string) bool {
	if word == "" {
		return false
	}
	for from := 0; from <= len(text)-len(word); {
		k := strings.Index(text[from:], word)
		if k < 0 {
			return false
		}
		at := from + k
		end := at + len(word)
		if (at == 0 || !IsLowerOrDigit(text[at-1])) && (end == len(text) || !IsLowerOrDigit(text[end])) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[at:])
		from = at + size
	}
	return false
}
