package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
)

// typical is a call as a model would send it to the test catalog's
// query_metrics: ruled arguments, a period, a few keys.
const typical = `{"metric": "cpu.load", "region": "eu", "window": "24h"}`

// drawerModel is the explorer at 160x45 with the drawer editing
// query_metrics' arguments.
func drawerModel(b testing.TB) *Model {
	m := scoredModel(b, mockOptions(b), 160, 45)
	press(m, "end", "a")
	send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(typical), Paste: true})
	if !strings.Contains(strings.Join(m.drawer.results, "\n"), "region: model's own") {
		b.Fatalf("the drawer does not resolve the declarations:\n%s", strings.Join(m.drawer.results, "\n"))
	}
	return m
}

// BenchmarkDrawerKeystroke is one key typed in the arguments drawer to a
// fresh screen: the edit, validation, resolution and the render (SPEC §8:
// under 16 ms).
func BenchmarkDrawerKeystroke(b *testing.B) {
	m := drawerModel(b)
	keys := []tea.KeyMsg{keyMsg(" "), keyMsg("backspace")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		send(m, keys[i%2])
		_ = m.View()
	}
}

// Keystrokes in the drawer do not pile up memory: the allocations of a
// keystroke stay the same after thousands of them.
func TestDrawerKeystrokeAllocationsDoNotGrow(t *testing.T) {
	m := drawerModel(t)
	keys := []tea.KeyMsg{keyMsg(" "), keyMsg("backspace")}
	i := 0
	step := func() { send(m, keys[i%2]); _ = m.View(); i++ }
	before := testing.AllocsPerRun(200, step)
	for range 4000 {
		step()
	}
	after := testing.AllocsPerRun(200, step)
	if after > before*1.1+1 {
		t.Errorf("allocations per keystroke grew from %.0f to %.0f", before, after)
	}
}

// bigCatalog is n tools in the MCP shape, each with a few parameters.
func bigCatalog(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"tools": [`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name": "tool_%d_get_item", "description": "Get item %d from the store %d. Use when the id is known.",
 "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "The item id."},
 "limit": {"type": "integer", "description": "How many; defaults to 10."}}, "required": ["id"]}}`, i, i, i%7)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkStartup is the explorer's way to its first frame: read the
// catalog, run the structural rules and judge the declarations, lay out
// and render (SPEC §8: under 0.3 s whatever the size; the similarity starts
// after it, in the background).
func BenchmarkStartup(b *testing.B) {
	for _, n := range []int{100, 1000, 5000} {
		data := bigCatalog(n)
		b.Run(fmt.Sprintf("%d_tools", n), func(b *testing.B) {
			for range b.N {
				cat, err := catalog.Parse("big.json", data)
				if err != nil {
					b.Fatal(err)
				}
				opts := mockOptions(b)
				opts.Catalog = cat
				m := New(opts)
				m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
				m.Init()
				m.Close()
				if m.View() == "" {
					b.Fatal("no first frame")
				}
			}
		})
	}
}

// rankingModel is the explorer at 200x60 on the global ranking of a
// catalog with n ranked pairs (the mock embedder; every pair kept).
func rankingModel(b testing.TB, pairs int) *Model {
	n := 2
	for n*(n-1)/2 < pairs {
		n++
	}
	cat, err := catalog.Parse("big.json", bigCatalog(n))
	if err != nil {
		b.Fatal(err)
	}
	opts := mockOptions(b)
	opts.Catalog = cat
	opts.Lint.RankLimit = pairs
	// Every pair flagged carries a hint under its row: the slow case.
	low := -1.0
	opts.Lint.Threshold = &low
	m := scoredModel(b, opts, 200, 60)
	press(m, "3", "g")
	if !m.pairs.global || len(m.pairs.rows) != pairs {
		b.Fatalf("the ranking has %d pairs, want %d", len(m.pairs.rows), pairs)
	}
	return m
}

// BenchmarkRankingJump is End then Home in the global ranking of 5,000
// pairs, each with its frame (docs/performance.md: under 50 ms a jump).
func BenchmarkRankingJump(b *testing.B) {
	m := rankingModel(b, 5000)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		send(m, keyMsg("end"))
		_ = m.View()
		send(m, keyMsg("home"))
		_ = m.View()
	}
	b.StopTimer()
	if m.pairs.cursor != 0 {
		b.Fatalf("home left the cursor at %d", m.pairs.cursor)
	}
}

// BenchmarkListKeystroke is j or k in the tool list of a 1,000-tool
// catalog, scored, to a fresh frame at 200x60: the explorer's side of a
// keystroke (docs/performance.md: keystroke to frame).
func BenchmarkListKeystroke(b *testing.B) {
	cat, err := catalog.Parse("big.json", bigCatalog(1000))
	if err != nil {
		b.Fatal(err)
	}
	opts := mockOptions(b)
	opts.Catalog = cat
	m := scoredModel(b, opts, 200, 60)
	keys := []tea.KeyMsg{keyMsg("j"), keyMsg("k")}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		send(m, keys[i%2])
		_ = m.View()
	}
}
