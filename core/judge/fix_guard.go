package judge

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/termsafe"
)

// SentenceGuard refuses fix sentences that would make a catalog worse by
// lint's own measure, before they are re-tested or written. The judge
// proposes them from both tools' texts, which often come from a third
// party's server, so a sentence is untrusted text bound for a tool
// description: it must be printable (no control character, no bidi
// override, tag or zero-width character: termsafe's test) and the
// amended tools must have no error-level finding of any rule (every rule
// of lint.AllRules, the tool-poisoning guard and the invisible-characters
// rule among them) that they did not have.
type SentenceGuard struct {
	cat   *catalog.Catalog
	rules []lint.Rule
}

// errorKey counts error findings by tool and rule.
type errorKey struct{ tool, rule string }

// NewSentenceGuard is the guard for sentences added to cat's tools.
func NewSentenceGuard(cat *catalog.Catalog) *SentenceGuard {
	return &SentenceGuard{cat: cat, rules: lint.AllRules()}
}

// errors counts cat's error-level findings by tool and rule, with the
// first finding of each.
func (g *SentenceGuard) errors(cat *catalog.Catalog) (map[errorKey]int, map[errorKey]lint.Finding) {
	counts, first := map[errorKey]int{}, map[errorKey]lint.Finding{}
	for _, f := range lint.Structural(cat, lint.Options{Rules: g.rules}) {
		if f.Severity != lint.SeverityError {
			continue
		}
		k := errorKey{f.Tool, f.Rule}
		if counts[k] == 0 {
			first[k] = f
		}
		counts[k]++
	}
	return counts, first
}

// Refuse says why the sentences (by tool name) may not be added to their
// tools' descriptions, "" when they may: a sentence that is not one line
// of printable text, or an error finding the amended tools have that
// they had not. The rules run on the amended tools alone, before and
// after, which is what a sentence can change of the rules that read a
// tool's own text, at a cost that does not grow with the catalog; the
// reason names the tool and the rule, every character a terminal could
// act on escaped.
func (g *SentenceGuard) Refuse(sentences map[string]string) string {
	return g.refuse(sentences, false)
}

// RefuseWhole is Refuse with the rules run on the whole catalog, as lint
// would run them on the file written: for the last check before a write.
func (g *SentenceGuard) RefuseWhole(sentences map[string]string) string {
	return g.refuse(sentences, true)
}

func (g *SentenceGuard) refuse(sentences map[string]string, whole bool) string {
	for _, name := range slices.Sorted(maps.Keys(sentences)) {
		s := sentences[name]
		if shown := termsafe.Line(s); shown != s {
			return fmt.Sprintf("the sentence for %s is not plain printable text (it holds a control, bidi, tag or zero-width character: %s)", termsafe.Line(name), clip(shown, 120))
		}
	}
	base := &catalog.Catalog{Source: g.cat.Source}
	amended := &catalog.Catalog{Source: g.cat.Source}
	for _, t := range g.cat.Tools {
		s, ok := sentences[t.Name]
		if !whole && !ok {
			continue
		}
		// Copies, indexed in the catalog they are put in.
		was, now := *t, *t
		was.Index, now.Index = len(base.Tools), len(base.Tools)
		if ok && s != "" {
			now.Description = Amend(t.Description, s)
			now.HasDescription = true
		}
		base.Tools = append(base.Tools, &was)
		amended.Tools = append(amended.Tools, &now)
	}
	before, _ := g.errors(base)
	after, first := g.errors(amended)
	keys := make([]errorKey, 0, len(after))
	for k, n := range after {
		if n > before[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].tool != keys[j].tool {
			return keys[i].tool < keys[j].tool
		}
		return keys[i].rule < keys[j].rule
	})
	f := first[keys[0]]
	return fmt.Sprintf("the sentence for %s fails lint's %s rule (%s)", termsafe.Line(f.Tool), f.Rule, termsafe.Line(clip(f.Message, 160)))
}
