package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"toolscope/core/similarity"
)

// Progress is tested by driving its clock: no test waits.
func TestProgress(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return start.Add(d) }
	for _, tty := range []bool{true, false} {
		var errOut bytes.Buffer
		p := newProgress(stdio{err: &errOut, errTTY: tty}, "toolscope lint", start)
		close(p.done) // no ticker goroutine: the test ticks
		p.Step("loading the catalog")
		p.tick(at(1900 * time.Millisecond))
		if errOut.Len() != 0 {
			t.Errorf("tty %v: a run under 2 s printed %q", tty, errOut.String())
		}
		p.tick(at(2 * time.Second))
		p.Update(similarity.Progress{Stage: similarity.StageScore, Done: 50, Total: 200})
		p.tick(at(3 * time.Second))
		p.tick(at(11 * time.Second))
		p.Update(similarity.Progress{Stage: similarity.StageVerdicts})
		p.tick(at(12500 * time.Millisecond))
		p.tick(at(13 * time.Second))
		p.End()
		got := errOut.String()
		if tty {
			want := "\r\x1b[Ktoolscope lint: loading the catalog · 2s" +
				"\r\x1b[Ktoolscope lint: score 25% (50/200) · 3s" +
				"\r\x1b[Ktoolscope lint: score 25% (50/200) · 11s" +
				"\r\x1b[Ktoolscope lint: verdicts · 12s" +
				"\r\x1b[Ktoolscope lint: verdicts · 13s" +
				"\r\x1b[K"
			if got != want {
				t.Errorf("terminal:\n got %q\nwant %q", got, want)
			}
			continue
		}
		// Not a terminal: plain lines once the analysis runs (loading has
		// none, so an input error stays one line), then one per 10 s.
		want := "toolscope lint: score 25% (50/200) · 3s\ntoolscope lint: verdicts · 13s\n"
		if got != want || strings.Contains(got, "\x1b") {
			t.Errorf("not a terminal:\n got %q\nwant %q", got, want)
		}
	}
}

// While a live source loads, the progress line says servers are starting
// (a stage of the analysis would sit at 0% for as long).
func TestLoadLabel(t *testing.T) {
	cases := []struct {
		config, arg, want string
	}{
		{"/home/u/.cursor/mcp.json", "", "starting the servers of mcp.json"},
		{"", "mcp:npx -y some-server", "starting the server"},
		{"", "https://mcp.example.com/mcp", "reaching the server"},
		{"", "tools.json", "loading the catalog"},
		{"", "-", "loading the catalog"},
	}
	for _, c := range cases {
		l := &liveFlags{config: c.config}
		if got := l.loadLabel(c.arg); got != c.want {
			t.Errorf("config %q, arg %q: %q, want %q", c.config, c.arg, got, c.want)
		}
	}
}
