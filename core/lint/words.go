package lint

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/textutil"
)

// Helpers the recommended rules share: the words of names and texts, the
// part of a description that is the author's own, and the parameters a
// catalog repeats on most of its tools.

// wordsOf splits text into lower-case words: runs of letters and digits,
// a camelCase name split at its humps ("sortDir" is "sort", "dir").
func wordsOf(text string) []string {
	if isASCII(text) {
		return asciiWordsOf(text)
	}
	return runeWordsOf(text)
}

// asciiWordsOf is wordsOf for ASCII text: each word a piece of the text,
// copied only when it holds a capital to lower.
func asciiWordsOf(text string) []string {
	var out []string
	asciiPieces(text, func(piece string) bool {
		out = append(out, strings.ToLower(piece))
		return true
	})
	return out
}

// asciiPieces hands yield each word of ASCII text as wordsOf cuts it, in
// its own case, until yield returns false.
func asciiPieces(text string, yield func(piece string) bool) {
	start := -1
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			if start >= 0 {
				if !yield(text[start:i]) {
					return
				}
				start = -1
			}
			continue
		}
		if start >= 0 && 'A' <= c && c <= 'Z' && 'a' <= text[i-1] && text[i-1] <= 'z' {
			if !yield(text[start:i]) {
				return
			}
			start = i
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		yield(text[start:])
	}
}

// lowerIs reports whether ASCII piece, lowered, is w.
func lowerIs(piece, w string) bool {
	if len(piece) != len(w) {
		return false
	}
	for i := 0; i < len(piece); i++ {
		c := piece[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// runeWordsOf is wordsOf for any text.
func runeWordsOf(text string) []string {
	var out []string
	var b strings.Builder
	var prev rune
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// stem folds the plural and the third person of a word onto its stem, so
// "activities" meets "activity" and "lists" meets "list".
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 4 && (strings.HasSuffix(w, "ses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes")):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1]
	}
	return w
}

// fillerWords tell nothing about what a tool does: articles, pronouns,
// prepositions, and the verbs every catalog uses for its plain actions.
var fillerWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true, "on": true, "by": true, "from": true,
	"with": true, "and": true, "or": true, "for": true, "into": true, "at": true, "as": true, "is": true, "are": true,
	"it": true, "its": true, "this": true, "that": true, "be": true, "one": true, "specific": true, "given": true,
	"provided": true, "new": true, "existing": true, "all": true, "some": true, "any": true, "your": true, "user": true,
	"get": true, "gets": true, "retrieve": true, "fetch": true, "list": true, "create": true, "update": true,
	"delete": true, "remove": true, "patch": true, "put": true, "post": true, "set": true, "add": true, "append": true,
	"read": true, "return": true, "show": true, "find": true, "search": true, "query": true, "run": true, "make": true,
	"api": true, "tool": true, "v1": true, "v2": true, "v3": true, "v4": true, "v6": true, "item": true, "object": true,
	"data": true, "info": true, "information": true, "details": true, "properties": true,
}

// boilerplate is what generated catalogs put around the author's words:
// an "Error Responses:" section, a vendor prefix ("Notion | ").
var (
	errorSection = regexp.MustCompile(`(?s)\n\s*Error Responses:.*$`)
	vendorBar    = regexp.MustCompile(`^[^|\n]{1,30}\|\s*`)
	breadcrumb   = regexp.MustCompile(`^\[[^\]]{1,40}\]-`)
)

// ownText is a description without generated boilerplate: the error
// section, a vendor prefix, and the breadcrumb of a generated catalog
// ("[Feishu/Lark]-Docs-Wiki-Search Wiki" is "Search Wiki"). crumb says
// the description was a breadcrumb.
func ownText(desc string) (own string, crumb bool) {
	// Each expression is run only on a text holding what it must match.
	d := textutil.JSTrim(desc)
	if strings.Contains(d, "Error Responses:") {
		d = errorSection.ReplaceAllString(d, "")
	}
	if strings.Contains(d, "|") {
		d = vendorBar.ReplaceAllString(d, "")
	}
	if strings.HasPrefix(d, "[") && breadcrumb.MatchString(d) {
		crumb = true
		parts := strings.Split(d, "-")
		// The author's sentence is the last segment; a hyphenated word
		// inside it ("read-only") is rejoined.
		i := len(parts) - 1
		for i > 1 && !strings.Contains(parts[i], " ") && strings.Contains(parts[i-1], " ") == false && len(parts[i]) < 12 {
			i--
		}
		d = strings.Join(parts[i:], "-")
	}
	return textutil.JSTrim(d), crumb
}

// toldWords are the words of text a reader learns from beyond the name:
// neither filler nor one of the name's own words.
func toldWords(text, name string) []string {
	named := map[string]bool{}
	for _, w := range wordsOf(name) {
		named[stem(w)] = true
	}
	var out []string
	for _, w := range wordsOf(text) {
		if fillerWords[w] || named[stem(w)] || len(w) < 2 {
			continue
		}
		out = append(out, w)
	}
	return out
}

// commonParams are the parameter names most tools of the catalog repeat
// (an Azure catalog's tenant, subscription and retry settings): they say
// nothing of one tool, and whatever they lack is said once for all of
// them. Worked out once per catalog.
func (c *Context) commonParams() map[string]bool {
	if c == nil {
		return nil
	}
	c.commonOnce.Do(func() {
		c.common = map[string]bool{}
		if c.Distinct < 12 {
			return
		}
		count := map[string]int{}
		for _, t := range c.Catalog.Tools {
			if c.IsDuplicate(t) {
				continue
			}
			for _, p := range properties(t.Schema) {
				count[p.Key]++
			}
		}
		for k, n := range count {
			if 2*n >= c.Distinct {
				c.common[k] = true
			}
		}
	})
	return c.common
}

// ownParams are t's parameters that are not common to the catalog.
func (c *Context) ownParams(t *catalog.Tool) []jsonv.Member {
	common := c.commonParams()
	var out []jsonv.Member
	for _, p := range properties(t.Schema) {
		if !common[p.Key] {
			out = append(out, p)
		}
	}
	return out
}

// typeOf is a schema's declared type: its "type" string, or the first
// non-null member of a type list; "" when it declares none.
func typeOf(s *jsonv.Value) string {
	typ := s.Get("type")
	if t, ok := typ.Str(); ok {
		return t
	}
	if typ.Is(jsonv.Array) {
		for _, it := range typ.Items {
			if t, ok := it.Str(); ok && t != "null" {
				return t
			}
		}
	}
	return ""
}

// hasAny reports whether s has any of keys.
func hasAny(s *jsonv.Value, keys ...string) bool {
	return slices.ContainsFunc(keys, s.Has)
}

// descOf is a schema's description, trimmed.
func descOf(s *jsonv.Value) string {
	d, _ := s.Get("description").Str()
	return textutil.JSTrim(d)
}

// nameHas reports whether a parameter's name holds one of words as a word.
func nameHas(name string, words ...string) bool {
	if !isASCII(name) {
		return slices.ContainsFunc(runeWordsOf(name), func(w string) bool { return slices.Contains(words, w) })
	}
	found := false
	asciiPieces(name, func(piece string) bool {
		found = slices.ContainsFunc(words, func(w string) bool { return lowerIs(piece, w) })
		return !found
	})
	return found
}

// textHasWord reports whether text holds one of words as a whole word,
// any case.
func textHasWord(text string, words ...string) bool {
	for _, w := range wordsOf(text) {
		if slices.Contains(words, w) {
			return true
		}
	}
	return false
}
