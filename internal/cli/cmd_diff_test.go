package cli

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/core/live/livetest"
)

const diffOld = `[
 {"name": "get_weather", "description": "Current weather for one city; use for questions about right now.",
  "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "units": {"type": "string", "enum": ["c", "f", "k"]}}, "required": ["city"]}},
 {"name": "convert_currency", "description": "Converts an amount between two currencies at today's rate, for prices.",
  "inputSchema": {"type": "object", "properties": {"amount": {"type": "number"}}, "required": ["amount"]}}
]`

// diffNew renames convert_currency, drops an enum value, and changes a
// description: one rename and one enum value are breaking.
const diffNew = `[
 {"name": "get_weather", "description": "Current weather for one city; use for questions about right now, never for forecasts.",
  "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "units": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}},
 {"name": "currency_convert", "description": "Converts an amount between two currencies at today's rate, for prices.",
  "inputSchema": {"type": "object", "properties": {"amount": {"type": "number"}}, "required": ["amount"]}}
]`

func TestDiffCommand(t *testing.T) {
	old, new := writeFile(t, "old.json", diffOld), writeFile(t, "new.json", diffNew)
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		out   string
		err   string
	}{
		{"breaking changes fail", "", []string{"diff", "--no-similarity", old, new}, 1, "RESULT: FAIL (2 breaking changes)", ""},
		{"a catalog against itself", "", []string{"diff", "--no-similarity", old, old}, 0, "No changes.", ""},
		{"--fail-on descriptions alone", "", []string{"diff", "--no-similarity", "--fail-on", "descriptions", old, new}, 1, "RESULT: FAIL (1 description change)", ""},
		{"--fail-on none", "", []string{"diff", "--no-similarity", "--fail-on", "none", old, new}, 0, "RESULT: ok", ""},
		{"stdin as NEW", diffNew, []string{"diff", "--no-similarity", old, "-"}, 1, "1 renamed", ""},
		{"markdown", "", []string{"diff", "--no-similarity", "--format", "markdown", old, new}, 1, "### toolscope diff: ❌ FAIL", ""},
		{"similarity runs by default", "", []string{"diff", "--embedder", "mock", old, new}, 1, "new confusable pair", ""},
		{"github annotations", "", []string{"diff", "--no-similarity", "--format", "github", old, new}, 1, ",line=4,col=2,title=toolscope diff tool-renamed::currency_convert: renamed from convert_currency", ""},
		{"github, nothing failing", "", []string{"diff", "--no-similarity", "--format", "github", "--fail-on", "none", old, new}, 0, "::warning file=", ""},
		{"help", "", []string{"diff", "--help"}, 0, "Usage: toolscope diff [flags] OLD NEW", ""},
		{"one catalog", "", []string{"diff", old}, 2, "", "want OLD and NEW"},
		{"both stdin", "", []string{"diff", "-", "-"}, 2, "", "only one of OLD and NEW can be stdin"},
		{"bad --fail-on", "", []string{"diff", "--fail-on", "all", old, new}, 2, "", "--fail-on all: want error, warn, info, breaking, security"},
		{"sarif is lint's", "", []string{"diff", "--format", "sarif", old, new}, 2, "", `--format "sarif"`},
		{"a missing OLD", "", []string{"diff", "--no-similarity", "nope.json", new}, 2, "", "toolscope diff: OLD: nope.json: cannot read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runCmd(c.stdin, c.args...)
			if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) {
				t.Errorf("exit %d, want %d\nstdout: %.800s\nstderr: %s", code, c.code, out, errOut)
			}
			if c.code == 2 && strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("a usage or input error must be one line: %q", errOut)
			}
		})
	}
	_, out, _ := runCmd("", "diff", "--no-similarity", "--format", "json", old, new)
	var r struct {
		OK      bool
		Summary struct{ Renamed, Breaking, DescriptionChanges int }
		Changes []struct{ Kind, Tool, Param string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.OK || r.Summary.Renamed != 1 || r.Summary.Breaking != 2 || r.Summary.DescriptionChanges != 1 {
		t.Errorf("json: %v %+v", err, r)
	}
	if _, out, _ := runCmd("", "--help"); !strings.Contains(out, "toolscope diff [flags] OLD NEW") {
		t.Error("--help does not list diff")
	}
}

// diff takes live sources on either side, and --mcp-config as NEW.
func TestDiffLive(t *testing.T) {
	srv := httptest.NewServer(livetest.Handler(livetest.Behaviour{}))
	t.Cleanup(srv.Close)
	config, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"ops": map[string]any{"url": srv.URL}}})
	cfg := writeFile(t, "mcp.json", string(config))
	old := writeFile(t, "old.json", diffOld)
	if code, out, errOut := runCmd("", "diff", "--no-similarity", srv.URL, srv.URL); code != 0 || !strings.Contains(out, "No changes.") {
		t.Errorf("a server against itself: exit %d %s\n%s", code, errOut, out)
	}
	code, out, errOut := runCmd("", "diff", "--no-similarity", "--format", "json", old, "--mcp-config", cfg)
	var r struct {
		Old, New string
		Summary  struct{ Added, Removed int }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 || r.Summary.Removed != 2 || r.Summary.Added != 7 {
		t.Errorf("a file against a config's servers: exit %d %v %s %+v", code, err, errOut, r)
	}
	if code, _, errOut := runCmd("", "diff", "--mcp-config", cfg, old, old); code != 2 || !strings.Contains(errOut, "want OLD and NEW (or OLD and --mcp-config FILE)") {
		t.Errorf("two catalogs and a config: exit %d %q", code, errOut)
	}
}

