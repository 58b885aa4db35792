package tui

import (
	"strings"
	"testing"

	"toolscope/core/jsonv"
	"toolscope/core/validate"
)

// A hostile pattern fills no screen: the schema quotes as much of it as
// every other output does, and says how long it is.
func TestSchemaQuotesALongPatternCapped(t *testing.T) {
	long := strings.Repeat("(a|b)", 2000)
	schema, err := jsonv.Parse([]byte(`{"type": "object", "properties": {"code": {"type": "string", "pattern": "` + long + `"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	styles := DefaultStyles()
	lines := styles.schemaLines(schema, 80)
	text := strings.Join(lines, "\n")
	if len(text) > 2*validate.MaxQuotedPatternChars+400 {
		t.Errorf("the schema quotes %d bytes of a %d-character pattern", len(text), len(long))
	}
	if !strings.Contains(text, "10000 characters") {
		t.Errorf("the schema does not say how long the pattern is:\n%s", text)
	}
}
