package catalog

import (
	"fmt"

	"toolscope/core/jsonv"
	"toolscope/core/safefile"
)

// ToolFix is the fix operations proposed for one tool of a catalog.
type ToolFix struct {
	// Tool is the tool's index in the catalog the fix was made for.
	Tool int
	Ops  []PatchOp
}

// WriteFixes applies fixes, made for was, to the catalog file at path,
// under the file's lock, keeping every other byte. Every tool a fix
// touches must still stand in the file as was read it; otherwise, or when
// an operation does not apply, nothing is written and the error says why.
func WriteFixes(path string, was *Catalog, fixes []ToolFix) error {
	if len(fixes) == 0 {
		return nil
	}
	unlock, err := safefile.Lock(path)
	if err != nil {
		return err
	}
	defer unlock()
	data, source, err := Read(path, nil)
	if err != nil {
		return err
	}
	now, err := Parse(source, data)
	if err != nil {
		return fmt.Errorf("%s changed since it was read: %w", path, err)
	}
	var ops []PatchOp
	for _, f := range fixes {
		if f.Tool < 0 || f.Tool >= len(was.Tools) {
			return fmt.Errorf("%s: no tool %d to fix", path, f.Tool)
		}
		w := was.Tools[f.Tool]
		if f.Tool >= len(now.Tools) || now.Tools[f.Tool].Pointer != w.Pointer || !jsonv.Equal(now.Tools[f.Tool].Raw, w.Raw) {
			return fmt.Errorf("%s changed since it was read (tool %s): nothing written; look again", path, jsonv.Quote(w.Name))
		}
		ops = append(ops, f.Ops...)
	}
	out, err := ApplyPatch(data, ops)
	if err != nil {
		return fmt.Errorf("%s: %w: nothing written", path, err)
	}
	return safefile.Write(path, out)
}
