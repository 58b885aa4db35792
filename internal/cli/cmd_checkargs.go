package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/termsafe"
	"toolscope/core/validate"
)

func init() {
	register(command{
		name:    "check-args",
		usage:   "check-args [flags] CATALOG TOOL [ARGS]",
		summary: "validate arguments for a tool as the dispatch boundary would",
		run:     runCheckArgs,
	})
}

const checkArgsHelp = `Usage: toolscope check-args [--format text|json] [--mode enforce|warn|off] CATALOG TOOL [ARGS]

Validate a tool call's arguments against the tool's input schema, as a
dispatch boundary would before running the tool, and show what the model
would get back. When the tool declares askOrAssume or a period, also show
how the call's ruled and period arguments resolve (now, in the local zone):
advice that never changes the verdict.

CATALOG  a catalog file, '-' for stdin, 'mcp:COMMAND ARGS...' (one quoted
         argument) for a live MCP server over stdio, or an http(s):// URL of
         a Streamable HTTP MCP server; left out with --mcp-config
TOOL     the tool's name
ARGS     the arguments: inline JSON (anything starting with '{' or '[', or
         any other JSON value), '-' for stdin, or a file holding them;
         absent means the call carries no arguments

Flags:
  --format text|json          output format (default text)
  --mode enforce|warn|off     what the boundary does with a bad call:
                              enforce rejects it before dispatch (default),
                              warn runs it and reports the issues,
                              off does not check
  --mcp-config FILE           MCP servers config (Claude Desktop, Cursor,
                              VS Code): TOOL is looked up in their merged
                              catalog, named server__tool
  --server NAME,...           the --mcp-config servers to use
  --header 'NAME: VALUE'      header for an http(s):// server ($VAR expanded)
  --mcp-timeout DURATION      time allowed a live server per step
  --mcp-bare-client           declare no client capability to a live
                              server (by default roots, sampling and
                              elicitation, as hosts do)
Put '--' before ARGS that start with '-' (a negative number).

Exit codes: 0 accepted (or run anyway in warn/off mode), 1 rejected,
2 usage or input error.
`

// checkArgsReport is the outcome of one check; the JSON output is this
// struct and the text output renders it.
type checkArgsReport struct {
	Tool    string        `json:"tool"`
	Catalog string        `json:"catalog"`
	Mode    validate.Mode `json:"mode"`
	// Action is what the boundary does: accepted, rejected before
	// dispatch, runs with a warning, not checked.
	Action string `json:"action"`
	// OK is the validation verdict, whatever the mode does with it.
	OK     bool             `json:"ok"`
	Issues []validate.Issue `json:"issues"`
	// Text is what the model gets instead of a result when the call is
	// rejected (empty when the arguments are valid or were not checked).
	Text string `json:"text"`
	// Warnings are checks that could not be made: a pattern that does not
	// compile, a match that timed out.
	Warnings []string `json:"warnings,omitempty"`
	// Declarations is how the call's ruled and period arguments resolve,
	// or why the tool's declarations are refused; absent when it has none.
	Declarations *declarationsReport `json:"declarations,omitempty"`

	action validate.Action
}

func runCheckArgs(args []string, io stdio) int {
	const name = "check-args"
	fs := newFlagSet(name)
	format := fs.String("format", "text", "output format: text or json")
	modeName := fs.String("mode", string(validate.Enforce), "enforce, warn or off")
	lf := addLiveFlags(fs)
	pos, err := parseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(io.out, checkArgsHelp)
		return 0
	}
	if err != nil {
		return usageError(io, name, oneLine(err))
	}
	if *format != "text" && *format != "json" {
		return usageError(io, name, fmt.Sprintf("unknown --format %q (want text or json)", *format))
	}
	mode, err := validate.ParseMode(*modeName)
	if err != nil {
		return usageError(io, name, err.Error())
	}
	if err := lf.check(); err != nil {
		return usageError(io, name, err.Error())
	}
	catArg, rest, _ := lf.catalogArgs(pos)
	if lf.config == "" && (len(rest) < 1 || len(rest) > 2) {
		return usageError(io, name, fmt.Sprintf("want CATALOG TOOL [ARGS], got %s", plural(len(pos), "argument", "arguments")))
	}
	if lf.config != "" && (len(rest) < 1 || len(rest) > 2) {
		return usageError(io, name, fmt.Sprintf("with --mcp-config, want TOOL [ARGS], got %s", plural(len(pos), "argument", "arguments")))
	}
	if lf.config == "" && catArg == "" {
		return usageError(io, name, errEmptyCatalog)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(io.err, "toolscope %s: %s\n", name, termsafe.Line(fmt.Sprintf(format, a...)))
		return 2
	}
	argsArg := ""
	if len(rest) == 2 {
		argsArg = rest[1]
	}
	if catArg == "-" && argsArg == "-" {
		return fail("CATALOG and ARGS cannot both be read from stdin")
	}
	cat, err := lf.load(catArg, io)
	if err != nil {
		return fail("%s", oneLine(err))
	}
	tool, ok := cat.Lookup(rest[0])
	if !ok {
		return fail("%s has no tool named %s%s", cat.Source, jsonv.Quote(rest[0]), didYouMean(cat, rest[0]))
	}
	text, err := readArgsText(argsArg, io.in)
	if err != nil {
		return fail("ARGS: %s", oneLine(err))
	}
	r := checkArgs(cat, tool, text, mode)
	if *format == "json" {
		enc := json.NewEncoder(termsafe.JSON(io.out))
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return fail("writing the report: %v", err)
		}
	} else {
		out := &stickyWriter{w: io.out}
		r.writeText(out)
		if out.err != nil {
			return fail("writing the report: %s", oneLine(out.err))
		}
		for _, w := range r.Warnings {
			fmt.Fprintf(io.err, "warning: %s\n", termsafe.Line(w))
		}
	}
	if r.action == validate.Rejected {
		return 1
	}
	return 0
}

