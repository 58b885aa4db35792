package hygiene

import (
	"net/url"
	"regexp"
	"strings"
)

// Redacted stands where a secret was: a report (text, JSON, SARIF, a
// GitHub annotation in a public CI log) never repeats one.
const Redacted = "***"

// urlPattern finds URLs inside a longer text (an argument, a message).
var urlPattern = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>` + "`" + `]+`)

// Redact is s with every secret it holds replaced by Redacted: each URL's
// password and secret query values (RedactURL), and every credential of a
// known format (a GitHub token, an OpenAI key, ...).
func Redact(s string) string {
	s = urlPattern.ReplaceAllStringFunc(s, RedactURL)
	for _, k := range knownTokens {
		s = k.re.ReplaceAllString(s, Redacted)
	}
	return s
}

// RedactURL is the URL u with its password and the values of its secret
// query parameters (api_key, token, key, secret, access_token, ...)
// replaced by Redacted, every other byte as written:
// http://alice:***@host/mcp?api_key=***. A value that refers to a
// variable (${TOKEN}) holds no secret and is kept.
func RedactURL(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		user, pass, hasPass := strings.Cut(authority[:at], ":")
		switch {
		case hasPass && pass != "" && !reference(pass):
			authority = user + ":" + Redacted + authority[at:]
		case !hasPass && len(user) >= 20 && literalSecret(user):
			// A token given as the user name (https://TOKEN@github.com).
			authority = Redacted + authority[at:]
		}
	}
	path, query, hasQuery := strings.Cut(tail, "?")
	if !hasQuery {
		return scheme + "://" + authority + tail
	}
	query, frag, hasFrag := strings.Cut(query, "#")
	parts := strings.Split(query, "&")
	for k, p := range parts {
		name, value, ok := strings.Cut(p, "=")
		if !ok || value == "" {
			continue
		}
		if secretParam(name) && !reference(unescape(value)) {
			parts[k] = name + "=" + Redacted
		}
	}
	out := scheme + "://" + authority + path + "?" + strings.Join(parts, "&")
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// secretParam reports whether a query parameter's name names a credential
// (api_key, token, key, sig, ...).
func secretParam(name string) bool {
	n := unescape(name)
	if secretName(n) {
		return true
	}
	switch strings.ToLower(n) {
	case "sig", "signature", "auth", "pass", "pwd", "code", "session", "sessionid":
		return true
	}
	return false
}

func unescape(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// urlPassword is the password a URL's authority carries, "" when none.
func urlPassword(u string) string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return ""
	}
	_, pass, _ := strings.Cut(rest[:at], ":")
	return unescape(pass)
}
