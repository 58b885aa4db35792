package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"toolscope/core/diff"
	"toolscope/core/lint"
)

// A whole diff run with no command line: both sides load, the change is
// found and gated, each side's pairs are found in turn (OLD, then NEW),
// and a side that does not load is named.
func TestDiffRun(t *testing.T) {
	dir := project(t)
	old := filepath.Join(dir, "servers/a/tools.json")
	// NEW renames get issue (its texts kept) and gains b's search, which
	// reads as a's.
	cur := filepath.Join(dir, "new.json")
	if err := os.WriteFile(cur, []byte(strings.Replace(catalogA, `{"name": "get issue"`, `{"name": "search_tickets", "description": "Searches the issues of one repository by text and returns the twenty best matches.", "inputSchema": {"type": "object", "properties": {"query": {"type": "string", "description": "The text to search for."}}, "required": ["query"]}},
 {"name": "zzz"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := mockSetup(false)("")
	var sides, judged []string
	p := &steps{}
	req := DiffRequest{Old: old, New: cur, OldSource: &files{root: dir}, Source: &files{root: dir}, Setup: s,
		Fail: diff.Fail{Level: diff.LevelError}, Progress: p,
		Side: func(name string) { sides = append(sides, name) }}
	res, err := Diff(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.OldTools != 2 || r.NewTools != 3 || r.Summary.Added != 1 || r.Summary.Renamed != 1 {
		t.Errorf("old %d, new %d tools, summary %+v: want 2, 3, one added, one renamed", r.OldTools, r.NewTools, r.Summary)
	}
	if r.OK {
		t.Error("a tool renamed is breaking: the gate passed")
	}
	if !r.PairsCompared || !slices.Equal(sides, []string{"OLD", "NEW"}) {
		t.Errorf("pairs compared %v, sides %q", r.PairsCompared, sides)
	}
	if want := []string{"loading OLD", "loading NEW", "comparing"}; !slices.Equal(p.said[:3], want) {
		t.Errorf("progress said %q, want %q first", p.said, want)
	}

	s.Judging = true
	req.Judge = func(_ context.Context, l *Linted) (*lint.Report, error) {
		judged = append(judged, l.Catalog.Source)
		return l.Report, nil
	}
	if _, err := Diff(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(judged, []string{old, cur}) {
		t.Errorf("judged %q, want OLD then NEW", judged)
	}

	s.Embedder = nil
	res, err = Diff(context.Background(), req)
	if err != nil || res.Report.PairsCompared {
		t.Errorf("without an embedder: err %v, pairs compared %v", err, res.Report.PairsCompared)
	}
	req.Old = filepath.Join(dir, "missing.json")
	if _, err := Diff(context.Background(), req); err == nil || !strings.HasPrefix(err.Error(), "OLD: ") {
		t.Errorf("err %v, want OLD named", err)
	}
}
