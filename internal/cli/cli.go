// Package cli is toolscope's command line: it picks the mode (a
// subcommand, the explorer, or the text report when stdout is not a
// terminal), reads the flags into each command's options and renders what
// core returns. Each subcommand lives in its own cmd_*.go file.
package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"toolscope/core/termsafe"
)

// stdio is what a command reads and writes; tests pass buffers.
type stdio struct {
	in       io.Reader
	out, err io.Writer
	// outTTY and errTTY say whether out and err are terminals.
	outTTY, errTTY bool
	// noColor is NO_COLOR or --no-color: no colour even on a terminal.
	noColor bool
}

// color reports whether stdout gets colour.
func (s stdio) color() bool { return s.outTTY && !s.noColor }

// command is one subcommand. run returns the exit code: 0 ok, 1 the check
// failed, 2 usage or input error.
type command struct {
	name    string
	usage   string // one line: "lint [flags] CATALOG"
	summary string
	run     func(args []string, io stdio) int
}

var commands = map[string]command{}

// register adds a subcommand; each cmd_*.go file registers its own.
func register(c command) { commands[c.name] = c }

// explore runs the bare `toolscope [flags] [CATALOG...]`: the explorer on a
// terminal, the text report otherwise. It is set by the file that owns the
// explorer mode.
var explore func(args []string, io stdio) int

// Main runs toolscope with the process's arguments and streams and
// returns the exit code: 0 ok, 1 the check failed, 2 usage or input error,
// 128+N after signal N.
func Main() int {
	io := stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, outTTY: isTerminal(os.Stdout), errTTY: isTerminal(os.Stderr),
		// https://no-color.org: present and not empty.
		noColor: os.Getenv("NO_COLOR") != ""}
	return exitCode(profiled(func() int { return run(os.Args[1:], io) }))
}

// profiled runs the command; a build with -tags profile wraps it in a
// profile of the whole process (profile_tag.go).
var profiled = func(run func() int) int { return run() }

func run(args []string, io stdio) int {
	args, noColor := takeNoColor(args)
	if noColor {
		io.noColor = true
	}
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "-help", "--help":
			usage(io.out)
			return 0
		case "--version", "-version", "version":
			bi, ok := debug.ReadBuildInfo()
			line, hint := versionFrom(bi, ok)
			fmt.Fprintf(io.out, "toolscope %s\n", line)
			if hint != "" {
				fmt.Fprintf(io.err, "toolscope: %s\n", hint)
			}
			return 0
		}
		if c, ok := commands[args[0]]; ok {
			return c.run(args[1:], io)
		}
		if msg, ok := unknownCommand(args); ok {
			fmt.Fprintf(io.err, "toolscope: %s\n", termsafe.Line(msg))
			return 2
		}
	}
	if explore == nil {
		usage(io.err)
		return 2
	}
	if io.noColor {
		// The explorer's styles read the profile; the reports read
		// io.color().
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	return explore(args, io)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "toolscope: explore and lint the tool catalogs LLM agents are given.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  toolscope [flags] [CATALOG...]")
	fmt.Fprintln(w, "      explore (on a terminal) or print the text report; the bundled demo when CATALOG is left out,")
	fmt.Fprintln(w, "      several CATALOGs merged as a host given all of them sees them")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  toolscope %s\n      %s\n", c.usage, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "CATALOG is a file, '-' for stdin, 'mcp:COMMAND ARGS...' (one argument) for a")
	fmt.Fprintln(w, "live MCP server over stdio, or an http(s):// URL of a Streamable HTTP MCP server.")
	fmt.Fprintln(w, "Run 'toolscope COMMAND --help' for a command's flags, 'toolscope rules' for what")
	fmt.Fprintln(w, "each rule catches and what a similarity score means.")
	fmt.Fprintln(w, "Exit codes: 0 ok, 1 the check failed, 2 usage or input error, 128+N stopped by signal N (130 Ctrl-C, 143 SIGTERM).")
	fmt.Fprintln(w, "--no-color (or NO_COLOR set) turns colour off; --version prints the version.")
}

// takeNoColor takes every --no-color out of args (before a "--"): every
// command accepts it, wherever it stands.
func takeNoColor(args []string) ([]string, bool) {
	var out []string
	found := false
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), found
		}
		if a == "--no-color" || a == "-no-color" {
			found = true
			continue
		}
		out = append(out, a)
	}
	return out, found
}

// stickyWriter remembers the first error a write gave, so that a report
// printed line by line can be checked once at its end (a full disk, a
// closed pipe) instead of failing silently.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

// oneLine flattens an error for the one-line messages users see, its
// control characters spelled out: an error may quote a catalog, a server's
// stderr or an argument, and none of them may drive the terminal.
func oneLine(err error) string {
	return termsafe.Line(strings.Join(strings.Fields(err.Error()), " "))
}
