package cli

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

// closest is the candidate a mistyped word most likely meant: the one at
// the smallest edit distance (a swap of two neighbouring letters counts
// as one edit), if that distance is small for the word's length, else
// the one the word is a prefix of, if only one is. "" when none is close.
func closest(word string, candidates []string) string {
	word = strings.ToLower(word)
	if word == "" {
		return ""
	}
	// One edit in a word of up to four letters, two up to eight, three
	// beyond: "lnt" is lint, "x" is nothing.
	limit := 1 + min(len(word)/5, 2)
	if len(word) < 3 {
		limit = 0
	}
	best, bestDist := "", limit+1
	var prefixed []string
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		if c == word {
			return ""
		}
		// On a tie the one with the same first letter: people mistype
		// the middle of a word more often than its start.
		d := editDistance(word, c)
		if d < bestDist || d == bestDist && best != "" && best[0] != word[0] && c[0] == word[0] {
			best, bestDist = c, d
		}
		if len(word) >= 3 && strings.HasPrefix(c, word) {
			prefixed = append(prefixed, c)
		}
	}
	if best != "" {
		return best
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return ""
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, each one.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// unknownCommand says whether the bare command's first argument is a
// mistyped subcommand rather than a catalog, and the one line to print:
// a word that names no file and is close to a command's name ("lnt"), or
// a bare word that names no file followed by more arguments, where only a
// subcommand could stand ("toolscope lnit x.json").
func unknownCommand(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	word := args[0]
	if word == "" || strings.HasPrefix(word, "-") || strings.ContainsAny(word, "./\\:") {
		return "", false
	}
	for _, r := range word {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "", false
		}
	}
	if _, err := os.Stat(word); err == nil {
		return "", false
	}
	names := make([]string, 0, len(commands)+1)
	for n := range commands {
		names = append(names, n)
	}
	names = append(names, "help")
	if c := closest(word, names); c != "" {
		return fmt.Sprintf("unknown command %q (did you mean %s?)", word, c), true
	}
	if len(args) > 1 {
		sort.Strings(names)
		return fmt.Sprintf("unknown command %q (the commands: %s; or a CATALOG file, which does not exist)", word, strings.Join(names, ", ")), true
	}
	return "", false
}

// flagSuggestion adds "(did you mean --X?)" to the flag package's "flag
// provided but not defined: --x", choosing among fs's flags.
func flagSuggestion(fs *flag.FlagSet, err error) error {
	const marker = "not defined: "
	msg := err.Error()
	i := strings.Index(msg, marker)
	if i < 0 {
		return err
	}
	name := strings.TrimLeft(msg[i+len(marker):], "-")
	name, _, _ = strings.Cut(name, "=")
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if c := closest(name, names); c != "" {
		return fmt.Errorf("%s (did you mean --%s?)", msg, c)
	}
	return err
}
