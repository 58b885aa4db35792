package lint

import (
	"fmt"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/tokens"
)

// The catalog-tokens rule reads Measure's counts when Analyze made them:
// the same totals, tools, verdict and longest as counting the
// definitions again, at every limit; and the counts it reads are the
// ones handed over (a context given other counts says so).
func TestTokensOverReadsMeasuredCounts(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 150 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"name":"tool_%d","description":"%s","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"what to look for"}}}}`, i, strings.Repeat("Finds things in the store. ", i%7+1))
	}
	b.WriteString("]")
	cat, err := catalog.Parse("many.json", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	meter := tokens.NewMeter(nil)
	m := meter.Measure(cat, 0, false)
	for _, limit := range []int{0, 100, 1000, 3000, m.Total.O200k - 1, m.Total.O200k, 1 << 30} {
		plain := newContext(cat)
		plain.meter = meter
		read := newContext(cat)
		read.meter = meter
		read.measured = func() *tokens.Catalog { return &m }
		c1, n1, o1, l1 := plain.TokensOver(limit)
		c2, n2, o2, l2 := read.TokensOver(limit)
		if c1 != c2 || n1 != n2 || o1 != o2 || l1 != l2 {
			t.Errorf("limit %d: measured %d %d %v %v, counted %d %d %v %v", limit, c2, n2, o2, l2, c1, n1, o1, l1)
		}
	}
	// The counts read are the ones handed over, not counted again.
	other := m
	other.Tools = append([]tokens.Tool(nil), m.Tools...)
	other.Tools[0].O200k = 1 << 20
	c := newContext(cat)
	c.measured = func() *tokens.Catalog { return &other }
	if counted, _, _, longest := c.TokensOver(1 << 30); counted <= m.Total.O200k || longest.Name != "tool_0" {
		t.Errorf("measured counts not read: %d tokens, longest %s", counted, longest.Name)
	}
}
