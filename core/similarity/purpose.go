package similarity

import (
	"slices"
	"strings"
	"unicode"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// What a tool is for, in its author's words: the first sentence of its
// description as a verb phrase ("retrieve the waterfall of a RUM page
// view"), for a sentence that sends a request to it. Advice built from it
// says what the author said, never a condition toolscope made up.

// maxPurpose is the longest purpose quoted, in bytes.
const maxPurpose = 110

// leadIns are openings a description's first sentence drops before its
// verb: "This tool retrieves ..." is "retrieve ...".
var leadIns = []string{
	"use this tool to ", "use this to ", "use to ", "this tool will ", "this tool ", "tool to ", "a tool to ", "a tool that ",
	"this endpoint ", "endpoint to ", "this function ", "function to ", "this api ", "allows you to ", "lets you ", "you can ",
	"used to ", "is used to ", "is used for ", "can be used to ", "helps you ", "helps to ", "helps ", "it ",
}

// moreVerbs are verbs a purpose may start with beside the names' actions.
var moreVerbs = map[string]bool{
	"return": true, "provide": true, "perform": true, "give": true, "translate": true, "look": true, "manage": true,
	"access": true, "display": true, "track": true, "estimate": true, "measure": true, "determine": true, "identify": true,
	"predict": true, "recommend": true, "suggest": true, "plan": true, "compare": true, "sort": true, "filter": true,
	"rank": true, "locate": true, "load": true, "store": true, "record": true, "log": true, "post": true, "share": true,
	"invite": true, "assign": true, "mark": true, "tag": true, "label": true, "fetch": true, "duplicate": true, "clone": true,
	"render": true, "print": true, "format": true, "transform": true, "summarise": true, "answer": true, "ask": true,
	"request": true, "submit": true, "process": true, "handle": true, "initiate": true, "generate": true, "retrieve": true,
	"exchange": true, "rebase": true, "debug": true, "help": true, "set": true, "check": true, "show": true,
	"reverse": true, "geocode": true, "toggle": true, "roll": true, "bring": true, "turn": true, "pin": true, "unpin": true, "star": true,
	"rotate": true, "scale": true, "restrict": true, "allow": true, "block": true, "ban": true, "invalidate": true, "refresh": true, "resolve": true, "list": true, "search": true, "get": true, "read": true,
}

// purposeOf is what tool t is for in its description's words: the first
// of its first sentences that reads as a verb phrase, speaks of no "you"
// or "this", and says more than t's name (p); "" when none does.
func purposeOf(t *catalog.Tool, p nameParts) string {
	for _, sentence := range leadSentences(t.Description, 4) {
		for _, s := range breadcrumbTails(sentence) {
			if what := purpose(s); what != "" && !restatesName(what, p) {
				return what
			}
		}
	}
	return ""
}

// breadcrumbTails are a sentence to read for a purpose: itself, and when
// it opens with a bracketed label and a trail of "-"-joined headings
// ("[Feishu/Lark]-Workplace-Get Workplace Access Data, including ..."),
// each heading of the trail, the last first.
func breadcrumbTails(s string) []string {
	out := []string{s}
	if !strings.HasPrefix(s, "[") {
		return out
	}
	_, trail, ok := strings.Cut(s, "]-")
	if !ok {
		return out
	}
	segs := strings.Split(trail, "-")
	for k := len(segs) - 1; k >= 0; k-- {
		out = append(out, segs[k])
	}
	return out
}

// purpose is one sentence as a verb phrase starting in lower case, or ""
// when it does not start with a verb, speaks to the reader, or says
// nothing.
func purpose(s string) string {
	// A label before a bar ("Notion | List all users") is no part of it.
	if i := strings.Index(s, " | "); i >= 0 && i < 30 {
		s = s[i+3:]
	}
	low := strings.ToLower(s)
	for changed := true; changed; {
		changed = false
		for _, l := range leadIns {
			if strings.HasPrefix(low, l) {
				s, low = s[len(l):], low[len(l):]
				changed = true
			}
		}
	}
	word, rest, _ := strings.Cut(s, " ")
	next, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	base := baseVerb(strings.ToLower(word), strings.ToLower(next))
	if base == "" {
		// "Primary entry point for finding papers by topic": what it is
		// for is the verb after "for".
		base, rest = gerundPurpose(s)
	}
	if base == "" || strings.TrimSpace(rest) == "" {
		return ""
	}
	for _, w := range strings.Fields(strings.ToLower(rest)) {
		switch strings.Trim(w, ".,;:()'\"`") {
		case "this", "me", "my", "i", "we", "our":
			return ""
		}
	}
	s = base + " " + agreeVerbs(strings.TrimSpace(rest))
	if len(s) > maxPurpose {
		s = cutPhrase(s, maxPurpose)
	}
	s = strings.TrimRight(s, " ,;:-–—(.")
	if len(strings.Fields(s)) < 2 || strings.Count(s, "(") != strings.Count(s, ")") || strings.Count(s, "`")%2 != 0 {
		return ""
	}
	return s
}

// agreeVerbs puts a verb joined to the first one in its base form too:
// "fetch a URL and returns its content" is "... and return its content".
func agreeVerbs(rest string) string {
	ws := strings.Split(rest, " ")
	for i := 1; i < len(ws); i++ {
		if ws[i-1] != "and" && ws[i-1] != "or" {
			continue
		}
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		if b := baseVerb(ws[i], strings.ToLower(next)); b != "" && b != strings.ToLower(ws[i]) {
			ws[i] = b
		}
	}
	return strings.Join(ws, " ")
}

// leadSentences are a description's first n sentences, markup and final
// stops dropped: a sentence ends at a stop followed by a space, at a line's
// end, or at a colon.
func leadSentences(d string, n int) []string {
	var out []string
	for rest := d; rest != "" && len(out) < n; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#*>-` \t"))
		for line != "" && len(out) < n {
			end, next := len(line), len(line)
			for i := 0; i < len(line); i++ {
				c := line[i]
				if c != '.' && c != '!' && c != '?' && c != ':' {
					continue
				}
				if i+1 < len(line) && line[i+1] != ' ' || c == '.' && abbreviation(line[:i]) {
					continue
				}
				end, next = i, i+1
				break
			}
			if sentence := strings.TrimSpace(emphasis.Replace(line[:end])); sentence != "" {
				out = append(out, sentence)
			}
			line = strings.TrimSpace(line[min(next, len(line)):])
		}
	}
	return out
}

