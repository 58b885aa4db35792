package cli

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"toolscope/embed/cache"
)

// shellWords splits a shell command line as sh would for the README's
// samples: words, '...' and "..." quoting, a trailing # comment; it stops
// at a redirection or a pipe. ok is false on an unclosed quote.
func shellWords(line string) (words []string, ok bool) {
	var w strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !inWord:
			return words, true
		case (c == '>' || c == '|' || c == '<') && !inWord:
			return words, true
		case c == '\'' || c == '"':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, false
			}
			w.WriteString(line[i+1 : i+1+end])
			inWord = true
			i += end + 1
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return words, true
}

func TestShellWords(t *testing.T) {
	cases := []struct {
		line string
		want []string
		ok   bool
	}{
		{"toolscope lint a.json", []string{"toolscope", "lint", "a.json"}, true},
		{"toolscope lint a.json   # the gate", []string{"toolscope", "lint", "a.json"}, true},
		{`toolscope check-args f.json t '{"id": "x # y"}'`, []string{"toolscope", "check-args", "f.json", "t", `{"id": "x # y"}`}, true},
		{`toolscope 'mcp:npx -y server'`, []string{"toolscope", "mcp:npx -y server"}, true},
		{`toolscope lint --format sarif a.json > out.sarif || true`, []string{"toolscope", "lint", "--format", "sarif", "a.json"}, true},
		{`toolscope lint "a b.json"`, []string{"toolscope", "lint", "a b.json"}, true},
		{`toolscope lint 'a.json`, nil, false},
	}
	for _, tc := range cases {
		got, ok := shellWords(tc.line)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("shellWords(%q) = %q %v, want %q %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// readmeCommand is a `toolscope ...` line of the README's code blocks.
type readmeCommand struct {
	line int // 1-based
	text string
}

// readmeCommands are the toolscope command lines in the README's shell
// code blocks (and any line that starts with "toolscope " anywhere), in
// order.
func readmeCommands(t *testing.T) ([]readmeCommand, []string) {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []readmeCommand
	fence := ""
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "```") {
			if fence == "" {
				fence = strings.TrimPrefix(trimmed, "```")
				if fence == "" {
					fence = "text"
				}
			} else {
				fence = ""
			}
			continue
		}
		cmd := strings.TrimPrefix(trimmed, "$ ")
		if strings.HasPrefix(cmd, "toolscope ") && (fence == "sh" || fence == "" || fence == "text") {
			out = append(out, readmeCommand{i + 1, cmd})
		}
	}
	return out, lines
}

// The README's quick start runs as written: every toolscope command line
// up to its live-server section (and at least the first 80 lines) runs
// from the repository root, on the files the repository ships, and exits
// 0 or 1 (never a usage or input error). The lines after it, which need a
// live server or a file of the reader's own, name real commands and real
// flags.
func TestREADMECommandsRun(t *testing.T) {
	t.Setenv(cache.EnvDir, t.TempDir())
	cmds, lines := readmeCommands(t)
	live := slices.Index(lines, "## A live server") + 1
	if live < 80 {
		t.Fatalf("the live-server section starts at line %d: the first 80 lines must hold only commands that run here", live)
	}
	ran := 0
	for _, c := range cmds {
		words, ok := shellWords(c.text)
		if !ok || len(words) < 2 {
			t.Errorf("README.md:%d: %q does not parse as a command line", c.line, c.text)
			continue
		}
		args := words[1:]
		if c.line < live {
			// Off a terminal: the explorer lines print the report.
			code, out, errOut := runCmd("", args...)
			if code != 0 && code != 1 {
				t.Errorf("README.md:%d: `%s`: exit %d\n%s", c.line, c.text, code, errOut)
			}
			if out == "" {
				t.Errorf("README.md:%d: `%s` printed nothing", c.line, c.text)
			}
			ran++
			continue
		}
		checkFlags(t, c, args)
	}
	if ran < 5 {
		t.Errorf("only %d README commands ran: %v", ran, cmds)
	}
}

// checkFlags checks a command line names a real command and real flags,
// by each command's --help.
func checkFlags(t *testing.T, c readmeCommand, args []string) {
	t.Helper()
	var cmd []string
	if _, ok := commands[args[0]]; ok {
		cmd = args[:1]
	}
	_, help, _ := runCmd("", append(slices.Clone(cmd), "--help")...)
	if help == "" {
		t.Errorf("README.md:%d: `%s`: no help for %q", c.line, c.text, cmd)
		return
	}
	if len(cmd) == 0 && !strings.HasPrefix(args[0], "-") && !strings.Contains(args[0], ":") && !strings.Contains(args[0], ".") {
		t.Errorf("README.md:%d: `%s`: %q is no command", c.line, c.text, args[0])
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, _, _ := strings.Cut(a, "=")
		if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(name) + `\b`).MatchString(help) {
			t.Errorf("README.md:%d: `%s`: %s is not a flag of %q", c.line, c.text, name, cmd)
		}
	}
}

// The README's job with the action passes the action only inputs it
// declares, every required one, and uses the checkout it makes.
func TestREADMEActionJob(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- action -->\n```yaml\n(.*?)```\n").FindSubmatch(data)
	if m == nil {
		t.Fatal("the README has no action job")
	}
	var wf struct {
		Jobs map[string]struct {
			RunsOn string `yaml:"runs-on"`
			Steps  []struct {
				Uses string
				With map[string]string
			}
		}
	}
	if err := yaml.Unmarshal(m[1], &wf); err != nil {
		t.Fatalf("the action job is not YAML: %v", err)
	}
	var action struct {
		Inputs map[string]struct{ Required bool }
	}
	if err := yaml.Unmarshal(bytes.TrimSpace(mustReadBytes(t, "action.yml")), &action); err != nil {
		t.Fatal(err)
	}
	used := 0
	for _, job := range wf.Jobs {
		checkedOut := map[string]bool{}
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["path"] != "" {
				checkedOut["./"+s.With["path"]] = true
			}
			if !strings.HasPrefix(s.Uses, "./") {
				continue
			}
			used++
			if !checkedOut[s.Uses] {
				t.Errorf("%s is used before any step checks it out", s.Uses)
			}
			for k := range s.With {
				if _, ok := action.Inputs[k]; !ok {
					t.Errorf("the job passes %q, which action.yml does not declare", k)
				}
			}
			for k, in := range action.Inputs {
				if in.Required && s.With[k] == "" {
					t.Errorf("the job leaves out the required input %q", k)
				}
			}
		}
	}
	if used != 1 {
		t.Errorf("the action job uses the action %d times", used)
	}
}

func mustReadBytes(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The README is for the first five minutes: short, with the rest in docs/.
func TestREADMEIsShort(t *testing.T) {
	data := mustReadBytes(t, "README.md")
	if n := bytes.Count(data, []byte("\n")); n > 300 {
		t.Errorf("README.md has %d lines; at most 300 (move the detail into docs/)", n)
	}
	for _, link := range regexp.MustCompile(`\]\((docs/[^)#]+)`).FindAllSubmatch(data, -1) {
		if _, err := os.Stat(string(link[1])); err != nil {
			t.Errorf("README.md links %s: %v", link[1], err)
		}
	}
}
