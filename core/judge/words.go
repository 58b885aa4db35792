package judge

import "fmt"

// count is "1 request", "2 requests": n with the noun's form for it.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
