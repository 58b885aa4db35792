package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	stdlibio "io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/live"
	"toolscope/core/pipeline"
	"toolscope/core/termsafe"
	"toolscope/embed"
	"toolscope/tui"
)

const (
	exploreUsage   = "[flags] [CATALOG...]"
	exploreSummary = "Explore a tool catalog in the terminal (the bundled demo when CATALOG is left out; several\n" +
		"CATALOGs are merged as lint --merge merges them, as a host given all of them sees them);\n" +
		"when stdout is not a terminal, print the lint text report instead (exit 0 ok, 1 failed, 2 usage or input error)."
)

func init() { explore = runExplore }

func runExplore(args []string, io stdio) int {
	x, code, ok := parseExplore(args, io)
	if !ok {
		return code
	}
	arg, kind, f := x.arg, x.kind, x.flags
	if !io.outTTY || kind != sourceLive {
		cat, err := x.load(io)
		if err != nil {
			fmt.Fprintf(io.err, "toolscope: %s\n", oneLine(err))
			return 2
		}
		if !io.outTTY {
			code := printReport(cat, f, x.replayOnly(), arg, io)
			if kind == sourceDemo && code == 1 {
				// The demo fails its gate on purpose: it is there to be
				// looked at, and `go run .` must not read as broken.
				// lint, on the same file, gives the gate's exit code.
				fmt.Fprintln(io.err, "toolscope: the demo fails its gate on purpose (exit 0 here); `toolscope lint CATALOG` gives the gate's exit code")
				return 0
			}
			return code
		}
		return runExplorer(x.options(cat, io), kind == sourceStdin, io)
	}
	// A live source stays open while the explorer runs: r lists it again,
	// and its list_changed notifications do so by themselves. It is
	// reached behind a start screen that shows how far it got.
	// A stop signal while the servers are being closed must not kill
	// toolscope before they are reaped: keep one handler until the end.
	_, keep := signalContext(context.Background())
	defer keep()
	ls := &liveStart{}
	o := x.options(nil, io)
	o.Origin = "live " + liveName(arg, f)
	o.Start = ls.start(arg, f)
	code = runExplorer(o, false, io)
	src, err := ls.wait()
	if src != nil {
		defer src.Close()
		// Left on the terminal when the explorer's screen goes away.
		showNotes(io.err, src)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(io.err, "toolscope: %s\n", oneLine(err))
		return 2
	}
	return code
}

// isFolderOrGlob reports whether a CATALOG argument names a folder or a
// glob pattern: catalogs to find and merge.
func isFolderOrGlob(arg string) bool {
	if !pipeline.IsFileArg(arg) {
		return false
	}
	if st, err := os.Stat(arg); err == nil {
		return st.IsDir() // a file named tools[1].json is that file
	}
	return pipeline.HasGlobMeta(arg)
}

// load reads the catalog, or the catalogs merged.
func (x *exploreCommand) load(io stdio) (*catalog.Catalog, error) {
	if x.kind == sourceMerged {
		return pipeline.Merge(x.merge, func(arg string) (*catalog.Catalog, error) { return x.flags.live.load(arg, io) })
	}
	return x.flags.live.load(x.arg, io)
}

// exploreCommand is the explorer's command line, resolved: the CATALOG
// argument, what it names, and the flags with the project config taken in.
type exploreCommand struct {
	arg string
	// merge are the catalogs of a merged explorer (sourceMerged).
	merge []string
	kind  sourceKind
	flags *catalogFlags
	cfg   *configFlags
	judge *judgeFlags
	// probe is the recorded probe the Pairs pane shows, nil for none.
	probe *judge.ProbeRecord
}

