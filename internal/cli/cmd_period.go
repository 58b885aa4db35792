package cli

import (
	"encoding/json"
	"fmt"
	stdlibio "io"
	"slices"
	"strings"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/declare"
	"toolscope/core/jsonv"
	"toolscope/core/termsafe"
)

const (
	periodUsage   = "period [flags] SPELLING VALUE"
	periodSummary = "parse a period value and show the window it denotes"
	periodHelp    = periodSummary + `.

SPELLING is one of:
  lookback          a positive integer and a unit m, h, d, w: 30m, 24h, 7d, 2w
  signed-lookback   the same with a leading minus: -24h
  iso-range         two ISO 8601 instants with a zone (Z or ±hh:mm) joined by
                    '..': 2026-03-01T09:00:00Z..2026-03-02T09:00:00+01:00
  wall-range        two wall times with no zone joined by '..', read in --zone:
                    2026-03-01T09:00..2026-03-01T17:30
A lookback ends at --now. Parsing is a format check: dates must exist
(2026-02-30 and hour 24 are refused), nothing is rounded or rolled over.
A value that does not parse gets a suggestion when one is clear ("7 days"
or "1 hour ago" as a lookback: did you mean "7d", "1h"?); it is advice,
the exit code stays 1.
Windows are shown to the second.

Exit codes: 0 the value parses, 1 it does not, 2 usage error (unknown
spelling, bad --now or --zone).`
)

func init() {
	register(command{name: "period", usage: periodUsage, summary: periodSummary, run: runPeriod})
}

// periodReport is the period command's outcome; the JSON output is this
// struct and the text output renders it.
type periodReport struct {
	Spelling string `json:"spelling"`
	Value    string `json:"value"`
	OK       bool   `json:"ok"`
	// Reason says why the value does not parse.
	Reason string `json:"reason,omitempty"`
	// Suggestion is the nearest value that would parse, for one that does
	// not, when one is clear.
	Suggestion *declare.Suggestion `json:"suggestion,omitempty"`
	Window     *declare.Window     `json:"window,omitempty"`
	// Zone is the zone wall times are read in and the window is shown in.
	Zone string `json:"zone"`
	// Unplaced says why a value that parses denotes no window (a wall time
	// the zone skips at a clock change).
	Unplaced string `json:"unplaced,omitempty"`

	zone *time.Location
}

func runPeriod(args []string, io stdio) int {
	fs := newFlagSet("period")
	zoneName := fs.String("zone", "", "IANA `ZONE` wall times are read in and windows are shown in (default: the local zone)")
	nowText := fs.String("now", "", "the `INSTANT` a lookback ends at, RFC 3339 (default: the current time)")
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	positional, code, ok := parseCommand(fs, periodUsage, periodHelp, signedValuesLast(args, "zone", "now", "format"), io)
	if !ok {
		return code
	}
	if len(positional) != 2 {
		return usageError(io, "period", fmt.Sprintf("want two arguments, SPELLING VALUE; got %d", len(positional)))
	}
	sp := declare.Spelling(positional[0])
	if !sp.Known() {
		_, err := declare.Parse(sp, "") // its error names the spellings there are
		return usageError(io, "period", err.Error())
	}
	if *format != "text" && *format != "json" {
		return usageError(io, "period", fmt.Sprintf("--format %q: want text or json", *format))
	}
	now := time.Now()
	if *nowText != "" {
		t, err := time.Parse(time.RFC3339Nano, *nowText)
		if err != nil {
			return usageError(io, "period", fmt.Sprintf("--now %q: want an RFC 3339 instant like 2026-03-01T09:00:00Z", *nowText))
		}
		now = t
	}
	zone := time.Local
	if *zoneName != "" {
		z, err := declare.LoadZone(*zoneName)
		if err != nil {
			return usageError(io, "period", fmt.Sprintf("--zone %q: %v", *zoneName, err))
		}
		zone = z
	}
	// An iso-range end with no zone is suggested one: the --zone given,
	// else Z, never the machine's own zone unasked.
	hint := zone
	if *zoneName == "" && sp == declare.ISORange {
		hint = nil
	}
	r := parsePeriod(sp, positional[1], now, zone, hint)
	if *format == "json" {
		enc := json.NewEncoder(termsafe.JSON(io.out))
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(io.err, "toolscope period: writing the report: %s\n", oneLine(err))
			return 2
		}
	} else {
		out := &stickyWriter{w: io.out}
		r.writeText(out)
		if out.err != nil {
			fmt.Fprintf(io.err, "toolscope period: writing the report: %s\n", oneLine(out.err))
			return 2
		}
	}
	if !r.OK {
		return 1
	}
	return 0
}

