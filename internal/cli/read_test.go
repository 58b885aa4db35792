package cli

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"toolscope/core/catalog"
)

// endless is input that never ends: a pipe or a device that always has
// more.
type endless struct{ n int64 }

func (e *endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = ' '
	}
	e.n += int64(len(b))
	return len(b), nil
}

// runInput runs toolscope with stdin read from r.
func runInput(r io.Reader, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, stdio{in: r, out: &out, err: &errb})
	return code, out.String(), errb.String()
}

// TestEndlessInputStopsAtTheLimit: input with no end (stdin, /dev/zero,
// a FIFO fed for ever, ARGS) is read no further than the limit and
// refused with one line naming the source and the limit; a settings file
// (an mcp-config, a config, a baseline) must be a regular file and a
// device is refused unread.
func TestEndlessInputStopsAtTheLimit(t *testing.T) {
	limit := "over the 64 MiB input limit"
	check := func(t *testing.T, code int, errOut, source string) {
		t.Helper()
		want := source + ": " + limit
		if lines := withoutProgress(errOut); code != 2 || len(lines) != 1 || !strings.Contains(lines[0], want) {
			t.Errorf("exit %d, stderr %q; want exit 2 and one line with %q", code, errOut, want)
		}
	}
	t.Run("stdin", func(t *testing.T) {
		in := &endless{}
		code, _, errOut := runInput(in, "lint", "--no-similarity", "-")
		check(t, code, errOut, "toolscope lint: stdin")
		if in.n > catalog.MaxFileBytes+64<<10 {
			t.Errorf("read %d bytes of stdin, want no more than the limit", in.n)
		}
	})
	t.Run("ARGS on stdin", func(t *testing.T) {
		code, _, errOut := runInput(&endless{}, "check-args", demoPath, "get_incident", "-")
		check(t, code, errOut, "ARGS: stdin")
	})
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	t.Run("/dev/zero", func(t *testing.T) {
		code, _, errOut := runCmd("", "lint", "--no-similarity", "/dev/zero")
		check(t, code, errOut, "toolscope lint: /dev/zero")
	})
	t.Run("ARGS /dev/zero", func(t *testing.T) {
		code, _, errOut := runCmd("", "check-args", demoPath, "get_incident", "/dev/zero")
		check(t, code, errOut, "ARGS: /dev/zero")
	})
	// Every other file a command reads has its own, smaller limit.
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"diff OLD", []string{"diff", "--no-similarity", "/dev/zero", demoPath}, "toolscope diff: OLD: /dev/zero: " + limit},
		{"--mcp-config", []string{"lint", "--mcp-config", "/dev/zero"}, "toolscope lint: /dev/zero: cannot read: not a regular file (a device)"},
		{"--config", []string{"lint", "--no-similarity", "--config", "/dev/zero", demoPath}, "toolscope lint: /dev/zero: cannot read: not a regular file (a device)"},
		{"--baseline", []string{"lint", "--no-similarity", "--baseline", "/dev/zero", demoPath}, "toolscope lint: baseline /dev/zero: cannot read: not a regular file (a device)"},
	} {
		t.Run(c.name+" /dev/zero", func(t *testing.T) {
			code, _, errOut := runCmd("", c.args...)
			if lines := withoutProgress(errOut); code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], c.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line starting %q", code, errOut, c.want)
			}
		})
	}
}

// progressLine is a line of the progress a slow run shows on stderr.
var progressLine = regexp.MustCompile(` · [0-9]+s$`)

// withoutProgress is stderr's lines but the progress ones.
func withoutProgress(stderr string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !progressLine.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// TestLeadingBOMIsRead: files an editor saved with a byte order mark are
// read as without it: a catalog (from a file or stdin), ARGS, and an MCP
// server config given as a catalog, which is still recognised as one.
func TestLeadingBOMIsRead(t *testing.T) {
	const bom = "\ufeff"
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(bom+text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	demo, err := os.ReadFile(demoPath)
	if err != nil {
		t.Fatal(err)
	}
	catalogFile := write("catalog.json", string(demo))
	args := write("args.json", `{"volume_id":"vol-0a1b2c3d"}`)
	config := write("servers.json", `{"mcpServers":{"fs":{"command":"srv"}}}`)
	broken := write("broken.json", `[{"name":"a",}]`)
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"catalog file", "", []string{"check-args", catalogFile, "get_volume_status", `{"volume_id":"vol-0a1b2c3d"}`}, 0, "accepted"},
		{"catalog on stdin", bom + string(demo), []string{"check-args", "-", "get_volume_status", `{"volume_id":"vol-0a1b2c3d"}`}, 0, "accepted"},
		{"ARGS file", "", []string{"check-args", demoPath, "get_volume_status", args}, 0, "accepted"},
		{"ARGS on stdin", bom + `{"volume_id":"vol-0a1b2c3d"}`, []string{"check-args", demoPath, "get_volume_status", "-"}, 0, "accepted"},
		{"a server config", "", []string{"lint", "--no-similarity", "--no-config", config}, 2, "is an MCP server config, not a catalog"},
		{"columns after the mark", "", []string{"lint", "--no-similarity", "--no-config", broken}, 2, "broken.json:1:14: tools[0]: not valid JSON: unexpected '}'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runInput(strings.NewReader(c.stdin), c.args...)
			if code != c.code || !strings.Contains(out+errOut, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, out, errOut, c.code, c.want)
			}
		})
	}
}
