package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/live"
	"toolscope/core/report"
	"toolscope/core/similarity"
	"toolscope/embed"
)

// mockOptions explores the test catalog with the mock embedder, the way
// the command line would, at a fixed clock.
// seedOptions are mockOptions with the seed's rule pack, which gives the
// first tool of testdata/ops.json enough findings to scroll and teach.
func seedOptions(t testing.TB) Options {
	o := mockOptions(t)
	o.Lint.Set, o.Lint.Rules = lint.RuleSetReference, lint.ReferenceRules()
	return o
}

func mockOptions(t testing.TB) Options {
	return Options{
		Catalog:   testCatalog(t),
		Lint:      lint.DefaultOptions(),
		Embedder:  "mock",
		Embedders: []string{"mock", "broken"},
		OpenEmbedder: func(spec string) (embed.Embedder, error) {
			if spec == "broken" {
				return nil, errors.New("no such model here")
			}
			return embed.Open(spec, embed.Options{})
		},
		Now: func() time.Time { return time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC) },
	}
}

// settledModel is a model whose background work is done.
func settledModel(opts Options, w, h int) *Model {
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	drain(m, m.Init())
	return m
}

// scoredModel is a model whose similarity has arrived.
func scoredModel(t testing.TB, opts Options, w, h int) *Model {
	t.Helper()
	m := settledModel(opts, w, h)
	if m.snap.sim == nil {
		t.Fatalf("no similarity after the background work: problems %v", m.problems)
	}
	return m
}

func TestSimilarityArrivesInTheBackground(t *testing.T) {
	m := New(mockOptions(t))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	cmd := m.Init()
	if m.snap.sim != nil || m.eng.job == nil {
		t.Fatal("similarity ran before the first frame")
	}
	first := ansi.Strip(m.View())
	if !strings.Contains(first, "similarity: opening mock") {
		t.Errorf("the first frame does not say the similarity is on its way:\n%s", first)
	}
	if m.snap.analysed || !strings.Contains(first, "checking the rules…") {
		t.Errorf("the rules ran before the first frame:\n%s", first)
	}
	drain(m, cmd)
	if len(m.snap.findings) == 0 || m.snap.tools[4].errors != 1 {
		t.Errorf("the structural findings did not arrive: %d findings", len(m.snap.findings))
	}
	view := ansi.Strip(m.View())
	if m.snap.sim == nil || !strings.Contains(view, "mock risk") || !strings.Contains(view, "Neighbours of get_volume_status") {
		t.Fatalf("after the background work:\n%s", view)
	}
	if len(m.pairs.rows) != len(m.snap.cat.Tools)-1 {
		t.Errorf("%d neighbours, want every other tool", len(m.pairs.rows))
	}
	if !strings.Contains(view, "the mock embedder counts characters") {
		t.Errorf("the mock's honesty note is missing:\n%s", view)
	}
}

func TestLiveThresholdMovesTheVerdicts(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	base := m.eng.thresholds()
	confusable := func() int { return m.snap.report.Summary.Confusable }
	before := confusable()
	for range 40 {
		drain(m, press(m, "-"))
	}
	if got := m.eng.thresholds().Confusability; got != round2(base.Confusability-0.4) {
		t.Fatalf("threshold %v after 40 steps down from %v", got, base.Confusability)
	}
	lowered := confusable()
	if lowered <= before {
		t.Errorf("lowering the threshold kept %d confusable (was %d)", lowered, before)
	}
	for range 70 {
		drain(m, press(m, "+"))
	}
	if got := confusable(); got >= before && before > 0 {
		t.Errorf("raising the threshold kept %d confusable (was %d)", got, before)
	}
	if !strings.Contains(ansi.Strip(m.View()), thresholdText(m.eng.thresholds(), m.eng.scoring)) {
		t.Errorf("the pairs pane does not show the thresholds %q", thresholdText(m.eng.thresholds(), m.eng.scoring))
	}
	watch := m.snap.report.Summary.Watch
	for range 30 {
		drain(m, press(m, "]"))
	}
	if m.snap.report.Summary.Watch <= watch {
		t.Errorf("widening the band kept %d watch pairs (was %d)", m.snap.report.Summary.Watch, watch)
	}
	for range 200 {
		press(m, "[")
	}
	if m.eng.thresholds().WatchBand != 0 {
		t.Errorf("the band went to %v, want it to stop at 0", m.eng.thresholds().WatchBand)
	}
}

