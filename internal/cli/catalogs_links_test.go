//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSymlinkedCatalogsAreNeverSkippedInSilence: under a linted folder a
// symlinked catalog is linted (its failure fails the run), a dangling one
// is named, a symlinked folder is walked once (a loop ends); under a glob
// a matching symlink is linted and a subfolder that cannot be read fails
// the run naming it.
func TestSymlinkedCatalogsAreNeverSkippedInSilence(t *testing.T) {
	bad := `[{"name": "x", "description": "", "inputSchema": {"type": "object"}}]`
	// Not the demo: its non-ECMA pattern is warned about once a process,
	// and TestCheckArgs wants that warning.
	good := []byte(`[{"name": "get_report", "description": "Returns the monthly sales report for a region. Use it when asked about sales figures.", "inputSchema": {"type": "object", "properties": {"region": {"type": "string", "description": "The sales region."}}, "required": ["region"]}}]`)
	setup := func(t *testing.T) (root, cats string) {
		root = t.TempDir()
		cats = filepath.Join(root, "cats")
		for _, d := range []string{filepath.Join(cats, "a"), filepath.Join(root, "elsewhere", "more")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for p, data := range map[string][]byte{
			filepath.Join(cats, "ok.json"):                      good,
			filepath.Join(root, "elsewhere", "failing.json"):    []byte(bad),
			filepath.Join(root, "elsewhere", "more", "x2.json"): []byte(bad),
		} {
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return root, cats
	}
	link := func(t *testing.T, target, at string) {
		t.Helper()
		if err := os.Symlink(target, at); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	t.Run("a symlinked failing catalog fails the run", func(t *testing.T) {
		root, cats := setup(t)
		link(t, filepath.Join(root, "elsewhere", "failing.json"), filepath.Join(cats, "a", "linked.json"))
		code, out, errOut := runCmd("", "lint", "--no-similarity", cats)
		if code != 1 || !strings.Contains(out, "linked.json") {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 naming linked.json", code, out, errOut)
		}
	})
	t.Run("a dangling symlink is named", func(t *testing.T) {
		_, cats := setup(t)
		link(t, "/nonexistent/tools.json", filepath.Join(cats, "a", "gone.json"))
		code, _, errOut := runCmd("", "lint", "--no-similarity", cats)
		if code != 2 || !strings.Contains(errOut, "gone.json") {
			t.Errorf("exit %d, stderr %q; want exit 2 naming gone.json", code, errOut)
		}
	})
	t.Run("a symlinked folder is walked, a loop ends", func(t *testing.T) {
		root, cats := setup(t)
		link(t, filepath.Join(root, "elsewhere", "more"), filepath.Join(cats, "more"))
		link(t, cats, filepath.Join(cats, "a", "loop"))
		targets, err := expandCatalogs([]string{cats})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tg := range targets {
			names = append(names, filepath.Base(tg.arg))
		}
		if len(targets) != 2 || !strings.HasSuffix(targets[0].arg, "x2.json") {
			t.Errorf("targets %v, want cats/more/x2.json and cats/ok.json once each", names)
		}
	})
	t.Run("a matching symlink under a glob is linted", func(t *testing.T) {
		root, cats := setup(t)
		link(t, filepath.Join(root, "elsewhere", "failing.json"), filepath.Join(cats, "a", "linked.json"))
		code, out, errOut := runCmd("", "lint", "--no-similarity", cats+"/**/*.json")
		if code != 1 || !strings.Contains(out, "linked.json") {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 naming linked.json", code, out, errOut)
		}
	})
	t.Run("an unreadable subfolder under a glob fails the run", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads every directory")
		}
		_, cats := setup(t)
		private := filepath.Join(cats, "private")
		if err := os.Mkdir(private, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(private, 0o755) })
		code, _, errOut := runCmd("", "lint", "--no-similarity", cats+"/**/*.json")
		if code != 2 || !strings.Contains(errOut, private+": permission denied") {
			t.Errorf("exit %d, stderr %q; want exit 2 naming %s", code, errOut, private)
		}
	})
}

