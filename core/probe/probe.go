package probe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/termsafe"
	"toolscope/core/tokens"
)

// Request is one probe, everything in it built: nothing is parsed here.
type Request struct {
	Catalog *catalog.Catalog
	// Model is the probed model; Price its price, nil when unknown (the
	// run then asks before sending, unless Yes).
	Model *judge.Model
	Price *judge.Price
	// K is how many requests the model writes for each tool. With
	// Examples the requests are Cases instead, and none is written.
	K        int
	Examples bool
	Cases    []judge.ProbeCase
	// Each request is sent Repeats times (at least once): the first in
	// catalog order, the others in orders shuffled from Seed. Choice is
	// the tool_choice sent (judge.ChoiceRequired or judge.ChoiceAuto).
	Repeats int
	Seed    uint64
	Choice  string
	// The run asks IO.Confirm before sending when the estimate is over
	// MaxCost dollars or unknown, unless Yes.
	MaxCost float64
	Yes     bool
	// Offline is the static similarity check of the catalog, set beside
	// the picks; nil, or nil scores, when similarity is off.
	Offline func(context.Context, *catalog.Catalog) (*judge.OfflineScores, error)
	// Record is the probe record written after the picks, "" for none.
	Record string
	// Fix tries the judge's sentences for the confused pairs; nil for no
	// fix.
	Fix *Fix
	// Now and Zone date the record and check the arguments' periods
	// (default time.Now and time.Local).
	Now  func() time.Time
	Zone *time.Location
	IO   IO
}

// Fix is what the fix loop needs beyond the probe.
type Fix struct {
	// Judge builds the model that proposes the sentences and gives its
	// price (nil when unknown). It is called only when a pair was
	// confused, so a judge that cannot be reached fails only a run that
	// needs it. Nil: the probed model proposes, at its price.
	Judge func() (*judge.Model, *judge.Price, error)
	// Judgments are the recorded sentences, replayed before the judge
	// is asked; nil for none.
	Judgments *judge.Records
	// Write appends the kept sentences to the catalog's descriptions.
	// File is the catalog file it changes, "" when the catalog is not a
	// file (a live server, stdin): the sentences are then printed.
	Write bool
	File  string
}

// IO is how a run talks to the one who started it. Every field may be
// left nil.
type IO struct {
	// Notes gets each line said on the way, whole, as the command line
	// prints it to stderr.
	Notes io.Writer
	// Progress starts a stage's progress line and returns what is told
	// how far it got (nil: no progress line); Clear ends the line.
	Progress func(stage string) func(done, total int)
	Clear    func()
	// Confirm asks whether to go on, and why it asks; nil answers no.
	Confirm func(why string) bool
}

// Result is what a probe found, for the caller to render.
type Result struct {
	// Probe is the picks tabulated, with the offline verdicts and the
	// fixes tried (Fixes nil without a fix, empty with nothing to fix).
	Probe  judge.Probe
	Scores *judge.OfflineScores
	// RecordErr is why the record could not be written: the picks are
	// paid for, so the report is rendered first and this said after.
	RecordErr error
	// FixFailed is set when the fixes or --write failed (said in the
	// notes): the probe is reported without them, and the run fails.
	FixFailed bool
}

// Run is Gate, then Send.
func Run(ctx context.Context, req Request) (Result, error) {
	if err := Gate(req); err != nil {
		return Result{}, err
	}
	return Send(ctx, req)
}

// Gate says the probe's estimate and, when it is over MaxCost or
// unknown, asks before anything is sent (unless Yes); an error means the
// probe is not run. It is a step of its own so that a front end can
// start catching stop signals only once the question is answered.
func Gate(req Request) error {
	req = req.withDefaults()
	tools, _, _ := Tools(req.Catalog)
	return req.gate(tools)
}

// Send sends the probe Gate agreed to and, with Fix, tries the fixes. An
// error means nothing is reported: a request failed, or no request was
// left to send. Once the picks are in, what fails later (the offline
// check, the record, the fixes) is in the Result instead.
func Send(ctx context.Context, req Request) (Result, error) {
	req = req.withDefaults()
	tools, defs, names := Tools(req.Catalog)
	cases, err := req.requests(ctx, tools)
	if err != nil {
		return Result{}, err
	}
	cases = Repeated(cases, req.Repeats)
	used, err := req.Model.PickAll(ctx, cases, defs, judge.PickOptions{Choice: req.Choice, Seed: req.Seed, Progress: req.IO.stage("requests sent:")})
	req.IO.clear()
	if err != nil {
		return Result{}, err
	}
	judge.CheckArguments(cases, req.Catalog, req.Now(), req.Zone)
	res := Result{Probe: judge.Tabulate(req.Model.ID(), names, cases)}
	res.Probe.Usage = used
	res.Probe.ToolChoice, res.Probe.Seed = req.Choice, req.Seed
	res.offline(ctx, req)
	if req.Record != "" {
		res.record(req, tools)
	}
	if req.Fix != nil {
		res.fix(ctx, req)
	}
	return res, nil
}

