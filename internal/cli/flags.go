package cli

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	stdlibio "io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"toolscope/core/config"
	"toolscope/core/lint"
	"toolscope/core/pipeline"
	"toolscope/core/safefile"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
	"toolscope/embed"
	"toolscope/embed/cache"
	"toolscope/embed/openai"
	_ "toolscope/embed/use" // registers the built-in encoder as "use"
)

// The flags shared by the explorer and `lint` (SPEC §7), parsed into lint
// options and an embedder spec.

// defaultEmbedder is the built-in sentence encoder.
const defaultEmbedder = "use"

func init() {
	embed.Register("openai", func(model string, o embed.Options) (embed.Embedder, error) {
		return openai.New(openai.Options{Model: model, BaseURL: o.URL, BaseURLFrom: o.URLFrom})
	})
}

// catalogFlags are the shared flags' values.
type catalogFlags struct {
	embedder string
	embedURL string
	// embedURLFrom is the config's "path:line" when the config chose
	// embedURL, "" when the command line did.
	embedURLFrom string
	noCache      bool
	scoring      string
	threshold    optionalFloat
	watchBand    optionalFloat
	strict       bool
	// review makes review pairs fail the gate (lint's --fail-on review).
	review       bool
	noSimilarity bool
	rankLimit    int
	disable      listFlag
	// ruleSet is --rule-set, "" when not given (the config's, else
	// recommended).
	ruleSet string
	format  string
	formats []string
	// outputs are --format FORMAT=FILE reports, written beside the one on
	// stdout (format); formatGiven says --format named a stdout format.
	outputs     []formatOutput
	formatGiven bool
	// opened keeps the embedders opened so far by spec, shared by the
	// copies a run of several catalogs makes.
	opened map[string]embed.Embedder
	live   *liveFlags
	// neighbours is how many nearest neighbours per tool a report keeps
	// (0 for none: only a judge needs them).
	neighbours int
	// measureTokens counts every tool's tokens into the report (lint's
	// JSON output shows them).
	measureTokens bool
	// textOnly says every report of the run is text, which details only
	// the pairs it shows.
	textOnly bool
	// config is the project config in force, nil for none.
	config *config.Config
}

// optionalFloat is a number flag that remembers whether it was given;
// "off" means +Inf (report-only) where allowOff.
type optionalFloat struct {
	v        *float64
	allowOff bool
	// from names the config file the value came from ("" for the flag).
	from string
}

// name is how an error names where the value came from: the flag, or
// the config's file, line and column.
func (o *optionalFloat) name(flag string) string {
	if o.from != "" {
		return fmt.Sprintf("%s: %s %s", o.from, strings.TrimPrefix(flag, "--"), o.String())
	}
	return flag + " " + o.String()
}

func (o *optionalFloat) String() string {
	if o.v == nil {
		return ""
	}
	if math.IsInf(*o.v, 1) {
		return "off"
	}
	return strconv.FormatFloat(*o.v, 'g', -1, 64)
}

func (o *optionalFloat) Set(s string) error {
	if o.allowOff && s == "off" {
		inf := math.Inf(1)
		o.v = &inf
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return errors.New("want a number")
	}
	o.v = &f
	return nil
}

// listFlag gathers comma-separated values over repeated flags.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

// newCatalogFlags declares the shared flags on fs; formats lists what
// --format accepts, the first being the default (nil: no --format flag).
func newCatalogFlags(fs *flag.FlagSet, formats []string) *catalogFlags {
	return declareCatalogFlags(fs, formats, true)
}

// newPairFlags declares the shared flags a command needs that compares
// only pairs (diff): without --strict, --disable and --rank-limit, which
// would change nothing there.
func newPairFlags(fs *flag.FlagSet, formats []string) *catalogFlags {
	return declareCatalogFlags(fs, formats, false)
}

