package similarity

import (
	"fmt"
	"slices"
	"strings"

	"toolscope/core/catalog"
)

// AxisKind says which differentiating axis a hint names.
type AxisKind string

// The three hints of SPEC §4.2.
const (
	// AxisQualifier: the names are near-twins, so the words that differ
	// are the axis and the descriptions must say when to choose each.
	AxisQualifier AxisKind = "qualifier"
	// AxisTerms: the description terms only one tool uses are where a
	// choice condition can be anchored.
	AxisTerms AxisKind = "terms"
	// AxisNearDuplicate: the descriptions share every term.
	AxisNearDuplicate AxisKind = "near-duplicate"
)

// Axis is a hint's structure.
type Axis struct {
	Kind AxisKind
	// Qualifiers are the name words only one of the two names has, the
	// first tool's before the second's (AxisQualifier).
	Qualifiers []string
	// TermsA and TermsB are up to three description terms only A's (B's)
	// description uses (AxisTerms).
	TermsA, TermsB []string
}

// MaxHintTerms is how many distinct terms a hint lists per tool.
const MaxHintTerms = 3

// words is what hints read of a tool: its name's words and its
// description's terms.
type words struct {
	name  []string
	terms []string
}

func wordsOf(name, description string) words {
	return words{name: NameTokens(name), terms: descriptionTerms(description)}
}

// axisOf finds the differentiating axis of two tools. Names are near-twins
// when they share at least two words and differ by at most two.
func axisOf(a, b words) Axis {
	aOnly, shared := splitShared(a.name, b.name)
	bOnly, _ := splitShared(b.name, a.name)
	if shared >= 2 && len(aOnly)+len(bOnly) <= 2 {
		return Axis{Kind: AxisQualifier, Qualifiers: append(aOnly, bOnly...)}
	}
	ta := firstMissing(a.terms, b.terms, MaxHintTerms)
	tb := firstMissing(b.terms, a.terms, MaxHintTerms)
	if len(ta) == 0 && len(tb) == 0 {
		return Axis{Kind: AxisNearDuplicate}
	}
	return Axis{Kind: AxisTerms, TermsA: ta, TermsB: tb}
}

// splitShared returns the words of x not in y (repeats kept) and how many
// words of x are in y.
func splitShared(x, y []string) (only []string, shared int) {
	for _, w := range x {
		if slices.Contains(y, w) {
			shared++
		} else {
			only = append(only, w)
		}
	}
	return only, shared
}

// firstMissing returns up to n words of x that are not in y, in order.
func firstMissing(x, y []string, n int) []string {
	var out []string
	for _, w := range x {
		if len(out) == n {
			break
		}
		if !slices.Contains(y, w) {
			out = append(out, w)
		}
	}
	return out
}

// hintText says the axis in a sentence the author can act on.
func hintText(ax Axis, a, b string) string {
	switch ax.Kind {
	case AxisQualifier:
		diff := "nothing: the names have the same words"
		if len(ax.Qualifiers) > 0 {
			diff = quoteJoin(ax.Qualifiers, " vs ")
		}
		return fmt.Sprintf("names differ only by %s: that qualifier is the axis, so each description must say WHEN to choose it (another source? live or historical? how fresh?), e.g. \"Use for ...; prefer %s when ...\"", diff, b)
	case AxisTerms:
		return fmt.Sprintf("the descriptions overlap; the terms only one of them uses are %s: %s vs %s: %s; anchor an explicit choice condition (\"use when ...\") on those",
			a, termList(ax.TermsA), b, termList(ax.TermsB))
	default:
		return fmt.Sprintf("the descriptions are near-duplicates: rewrite one to say when it, and not %s, is the right call", b)
	}
}

// termList shows a tool's own terms; a tool with none is said to have none,
// so the author knows which description adds nothing of its own.
func termList(terms []string) string {
	if len(terms) == 0 {
		return "(no words of its own)"
	}
	return "[" + strings.Join(terms, ", ") + "]"
}

func quoteJoin(ws []string, sep string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "'" + w + "'"
	}
	return strings.Join(q, sep)
}

// Fix is an edit a hint proposes: append Sentence to the description of
// Tool (a catalog name), naming Other with when to choose it.
type Fix struct {
	Tool     string `json:"tool"`
	Other    string `json:"other"`
	Sentence string `json:"append"`
}

// Apply appends the fix's sentence to the tool's description among tools;
// it reports whether the tool was found.
func (f Fix) Apply(tools []*catalog.Tool) bool {
	for _, t := range tools {
		if t.Name == f.Tool {
			d := strings.TrimRight(t.Description, " \t\r\n")
			if d != "" {
				d += " "
			}
			t.Description = d + f.Sentence
			t.HasDescription = true
			return true
		}
	}
	return false
}
