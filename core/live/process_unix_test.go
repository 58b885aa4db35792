//go:build unix

package live

import (
	"strings"
	"testing"
	"time"
)

// TestExitIsReportedWithItsLastWords: once the server has exited, its
// stderr is read to the end before the exit is reported, even when the
// last words arrive after the exit (here from a child that inherited the
// pipe); a pipe held open for ever is waited for a bounded time only.
func TestExitIsReportedWithItsLastWords(t *testing.T) {
	cases := []struct {
		name, script string
		want         string
		most         time.Duration
	}{
		{"words after the exit", "(sleep 0.3; echo last words >&2) & exit 3", "last words", 2 * time.Second},
		{"a pipe held open", "echo first >&2; sleep 30 & exit 3", "first", stderrDrain + time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := startProcess([]string{"sh", "-c", c.script}, nil, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			defer p.close()
			start := time.Now()
			st, ok := p.awaitExit(5 * time.Second)
			took := time.Since(start)
			got, _ := p.stderr.text()
			if !ok || st != "exit status 3" || !strings.Contains(got, c.want) {
				t.Errorf("awaitExit = %q, %v with stderr %q; want exit status 3 with %q", st, ok, got, c.want)
			}
			if took > c.most {
				t.Errorf("awaitExit took %v, want at most %v", took, c.most)
			}
		})
	}
}
