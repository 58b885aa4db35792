package pipeline

import (
	"fmt"
	"path/filepath"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/live"
)

// Merge loads every catalog of args with load and merges them as a host
// given all of them does (lint --merge, the explorer on several
// catalogs): each tool's name qualified by its catalog's server name
// (mergeNames), as hosts qualify the tools of several servers, and its
// served name kept for the similarity, as --mcp-config does. The merged
// catalog is no file: its results carry logical locations only.
func Merge(args []string, load func(arg string) (*catalog.Catalog, error)) (*catalog.Catalog, error) {
	merged := &catalog.Catalog{Source: fmt.Sprintf("%s%d catalogs", catalog.MergedPrefix, len(args))}
	for k, prefix := range mergeNames(args) {
		cat, err := load(args[k])
		if err != nil {
			return nil, err
		}
		for _, tl := range cat.Tools {
			q := *tl
			q.Index = len(merged.Tools)
			q.Server, q.ServedName = prefix, tl.OwnName()
			q.Name = live.QualifiedName(prefix, tl.Name)
			q.Entry = prefix + "." + tl.Entry
			q.Pos = jsonv.Pos{} // the merged catalog is no file
			merged.Tools = append(merged.Tools, &q)
		}
	}
	return merged, nil
}

// mergeNames names each catalog's server in a merge: its directory's name
// (servers/github/tools.json is github), or the file's name without its
// extension when the file is in the working directory or shares its
// directory with another catalog of the merge (catalogs/tavily-mcp.json
// beside catalogs/exa-mcp-server.json is tavily-mcp). A name given twice
// is numbered from its second use (github, github2).
func mergeNames(args []string) []string {
	dirOf := func(arg string) string {
		dir := filepath.Base(filepath.Dir(filepath.Clean(arg)))
		if dir == "." || dir == string(filepath.Separator) || dir == ".." {
			return ""
		}
		return dir
	}
	inDir := map[string]int{}
	for _, arg := range args {
		inDir[filepath.Dir(filepath.Clean(arg))]++
	}
	out := make([]string, len(args))
	taken := map[string]bool{}
	for k, arg := range args {
		name := dirOf(arg)
		if name == "" || inDir[filepath.Dir(filepath.Clean(arg))] > 1 {
			name = strings.TrimSuffix(filepath.Base(arg), filepath.Ext(arg))
		}
		out[k] = name
	}
	// Each name's first use keeps it; a later use is numbered past every
	// name given or already numbered (github, github, github2 end as
	// github, github3, github2), so no two servers share one.
	repeat := make([]bool, len(out))
	for k, name := range out {
		repeat[k] = taken[name]
		taken[name] = true
	}
	for k, name := range out {
		if !repeat[k] {
			continue
		}
		n := 2
		for taken[fmt.Sprintf("%s%d", name, n)] {
			n++
		}
		out[k] = fmt.Sprintf("%s%d", name, n)
		taken[out[k]] = true
	}
	return out
}
