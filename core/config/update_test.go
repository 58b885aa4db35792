package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"toolscope/core/lint"
)

// updateConcurrently has n writers each ignore one tool in the config at
// path at once, through Update, and returns the first error.
func updateConcurrently(path string, tools, reasons []string) error {
	var wg sync.WaitGroup
	errs := make([]error, len(tools))
	for i := range tools {
		wg.Go(func() {
			_, errs[i] = Update(path, true, func(c *Config) error {
				return c.IgnoreFinding(Ignore{Tool: tools[i], Reason: reasons[i]})
			})
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// 20 triage saves at once keep all 20 entries, and the user's comment.
func TestConcurrentUpdatesKeepEveryEntry(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte("# the team's review\nversion: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var tools, reasons []string
	for i := range 20 {
		tools = append(tools, fmt.Sprintf("tool_%02d", i))
		reasons = append(reasons, fmt.Sprintf("reason %d", i))
	}
	if err := updateConcurrently(path, tools, reasons); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Ignores) != 20 {
		t.Errorf("%d of 20 entries kept", len(c.Ignores))
	}
	if b, _ := os.ReadFile(path); !strings.HasPrefix(string(b), "# the team's review\n") {
		t.Errorf("the comment is lost:\n%s", b)
	}
}

// An update refuses a symlink at the config's name before reading
// through it, and leaves the symlink.
func TestUpdateRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.yaml")
	os.WriteFile(victim, []byte("version: 1\n"), 0o644)
	path := filepath.Join(dir, FileName)
	os.Symlink(victim, path)
	_, err := Update(path, true, func(c *Config) error { return c.IgnoreFinding(Ignore{Tool: "x", Reason: "r"}) })
	if err == nil || !strings.Contains(err.Error(), "not a regular file (a symlink)") {
		t.Errorf("Update through a symlink = %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "version: 1\n" {
		t.Errorf("the symlink's target was written: %q", b)
	}
}

// Concurrent writers with any tool names and reasons leave a config that
// loads and holds every writer's entry (or every writer fails alike, for
// a name or reason the config refuses).
func FuzzConcurrentUpdates(f *testing.F) {
	f.Add("get_*", "because", "get[x", "legacy\nname", uint8(5))
	f.Add("a", "#", "b: c", "'", uint8(12))
	f.Fuzz(func(t *testing.T, a, ra, b, rb string, n uint8) {
		n = n%12 + 2
		var tools, reasons []string
		for i := range int(n) {
			if i%2 == 0 {
				tools, reasons = append(tools, fmt.Sprintf("%s%d", a, i)), append(reasons, ra)
			} else {
				tools, reasons = append(tools, fmt.Sprintf("%s%d", b, i)), append(reasons, rb)
			}
		}
		path := filepath.Join(t.TempDir(), FileName)
		if err := updateConcurrently(path, tools, reasons); err != nil {
			return // a name or reason refused: nothing to keep
		}
		c, err := Load(path)
		if err != nil {
			t.Fatalf("the config written does not load: %v", err)
		}
		seen := map[string]bool{}
		for _, g := range c.Ignores {
			seen[g.Tool] = true
		}
		for _, tool := range tools {
			if !seen[tool] {
				t.Errorf("the entry for %q is lost", tool)
			}
		}
	})
}

// ToolPattern matches the one tool it was made for: a name with glob
// characters hides no other tool's findings, and one that is no valid
// pattern (get[x) can be ignored too.
func TestToolPatternMatchesOnlyItsTool(t *testing.T) {
	tests := []struct {
		name   string
		others []string
	}{
		{"get_volume", []string{"get_volumes"}},
		{"get_*", []string{"get_bad name!", "get_", "get_x"}},
		{"get[x", []string{"getx", "get"}},
		{"what?", []string{"whatx", "what"}},
		{`back\slash`, []string{"backslash", `back\\slash`}},
		{"[ab]*", []string{"a", "abc"}},
	}
	for _, tt := range tests {
		g := Ignore{Rule: "description-missing-or-short", Tool: ToolPattern(tt.name)}
		if !g.Matches(lint.Finding{Rule: g.Rule, Tool: tt.name}) {
			t.Errorf("%q (written %q) does not match its own tool", tt.name, g.Tool)
		}
		for _, o := range tt.others {
			if g.Matches(lint.Finding{Rule: g.Rule, Tool: o}) {
				t.Errorf("%q (written %q) also matches %q", tt.name, g.Tool, o)
			}
		}
	}
	// What a person writes stays a glob.
	if g := (Ignore{Tool: "legacy_*"}); !g.Matches(lint.Finding{Tool: "legacy_search"}) {
		t.Error("a written glob no longer matches")
	}
}

// A %YAML directive, a second document and a key twice are each an error
// naming the line.
func TestParseCorners(t *testing.T) {
	tests := []struct{ name, in, err string }{
		{"a %YAML 1.2 directive", "# config\n%YAML 1.2\n---\nversion: 1\n", "c.yaml:2:1: a %YAML directive is not supported"},
		{"a %YAML 1.1 directive", "%YAML 1.1\n---\nversion: 1\n", "c.yaml:1:1: a %YAML directive is not supported"},
		{"a second document", "version: 1\n\n---\nstrict: true\n", "c.yaml:3:1: a second YAML document"},
		{"a second document after a first ---", "---\nversion: 1\n---\n# more\nstrict: true\n", "c.yaml:3:1: a second YAML document"},
		{"a key twice", "version: 1\nstrict: false\nstrict: true\n", "c.yaml:3:1:"},
		{"a nested key twice", "similarity:\n  scoring: risk\n  scoring: cosine\n", "c.yaml:3:"},
		{"one document with ---", "---\nversion: 1\n", ""},
		{"a % inside a value", "ignore:\n  - tool: x\n    reason: |\n      %YAML is text here\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("c.yaml", []byte(tt.in))
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("Parse: %v", err)
			case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)):
				t.Errorf("Parse = %v, want %q", err, tt.err)
			}
		})
	}
}
