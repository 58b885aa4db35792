package tui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/embed"
)

// triageFixture is the test catalog in a directory of its own, with a
// commented toolscope.yaml beside it when withConfig.
func triageFixture(t *testing.T, withConfig bool) (Options, string) {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile("testdata/ops.json")
	if err != nil {
		t.Fatal(err)
	}
	catPath := filepath.Join(dir, "ops.json")
	if err := os.WriteFile(catPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := mockOptions(t)
	th, band := triageThresholds()
	opts.Lint.Threshold, opts.Lint.WatchBand = &th, &band
	cat, err := catalog.Load(catPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts.Catalog = cat
	cfgPath := filepath.Join(dir, config.FileName)
	opts.ConfigPath = cfgPath
	if withConfig {
		text := "# the team's review of the ops tools\nversion: 1\n\naccepted-pairs:\n  # hist is only offered to the audit agent\n  - tools: [resize_volume, delete_volume]\n    reason: never offered together # checked in March\n"
		if err := os.WriteFile(cfgPath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := config.Load(cfgPath)
		if err != nil {
			t.Fatal(err)
		}
		opts.Config = c
	}
	return opts, cfgPath
}

// triageThresholds pin the verdicts on ops.json under the mock: two
// confusable pairs and one review pair, which the fixture's config accepts.
func triageThresholds() (threshold, band float64) { return 0.094, 0.003 }

// selectTool moves the tool list's selection to name.
func selectTool(t *testing.T, m *Model, name string) {
	t.Helper()
	press(m, "1", "home")
	for range m.snap.cat.Tools {
		if selectedName(m) == name {
			return
		}
		press(m, "down")
	}
	t.Fatalf("no tool %s", name)
}

// selectPair moves the pairs pane's cursor (global ranking) to a ↔ b.
func selectPair(t *testing.T, m *Model, a, b string) {
	t.Helper()
	press(m, "3")
	if !m.pairs.global {
		press(m, "g")
	}
	press(m, "home")
	for range m.pairs.rows {
		if pr, _ := m.pairs.selected(); pr.A == a && pr.B == b || pr.A == b && pr.B == a {
			return
		}
		press(m, "down")
	}
	t.Fatalf("no pair %s ↔ %s", a, b)
}

// triage answers the prompt a triage key opened with reason and writes.
func triage(m *Model, reason string) {
	typeKeys(m, reason)
	drain(m, press(m, "enter"))
}

// lintGate runs lint's own path on the catalog file with the config at
// cfgPath: analysis with the mock embedder, the config applied.
func lintGate(t *testing.T, catPath, cfgPath string) *lint.Report {
	t.Helper()
	cat, err := catalog.Load(catPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	opts := lint.DefaultOptions()
	c.Tune(&opts)
	th, band := triageThresholds()
	opts.Threshold, opts.WatchBand = &th, &band
	if opts.Embedder, err = embed.Open("mock", embed.Options{}); err != nil {
		t.Fatal(err)
	}
	r, err := lint.Analyze(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c.Apply(r, cat)
}

// Accepting the confusable pairs and ignoring the error, each with a
// reason, writes them to the toolscope.yaml in use (its comments kept);
// the explorer's gate and lint's, on the same catalog and file, pass.
func TestTriageWritesTheConfigAndTheGateFollows(t *testing.T) {
	opts, cfgPath := triageFixture(t, true)
	m := scoredModel(t, opts, 160, 45)
	before := m.snap.report
	if before.OK || before.Summary.Confusable != 2 || before.Summary.Errors != 1 {
		t.Fatalf("before: ok %v %+v", before.OK, before.Summary)
	}
	if n := len(before.Suppressed.Pairs); n != 1 || before.Summary.Watch != 0 {
		t.Fatalf("the config's accepted watch pair: %d suppressed, summary %+v", n, before.Summary)
	}

	selectPair(t, m, "get_volume_status", "hist_volume_status")
	press(m, "A")
	if f := footerLine(m); !strings.Contains(f, "accept get_volume_status ↔ hist_volume_status in") || !strings.Contains(f, config.FileName+", because:") {
		t.Fatalf("the reason prompt: %q", f)
	}
	triage(m, "hist is only on the audit agent")
	if f := footerLine(m); !strings.Contains(f, "accepted get_volume_status ↔ hist_volume_status in ") {
		t.Errorf("status after accepting: %q", f)
	}
	selectPair(t, m, "hist_volume_status", "list_volumes")
	press(m, "A")
	triage(m, "list is for the dashboard only")

	selectTool(t, m, "delete_volume")
	press(m, "2", "I")
	if m.triage() != nil && m.triage().choices != nil {
		for i, f := range m.triage().choices {
			if f.Rule == lint.RuleDescription {
				press(m, string(rune('1'+i)))
			}
		}
	}
	triage(m, "described in the admin guide")
	if len(m.problems) > 0 {
		t.Fatalf("problems: %v", m.problems)
	}

	data, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"# the team's review of the ops tools", "# hist is only offered to the audit agent", "# checked in March",
		"tools: [get_volume_status, hist_volume_status]", "reason: hist is only on the audit agent",
		"tools: [hist_volume_status, list_volumes]", "rule: " + lint.RuleDescription, "tool: delete_volume", "reason: described in the admin guide"} {
		if !strings.Contains(text, want) {
			t.Errorf("the config lacks %q:\n%s", want, text)
		}
	}
	after := m.snap.report
	if !after.OK || after.Summary.Confusable != 0 || after.Summary.Errors != 0 {
		t.Errorf("the explorer's gate after triage: ok %v %+v", after.OK, after.Summary)
	}
	if !strings.Contains(ansi.Strip(m.View()), "PASS") {
		t.Errorf("the header does not pass:\n%s", ansi.Strip(m.View()))
	}
	// Still listed, marked, and counted nowhere.
	if v := m.snap.verdict(similarity.Pair{I: 0, J: 1}); v == nil || v.Suppression != "hist is only on the audit agent" {
		t.Errorf("the accepted pair's verdict: %+v", v)
	}
	if !strings.Contains(ansi.Strip(m.tool.View()), "ignored: described in the admin guide") {
		t.Errorf("the Tool pane does not mark the ignored finding:\n%s", ansi.Strip(m.tool.View()))
	}
	lr := lintGate(t, opts.Catalog.Source, cfgPath)
	if !lr.OK || lr.Summary != after.Summary {
		t.Errorf("lint with the written config: ok %v %+v; the explorer %+v", lr.OK, lr.Summary, after.Summary)
	}

	// Undo asks, then takes the pair out again: the gate fails again.
	selectPair(t, m, "hist_volume_status", "list_volumes")
	press(m, "U")
	if f := footerLine(m); !strings.Contains(f, "un-accept hist_volume_status ↔ list_volumes in") {
		t.Fatalf("the undo question: %q", f)
	}
	drain(m, press(m, "y"))
	if m.snap.report.OK || m.snap.report.Summary.Confusable != 1 {
		t.Errorf("after un-accepting: ok %v %+v", m.snap.report.OK, m.snap.report.Summary)
	}
	if lr := lintGate(t, opts.Catalog.Source, cfgPath); lr.OK {
		t.Error("lint still passes after the undo")
	}
}

// H hides what the config accepted and ignored, and shows it again; help
// lists the triage keys that work on the focused pane.
func TestTriageHideToggle(t *testing.T) {
	opts, _ := triageFixture(t, true)
	m := scoredModel(t, opts, 160, 45)
	selectPair(t, m, "resize_volume", "delete_volume")
	press(m, "?")
	help := strings.Join(m.helpLines(), "\n")
	for _, want := range []string{"accept the pair (toolscope.yaml)", "undo accept/ignore", "hide/show accepted and ignored"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
	press(m, "esc")
	press(m, "H")
	for _, r := range m.pairs.rows {
		if v := m.snap.verdict(r); v != nil && v.Suppression != "" {
			t.Fatalf("an accepted pair is listed while hidden: %s ↔ %s", r.A, r.B)
		}
	}
	press(m, "H")
	selectPair(t, m, "resize_volume", "delete_volume")
	if !strings.Contains(ansi.Strip(m.pairs.View()), "accepted: never offered together") {
		t.Errorf("the accepted pair is not marked:\n%s", ansi.Strip(m.pairs.View()))
	}
}

// A write that fails says so in one line, keeps the config in force and
// the gate as it was, and keeps the reason typed for the next try.
func TestTriageWriteErrorKeepsEverything(t *testing.T) {
	opts, _ := triageFixture(t, false)
	opts.ConfigPath = filepath.Join(t.TempDir(), "no-such-dir", config.FileName)
	m := scoredModel(t, opts, 160, 45)
	was := m.snap.report.Summary.Confusable
	selectPair(t, m, "get_volume_status", "hist_volume_status")
	press(m, "A")
	if f := footerLine(m); !strings.Contains(f, "(new: it applies to every catalog under ") {
		t.Errorf("the prompt does not say the file is new: %q", f)
	}
	triage(m, "only the audit agent")
	p := m.problems["config"]
	if !strings.Contains(p, "not written") || !strings.Contains(p, "no-such-dir") || strings.Contains(p, "\n") {
		t.Errorf("the error: %q", p)
	}
	if m.eng.cfg != nil || m.snap.report.OK || was == 0 || m.snap.report.Summary.Confusable != was {
		t.Errorf("state after a failed write: cfg %v, %+v", m.eng.cfg, m.snap.report.Summary)
	}
	press(m, "A")
	if m.triage() == nil || m.triage().reason.Value() != "only the audit agent" {
		t.Errorf("the reason typed was lost: %+v", m.triage())
	}
}

// The reason's prompt calls the config file new only when it is not
// there; A on a pair without a verdict, or where triage is off, says why.
func TestTriagePromptsSayWhatIsTrue(t *testing.T) {
	opts, cfgPath := triageFixture(t, false)
	m := scoredModel(t, opts, 160, 45)
	selectPair(t, m, "get_volume_status", "hist_volume_status")
	press(m, "A")
	if f := footerLine(m); !strings.Contains(f, "(new: it applies to every catalog under ") {
		t.Errorf("no config yet: the prompt %q does not say new", f)
	}
	press(m, "esc")
	if err := os.WriteFile(cfgPath, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	press(m, "A")
	if f := footerLine(m); strings.Contains(f, "(new") {
		t.Errorf("a config made since the start: the prompt %q says new", f)
	}
	press(m, "esc")

	selectPair(t, m, "list_volumes", "delete_volume")
	if pr, _ := m.pairs.selected(); m.snap.verdict(pr) != nil {
		t.Fatalf("%s ↔ %s is flagged", pr.A, pr.B)
	}
	press(m, "A")
	if f := footerLine(m); !strings.Contains(f, "is low: only a confusable or review pair") {
		t.Errorf("A on a pair without a verdict: footer %q", f)
	}
	m = scoredModel(t, mockOptions(t), 160, 45)
	press(m, "3", "A")
	if f := footerLine(m); !strings.Contains(f, "triage is off here") {
		t.Errorf("A without a config path: footer %q", f)
	}
}

// An accept also records the person's judgment through RecordAccept (the
// pair's tools as shown, the reason), an undo removes it, and the status
// says where it went; a failure to record is a banner, with the config
// written all the same.
func TestTriageRecordsThePersonsJudgment(t *testing.T) {
	type call struct {
		config, a, b, reason string
		undo                 bool
	}
	var calls []call
	fail := false
	opts, cfgPath := triageFixture(t, true)
	opts.RecordAccept = func(configPath string, a, b *catalog.Tool, reason string, undo bool) (string, error) {
		calls = append(calls, call{configPath, a.Name, b.Name, reason, undo})
		if fail {
			return "", errors.New("read-only file system")
		}
		return filepath.Join(filepath.Dir(configPath), "toolscope.judgments.jsonl"), nil
	}
	m := scoredModel(t, opts, 160, 45)
	selectPair(t, m, "get_volume_status", "hist_volume_status")
	press(m, "A")
	triage(m, "hist is only on the audit agent")
	want := call{cfgPath, "get_volume_status", "hist_volume_status", "hist is only on the audit agent", false}
	if len(calls) != 1 || calls[0] != want {
		t.Fatalf("recorded %+v; want %+v", calls, want)
	}
	if f := footerLine(m); !strings.Contains(f, "accepted get_volume_status ↔ hist_volume_status in") || !strings.Contains(f, "+ toolscope.judgments.jsonl") {
		t.Errorf("the status after an accept: %q", f)
	}

	press(m, "U")
	drain(m, press(m, "y"))
	if len(calls) != 2 || !calls[1].undo || calls[1].a != "get_volume_status" {
		t.Errorf("the undo recorded %+v", calls)
	}

	fail = true
	selectPair(t, m, "hist_volume_status", "list_volumes")
	press(m, "A")
	triage(m, "list is for the dashboard only")
	if _, ok := m.problems["judgments"]; !ok {
		t.Errorf("no banner for the failed record: %v", m.problems)
	}
	if data, _ := os.ReadFile(cfgPath); !strings.Contains(string(data), "list is for the dashboard only") {
		t.Errorf("the config was not written:\n%s", data)
	}
}
