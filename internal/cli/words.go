package cli

import "fmt"

// plural is "1 tool", "2 tools": n with the noun's form for it.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
