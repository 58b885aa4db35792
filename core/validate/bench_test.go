package validate

import (
	"fmt"
	"strings"
	"testing"

	"toolscope/core/jsonv"
)

// typicalSchema is the kind of tool schema the explorer re-validates on
// every keystroke: a handful of typed properties, a pattern, an enum, a
// length bound, an array of small objects, additionalProperties: false.
const typicalSchema = `{
  "type": "object",
  "properties": {
    "volume_id": {"type": "string", "pattern": "^vol-[0-9a-f]{8}$", "description": "The volume id, like vol-0a1b2c3d."},
    "metric": {"type": "string", "enum": ["avg_iops", "peak_iops", "mbps", "latency_ms"]},
    "window": {"type": "string", "pattern": "^[1-9][0-9]*[mhdw]$"},
    "limit": {"type": "integer"},
    "labels": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string", "maxLength": 63}, "value": {"type": "string"}}, "required": ["key"]}},
    "dry_run": {"type": "boolean"}
  },
  "required": ["volume_id", "metric"],
  "additionalProperties": false
}`

func benchValidate(b *testing.B, args string) {
	schema, a := j(b, typicalSchema), j(b, args)
	Validate(a, schema) // compile the patterns outside the loop
	b.ReportAllocs()
	for b.Loop() {
		Validate(a, schema)
	}
}

// BenchmarkValidateTypicalValid: the common keystroke, arguments that pass.
func BenchmarkValidateTypicalValid(b *testing.B) {
	benchValidate(b, `{"volume_id":"vol-0a1b2c3d","metric":"avg_iops","window":"24h","limit":50,"labels":[{"key":"team","value":"storage"},{"key":"env","value":"prod"}],"dry_run":false}`)
}

// BenchmarkValidateTypicalInvalid: a keystroke on arguments with five issues,
// each rendered into the model-visible text as the explorer does.
func BenchmarkValidateTypicalInvalid(b *testing.B) {
	schema, a := j(b, typicalSchema), j(b, `{"volume_id":"yes please","metric":"iops","limit":2.5,"labels":[{"value":"x"}],"extra":1}`)
	b.ReportAllocs()
	for b.Loop() {
		FormatIssues("get_volume_stats", Validate(a, schema).Issues)
	}
}

// hostileSchema declares n properties, each with its own catastrophic
// pattern (distinct text, so neither the compile cache nor the memory of
// failed matches answers for another), and arguments that make every one
// of them backtrack.
func hostileSchema(tb testing.TB, n int) (schema, args *jsonv.Value) {
	var s, a strings.Builder
	s.WriteString(`{"type":"object","properties":{`)
	a.WriteByte('{')
	value := strings.Repeat("a", 40) + "!"
	for i := range n {
		if i > 0 {
			s.WriteByte(',')
			a.WriteByte(',')
		}
		fmt.Fprintf(&s, `"p%d":{"type":"string","pattern":"^(a|aa)+b{0,%d}$"}`, i, i+1)
		fmt.Fprintf(&a, `"p%d":%q`, i, value)
	}
	s.WriteString(`}}`)
	a.WriteByte('}')
	return j(tb, s.String()), j(tb, a.String())
}

// BenchmarkDistinctHostilePatterns: one call whose arguments meet 300
// distinct catastrophic patterns, the memory of failed matches cleared
// before each call so every call starts cold.
func BenchmarkDistinctHostilePatterns(b *testing.B) {
	schema, args := hostileSchema(b, 300)
	Validate(emptyObject, schema) // nothing to match; warms nothing but the parse
	for b.Loop() {
		b.StopTimer()
		failedMatches.Lock()
		clear(failedMatches.byKey)
		failedMatches.Unlock()
		b.StartTimer()
		Validate(args, schema)
	}
}
