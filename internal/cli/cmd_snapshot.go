package cli

import (
	"bytes"
	"fmt"

	"toolscope/core/catalog"
	"toolscope/core/safefile"
	"toolscope/core/termsafe"
)

const (
	snapshotUsage   = "snapshot [flags] CATALOG"
	snapshotSummary = "write a catalog (a live MCP server's tools/list) to a JSON file, to pin it in a repository and lint it offline"
	snapshotHelp    = snapshotSummary + `.

The tools are written as an MCP tools/list result, {"tools": [...]}, each
entry as the source gave it: key order, number text, annotations, _meta
and all. Characters a terminal could act on or that hide text (bidi
overrides, C1 controls, tag and zero-width characters) are written as
\u escapes, the same strings; nesting deeper than 16 levels is written
compact. A server's list pages are joined in order. The file reads
back as the same catalog: 'toolscope lint FILE' then gates what the server
served, and 'toolscope diff FILE SERVER' shows what it serves now.

Exit codes: 0 written, 2 usage or input error (the server could not be
listed, the file could not be written; nothing is left half-written).`
)

func init() {
	register(command{name: "snapshot", usage: snapshotUsage, summary: snapshotSummary, run: runSnapshot})
}

func runSnapshot(args []string, io stdio) int {
	fs := newFlagSet("snapshot")
	live := addLiveFlags(fs)
	out := fs.String("o", "", "write to `FILE` instead of stdout (replaced whole, or not at all)")
	positional, code, ok := parseCommand(fs, snapshotUsage, snapshotHelp, args, io)
	if !ok {
		return code
	}
	arg, rest, given := live.catalogArgs(positional)
	switch {
	case !given:
		return usageError(io, "snapshot", "want a CATALOG: a live server (mcp:COMMAND or an http(s):// URL), a file or '-'")
	case len(rest) > 0:
		return usageError(io, "snapshot", fmt.Sprintf("want one CATALOG, got %s", plural(len(positional), "argument", "arguments")))
	case arg == "" && live.config == "":
		return usageError(io, "snapshot", "CATALOG is empty")
	}
	if *out != "" && *out != "-" {
		// Before the server is started: an output over an input, or a
		// target that cannot be written, costs nothing.
		if err := checkWrites([][2]string{{"-o " + *out, *out}}, [][2]string{{"the catalog", arg}, {"the server list", live.config}}); err != nil {
			return usageError(io, "snapshot", err.Error())
		}
		if err := safefile.Preflight(*out); err != nil && !isSink(*out) {
			fmt.Fprintf(io.err, "toolscope snapshot: %s\n", oneLine(err))
			return 2
		}
	}
	cat, err := live.load(arg, io)
	if err != nil {
		fmt.Fprintf(io.err, "toolscope snapshot: %s\n", oneLine(err))
		return 2
	}
	data := snapshotJSON(cat)
	if *out == "" || *out == "-" {
		if _, err := io.out.Write(data); err != nil {
			fmt.Fprintf(io.err, "toolscope snapshot: writing: %s\n", oneLine(err))
			return 2
		}
		return 0
	}
	if err := writeReportFile(*out, data); err != nil {
		fmt.Fprintf(io.err, "toolscope snapshot: %s\n", oneLine(err))
		return 2
	}
	fmt.Fprintf(io.err, "toolscope snapshot: wrote %s (%s)\n", termsafe.Line(*out), plural(len(cat.Tools), "tool", "tools"))
	return 0
}

// snapshotJSON renders the catalog's tools as a tools/list result, each
// entry as it stood in its source, indented two spaces (nesting deeper
// than jsonv.IndentDepth written compact, so the file grows linearly with
// the answer). Bidi overrides, C1 controls, tag and zero-width characters
// are written as \u escapes (termsafe.EscapeJSON): the file reads back as
// the same strings, and neither a terminal printing it nor a reviewer
// reading its diff meets them raw.
func snapshotJSON(cat *catalog.Catalog) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"tools\": [")
	for i, t := range cat.Tools {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		b.WriteString(indentLines(t.Raw.Indent("  "), "    "))
	}
	if len(cat.Tools) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return termsafe.EscapeJSON(b.Bytes())
}

// indentLines indents every line of s after the first by prefix.
func indentLines(s, prefix string) string {
	return string(bytes.ReplaceAll([]byte(s), []byte("\n"), []byte("\n"+prefix)))
}