// parsePeriod reads value under sp and places it in time; a value that
// does not parse gets a suggestion, its zones from hint (nil: none known).
func parsePeriod(sp declare.Spelling, value string, now time.Time, zone, hint *time.Location) *periodReport {
	r := &periodReport{Spelling: string(sp), Value: value, Zone: zone.String(), zone: zone}
	p, err := declare.Parse(sp, value)
	if err != nil {
		r.Reason = err.Error()
		if s, ok := declare.Suggest(sp, value, now, hint); ok {
			r.Suggestion = &s
		}
		return r
	}
	r.OK = true
	w, err := p.Window(now, zone)
	if err != nil {
		r.Unplaced = err.Error()
		return r
	}
	r.Window = &w
	return r
}

// writeText renders the report as the arguments drawer shows a period value.
func (r *periodReport) writeText(out stdlibio.Writer) {
	head := termsafe.Line(jsonv.Quote(r.Value)) + " (" + r.Spelling + "): "
	if !r.OK {
		fmt.Fprintln(out, head+termsafe.Line(r.Reason))
		if s := r.Suggestion; s != nil {
			fmt.Fprintln(out, "did you mean "+termsafe.Line(jsonv.Quote(s.Value))+"? "+termsafe.Line(s.Why))
		}
		return
	}
	fmt.Fprintln(out, head+"ok")
	if r.Unplaced != "" {
		fmt.Fprintln(out, "no window: "+termsafe.Line(r.Unplaced))
		return
	}
	covers, inZone := r.Window.Describe(r.zone)
	fmt.Fprintln(out, covers)
	if inZone != "" {
		fmt.Fprintln(out, termsafe.Line(inZone))
	}
}

// signedValuesLast moves arguments like `-24h` (a signed-lookback) behind a
// `--`, where the flag package takes them as positional: no flag name starts
// with a digit. valueFlags name the flags that take the next argument as
// their value; order among positional arguments is kept.
func signedValuesLast(args []string, valueFlags ...string) []string {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i+1:]...)
			i = len(args)
		case a == "-" || len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9':
			positional = append(positional, a)
		case strings.HasPrefix(a, "-"):
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && slices.Contains(valueFlags, name) && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
		default:
			positional = append(positional, a)
		}
	}
	return append(append(flags, "--"), positional...)
}

// declarationsReport is check-args' account of a tool's declarations: how
// the call's ruled and period arguments resolve, or why the declarations
// are refused. It is advice: it never changes the validation verdict.
type declarationsReport struct {
	Refused string `json:"refused,omitempty"`
	*declare.Resolution
}

// resolveDeclarations reads tool's declarations and resolves the call's
// arguments text under them; nil when the tool declares nothing, or when
// the arguments do not parse (validation reports that).
func resolveDeclarations(tool *catalog.Tool, text string, now time.Time, zone *time.Location) *declarationsReport {
	rules, ref := declare.Read(tool)
	switch {
	case ref != nil:
		return &declarationsReport{Refused: ref.Error()}
	case rules == nil:
		return nil
	}
	var args *jsonv.Value
	if t := strings.TrimSpace(text); t != "" {
		var err error
		if args, err = jsonv.Parse([]byte(t)); err != nil {
			return nil
		}
	}
	return &declarationsReport{Resolution: declare.Resolve(rules, args, now, zone)}
}

func (d *declarationsReport) writeText(w stdlibio.Writer) {
	switch {
	case d == nil:
	case d.Refused != "":
		fmt.Fprintln(w, "Declarations refused: "+termsafe.Line(d.Refused))
	default:
		fmt.Fprintln(w, "Declarations:")
		for _, l := range d.Lines() {
			fmt.Fprintln(w, "  "+termsafe.Line(l.Text))
		}
	}
}
