package judge

import (
	"time"

	"toolscope/core/catalog"
	"toolscope/core/declare"
	"toolscope/core/jsonv"
	"toolscope/core/validate"
)

// ArgumentIssues is what the dispatch boundary says of a call's arguments
// text for tool, as check-args and the explorer's arguments drawer say
// it: the schema's issues (a text that is not JSON is one), then each
// declared value that does not read (askOrAssume and period rules,
// resolved at now in zone). One line each; none when the boundary accepts
// the call. A tool whose declarations are refused is checked against its
// schema alone: the refusal is the tool's, not the call's.
func ArgumentIssues(tool *catalog.Tool, text string, now time.Time, zone *time.Location) []string {
	out := []string{}
	args, transport := validate.ParseArguments(text)
	res := validate.Result{Issues: transport}
	if transport == nil {
		res = validate.Validate(args, tool.Schema)
	}
	for _, is := range res.Issues {
		out = append(out, IssueLine(is))
	}
	if transport != nil {
		return out
	}
	if rules, refusal := declare.Read(tool); rules != nil && refusal == nil {
		for _, l := range declare.Resolve(rules, args, now, zone).Lines() {
			if l.Tone == declare.ToneBad {
				out = append(out, l.Text)
			}
		}
	}
	return out
}

// IssueLine is one schema issue in a line: "'q' is required but
// missing", "'limit': expected integer, got string".
func IssueLine(is validate.Issue) string {
	path := "the arguments"
	if is.Path != "" {
		path = "'" + is.Path + "'"
	}
	if is.Expected == "required" && is.Got == "missing" {
		return path + " is required but missing"
	}
	got := is.Got
	if is.StringShape() {
		got = jsonv.Quote(is.Value) + " (" + is.Got + ")"
	}
	return path + ": expected " + is.Expected + ", got " + got
}

// CheckArguments fills in every case's ArgumentIssues against the tool
// the model called; a case that called no tool, or a name outside cat,
// has none.
func CheckArguments(cases []ProbeCase, cat *catalog.Catalog, now time.Time, zone *time.Location) {
	for i := range cases {
		cases[i].ArgumentIssues = []string{}
		t, ok := cat.Lookup(cases[i].Picked)
		if !ok || cases[i].Picked == NoPick {
			continue
		}
		cases[i].ArgumentIssues = ArgumentIssues(t, cases[i].ArgumentsText(), now, zone)
	}
	validate.DrainWarnings()
}