// A pair the project config accepts is not a new confusable pair: not
// listed, not counted, not failing --fail-on pairs.
func TestDiffConfigAcceptsPairs(t *testing.T) {
	accept := writeFile(t, "toolscope.yaml", `
similarity: {embedder: mock, scoring: cosine, threshold: 0.9}
accepted-pairs:
  - tools: [get_forecast, get_weather]
    reason: now and later
`)
	none := writeFile(t, "empty.yaml", "similarity: {embedder: mock, scoring: cosine, threshold: 0.9}\n")
	for _, c := range []struct {
		config string
		pairs  int
	}{{none, 2}, {accept, 1}} {
		_, out, errOut := runCmd("", "diff", "--config", c.config, "--fail-on", "pairs", "--format", "json", "testdata/diff/v1.json", "testdata/diff/v2.json")
		var r struct {
			OK       bool
			NewPairs []struct{ A, B string } `json:"newConfusablePairs"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v %s", err, errOut)
		}
		if len(r.NewPairs) != c.pairs || r.OK {
			t.Errorf("%s: new pairs %+v", c.config, r.NewPairs)
		}
		for _, p := range r.NewPairs {
			if c.config == accept && (p.A == "get_weather" || p.B == "get_weather") {
				t.Errorf("the accepted pair listed: %+v", p)
			}
		}
	}
}

// The levels at the command: --fail-on a level, security, any-description,
// and a project's toolscope.yaml regrading a kind.
func TestDiffLevels(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// b's pattern changed (warn); a read-only tool turned destructive
	// (error, security); c's title changed (info).
	old := write("old.json", `[{"name": "a", "description": "d", "annotations": {"readOnlyHint": true}},
 {"name": "b", "description": "d", "inputSchema": {"type": "object", "properties": {"x": {"pattern": "^a"}}}},
 {"name": "c", "title": "C", "description": "d"}]`)
	new := write("new.json", `[{"name": "a", "description": "d", "annotations": {"readOnlyHint": false}},
 {"name": "b", "description": "d", "inputSchema": {"type": "object", "properties": {"x": {"pattern": "^b"}}}},
 {"name": "c", "title": "See", "description": "d"}]`)
	onlyOld := write("pattern-old.json", `[{"name": "b", "description": "d", "inputSchema": {"type": "object", "properties": {"x": {"pattern": "^a"}}}}]`)
	onlyNew := write("pattern-new.json", `[{"name": "b", "description": "d", "inputSchema": {"type": "object", "properties": {"x": {"pattern": "^b"}}}}]`)
	if err := os.Mkdir(filepath.Join(dir, "cfg"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := write("cfg/strict.yaml", "diff:\n  levels:\n    pattern-changed: error\n")
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{old, new}, 1, "RESULT: FAIL (1 breaking change)"},
		{[]string{"--fail-on", "warn", old, new}, 1, "RESULT: FAIL (1 breaking change, 1 warn-level change)"},
		{[]string{"--fail-on", "security", old, new}, 1, "annotations changed: readOnlyHint true → false: a host that ran the tool unconfirmed as read-only or non-destructive may now let it destroy data [security]"},
		{[]string{"--fail-on", "any-description", old, new}, 1, "RESULT: FAIL (1 description change)"},
		{[]string{"--fail-on", "INFO", old, new}, 1, "1 info-level change"},
		{[]string{onlyOld, onlyNew}, 0, "May break callers (warn) (1)"},
		{[]string{"--config", cfg, onlyOld, onlyNew}, 1, "RESULT: FAIL (1 breaking change)"},
	}
	for _, c := range cases {
		code, out, errOut := runCmd("", append([]string{"diff", "--no-similarity"}, c.args...)...)
		if code != c.code || !strings.Contains(out, c.out) {
			t.Errorf("%v: exit %d, want %d with %q\n%s%s", c.args, code, c.code, c.out, out, errOut)
		}
	}
	bad := write("cfg/bad.yaml", "diff:\n  levels:\n    pattern-changed: fatal\n")
	if code, _, errOut := runCmd("", "diff", "--config", bad, onlyOld, onlyNew); code != 2 || !strings.Contains(errOut, `bad.yaml:3:22: diff: levels: pattern-changed: "fatal": want error, warn or info`) {
		t.Errorf("bad level: exit %d %s", code, errOut)
	}
}

// A description that gained Unicode tags or a zero-width space no longer
// prints as the same line before and after: every output spells them
// out, and the change is a security change that fails the gate.
func TestDiffShowsHiddenCharacters(t *testing.T) {
	old := writeFile(t, "old.json", `[{"name": "add", "description": "Adds two numbers. Use for sums."}]`)
	new := writeFile(t, "new.json", `[{"name": "add", "description": "Adds two numbers. Use for sums.\udb40\udc49\udb40\udc47\u200b"}]`)
	for _, format := range []string{"text", "markdown", "github", "json"} {
		code, out, errOut := runCmd("", "diff", "--no-similarity", "--format", format, old, new)
		if code != 1 {
			t.Errorf("%s: exit %d %s", format, code, errOut)
		}
		if strings.ContainsAny(out, "\U000E0049\u200b") {
			t.Errorf("%s: a hidden character printed raw:\n%s", format, out)
		}
		want := `\U000e0049`
		if format == "json" {
			want = `\udb40\udc49`
		}
		if !strings.Contains(out, want) || !strings.Contains(out, "hidden-text-added") && format != "text" && format != "markdown" {
			t.Errorf("%s: lacks %s or the kind:\n%s", format, want, out)
		}
	}
}

// diff writes several outputs in one run too: the annotations on stdout,
// the summary to a file.
func TestDiffSeveralOutputs(t *testing.T) {
	old, new := writeFile(t, "old.json", diffOld), writeFile(t, "new.json", diffNew)
	summary := filepath.Join(t.TempDir(), "summary.md")
	code, out, errOut := runCmd("", "diff", "--no-similarity", "--format", "github", "--format", "markdown="+summary, old, new)
	if code != 1 || !strings.Contains(out, "::error ") {
		t.Fatalf("exit %d %s\n%s", code, errOut, out)
	}
	if md, err := os.ReadFile(summary); err != nil || !strings.Contains(string(md), "### toolscope diff: ❌ FAIL") {
		t.Errorf("the summary file: %v %.200s", err, md)
	}
}
