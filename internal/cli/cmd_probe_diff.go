package cli

import (
	"fmt"
	"slices"
	"strings"

	"toolscope/core/judge"
	"toolscope/core/termsafe"
)

const (
	probeDiffUsage = "probe diff [--format text|json|markdown] OLD NEW"
	probeDiffHelp  = `compare two probe records request by request: which requests went right
that went wrong in OLD, which went wrong that went right, and McNemar's
exact p on the two counts (the requests that did not change say nothing of
the difference).

OLD and NEW are probe records (toolscope probe --record). They must be of
the same model, the same requests (--examples), the same repeats, seed and
tool choice; the tools' texts may differ, which is what is compared.
Records that differ otherwise are refused. Nothing is sent.

Exit codes: 0 compared, 2 usage or input error, or records refused.`
)

func runProbeDiff(args []string, io stdio) int {
	o, code, ok := newProbeDiffOptions(args, io)
	if !ok {
		return code
	}
	return o.run()
}

// probeDiffOptions are probe diff's command line: the two records and
// the report's format.
type probeDiffOptions struct {
	io       stdio
	format   string
	old, new string
}

// newProbeDiffOptions parses probe diff's command line. When ok is false
// the command ends with code (help printed, or one line on stderr).
func newProbeDiffOptions(args []string, io stdio) (*probeDiffOptions, int, bool) {
	o := &probeDiffOptions{io: io}
	fs := newFlagSet("probe diff")
	fs.StringVar(&o.format, "format", "text", "output `FORMAT`: "+strings.Join(probeFormats, ", "))
	positional, code, ok := parseCommand(fs, probeDiffUsage, probeDiffHelp, args, io)
	if !ok {
		return nil, code, false
	}
	switch {
	case len(positional) != 2:
		return nil, usageError(io, "probe diff", fmt.Sprintf("want OLD NEW, two probe records; got %d arguments", len(positional))), false
	case !slices.Contains(probeFormats, o.format):
		return nil, usageError(io, "probe diff", fmt.Sprintf("--format %q is not one of %s", o.format, strings.Join(probeFormats, ", "))), false
	}
	o.old, o.new = positional[0], positional[1]
	return o, 0, true
}

// run reads both records, compares them and writes the report.
func (o *probeDiffOptions) run() int {
	var recs [2]*judge.ProbeRecord
	for i, path := range []string{o.old, o.new} {
		r, err := judge.ReadProbeFile(path)
		if err != nil {
			return o.fail(err)
		}
		if r == nil {
			return o.fail(fmt.Errorf("%s: no such file", path))
		}
		if err := r.CheckRepeats(); err != nil {
			return o.fail(fmt.Errorf("%s cannot be compared: %w", path, err))
		}
		recs[i] = r
	}
	d, err := judge.DiffProbes(recs[0], recs[1])
	if err != nil {
		return o.fail(fmt.Errorf("%s and %s cannot be compared: %w", o.old, o.new, err))
	}
	out := &stickyWriter{w: o.io.out}
	switch o.format {
	case "json":
		err = d.WriteJSON(termsafe.JSON(out))
	case "markdown":
		err = safeDiff(d).WriteMarkdown(out)
	default:
		err = safeDiff(d).WriteText(out)
	}
	if err == nil {
		err = out.err
	}
	if err != nil {
		return o.fail(fmt.Errorf("writing the report: %w", err))
	}
	return 0
}

// fail says err on stderr; the command ends with 2.
func (o *probeDiffOptions) fail(err error) int {
	fmt.Fprintf(o.io.err, "toolscope probe diff: %s\n", termsafe.Line(oneLine(err)))
	return 2
}

// safeDiff spells out the control characters in what the records say.
func safeDiff(d judge.ProbeDiff) judge.ProbeDiff {
	d.Model = termsafe.Line(d.Model)
	clean := func(cs []judge.ChangedPick) []judge.ChangedPick {
		out := make([]judge.ChangedPick, len(cs))
		for i, c := range cs {
			out[i] = judge.ChangedPick{Request: termsafe.Line(c.Request), Tool: termsafe.Line(c.Tool), Repeat: c.Repeat, Before: termsafe.Line(c.Before), After: termsafe.Line(c.After)}
		}
		return out
	}
	d.Improved, d.Worsened = clean(d.Improved), clean(d.Worsened)
	return d
}
