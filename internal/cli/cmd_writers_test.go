package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/core/judge"
	"toolscope/core/live/livetest"
)

// sameBytes fails the test when a file no longer holds want.
func sameBytes(t *testing.T, path string, want []byte) {
	t.Helper()
	if got, err := os.ReadFile(path); err != nil || string(got) != string(want) {
		t.Errorf("%s changed (%v):\n%s", path, err, got)
	}
}

// End to end on the built binary: a writer never replaces a file its run
// reads, by name, through a symlink or a hard link. Each is refused
// before anything is sent or started (the stand-in gets no request, the
// stdio server is never started) and every input keeps every byte.
func TestWritersLeaveTheirInputsByteIdentical(t *testing.T) {
	s, url := newStandIn(t)
	dir := t.TempDir()
	cat := filepath.Join(dir, "tools.json")
	ex := filepath.Join(dir, "examples.jsonl")
	os.WriteFile(cat, []byte(standInCatalog), 0o644)
	os.WriteFile(ex, []byte(standInExamples), 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(cat, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.json")
	if err := os.Link(cat, hard); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "server.pid")
	cfg := stdioConfig(t, livetest.Behaviour{PidFile: pidFile})
	cfgBytes, _ := os.ReadFile(cfg)
	// A recorded probe beside the catalog, which lint's page reads.
	probed := filepath.Join(dir, "probed")
	os.Mkdir(probed, 0o755)
	pcat := filepath.Join(probed, "tools.json")
	os.WriteFile(pcat, []byte(standInCatalog), 0o644)
	if code, _, errb := runCmd("", "probe", "--model", "openai:standin", "--model-url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--record", pcat); code != 0 {
		t.Fatalf("probe --record: %d %s", code, errb)
	}
	record := filepath.Join(probed, judge.ProbeFileName)
	recBytes, _ := os.ReadFile(record)
	probe := []string{"probe", "--model", "openai:standin", "--model-url", url, "--yes", "--no-similarity", "--tool-choice", "auto", "--record"}
	cases := []struct {
		name  string
		args  []string
		input string
		want  []byte
		err   string
	}{
		{"--probe-file CATALOG", append(probe, "--examples", ex, "--probe-file", cat, cat), cat, []byte(standInCatalog), "--probe-file " + cat + " would overwrite the catalog"},
		{"--probe-file a symlink to CATALOG", append(probe, "--examples", ex, "--probe-file", link, cat), cat, []byte(standInCatalog), "would overwrite the catalog"},
		{"--probe-file a hard link to CATALOG", append(probe, "--examples", ex, "--probe-file", hard, cat), cat, []byte(standInCatalog), "would overwrite the catalog"},
		{"--probe-file EXAMPLES", append(probe, "--examples", ex, "--probe-file", ex, cat), ex, []byte(standInExamples), "would overwrite the examples"},
		{"snapshot -o CONFIG", []string{"snapshot", "--mcp-config", cfg, "-o", cfg}, cfg, cfgBytes, "-o " + cfg + " would overwrite the server list"},
		{"lint --format html=PROBE RECORD", []string{"lint", "--no-similarity", "--format", "html=" + record, pcat}, record, recBytes, "would overwrite the probe record"},
		{"lint --format badge=PROBE RECORD", []string{"lint", "--no-similarity", "--format", "badge=" + record, pcat}, record, recBytes, "would overwrite the probe record"},
	}
	sent := s.sent
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errb := runBuilt(t, dir, c.args...)
			if code != 2 || !strings.Contains(errb, c.err) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errb, c.err)
			}
			sameBytes(t, c.input, c.want)
			if s.sent != sent {
				t.Errorf("%d requests sent before the refusal", s.sent-sent)
			}
			if _, err := os.Stat(pidFile); err == nil {
				t.Error("the server was started before the refusal")
			}
		})
	}
}

