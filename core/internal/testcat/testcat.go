// Package testcat builds the catalogs tests and benchmarks run on: inline
// ones, and synthetic ones of any size made from the real catalogs.
package testcat

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"toolscope/core/catalog"
)

// root is the repository's root, from this file's place in it.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Parse parses a catalog written inline.
func Parse(t testing.TB, src string) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Parse("test.json", []byte(src))
	if err != nil {
		t.Fatalf("catalog: %v", err)
	}
	return cat
}

// Tool writes one tool entry; description "-" leaves it out, schema "" too.
func Tool(name, description, schema string) string {
	d := ""
	if description != "-" {
		d = fmt.Sprintf(`, "description": %q`, description)
	}
	s := ""
	if schema != "" {
		s = `, "inputSchema": ` + schema
	}
	return fmt.Sprintf(`{"name": %q%s%s}`, name, d, s)
}

// List writes a catalog of the entries.
func List(tools ...string) string { return "[" + strings.Join(tools, ",") + "]" }

// Long is a description long enough for every rule.
const Long = "Returns the thing you asked about, in full detail"

// Sample is the first n tools of the real catalogs copied in
// core/similarity/testdata, renumbered.
func Sample(t testing.TB, n int) *catalog.Catalog {
	t.Helper()
	var tools []*catalog.Tool
	for _, name := range []string{"mcp-grafana", "supabase-mcp-server", "notion-mcp-server", "server-everything"} {
		c, err := catalog.Load(filepath.Join(root(), "core", "similarity", "testdata", "catalogs", name+".json"), nil)
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, c.Tools...)
	}
	cat := &catalog.Catalog{Source: "test"}
	for i, tl := range tools[:min(n, len(tools))] {
		c := *tl
		c.Index = i
		cat.Tools = append(cat.Tools, &c)
	}
	return cat
}

var (
	benchToolsOnce sync.Once
	benchTools     []*catalog.Tool
)

// RealTools loads every tool of the real catalogs once: ../shared's, or
// when shared is absent the copies in core/similarity/testdata.
func RealTools(tb testing.TB) []*catalog.Tool {
	benchToolsOnce.Do(func() {
		files, _ := filepath.Glob(filepath.Join(root(), "..", "shared", "catalogs", "*", "*.json"))
		if len(files) == 0 {
			tb.Log("../shared/catalogs is absent: synthesising from core/similarity/testdata/catalogs")
			files, _ = filepath.Glob(filepath.Join(root(), "core", "similarity", "testdata", "catalogs", "*.json"))
		}
		for _, f := range files {
			cat, err := catalog.Load(f, nil)
			if err != nil {
				tb.Fatalf("%s: %v", f, err)
			}
			benchTools = append(benchTools, cat.Tools...)
		}
	})
	return benchTools
}

// Synth is n real tools, cycling through them with renamed copies.
func Synth(tb testing.TB, n int) *catalog.Catalog {
	src := RealTools(tb)
	cat := &catalog.Catalog{Source: fmt.Sprintf("synthetic-%d", n)}
	seen := map[string]bool{}
	for i := range n {
		t := *src[i%len(src)]
		t.Index = i
		name := t.Name
		for k := 2; seen[name]; k++ {
			name = fmt.Sprintf("%s_v%d", t.Name, k)
		}
		seen[name] = true
		t.Name = name
		cat.Tools = append(cat.Tools, &t)
	}
	return cat
}
