package cli

import (
	"math"
	"testing"

	"toolscope/core/judge"
)

// probe's options are checked as a value, no command line parsed: each
// bad option gets its one line, and the defaults with a model pass.
func TestProbeOptionsCheck(t *testing.T) {
	cases := []struct {
		name string
		edit func(*probeOptions)
		n    int
		want string
	}{
		{"the defaults", func(*probeOptions) {}, 1, ""},
		{"no catalog", func(*probeOptions) {}, 0, "want one CATALOG; got 0 arguments"},
		{"no model", func(o *probeOptions) { o.model = "" }, 1, "--model openai:MODEL is required"},
		{"a format", func(o *probeOptions) { o.format = "sarif" }, 1, `--format "sarif" is not one of text, json, markdown`},
		{"k", func(o *probeOptions) { o.k = 101 }, 1, "--k 101 is outside 1..100"},
		{"concurrency", func(o *probeOptions) { o.concurrency = 0 }, 1, "--model-concurrency 0 is outside 1..64"},
		{"max cost", func(o *probeOptions) { o.maxCost = math.Inf(1) }, 1, "--max-cost +Inf is not a number of dollars, 0 or more"},
		{"tool choice", func(o *probeOptions) { o.choice = "none" }, 1, `--tool-choice "none" is not required or auto`},
		{"repeats", func(o *probeOptions) { o.repeats = judge.MaxRepeats + 1 }, 1, "--repeats 101 is outside 1..100"},
		{"probe file", func(o *probeOptions) { o.probeFile = "p.json" }, 1, "--probe-file names the file --record writes; add --record"},
		{"write without fix", func(o *probeOptions) { o.fix.write = true }, 1, "--write is for --fix; add --fix"},
		{"a bad judge", func(o *probeOptions) { o.fix.fix, o.fix.judge = true, "anthropic:x" }, 1, `--judge "anthropic:x" is not openai:MODEL (e.g. openai:gpt-4.1-mini, or openai:llama3.1 with a local server's URL)`},
		{"fix with a judge and its price", func(o *probeOptions) {
			o.fix.fix, o.fix.judge, o.fix.price, o.fix.write = true, "openai:j", "1,2", true
		}, 1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := &probeOptions{}
			o.declare()
			o.model = "openai:m"
			c.edit(o)
			got := o.check(c.n, c.n == 1)
			if got != c.want {
				t.Errorf("got %q; want %q", got, c.want)
			}
		})
	}
}
