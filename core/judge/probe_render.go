package judge

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// columns is the matrix's column order: the tools, then NoPick when some
// case went to no tool, then any picked name outside the catalog.
func (p Probe) columns() []string {
	cols := append([]string(nil), p.Tools...)
	known := map[string]bool{}
	for _, t := range p.Tools {
		known[t] = true
	}
	var extra []string
	for _, c := range p.Cases {
		if !known[c.Picked] {
			known[c.Picked] = true
			extra = append(extra, c.Picked)
		}
	}
	return append(cols, extra...)
}

func (p Probe) summary() string {
	n := len(p.Cases)
	pct := 0.0
	if n > 0 {
		pct = 100 * float64(p.Correct) / float64(n)
	}
	from := ""
	if p.FromInputExamples > 0 {
		from = fmt.Sprintf(" (%d written from input_examples)", p.FromInputExamples)
	}
	tools := len(p.Matrix)
	if p.Matrix[NoPick] != nil {
		tools-- // the negatives' row
	}
	return fmt.Sprintf("%s: %s for %s%s, %d went to the tool they were meant for (%.0f%%)", p.Model, count(n, "request", "requests"), count(tools, "tool", "tools"), from, p.Correct, pct)
}

// WriteText renders the probe for a terminal: the summary, the confusions
// in words, and the matrix with numbered columns.
func (p Probe) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "probe %s\n", p.summary())
	p.writeTallyText(&b)
	b.WriteString("\n")
	if len(p.Confusions) == 0 {
		b.WriteString("No request went to another tool.\n")
	} else {
		b.WriteString("Confusions:\n")
		for _, c := range p.Confusions {
			fmt.Fprintf(&b, "  %s%s\n", c.Sentence(), c.suffix(p.Offline))
		}
	}
	p.writeOfflineText(&b)
	p.writeFixesText(&b)
	cols := p.columns()
	width := 0
	for _, t := range p.Tools {
		width = max(width, len(t))
	}
	num := len(strconv.Itoa(len(cols)))
	b.WriteString("\nMatrix (rows: the tool meant, columns: the tool picked, numbered as the rows")
	if len(cols) > len(p.Tools) {
		for i, c := range cols[len(p.Tools):] {
			fmt.Fprintf(&b, "; %d = %s", len(p.Tools)+i+1, c)
		}
	}
	b.WriteString("):\n")
	fmt.Fprintf(&b, "  %*s  %-*s", num, "", width, "")
	cell := max(num, 2)
	for i := range cols {
		fmt.Fprintf(&b, " %*d", cell, i+1)
	}
	b.WriteString("\n")
	for i, t := range p.Tools {
		row := p.Matrix[t]
		if row == nil {
			continue
		}
		fmt.Fprintf(&b, "  %*d  %-*s", num, i+1, width, t)
		for _, c := range cols {
			if n := row[c]; n > 0 {
				fmt.Fprintf(&b, " %*d", cell, n)
			} else {
				fmt.Fprintf(&b, " %*s", cell, ".")
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON renders the probe as indented JSON (the Probe fields).
func (p Probe) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(p)
}

// WriteMarkdown renders the probe for a pull-request comment: the
// summary, the confusions as a table, and the matrix.
func (p Probe) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### toolscope probe\n\n%s\n\n", mdEscape(p.summary()))
	p.writeTallyMarkdown(&b)
	b.WriteString("\n#### Confusions\n\n")
	if len(p.Confusions) == 0 {
		b.WriteString("No request went to another tool.\n")
	} else {
		b.WriteString("| meant | picked | requests | rate |")
		if p.Offline != nil {
			b.WriteString(" offline |")
		}
		b.WriteString("\n|---|---|---:|---:|")
		if p.Offline != nil {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		for _, c := range p.Confusions {
			fmt.Fprintf(&b, "| `%s` | `%s` | %d of %d | %.0f%% |", mdCode(c.Tool), mdCode(c.Picked), c.Count, c.Of, 100*c.Rate)
			if p.Offline != nil {
				offline := ""
				if c.Offline != nil {
					offline = mdEscape(c.Offline.words(p.Offline))
				}
				fmt.Fprintf(&b, " %s |", offline)
			}
			b.WriteString("\n")
		}
	}
	p.writeOfflineMarkdown(&b)
	p.writeFixesMarkdown(&b)
	cols := p.columns()
	b.WriteString("\n<details><summary>Matrix (rows: the tool meant, columns: the tool picked)</summary>\n\n| |")
	for i := range cols {
		fmt.Fprintf(&b, " %d |", i+1)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---:|", len(cols)))
	b.WriteString("\n")
	for i, t := range p.Tools {
		row := p.Matrix[t]
		if row == nil {
			continue
		}
		fmt.Fprintf(&b, "| %d `%s` |", i+1, mdCode(t))
		for _, c := range cols {
			if n := row[c]; n > 0 {
				fmt.Fprintf(&b, " %d |", n)
			} else {
				b.WriteString(" |")
			}
		}
		b.WriteString("\n")
	}
	if len(cols) > len(p.Tools) {
		b.WriteString("\n")
		for i, c := range cols[len(p.Tools):] {
			fmt.Fprintf(&b, "Column %d is `%s`.\n", len(p.Tools)+i+1, mdCode(c))
		}
	}
	b.WriteString("\n</details>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCode keeps a name inside a Markdown code span and a table cell.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "|", "/", "\n", " ").Replace(s)
}

// mdEscape keeps text from opening Markdown constructs.
func mdEscape(s string) string {
	return strings.NewReplacer("|", "\\|", "<", "&lt;", "*", "\\*", "_", "\\_", "`", "\\`").Replace(s)
}