func TestStaleRepliesAreDropped(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	snap := m.snap
	m.Update(judgedMsg{id: m.eng.judgeID - 1, sim: similarity.Result{}})
	m.Update(loadedMsg{id: m.eng.loadID - 1, snap: bare(&catalog.Catalog{Source: "old"}, lint.Gate{FailOn: lint.SeverityError}, nil)})
	m.Update(analysedMsg{id: m.eng.analyseID - 1, snap: bare(&catalog.Catalog{Source: "old"}, lint.Gate{FailOn: lint.SeverityError}, nil)})
	m.Update(scoredMsg{id: m.eng.scoreID - 1, err: errors.New("old")})
	m.Update(progressMsg{id: m.eng.scoreID - 1})
	if m.snap != snap || len(m.problems) != 0 {
		t.Errorf("a stale reply changed the model: problems %v", m.problems)
	}
}

func TestScoringAndEmbedderSwitch(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	drain(m, press(m, "-"))
	drain(m, press(m, "s"))
	if m.snap.sim.Scoring != similarity.ScoringCosine {
		t.Fatalf("scoring %q after s", m.snap.sim.Scoring)
	}
	// The mock's own calibration for cosine, not the moved threshold.
	if th := m.eng.thresholds(); th.Confusability != 0.94 || th.WatchBand != 0.02 {
		t.Errorf("cosine thresholds %+v, want the mock's calibration", th)
	}
	drain(m, press(m, "m"))
	if m.eng.spec != "broken" || !strings.Contains(m.problemText(), "no such model here") {
		t.Fatalf("embedder %q, problems %q", m.eng.spec, m.problemText())
	}
	if !strings.Contains(ansi.Strip(m.View()), "✗ similarity: no such model here") {
		t.Errorf("the banner does not show the failure:\n%s", ansi.Strip(m.View()))
	}
	drain(m, press(m, "m"))
	if m.eng.spec != "mock" || len(m.problems) != 0 || m.snap.sim == nil {
		t.Errorf("back to mock: embedder %q, problems %v", m.eng.spec, m.problems)
	}
}

// The pairs pane says where the thresholds in force come from, and a
// switch of scoring drops thresholds given as flags (they were for the
// other scale).
func TestThresholdSourceIsShown(t *testing.T) {
	pane := func(m *Model) string { return strings.Join(strings.Fields(ansi.Strip(m.View())), " ") }
	opts := mockOptions(t)
	th, band := 0.5, 0.1
	opts.Lint.Threshold, opts.Lint.WatchBand = &th, &band
	m := scoredModel(t, opts, 160, 45)
	if v := pane(m); !strings.Contains(v, "confusable from 0.50 · review from 0.40 (flags)") {
		t.Errorf("flag thresholds not shown as flags':\n%s", v)
	}
	drain(m, press(m, "+"))
	if v := pane(m); !strings.Contains(v, "confusable from 0.51 · review from 0.41 (yours)") {
		t.Errorf("a moved threshold not shown as yours:\n%s", v)
	}
	drain(m, press(m, "s"))
	if m.eng.lint.Threshold != nil || m.eng.thresholds().Confusability != 0.94 {
		t.Errorf("the flag threshold survived the switch: %+v", m.eng.thresholds())
	}
	if v := pane(m); !strings.Contains(v, "confusable from 0.94 · review band 0.02 (mock calibration)") {
		t.Errorf("the mock's cosine calibration not named:\n%s", v)
	}
}

func writeCatalog(t *testing.T, path, data string) {
	t.Helper()
	// Write and rename, as editors save.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// reloadableCatalog copies the test catalog to a file of its own: options
// that reload it from there, its path and its text.
func reloadableCatalog(t *testing.T) (opts Options, path string, data []byte) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "cat.json")
	data, err := os.ReadFile("testdata/ops.json")
	if err != nil {
		t.Fatal(err)
	}
	writeCatalog(t, path, string(data))
	opts = mockOptions(t)
	opts.Reload = func(context.Context) (*catalog.Catalog, error) { return catalog.Load(path, nil) }
	return opts, path, data
}

