package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"toolscope/core/live/livetest"
)

// lint --mcp-config reports the config's own problems beside its servers'
// tools, located in the config file: in JSON under the server's name, and
// in SARIF as a region of the config's artifact.
func TestLintConfigHygiene(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are Unix's")
	}
	behaviour, err := json.Marshal(livetest.Behaviour{})
	if err != nil {
		t.Fatal(err)
	}
	env, _ := json.Marshal(livetest.EnvBehaviour)
	value, _ := json.Marshal(string(behaviour))
	cmd, _ := json.Marshal(os.Args[0])
	config := "{\n  \"mcpServers\": {\n    \"ops\": {\n      \"command\": " + string(cmd) + ",\n" +
		"      \"env\": {" + string(env) + ": " + string(value) + ",\n" +
		"              \"OPS_API_TOKEN\": \"a8Fq2LmZx81PwQz\"}\n    }\n  }\n}\n"
	path := writeFile(t, "mcp.json", config)

	type finding struct {
		Rule, Tool, Param, Severity string
		Line, Column                int
	}
	lint := func() []finding {
		t.Helper()
		_, out, errOut := runCmd("", "lint", "--no-similarity", "--format", "json", "--mcp-config", path)
		var r struct{ Structural []finding }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, errOut)
		}
		var got []finding
		for _, f := range r.Structural {
			if strings.HasPrefix(f.Rule, "config-") {
				got = append(got, f)
			}
		}
		return got
	}
	secret := finding{Rule: "config-inline-secret", Tool: "ops", Param: "env.OPS_API_TOKEN", Severity: "warn", Line: 6, Column: 32}
	readable := secret
	readable.Rule, readable.Severity = "config-secrets-readable", "error"
	if got := lint(); len(got) != 2 || got[0] != secret || got[1] != readable {
		t.Errorf("mode 0644: config findings %+v\nwant %+v and %+v", got, secret, readable)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := lint(); len(got) != 1 || got[0] != secret {
		t.Errorf("mode 0600: config findings %+v, want %+v", got, secret)
	}

	_, out, _ := runCmd("", "lint", "--no-similarity", "--format", "sarif", "--mcp-config", path)
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF: %v", err)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		if r.RuleID != "config-inline-secret" {
			continue
		}
		found = true
		p := r.Locations[0].PhysicalLocation
		if p == nil || !strings.HasSuffix(p.ArtifactLocation.URI, "mcp.json") || p.Region.StartLine != 6 || p.Region.StartColumn != 32 {
			t.Errorf("SARIF location %+v, want mcp.json 6:32", p)
		}
	}
	if !found {
		t.Error("no config-inline-secret result in the SARIF log")
	}
	if _, out, _ := runCmd("", "lint", "--no-similarity", "--format", "json", "--disable", "config-inline-secret", "--mcp-config", path); strings.Contains(out, "config-inline-secret") {
		t.Error("--disable config-inline-secret left its finding")
	}
	// The explorer's report off a terminal says what lint says.
	if code, out, errOut := runCmd("", "--no-similarity", "--mcp-config", path); code != 1 || !strings.Contains(out, "config-inline-secret") {
		t.Errorf("toolscope --mcp-config off a terminal: exit %d, no config-inline-secret in\n%s%s", code, out, errOut)
	}
}

