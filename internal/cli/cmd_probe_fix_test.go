package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/judge"
)

// fixStandIn probes the stand-in's catalog (a file in its own
// directory) with --fix and the flags given, and reads the JSON.
func fixStandIn(t *testing.T, url, cat string, extra ...string) (judge.Probe, int, string) {
	t.Helper()
	ex := writeFile(t, "examples.jsonl", standInExamples)
	args := append([]string{"probe", "--model", "openai:standin", "--model-url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--fix", "--format", "json"}, extra...)
	code, out, errb := runCmd("", append(args, cat)...)
	var p judge.Probe
	if out != "" {
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	}
	return p, code, errb
}

// probe --fix tries the judge's sentences for each confused pair on the
// same requests: the search pair's help is kept, the mail and calendar
// pair's harm ("read my mail" goes to read_calendar) rejected, and
// --write adds only the kept sentences to the file, every other byte
// kept.
func TestProbeFixKeepsTheHelpfulFixAndRejectsTheHarmfulOne(t *testing.T) {
	s, url := newStandIn(t)
	cat := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(cat, []byte(standInCatalog), 0o644)
	p, code, errb := fixStandIn(t, url, cat)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if len(p.Fixes) != 2 {
		t.Fatalf("fixes %+v", p.Fixes)
	}
	help, harm := p.Fixes[0], p.Fixes[1]
	if help.A != "search_files" || help.B != "search_logs" || help.Sentences != (judge.FixSentences{A: "Use it for documents.", B: "Use it for error messages."}) ||
		help.Before != (judge.Count{Right: 3, Of: 4}) || help.After != (judge.Count{Right: 4, Of: 4}) || help.Better != 1 || help.Worse != 0 ||
		help.P != 1 || !help.Kept || help.Judgment != "asked" || !strings.HasPrefix(help.Why, "kept: 1 more request went right") {
		t.Errorf("the helpful fix: %+v", help)
	}
	if harm.A != "send_mail" || harm.B != "read_calendar" || harm.Sentences != (judge.FixSentences{A: "Also shows events for a person.", B: "Reads calendar mail invitations."}) ||
		harm.Before != (judge.Count{Right: 4, Of: 6}) || harm.After != (judge.Count{Right: 3, Of: 6}) || harm.Better != 0 || harm.Worse != 1 ||
		harm.Kept || !strings.Contains(harm.Why, `rejected: 1 request that went right went wrong ("read my mail" for send_mail now went to read_calendar)`) {
		t.Errorf("the harmful fix: %+v", harm)
	}
	if data, _ := os.ReadFile(cat); string(data) != standInCatalog {
		t.Errorf("without --write the catalog changed")
	}
	// The re-test sent only the requests touching each pair: 4 and 6.
	if s.judged != 2 || s.sent != 11+4+6 {
		t.Errorf("%d judged, %d sent; want 2 and 21", s.judged, s.sent)
	}
	_, code, errb = fixStandIn(t, url, cat, "--write")
	if code != 0 {
		t.Fatalf("--write: exit %d: %s", code, errb)
	}
	want := strings.NewReplacer(`"Search files by name."`, `"Search files by name. Use it for documents."`, `"Search logs by text."`, `"Search logs by text. Use it for error messages."`).Replace(standInCatalog)
	if data, _ := os.ReadFile(cat); string(data) != want {
		t.Errorf("--write wrote\n%s\nwant\n%s", data, want)
	}
	if !strings.Contains(errb, "wrote to search_logs's description: Use it for error messages.") || strings.Contains(errb, "send_mail's description") {
		t.Errorf("stderr: %s", errb)
	}
	// The text report shows both, before → after, with the verdicts.
	ex := writeFile(t, "examples.jsonl", standInExamples)
	os.WriteFile(cat, []byte(standInCatalog), 0o644)
	code, out, _ := runCmd("", "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--fix", cat)
	for _, w := range []string{
		"search_files ↔ search_logs: kept: 1 more request went right that went wrong before, none went wrong",
		"    search_logs + \"Use it for error messages.\"\n",
		"before 4 of 6 right, after 3 of 6; 0 better, 1 worse; McNemar exact p = 1",
	} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("exit %d, no %q in\n%s", code, w, out)
		}
	}
}