// emphasis is Markdown's bold, dropped from a sentence.
var emphasis = strings.NewReplacer("**", "", "__", "")

// abbreviation reports whether text ends with an abbreviation whose stop
// ends no sentence ("e.g", "i.e", "etc", "vs", one letter).
func abbreviation(text string) bool {
	i := strings.LastIndexAny(text, " (")
	w := strings.ToLower(text[i+1:])
	switch w {
	case "e.g", "i.e", "etc", "vs", "approx", "incl", "no", "st", "dr", "mr", "ms":
		return true
	}
	return len(w) == 1
}

// baseVerb is word as a verb's base form when it is one a purpose may
// start with ("retrieves" and "retrieve" are "retrieve"), else "". A word
// toolscope does not know is taken for a verb when next, the word after
// it, opens what it acts on ("Rebases a branch").
func baseVerb(word, next string) string {
	word = strings.TrimFunc(word, func(r rune) bool { return !unicode.IsLetter(r) })
	known := func(w string) bool { return isAction(w) || moreVerbs[w] }
	if known(word) && !strings.HasSuffix(word, "s") {
		return word
	}
	strip := func(w string) string {
		for _, c := range []struct{ suffix, base string }{{"ies", "y"}, {"ches", "ch"}, {"shes", "sh"}, {"sses", "ss"}, {"xes", "x"}, {"zes", "z"}, {"oes", "o"}, {"s", ""}} {
			if strings.HasSuffix(w, c.suffix) {
				return strings.TrimSuffix(w, c.suffix) + c.base
			}
		}
		return w
	}
	if w := strip(word); w != word && known(w) {
		return w
	}
	if known(word) {
		return word
	}
	if determiners[next] && len(word) > 3 && strings.HasSuffix(word, "s") && !strings.HasSuffix(word, "ss") {
		return strip(word)
	}
	return ""
}