func TestReloadKeepsTheSelectionAndTheLastGoodCatalog(t *testing.T) {
	opts, path, data := reloadableCatalog(t)
	m := scoredModel(t, opts, 160, 45)
	press(m, "down", "down")
	if selectedName(m) != "list_volumes" {
		t.Fatalf("selected %q", selectedName(m))
	}
	// A new tool at the top: the selection follows the name, not the row.
	edited := strings.Replace(string(data), `{"tools": [`, `{"tools": [{"name": "aaa_first", "description": "A tool added at the top of the file."},`, 1)
	writeCatalog(t, path, edited)
	drain(m, func() tea.Msg { return fileChangedMsg{} })
	if len(m.snap.cat.Tools) != 7 || selectedName(m) != "list_volumes" {
		t.Fatalf("after the reload: %d tools, selected %q", len(m.snap.cat.Tools), selectedName(m))
	}
	if m.snap.sim == nil || len(m.snap.sim.Neighbours) != 7 {
		t.Error("the reloaded catalog was not scored again")
	}
	writeCatalog(t, path, `{"tools": [ {"name": }`)
	drain(m, press(m, "r"))
	if len(m.snap.cat.Tools) != 7 {
		t.Errorf("a broken file dropped the last good catalog: %d tools", len(m.snap.cat.Tools))
	}
	view := ansi.Strip(m.View())
	if !strings.Contains(view, "✗ reload: showing the last good catalog") || !strings.Contains(view, "cat.json:1:22") {
		t.Errorf("no load error with its place in the banner:\n%s", view)
	}
	writeCatalog(t, path, string(data))
	drain(m, press(m, "r"))
	if len(m.problems) != 0 || len(m.snap.cat.Tools) != 6 {
		t.Errorf("a good reload left problems %v, %d tools", m.problems, len(m.snap.cat.Tools))
	}
}

