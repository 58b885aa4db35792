package live

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Prefix starts a CATALOG argument naming a stdio server's command line.
const Prefix = "mcp:"

// Spec says how to reach one MCP server: a command to start (stdio) or a URL
// (Streamable HTTP).
type Spec struct {
	// Name is the server's key in an mcp-config file; tool names from a
	// named server are qualified by it. "" for a lone server.
	Name string
	// Config is the mcp-config file the spec came from, for messages.
	Config string

	// Command and Args start a stdio server.
	Command string
	Args    []string
	// Env is added to toolscope's own environment for the child.
	Env map[string]string

	// URL is a Streamable HTTP endpoint, or an HTTP+SSE one when SSE is set
	// (the transport MCP had before Streamable HTTP, still in many configs).
	URL string
	SSE bool
	// Headers are sent with every HTTP request. Their values never appear
	// in any message.
	Headers map[string]string
}

// IsLive reports whether a CATALOG argument names a live server rather than
// a file.
func IsLive(arg string) bool {
	return strings.HasPrefix(arg, Prefix) || isURL(arg)
}

func isURL(arg string) bool {
	lower := strings.ToLower(arg)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
}

// ParseArg reads a live CATALOG argument: `mcp:COMMAND ARGS...` (split the
// way a POSIX shell splits words, quotes and backslashes included) or an
// http(s):// URL.
func ParseArg(arg string) (Spec, error) {
	switch {
	case strings.HasPrefix(arg, Prefix):
		words, err := SplitWords(strings.TrimPrefix(arg, Prefix))
		if err != nil {
			return Spec{}, fmt.Errorf("%s: %w", arg, err)
		}
		if len(words) == 0 {
			return Spec{}, errors.New("mcp: needs a command, as in mcp:npx -y @modelcontextprotocol/server-everything")
		}
		return Spec{Command: words[0], Args: words[1:]}, nil
	case isURL(arg):
		u, err := url.Parse(arg)
		if err != nil || u.Host == "" {
			return Spec{}, fmt.Errorf("%s: not a valid URL", redactURL(arg))
		}
		return Spec{URL: arg}, nil
	default:
		return Spec{}, fmt.Errorf("%s: not a live source (want mcp:COMMAND or an http(s):// URL)", arg)
	}
}

// String names the server in messages and as the catalog's source: the
// command line, the URL without credentials or query, or the config
// server's name.
func (s Spec) String() string {
	switch {
	case s.Name != "":
		return fmt.Sprintf("server %q (%s)", s.Name, s.Config)
	case s.URL != "":
		return redactURL(s.URL)
	default:
		return Prefix + JoinWords(append([]string{s.Command}, s.Args...))
	}
}

// redactURL drops the user info and the query, where tokens hide.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			raw = raw[:i]
		}
		return raw
	}
	u.User = nil
	if u.RawQuery != "" {
		u.RawQuery = "…"
	}
	u.Fragment = ""
	return u.String()
}

// SplitWords splits a command line the way a POSIX shell splits words:
// blanks separate, single quotes keep everything, double quotes keep all
// but `\"`, `\\`, `\$` and “ \` “, and a backslash outside quotes keeps
// the next character. No expansion is done.
func SplitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) && strings.IndexByte("\"\\$`", s[j+1]) >= 0 {
					j++
				}
				cur.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
			i = j
			inWord = true
		case c == '\\':
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// JoinWords quotes words so SplitWords gives them back: plain words stay
// as they are, others are single-quoted.
func JoinWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = quoteWord(w)
	}
	return strings.Join(out, " ")
}

func quoteWord(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
