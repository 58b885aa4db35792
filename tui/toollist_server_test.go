package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/lint"
)

// serverCatalog lists "server/tool" entries as a merged catalog does.
func serverCatalog(entries ...string) *catalog.Catalog {
	cat := &catalog.Catalog{Source: "merged"}
	for k, e := range entries {
		server, tool, _ := strings.Cut(e, "/")
		cat.Tools = append(cat.Tools, &catalog.Tool{Index: k, Name: server + "__" + tool, ServedName: tool, Server: server})
	}
	return cat
}

// o cycles the sort; the server grouping is offered for a merged catalog
// only, and groups its tools by server in the catalog's server order, the
// most confusable first in each.
func TestToolListGroupsByServer(t *testing.T) {
	keys, styles := DefaultKeyMap(), DefaultStyles()
	press := func(l *toolList) { l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("o")}) }
	names := func(l *toolList) string {
		var out []string
		for _, r := range l.rows {
			out = append(out, l.snap.cat.Tools[r.tool].Name)
		}
		return strings.Join(out, " ")
	}

	l := newToolList(&keys, &styles)
	l.setSize(80, 20)
	snap := bare(serverCatalog("neon/a", "supabase/b", "neon/c", "pg/d", "supabase/e"), lint.Gate{FailOn: lint.SeverityError}, nil)
	snap.tools[2].confusable = 2 // neon__c first among neon's
	l.setSnapshot(snap)
	for range 4 {
		press(l)
	}
	if l.sort != sortServer {
		t.Fatalf("after four presses the sort is %s, want server", l.sort)
	}
	if got, want := names(l), "neon__c neon__a supabase__b supabase__e pg__d"; got != want {
		t.Errorf("by server: %s, want %s", got, want)
	}
	if !strings.Contains(l.title(), "by server") {
		t.Errorf("title %q", l.title())
	}
	press(l)
	if l.sort != sortFile {
		t.Errorf("the sort after server is %s, want file order", l.sort)
	}

	one := newToolList(&keys, &styles)
	one.setSize(80, 20)
	one.setSnapshot(bare(serverCatalog("neon/a", "neon/b"), lint.Gate{FailOn: lint.SeverityError}, nil))
	for range 4 {
		press(one)
	}
	if one.sort != sortFile {
		t.Errorf("one server: the sort after confusable is %s, want file order (no grouping to offer)", one.sort)
	}
}
