package validate

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
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

// TestFormatIssuesCaps: extra keys past MaxExtraKeysListed are counted on
// one line, a path is cut at MaxPathChars, and a list cut at MaxIssues
// says so.
func TestFormatIssuesCaps(t *testing.T) {
	long := strings.Repeat("k", 5000)
	var args strings.Builder
	args.WriteString(`{"` + long + `":1`)
	for i := range 30 {
		fmt.Fprintf(&args, `,"x%d":1`, i)
	}
	args.WriteString("}")
	r := Validate(j(t, args.String()), j(t, `{"type":"object","additionalProperties":false}`))
	text := FormatIssues("t", r.Issues)
	lines := strings.Split(text, "\n")
	want := []string{
		"Invalid arguments for tool 't': the call was not executed.",
		"- '" + strings.Repeat("k", MaxPathChars-1) + "…' is not a declared property; leave it out",
		"- 'x0' is not a declared property; leave it out",
		"- 'x1' is not a declared property; leave it out",
		"- 'x2' is not a declared property; leave it out",
		"- 'x3' is not a declared property; leave it out",
		"- 5 more keys are not declared properties; leave them out",
		"- the check stopped at 10 issues; there may be more",
		"Fix the arguments to match the tool's input schema and call it again.",
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("text\n%s\nwant\n%s", text, strings.Join(want, "\n"))
	}
	// Few extra keys: each named, no count, no cap line.
	r = Validate(j(t, `{"a":1,"b":2}`), j(t, `{"type":"object","additionalProperties":false}`))
	if text := FormatIssues("t", r.Issues); strings.Contains(text, "more") || strings.Contains(text, "stopped") {
		t.Errorf("a short list was capped:\n%s", text)
	}
}

func TestFormatIssuesEmpty(t *testing.T) {
	if s := FormatIssues("x", nil); s != "" {
		t.Errorf("no issues gave %q, want no text", s)
	}
}
