package lint

import (
	"toolscope/core/catalog"
	"toolscope/core/tokens"
)

// ServerShare is one server's part of a catalog merged from several: its
// tools, what their definitions cost in tokens, the confusable pairs it
// shares with each other server, and its structural findings.
type ServerShare struct {
	Server string `json:"server"`
	Tools  int    `json:"tools"`
	// Tokens counts its tools' definitions under o200k_base.
	Tokens int `json:"tokens"`
	// Twins counts, per other server, the confusable pairs across the two
	// (as listed: a report that cut its lists counts what it kept).
	Twins    map[string]int `json:"twins,omitempty"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
}

// ShareByServer fills r.Servers when cat's tools come from two servers or
// more (--merge, --mcp-config), in the servers' order in the catalog; it
// leaves r alone otherwise. Run it once the report's lists are final.
func (r *Report) ShareByServer(cat *catalog.Catalog) {
	r.ShareByServerWith(cat, nil)
}

// ShareByServerWith is ShareByServer with the definitions counted by m
// (nil: a meter of its own), unless the report's Tokens counts them.
func (r *Report) ShareByServerWith(cat *catalog.Catalog, m *tokens.Meter) {
	at := map[string]int{}
	var shares []ServerShare
	for _, t := range cat.Tools {
		k, ok := at[t.Server]
		if !ok {
			k = len(shares)
			at[t.Server] = k
			shares = append(shares, ServerShare{Server: t.Server})
		}
		shares[k].Tools++
	}
	if len(shares) < 2 {
		return
	}
	for i, n := range definitionCounts(r, cat, m) {
		shares[at[cat.Tools[i].Server]].Tokens += n
	}
	serverOf := func(i int) (int, bool) {
		if i < 0 || i >= len(cat.Tools) {
			return 0, false
		}
		return at[cat.Tools[i].Server], true
	}
	for _, p := range r.Similarity.Confusable {
		a, okA := serverOf(p.I)
		b, okB := serverOf(p.J)
		if !okA || !okB || a == b {
			continue
		}
		for _, pair := range [][2]int{{a, b}, {b, a}} {
			s := &shares[pair[0]]
			if s.Twins == nil {
				s.Twins = map[string]int{}
			}
			s.Twins[shares[pair[1]].Server]++
		}
	}
	for _, f := range r.Structural {
		k, ok := serverOf(f.ToolIndex)
		if !ok {
			continue
		}
		if f.Severity == SeverityError {
			shares[k].Errors++
		} else {
			shares[k].Warnings++
		}
	}
	r.Servers = shares
}