func declareCatalogFlags(fs *flag.FlagSet, formats []string, structural bool) *catalogFlags {
	f := &catalogFlags{opened: map[string]embed.Embedder{}, formats: formats, threshold: optionalFloat{allowOff: true}, rankLimit: similarity.DefaultRankLimit}
	fs.StringVar(&f.embedder, "embedder", defaultEmbedder, "`NAME` of the embedder for similarity: use (built-in), mock, or openai:MODEL")
	fs.StringVar(&f.embedURL, "embed-url", "", "`URL` of an OpenAI-compatible endpoint (default $TOOLSCOPE_EMBED_URL, $OPENAI_BASE_URL, then OpenAI)")
	fs.BoolVar(&f.noCache, "no-cache", false, "do not read or write the vector cache")
	fs.StringVar(&f.scoring, "scoring", string(similarity.ScoringRisk), "`SCORING` of pairs: risk, adaptive or cosine")
	fs.Var(&f.threshold, "threshold", "confusability threshold `N` (default: the embedder's calibration); off = report-only")
	fs.Var(&f.watchBand, "review-band", "review band `N`: a pair within N below the threshold is on the review list, advisory (default: the embedder's calibration; --watch-band is the old spelling)")
	fs.Var(&f.watchBand, "watch-band", aliasOf("review-band"))
	if structural {
		fs.BoolVar(&f.strict, "strict", false, "warnings and review pairs fail the gate too")
		fs.BoolVar(&f.noSimilarity, "no-similarity", false, "skip similarity: structural rules only")
		fs.IntVar(&f.rankLimit, "rank-limit", similarity.DefaultRankLimit, "`N` ranked pairs kept (-1: no limit; 0 says the same)")
		fs.Var(&f.disable, "disable", "`RULE,...` ids to switch off (see 'toolscope rules')")
		fs.StringVar(&f.ruleSet, "rule-set", "", "`SET` of rules: recommended (default), reference (the seed's pack) or all")
	} else {
		fs.BoolVar(&f.noSimilarity, "no-similarity", false, "skip similarity: no embedder runs")
	}
	if len(formats) > 0 {
		f.format = formats[0]
		fs.Var((*formatFlag)(f), "format", "output `FORMAT`: "+strings.Join(formats, ", ")+"; FORMAT=FILE writes it to FILE, and --format may be repeated")
	}
	f.live = addLiveFlags(fs)
	return f
}

// formatOutput is a report written to a file: --format FORMAT=FILE.
type formatOutput struct {
	format, path string
}

// formatFlag is --format: FORMAT sets the report on stdout (once),
// FORMAT=FILE adds a report written to FILE.
type formatFlag catalogFlags

func (f *formatFlag) String() string {
	if f == nil {
		return ""
	}
	return f.format
}

func (f *formatFlag) Set(s string) error {
	if name, file, ok := strings.Cut(s, "="); ok {
		if file == "" || name == "" {
			return errors.New("want FORMAT or FORMAT=FILE")
		}
		f.outputs = append(f.outputs, formatOutput{format: name, path: file})
		return nil
	}
	if f.formatGiven && s != f.format {
		return fmt.Errorf("stdout already has --format %s; write the other to a file with %s=FILE", f.format, s)
	}
	f.format, f.formatGiven = s, true
	return nil
}

// check validates the values flag parsing cannot.
func (f *catalogFlags) check() error {
	if !slices.Contains(similarity.Scorings, similarity.Scoring(f.scoring)) {
		return fmt.Errorf("--scoring %q: want risk, adaptive or cosine", f.scoring)
	}
	if f.watchBand.v != nil && *f.watchBand.v < 0 {
		return fmt.Errorf("%s: want zero or more", f.watchBand.name("--review-band"))
	}
	if t := f.threshold.v; t != nil && !math.IsInf(*t, 1) {
		// A risk is a chance and a cosine a cosine: a threshold outside
		// their range would flag all or nothing without saying so.
		lo, hi, what := 0.0, 1.0, "a risk runs from 0 to 1"
		if similarity.Scoring(f.scoring) == similarity.ScoringCosine {
			lo, what = -1, "a cosine runs from -1 to 1"
		}
		if similarity.Scoring(f.scoring) != similarity.ScoringAdaptive && (*t < lo || *t > hi) {
			return fmt.Errorf("%s: %s (or off, for report-only)", f.threshold.name("--threshold"), what)
		}
	}
	if err := f.live.check(); err != nil {
		return err
	}
	if f.rankLimit == -1 {
		f.rankLimit = 0 // no limit, as -1 says it for every flag
	}
	if f.rankLimit < 0 {
		return fmt.Errorf("--rank-limit %d: want 0 or more (-1: no limit)", f.rankLimit)
	}
	if len(f.formats) > 0 {
		if !slices.Contains(f.formats, f.format) {
			return fmt.Errorf("--format %q: want one of %s", f.format, strings.Join(f.formats, ", "))
		}
		for _, o := range f.outputs {
			if !slices.Contains(f.formats, o.format) {
				return fmt.Errorf("--format %s=%s: want one of %s", o.format, o.path, strings.Join(f.formats, ", "))
			}
		}
	}
	if f.ruleSet != "" {
		if _, err := lint.ParseRuleSet(f.ruleSet); err != nil {
			return fmt.Errorf("--rule-set %w", err)
		}
	}
	ids := lint.RuleIDs()
	for _, d := range f.disable {
		if !slices.Contains(ids, d) {
			return fmt.Errorf("--disable %s: no such rule (rules: %s)", d, strings.Join(ids, ", "))
		}
	}
	return nil
}

