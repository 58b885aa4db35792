package judge

import (
	"strings"
	"testing"
	"time"

	"toolscope/core/catalog"
)

// The model's arguments meet the boundary check-args applies: the
// schema's issues, then a declared period value that does not read.
func TestArgumentIssues(t *testing.T) {
	cat, err := catalog.Parse("t.json", []byte(`[{"name": "hist", "description": "History.", "inputSchema": {"type": "object",
  "properties": {"volume_id": {"type": "string", "pattern": "^vol-[0-9a-f]{8}$"}, "window": {"type": "string"}}, "required": ["volume_id", "window"]},
  "_meta": {"askOrAssume": {"window": {"assume": "24h"}}, "period": {"argument": "window", "spelling": "lookback", "direction": "past"}}},
 {"name": "plain", "description": "Plain.", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	hist, _ := cat.Lookup("hist")
	plain, _ := cat.Lookup("plain")
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		tool *catalog.Tool
		args string
		want []string
	}{
		{hist, `{"volume_id": "vol-0a1b2c3d", "window": "24h"}`, nil},
		{hist, `{"volume_id": "vol-0a1b2c3d"}`, []string{"'window' is required but missing"}},
		{hist, `{"volume_id": "vol-0a1b2c3d", "window": "since tuesday"}`, []string{"window \"since tuesday\""}},
		{plain, `{"n": "3"}`, []string{"'n': expected integer, got string"}},
		{plain, `{"n": 3`, []string{"the arguments: expected"}},
		{plain, ``, nil},
	} {
		got := ArgumentIssues(tc.tool, tc.args, now, time.UTC)
		if len(got) != len(tc.want) {
			t.Errorf("%s %s: %q; want %q", tc.tool.Name, tc.args, got, tc.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]) || strings.Contains(got[i], "\n") {
				t.Errorf("%s %s: issue %q; want one line starting %q", tc.tool.Name, tc.args, got[i], tc.want[i])
			}
		}
	}
	cases := []ProbeCase{
		{Tool: "hist", Picked: "plain", Arguments: ArgumentsJSON(`{"n": 1.5}`)},
		{Tool: "hist", Picked: NoPick},
		{Tool: "hist", Picked: "elsewhere", Arguments: ArgumentsJSON(`{}`)},
	}
	CheckArguments(cases, cat, now, time.UTC)
	if len(cases[0].ArgumentIssues) != 1 || cases[1].ArgumentIssues == nil || len(cases[1].ArgumentIssues) != 0 || len(cases[2].ArgumentIssues) != 0 {
		t.Errorf("checked against the tool called: %+v", cases)
	}
	for in, want := range map[string]string{"": "{}", "  ": "{}", `{"a": 1}`: `{"a":1}`, "not json": `"not json"`, `{"a":`: `"{\"a\":"`} {
		if got := string(ArgumentsJSON(in)); got != want {
			t.Errorf("ArgumentsJSON(%q) = %s; want %s", in, got, want)
		}
	}
}
