// Package hygiene checks an mcp-config file (the server map Claude
// Desktop, Claude Code, Cursor and VS Code read) for what goes wrong in
// the config itself, before any server runs: packages that are not
// pinned, secrets written inline, plain http to another machine, a
// command run through sudo or a shell, and secrets others can read. Each
// finding is located in the file (line and column).
package hygiene

import (
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strings"

	"toolscope/core/jsonv"
)

// The rule ids (their teaching is in core/lint's rules_config.go and
// docs/rules.md).
const (
	RuleUnpinned        = "config-unpinned-package"
	RuleInlineSecret    = "config-inline-secret"
	RulePlainHTTP       = "config-plain-http"
	RuleShellCommand    = "config-shell-command"
	RuleSecretsReadable = "config-secrets-readable"
)

// Severity is a finding's: "error" or "warn", as the lint's.
type Severity string

const (
	Error Severity = "error"
	Warn  Severity = "warn"
)

// Finding is one problem of the config, at a place in the file.
type Finding struct {
	Rule     string
	Severity Severity
	// Server is the server's name in the file; Field the member the
	// finding is about, as a path inside the server ("args[2]",
	// "env.GITHUB_TOKEN").
	Server, Field string
	Message       string
	Line, Column  int
}

// Check reads an mcp-config document and returns its findings in file
// order. mode is the file's permission bits (0 when unknown: the
// readable-secrets check is then skipped). A document that is not JSON or
// has no server map is an error saying so.
func Check(name string, data []byte, mode fs.FileMode) ([]Finding, error) {
	root, err := jsonv.ParseJSONC(data)
	if err != nil {
		if se, ok := err.(*jsonv.SyntaxError); ok {
			return nil, fmt.Errorf("%s:%d:%d: not valid JSON: %s", name, se.Pos.Line, se.Pos.Col, se.Msg)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	servers := root.Get("mcpServers")
	if servers == nil {
		servers = root.Get("servers")
	}
	if !servers.Is(jsonv.Object) {
		return nil, fmt.Errorf("%s: want an object with \"mcpServers\" or \"servers\" mapping names to servers", name)
	}
	var out []Finding
	for _, m := range servers.Members {
		if m.Value.Is(jsonv.Object) {
			out = append(out, checkServer(m.Key, m.Value)...)
		}
	}
	if mode&0o044 != 0 {
		for _, f := range out {
			if f.Rule == RuleInlineSecret {
				who := "other users"
				if mode&0o004 == 0 {
					who = "the file's group"
				}
				out = append(out, Finding{Rule: RuleSecretsReadable, Severity: Error, Server: f.Server, Field: f.Field, Line: f.Line, Column: f.Column,
					Message: fmt.Sprintf("the file holds secrets and %s can read it (mode %04o): make it private (chmod 600) or move the secrets out", who, mode.Perm())})
				break
			}
		}
	}
	return out, nil
}

// checkServer is the findings of one server entry, in a fixed order: how
// its command runs, its packages, plain http, then secrets written
// inline. No message repeats a secret, whatever put it there: reports
// reach public CI logs.
func checkServer(name string, v *jsonv.Value) []Finding {
	s := newServerCheck(name, v)
	flag := shellFlag(s.args)
	s.rootOrShell(flag)
	s.unpinnedPackage(flag)
	s.plainHTTP()
	s.envSecrets()
	s.headerSecrets()
	s.argSecrets()
	s.urlSecrets()
	for i := range s.out {
		s.out[i].Message = Redact(s.out[i].Message)
	}
	return s.out
}

// serverCheck is one server entry being checked: its command line as
// read, and the findings so far (each a warning).
type serverCheck struct {
	name  string
	v     *jsonv.Value
	cmdV  *jsonv.Value
	base  string         // the command's program name
	args  []string       // the arguments, "" for one not a string
	argVs []*jsonv.Value // each argument's value, where it is in the file
	out   []Finding
}

func newServerCheck(name string, v *jsonv.Value) *serverCheck {
	s := &serverCheck{name: name, v: v, cmdV: v.Get("command")}
	command, _ := s.cmdV.Str()
	s.base = commandBase(command)
	if a := v.Get("args"); a.Is(jsonv.Array) {
		for _, it := range a.Items {
			str, _ := it.Str()
			s.args = append(s.args, str)
			s.argVs = append(s.argVs, it)
		}
	}
	return s
}

// warn adds a warning about field, at the value at.
func (s *serverCheck) warn(rule, field string, at *jsonv.Value, format string, args ...any) {
	s.out = append(s.out, Finding{Rule: rule, Severity: Warn, Server: s.name, Field: field, Message: fmt.Sprintf(format, args...), Line: at.Pos.Line, Column: at.Pos.Col})
}

// rootOrShell finds a command run as root, or a command line handed to a
// shell (flag is the shell's command flag among the args, -1 for none).
// A shell given one program and its arguments (`cmd /c npx ...`, how
// Windows runs npx) is no command line.
func (s *serverCheck) rootOrShell(flag int) {
	base, args := s.base, s.args
	switch {
	case base == "sudo" || base == "doas":
		s.warn(RuleShellCommand, "command", s.cmdV, "the server runs through %s, as root: a server needs no more than your own rights", base)
	case shells[base] && flag >= 0 && flag+1 < len(args) && strings.ContainsAny(args[flag+1], " \t;|&$`<>()"):
		s.warn(RuleShellCommand, "command", s.cmdV, "the server is a command line handed to %s %s: quoting, variables and every program it names are the shell's, not the host's; name the program as command and its arguments in args", base, args[flag])
	}
}

// unpinnedPackage finds a package fetched at start without a fixed
// version, through a shell's or sudo's program too.
func (s *serverCheck) unpinnedPackage(flag int) {
	base, args := s.base, s.args
	runner, runArgs, offset := base, args, 0
	if (shells[base] || base == "sudo") && flag+1 < len(args) {
		if base == "sudo" {
			flag = -1
		}
		runner, runArgs, offset = commandBase(args[flag+1]), args[flag+2:], flag+2
	}
	if k, pkg, kind := packageArg(runner, runArgs); k >= 0 {
		if msg := unpinned(kind, pkg); msg != "" {
			s.warn(RuleUnpinned, fmt.Sprintf("args[%d]", offset+k), s.argVs[offset+k], "%s", msg)
		}
	}
}

// plainHTTP finds plain http to another machine, in the server's URL or
// its arguments.
func (s *serverCheck) plainHTTP() {
	for _, key := range []string{"url", "serverUrl"} {
		if u := s.v.Get(key); u != nil {
			if str, ok := u.Str(); ok && plainRemote(str) {
				s.warn(RulePlainHTTP, key, u, "%s is plain http to %s: the requests, and any token in them, cross the network unencrypted; use https://", jsonv.Quote(Redact(str)), hostOf(str))
			}
		}
	}
	for k, str := range s.args {
		if plainRemote(str) {
			s.warn(RulePlainHTTP, fmt.Sprintf("args[%d]", k), s.argVs[k], "%s is plain http to %s: the requests, and any token in them, cross the network unencrypted; use https://", jsonv.Quote(Redact(str)), hostOf(str))
		}
	}
}

// envSecrets finds secrets written inline in the environment: as a
// variable's value, or in a URL's credentials.
func (s *serverCheck) envSecrets() {
	env := s.v.Get("env")
	if !env.Is(jsonv.Object) {
		return
	}
	for _, m := range env.Members {
		str, ok := m.Value.Str()
		if !ok {
			continue
		}
		if secretValue(m.Key, str) {
			s.warn(RuleInlineSecret, "env."+m.Key, m.Value, "%s is written inline: refer to a variable instead (%s)", m.Key, referenceHint(m.Key))
			continue
		}
		// DATABASE_URL=postgres://user:pass@host/db
		for _, u := range urlPattern.FindAllString(str, -1) {
			if what := urlSecret(u); what != "" {
				s.warn(RuleInlineSecret, "env."+m.Key, m.Value, "%s: %s: refer to a variable instead (%s)", m.Key, what, referenceHint(m.Key))
				break
			}
		}
	}
}

// headerSecrets finds a header's credential written inline.
func (s *serverCheck) headerSecrets() {
	h := s.v.Get("headers")
	if !h.Is(jsonv.Object) {
		return
	}
	for _, m := range h.Members {
		if str, ok := m.Value.Str(); ok && secretHeader(m.Key, str) {
			s.warn(RuleInlineSecret, "headers."+m.Key, m.Value, "the %s header's credential is written inline: refer to a variable instead (%s)", m.Key, referenceHint("TOKEN"))
		}
	}
}

// argSecrets finds secrets written inline in the arguments: a header's
// credential, a secret flag's value, a known token, a URL's credentials.
// A secret given as two arguments (a flag, then its value) is one
// finding, on the value.
func (s *serverCheck) argSecrets() {
	args := s.args
	for k := 0; k < len(args); k++ {
		// mcp-remote's --header "Authorization: Bearer ..." (or
		// --header=...): the header's credential.
		if name, at, ok := headerArg(args, k); ok {
			s.warn(RuleInlineSecret, fmt.Sprintf("args[%d]", at), s.argVs[at], "the %s header given to %s is a credential written inline: refer to a variable instead (%s)", name, strings.SplitN(args[k], "=", 2)[0], referenceHint("AUTH_HEADER"))
			k = at
			continue
		}
		if flag, val, ok := secretArg(args, k); ok {
			val = strings.TrimLeft(flag, "-")
			at := k
			if !strings.Contains(args[k], "=") {
				at = k + 1
			}
			s.warn(RuleInlineSecret, fmt.Sprintf("args[%d]", at), s.argVs[at], "%s is given a secret inline: refer to a variable instead (%s)", flag, referenceHint(val))
			k = at
			continue
		}
		if known := knownToken(args[k]); known != "" {
			s.warn(RuleInlineSecret, fmt.Sprintf("args[%d]", k), s.argVs[k], "args[%d] holds %s written inline: refer to a variable instead (%s)", k, known, referenceHint("TOKEN"))
			continue
		}
		for _, u := range urlPattern.FindAllString(args[k], -1) {
			if what := urlSecret(u); what != "" {
				s.warn(RuleInlineSecret, fmt.Sprintf("args[%d]", k), s.argVs[k], "%s: refer to a variable instead (%s)", what, referenceHint("TOKEN"))
				break
			}
		}
	}
}

// urlSecrets finds credentials written into the server's URL.
func (s *serverCheck) urlSecrets() {
	for _, key := range []string{"url", "serverUrl"} {
		if u := s.v.Get(key); u != nil {
			if str, ok := u.Str(); ok {
				if what := urlSecret(str); what != "" {
					s.warn(RuleInlineSecret, key, u, "%s: refer to a variable instead (%s)", what, referenceHint("TOKEN"))
				}
			}
		}
	}
}

// urlSecret says what secret a URL holds written inline (its password, a
// secret query parameter), "" when none.
func urlSecret(u string) string {
	if pw := urlPassword(u); pw != "" && !reference(pw) && !placeholder(pw) {
		return "the URL's password is written inline"
	}
	if p := secretQuery(u); p != "" {
		return fmt.Sprintf("the URL's %s parameter is a secret written inline", p)
	}
	return ""
}

var unsafeVar = regexp.MustCompile(`[^A-Za-z0-9_]`)

// referenceHint says how the hosts refer to a variable.
func referenceHint(name string) string {
	v := strings.ToUpper(unsafeVar.ReplaceAllString(name, "_"))
	return fmt.Sprintf("${env:%s} in Cursor and VS Code, ${%s} in Claude Code", v, v)
}

// commandBase is a command's program name: its last path element, without
// a Windows .exe or .cmd.
func commandBase(command string) string {
	b := path.Base(strings.ReplaceAll(strings.TrimSpace(command), `\`, "/"))
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		b = strings.TrimSuffix(strings.ToLower(b), ext)
	}
	return b
}

var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "cmd": true, "powershell": true, "pwsh": true}

// shellFlag is the index of a shell's run-this option in args, -1 when
// none.
func shellFlag(args []string) int {
	for k, a := range args {
		switch strings.ToLower(a) {
		case "-c", "/c", "-command", "/k", "-lc", "-ic":
			return k
		}
	}
	return -1
}

// plainRemote reports whether s is an http:// URL to a host other than
// this machine.
func plainRemote(s string) bool {
	if !strings.HasPrefix(strings.ToLower(s), "http://") {
		return false
	}
	h := hostOf(s)
	return h != "" && !loopback(h)
}

func hostOf(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

func loopback(h string) bool {
	h = strings.ToLower(h)
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasPrefix(h, "127.") || h == "::1" || h == "0.0.0.0"
}
