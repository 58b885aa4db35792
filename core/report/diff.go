package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/diff"
	"toolscope/core/termsafe"
)

// WriteDiffJSON writes the diff report as indented JSON, safe to print:
// catalog text is escaped as lint's JSON report escapes it.
func WriteDiffJSON(w io.Writer, r *diff.Report) error { return writeJSON(w, r) }

// diffHeadline is the report's first line, without markup.
func diffHeadline(r *diff.Report) string {
	s := r.Summary
	parts := []string{"toolscope diff", r.Old + " → " + r.New, fmt.Sprintf("%d → %d tools", r.OldTools, r.NewTools),
		fmt.Sprintf("%d added", s.Added), fmt.Sprintf("%d removed", s.Removed), fmt.Sprintf("%d renamed", s.Renamed),
		plural(s.Descriptions, "description change"), fmt.Sprintf("%d breaking", s.Breaking), plural(s.Warnings, "warning")}
	if s.Security > 0 {
		parts = append(parts, plural(s.Security, "security change"))
	}
	if r.PairsCompared {
		parts = append(parts, plural(s.NewPairs, "new confusable pair"))
	}
	return strings.Join(parts, " · ")
}

// diffFailReasons says what failed the gate.
func diffFailReasons(r *diff.Report, f diff.Fail) string { return r.FailReasons(f) }

// whitespaceNote marks a text change that only moved white space, which
// reads the same side by side.
func whitespaceNote(c diff.Change) string {
	if diff.WhitespaceOnly(c.Old, c.New) {
		return " (white space only)"
	}
	return ""
}

func diffWhere(c diff.Change) string {
	if c.Param != "" {
		return c.Tool + "." + c.Param
	}
	return c.Tool
}

// WriteDiffText writes the diff report for a person: breaking changes first, then
// the tools added, removed and renamed, the text changes old and new, the
// other schema changes, the new confusable pairs, and the result. Text
// from the catalogs is made safe for a terminal.
func WriteDiffText(w io.Writer, r *diff.Report, f diff.Fail) error {
	b := bufio.NewWriter(w)
	line := termsafe.Line
	fmt.Fprintln(b, line(diffHeadline(r)))
	section := func(title string, keep func(diff.Change) bool, show func(diff.Change)) {
		list := changesWhere(r, keep)
		if len(list) == 0 {
			return
		}
		fmt.Fprintf(b, "\n%s (%d)\n", title, len(list))
		for _, c := range list {
			show(c)
		}
	}
	section("Breaking for callers (error)", func(c diff.Change) bool { return c.Breaking }, func(c diff.Change) {
		fmt.Fprintf(b, "  ✗ %s  %s%s\n", line(diffWhere(c)), line(c.Message), classNote(c))
	})
	section("May break callers (warn)", func(c diff.Change) bool { return c.Level == diff.LevelWarn }, func(c diff.Change) {
		fmt.Fprintf(b, "  ~ %s  %s%s\n", line(diffWhere(c)), line(c.Message), classNote(c))
	})
	section("Tools added", func(c diff.Change) bool { return c.Kind == diff.ToolAdded }, func(c diff.Change) {
		fmt.Fprintf(b, "  + %s\n", line(c.Tool))
	})
	section("Descriptions a model reads, changed", func(c diff.Change) bool {
		return c.Kind == diff.DescriptionChanged || c.Kind == diff.ParamDescriptionChanged
	}, func(c diff.Change) {
		fmt.Fprintf(b, "  ~ %s%s\n      - %s\n      + %s\n", line(diffWhere(c)), whitespaceNote(c), line(c.Old), line(c.New))
	})
	section("Other schema changes", func(c diff.Change) bool {
		return c.Level == diff.LevelInfo && c.Kind != diff.ToolAdded && c.Kind != diff.DescriptionChanged && c.Kind != diff.ParamDescriptionChanged
	}, func(c diff.Change) {
		fmt.Fprintf(b, "  · %s  %s\n", line(diffWhere(c)), line(c.Message))
	})
	if r.PairsCompared && len(r.NewPairs) > 0 {
		fmt.Fprintf(b, "\nNew confusable pairs (%d)\n", len(r.NewPairs))
		for _, p := range r.NewPairs {
			fmt.Fprintf(b, "  ✗ %s <> %s\n      hint: %s\n", line(p.A), line(p.B), line(p.Hint))
		}
	}
	if len(r.Changes) == 0 && len(r.NewPairs) == 0 {
		fmt.Fprintln(b, "\nNo changes.")
	}
	b.WriteString("\n")
	if r.OK {
		fmt.Fprintln(b, "RESULT: ok")
	} else {
		fmt.Fprintln(b, "RESULT: FAIL ("+diffFailReasons(r, f)+")")
	}
	return b.Flush()
}

// classNote marks a security change.
func classNote(c diff.Change) string {
	if c.Class == diff.ClassSecurity {
		return " [security]"
	}
	return ""
}