// options are the lint options the flags ask for, without the embedder
// (see embedderSpec and openEmbedder).
func (f *catalogFlags) options() lint.Options {
	o := lint.DefaultOptions()
	o.Scoring = similarity.Scoring(f.scoring)
	o.Threshold, o.WatchBand = f.threshold.v, f.watchBand.v
	if f.strict {
		o.FailOn = lint.SeverityWarn
	}
	o.Review = f.strict || f.review
	o.RankLimit = f.rankLimit
	o.Disabled = append([]string(nil), f.disable...)
	set := lint.RuleSetRecommended
	if f.config != nil && f.config.RuleSet != "" {
		set = f.config.RuleSet
	}
	if f.ruleSet != "" {
		set, _ = lint.ParseRuleSet(f.ruleSet)
	}
	o.Set, o.Rules = set, lint.RulesOf(set)
	if f.config != nil {
		f.config.Tune(&o)
	}
	return o
}

// embedderSpec is the embedder asked for, "" when similarity is off.
func (f *catalogFlags) embedderSpec() string {
	if f.noSimilarity {
		return ""
	}
	return f.embedder
}

// openEmbedder opens an embedder by spec, behind the vector cache unless
// --no-cache (the mock needs none: it is cheaper than a cache lookup).
func (f *catalogFlags) openEmbedder(spec string) (embed.Embedder, error) {
	key := spec + " " + f.embedURL
	if e, ok := f.opened[key]; ok {
		return e, nil
	}
	e, err := f.openEmbedderOnce(spec)
	if err == nil && f.opened != nil {
		f.opened[key] = e
	}
	return e, err
}

func (f *catalogFlags) openEmbedderOnce(spec string) (embed.Embedder, error) {
	e, err := embed.Open(spec, embed.Options{URL: f.embedURL, URLFrom: f.embedURLFrom})
	if err != nil {
		if f.config != nil && f.config.Similarity.Embedder == spec {
			return nil, f.config.EmbedderError(err)
		}
		return nil, err
	}
	if _, isMock := e.(embed.Mock); isMock {
		return e, nil
	}
	return cache.Wrap(e, cache.Options{Disabled: f.noCache}), nil
}

// parseFlags parses args with fs, letting flags and positional arguments
// mix ("lint cat.json --format json"); "--" ends the flags. It returns the
// positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagSuggestion(fs, doubleDash(err))
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		// flag stops at the first non-flag, or after "--": tell them apart
		// by what was consumed.
		if consumed := args[:len(args)-len(rest)]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// doubleDash writes the flag package's messages ("invalid value ... for
// flag -threshold", "flag provided but not defined: -x") with the two
// dashes the help shows.
func doubleDash(err error) error {
	msg := err.Error()
	for _, prefix := range []string{"for flag -", "not defined: -", "needs an argument: -"} {
		if i := strings.Index(msg, prefix); i >= 0 && !strings.HasPrefix(msg[i+len(prefix):], "-") {
			msg = msg[:i+len(prefix)] + "-" + msg[i+len(prefix):]
		}
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

// newFlagSet makes a quiet flag set: parseCommand reports its errors and
// prints its help.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stdlibio.Discard)
	fs.Usage = func() {}
	return fs
}

// parseCommand parses a command's args. On --help it prints the usage to
// stdout and returns code 0; on a bad flag, one line to stderr and code 2;
// ok is true when the command should go on with the positional arguments.
func parseCommand(fs *flag.FlagSet, usage, summary string, args []string, io stdio) (positional []string, code int, ok bool) {
	positional, err := parseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(io.out, usage, summary, fs)
		return nil, 0, false
	case err != nil:
		return nil, usageError(io, fs.Name(), oneLine(err)), false
	}
	return positional, 0, true
}