// parseExplore parses the explorer's command line and reads the project
// config as lint does. When ok is false the command ends with code (help
// printed, or one line on stderr).
func parseExplore(args []string, io stdio) (*exploreCommand, int, bool) {
	fs := newFlagSet("toolscope")
	x := &exploreCommand{flags: newCatalogFlags(fs, nil)}
	x.cfg = addConfigFlags(fs)
	x.judge = addExplorerJudgeFlags(fs)
	x.judge.noCache = &x.flags.noCache
	probeFile := fs.String("probe-file", "", "the probe record `FILE` (toolscope probe --record) whose measured rates the Pairs pane shows beside the risk (default: "+judge.ProbeFileName+" beside toolscope.yaml, else in the catalog's directory)")
	// parseCommand would name a subcommand in its messages; the bare
	// command has none.
	positional, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		printHelp(io.out, exploreUsage, exploreSummary+"\n\n"+similarityHelp, fs)
		return nil, 0, false
	}
	if err != nil {
		return nil, exploreUsageError(io, oneLine(err)), false
	}
	if code, ok := x.resolve(positional, io); !ok {
		return nil, code, false
	}
	cfg, code, ok := x.configure(fs, io)
	if !ok {
		return nil, code, false
	}
	if !x.readProbe(*probeFile, cfg, io) {
		return nil, 2, false
	}
	return x, 0, true
}

// resolve sets what the positional arguments name: no CATALOG is the
// demo; several (a folder, a glob) are one merged catalog, as a host
// given all of them sees them (lint --merge).
func (x *exploreCommand) resolve(positional []string, io stdio) (int, bool) {
	l := x.flags.live
	arg, rest, _ := l.catalogArgs(positional)
	if len(rest) > 0 || l.config == "" && isFolderOrGlob(arg) {
		if l.config != "" {
			return exploreUsageError(io, fmt.Sprintf("--mcp-config replaces CATALOG; drop %s or the flag", strings.Join(positional, " "))), false
		}
		if slices.Contains(positional, "-") {
			return exploreUsageError(io, "stdin (-) is one catalog: give the catalogs to merge as files"), false
		}
		targets, err := expandCatalogs(positional)
		if err != nil {
			fmt.Fprintf(io.err, "toolscope: %s\n", oneLine(err))
			return 2, false
		}
		arg = targets[0].arg
		if len(targets) > 1 {
			arg = ""
			for _, t := range targets {
				x.merge = append(x.merge, t.arg)
			}
		}
	}
	x.arg, x.kind = arg, resolveSource(arg, x.flags)
	if x.merge != nil {
		x.kind = sourceMerged
	}
	return 0, true
}

// configure reads the project config into the flags, checks them and
// opens the judge's files.
func (x *exploreCommand) configure(fs *flag.FlagSet, io stdio) (*config.Config, int, bool) {
	if x.kind == sourceDemo && x.cfg.path == "" {
		// The demo is no project's catalog: only --config steers it.
		x.cfg.none = true
	}
	cfg, err := x.cfg.load(x.arg)
	if err != nil {
		fmt.Fprintf(io.err, "toolscope: %s\n", oneLine(err))
		return nil, 2, false
	}
	if cfg != nil {
		x.flags.useConfig(cfg, fs)
	}
	if err := x.flags.check(); err != nil {
		return nil, exploreUsageError(io, err.Error()), false
	}
	if err := x.judge.check(); err != nil {
		return nil, exploreUsageError(io, err.Error()), false
	}
	if err := x.judge.open(); err != nil {
		fmt.Fprintf(io.err, "toolscope: %s\n", oneLine(err))
		return nil, 2, false
	}
	return cfg, 0, true
}

// readProbe reads the probe record the Pairs pane shows: --probe-file
// (which must exist), else the one found beside the config or the
// catalog; none for the demo unless named. False when it cannot be read,
// the line said.
func (x *exploreCommand) readProbe(probeFile string, cfg *config.Config, io stdio) bool {
	if x.kind == sourceDemo && probeFile == "" {
		return true
	}
	cfgPath := ""
	if cfg != nil {
		cfgPath = cfg.Path
	}
	path := projectFile(probeFile, judge.ProbeFileName, cfgPath, x.arg)
	read := judge.ReadFoundProbeFile
	if probeFile != "" {
		read = judge.ReadProbeFile
	}
	var err error
	if x.probe, err = read(path); err != nil {
		fmt.Fprintf(io.err, "toolscope: %s\n", oneLine(err))
		return false
	}
	if x.probe == nil && probeFile != "" {
		fmt.Fprintf(io.err, "toolscope: --probe-file %s: no such file\n", termsafe.Line(path))
		return false
	}
	return true
}