// WriteDiffMarkdown writes the diff report as a pull-request comment.
func WriteDiffMarkdown(w io.Writer, r *diff.Report, f diff.Fail) error {
	b := bufio.NewWriter(w)
	result := "✅ ok"
	if !r.OK {
		result = "❌ FAIL (" + diffFailReasons(r, f) + ")"
	}
	fmt.Fprintf(b, "### toolscope diff: %s\n\n", result)
	s := r.Summary
	what := []string{"`" + mdCode(r.Old) + "` → `" + mdCode(r.New) + "`", fmt.Sprintf("%d → %d tools", r.OldTools, r.NewTools),
		fmt.Sprintf("%d added", s.Added), fmt.Sprintf("%d removed", s.Removed), fmt.Sprintf("%d renamed", s.Renamed),
		plural(s.Descriptions, "description change"), fmt.Sprintf("**%d breaking**", s.Breaking)}
	if r.PairsCompared {
		what = append(what, plural(s.NewPairs, "new confusable pair"))
	}
	fmt.Fprintln(b, strings.Join(what, " · "))
	table := func(title string, keep func(diff.Change) bool, fold bool) {
		list := changesWhere(r, keep)
		if len(list) == 0 {
			return
		}
		mdSectionStart(b, title, len(list), fold)
		fmt.Fprintln(b, "| tool | change |\n|---|---|")
		for _, c := range list {
			fmt.Fprintf(b, "| `%s` | %s |\n", mdCode(diffWhere(c)), mdCell(c.Message))
		}
		mdSectionEnd(b, fold)
	}
	table("Breaking for callers (error)", func(c diff.Change) bool { return c.Breaking }, false)
	table("May break callers (warn)", func(c diff.Change) bool { return c.Level == diff.LevelWarn }, false)
	table("Tools added", func(c diff.Change) bool { return c.Kind == diff.ToolAdded }, false)
	var texts []diff.Change
	for _, c := range r.Changes {
		if c.Kind == diff.DescriptionChanged || c.Kind == diff.ParamDescriptionChanged {
			texts = append(texts, c)
		}
	}
	if len(texts) > 0 {
		fmt.Fprintf(b, "\n#### Descriptions changed (%d)\n\n| tool | before | after |\n|---|---|---|\n", len(texts))
		for _, c := range texts {
			fmt.Fprintf(b, "| `%s`%s | %s | %s |\n", mdCode(diffWhere(c)), whitespaceNote(c), mdCell(c.Old), mdCell(c.New))
		}
	}
	table("Other schema changes", func(c diff.Change) bool {
		return c.Level == diff.LevelInfo && c.Kind != diff.ToolAdded && c.Kind != diff.DescriptionChanged && c.Kind != diff.ParamDescriptionChanged
	}, true)
	if len(r.NewPairs) > 0 {
		fmt.Fprintf(b, "\n#### New confusable pairs (%d)\n\n| tools | hint |\n|---|---|\n", len(r.NewPairs))
		for _, p := range r.NewPairs {
			fmt.Fprintf(b, "| `%s` ↔ `%s` | %s |\n", mdCode(p.A), mdCode(p.B), mdCell(p.Hint))
		}
	}
	return b.Flush()
}

// WriteDiffGitHub writes the diff report as GitHub Actions workflow commands, which
// the runner turns into annotations on the pull request's diff: one per
// change and new confusable pair, at the tool's line in NEW (cat; a
// removed tool has none, so its annotation names no file). What fails the
// gate is an error; breaking changes, text changes and new pairs that do
// not fail it are warnings; the rest are notices. The headline and the
// result follow, plain.
func WriteDiffGitHub(w io.Writer, r *diff.Report, cat *catalog.Catalog, f diff.Fail) error {
	b := bufio.NewWriter(w)
	file := SourceIsFile(cat.Source)
	pos := map[string]int{}
	for i, t := range cat.Tools {
		if _, ok := pos[t.Name]; !ok {
			pos[t.Name] = i
		}
	}
	annotate := func(level, title, tool, msg string) {
		a := GitHubAnnotation{Level: level, Title: "toolscope diff " + title, Message: msg}
		if i, ok := pos[tool]; ok && file {
			a.File, a.Line, a.Col = cat.Source, cat.Tools[i].Pos.Line, cat.Tools[i].Pos.Col
		}
		a.Write(b)
	}
	level := func(fails, notable bool) string {
		switch {
		case fails:
			return "error"
		case notable:
			return "warning"
		}
		return "notice"
	}
	for _, c := range r.Changes {
		text := c.Kind == diff.DescriptionChanged || c.Kind == diff.ParamDescriptionChanged
		msg := diffWhere(c) + ": " + c.Message
		if text {
			msg += "\nbefore: " + c.Old + "\nafter: " + c.New
		}
		annotate(level(f.Fails(c), c.Level != diff.LevelInfo || text), string(c.Kind), c.Tool, msg)
	}
	// A new pair is annotated at a tool the change touched, when one did.
	changed := map[string]bool{}
	for _, c := range r.Changes {
		changed[c.Tool] = true
	}
	for _, p := range r.NewPairs {
		at := p.A
		if !changed[at] && changed[p.B] {
			at = p.B
		}
		annotate(level(f.Pairs, true), "new-confusable-pair", at, fmt.Sprintf("%s and %s are confusable, which they were not before. Hint: %s", p.A, p.B, p.Hint))
	}
	fmt.Fprintln(b, termsafe.Line(diffHeadline(r)))
	if r.OK {
		fmt.Fprintln(b, "RESULT: ok")
	} else {
		fmt.Fprintln(b, "RESULT: FAIL ("+diffFailReasons(r, f)+")")
	}
	return b.Flush()
}

// changesWhere lists r's changes that keep keeps, in order.
func changesWhere(r *diff.Report, keep func(diff.Change) bool) []diff.Change {
	var list []diff.Change
	for _, c := range r.Changes {
		if keep(c) {
			list = append(list, c)
		}
	}
	return list
}
