package report

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
)

// WriteGitHub writes the report as GitHub Actions workflow commands
// (`::error file=...,line=...,title=...::message`), which the runner turns
// into annotations on the pull request's diff: an error per error finding
// and confusable pair, a warning per warning finding, a notice per review
// pair. With a baseline only new and updated results are annotated: the
// baseline accepted the rest. The last line is the gate's result, plain.
func WriteGitHub(w io.Writer, r *lint.Report, cat *catalog.Catalog) error {
	b := bufio.NewWriter(w)
	_, file := artifactURI(cat.Source)
	// annotate writes one annotation at line:col, or at the tool's own
	// position when line is 0.
	annotate := func(level, title string, toolIndex, line, col int, own, msg string) {
		a := GitHubAnnotation{Level: level, Title: title, Message: msg}
		if _, ok := artifactURI(own); ok && line > 0 {
			// In a file of its own (the mcp-config), whatever the tool.
			a.File, a.Line, a.Col = own, line, col
		} else if file && toolIndex >= 0 && toolIndex < len(cat.Tools) {
			a.File, a.Line, a.Col = cat.Source, cat.Tools[toolIndex].Pos.Line, cat.Tools[toolIndex].Pos.Col
			if line > 0 {
				a.Line, a.Col = line, col
			}
		}
		a.Write(b)
	}
	shown := func(s similarity.BaselineState) bool {
		return r.Baseline == nil || s == similarity.BaselineNew || s == similarity.BaselineUpdated
	}
	for _, f := range r.Structural {
		if !shown(f.BaselineState) {
			continue
		}
		level := "warning"
		if f.Severity == lint.SeverityError {
			level = "error"
		}
		msg := findingWhere(f) + ": " + f.Message
		if f.Suggestion != "" {
			msg += suggestionLabel(f) + f.Suggestion
		}
		annotate(level, "toolscope "+ruleLabel(f), f.ToolIndex, f.Line, f.Column, f.File, msg)
	}
	sim := r.Similarity
	for _, list := range [][]similarity.PairFinding{sim.Confusable, sim.Watch} {
		for _, p := range list {
			if !shown(p.BaselineState) {
				continue
			}
			level, title := "error", "toolscope "+sarifConfusableRule
			if p.Kind == similarity.Watch {
				level, title = "notice", "toolscope "+sarifWatchRule
				if r.Review {
					level = "error"
				}
			}
			why := ""
			if len(p.Reasons) > 0 {
				why = " Why: " + ReasonsText(p.Reasons) + "."
			}
			annotate(level, title, p.I, 0, 0, "", fmt.Sprintf("%s and %s are %s (%s).%s Hint: %s",
				p.A, p.B, verdictPhrase(p.Kind), scoredAs(&sim, p.Pair)+bandNote(p), why, p.Hint))
		}
	}
	fmt.Fprintln(b, headline(r, cat.Source))
	if r.Suppressed != nil {
		fmt.Fprintln(b, suppressedText(r.Suppressed))
	}
	if r.Baseline != nil {
		fmt.Fprintln(b, baselineText(r.Baseline))
	}
	if r.OK {
		fmt.Fprintln(b, "RESULT: ok")
	} else {
		fmt.Fprintln(b, "RESULT: FAIL ("+failReasons(r)+")")
	}
	return b.Flush()
}

// SourceIsFile reports whether a catalog source names a file an
// annotation can point into (not stdin, not a live server).
func SourceIsFile(source string) bool {
	_, file := artifactURI(source)
	return file
}

// GitHubAnnotation is one workflow command that annotates a file
// (`::error file=F,line=L,col=C,title=T::message`).
type GitHubAnnotation struct {
	// Level is error, warning or notice.
	Level string
	// File is "" for an annotation on no file; Line and Col 0 for none.
	File      string
	Line, Col int
	Title     string
	Message   string
}

// Write writes the command on one line, its values escaped as the runner
// reads them back.
func (a GitHubAnnotation) Write(w io.Writer) error {
	var props []string
	if a.File != "" {
		props = append(props, "file="+ghProperty(ghFile(a.File, os.Getenv("GITHUB_WORKSPACE"))))
		if a.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", a.Line))
			if a.Col > 0 {
				props = append(props, fmt.Sprintf("col=%d", a.Col))
			}
		}
	}
	props = append(props, "title="+ghProperty(a.Title))
	_, err := fmt.Fprintf(w, "::%s %s::%s\n", a.Level, strings.Join(props, ","), ghData(a.Message))
	return err
}

// ghFile is a catalog's path as the runner matches it against the files
// of the pull request: relative to the workspace (the repository's root),
// cleaned, with forward slashes; a path outside the workspace is kept.
func ghFile(path, workspace string) string {
	if filepath.IsAbs(path) && workspace != "" {
		if rel, err := filepath.Rel(workspace, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			path = rel
		}
	}
	return filepath.ToSlash(filepath.Clean(path))
}

// ghData escapes a workflow command's message. Control characters other
// than newline and tab are spelled out first (termsafe.Block): a runner's
// log shows ANSI sequences as colour, and an ESC in a tool's name would
// reach the page.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(termsafe.Block(s))
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(termsafe.Block(s))
}
