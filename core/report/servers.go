package report

import (
	"bufio"
	"fmt"
	"slices"
	"strings"

	"toolscope/core/lint"
)

// twinsText lists a server's confusable pairs with each other server,
// most first: "supabase 6, server-postgres 1", or "none".
func twinsText(s lint.ServerShare, quote func(string) string) string {
	if len(s.Twins) == 0 {
		return "none"
	}
	others := make([]string, 0, len(s.Twins))
	for o := range s.Twins {
		others = append(others, o)
	}
	slices.SortFunc(others, func(a, b string) int {
		if s.Twins[a] != s.Twins[b] {
			return s.Twins[b] - s.Twins[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(others))
	for k, o := range others {
		parts[k] = fmt.Sprintf("%s %d", quote(o), s.Twins[o])
	}
	return strings.Join(parts, ", ")
}

func shareOf(part, whole int) string {
	if whole == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(part)/float64(whole))
}

func totalTokens(ss []lint.ServerShare) int {
	n := 0
	for _, s := range ss {
		n += s.Tokens
	}
	return n
}

// servers writes each server's share of a merged catalog.
func (t textWriter) servers(ss []lint.ServerShare) {
	if len(ss) == 0 {
		return
	}
	total := totalTokens(ss)
	fmt.Fprintf(t, "\nServers (%d merged; confusable pairs across servers as twins)\n", len(ss))
	width := 0
	for _, s := range ss {
		width = max(width, len(safe(s.Server)))
	}
	for _, s := range ss {
		fmt.Fprintf(t, "  %-*s  %-9s  %-20s  %s, %s  twins: %s\n", width, safe(s.Server), plural(s.Tools, "tool"), groupDigits(s.Tokens)+" tokens ("+shareOf(s.Tokens, total)+")",
			plural(s.Errors, "error"), plural(s.Warnings, "warning"), twinsText(s, safe))
	}
}

// mdServers writes each server's share as a table.
func mdServers(b *bufio.Writer, ss []lint.ServerShare) {
	if len(ss) == 0 {
		return
	}
	total := totalTokens(ss)
	fmt.Fprintf(b, "\n#### Servers (%d merged)\n\n| server | tools | tokens | errors | warnings | twins with |\n|---|---:|---:|---:|---:|---|\n", len(ss))
	for _, s := range ss {
		fmt.Fprintf(b, "| `%s` | %d | %s (%s) | %d | %d | %s |\n", mdCode(s.Server), s.Tools, groupDigits(s.Tokens), shareOf(s.Tokens, total), s.Errors, s.Warnings,
			twinsText(s, func(x string) string { return "`" + mdCode(x) + "`" }))
	}
}

// groupDigits writes n with thousands separated by commas.
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for k := len(s) - 3; k > 0 && s[k-1] != '-'; k -= 3 {
		s = s[:k] + "," + s[k:]
	}
	return s
}
