package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const demoPath = "fixtures/demo/ops-demo.json"

// runCmd runs the command line with buffers and returns the exit code,
// stdout and stderr.
func runCmd(stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, stdio{in: strings.NewReader(stdin), out: &out, err: &errb})
	return code, out.String(), errb.String()
}

func TestCheckArgs(t *testing.T) {
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "args.json")
	if err := os.WriteFile(argsFile, []byte(`{"incident_id": "INC-20417"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	badFile := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(badFile, []byte(`{"incident_id": `), 0o644); err != nil {
		t.Fatal(err)
	}
	catalogStdin, err := os.ReadFile(demoPath)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		stdin    string
		args     []string
		code     int
		out, err []string // substrings each must hold
	}{
		{"valid inline", "", []string{demoPath, "get_volume_status", `{"volume_id":"vol-0a1b2c3d"}`}, 0,
			[]string{"get_volume_status: accepted (mode enforce)\n"}, nil},
		{"pattern miss rejected", "", []string{demoPath, "get_volume_status", `{"volume_id":"yes please"}`}, 1,
			[]string{"rejected before dispatch (mode enforce), 1 issue", `got "yes please" (string of 10 chars)`, "hint: The volume id, like vol-0a1b2c3d.", "The model gets"}, nil},
		{"warn mode runs anyway", "", []string{"--mode", "warn", demoPath, "get_volume_status", `{"volume_id":"yes please"}`}, 0,
			[]string{"runs with a warning (mode warn), 1 issue", "Reported beside the result"}, nil},
		{"off mode does not check", "", []string{"--mode=off", demoPath, "get_volume_status", `{"volume_id":"yes please"}`}, 0,
			[]string{"get_volume_status: not checked (mode off)\n"}, nil},
		{"flags after positionals", "", []string{demoPath, "get_volume_status", `{}`, "--mode", "warn"}, 0,
			[]string{"runs with a warning", "'volume_id' is required but missing"}, nil},
		{"absent ARGS means no arguments", "", []string{demoPath, "get_incident"}, 1,
			[]string{"'incident_id' is required but missing"}, nil},
		{"ARGS from a file", "", []string{demoPath, "get_incident", argsFile}, 0, []string{"accepted"}, nil},
		{"ARGS from stdin", `{"incident_id": "INC-1"}`, []string{demoPath, "get_incident", "-"}, 1,
			[]string{`expected string matching /^INC-[0-9]{4,6}$/, got "INC-1"`}, nil},
		{"catalog from stdin", string(catalogStdin), []string{"-", "get_incident", `{"incident_id":"INC-20417"}`}, 0, []string{"accepted"}, nil},
		{"truncated inline call is the model's issue", "", []string{demoPath, "get_incident", `{"incident_id": "INC-204`}, 1,
			[]string{"- the arguments: expected arguments as one JSON object, got truncated JSON at byte 24"}, nil},
		{"truncated file", "", []string{demoPath, "get_incident", badFile}, 1, []string{"truncated JSON at byte 16"}, nil},
		{"non-ECMA pattern warns and is ignored", "", []string{demoPath, "get_service_health", `{"service":"Checkout API"}`}, 0,
			[]string{"accepted"}, []string{"warning: pattern /^(?P<name>[a-z][a-z0-9-]*)$/ does not compile as ECMA-262"}},
		{"negative number after --", "", []string{demoPath, "get_incident", "--", "-5"}, 1, []string{"expected object, got number"}, nil},

		{"unknown tool names the nearest", "", []string{demoPath, "get_volume_statu"}, 2, nil,
			[]string{`has no tool named "get_volume_statu"; nearest: get_volume_status, `}},
		{"missing TOOL", "", []string{demoPath}, 2, nil, []string{"want CATALOG TOOL [ARGS]"}},
		{"too many arguments", "", []string{demoPath, "a", "{}", "x"}, 2, nil, []string{"want CATALOG TOOL [ARGS]"}},
		{"unknown flag", "", []string{"--strict", demoPath, "get_incident"}, 2, nil, []string{"flag provided but not defined: --strict"}},
		{"unknown mode", "", []string{"--mode", "strict", demoPath, "get_incident"}, 2, nil, []string{`unknown validation mode "strict"`}},
		{"unknown format", "", []string{"--format", "yaml", demoPath, "get_incident"}, 2, nil, []string{`unknown --format "yaml"`}},
		{"both from stdin", "", []string{"-", "get_incident", "-"}, 2, nil, []string{"cannot both be read from stdin"}},
		{"ARGS file missing", "", []string{demoPath, "get_incident", filepath.Join(dir, "nope.json")}, 2, nil, []string{"is neither inline JSON nor a readable file: no such file or directory"}},
		{"ARGS is a directory", "", []string{demoPath, "get_incident", dir}, 2, nil, []string{"is a directory"}},
		{"catalog missing", "", []string{filepath.Join(dir, "nope.json"), "x"}, 2, nil, []string{"nope.json: cannot read: no such file or directory"}},
		{"broken catalog", "", []string{"fixtures/broken/no-name.json", "x"}, 2, nil, []string{"no-name.json:4:3: tools[2]: no name"}},
		{"help", "", []string{"--help"}, 0, []string{"Usage: toolscope check-args", "Exit codes"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCmd(c.stdin, append([]string{"check-args"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errOut)
			}
			for _, s := range c.out {
				if !strings.Contains(out, s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			for _, s := range c.err {
				if !strings.Contains(errOut, s) {
					t.Errorf("stderr lacks %q:\n%s", s, errOut)
				}
			}
			if c.code == 2 && strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("an input error should be one line:\n%s", errOut)
			}
		})
	}
}

func TestCheckArgsJSON(t *testing.T) {
	cases := []struct {
		args   []string
		code   int
		action string
		ok     bool
		issues int
	}{
		{[]string{demoPath, "create_incident", `{"title":"ok","service":"Checkout","severity":"sev9","extra":1}`}, 1, "rejected before dispatch", false, 4},
		{[]string{"--mode", "warn", demoPath, "create_incident", `{}`}, 0, "runs with a warning", false, 3},
		{[]string{"--mode", "off", demoPath, "create_incident", `{}`}, 0, "not checked", true, 0},
		{[]string{demoPath, "get_deploy", `{"deploy_id":"dep-7f3a9c"}`}, 0, "accepted", true, 0},
	}
	for _, c := range cases {
		code, out, errOut := runCmd("", append([]string{"check-args", "--format", "json"}, c.args...)...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, c.code, errOut)
		}
		var r struct {
			Tool, Catalog, Mode, Action, Text string
			OK                                bool
			Issues                            []map[string]string
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, out)
		}
		if r.Action != c.action || r.OK != c.ok || len(r.Issues) != c.issues || r.Catalog != demoPath {
			t.Errorf("%v: %+v", c.args, r)
		}
		if (r.Text != "") != (c.issues > 0) || !strings.Contains(out, `"issues": [`) {
			t.Errorf("%v: text %q for %d issues (issues must be an array)", c.args, r.Text, c.issues)
		}
		for _, is := range r.Issues {
			if _, ok := is["value"]; ok && !strings.HasPrefix(is["got"], "string of ") {
				t.Errorf("%v: structural issue carries a value: %v", c.args, is)
			}
		}
	}
}
