package config

import (
	"strings"
	"testing"
)

// initTemplate is the shape 'toolscope init' writes: commented settings
// indented under their keys, lists empty but for commented examples.
const initTemplate = `# toolscope project config
version: 1

# Warnings fail the gate too (as --strict).
# strict: false

rules:
  # duplicate-name: error
  # too-many-tools: {severity: error, max-tools: 128}

similarity:
  # embedder: use              # use (built in), mock
  # rank-limit: 1000

# Pairs reviewed and accepted as distinct.
accepted-pairs:
  # - tools: [search_logs, search_archived_logs]
  #   reason: the archive tool is only offered to the audit agent

# Findings accepted as they are.
ignore:

  # - rule: optional-param-undocumented
  #   tool: list_volumes
  #   reason: the server documents its default page size
`

// A triage that adds entries keeps every other byte of the file: the
// entries' lines are inserted, nothing else moves.
func TestAddedEntriesKeepEveryOtherByte(t *testing.T) {
	tests := []editCase{
		{"a pair into the init template", initTemplate,
			func(c *Config) error { return c.AcceptPair("a", "b", "r") },
			strings.Replace(initTemplate, "accepted-pairs:\n", "accepted-pairs:\n  - tools: [a, b]\n    reason: r\n", 1)},
		{"a pair and an ignore into the init template", initTemplate,
			func(c *Config) error {
				if err := c.AcceptPair("a", "b", "r"); err != nil {
					return err
				}
				return c.IgnoreFinding(Ignore{Rule: "says-what-not-when", Tool: "x", Reason: "why: it is"})
			},
			strings.Replace(strings.Replace(initTemplate, "accepted-pairs:\n", "accepted-pairs:\n  - tools: [a, b]\n    reason: r\n", 1),
				"ignore:\n", "ignore:\n  - rule: says-what-not-when\n    tool: x\n    reason: 'why: it is'\n", 1)},
		{"after the last entry, its comment kept", "ignore:\n    - tool: a   # legacy\n      reason: r\n# the end\n",
			func(c *Config) error { return c.IgnoreFinding(Ignore{Tool: "b", Reason: "s"}) },
			"ignore:\n    - tool: a   # legacy\n      reason: r\n    - tool: b\n      reason: s\n# the end\n"},
		{"a list the file lacks", "version: 1   # spaced\n\n# no lists yet",
			func(c *Config) error { return c.AcceptPair("a", "b", "r") },
			"version: 1   # spaced\n\n# no lists yet\naccepted-pairs:\n  - tools: [a, b]\n    reason: r\n"},
	}
	runEdits(t, tests)
}

// Where the place of an entry is not plain (a flow list), the save still
// writes the right values.
func TestAddedEntriesIntoAFlowList(t *testing.T) {
	c, err := Parse("c.yaml", []byte("ignore: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.IgnoreFinding(Ignore{Tool: "b", Reason: "s"}); err != nil {
		t.Fatal(err)
	}
	got, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("c.yaml", got)
	if err != nil || len(back.Ignores) != 1 || back.Ignores[0].Tool != "b" {
		t.Errorf("got %q: %+v, %v", got, back, err)
	}
}
