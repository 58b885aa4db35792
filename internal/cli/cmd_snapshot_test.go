package cli

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/live/livetest"
)

// A snapshot of a live server reads back as the catalog the server
// serves: every tool, in order, each entry as the server wrote it (key
// order and all), over HTTP and over stdio; the snapshot lints offline
// and diffs clean against the server.
func TestSnapshotPinsALiveServer(t *testing.T) {
	srv := httptest.NewServer(livetest.Handler(livetest.Behaviour{}))
	t.Cleanup(srv.Close)
	want, err := catalog.Parse("list.json", livetest.ListJSON())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sources := []struct {
		name string
		args []string
	}{
		{"http", []string{srv.URL}},
		{"stdio", []string{"--mcp-config", stdioConfig(t, livetest.Behaviour{})}},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			file := filepath.Join(dir, src.name+".json")
			code, out, errOut := runCmd("", append([]string{"snapshot", "-o", file}, src.args...)...)
			if code != 0 || out != "" || !strings.Contains(errOut, "wrote "+file+" (") {
				t.Fatalf("snapshot: exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got, err := catalog.Parse(file, data)
			if err != nil {
				t.Fatalf("the snapshot does not read back: %v", err)
			}
			if len(got.Tools) != len(want.Tools) || len(got.Tools) < 2 {
				t.Fatalf("%d tools, the server lists %d", len(got.Tools), len(want.Tools))
			}
			for i, g := range got.Tools {
				w := want.Tools[i]
				if g.Name != w.Name || g.Description != w.Description || g.Schema.JSON() != w.Schema.JSON() || g.Raw.JSON() != w.Raw.JSON() {
					t.Errorf("tool %d: %s differs from the server's %s:\n%s\n%s", i, g.Name, w.Name, g.Raw.JSON(), w.Raw.JSON())
				}
			}
			// Offline, the file is a catalog like any other.
			if code, _, errOut := runCmd("", "lint", "--no-similarity", file); code == 2 {
				t.Errorf("lint on the snapshot: exit 2 %s", errOut)
			}
			if code, out, errOut := runCmd("", "diff", "--no-similarity", file, srv.URL); code != 0 || !strings.Contains(out, "No changes.") {
				t.Errorf("the snapshot against the server: exit %d %s\n%s", code, errOut, out)
			}
		})
	}
	// To stdout, the same bytes.
	code, out, _ := runCmd("", "snapshot", srv.URL)
	if file, _ := os.ReadFile(filepath.Join(dir, "http.json")); code != 0 || out != string(file) {
		t.Errorf("snapshot to stdout: exit %d, differs from the file:\n%.400s", code, out)
	}
}

func TestSnapshotRefuses(t *testing.T) {
	cat := writeFile(t, "tools.json", `{"tools": [{"name": "a", "description": "Get a.", "inputSchema": {"type": "object"}}]}`)
	before, _ := os.ReadFile(cat)
	cases := []struct {
		name string
		args []string
		err  string
	}{
		{"no catalog", []string{"snapshot"}, "want a CATALOG"},
		{"two catalogs", []string{"snapshot", cat, cat}, "want one CATALOG, got 2 arguments"},
		{"over the catalog it reads", []string{"snapshot", "-o", cat, cat}, "tools.json"},
		{"a server that cannot start", []string{"snapshot", "-o", filepath.Join(t.TempDir(), "x.json"), "mcp:/nonexistent/server"}, "toolscope snapshot: "},
		{"a file that is no catalog", []string{"snapshot", filepath.Join(t.TempDir(), "missing.json")}, "cannot read"},
	}
	for _, tc := range cases {
		code, out, errOut := runCmd("", tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.err) || strings.Count(strings.TrimRight(errOut, "\n"), "\n") != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", tc.name, code, out, errOut)
		}
	}
	if after, _ := os.ReadFile(cat); string(after) != string(before) {
		t.Error("the catalog was written over")
	}
}

// A snapshot writes no bidi override, tag or zero-width character raw,
// to a terminal or to its file, yet reads back as the same strings; a
// deeply nested entry grows the file linearly, not with the square of
// its depth.
func TestSnapshotEscapesHiddenCharactersAndStaysLinear(t *testing.T) {
	desc := "Reads files.\u202e gnirts\U000e0049\U000e0067\u200b"
	deep := strings.Repeat(`{"a":`, 400) + "1" + strings.Repeat("}", 400)
	src := writeFile(t, "tools.json", `[{"name": "read_file", "description": "`+desc+`", "inputSchema": {"type": "object", "x": `+deep+`}}]`)
	code, out, errb := runCmd("", "snapshot", src)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	for _, raw := range []string{"\u202e", "\U000e0049", "\u200b"} {
		if strings.Contains(out, raw) {
			t.Errorf("stdout holds %+q raw", raw)
		}
	}
	if !strings.Contains(out, `\u202e`) {
		t.Errorf("no escape for the bidi override in\n%.300s", out)
	}
	if len(out) > 40*len(deep) {
		t.Errorf("%d bytes for a %d-byte nesting", len(out), len(deep))
	}
	file := filepath.Join(t.TempDir(), "snap.json")
	if code, _, errb := runCmd("", "snapshot", "-o", file, src); code != 0 {
		t.Fatalf("-o: exit %d: %s", code, errb)
	}
	data, _ := os.ReadFile(file)
	if string(data) != out {
		t.Error("the file differs from stdout")
	}
	back, err := catalog.Parse(file, data)
	if err != nil || len(back.Tools) != 1 || back.Tools[0].Description != desc {
		t.Errorf("the snapshot does not read back as the same description: %v", err)
	}
}
