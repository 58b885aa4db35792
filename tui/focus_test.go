package tui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/lint"
)

// g opens the ranking at its top, the worst pairs, whichever tool is
// selected and from whichever pane; g again in Pairs goes back to the
// tool's neighbours, at their top too.
func TestWorstPairsOpenAtTheTop(t *testing.T) {
	for _, from := range [][]string{{"g"}, {"3", "g"}, {"2", "g"}} {
		m := scoredModel(t, mockOptions(t), 160, 45)
		for selectedName(m) != "resize_volume" {
			press(m, "down")
		}
		// The tool's nearest pair is not the worst one: the old cursor
		// would have opened the ranking on it, further down.
		top := m.snap.sim.Ranked[0]
		if top.A == "resize_volume" || top.B == "resize_volume" {
			t.Fatal("the test catalog changed: resize_volume is in the worst pair")
		}
		press(m, from...)
		if !m.pairs.global || m.focus != panePairs {
			t.Fatalf("%v: global %v, focus %v", from, m.pairs.global, m.focus)
		}
		if pr, _ := m.pairs.selected(); m.pairs.cursor != 0 || m.pairs.offset != 0 || pr.A != top.A || pr.B != top.B {
			t.Errorf("%v: the ranking opened at row %d (top %d, %s ↔ %s), want the worst pair %s ↔ %s at the top", from, m.pairs.cursor, m.pairs.offset, pr.A, pr.B, top.A, top.B)
		}
		press(m, "down", "down", "g")
		if m.pairs.global || m.pairs.cursor != 0 {
			t.Errorf("%v then g: global %v, row %d; want the neighbours at their top", from, m.pairs.global, m.pairs.cursor)
		}
	}
}

// enter in the filter ends it and opens the tool it leaves selected: the
// Detail keys work at once (w shows the teaching text). ↓ ends it and
// stays in the list.
func TestEnterInTheFilterOpensTheTool(t *testing.T) {
	m := newTestModel(t, 160, 45)
	press(m, "/")
	typeKeys(m, "query")
	press(m, "enter")
	if m.tools.Typing() || m.focus != paneTool || selectedName(m) != "query_metrics" {
		t.Fatalf("after enter: typing %v, focus %v, selected %q", m.tools.Typing(), m.focus, selectedName(m))
	}
	before := m.tool.why
	press(m, "w")
	if m.tool.why == before {
		t.Error("w after enter in the filter did nothing")
	}
	if len(m.tools.rows) != 1 {
		t.Errorf("the filter was not kept: %d rows", len(m.tools.rows))
	}
	m = newTestModel(t, 160, 45)
	press(m, "/")
	typeKeys(m, "vol")
	press(m, "down")
	if m.tools.Typing() || m.focus != paneTools {
		t.Errorf("after ↓: typing %v, focus %v; want the list", m.tools.Typing(), m.focus)
	}
	// A filter that keeps no tool has nothing to open.
	m = newTestModel(t, 160, 45)
	press(m, "/")
	typeKeys(m, "zzzzqqq")
	press(m, "enter")
	if m.focus != paneTools {
		t.Errorf("enter on an empty filter moved focus to %v", m.focus)
	}
}

// Closing the drawer gives focus back to the pane it was opened from, at
// every layout, by a and by esc (the first esc stops typing).
func TestDrawerCloseReturnsFocus(t *testing.T) {
	for _, size := range [][2]int{{160, 45}, {110, 40}, {80, 24}} {
		for _, from := range []struct {
			keys []string
			pane paneID
		}{{[]string{"1"}, paneTools}, {[]string{"2"}, paneTool}, {[]string{"3"}, panePairs}} {
			for _, closeKeys := range [][]string{{"esc", "a"}, {"esc", "esc"}} {
				m := scoredModel(t, mockOptions(t), size[0], size[1])
				press(m, from.keys...)
				press(m, "a")
				if m.focus != paneArgs || !m.drawerOpen() {
					t.Fatalf("a did not open the drawer")
				}
				press(m, closeKeys...)
				if m.drawerOpen() || m.focus != from.pane {
					t.Errorf("%dx%d: opened from %v, closed with %v: open %v, focus %v", size[0], size[1], from.pane, closeKeys, m.drawerOpen(), m.focus)
				}
			}
		}
	}
}

// H with no project config says why it does nothing.
func TestHideWithoutAConfigSaysWhy(t *testing.T) {
	m := newTestModel(t, 160, 45)
	press(m, "H")
	if !strings.Contains(m.notice, "toolscope.yaml") || !strings.Contains(footerLine(m), "H hides what toolscope.yaml accepts") {
		t.Errorf("H without a config: notice %q, footer %q", m.notice, footerLine(m))
	}
	o := mockOptions(t)
	o.ConfigPath = "/nonexistent/dir/toolscope.yaml"
	m = scoredModel(t, o, 160, 45)
	press(m, "H")
	if !strings.Contains(m.notice, "A accepts a pair, I ignores a finding") {
		t.Errorf("H before any config is written: %q", m.notice)
	}
}