// options are the explorer's options for the command (cat is nil for a
// live source, reached behind the start screen).
func (x *exploreCommand) options(cat *catalog.Catalog, io stdio) tui.Options {
	o := exploreOptions(x.arg, x.kind, cat, x.flags, io)
	if x.kind == sourceMerged {
		// r merges them again; no one file is watched.
		o.Reload = func(context.Context) (*catalog.Catalog, error) { return x.load(io) }
	}
	o.ConfigPath = newConfigPath(x.arg, x.kind, x.cfg)
	o.Probe = x.probe
	if export := o.Export; export != nil {
		// The page draws the probe's matrix beside the pairs.
		o.Export = func(w stdlibio.Writer, format string, r *lint.Report, cat *catalog.Catalog) error {
			if format == "html" {
				return writePage(w, format, r, cat, x.flags, x.probe)
			}
			return export(w, format, r, cat)
		}
	}
	if x.judge != nil {
		o.Judge, o.JudgeCost, o.JudgeCostAll = x.judge.explorer()
		o.Fix, o.FixCost = x.judge.fixer(x.probe, x.flags.config, x.arg)
		// One read of the judgments file, shared: an accept's judgment is
		// then in what the lookups and the replay read.
		file := x.judge.records(x.flags.config, x.arg)
		o.Recorded = x.judge.recordedIn(file)
		o.Replay = x.judge.replayerOf(x.judge.path(x.flags.config, x.arg), file)
		o.SourceFindings = withFindings(o.SourceFindings, x.judge.reviewFindings(file))
		if o.ConfigPath != "" {
			o.RecordAccept = x.judge.accepter(file)
		}
		if o.Replay != nil {
			// The replay asks lint's questions: each tool's nearest
			// candidates from as deep a neighbour list as lint keeps.
			o.Lint.Neighbours = max(o.Lint.Neighbours, judgeNeighbours)
		}
	}
	return o
}

// replayOnly is the explorer's judge flags for its report off a terminal:
// the recorded judgments replay, and no model is asked (J asks, on a
// terminal); nil when the explorer has no judge flags.
func (x *exploreCommand) replayOnly() *judgeFlags {
	if x.judge == nil {
		return nil
	}
	j := *x.judge
	j.spec, j.url = "", ""
	return &j
}

// liveStart reaches a live source for the explorer's start screen and
// keeps it, so the caller closes it (and reaps its servers) whatever way
// the explorer ended.
type liveStart struct {
	mu      sync.Mutex
	entered bool
	done    chan struct{}
	src     *live.Source
	err     error
}

func (ls *liveStart) start(arg string, f *catalogFlags) tui.StartFunc {
	return func(ctx context.Context, stage func(string)) (*tui.Started, error) {
		ls.mu.Lock()
		ls.entered, ls.done = true, make(chan struct{})
		done := ls.done
		ls.mu.Unlock()
		defer close(done)
		// A signal cuts a slow server short, and says so in the error.
		ctx, stop := signalContext(ctx)
		defer stop()
		stage("starting the server")
		src, err := f.live.open(ctx, arg)
		if err == nil {
			stage("listing the tools")
		}
		var cat *catalog.Catalog
		if err == nil {
			if cat, err = src.List(ctx); err != nil {
				src.Close()
				src = nil
			}
		}
		ls.mu.Lock()
		if ls.src != nil {
			// A retry after a failure: the old source is gone already.
			ls.src.Close()
		}
		ls.src, ls.err = src, err
		ls.mu.Unlock()
		if err != nil {
			return nil, err
		}
		started := &tui.Started{Catalog: cat, Reload: src.List, Changes: src.Changes(), Origin: "live " + src.String(), Call: src.Call}
		if cfg := f.live.loaded; cfg != nil {
			disabled := f.options().Disabled
			started.SourceFindings = func(cat *catalog.Catalog) []lint.Finding {
				// The file parsed when the servers started, so it parses
				// here: no error to show.
				found, _ := configFindings(cat, cfg, disabled)
				return found
			}
		}
		return started, nil
	}
}