// A recorded judgment's sentences are reused (the judge is not asked for
// that pair); a live catalog (here stdin) gets the kept sentences
// printed, never written; the fix flags without --fix are refused.
func TestProbeFixReusesRecordedJudgmentsAndPrintsForALiveCatalog(t *testing.T) {
	s, url := newStandIn(t)
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	os.WriteFile(cat, []byte(standInCatalog), 0o644)
	c, err := catalog.Parse(cat, []byte(standInCatalog))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := c.Lookup("search_files")
	logs, _ := c.Lookup("search_logs")
	pair := judge.NewPair(judge.FromCatalog(files), judge.FromCatalog(logs), nil)
	if _, err := judge.Record(filepath.Join(dir, judge.FileName), []judge.Judgment{{A: "search_files", B: "search_logs", Label: 2, Reason: "r",
		Fix: &judge.Fix{A: "For documents only.", B: "For error lines."}, By: "openai:standin", Prompt: judge.PromptVersion, Texts: pair.TextHash()}}); err != nil {
		t.Fatal(err)
	}
	p, code, errb := fixStandIn(t, url, cat)
	if code != 0 || len(p.Fixes) != 2 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if f := p.Fixes[0]; f.Judgment != "recorded" || f.Sentences.B != "For error lines." || !f.Kept {
		t.Errorf("the recorded judgment was not reused: %+v", f)
	}
	if s.judged != 1 || !strings.Contains(errb, "2 confused pairs, 1 sentences recorded, 1 to ask openai:standin; 10 requests to send again") {
		t.Errorf("%d judged; stderr %s", s.judged, errb)
	}
	ex := writeFile(t, "examples.jsonl", standInExamples)
	code, _, errb = runCmd(standInCatalog, "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--fix", "--write", "--judgments", filepath.Join(dir, "none.jsonl"), "-")
	if code != 0 || !strings.Contains(errb, "the catalog is not a file") || !strings.Contains(errb, "  search_logs: Use it for error messages.\n") {
		t.Errorf("stdin: exit %d: %s", code, errb)
	}
	for _, flag := range [][]string{{"--write"}, {"--judge", "openai:x"}, {"--judge-url", url}} {
		args := append(append([]string{"probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes"}, flag...), cat)
		if code, _, errb := runCmd("", args...); code != 2 || !strings.Contains(errb, "add --fix") {
			t.Errorf("%v without --fix: exit %d: %s", flag, code, errb)
		}
	}
}

// The probed model's flags answer to both spellings: --model-url and
// --model-price, and the old --url and --price.
func TestProbeModelFlagsKeepTheirOldSpellings(t *testing.T) {
	s, url := newStandIn(t)
	cat := writeFile(t, "tools.json", standInCatalog)
	ex := writeFile(t, "examples.jsonl", standInExamples)
	for _, names := range [][2]string{{"--url", "--price"}, {"--model-url", "--model-price"}} {
		// A price makes the estimate over --max-cost: refused off a terminal.
		code, _, errb := runCmd("", "probe", "--model", "openai:standin", names[0], url, names[1], "1000,1000", "--max-cost", "0.01", "--examples", ex, "--tool-choice", "auto", cat)
		if code != 2 || !strings.Contains(errb, "not run: the estimate is over --max-cost") || s.sent != 0 {
			t.Errorf("%v: exit %d, %d sent: %s", names, code, s.sent, errb)
		}
		code, _, errb = runCmd("", "probe", "--model", "openai:standin", names[0], url, names[1], "oops", "--examples", ex, cat)
		if code != 2 || !strings.Contains(errb, "--model-price:") {
			t.Errorf("%v: a bad price: exit %d: %s", names, code, errb)
		}
	}
}

