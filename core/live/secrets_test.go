package live

import (
	"context"
	"strings"
	"testing"
)

// Values that a config's ${VAR} took from the environment, in any field
// (args, command, url), are scrubbed from every message: as they are, and
// quoted the ways a message may quote them (JSON with \n for a multi-line
// value, encoding/json's HTML escapes, Go's %q).
func TestEnvironmentValuesExpandedAnywhereAreScrubbed(t *testing.T) {
	const pass = "pg-Pa55<word>\nsecond line"
	getenv := func(name string) (string, bool) {
		switch name {
		case "PGPASSWORD":
			return pass, true
		case "PORT":
			return "443", true
		}
		return "", false
	}
	spec := Spec{Name: "db", Config: "mcp.json", Command: "pg-mcp", Args: []string{"postgresql://app:${PGPASSWORD}@db:${PORT}/x"}}
	c := &conn{spec: spec}
	if _, err := c.resolve(spec, Options{Getenv: getenv}); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, in string }{
		{"raw", "connecting to postgresql://app:" + pass + "@db:443/x failed"},
		{"JSON", `{"args": ["postgresql://app:pg-Pa55<word>\nsecond line@db"]}`},
		{"encoding/json", `"postgresql://app:pg-Pa55\u003cword\u003e\nsecond line@db"`},
		{"Go %q", `exec: "pg-Pa55<word>\nsecond line": not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := c.scrub(tt.in)
			if strings.Contains(got, "Pa55") || strings.Contains(got, "second line") || !strings.Contains(got, redacted) {
				t.Errorf("scrub(%q) = %q", tt.in, got)
			}
		})
	}
	if got := c.scrub("port 443"); got != "port 443" {
		t.Errorf("a short value was scrubbed: %q", got)
	}
}

// A server that cannot start is named as the config wrote it, not with
// the command its ${VAR} expanded to.
func TestStartErrorNamesTheServerUnexpanded(t *testing.T) {
	const token = "tok-expanded-1234"
	spec := Spec{Config: "mcp.json", Command: "/nonexistent/${TOKEN}/server", Args: []string{"--key=${TOKEN}"}}
	opts := testOptions(transport{})
	opts.Getenv = func(name string) (string, bool) { return token, name == "TOKEN" }
	_, err := Open(context.Background(), spec, opts)
	if err == nil {
		t.Fatal("a missing command started")
	}
	if strings.Contains(err.Error(), token) || !strings.Contains(err.Error(), "${TOKEN}") {
		t.Errorf("the start error: %v", err)
	}
}