// wait waits for a start still running (the explorer was closed under it)
// and returns the source reached, or why not.
func (ls *liveStart) wait() (*live.Source, error) {
	ls.mu.Lock()
	entered, done := ls.entered, ls.done
	ls.mu.Unlock()
	if !entered {
		return nil, nil
	}
	<-done
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.src, ls.err
}

// liveName names a live source before it is reached: the --mcp-config
// file, or the CATALOG argument.
func liveName(arg string, f *catalogFlags) string {
	if f.live.config != "" {
		return f.live.config
	}
	return arg
}

// sourceKind is what a CATALOG argument names, resolved once: the
// explorer's reloading, watching, export directory and key input follow
// from it.
type sourceKind int

const (
	sourceDemo   sourceKind = iota // no CATALOG: the bundled demo
	sourceStdin                    // "-"
	sourceFile                     // a catalog file
	sourceLive                     // an MCP server or the --mcp-config servers
	sourceMerged                   // several CATALOGs, merged as lint --merge merges them
)

func resolveSource(arg string, f *catalogFlags) sourceKind {
	switch {
	case f.live.config != "" || live.IsLive(arg):
		return sourceLive
	case arg == "":
		return sourceDemo
	case arg == "-":
		return sourceStdin
	}
	return sourceFile
}

// newConfigPath is where the explorer's triage creates a project config
// when none was found: where lint looks first, the catalog's directory
// (the working directory for stdin and live sources). None for the demo
// and under --no-config.
func newConfigPath(arg string, kind sourceKind, c *configFlags) string {
	switch {
	case c.none || kind == sourceDemo:
		return ""
	case kind == sourceFile:
		return filepath.Join(filepath.Dir(arg), config.FileName)
	}
	return config.FileName
}

// runExplorer runs the explorer full screen until the user quits.
func runExplorer(o tui.Options, catalogOnStdin bool, io stdio) int {
	// The mouse: the wheel scrolls, a click focuses and selects (shift and
	// drag still selects text in most terminals).
	opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithMouseCellMotion()}
	if catalogOnStdin {
		// The catalog came on stdin: keys come from the terminal.
		opts = append(opts, tea.WithInputTTY())
	}
	return runProgram(o, opts, io)
}

// testProgramOptions are added to the explorer's program options; tests
// give it a pipe for keys and discard the screen.
var testProgramOptions []tea.ProgramOption

// runProgram runs the explorer with the given program options. SIGINT,
// SIGTERM and SIGHUP end it as an interrupt does (exit 2), the terminal
// restored; the caller's deferred Close then ends a live source's servers.
func runProgram(o tui.Options, opts []tea.ProgramOption, io stdio) int {
	m := tui.New(o)
	defer m.Close()
	ctx, stop := signalContext(context.Background())
	defer stop()
	opts = append(opts, testProgramOptions...)
	opts = append(opts, tea.WithContext(ctx), tea.WithoutSignalHandler())
	_, err := tea.NewProgram(m, opts...).Run()
	// The deferred Close ends a start still reaching a live source
	// before the caller waits for it.
	if cause := context.Cause(ctx); errors.As(cause, new(signalError)) {
		fmt.Fprintf(io.err, "toolscope: the explorer stopped: %s\n", cause)
		return 2
	}
	if err != nil {
		fmt.Fprintf(io.err, "toolscope: the explorer stopped: %s\n", oneLine(err))
		return 2
	}
	return 0
}

func exploreUsageError(io stdio, msg string) int {
	fmt.Fprintf(io.err, "toolscope: %s (see 'toolscope --help')\n", termsafe.Line(msg))
	return 2
}