// A merged lint under the default scoring: a pair of two servers is
// judged by the cross-server band and says so, the same served name on
// two servers is reported, and the report gives each server's share.
func TestLintMergeAcrossServers(t *testing.T) {
	dir := t.TempDir()
	for name, js := range map[string]string{
		"neon":     `[{"name": "list_projects", "description": "Lists the first 10 Neon projects in your account."}, {"name": "run_sql", "description": "Runs one SQL statement against a Neon database."}]`,
		"supabase": `[{"name": "list_projects", "description": "Lists all Supabase projects for the user."}, {"name": "execute_sql", "description": "Executes raw SQL in the Postgres database of a Supabase project."}]`,
	} {
		if err := os.MkdirAll(dir+"/"+name, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir+"/"+name+"/tools.json", []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, out, errOut := runCmd("", "lint", "--no-config", "--format", "json", "--merge", dir)
	var r struct {
		Similarity struct {
			Thresholds struct{ CrossServer float64 }
			Confusable []struct {
				A, B, Band, Hint string
				Fixes            []struct{ Tool, Other, Append string }
			}
		}
		Structural []struct{ Rule, Tool string }
		Servers    []struct {
			Server string
			Tools  int
			Twins  map[string]int
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	if r.Similarity.Thresholds.CrossServer <= 0 {
		t.Errorf("no cross-server band in the thresholds: %.400s", out)
	}
	twins := 0
	for _, p := range r.Similarity.Confusable {
		if strings.HasPrefix(p.A, "neon__") != strings.HasPrefix(p.B, "neon__") {
			twins++
			if p.Band != "cross-server" {
				t.Errorf("%s/%s across servers judged by band %q", p.A, p.B, p.Band)
			}
			// The hint says what a twin is, and each fix names the other
			// server's tool so that it is told from its own.
			if !strings.HasPrefix(p.Hint, "the two read as one job done on two servers (neon and supabase): turn one of them off in the host") {
				t.Errorf("%s/%s hint %q", p.A, p.B, p.Hint)
			}
			for _, f := range p.Fixes {
				if !strings.Contains(f.Append, "`"+f.Other+"`") {
					t.Errorf("the fix for %s names the other tool not as %s: %q", f.Tool, f.Other, f.Append)
				}
			}
		} else if p.Band != "" {
			t.Errorf("%s/%s inside one server judged by band %q", p.A, p.B, p.Band)
		}
	}
	same := false
	for _, f := range r.Structural {
		same = same || (f.Rule == "cross-server-same-name" && f.Tool == "supabase__list_projects")
	}
	if twins == 0 || !same {
		t.Errorf("%d cross-server confusable pairs, same name reported %v:\n%.1500s", twins, same, out)
	}
	if len(r.Servers) != 2 || r.Servers[0].Server != "neon" || r.Servers[0].Tools != 2 || r.Servers[0].Twins["supabase"] != twins {
		t.Errorf("server shares %+v (twins %d)", r.Servers, twins)
	}
}

// The explorer on two servers of a config, on a terminal: the status line
// names the cross-server band, the config's own finding shows on its
// server's first tool, and o groups the tools by server.
func TestExplorerTwoServersOnATerminal(t *testing.T) {
	behaviour, err := json.Marshal(livetest.Behaviour{})
	if err != nil {
		t.Fatal(err)
	}
	server := map[string]any{"command": os.Args[0], "env": map[string]string{livetest.EnvBehaviour: string(behaviour)}}
	// ops carries a token written into the file: the explorer shows the
	// config's finding on ops's first tool, as lint reports it.
	ops := map[string]any{"command": os.Args[0], "env": map[string]string{livetest.EnvBehaviour: string(behaviour), "OPS_API_TOKEN": "a8Fq2LmZx81PwQz"}}
	config, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"ops": ops, "backup": server}})
	if err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, "mcp.json", string(config))
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, runOpts{w: 160, h: 30, args: []string{"--embedder", "mock", "--mcp-config", path}})
	tm.waitText("across servers from")
	tm.send("oooo")
	tm.waitText("by server")
	tm.send("/ops__get_volume")
	tm.waitText("1/1")
	tm.send("\r")
	tm.waitText("config-inline-secret · env.OPS_API_TOKEN")
	tm.send("q")
	tm.end()
}

