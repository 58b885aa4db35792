package report

import (
	"fmt"

	"toolscope/core/lint"
)

// ScoreLine is the score in one line: the catalog's, its band, and the
// worst tool when one is below the catalog ("Score 61/100 (fair) · lowest:
// get_request_latency 30").
func ScoreLine(s *lint.Score) string {
	line := fmt.Sprintf("Score %d/100 (%s)", s.Catalog, lint.Band(s.Catalog))
	if w, ok := worstTool(s); ok && w.Score < s.Catalog {
		line += fmt.Sprintf(" · lowest: %s %d", safe(w.Name), w.Score)
	}
	return line
}

// worstTool is the tool with the lowest score, the first in catalog order
// among equals.
func worstTool(s *lint.Score) (lint.ToolScore, bool) {
	if len(s.Parts) == 0 {
		return lint.ToolScore{}, false
	}
	w := s.Parts[0]
	for _, t := range s.Parts[1:] {
		if t.Score < w.Score {
			w = t
		}
	}
	return w, true
}
