package hygiene

import (
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// secretName reports whether a variable, header or option name names a
// credential.
func secretName(name string) bool {
	n := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(strings.TrimLeft(name, "-")))
	for _, not := range []string{"_ID", "_URL", "_URI", "_PATH", "_FILE", "_DIR", "_HOST", "_REGION", "_USER", "_USERNAME", "_NAME", "_TYPE", "_MODE", "_ENDPOINT"} {
		if strings.HasSuffix(n, not) {
			return false
		}
	}
	for _, w := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "CREDENTIAL", "AUTHORIZATION", "AUTH_KEY", "CLIENT_SECRET"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return strings.HasSuffix(n, "_KEY") || strings.HasSuffix(n, "_PAT") || n == "KEY" || n == "PAT"
}

// reference reports whether a value refers to a variable the host
// expands rather than holding a value.
func reference(v string) bool {
	if strings.Contains(v, "${") {
		return true
	}
	return regexp.MustCompile(`^\$[A-Za-z_]`).MatchString(v)
}

// placeholder reports whether a value is a README's stand-in for a
// secret, not one (`<YOUR_TOKEN>`, `your-api-key`, `xxxx`).
func placeholder(v string) bool {
	l := strings.ToLower(v)
	// A value naming its own kind (remote_api_token, my_secret) stands in
	// for one: real credentials are random.
	for _, w := range []string{"<", ">", "your", "xxx", "...", "…", "here", "changeme", "change_me", "replace", "example", "placeholder", "insert", "dummy", "todo", "redacted", "***",
		"_token", "token_", "api_key", "apikey", "_key", "secret", "password"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// pathLike reports whether a value is a file or a URL, as a credentials
// variable may name one.
func pathLike(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "./") || strings.Contains(v, `:\`) || strings.Contains(v, "://") ||
		strings.HasSuffix(v, ".json") || strings.HasSuffix(v, ".pem") || strings.HasSuffix(v, ".key")
}

// literalSecret reports whether v, the value of a credential's name, is a
// secret written out: long enough, no spaces, no reference, no stand-in,
// no path.
func literalSecret(v string) bool {
	v = strings.TrimSpace(v)
	return len(v) >= 8 && !strings.ContainsAny(v, " \t") && !reference(v) && !placeholder(v) && !pathLike(v) && v != strings.Repeat(v[:1], len(v))
}

func secretValue(name, v string) bool {
	return (secretName(name) && literalSecret(v)) || knownToken(v) != ""
}

// secretHeader: a credential header (Authorization, X-API-Key, ...) whose
// value, less its scheme, is a literal secret.
func secretHeader(name, v string) bool {
	if knownToken(v) != "" {
		return true
	}
	if !secretName(name) && !strings.EqualFold(name, "authorization") && !strings.EqualFold(name, "x-api-key") && !strings.EqualFold(name, "api-key") {
		return false
	}
	if scheme, rest, ok := strings.Cut(strings.TrimSpace(v), " "); ok && (strings.EqualFold(scheme, "bearer") || strings.EqualFold(scheme, "basic") || strings.EqualFold(scheme, "token")) {
		v = rest
	}
	return literalSecret(v)
}

// secretArg: args[k] is an option naming a credential with its value,
// `--api-key=VALUE` or `--api-key VALUE`, the value a literal secret.
func secretArg(args []string, k int) (flag, value string, ok bool) {
	a := args[k]
	if !strings.HasPrefix(a, "-") {
		return "", "", false
	}
	flag, value, inline := strings.Cut(a, "=")
	if !inline {
		if k+1 >= len(args) {
			return "", "", false
		}
		value = args[k+1]
	}
	if !secretName(flag) || !literalSecret(value) || strings.HasPrefix(value, "-") {
		return "", "", false
	}
	return flag, value, true
}

// The credential formats that are secrets wherever they stand.
var knownTokens = []struct {
	what string
	re   *regexp.Regexp
}{
	{"a GitHub token", regexp.MustCompile(`\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})`)},
	{"an OpenAI or Anthropic key", regexp.MustCompile(`\bsk-(ant-)?[A-Za-z0-9_-]{30,}`)},
	{"a Slack token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{20,}`)},
	{"an AWS access key", regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`)},
	{"a Google API key", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{"a GitLab token", regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`)},
}

// knownToken names the credential format v holds, "" when none. The
// stand-in test looks at the credential itself, not at what surrounds it:
// a URL whose other parameter is ${API_KEY} still holds the token.
func knownToken(v string) string {
	for _, k := range knownTokens {
		for _, m := range k.re.FindAllString(v, -1) {
			if !placeholder(m) {
				return k.what
			}
		}
	}
	return ""
}

// headerOptions are the options that give a remote server's client a
// request header ("Name: value"): mcp-remote's --header, curl's -H.
var headerOptions = map[string]bool{"--header": true, "-H": true}

// headerArg: args[k] is a header option (`--header "Authorization: Bearer
// ..."` or `--header=...`) whose header carries a literal credential; name
// is the header's, at the index of the argument holding its value.
func headerArg(args []string, k int) (name string, at int, ok bool) {
	opt, value, inline := strings.Cut(args[k], "=")
	if !headerOptions[opt] {
		return "", 0, false
	}
	at = k
	if !inline {
		if k+1 >= len(args) {
			return "", 0, false
		}
		at, value = k+1, args[k+1]
	}
	name, v, found := strings.Cut(value, ":")
	name = strings.TrimSpace(name)
	if !found || name == "" || !secretHeader(name, strings.TrimSpace(v)) {
		return "", 0, false
	}
	return name, at, true
}

// secretQuery names a URL's query parameter that carries a literal secret.
func secretQuery(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	q := u.Query()
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range q[name] {
			if secretName(name) && literalSecret(v) {
				return name
			}
		}
	}
	return ""
}
