package validate

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestFormatIssuesGolden pins the model-visible text: the first line, each
// kind of issue line, the hint line, the root, a multi-line value kept on
// one line, and the closing instruction.
func TestFormatIssuesGolden(t *testing.T) {
	schema := j(t, `{
	  "type": "object",
	  "properties": {
	    "volume_id": {"type": "string", "pattern": "^vol-[0-9a-f]{8}$", "description": "The volume id,\n like vol-0a1b2c3d."},
	    "metric": {"type": "string", "enum": ["avg_iops", "peak_iops"]},
	    "note": {"type": "string", "maxLength": 8},
	    "limit": {"type": "integer"}
	  },
	  "required": ["window", "volume_id"],
	  "additionalProperties": false
	}`)
	args := j(t, `{"volume_id": "yes please", "metric": "iops", "note": "line one\nline \"two\"", "limit": 2.5, "verbose": true}`)
	r := Validate(args, schema)
	root := Validate(j(t, `[1]`), schema)
	got := FormatIssues("get_volume_status", r.Issues) + "\n---\n" + FormatIssues("get_volume_status", root.Issues) + "\n"
	const golden = "testdata/format.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("FormatIssues changed:\n%s\nwant:\n%s", got, want)
	}
}

func TestFormatIssuesEmpty(t *testing.T) {
	if s := FormatIssues("x", nil); s != "" {
		t.Errorf("no issues gave %q, want no text", s)
	}
}