// The explorer's F runs the same loop for one pair: the record's
// requests that touch it sent again to the record's model, the judge's
// sentences asked; a stale record is refused before any request.
func TestExplorerFixRunsTheLoopForOnePair(t *testing.T) {
	s, url, path := probedStandIn(t)
	dir := filepath.Dir(path)
	rec, err := judge.ReadProbeFile(filepath.Join(dir, judge.ProbeFileName))
	if err != nil || rec == nil {
		t.Fatal(err)
	}
	jf := &judgeFlags{spec: "openai:standin", url: url, file: filepath.Join(dir, "none.jsonl")}
	fix, cost := jf.fixer(rec, nil, path)
	if fix == nil || cost == nil {
		t.Fatal("no fixer with a judge and a record")
	}
	cat, _ := catalog.Parse(path, []byte(standInCatalog))
	files, _ := cat.Lookup("search_files")
	logs, _ := cat.Lookup("search_logs")
	mail, _ := cat.Lookup("send_mail")
	cal, _ := cat.Lookup("read_calendar")
	sent := s.sent
	if line, ok := cost(cat, files, logs); !ok || !strings.Contains(line, "the judge asked, 4 requests to openai:standin sent again") || s.sent != sent {
		t.Errorf("cost %q %v", line, ok)
	}
	if tr, err := fix(context.Background(), cat, files, logs); err != nil || !tr.Kept || tr.Better != 1 || s.sent != sent+4 {
		t.Errorf("the search pair: %+v %v", tr, err)
	}
	if tr, err := fix(context.Background(), cat, mail, cal); err != nil || tr.Kept || tr.Worse != 1 {
		t.Errorf("the mail pair: %+v %v", tr, err)
	}
	changed, _ := catalog.Parse(path, []byte(strings.Replace(standInCatalog, "Search logs by text.", "Search logs.", 1)))
	f2, _ := changed.Lookup("search_files")
	l2, _ := changed.Lookup("search_logs")
	sent = s.sent
	if line, ok := cost(changed, f2, l2); ok || !strings.Contains(line, "stale") {
		t.Errorf("stale: %q %v", line, ok)
	}
	if _, err := fix(context.Background(), changed, f2, l2); err == nil || s.sent != sent {
		t.Errorf("a stale record was re-tested: %v", err)
	}
	if f, c := (&judgeFlags{url: url}).fixer(rec, nil, path); f != nil || c != nil {
		t.Error("a fixer without --judge")
	}
}

// With --fix and no pair confused there is nothing to try: the JSON says
// so with an empty list, the text in a line, and nothing is asked.
func TestProbeFixWithNothingConfused(t *testing.T) {
	s, url := newStandIn(t)
	cat := writeFile(t, "tools.json", standInCatalog)
	ex := writeFile(t, "plain.jsonl", "{\"request\": \"search files named report\", \"tool\": \"search_files\"}\n{\"request\": \"send mail to Ann\", \"tool\": \"send_mail\"}\n")
	code, out, errb := runCmd("", "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--fix", "--format", "json", cat)
	if code != 0 || !strings.Contains(out, `"fixes": []`) || s.judged != 0 {
		t.Errorf("exit %d, %d judged: %s\n%s", code, s.judged, errb, out)
	}
	code, out, _ = runCmd("", "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--fix", cat)
	if code != 0 || !strings.Contains(out, "Fixes: no confused pair, nothing to fix.") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCmd("", "probe", "--model", "openai:standin", "--url", url, "--examples", ex, "--yes", "--no-similarity", "--format", "json", cat)
	if code != 0 || !strings.Contains(out, `"fixes": null`) {
		t.Errorf("without --fix: exit %d:\n%s", code, out)
	}
}