// determiners open a noun phrase: after an unknown word ending in -s they
// make it a verb ("Rebases a branch").
var determiners = map[string]bool{"a": true, "an": true, "the": true, "all": true, "one": true, "each": true, "every": true,
	"your": true, "its": true, "their": true, "multiple": true, "several": true, "existing": true, "specific": true, "any": true}

// gerundPurpose reads "... for finding X" as "find" and "X"; "" when the
// sentence has no such phrase.
func gerundPurpose(s string) (verb, rest string) {
	low := strings.ToLower(s)
	i := strings.Index(low, " for ")
	if i < 0 {
		return "", ""
	}
	word, after, _ := strings.Cut(s[i+5:], " ")
	w := strings.ToLower(word)
	if !strings.HasSuffix(w, "ing") || len(w) < 6 {
		return "", ""
	}
	stem := strings.TrimSuffix(w, "ing")
	for _, v := range []string{stem, stem + "e", stem[:len(stem)-1]} {
		if isAction(v) || moreVerbs[v] {
			return v, after
		}
	}
	return "", ""
}

// cutPhrase shortens s to at most n bytes at the last clause boundary,
// else before its last phrase ("within ...", "for ..."), else at a word,
// dropping a dangling small word.
func cutPhrase(s string, n int) string {
	head := s[:n]
	for _, seps := range [][]string{{"; ", ", ", " (", " - ", " – ", " — "}, {" within ", " for ", " in ", " from ", " with ", " by ", " using ", " that ", " which ", " and "}} {
		best := -1
		for _, sep := range seps {
			if i := strings.LastIndex(head, sep); i >= 40 && i > best {
				best = i
			}
		}
		if best > 0 {
			return head[:best]
		}
	}
	if i := strings.LastIndex(head, " "); i > 0 {
		head = head[:i]
	}
	ws := strings.Fields(head)
	for len(ws) > 2 && (stopWords[strings.ToLower(ws[len(ws)-1])] || ws[len(ws)-1] == "as" || ws[len(ws)-1] == "that") {
		ws = ws[:len(ws)-1]
	}
	return strings.Join(ws, " ")
}

// restatesName reports whether a purpose says nothing its tool's name
// does not: "get logs" for get_logs.
func restatesName(what string, p nameParts) bool {
	name := append(slices.Clone(p.said), p.verb)
	_, rest, _ := strings.Cut(what, " ")
	for _, w := range descriptionTerms(rest) {
		if stopWords[w] || plainWords[w] || hasTerm(name, w) {
			continue
		}
		return false
	}
	return true
}

// samePurpose reports whether two tools' descriptions start with the same
// sentence: a sentence sending a request from one to the other would
// then say nothing. (Two purposes read alike from different sentences
// are caught where the sentences are made.)
func samePurpose(a, b *catalog.Tool) bool {
	sa, sb := leadSentences(a.Description, 1), leadSentences(b.Description, 1)
	return len(sa) == 1 && len(sb) == 1 && strings.EqualFold(sa[0], sb[0])
}

// ownRequired lists up to two required parameters x takes and y does not.
func ownRequired(x, y *catalog.Tool) []string {
	theirs := map[string]bool{}
	for _, m := range paramMembers(y) {
		theirs[strings.ToLower(m)] = true
	}
	var out []string
	if req := x.Schema.Get("required"); req.Is(jsonv.Array) {
		for _, r := range req.Items {
			if s, ok := r.Str(); ok && plainParam(s) && !theirs[strings.ToLower(s)] && len(out) < 2 {
				out = append(out, s)
			}
		}
	}
	return out
}

// names reports whether a description mentions the tool called name.
func names(description, name string) bool {
	return name != "" && strings.Contains(strings.ToLower(description), strings.ToLower(name))
}
