package validate

import (
	"strings"
	"unicode/utf8"

	"toolscope/core/jsonv"
)

// FormatIssues renders what the model gets back instead of a result when a
// call to toolName is rejected: which call was not executed, one line per
// issue (the excerpt of a string-shape issue JSON-quoted, so a multi-line
// value stays on one line, and the parameter's description on the line
// after), and what to do next. No issues, no text.
func FormatIssues(toolName string, issues []Issue) string {
	if len(issues) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Invalid arguments for tool ")
	b.WriteString(quoteName(toolName))
	b.WriteString(": the call was not executed.\n")
	extras, unlisted := 0, 0
	for _, is := range issues {
		if is.Expected == ExpectedNoAdditional {
			if extras++; extras > MaxExtraKeysListed {
				unlisted++
				continue
			}
		}
		b.WriteString("- ")
		b.WriteString(quotePath(is.Path))
		switch {
		case is.Expected == "required" && is.Got == "missing":
			b.WriteString(" is required but missing")
		case is.Expected == ExpectedNoAdditional:
			b.WriteString(" is not a declared property; leave it out")
		case is.StringShape():
			b.WriteString(": expected ")
			b.WriteString(oneLine(is.Expected))
			b.WriteString(", got ")
			b.WriteString(jsonv.Quote(is.Value))
			b.WriteString(" (")
			b.WriteString(is.Got)
			b.WriteByte(')')
		default:
			b.WriteString(": expected ")
			b.WriteString(oneLine(is.Expected))
			b.WriteString(", got ")
			b.WriteString(is.Got)
		}
		b.WriteByte('\n')
		if is.Hint != "" {
			b.WriteString("  hint: ")
			b.WriteString(oneLine(is.Hint))
			b.WriteByte('\n')
		}
	}
	if unlisted > 0 {
		b.WriteString("- ")
		b.WriteString(plural(float64(unlisted), "more key"))
		if unlisted == 1 {
			b.WriteString(" is not a declared property; leave it out\n")
		} else {
			b.WriteString(" are not declared properties; leave them out\n")
		}
	}
	if len(issues) >= MaxIssues {
		b.WriteString("- the check stopped at ")
		b.WriteString(plural(MaxIssues, "issue"))
		b.WriteString("; there may be more\n")
	}
	b.WriteString("Fix the arguments to match the tool's input schema and call it again.")
	return b.String()
}

// MaxExtraKeysListed is how many extra keys the model-visible text names
// one by one; the rest are counted on one line.
const MaxExtraKeysListed = 5

// MaxPathChars caps a path in the model-visible text, in code points, the
// cut marker included: a hostile key must not flood the model's context.
const MaxPathChars = 80

// ExpectedNoAdditional is what an extra-key issue expected.
const ExpectedNoAdditional = "no additional properties"

// quotePath names a path in a message, capped at MaxPathChars; the root
// has no path to quote.
func quotePath(p string) string {
	if p == "" {
		return "the arguments"
	}
	return "'" + capChars(oneLine(p), MaxPathChars) + "'"
}

// capChars cuts s to at most n code points, the cut marked with an
// ellipsis that counts.
func capChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	count := 0
	for i := range s {
		if count == n-1 {
			if utf8.RuneCountInString(s[i:]) > 1 {
				return s[:i] + "…"
			}
			return s
		}
		count++
	}
	return s
}

func quoteName(name string) string { return "'" + oneLine(name) + "'" }

// oneLine folds runs of white space (line breaks included) into one space,
// so schema text cannot break the one-line-per-issue layout.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t\v\f") && !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