// The wide footer lists every key that works now: each in words, or its
// key after "also" when the words do not fit. Narrow footers list what
// fits, and keep help and quit.
func TestWideFooterListsEveryKeyThatWorks(t *testing.T) {
	dir := t.TempDir()
	catPath := filepath.Join(dir, "ops.json")
	data, err := os.ReadFile("testdata/ops.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(catPath, data, 0o644)
	cfgPath := filepath.Join(dir, "toolscope.yaml")
	os.WriteFile(cfgPath, []byte("rules:\n  says-what-not-when: warn\n"), 0o644)
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	o := mockOptions(t)
	o.Config, o.ConfigPath = cfg, cfgPath
	o.Reload = func(context.Context) (*catalog.Catalog, error) { return catalog.Load(catPath, nil) }
	o.Export = func(io.Writer, string, *lint.Report, *catalog.Catalog) error { return nil }
	for _, w := range []int{140, 160, 200} {
		for _, keys := range [][]string{{}, {"2"}, {"3"}, {"3", "g"}} {
			m := scoredModel(t, o, w, 45)
			// Watched, as a catalog file is (set after the start: the
			// watcher itself would keep the test's drain waiting).
			m.opts.Watch = catPath
			m.Update(tea.WindowSizeMsg{Width: w, Height: 45})
			press(m, keys...)
			footer := footerLine(m)
			listed := map[string]bool{}
			for _, part := range strings.Split(strings.TrimSpace(footer), " · ") {
				if rest, ok := strings.CutPrefix(part, "also "); ok {
					for _, k := range strings.Fields(rest) {
						listed[k] = true
					}
					continue
				}
				listed[strings.Fields(part)[0]] = true
			}
			k := m.keys
			for _, b := range []struct {
				b    key.Binding
				name []string // how the footer may name it
			}{
				{k.Scoring, []string{"s"}}, {k.Embedder, []string{"m"}}, {k.Export, []string{"e"}}, {k.Reload, []string{"r"}},
				{k.WhatIf, []string{"d"}}, {k.NextMatch, []string{"n"}}, {k.Copy, []string{"c"}}, {k.EditFile, []string{"E"}},
				{k.HideTriaged, []string{"H"}}, {k.Raise, []string{"+/-", "+-"}}, {k.Widen, []string{"]/[", "]["}},
				{k.Filter, []string{"/"}}, {k.Arguments, []string{"a"}}, {k.NextPane, []string{"tab"}}, {k.Zoom, []string{"z"}},
				{k.Help, []string{"?"}}, {k.Quit, []string{"q"}},
			} {
				if !b.b.Enabled() {
					t.Errorf("%d %v: %s is off; the test wants every key working", w, keys, b.b.Help().Key)
					continue
				}
				if !slices.ContainsFunc(b.name, func(n string) bool { return listed[n] }) {
					t.Errorf("%d columns, after %v: the footer leaves out %s:\n%q", w, keys, b.b.Help().Key, footer)
				}
			}
			if ansi.StringWidth(footer) > w {
				t.Errorf("the footer is %d wide at %d", ansi.StringWidth(footer), w)
			}
		}
	}
}

// Text is cut where it matters least: a Detail title keeps the tool's
// name whole (the section tabs give way), a comparison at 80 columns
// keeps "accepted", the quit question fits with its answers, and the
// header keeps the token count beside "1 accepted".
func TestTitlesKeepWhatMatters(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "toolscope.yaml")
	os.WriteFile(cfgPath, []byte("accepted-pairs:\n  - tools: [get_volume_status, hist_volume_status]\n    reason: the history tool is only offered to the audit agent\n"), 0o644)
	cfg, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	o := mockOptions(t)
	o.Config, o.ConfigPath = cfg, cfgPath

	for _, w := range []int{140, 160} {
		m := scoredModel(t, o, w, 45)
		press(m, "down") // hist_volume_status
		top := strings.Split(ansi.Strip(m.View()), "\n")[1]
		if !strings.Contains(top, "─ hist_volume_status ── [Findings]") {
			t.Errorf("%d columns: the Detail title cuts the name: %q", w, top)
		}
	}

	m := scoredModel(t, o, 80, 24)
	press(m, "3", "g", "enter")
	if m.compare() == nil {
		t.Fatal("enter did not compare")
	}
	view := ansi.Strip(m.View())
	if title := strings.Split(view, "\n")[2]; !strings.Contains(title, "confusable, accepted") {
		t.Errorf("the comparison's title at 80 columns hides the verdict: %q", title)
	}

	m = scoredModel(t, o, 80, 24)
	press(m, "a")
	typeKeys(m, `{"volume_id": "vol-1"}`)
	press(m, "esc", "esc", "q")
	if f := footerLine(m); !strings.Contains(f, "quit and lose the drafts (arguments of 1 tool)? y yes · n no") {
		t.Errorf("the quit question at 80 columns: %q", f)
	}

	// 145 columns: room for the counts, the token count and "1 accepted",
	// not for "1 accepted, 0 ignored" as well.
	m = scoredModel(t, o, 145, 45)
	if header := strings.Split(ansi.Strip(m.View()), "\n")[0]; !strings.Contains(header, "1 accepted · ") || !strings.HasSuffix(strings.TrimSpace(header), "FAIL") || !strings.Contains(header, "400 tokens") {
		t.Errorf("the header at 145 columns drops the token count beside the accepted pair: %q", header)
	}
}