// printReport is the explorer's stand-in when stdout is not a terminal:
// the lint text report, with lint's exit codes, the recorded judgments
// replayed as lint replays them (jf asks no model; nil replays nothing).
func printReport(cat *catalog.Catalog, f *catalogFlags, jf *judgeFlags, arg string, io stdio) int {
	// As lint's text report: its first-to-fix list states the tokens.
	f.measureTokens = true
	p := startProgress(io, "toolscope")
	defer p.End()
	got, err := pipeline.Lint(context.Background(), pipeline.LintRequest{
		Args:     []string{arg},
		Source:   &loadedSource{cat: cat, records: newProbeReads("", false), io: io},
		Progress: p,
		Setup: func(string) (*pipeline.Setup, error) {
			judging := jf != nil && jf.active(f.config, arg)
			if judging {
				f.neighbours = judgeNeighbours
			}
			s := f.setup(f.config)
			s.Judging = judging
			return s, nil
		},
		// As lint reports it: the config file's own findings too.
		Amend: amendWithServers,
		Judge: func(ctx context.Context, l *pipeline.Linted) (*lint.Report, error) {
			return judgeReport(ctx, jf, l, io)
		},
	})
	p.End()
	if err != nil {
		fmt.Fprintf(io.err, "toolscope: %s\n", oneLine(err))
		return 2
	}
	report := got[0].Report
	if err := writeReport(io.out, report, cat, f, false); err != nil {
		fmt.Fprintf(io.err, "toolscope: writing the report: %s\n", oneLine(err))
		return 2
	}
	if !report.OK {
		return 1
	}
	return 0
}

// loadedSource is the explorer's catalog, loaded already, as the lint
// run takes it.
type loadedSource struct {
	cat     *catalog.Catalog
	records *probeReads
	io      stdio
}

func (s *loadedSource) Label(string) string                   { return "" }
func (s *loadedSource) Load(string) (*catalog.Catalog, error) { return s.cat, nil }
func (s *loadedSource) Path(string, *catalog.Catalog) string  { return s.cat.Source }
func (s *loadedSource) Probe(l *pipeline.Linted) *judge.ProbeRecord {
	return s.records.find(l.Setup.Config, l.Arg, s.io)
}

// noticeFor is how long a passing message stays in the explorer's footer.
const noticeFor = 6 * time.Second

// exploreOptions wires the explorer to the flags and the catalog's source:
// a file is re-read and watched, and reports are exported beside it;
// stdin and the demo cannot be re-read, and export to the working
// directory (a live source's caller adds its own re-listing).
func exploreOptions(arg string, kind sourceKind, cat *catalog.Catalog, f *catalogFlags, io stdio) tui.Options {
	o := tui.Options{
		Catalog:      cat,
		Lint:         f.options(),
		Embedder:     f.embedderSpec(),
		Embedders:    embedderChoices(f.embedder),
		OpenEmbedder: f.openEmbedder,
		Export: func(w stdlibio.Writer, format string, r *lint.Report, cat *catalog.Catalog) error {
			g := *f
			g.format = format
			return writeReport(w, r, cat, &g, false)
		},
		ExportDir: ".",
		Now:       time.Now,
		Zone:      time.Local,
		Config:    f.config,
		NoticeFor: noticeFor,
	}
	if kind != sourceFile {
		return o
	}
	o.Reload = func(context.Context) (*catalog.Catalog, error) { return f.live.load(arg, io) }
	if st, err := os.Stat(arg); err == nil && st.Mode().IsRegular() {
		o.Watch = arg
		o.ExportDir = filepath.Dir(arg)
	}
	return o
}

// embedderChoices are the embedders the explorer's embedder key cycles
// through: the one asked for, then the built-in ones that are registered.
func embedderChoices(asked string) []string {
	var out []string
	registered := embed.Names()
	for _, spec := range []string{asked, defaultEmbedder, "mock"} {
		name, _, _ := strings.Cut(spec, ":")
		if spec != "" && slices.Contains(registered, name) && !slices.Contains(out, spec) {
			out = append(out, spec)
		}
	}
	return out
}
