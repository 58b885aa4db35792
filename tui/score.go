package tui

import (
	"fmt"

	"toolscope/core/lint"
)

// scoreCache is the score of one snapshot with one catalog's token counts,
// kept so that a frame does not score the catalog again.
type scoreCache struct {
	snap   *snapshot
	tokens *tokenCounts
	score  *lint.Score
}

// score is the catalog's score (lint.ScoreOf, a recorded probe's
// measures counted), nil until the rules, the verdicts and the token
// counts are in.
func (m *Model) score() *lint.Score {
	s := m.snap
	if s == nil || !s.analysed || m.tokens == nil || m.tokens.cat != s.cat || m.eng.verdictsPending(s.sim != nil) {
		return nil
	}
	if m.catalogScore.snap == s && m.catalogScore.tokens == m.tokens {
		return m.catalogScore.score
	}
	r := *s.report
	counts := m.tokens.Catalog
	r.Tokens = &counts
	m.catalogScore = scoreCache{snap: s, tokens: m.tokens, score: lint.ScoreOf(&r, s.cat, m.opts.Probe.Measured(s.cat, &r))}
	return m.catalogScore.score
}

// scoreStatus is the header's score, "" until there is one.
func (m *Model) scoreStatus() string {
	sc := m.score()
	if sc == nil {
		return ""
	}
	if what := m.eng.departed(); what != "" {
		// s, m and the threshold keys change the verdicts, and the
		// score with them: say it is no longer the gate's.
		return fmt.Sprintf("score %d/100 (your %s, not the gate's)", sc.Catalog, what)
	}
	return fmt.Sprintf("score %d/100", sc.Catalog)
}