// --write's and snapshot -o's targets are tried before anything is paid
// for or started: a symlinked catalog, a folder that takes no file, a
// tool with no description string to add to; lint's --judge-record onto
// its own --format output is refused before the judge is asked.
func TestWriteRefusalsComeBeforeThePayment(t *testing.T) {
	s, url := newStandIn(t)
	t.Setenv("TOOLSCOPE_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	ex := filepath.Join(dir, "examples.jsonl")
	os.WriteFile(ex, []byte(standInExamples), 0o644)
	real := filepath.Join(dir, "real.json")
	os.WriteFile(real, []byte(standInCatalog), 0o644)
	link := filepath.Join(dir, "link.json")
	os.Symlink(real, link)
	fix := []string{"probe", "--model", "openai:standin", "--model-url", url, "--examples", ex, "--yes", "--no-similarity", "--tool-choice", "auto", "--fix", "--write", "--judgments", filepath.Join(dir, "none.jsonl")}
	if code, _, errb := runCmd("", append(fix, link)...); code != 2 || !strings.Contains(errb, "--write: ") || !strings.Contains(errb, "a symlink") || s.sent != 0 || s.judged != 0 {
		t.Errorf("a symlinked catalog: exit %d, %d sent, %d judged: %s", code, s.sent, s.judged, errb)
	}
	sameBytes(t, real, []byte(standInCatalog))
	if code, _, errb := runCmd("", append(fix[:len(fix)-2], "--record", "--probe-file", filepath.Join(dir, "no", "such", "dir", "p.json"), real)...); code != 2 || !strings.Contains(errb, "--probe-file: ") || s.sent != 0 {
		t.Errorf("a record in a folder that takes no file: exit %d, %d sent: %s", code, s.sent, errb)
	}
	if os.Getuid() != 0 {
		ro := filepath.Join(t.TempDir(), "ro")
		os.Mkdir(ro, 0o755)
		rocat := filepath.Join(ro, "tools.json")
		os.WriteFile(rocat, []byte(standInCatalog), 0o644)
		os.Chmod(ro, 0o555)
		t.Cleanup(func() { os.Chmod(ro, 0o755) })
		if code, _, errb := runCmd("", append(fix, rocat)...); code != 2 || !strings.Contains(errb, "cannot be written") || s.sent != 0 {
			t.Errorf("a read-only folder: exit %d, %d sent: %s", code, s.sent, errb)
		}
	} else {
		t.Log("running as root: a read-only folder is writable; not tested")
	}
	// search_logs has no description string: its pair's fix is not asked.
	nodesc := filepath.Join(dir, "nodesc.json")
	os.WriteFile(nodesc, []byte(strings.Replace(standInCatalog, `"description": "Search logs by text.", `, ``, 1)), 0o644)
	code, _, errb := runCmd("", append(fix, "--format", "json", nodesc)...)
	if code != 0 || !strings.Contains(errb, "1 to ask") || s.judged != 1 {
		t.Errorf("no description string: exit %d, %d judged: %s", code, s.judged, errb)
	}
	// snapshot -o onto a symlink or into no folder: the server never starts.
	pidFile := filepath.Join(dir, "server.pid")
	cfg := stdioConfig(t, livetest.Behaviour{PidFile: pidFile})
	for _, target := range []string{link, filepath.Join(dir, "no", "such", "dir", "s.json")} {
		if code, _, errb := runCmd("", "snapshot", "--mcp-config", cfg, "-o", target); code != 2 || !strings.Contains(errb, "toolscope snapshot: ") {
			t.Errorf("snapshot -o %s: exit %d: %s", target, code, errb)
		}
		if _, err := os.Stat(pidFile); err == nil {
			t.Errorf("snapshot -o %s: the server was started", target)
		}
	}
	// lint --judge-record and --format json=the same judgments file.
	judged := s.judged
	judgments := filepath.Join(dir, "judgments.jsonl")
	code, _, errb = runCmd("", "lint", "--judge", "openai:standin", "--judge-url", url, "--judge-record", "--judgments", judgments, "--judge-price", "0,0", "--format", "json="+judgments, real)
	if code != 2 || !strings.Contains(errb, "write the same file") || s.judged != judged {
		t.Errorf("lint --judge-record onto --format json: exit %d, %d judged: %s", code, s.judged-judged, errb)
	}
}