// printHelp is every command's --help: the usage line (the command and
// its arguments, as in usage), the summary with any further paragraphs,
// and the flags as users type them.
func printHelp(w stdlibio.Writer, usage, summary string, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: toolscope %s\n\n%s\n\nFlags:\n", usage, summary)
	printFlags(w, fs)
}

// checkWrites refuses a run whose files to write collide, before it
// sends or starts anything: two outputs (each named as its flag is,
// "--format json=r.json", "--record r.json") on one file, where the last
// would silently replace the others, or an output on a file the run reads
// (its catalog, config, server list, examples, judgments, probe record),
// which it would destroy. inputs are the run's files, each with what it
// is ("the catalog"). A write may replace the one input it exists to
// rewrite (rewrites: --write-baseline the baseline, probe's --write the
// catalog), never another. Files are compared by identity
// (safefile.SameFile): through symlinks and hard links, and by resolved
// path when one does not exist yet. What a write would refuse after the
// work (a symlink or a device at the path, no directory for it) is
// refused here, before it; a report may go to a sink (isSink), which
// takes any number of them.
func checkWrites(writes, inputs [][2]string) error {
	for i, w := range writes {
		if canSink(w[0]) && isSink(w[1]) {
			// A sink takes any number of writes and destroys nothing.
			continue
		}
		for _, v := range writes[:i] {
			if canSink(v[0]) && isSink(v[1]) {
				continue
			}
			if safefile.SameFile(w[1], v[1]) {
				return fmt.Errorf("%s and %s write the same file", v[0], w[0])
			}
		}
		for _, in := range inputs {
			if rewrites[flagOf(w[0])] == in[0] {
				continue
			}
			if pipeline.IsFileArg(in[1]) && safefile.SameFile(w[1], in[1]) {
				return fmt.Errorf("%s would overwrite %s %s", w[0], in[0], in[1])
			}
		}
		if preflighted(w[0]) {
			if err := writable(w[1]); err != nil {
				return fmt.Errorf("%s: %w", w[0], err)
			}
		}
	}
	return nil
}

// preflighted says whether checkWrites refuses the write named, as the
// write itself would, before the run: a report, a snapshot and a
// baseline are (the other writes are checked where they are made).
func preflighted(name string) bool {
	return canSink(name) || strings.HasPrefix(name, "--write-baseline ")
}

// canSink says whether the write named (as checkWrites names them) may go
// to a sink: a report (--format FORMAT=FILE) or a snapshot (-o FILE) may,
// a baseline, which is read back, may not.
func canSink(name string) bool {
	return strings.HasPrefix(name, "--format ") || strings.HasPrefix(name, "-o ")
}