func didYouMean(cat *catalog.Catalog, name string) string {
	near := cat.Nearest(name, 3)
	if len(near) == 0 {
		return " (it has no tools)"
	}
	return "; nearest: " + strings.Join(near, ", ")
}

// readArgsText reads ARGS: absent, stdin, inline JSON, or a file. Text that
// looks like JSON is inline even when it does not parse, so a truncated
// call is judged as the model's broken call rather than taken for a file
// name.
func readArgsText(arg string, stdin io.Reader) (string, error) {
	switch {
	case arg == "":
		return "", nil
	case arg == "-":
		data, err := catalog.ReadLimited("stdin", stdin, 0)
		if err != nil {
			return "", err
		}
		return string(data), nil
	case looksInline(arg):
		return arg, nil
	}
	st, err := os.Stat(arg)
	if err != nil {
		return "", fmt.Errorf("%s is neither inline JSON nor a readable file: %w", arg, bareError(err))
	}
	if st.IsDir() {
		return "", fmt.Errorf("%s is a directory, want a file holding the arguments", arg)
	}
	// Through the limit, whatever the file: a pipe or /dev/zero too.
	data, _, err := catalog.Read(arg, nil)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// bareError drops the path an *os.PathError repeats.
func bareError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func looksInline(arg string) bool {
	t := strings.TrimSpace(arg)
	if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		return true
	}
	_, err := jsonv.Parse([]byte(t))
	return err == nil
}

// checkArgs validates the arguments text for tool under mode.
func checkArgs(cat *catalog.Catalog, tool *catalog.Tool, text string, mode validate.Mode) *checkArgsReport {
	r := &checkArgsReport{Tool: tool.Name, Catalog: cat.Source, Mode: mode, Issues: []validate.Issue{}}
	var res validate.Result
	if mode == validate.Off {
		res = validate.Result{OK: true}
	} else if args, issues := validate.ParseArguments(text); issues != nil {
		res = validate.Result{Issues: issues}
	} else {
		res = validate.Validate(args, tool.Schema)
	}
	r.action = mode.Apply(res)
	r.Action = r.action.String()
	r.OK = res.OK
	if len(res.Issues) > 0 {
		r.Issues = res.Issues
		r.Text = validate.FormatIssues(tool.Name, res.Issues)
	}
	r.Warnings = append(validate.DrainWarnings(), res.Warnings...)
	r.Declarations = resolveDeclarations(tool, text, time.Now(), time.Local)
	return r
}

// writeText renders the report for a person: the verdict, then what the
// model gets (or, in warn mode, what is reported beside the result).
func (r *checkArgsReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "%s: %s (mode %s)", termsafe.Line(r.Tool), r.Action, r.Mode)
	switch n := len(r.Issues); n {
	case 0:
	case 1:
		fmt.Fprint(w, ", 1 issue")
	default:
		fmt.Fprintf(w, ", %d issues", n)
	}
	fmt.Fprintln(w)
	defer r.Declarations.writeText(w)
	if r.Text == "" {
		return
	}
	if r.action == validate.Rejected {
		fmt.Fprintln(w, "The model gets, instead of a result:")
	} else {
		fmt.Fprintln(w, "Reported beside the result (under enforce, the model would get this instead):")
	}
	for _, line := range strings.Split(r.Text, "\n") {
		fmt.Fprintln(w, "  "+termsafe.Line(line))
	}
}
