package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/core/report"
)

// TestSARIFForManyCatalogsStaysInGitHubsLimits: past MaxSARIFRuns
// catalogs, the log holds a run per config instead of one per catalog,
// each describing its rules once and listing its catalogs as artifacts
// that every result points at; more configs than a file may hold runs is
// refused with one line.
func TestSARIFForManyCatalogsStaysInGitHubsLimits(t *testing.T) {
	write := func(t *testing.T, path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	catalogJSON := func(i int) string {
		return fmt.Sprintf(`[{"name": "tool_%d", "description": "", "inputSchema": {"type": "object"}}]`, i)
	}
	type sarifLog struct {
		Runs []struct {
			AutomationDetails struct{ ID string }
			Tool              struct {
				Driver struct{ Rules []struct{ ID string } }
			}
			Artifacts []struct{ Location struct{ URI string } }
			Results   []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI   string
							Index int
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				}
			}
		}
	}
	lint := func(t *testing.T, dir string) (int, string, sarifLog) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out.sarif")
		code, _, errOut := runCmd("", "lint", "--no-similarity", "--format", "sarif="+out, dir)
		var log sarifLog
		if data, err := os.ReadFile(out); err == nil {
			if err := json.Unmarshal(data, &log); err != nil {
				t.Fatal(err)
			}
		}
		return code, errOut, log
	}
	t.Run("one config", func(t *testing.T) {
		dir := t.TempDir()
		n := report.MaxSARIFRuns + 5
		for i := range n {
			write(t, filepath.Join(dir, fmt.Sprintf("c%02d", i), "tools.json"), catalogJSON(i))
		}
		code, errOut, log := lint(t, dir)
		if code != 1 || len(log.Runs) != 1 {
			t.Fatalf("exit %d, %d runs, stderr %q; want exit 1 and one run", code, len(log.Runs), errOut)
		}
		run := log.Runs[0]
		if run.AutomationDetails.ID != "toolscope/catalogs/" || len(run.Artifacts) != n || len(run.Results) < n {
			t.Errorf("id %q, %d artifacts, %d results; want toolscope/catalogs/, %d and at least %d", run.AutomationDetails.ID, len(run.Artifacts), len(run.Results), n, n)
		}
		seen := map[string]int{}
		for _, r := range run.Tool.Driver.Rules {
			seen[r.ID]++
			if seen[r.ID] > 1 {
				t.Errorf("rule %s described twice", r.ID)
			}
		}
		for _, res := range run.Results {
			a := res.Locations[0].PhysicalLocation.ArtifactLocation
			if a.Index < 0 || a.Index >= len(run.Artifacts) || run.Artifacts[a.Index].Location.URI != a.URI {
				t.Errorf("a result at %q points at artifact %d", a.URI, a.Index)
			}
		}
	})
	t.Run("a run per config", func(t *testing.T) {
		dir := t.TempDir()
		for i := range report.MaxSARIFRuns + 1 {
			sub := "a"
			if i%2 == 1 {
				sub = "b"
			}
			write(t, filepath.Join(dir, sub, fmt.Sprintf("c%02d.json", i)), catalogJSON(i))
		}
		write(t, filepath.Join(dir, "b", "toolscope.yaml"), "rules:\n  description-missing-or-short: warn\n")
		_, errOut, log := lint(t, dir)
		ids := map[string]bool{}
		for _, r := range log.Runs {
			ids[r.AutomationDetails.ID] = true
		}
		if len(log.Runs) != 2 || !ids["toolscope/catalogs/default/"] || len(ids) != 2 {
			t.Errorf("runs %v, stderr %q; want two, one per config", ids, errOut)
		}
	})
	t.Run("more configs than runs", func(t *testing.T) {
		dir := t.TempDir()
		for i := range report.MaxSARIFRuns + 1 {
			write(t, filepath.Join(dir, fmt.Sprintf("p%02d", i), "tools.json"), catalogJSON(i))
			write(t, filepath.Join(dir, fmt.Sprintf("p%02d", i), "toolscope.yaml"), "rules: {}\n")
		}
		code, errOut, _ := lint(t, dir)
		lines := withoutProgress(errOut)
		if code != 2 || len(lines) != 1 || !strings.Contains(lines[0], "over the 20 a file may hold") {
			t.Errorf("exit %d, stderr %q; want exit 2 and one line", code, errOut)
		}
	})
}
