package baseline

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// FuzzPathsAndRenames builds a baseline of several catalogs from any
// path, tool names, descriptions and messages, writes it and reads it
// back: the catalog's own section passes the unchanged report (every
// result unchanged), another path's section has none of it, and after
// its first tool is renamed (same description, a name not in the
// catalog) the results of the renamed tool are still not new.
func FuzzPathsAndRenames(f *testing.F) {
	f.Add("servers/a/tools.json", "search_logs", "Search the logs.", "search_old_logs", "Search old logs.", "search_archived_logs", "m")
	f.Add("a\u202e/\x1b.json", "x", "d", "x2", "d", "y", "")
	f.Add("-", "get_*", "Gets.", "get[x", "Gets it.", "get_\u200b", "\"}")
	f.Fuzz(func(t *testing.T, path, a, da, b, db, renamed, msg string) {
		for _, s := range []string{path, a, da, b, db, renamed, msg} {
			if !utf8.ValidString(s) {
				return
			}
		}
		// A section always has a path (lint names each catalog), which
		// Parse requires.
		if path == "" || a == b || renamed == a || renamed == b || da == "" || da == db {
			return
		}
		cat := func(first string) *catalog.Catalog {
			return &catalog.Catalog{Source: path, Tools: []*catalog.Tool{
				{Index: 0, Name: first, Description: da, HasDescription: true},
				{Index: 1, Name: b, Description: db, HasDescription: db != ""},
			}}
		}
		rep := func(c *catalog.Catalog, first string) *lint.Report {
			return lint.NewReport(c, []lint.Finding{
				finding("r", first, "p", lint.SeverityError, msg),
				finding("r", b, "", lint.SeverityWarn, msg),
			}, similarity.Result{Confusable: []similarity.PairFinding{pair(similarity.Confusable, first, b)}, ConfusableCount: 1}, lint.Gate{FailOn: lint.SeverityError})
		}
		base := NewMulti()
		base.Add(path, rep(cat(a), a), cat(a))
		var buf bytes.Buffer
		if err := base.Write(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("a written baseline does not parse: %v\n%s", err, buf.Bytes())
		}
		check := func(what string, first string) {
			c := cat(first)
			r := rep(c, first)
			back.For(path).Apply(r, c, "b.json", false)
			if !r.OK {
				t.Fatalf("%s: the gate fails: %+v", what, r.Baseline)
			}
			for _, x := range r.Structural {
				if x.BaselineState != similarity.BaselineUnchanged {
					t.Fatalf("%s: finding %+v is %s", what, x, x.BaselineState)
				}
			}
			if s := r.Similarity.Confusable[0].BaselineState; s != similarity.BaselineUnchanged {
				t.Fatalf("%s: the pair is %s", what, s)
			}
		}
		check("unchanged", a)
		check("renamed", renamed)
		other := rep(cat(a), a)
		back.For(path+"/other").Apply(other, cat(a), "b.json", false)
		if other.OK {
			t.Fatalf("another path's section passed this catalog's errors")
		}
	})
}