func (req Request) withDefaults() Request {
	if req.Now == nil {
		req.Now = time.Now
	}
	if req.Zone == nil {
		req.Zone = time.Local
	}
	req.Repeats = max(req.Repeats, 1)
	if req.IO.Notes == nil {
		req.IO.Notes = io.Discard
	}
	return req
}

// Tools is the catalog as the judge reads it, as a request's "tools"
// carries it, and its names.
func Tools(cat *catalog.Catalog) ([]judge.Tool, []json.RawMessage, []string) {
	tools := make([]judge.Tool, len(cat.Tools))
	defs := make([]json.RawMessage, len(cat.Tools))
	names := make([]string, len(cat.Tools))
	for i, t := range cat.Tools {
		tools[i] = judge.FromCatalog(t)
		defs[i] = json.RawMessage(tokens.Definition(t))
		names[i] = t.Name
	}
	return tools, defs, names
}

// gate says the estimate and, when it is over MaxCost or unknown, asks
// before anything is sent.
func (req Request) gate(tools []judge.Tool) error {
	measured := tokens.Measure(req.Catalog, 0, false)
	requests := len(req.Cases)
	if !req.Examples {
		requests = req.K * len(tools)
	}
	requests *= req.Repeats
	est := judge.EstimateProbe(tools, req.K, requests, !req.Examples, measured.Total.O200k, req.Price)
	req.IO.say("%s at %s: %s", req.Model.ID(), req.Model.Endpoint(), est.String("--model-price"))
	if req.Yes || est.Dollars != nil && *est.Dollars <= req.MaxCost {
		return nil
	}
	why := "the price is unknown"
	if est.Dollars != nil {
		why = fmt.Sprintf("the estimate is over --max-cost $%.2f", req.MaxCost)
	}
	if req.IO.confirm(why) {
		return nil
	}
	return fmt.Errorf("not run: %s (pass --yes, or raise --max-cost)", why)
}

// requests are the cases to send: the given ones, or those the model
// writes for each tool (each shortfall noted).
func (req Request) requests(ctx context.Context, tools []judge.Tool) ([]judge.ProbeCase, error) {
	cases := req.Cases
	if !req.Examples {
		written, malformed, err := req.Model.WriteAll(ctx, tools, req.K, req.IO.stage("requests written for"))
		req.IO.clear()
		if err != nil {
			return nil, err
		}
		for i, t := range tools {
			switch {
			case malformed[i] != "":
				req.IO.say("note: %s: no requests written: malformed answer (asked twice): %s", termsafe.Line(t.Name), termsafe.Line(malformed[i]))
			case len(written[i]) < req.K:
				req.IO.say("note: %s: %d of %s kept (the others named the tool)", termsafe.Line(t.Name), len(written[i]), plural(req.K, "request", "requests"))
			}
			cases = append(cases, written[i]...)
		}
	}
	if len(cases) == 0 {
		// Nothing to send: a record of nothing would replace the last one.
		return nil, errors.New("no request to send: every request written named its tool or came back malformed (see the notes above); nothing recorded")
	}
	return cases, nil
}

// Repeated is every case sent n times, numbered 1..n: all of the first
// sending, then all of the second, and so on.
func Repeated(cases []judge.ProbeCase, n int) []judge.ProbeCase {
	out := make([]judge.ProbeCase, 0, len(cases)*n)
	for r := 1; r <= n; r++ {
		for _, c := range cases {
			c.Repeat = r
			out = append(out, c)
		}
	}
	return out
}

// offline sets the offline check beside the picks. The picks are paid
// for: they are reported whatever the check did, its failure noted.
func (res *Result) offline(ctx context.Context, req Request) {
	if req.Offline == nil {
		return
	}
	scores, err := req.Offline(ctx, req.Catalog)
	switch {
	case err != nil:
		res.Probe.OfflineError = oneLine(err)
		req.IO.say("note: no offline verdicts beside the picks: %s", res.Probe.OfflineError)
	case scores != nil:
		res.Scores = scores
		res.Probe = res.Probe.CheckOffline(scores)
	}
}

// record writes the probe record. The picks are paid for: a record that
// cannot be written is said after the report, which is written whatever.
func (res *Result) record(req Request, tools []judge.Tool) {
	p := res.Probe
	if res.RecordErr = judge.NewProbeRecord(p, tools, req.Now()).WriteFile(req.Record); res.RecordErr == nil {
		req.IO.say("recorded %s for %s in %s", plural(len(p.Cases), "request", "requests"), plural(len(p.Matrix), "tool", "tools"), termsafe.Line(req.Record))
	}
}

// say writes one note line, as the command line prints it.
func (o IO) say(format string, args ...any) {
	fmt.Fprintf(o.Notes, "toolscope probe: "+format+"\n", args...)
}

func (o IO) stage(what string) func(done, total int) {
	if o.Progress == nil {
		return nil
	}
	return o.Progress(what)
}

func (o IO) clear() {
	if o.Clear != nil {
		o.Clear()
	}
}

func (o IO) confirm(why string) bool { return o.Confirm != nil && o.Confirm(why) }

// oneLine is an error's text on one line, safe for a terminal.
func oneLine(err error) string {
	return termsafe.Line(strings.Join(strings.Fields(err.Error()), " "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
