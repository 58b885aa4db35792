package cli

import (
	"fmt"

	"toolscope/core/baseline"
	"toolscope/core/termsafe"
)

// baselineCreated is what the run that creates a baseline prints in place
// of the text report: what it holds and what the next runs do with it.
func baselineCreated(b *baseline.File, path string, catalogs int) string {
	findings, pairs := len(b.Findings), len(b.Pairs)
	for _, s := range b.Catalogs {
		findings += len(s.Findings)
		pairs += len(s.Pairs)
	}
	from := ""
	if catalogs > 1 {
		from = fmt.Sprintf(" of %d catalogs", catalogs)
	}
	p := termsafe.Line(path)
	return fmt.Sprintf("toolscope lint: wrote the baseline %s: %s and %s%s, accepted as they are; `toolscope lint --baseline %s` now fails only on new ones (commit the file)",
		p, plural(findings, "finding", "findings"), plural(pairs, "flagged pair", "flagged pairs"), from, p)
}
