package tui

import (
	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// snapshot is what the panes show: one catalog and what is known about it.
// It is replaced whole, never changed in place, so a pane can tell by the
// pointer whether its cached rendering is stale, and a background command
// can read the one it was given while the user moves on.
type snapshot struct {
	cat   *catalog.Catalog
	tools []toolInfo // parallel to cat.Tools
}

// toolInfo is what the tool list's badges and sorts need about one tool.
type toolInfo struct {
	errors, warnings  int
	confusable, watch int
	best              float64 // the tool's highest pair score
	ruled             int     // arguments with an ask or assume rule
	period            bool
}

func newSnapshot(cat *catalog.Catalog) *snapshot {
	s := &snapshot{cat: cat, tools: make([]toolInfo, len(cat.Tools))}
	for i, t := range cat.Tools {
		if t.AskOrAssume.Is(jsonv.Object) {
			s.tools[i].ruled = len(t.AskOrAssume.Members)
		}
		s.tools[i].period = t.Period != nil
	}
	return s
}