// A folder's walk and a pattern: toolscope's own files are not catalogs,
// one file reached by two paths is linted once, a file named like a
// pattern is that file, and a stream is refused naming it.
func TestFolderTargets(t *testing.T) {
	good := `[{"name": "get_report", "description": "Returns the monthly sales report for a region. Use it when asked about sales figures.", "inputSchema": {"type": "object", "properties": {"region": {"type": "string", "description": "The sales region."}}, "required": ["region"]}}]`
	names := func(ts []target) []string {
		var out []string
		for _, tg := range ts {
			out = append(out, filepath.ToSlash(tg.arg))
		}
		return out
	}
	t.Run("the probe record and exported reports are not catalogs", func(t *testing.T) {
		dir := t.TempDir()
		writeFileAt(t, filepath.Join(dir, "tools.json"), good)
		writeFileAt(t, filepath.Join(dir, "toolscope.probe.json"), `{"version": 1}`)
		writeFileAt(t, filepath.Join(dir, "tools.toolscope.json"), `{"ok": true, "structural": []}`)
		// toolscope's own documents under other names: a baseline, a
		// probe record, lint's JSON report.
		writeFileAt(t, filepath.Join(dir, "toolscope-baseline.json"), "\ufeff{\n  \"kind\": \"toolscope-baseline\",\n  \"version\": 1, \"findings\": []}")
		writeFileAt(t, filepath.Join(dir, "probe-2026.json"), `{"probe": 1, "model": "m", "cases": []}`)
		writeFileAt(t, filepath.Join(dir, "report.json"), "{\n  \"ok\": false,\n  \"toolCount\": 3}")
		for _, arg := range []string{dir, filepath.Join(dir, "*.json")} {
			ts, err := expandCatalogs([]string{arg})
			if err != nil || len(ts) != 1 || filepath.Base(ts[0].arg) != "tools.json" {
				t.Errorf("%s: targets %v (%v), want tools.json alone", arg, names(ts), err)
			}
		}
		if code, _, errOut := runCmd("", "lint", "--no-config", "--no-similarity", dir); code != 0 {
			t.Errorf("lint DIR: exit %d, %s", code, errOut)
		}
	})
	t.Run("a symlinked sibling folder is linted once", func(t *testing.T) {
		dir := t.TempDir()
		writeFileAt(t, filepath.Join(dir, "z", "tools.json"), good)
		// The link sorts first: it is walked before the folder itself.
		if err := os.Symlink(filepath.Join(dir, "z"), filepath.Join(dir, "a")); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
		ts, err := expandCatalogs([]string{dir})
		if err != nil || len(ts) != 1 {
			t.Errorf("targets %v (%v), want one", names(ts), err)
		}
		ts, err = expandCatalogs([]string{filepath.Join(dir, "z", "tools.json"), filepath.Join(dir, "a", "tools.json")})
		if err != nil || len(ts) != 1 {
			t.Errorf("one file by two paths: targets %v (%v), want one", names(ts), err)
		}
		if code, out, errOut := runCmd("", "lint", "--no-config", "--no-similarity", "--merge", dir); code != 0 || strings.Contains(out, "cross-server") {
			t.Errorf("lint --merge: exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("a file named like a pattern is that file", func(t *testing.T) {
		dir := t.TempDir()
		writeFileAt(t, filepath.Join(dir, "tools[1].json"), good)
		writeFileAt(t, filepath.Join(dir, "tools1.json"), good)
		ts, err := expandCatalogs([]string{filepath.Join(dir, "tools[1].json")})
		if err != nil || len(ts) != 1 || filepath.Base(ts[0].arg) != "tools[1].json" {
			t.Errorf("targets %v (%v), want tools[1].json", names(ts), err)
		}
	})
	t.Run("a stream in a folder is refused, naming it", func(t *testing.T) {
		for _, target := range []string{"/dev/stdin", "/dev/tty", "/dev/null"} {
			dir := t.TempDir()
			writeFileAt(t, filepath.Join(dir, "tools.json"), good)
			if err := os.Symlink(target, filepath.Join(dir, "in.json")); err != nil {
				t.Skipf("no symlinks here: %v", err)
			}
			for _, arg := range []string{dir, filepath.Join(dir, "*.json")} {
				_, err := expandCatalogs([]string{arg})
				if err == nil || !strings.Contains(err.Error(), "in.json") || !strings.Contains(err.Error(), "not a file") {
					t.Errorf("%s -> %s: error %v, want one naming in.json", arg, target, err)
				}
			}
		}
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o600); err != nil {
			t.Skipf("no FIFOs here: %v", err)
		}
		_, err := expandCatalogs([]string{dir})
		if err == nil || !strings.Contains(err.Error(), "pipe.json: a named pipe (FIFO), not a file") {
			t.Errorf("a FIFO in the folder: error %v, want one naming pipe.json", err)
		}
	})
}
