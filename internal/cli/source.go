package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	stdlibio "io"
	"path/filepath"
	"strings"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/live"
	"toolscope/core/termsafe"
	"toolscope/fixtures"
)

// liveFlags are the flags for live MCP sources, declared on every command
// that reads a CATALOG.
type liveFlags struct {
	config string
	// loaded is the --mcp-config file as open read it.
	loaded *live.Config
	// keepGoing lists the --mcp-config servers that start when others do
	// not; failed names those left out by the last load.
	keepGoing bool
	failed    []live.Failure
	servers   listFlag
	headers   headerFlag
	timeout   stepTimeout
	bare      bool
}

// headerFlag gathers repeated --header lines, unparsed: they are read (and
// their $VARs expanded) when a server is opened.
type headerFlag []string

// String never shows a value: headers carry tokens.
func (h *headerFlag) String() string {
	if len(*h) == 0 {
		return ""
	}
	return plural(len(*h), "header", "headers")
}

func (h *headerFlag) Set(s string) error {
	if _, _, err := live.ParseHeader(s, func(string) (string, bool) { return "", true }); err != nil {
		return err
	}
	*h = append(*h, s)
	return nil
}

// addLiveFlags declares the live-source flags on fs.
func addLiveFlags(fs *flag.FlagSet) *liveFlags {
	l := &liveFlags{}
	fs.StringVar(&l.config, "mcp-config", "", "`FILE` of MCP servers (Claude Desktop, Cursor, VS Code): lint them all, merged, instead of a CATALOG")
	fs.Var(&l.servers, "server", "`NAME,...` of the --mcp-config servers to use (default: every enabled one)")
	fs.Var(&l.headers, "header", "`'NAME: VALUE'` sent to an http(s):// server, $VAR expanded from the environment (repeatable)")
	fs.BoolVar(&l.bare, "mcp-bare-client", false, "declare no client capability to live servers (by default roots, sampling and elicitation, as hosts do; their requests get no roots, a refusal, a decline)")
	fs.Var(&l.timeout, "mcp-timeout", "`DURATION` allowed a live server per step: start and initialize, each tools/list page (default 30s and 10s)")
	return l
}

// stepTimeout is --mcp-timeout: 0 leaves each step its own default.
type stepTimeout time.Duration

func (d *stepTimeout) String() string {
	if *d == 0 {
		return ""
	}
	return time.Duration(*d).String()
}

func (d *stepTimeout) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil || v <= 0 {
		return errors.New("want a positive duration, like 45s or 2m")
	}
	*d = stepTimeout(v)
	return nil
}

// catalogArgs splits a command's positional arguments into its CATALOG and
// the rest (check-args' TOOL and ARGS). With --mcp-config the config is the
// catalog and no CATALOG argument is taken: arg is "" and ok tells a
// catalog was given either way.
func (l *liveFlags) catalogArgs(positional []string) (arg string, rest []string, ok bool) {
	if l.config != "" {
		return "", positional, true
	}
	if len(positional) == 0 {
		return "", nil, false
	}
	return positional[0], positional[1:], true
}

// check validates the flags' combination.
func (l *liveFlags) check() error {
	if len(l.servers) > 0 && l.config == "" {
		return errors.New("--server picks servers of an --mcp-config file; give the file too")
	}
	return nil
}

// load resolves a CATALOG argument: "" is the bundled demo, "-" is stdin,
// `mcp:COMMAND ARGS` and http(s):// URLs are live MCP servers, anything
// else a file; or the --mcp-config servers when the flag is given. A live
// source is listed once and closed, its child processes reaped; Ctrl-C,
// SIGTERM or SIGHUP cuts it short cleanly.
func (l *liveFlags) load(arg string, io stdio) (*catalog.Catalog, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	if l.config == "" && !live.IsLive(arg) {
		switch arg {
		case "":
			return catalog.Parse(fixtures.DemoName, fixtures.Demo())
		default:
			// Read once, through the size limit: the same bytes are parsed
			// and, when they are no catalog, sniffed for a server config.
			data, source, err := catalog.Read(arg, io.in)
			if err != nil {
				return nil, err
			}
			cat, err := catalog.Parse(source, data)
			if err != nil && arg != "-" && isMCPConfig(data) {
				return nil, fmt.Errorf("%s is an MCP server config, not a catalog: use --mcp-config %s to start its servers and lint their tools", arg, arg)
			}
			return cat, err
		}
	}
	ctx, stop := signalContext(context.Background())
	defer stop()
	src, err := l.open(ctx, arg)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	cat, err := src.List(ctx)
	if err == nil {
		showNotes(io.err, src)
		l.failed = src.Failed()
	}
	return cat, err
}

// loadLabel is what the progress line says while load runs: servers
// starting and listing take seconds (npx may fetch a package first), and
// the line says so rather than a stage of the analysis to come.
func (l *liveFlags) loadLabel(arg string) string {
	switch {
	case l.config != "":
		return "starting the servers of " + termsafe.Line(filepath.Base(l.config))
	case strings.HasPrefix(arg, live.Prefix):
		return "starting the server"
	case live.IsLive(arg):
		return "reaching the server"
	}
	return "loading the catalog"
}

// showNotes writes a live source's warnings to w, one line each: what was
// skipped to list it.
func showNotes(w stdlibio.Writer, src *live.Source) {
	for _, n := range src.Notes() {
		fmt.Fprintf(w, "toolscope: note: %s\n", termsafe.Line(n))
	}
}

// open connects to a live source: the --mcp-config servers, or the server a
// CATALOG argument names (see live.IsLive). The caller lists it, watches its
// Changes and closes it.
func (l *liveFlags) open(ctx context.Context, arg string) (*live.Source, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	opts := live.Options{InitTimeout: time.Duration(l.timeout), PageTimeout: time.Duration(l.timeout), BareClient: l.bare, KeepGoing: l.keepGoing}
	if l.config != "" {
		if arg != "" {
			return nil, fmt.Errorf("--mcp-config %s replaces CATALOG; drop %s or the flag", l.config, arg)
		}
		if len(l.headers) > 0 {
			return nil, errors.New("--header is for an http(s):// CATALOG; an --mcp-config server takes its headers from the file")
		}
		cfg, err := live.LoadConfig(l.config)
		if err != nil {
			return nil, err
		}
		l.loaded = cfg
		return live.OpenConfig(ctx, cfg, l.servers, opts)
	}
	spec, err := live.ParseArg(arg)
	if err != nil {
		return nil, err
	}
	if len(l.headers) > 0 {
		if spec.URL == "" {
			return nil, errors.New("--header is for an http(s):// CATALOG, not a stdio server")
		}
		spec.Headers = map[string]string{}
		for _, h := range l.headers {
			name, value, err := live.ParseHeader(h, nil)
			if err != nil {
				return nil, fmt.Errorf("--header: %w", err)
			}
			spec.Headers[name] = value
		}
	}
	return live.Open(ctx, spec, opts)
}

// isMCPConfig reports whether a document that is not a catalog is an MCP
// server config, to point its user to --mcp-config.
func isMCPConfig(data []byte) bool {
	root, err := jsonv.ParseJSONC(data)
	if err != nil {
		return false
	}
	return !root.Has("tools") && (root.Get("mcpServers").Is(jsonv.Object) || root.Get("servers").Is(jsonv.Object))
}
