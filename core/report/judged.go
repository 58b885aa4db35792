package report

import (
	"bufio"
	"fmt"

	"toolscope/core/lint"
)

// judgedHeadline sums up a report's judged section in one line.
func judgedHeadline(j *lint.Judged) string {
	confusable, cleared := 0, 0
	for _, p := range j.Pairs {
		if p.Verdict == "confusable" {
			confusable++
		} else {
			cleared++
		}
	}
	by := "recorded judgments"
	if j.Judge != "" {
		by = j.Judge
	}
	s := fmt.Sprintf("Judged (%s: %d asked, %d replayed", by, j.Asked, j.Replayed)
	if j.File != "" {
		s += ", file " + j.File
	}
	return s + fmt.Sprintf("): %d confusable, %d cleared, %d unjudged", confusable, cleared, len(j.Unjudged))
}

// judged writes the judged section: the cleared pairs with their reasons
// (the confusable ones are among the verdicts above, with theirs), the
// unjudged with why, and the error that stopped the judge.
func (t textWriter) judged(j *lint.Judged, max int) {
	fmt.Fprintf(t, "\n%s\n", safe(judgedHeadline(j)))
	if j.Error != "" {
		fmt.Fprintln(t, t.style(ansiYellow, "  judge stopped: "+safe(j.Error)))
	}
	shown := 0
	for _, p := range j.Pairs {
		if p.Verdict == "confusable" {
			continue
		}
		if max > 0 && shown == max {
			fmt.Fprintln(t, "  … (--format json lists every judged pair)")
			break
		}
		shown++
		was := ""
		if p.Offline != "" {
			was = ", offline " + shownVerdict(p.Offline)
		}
		fmt.Fprintf(t, "  %s %s <> %s (label %d by %s%s)\n", t.style(ansiGreen, "✓ cleared"), safe(p.A), safe(p.B), p.Label, safe(p.By), was)
		fmt.Fprintln(t, t.style(ansiDim, "      reason: "+safe(p.Reason)))
	}
	for i, u := range j.Unjudged {
		if max > 0 && i == max {
			fmt.Fprintf(t, "  … and %d more unjudged pairs\n", len(j.Unjudged)-i)
			break
		}
		stands := "no offline verdict"
		switch u.Offline {
		case "accepted":
			stands = "the config's accept stands: review it again"
		case "":
		default:
			stands = "offline " + shownVerdict(u.Offline) + " stands"
		}
		fmt.Fprintf(t, "  %s %s <> %s: %s (%s)\n", t.style(ansiYellow, "? unjudged"), safe(u.A), safe(u.B), safe(u.Why), stands)
	}
}

// mdJudged writes the judged section for a pull-request comment.
func mdJudged(b *bufio.Writer, j *lint.Judged, max int) {
	fmt.Fprintf(b, "\n%s\n", mdCell(judgedHeadline(j)))
	if j.Error != "" {
		fmt.Fprintf(b, "\n> judge stopped: %s\n", mdCell(j.Error))
	}
	if len(j.Pairs)+len(j.Unjudged) == 0 {
		return
	}
	fmt.Fprintf(b, "\n<details><summary>Judged pairs</summary>\n\n| verdict | tools | label | by | reason |\n|---|---|---:|---|---|\n")
	rows := 0
	for _, p := range j.Pairs {
		if max > 0 && rows == max {
			break
		}
		rows++
		fmt.Fprintf(b, "| %s | `%s` ↔ `%s` | %d | %s | %s |\n", p.Verdict, mdCode(p.A), mdCode(p.B), p.Label, mdCell(p.By), mdCell(p.Reason))
	}
	for _, u := range j.Unjudged {
		if max > 0 && rows == max {
			break
		}
		rows++
		fmt.Fprintf(b, "| unjudged | `%s` ↔ `%s` | | | %s |\n", mdCode(u.A), mdCode(u.B), mdCell(u.Why))
	}
	fmt.Fprintln(b, "\n</details>")
}

// shownVerdict is a verdict as people read it: the watch list is the
// review list.
func shownVerdict(v string) string {
	if v == "watch" {
		return "review"
	}
	return v
}
