package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Three catalogs whose servers would be github, github and github2 merge
// with three server names and no duplicate-name error.
func TestMergeNamesNeverCollide(t *testing.T) {
	dir := t.TempDir()
	cat := `[{"name": "search_issues", "description": "Searches the issues of one repository by text and returns the twenty best matches."}]`
	var args []string
	for _, d := range []string{"one/github", "two/github", "x/github2"} {
		args = append(args, writeFileAt(t, filepath.Join(dir, filepath.FromSlash(d), "tools.json"), cat))
	}
	_, out, errOut := runCmd("", append([]string{"lint", "--no-config", "--no-similarity", "--format", "json", "--merge"}, args...)...)
	var r struct {
		Structural []struct{ Rule, Tool string }
		Servers    []struct{ Server string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	var servers []string
	for _, s := range r.Servers {
		servers = append(servers, s.Server)
	}
	slices.Sort(servers)
	if !slices.Equal(servers, []string{"github", "github2", "github3"}) {
		t.Errorf("servers %v, want github, github2, github3", servers)
	}
	for _, f := range r.Structural {
		if f.Rule == "duplicate-name" {
			t.Errorf("duplicate-name on %s", f.Tool)
		}
	}
}

// writeFileAt writes data at path, its folders made, and returns path.
func writeFileAt(t *testing.T, path, data string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
