package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/fixtures"
)

// A run that would write two outputs to one file, or an output over a
// catalog it reads, is a usage error before anything is written; an
// empty CATALOG argument (an unset variable) is one too, not the demo.
func TestRefusedWrites(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	catalog := fixtures.Demo()
	for _, name := range []string{"tools.json", "new.json", "base.json", "servers.json"} {
		if err := os.WriteFile(name, catalog, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("tools.json", "link.json"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"lint", "--no-similarity", "--format", "json=r.out", "--format", "sarif=r.out", "tools.json"}, "--format json=r.out and --format sarif=r.out write the same file"},
		{[]string{"lint", "--no-similarity", "--format", "json=b.json", "--write-baseline", "./b.json", "tools.json"}, "--format json=b.json and --write-baseline ./b.json write the same file"},
		{[]string{"lint", "--no-similarity", "--format", "json=tools.json", "tools.json"}, "--format json=tools.json would overwrite the catalog tools.json"},
		{[]string{"lint", "--no-similarity", "--format", "sarif=link.json", "tools.json"}, "--format sarif=link.json would overwrite the catalog tools.json"},
		{[]string{"lint", "--no-similarity", "--write-baseline", "new.json", "."}, "--write-baseline new.json would overwrite the catalog new.json"},
		{[]string{"diff", "--no-similarity", "--format", "json=./new.json", "tools.json", "new.json"}, "--format json=./new.json would overwrite the catalog new.json"},
		{[]string{"lint", "--no-similarity", "--baseline", "base.json", "--format", "json=base.json", "tools.json"}, "--format json=base.json would overwrite the baseline base.json"},
		{[]string{"lint", "--no-similarity", "--mcp-config", "servers.json", "--format", "sarif=servers.json"}, "--format sarif=servers.json would overwrite the server list servers.json"},
		{[]string{"lint", "--no-similarity", ""}, "an empty CATALOG argument"},
		{[]string{"lint", "--no-similarity", "tools.json", ""}, "an empty CATALOG argument"},
		{[]string{"diff", "--no-similarity", "", "new.json"}, "an empty CATALOG argument"},
		{[]string{"check-args", "", "search_logs"}, "an empty CATALOG argument"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCmd("", c.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.err) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q, stdout %d bytes; want 2 and %q", c.args, code, stderr, len(stdout), c.err)
		}
		for _, name := range []string{"tools.json", "new.json", "base.json", "servers.json"} {
			if data, _ := os.ReadFile(name); string(data) != string(catalog) {
				t.Fatalf("%q: %s was overwritten", c.args, name)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "r.out")); err == nil {
			t.Fatalf("%q: r.out was written", c.args)
		}
	}
	// Two outputs to two files, and a baseline rewritten where it was read,
	// are fine.
	if code, _, stderr := runCmd("", "lint", "--no-similarity", "--format", "json=a.out", "--format", "sarif=b.out", "--write-baseline", "base.json", "tools.json"); code == 2 {
		t.Errorf("two files: %s", stderr)
	}
	if code, _, stderr := runCmd("", "lint", "--no-similarity", "--baseline", "base.json", "--write-baseline", "base.json", "tools.json"); code == 2 {
		t.Errorf("a baseline rewritten in place: %s", stderr)
	}
}

// A report may go to a sink the user names (/dev/null, a character
// device); an output a write would refuse is refused before the analysis:
// the cache directory stays empty, no token counted.
func TestOutputsCheckedBeforeTheWork(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cacheDir := filepath.Join(dir, "cache")
	t.Setenv("TOOLSCOPE_CACHE_DIR", cacheDir)
	if err := os.WriteFile("tools.json", fixtures.Demo(), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("elsewhere.json", "link.json")
	os.Mkdir("adir", 0o755)
	full := deviceFull(t, dir)
	refused := []struct {
		args []string
		err  string
	}{
		{[]string{"--format", "json=link.json"}, "--format json=link.json: not a regular file (a symlink): not replaced"},
		{[]string{"--format", "sarif=adir"}, "--format sarif=adir: not a regular file (a directory): not replaced"},
		{[]string{"--format", "json=nodir/r.json"}, "--format json=nodir/r.json: no directory nodir to write it in"},
		{[]string{"--format", "json=tools.json/r.json"}, "tools.json/r.json: not a directory"},
		{[]string{"--write-baseline", full}, "not a regular file (a device): not replaced"},
	}
	for _, c := range refused {
		args := append(append([]string{"lint", "--embedder", "mock", "--format", "json"}, c.args...), "tools.json")
		code, stdout, stderr := runCmd("", args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.err) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.err)
		}
		if ents, _ := os.ReadDir(cacheDir); len(ents) != 0 {
			t.Fatalf("%q: the analysis ran before the refusal (the cache holds %d files)", c.args, len(ents))
		}
	}
	// Sinks: any number of reports, and the run's result; a device that
	// fails the write (/dev/full) is said in one line.
	code, _, stderr := runCmd("", "lint", "--embedder", "mock", "--format", "markdown="+full, "tools.json")
	if code != 2 || !strings.Contains(stderr, "writing the report: write "+full+": no space left on device") {
		t.Errorf("a full device: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCmd("", "lint", "--embedder", "mock", "--format", "json=/dev/null", "--format", "sarif=/dev/null", "tools.json"); code != 1 || stderr != "" {
		t.Errorf("/dev/null twice: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCmd("", "snapshot", "-o", "/dev/null", "tools.json"); code != 0 {
		t.Errorf("snapshot -o /dev/null: exit %d, stderr %q", code, stderr)
	}
}

// A diff's outputs may not overwrite what it reads besides its catalogs:
// the config, the judgments file, the server list; each is a usage error
// before anything runs, and the file keeps its bytes.
func TestDiffProtectsWhatItReads(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	files := map[string]string{
		"tools.json":                string(fixtures.Demo()),
		"new.json":                  string(fixtures.Demo()),
		"servers.json":              `{"mcpServers": {}}`,
		"toolscope.yaml":            "rule-set: recommended\n",
		"toolscope.judgments.jsonl": "",
	}
	for name, data := range files {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"diff", "--no-similarity", "--format", "json=toolscope.yaml", "tools.json", "new.json"}, "--format json=toolscope.yaml would overwrite the config"},
		{[]string{"diff", "--no-similarity", "--format", "markdown=./toolscope.judgments.jsonl", "tools.json", "new.json"}, "would overwrite the judgments file"},
		{[]string{"diff", "--no-similarity", "--mcp-config", "servers.json", "--format", "json=servers.json", "tools.json"}, "--format json=servers.json would overwrite the server list servers.json"},
		{[]string{"diff", "--no-similarity", "--judge-record", "--format", "json=toolscope.judgments.jsonl", "tools.json", "new.json"}, "would overwrite the judgments file"},
	}
	for _, c := range cases {
		code, stdout, stderr := runCmd("", c.args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.err) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.err)
		}
		for name, data := range files {
			if got, _ := os.ReadFile(name); string(got) != data {
				t.Fatalf("%q: %s was overwritten", c.args, name)
			}
		}
	}
}