// isSink says whether path is a character device named as itself, not
// through a symlink: /dev/null, a terminal. A report written there is
// written as a stream, never replaced.
func isSink(path string) bool {
	st, err := os.Lstat(path)
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// writable refuses, before any work, a file that a write would refuse
// after it: anything but a regular file at path, or no directory for it.
func writable(path string) error {
	if err := safefile.Check(path); err != nil {
		if se, ok := err.(*safefile.Error); ok {
			return se.Err
		}
		return err
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("no directory %s to write it in", dir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// writeReportFile writes a report or a snapshot: to a sink as a stream (isSink),
// else replacing the file whole (safefile.Write).
func writeReportFile(path string, data []byte) error {
	if !isSink(path) {
		return safefile.Write(path, data)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rewrites is, by flag, the input a write exists to replace.
var rewrites = map[string]string{"--write-baseline": "the baseline", "--write": "the catalog", "--judge-record": "the judgments file"}

// flagOf is the flag that names a write ("--format" of "--format json=r.json").
func flagOf(what string) string {
	if i := strings.IndexByte(what, ' '); i >= 0 {
		return what[:i]
	}
	return what
}

// formatWrites names the files --format FORMAT=FILE writes, for checkWrites.
func formatWrites(outputs []formatOutput) [][2]string {
	var out [][2]string
	for _, o := range outputs {
		out = append(out, [2]string{"--format " + o.format + "=" + o.path, o.path})
	}
	return out
}

// errEmptyCatalog refuses a CATALOG given as an empty argument, which an
// unset variable in a script makes ("$CATALOG"): left alone, the loader
// would take it for no argument and read the bundled demo.
const errEmptyCatalog = "an empty CATALOG argument (an unset variable?): name a catalog file"

// usageError reports a usage mistake in one line and returns exit code 2.
func usageError(io stdio, name, msg string) int {
	fmt.Fprintf(io.err, "toolscope %s: %s (see 'toolscope %s --help')\n", name, termsafe.Line(msg), name)
	return 2
}

// printFlags lists a flag set's flags as users type them (--name VALUE).
func printFlags(w stdlibio.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if strings.HasPrefix(f.Usage, aliasPrefix) {
			// An old spelling: its new one's line says it.
			return
		}
		name, help := flag.UnquoteUsage(f)
		// A usage with no `NAME` gets the flag package's type word;
		// the help names every value in capitals (N, FILE).
		switch name {
		case "int", "uint", "uint64", "int64", "float":
			name = "N"
		case "string":
			name = "VALUE"
		case "duration":
			name = "DURATION"
		}
		line := "  --" + f.Name
		if len(f.Name) == 1 {
			line = "  -" + f.Name // -o, as it is written
		}
		if name != "" {
			line += " " + name
		}
		if f.DefValue != "" && f.DefValue != "false" {
			help += " (default " + f.DefValue + ")"
		}
		fmt.Fprintf(w, "%-26s %s\n", line, help)
	})
}

// configFlags choose the project config (docs/config.md).
type configFlags struct {
	path string
	none bool
}

func addConfigFlags(fs *flag.FlagSet) *configFlags {
	c := &configFlags{}
	fs.StringVar(&c.path, "config", "", "project config `FILE` (default: toolscope.yaml in the catalog's directory or above)")
	fs.BoolVar(&c.none, "no-config", false, "read no project config")
	return c
}

// load reads the config the flags name, or the toolscope.yaml found from
// the catalog's directory upward (the working directory's for stdin and
// live sources); nil when there is none.
func (c *configFlags) load(catalogArg string) (*config.Config, error) {
	if c.none {
		return nil, nil
	}
	if c.path != "" {
		return config.Load(c.path)
	}
	found, err := config.Find(catalogDir(catalogArg))
	if err != nil || found == "" {
		return nil, err
	}
	return config.Load(found)
}

// catalogDir is the directory of a catalog file argument; the working
// directory for stdin, the demo and live sources.
func catalogDir(catalogArg string) string {
	if catalogArg != "" && catalogArg != "-" && !strings.HasPrefix(catalogArg, "mcp:") && !strings.Contains(catalogArg, "://") {
		return filepath.Dir(catalogArg)
	}
	return "."
}

// useConfig takes the config's settings where no flag was given: flags
// win over the config, the config over the defaults.
func (f *catalogFlags) useConfig(c *config.Config, fs *flag.FlagSet) {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	s := c.Similarity
	if s.Embedder != "" && !set["embedder"] && !set["no-similarity"] {
		if s.Embedder == "none" {
			f.noSimilarity = true
		} else {
			f.embedder = s.Embedder
		}
	}
	if s.EmbedURL != "" && !set["embed-url"] {
		f.embedURL, f.embedURLFrom = s.EmbedURL, fmt.Sprintf("%s:%d", c.Path, s.EmbedURLLine)
	}
	if s.Scoring != "" && !set["scoring"] {
		f.scoring = string(s.Scoring)
	}
	if s.Threshold != nil && !set["threshold"] {
		f.threshold.v, f.threshold.from = s.Threshold, cmp.Or(s.ThresholdAt, c.Path)
	}
	if s.WatchBand != nil && !set["review-band"] && !set["watch-band"] {
		f.watchBand.v, f.watchBand.from = s.WatchBand, cmp.Or(s.WatchBandAt, c.Path)
	}
	if s.RankLimit != nil && !set["rank-limit"] {
		f.rankLimit = *s.RankLimit
	}
	if c.Strict && !set["strict"] {
		f.strict = true
	}
	f.config = c
}

// aliasPrefix starts the usage of a flag kept as an old spelling of
// another; help lists only the new one.
const aliasPrefix = "old spelling of --"

// aliasOf is the usage of a flag kept as an old spelling of name.
func aliasOf(name string) string { return aliasPrefix + name }
