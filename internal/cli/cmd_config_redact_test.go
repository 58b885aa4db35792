//go:build unix

package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"toolscope/core/live/livetest"
)

// No report format repeats a URL's password or a secret query value of
// an mcp-config, in url or in args, of a server started or disabled; the
// config's findings are located in the config (SARIF, GitHub), listed on
// the HTML page, and counted by JUnit for servers not started. The file
// is VS Code's JSONC, with comments.
func TestConfigSecretsInNoReport(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are Unix's")
	}
	dir := t.TempDir()
	env, _ := json.Marshal(livetest.EnvBehaviour)
	cmd, _ := json.Marshal(os.Args[0])
	config := "{\n  // servers of this workspace\n  \"servers\": {\n" +
		"    \"remote\": {\"url\": \"http://alice:hunter2pass@mcp.example.com/mcp?api_key=Zq81LmPx4Fa9wq&mode=fast\", \"disabled\": true},\n" +
		"    \"bridge\": {\"command\": \"npx\", \"args\": [\"-y\", \"mcp-remote@1.2.3\", \"http://bob:s3cretPw99@mcp.example.com/sse?token=Tk7Hq2Lm9Pz4wq\"], \"disabled\": true},\n" +
		"    \"ok\": {\"command\": " + string(cmd) + ", \"args\": [\"http://carol:pw7Secret@mcp.example.com/x?access_token=AcTok99zzqq\"], \"env\": {" + string(env) + ": \"{}\"}}, /* started */\n" +
		"  },\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"hunter2pass", "Zq81LmPx4Fa9wq", "s3cretPw99", "Tk7Hq2Lm9Pz4wq", "pw7Secret", "AcTok99zzqq"}
	outputs := map[string]string{}
	for _, format := range []string{"text", "json", "sarif", "markdown", "github", "junit", "html"} {
		code, out, errOut := runBuilt(t, dir, "lint", "--no-config", "--no-similarity", "--format", format, "--mcp-config", "mcp.json")
		if code != 1 {
			t.Fatalf("%s: exit %d, want 1 (the readable secrets fail the gate)\n%s", format, code, errOut)
		}
		for _, s := range secrets {
			if strings.Contains(out+errOut, s) {
				t.Errorf("%s: the report repeats %q", format, s)
			}
		}
		if !strings.Contains(out, "alice:***@mcp.example.com/mcp?api_key=***") || !strings.Contains(out, "bob:***@") {
			t.Errorf("%s: no redacted URL in the report:\n%.3000s", format, out)
		}
		outputs[format] = out
	}
	// The page lists the config's findings.
	for _, rule := range []string{"config-plain-http", "config-inline-secret", "config-secrets-readable"} {
		if !strings.Contains(outputs["html"], rule) {
			t.Errorf("the HTML page does not list %s", rule)
		}
	}
	// GitHub and SARIF locate the disabled server's findings in the config.
	if !strings.Contains(outputs["github"], "::warning file=mcp.json,line=4,col=23,title=toolscope config-plain-http::remote.url") {
		t.Errorf("no GitHub annotation at mcp.json:4:23 for remote.url:\n%s", outputs["github"])
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
					LogicalLocations []struct{ FullyQualifiedName string }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(outputs["sarif"]), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v", err)
	}
	located := 0
	for _, r := range log.Runs[0].Results {
		if !strings.HasPrefix(r.RuleID, "config-") {
			continue
		}
		p := r.Locations[0].PhysicalLocation
		if p == nil || p.ArtifactLocation.URI != "mcp.json" || p.Region.StartLine < 4 || p.Region.StartLine > 6 {
			t.Errorf("SARIF %s on %s at %+v, want in mcp.json lines 4-6", r.RuleID, r.Locations[0].LogicalLocations, p)
			continue
		}
		located++
	}
	if located < 6 {
		t.Errorf("%d config results located in SARIF, want at least 6", located)
	}
	// Run from a subfolder of the repository, the config is named from
	// its root.
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	cmdGH := exec.Command(binary(t), "lint", "--no-config", "--no-similarity", "--format", "github", "--mcp-config", "../mcp.json")
	cmdGH.Dir = sub
	cmdGH.Env = append(os.Environ(), "GITHUB_WORKSPACE="+dir)
	gh, _ := cmdGH.Output()
	if !strings.Contains(string(gh), "::warning file=mcp.json,line=4,col=23,title=toolscope config-plain-http::remote.url") {
		t.Errorf("from a subfolder, no GitHub annotation at mcp.json:4:23:\n%s", gh)
	}
	// JUnit fails the disabled server's case: the readable-secrets error
	// is on it.
	junit := outputs["junit"]
	at := strings.Index(junit, `<testcase name="server remote (config)"`)
	if at < 0 || !strings.Contains(junit[at:], `type="config-secrets-readable"`) {
		t.Errorf("JUnit has no failing case for the disabled server remote:\n%s", junit)
	}
}
