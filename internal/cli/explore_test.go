package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/tui"
)

// explorerKeys sends keys to the explorer's model, running every command
// they start (and the ones those start) before the next key, as the
// runtime would.
func explorerKeys(m *tui.Model, keys ...tea.KeyMsg) {
	for _, k := range keys {
		_, cmd := m.Update(k)
		runCommands(m, cmd)
	}
}

func runCommands(m *tui.Model, cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

var (
	keyEnter = tea.KeyMsg{Type: tea.KeyEnter}
	keyDown  = tea.KeyMsg{Type: tea.KeyDown}
	keyHome  = tea.KeyMsg{Type: tea.KeyHome}
)

// A project of one catalog and no config: the explorer's triage creates
// toolscope.yaml where lint looks first, and lint's gate, failing before,
// passes on what the explorer accepted.
func TestExplorerTriageWritesWhatLintReads(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	sub := filepath.Join(root, "catalogs")
	os.Mkdir(sub, 0o755)
	data, err := os.ReadFile("tui/testdata/ops.json")
	if err != nil {
		t.Fatal(err)
	}
	cat := filepath.Join(sub, "ops.json")
	os.WriteFile(cat, data, 0o644)
	if code, _, errOut := runCmd("", "lint", "--embedder", "mock", cat); code != 1 {
		t.Fatalf("lint before triage: exit %d %s", code, errOut)
	}

	m := openExplorer(t, 160, 45, "--embedder", "mock", cat)

	// The global ranking's two confusable pairs, then delete_volume's error.
	explorerKeys(m, runes("3"), runes("g"), keyHome, runes("A"))
	explorerKeys(m, runes("hist is only on the audit agent"), keyEnter)
	if !strings.Contains(m.View(), "accepted get_volume_status ↔ hist_volume_status in ") {
		t.Errorf("no status after accepting:\n%s", m.View())
	}
	explorerKeys(m, keyDown, runes("A"), runes("list is for the dashboard"), keyEnter)
	explorerKeys(m, runes("1"), keyHome, keyDown, keyDown, keyDown, keyDown, runes("2"), runes("I"), runes("see the admin guide"), keyEnter)

	written := filepath.Join(sub, config.FileName)
	text, err := os.ReadFile(written)
	if err != nil {
		t.Fatalf("the explorer wrote no %s: %v\n%s", written, err, m.View())
	}
	for _, want := range []string{"tools: [get_volume_status, hist_volume_status]", "tools: [hist_volume_status, list_volumes]", "tool: delete_volume", "reason: see the admin guide"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("%s lacks %q:\n%s", written, want, text)
		}
	}
	code, lintOut, errOut := runCmd("", "lint", "--embedder", "mock", cat)
	if code != 0 || !strings.Contains(lintOut, "1 finding ignored, 2 pairs accepted") {
		t.Errorf("lint after triage: exit %d %s\n%.600s", code, errOut, lintOut)
	}
	// Off a terminal the explorer prints lint's report: the same.
	code2, exploreOut, _ := runCmd("", "--embedder", "mock", cat)
	if code2 != code || exploreOut != lintOut {
		t.Errorf("the explorer's report (exit %d) differs from lint's (exit %d):\n%s\n---\n%s", code2, code, exploreOut, lintOut)
	}

	// Each accept is a person's judgment too, beside the config, for the
	// pair's texts as they were: a description changed since leaves the
	// accept in force and lists the pair to be reviewed again.
	recs, err := judge.ReadFile(filepath.Join(sub, judge.FileName))
	if err != nil || recs.Len() != 2 {
		t.Fatalf("the judgments file: %v, %d judgments; want the 2 accepts", err, recs.Len())
	}
	for _, j := range recs.All() {
		if j.By != judge.PersonBy || j.Label != 1 || j.Reason == "" {
			t.Errorf("an accept recorded as %+v; want a person's label 1 with the reason", j)
		}
	}
	edited := strings.Replace(string(data), "Get the live status of one storage volume.", "Get the live status of one storage volume, now.", 1)
	if edited == string(data) {
		t.Fatal("the test catalog changed: no description to edit")
	}
	os.WriteFile(cat, []byte(edited), 0o644)
	code, lintOut, errOut = runCmd("", "lint", "--embedder", "mock", cat)
	want := "? unjudged get_volume_status <> hist_volume_status: its texts changed since it was judged (the config's accept stands: review it again)"
	if code != 0 || !strings.Contains(lintOut, want) || strings.Contains(lintOut, "hist_volume_status <> list_volumes: its texts") {
		t.Errorf("lint after an edit: exit %d %s; want exit 0 and only the edited pair listed:\n%s", code, errOut, lintOut)
	}
	if code2, exploreOut, _ := runCmd("", "--embedder", "mock", cat); code2 != code || exploreOut != lintOut {
		t.Errorf("after the edit, the explorer's report (exit %d) differs from lint's (exit %d):\n%s\n---\n%s", code2, code, exploreOut, lintOut)
	}
}

// A config the explorer cannot read stops it with lint's one line, naming
// the file and the position.
func TestExplorerBadConfig(t *testing.T) {
	bad := writeFile(t, "bad.yaml", "similarity:\n  embeder: use\n")
	code, _, errOut := runCmd("", "--config", bad, "tui/testdata/ops.json")
	if code != 2 || !strings.Contains(errOut, `bad.yaml:2:3: unknown key "embeder" in similarity`) || strings.Count(errOut, "\n") != 1 {
		t.Errorf("a bad config: exit %d %q", code, errOut)
	}
}

// openExplorer builds the explorer as the command line would for args
// (the catalog last), sized w x h, with every start-up command run to its
// end; the file is not watched, so nothing keeps running.
func openExplorer(t *testing.T, w, h int, args ...string) *tui.Model {
	t.Helper()
	var out, errb strings.Builder
	io := stdio{in: strings.NewReader(""), out: &out, err: &errb, outTTY: true}
	x, code, ok := parseExplore(args, io)
	if !ok {
		t.Fatalf("parse: exit %d %s", code, errb.String())
	}
	loaded, err := x.flags.live.load(args[len(args)-1], io)
	if err != nil {
		t.Fatal(err)
	}
	o := x.options(loaded, io)
	o.Watch = ""
	if o.NoticeFor != noticeFor {
		t.Errorf("the explorer's notices last %v, want %v", o.NoticeFor, noticeFor)
	}
	// runCommands runs every command to its end: a notice's timer would
	// hold each key for its whole time.
	o.NoticeFor = 0
	m := tui.New(o)
	t.Cleanup(m.Close)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	runCommands(m, m.Init())
	return m
}
