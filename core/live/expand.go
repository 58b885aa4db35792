package live

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Getenv looks a variable up; ok is false when it is not set.
type Getenv func(name string) (value string, ok bool)

// expander replaces the variable references hosts allow in their configs:
// `${NAME}`, `${env:NAME}` (Cursor, VS Code), `${NAME:-default}` (Claude
// Code), `$NAME`, and VS Code's `${workspaceFolder}` and `${userHome}`.
// `$$` is a literal dollar sign; a `$` that starts nothing stays as it is.
type expander struct {
	getenv Getenv
	// workspace is what ${workspaceFolder} means, "" when unknown.
	workspace string
	// fromEnv, when set, collects every value taken from the environment:
	// they are scrubbed from every message, wherever they were expanded.
	fromEnv *[]string
}

// workspaceOf is the folder a config file serves: its own folder, or the
// project above it for VS Code's .vscode/mcp.json.
func workspaceOf(configPath string) string {
	dir, err := filepath.Abs(filepath.Dir(configPath))
	if err != nil {
		return ""
	}
	if filepath.Base(dir) == ".vscode" {
		return filepath.Dir(dir)
	}
	return dir
}

// expand returns s with its references replaced. An unset variable with no
// default is an error naming the variable (never a value).
func (e expander) expand(s string) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch next := s[i+1]; {
		case next == '$':
			b.WriteByte('$')
			i++
		case next == '{':
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return "", errors.New("unterminated ${")
			}
			v, err := e.reference(s[i+2 : i+2+end])
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i += end + 2
		case isNameStart(next):
			j := i + 1
			for j < len(s) && isNameChar(s[j]) {
				j++
			}
			v, err := e.variable(s[i+1:j], "", false)
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i = j - 1
		default:
			b.WriteByte('$')
		}
	}
	return b.String(), nil
}

func (e expander) reference(ref string) (string, error) {
	switch {
	case ref == "workspaceFolder" && e.workspace != "":
		return e.workspace, nil
	case ref == "userHome":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("${userHome}: %w", err)
		}
		return home, nil
	case strings.HasPrefix(ref, "env:"):
		return e.variable(strings.TrimPrefix(ref, "env:"), "", false)
	case strings.HasPrefix(ref, "input:"):
		return "", fmt.Errorf("${%s} asks the editor for a value; put the value in the environment and write ${env:NAME} instead", ref)
	}
	name, def, hasDef := strings.Cut(ref, ":-")
	return e.variable(name, def, hasDef)
}

func (e expander) variable(name, def string, hasDef bool) (string, error) {
	if name == "" || !isNameStart(name[0]) || strings.IndexFunc(name, func(r rune) bool { return r > 127 || !isNameChar(byte(r)) }) >= 0 {
		return "", fmt.Errorf("${%s} is not a variable reference this tool knows", name)
	}
	if v, ok := e.getenv(name); ok && (v != "" || !hasDef) {
		if e.fromEnv != nil {
			*e.fromEnv = append(*e.fromEnv, v)
		}
		return v, nil
	}
	if hasDef {
		return def, nil
	}
	return "", fmt.Errorf("environment variable %s is not set", name)
}

func isNameStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isNameChar(c byte) bool { return isNameStart(c) || (c >= '0' && c <= '9') }