// The explorer on several catalogs (or a folder of them) merges them as
// lint --merge does: each server named by its file (the two share a
// folder), the cross-server band in force, r merging them again; off a
// terminal, the report gives each server's share. Stdin is no catalog to
// merge.
func TestExplorerMergedCatalogs(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("core", "calibration", "testdata", "twins", "catalogs"))
	if err != nil {
		t.Fatal(err)
	}
	neon, supabase := filepath.Join(dir, "neon-mcp-server.json"), filepath.Join(dir, "supabase-mcp-server.json")
	code, out, errOut := runCmd("", "--embedder", "mock", neon, supabase)
	if code != 0 && code != 1 || !strings.Contains(out, "merged:2 catalogs") || !strings.Contains(out, "neon-mcp-server      16 tools") ||
		!strings.Contains(out, "across servers  neon-mcp-server__delete_branch <> supabase-mcp-server__delete_branch") {
		t.Errorf("off a terminal: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCmd("", neon, "-"); code != 2 || !strings.Contains(errOut, "stdin (-) is one catalog") {
		t.Errorf("stdin merged: exit %d, %q", code, errOut)
	}
	// A folder is its catalogs merged; a glob of one file is that file.
	if code, out, errOut := runCmd("", "--no-similarity", dir); code > 1 || !strings.Contains(out, "merged:13 catalogs") {
		t.Errorf("a folder: exit %d\n%.300s%s", code, out, errOut)
	}
	if code, out, errOut := runCmd("", "--no-similarity", filepath.Join(dir, "neon*.json")); code > 1 || !strings.Contains(out, "neon-mcp-server.json · 16 tools") {
		t.Errorf("a glob of one file: exit %d\n%.300s%s", code, out, errOut)
	}
	literal := filepath.Join(t.TempDir(), "tools[1].json")
	if data, err := os.ReadFile(neon); err != nil || os.WriteFile(literal, data, 0o644) != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runCmd("", "--no-similarity", literal); code > 1 || !strings.Contains(out, "tools[1].json · 16 tools") {
		t.Errorf("a file whose name looks like a glob: exit %d\n%.300s%s", code, out, errOut)
	}
	if code, _, errOut := runCmd("", t.TempDir()); code != 2 || !strings.Contains(errOut, "a directory with no .json file") {
		t.Errorf("an empty folder: exit %d, %q", code, errOut)
	}

	tm := startTerm(t, runOpts{w: 160, h: 30, args: []string{"--embedder", "mock", neon, supabase}})
	tm.waitText("across servers from")
	tm.waitText("merged:2 catalogs")
	tm.waitText("supabase-mcp-server__")
	tm.send("r")
	tm.waitText("across servers from")
	tm.send("q")
	tm.end()
}

// One server of three that cannot start, or cannot be reached: lint
// reports the other two, the config's own findings, and that server as an
// error finding at its entry in the file; the gate fails (exit 1), the
// run is no input error (never 2). Without it, the rest passes.
func TestLintConfigServerDown(t *testing.T) {
	behaviour, err := json.Marshal(livetest.Behaviour{})
	if err != nil {
		t.Fatal(err)
	}
	server := map[string]any{"command": os.Args[0], "env": map[string]string{livetest.EnvBehaviour: string(behaviour)}}
	cases := []struct {
		name string
		down map[string]any
		why  string
	}{
		{"a program that does not exist", map[string]any{"command": "toolscope-no-such-server"}, "start: executable file not found"},
		{"a loopback port nobody listens on", map[string]any{"url": "http://127.0.0.1:1/mcp"}, "connection refused"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			config, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
				"ops": server, "backup": server, "gone": tc.down,
				"fetcher": map[string]any{"command": "npx", "args": []string{"-y", "some-mcp-server"}, "disabled": true},
			}})
			if err != nil {
				t.Fatal(err)
			}
			path := writeFile(t, "mcp.json", string(config))
			code, out, errOut := runCmd("", "lint", "--no-similarity", "--format", "json", "--mcp-config", path)
			if code != 1 {
				t.Fatalf("exit %d, want 1 (the gate fails on the server that is down)\n%s%s", code, out, errOut)
			}
			var r struct {
				ToolCount  int
				Structural []struct {
					Rule, Tool, Severity, Message string
					Line                          int
				}
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if want := 2 * len(livetest.Tools()); r.ToolCount != want {
				t.Errorf("%d tools, want the two servers' %d", r.ToolCount, want)
			}
			var down int
			for _, f := range r.Structural {
				if f.Rule == "config-server-unavailable" {
					down++
					if f.Tool != "gone" || f.Severity != "error" || f.Line == 0 || !strings.Contains(f.Message, tc.why) || !strings.Contains(f.Message, `server "gone" could not be listed`) {
						t.Errorf("the finding: %+v", f)
					}
				}
			}
			if down != 1 {
				t.Errorf("%d config-server-unavailable findings, want 1: %+v", down, r.Structural)
			}
			// --disable takes the finding away; the other servers pass.
			code, out, errOut = runCmd("", "lint", "--no-similarity", "--disable", "config-server-unavailable", "--mcp-config", path)
			if code > 1 || strings.Contains(out, "config-server-unavailable") || !strings.Contains(out, "ops__") {
				t.Errorf("disabled: exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}
