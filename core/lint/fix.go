package lint

import (
	"bytes"
	"encoding/json"
	"fmt"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// A fix is a finding's change as JSON Patch operations on the catalog
// file (RFC 6902, paths from the file's root). It is offered only when
// it is complete and stated by the catalog itself: applied, it removes
// its finding and adds no error. A value the text does not state (a
// unit, a format) is never made up for a fix; the message asks for it.

// jsonRaw is v as JSON, with nothing escaped that JSON does not require.
func jsonRaw(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return bytes.TrimSpace(b.Bytes())
}

// enumFix declares literals as the enum of param, the schema of one of
// t's parameters; nil when the schema is not in t's file.
func enumFix(t *catalog.Tool, param *jsonv.Value, literals []string) []catalog.PatchOp {
	at, ok := t.PointerTo(param)
	if !ok {
		return nil
	}
	return []catalog.PatchOp{{Op: "add", Path: at + "/enum", Value: jsonRaw(literals)}}
}

// renameFix gives t the name to; nil when its name is not in its file.
// finishFixes drops it when another tool has or takes that name.
func renameFix(t *catalog.Tool, to string) []catalog.PatchOp {
	at, ok := t.PointerTo(t.NameValue())
	if !ok || t.Server != "" {
		return nil
	}
	return []catalog.PatchOp{
		{Op: "test", Path: at, Value: jsonRaw(t.Name)},
		{Op: "replace", Path: at, Value: jsonRaw(to)},
	}
}

// renamed is the name a fix gives its tool, or "".
func renamed(f *Finding) string {
	if len(f.Fix) != 2 || f.Fix[1].Op != "replace" || f.Fix[0].Op != "test" {
		return ""
	}
	var to string
	if json.Unmarshal(f.Fix[1].Value, &to) != nil {
		return ""
	}
	return to
}

// finishFixes drops the renames that would make two tools share a name
// (with a tool that has it, or another rename), which a duplicate-name
// error would answer, and says each remaining fix in the suggestion.
func finishFixes(cat *catalog.Catalog, findings []Finding) []Finding {
	takes := map[string]int{}
	for i := range findings {
		if to := renamed(&findings[i]); to != "" {
			takes[to]++
		}
	}
	for i := range findings {
		f := &findings[i]
		to := renamed(f)
		if to == "" {
			continue
		}
		if _, taken := cat.Lookup(to); taken || takes[to] > 1 {
			f.Fix = nil
			f.Suggestion = fmt.Sprintf("rename it with letters, digits, '_' and '-' only (%s is taken)", jsonv.Quote(to))
			continue
		}
		f.Suggestion = fmt.Sprintf(`"name": %s`, jsonv.Quote(to))
	}
	return findings
}