func TestWatcherReportsSaves(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cat.json")
	writeCatalog(t, path, "[]")
	w, err := startWatch(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	got := make(chan tea.Msg, 1)
	go func() { got <- w.next()() }()
	// Another file in the directory is not the catalog.
	writeCatalog(t, filepath.Join(dir, "other.json"), "[]")
	select {
	case msg := <-got:
		t.Fatalf("a save of another file reported %T", msg)
	case <-time.After(3 * settle):
	}
	writeCatalog(t, path, `[{"name": "x"}]`)
	select {
	case msg := <-got:
		if _, ok := msg.(fileChangedMsg); !ok {
			t.Fatalf("got %T, want fileChangedMsg", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no change reported for a save")
	}
}

func TestCompareOpensThePairAndCloses(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	press(m, "3")
	pr, ok := m.pairs.selected()
	if !ok {
		t.Fatal("no pair selected")
	}
	press(m, "enter")
	if m.compare() == nil {
		t.Fatal("enter did not open the comparison")
	}
	view := ansi.Strip(m.View())
	for _, want := range []string{pr.A + " ↔ " + pr.B, "shared terms: ", "only here: ", "embedded as: ", "storage"} {
		if !strings.Contains(view, want) {
			t.Errorf("comparison lacks %q:\n%s", want, view)
		}
	}
	press(m, "down", "j")
	if m.compare() == nil {
		t.Error("scrolling closed the comparison")
	}
	press(m, "esc")
	if m.compare() != nil || m.focus != panePairs {
		t.Errorf("esc: compare %v, focus %v", m.compare() != nil, m.focus)
	}
	// The keys that go somewhere do so from the comparison, as help says.
	for _, c := range []struct {
		key  string
		want paneID
	}{{"1", paneTools}, {"2", paneTool}, {"tab", paneTools}, {"/", paneTools}, {"4", paneArgs}} {
		press(m, "3", "enter")
		if m.compare() == nil {
			t.Fatal("enter did not open the comparison")
		}
		press(m, c.key)
		if m.compare() != nil || m.focus != c.want {
			t.Errorf("%s in the comparison: compare %v, focus %v, want %v", c.key, m.compare() != nil, m.focus, c.want)
		}
		press(m, "esc", "esc")
	}
}

func TestExportWritesTheReport(t *testing.T) {
	dir := t.TempDir()
	opts := mockOptions(t)
	opts.ExportDir = dir
	opts.Export = func(w io.Writer, format string, r *lint.Report, _ *catalog.Catalog) error {
		if format != "sarif" {
			return errors.New("unexpected format " + format)
		}
		return report.WriteJSON(w, r)
	}
	m := scoredModel(t, opts, 160, 45)
	press(m, "e")
	if m.export() == nil || !strings.Contains(ansi.Strip(m.View()), "export the report as: j JSON · s SARIF · m Markdown") {
		t.Fatalf("no export prompt:\n%s", ansi.Strip(m.View()))
	}
	press(m, "s")
	want := filepath.Join(dir, "ops.toolscope.sarif")
	if view := ansi.Strip(m.View()); !strings.Contains(view, "write the SARIF report to "+want) {
		t.Fatalf("no file name asked, prefilled with %s:\n%s", want, view)
	}
	drain(m, press(m, "enter"))
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("no report at %s: %v", want, err)
	}
	// The name can be changed; an existing file is named as such.
	press(m, "e", "s")
	if !strings.Contains(ansi.Strip(m.View()), "exists: enter replaces it") {
		t.Errorf("an existing file is not flagged:\n%s", ansi.Strip(m.View()))
	}
	m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	other := filepath.Join(dir, "other.sarif")
	typeKeys(m, other)
	drain(m, press(m, "enter"))
	if _, err := os.Stat(other); err != nil {
		t.Fatalf("no report at the typed name %s: %v", other, err)
	}
	if m.export() != nil || m.eng.scoring != similarity.ScoringRisk || !strings.Contains(ansi.Strip(m.View()), "wrote "+other) {
		t.Errorf("after the export: prompt %v, scoring %q (s must not reach the scoring switch)", m.export() != nil, m.eng.scoring)
	}
	for _, keys := range [][]string{{"e", "esc"}, {"e", "j", "esc"}} {
		press(m, keys...)
		if m.export() != nil {
			t.Errorf("%v did not cancel the prompt", keys)
		}
	}
}

func TestExportPath(t *testing.T) {
	tests := []struct{ dir, source, format, want string }{
		{"/d", "/x/ops.json", "json", "/d/ops.toolscope.json"},
		{".", "ops-demo.json", "markdown", "ops-demo.toolscope.md"},
		{".", "stdin", "sarif", "catalog.toolscope.sarif"},
		{".", "mcp:npx server", "json", "catalog.toolscope.json"},
		{".", "https://example.com/mcp", "json", "catalog.toolscope.json"},
	}
	for _, tt := range tests {
		if got := exportPath(tt.dir, tt.source, tt.format); got != tt.want {
			t.Errorf("exportPath(%q, %q, %q) = %q, want %q", tt.dir, tt.source, tt.format, got, tt.want)
		}
	}
}

func TestLiveSourceRelistsOnChangeAndSurvivesALostServer(t *testing.T) {
	// The news is delivered to Update by the test; the source's channel
	// is closed so the explorer's wait for more returns at once.
	changes := make(chan live.Change)
	close(changes)
	listed := testCatalog(t)
	opts := mockOptions(t)
	opts.Changes = changes
	opts.Origin = "live mcp:ops-server"
	opts.Reload = func(context.Context) (*catalog.Catalog, error) { return listed, nil }
	m := settledModel(opts, 160, 45)
	if !strings.Contains(ansi.Strip(m.View()), "live mcp:ops-server") {
		t.Errorf("the header does not say where the catalog came from:\n%s", ansi.Strip(m.View()))
	}
	news := func(c live.Change) {
		_, cmd := m.Update(liveChangeMsg{c})
		drain(m, cmd)
	}
	snap := m.snap

	// The same tools listed again: nothing to redo.
	news(live.Change{Server: "ops-server"})
	if m.snap != snap || m.notice != "reloaded: the tools and their findings are unchanged" {
		t.Errorf("an unchanged list was analysed again (notice %q)", m.notice)
	}

	// New tools: listed, analysed and scored again.
	data, err := os.ReadFile("testdata/ops.json")
	if err != nil {
		t.Fatal(err)
	}
	listed, err = catalog.Parse("mcp:ops-server", []byte(strings.Replace(string(data), "get_volume_status", "get_volume_state", 1)))
	if err != nil {
		t.Fatal(err)
	}
	news(live.Change{Server: "ops-server"})
	if m.snap.cat != listed || m.snap.sim == nil || !m.snap.analysed {
		t.Fatal("the changed list was not taken, analysed and scored")
	}

	// The server dies: the banner says so and the catalog stays.
	news(live.Change{Server: "ops-server", Err: errors.New("server exited: signal: killed")})
	if m.snap.cat != listed || !strings.Contains(ansi.Strip(m.View()), "✗ server: server exited: signal: killed") {
		t.Errorf("a lost server: catalog kept %v, view:\n%s", m.snap.cat == listed, ansi.Strip(m.View()))
	}
	drain(m, press(m, "r"))
	if len(m.problems) != 0 {
		t.Errorf("a good re-list left problems %v", m.problems)
	}
}

// Keys pressed while verdicts are being derived do not queue a derivation
// each: one more runs when the current one ends, at the latest thresholds.
func TestHeldThresholdKeyCoalesces(t *testing.T) {
	m := scoredModel(t, mockOptions(t), 160, 45)
	var cmds []tea.Cmd
	for range 5 {
		if cmd := press(m, "-"); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	if len(cmds) != 1 {
		t.Fatalf("%d derivations started for 5 presses, want 1", len(cmds))
	}
	drain(m, cmds[0])
	if got, want := m.snap.sim.Thresholds, m.eng.thresholds(); got.Confusability != want.Confusability {
		t.Errorf("verdicts at %v, thresholds in force %v", got.Confusability, want.Confusability)
	}
	if m.eng.judging || m.eng.judgeAgain {
		t.Error("a derivation is still pending")
	}
}

// A panic in a superseded similarity run must not end the current one:
// the failure carries its request's id and a stale one is dropped.
func TestStalePanicDoesNotClearTheCurrentRun(t *testing.T) {
	m := New(mockOptions(t))
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	m.startScoring()
	oldID := m.eng.job.id
	m.startScoring()
	if m.eng.job == nil || m.eng.job.id == oldID {
		t.Fatal("the second run did not replace the first")
	}
	current := m.eng.job
	panicky := safeID("similarity", oldID, func() tea.Msg { panic("boom") })
	m.Update(panicky())
	if m.eng.job != current || len(m.problems) != 0 {
		t.Fatalf("the old run's panic ended the current run: job %v problems %v", m.eng.job, m.problems)
	}
	// The current run's own panic does end it, and says so.
	m.Update(safeID("similarity", current.id, func() tea.Msg { panic("boom") })())
	if m.eng.job != nil || !strings.Contains(m.problems["similarity"], "internal error: boom") {
		t.Fatalf("the current run's panic: job %v problems %v", m.eng.job, m.problems)
	}
	// Verdicts, rules and reloads drop stale panics too.
	for _, what := range []string{"verdicts", "rules", "reload", "arguments"} {
		m.Update(failedMsg{what: what, id: -1, err: errors.New("stale")})
		if _, ok := m.problems[what]; ok {
			t.Errorf("a stale %s panic was shown", what)
		}
	}
	m.Close()
}

// The drawer judges its text off the UI goroutine: an update only asks
// for a judgement, and an answer to an older request never replaces a
// newer one.
func TestDrawerJudgementsRunInTheBackgroundAndStaleOnesAreDropped(t *testing.T) {
	m := newTestModel(t, 160, 45)
	press(m, "a")
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(`{"volume_id": 1}`), Paste: true})
	old := m.drawer.job
	if old == nil || !old.sent {
		t.Fatal("the edit did not ask for a judgement in a command")
	}
	if strings.Contains(ansi.Strip(m.View()), "expected string") {
		t.Fatal("the edit was judged on the UI goroutine")
	}
	m.Update(keyMsg("x")) // the text moves on: {"volume_id": 1}x
	newer := m.drawer.job
	m.Update(old.run())
	if m.drawer.job != newer || strings.Contains(ansi.Strip(m.View()), "expected string") {
		t.Fatalf("a stale judgement was shown:\n%s", ansi.Strip(m.View()))
	}
	m.Update(newer.run())
	if m.drawer.job != nil || !strings.Contains(ansi.Strip(m.View()), "JSON syntax") {
		t.Fatalf("the current judgement was not shown:\n%s", ansi.Strip(m.View()))
	}
}

// TestLiveChangeFloodRelistsOnceMore: thousands of list_changed arriving
// while a re-list runs cost one more re-list, not thousands.
func TestLiveChangeFloodRelistsOnceMore(t *testing.T) {
	changes := make(chan live.Change)
	close(changes)
	listed := testCatalog(t)
	calls := 0
	opts := mockOptions(t)
	opts.Changes = changes
	opts.Reload = func(context.Context) (*catalog.Catalog, error) { calls++; return listed, nil }
	m := settledModel(opts, 160, 45)
	// Every notification arrives before the first re-list answers.
	var cmds []tea.Cmd
	for range 5000 {
		_, cmd := m.Update(liveChangeMsg{live.Change{Server: "ops-server"}})
		cmds = append(cmds, cmd)
	}
	drain(m, tea.Batch(cmds...))
	if calls != 2 {
		t.Errorf("5000 notifications during a re-list: %d re-lists, want 2 (the one running, one after it)", calls)
	}
	// Later news is listed again, as before.
	_, cmd := m.Update(liveChangeMsg{live.Change{Server: "ops-server"}})
	drain(m, cmd)
	if calls != 3 {
		t.Errorf("a notification after the flood: %d re-lists in all, want 3", calls)
	}
}

// TestNoPassBeforeTheVerdicts pins the header through start-up on a
// catalog that passes: until the pairs' verdicts are in, it says the gate
// is still scoring, never PASS; the progress label never goes back.
func TestNoPassBeforeTheVerdicts(t *testing.T) {
	cat, err := catalog.Parse("clean.json", []byte(`[
 {"name": "get_weather", "description": "Current weather for one city; use for questions about right now.",
  "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name."}}, "required": ["city"]}},
 {"name": "convert_currency", "description": "Converts an amount between two currencies at today's rate, for prices.",
  "inputSchema": {"type": "object", "properties": {"amount": {"type": "number", "description": "How much."}}, "required": ["amount"]}}]`))
	if err != nil {
		t.Fatal(err)
	}
	opts := mockOptions(t)
	opts.Catalog = cat
	m := New(opts)
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	header := func() string { return ansi.Strip(m.header()) }
	var labels []string
	check := func(when string) {
		h := header()
		if m.snap.sim == nil && strings.Contains(h, "PASS") {
			t.Fatalf("%s: PASS before the verdicts: %q", when, h)
		}
		if m.eng.job != nil {
			labels = append(labels, strings.Fields(m.similarityStatus())[0])
		}
	}
	check("first frame")
	init := m.Init()
	check("after Init")
	drainEach(m, init, func(msg tea.Msg) { check(fmt.Sprintf("after %T", msg)) })
	if h := header(); m.snap.sim == nil || !strings.Contains(h, "PASS") {
		t.Fatalf("the clean catalog does not pass once scored: %q", h)
	}
	if !slices.Contains(labels, "opening") || len(labels) < 2 {
		t.Fatalf("progress labels: %v", labels)
	}
	for i := 1; i < len(labels); i++ {
		if labels[i] == "opening" && labels[i-1] != "opening" {
			t.Errorf("the progress label went back to opening: %v", labels)
		}
	}
}

func TestProgressLabelNeverGoesBack(t *testing.T) {
	m := New(mockOptions(t))
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	m.Init()
	id := m.eng.job.id
	var got []string
	for _, p := range []similarity.Progress{
		{Stage: similarity.StageEmbed, Done: 3, Total: 6},
		{Stage: similarity.StageEmbed, Done: 6, Total: 6},
		{Stage: similarity.StageFeatures},
		{Stage: similarity.StageEmbed, Done: 5, Total: 6}, // late
		{Stage: similarity.StageScore, Done: 1, Total: 15},
	} {
		m.eng.progress(progressMsg{id: id, p: p})
		got = append(got, strings.Fields(ansi.Strip(m.similarityStatus()))[0])
	}
	want := []string{"embed", "embed", "features…", "features…", "score"}
	if !slices.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	m.Close()
}
