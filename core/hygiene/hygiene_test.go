package hygiene

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"toolscope/core/lint"
)

// The fixture holds each problem once: exactly one finding for each,
// located where the problem is written.
func TestProblemsFixture(t *testing.T) {
	data, err := os.ReadFile("testdata/problems.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Check("problems.json", data, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ rule, server, field, at string }{
		{RuleUnpinned, "github", "args[1]", `"@modelcontextprotocol/server-github"`},
		{RuleUnpinned, "brave", "args[1]", `"@brave/brave-search-mcp-server@latest"`},
		{RuleUnpinned, "fetch", "args[0]", `"mcp-server-fetch"`},
		{RuleUnpinned, "grafana", "args[5]", `"mcp/grafana"`},
		{RuleUnpinned, "redis", "args[3]", `"mcp/redis:latest"`},
		{RuleInlineSecret, "slack", "env.SLACK_BOT_TOKEN", `"xoxb-`},
		{RuleInlineSecret, "linear", "headers.Authorization", `"Bearer lin_api`},
		{RuleInlineSecret, "search", "args[2]", `"k3y9Fq2LmZx81Pw"`},
		{RulePlainHTTP, "internal", "url", `"http://mcp.internal.example.org:8080/sse"`},
		{RuleShellCommand, "admin", "command", `"sudo"`},
		{RuleShellCommand, "legacy", "command", `"bash"`},
		{RuleSecretsReadable, "slack", "env.SLACK_BOT_TOKEN", `"xoxb-`},
	}
	lines := strings.Split(string(data), "\n")
	if len(got) != len(want) {
		for _, f := range got {
			t.Logf("%s %s.%s %d:%d %s", f.Rule, f.Server, f.Field, f.Line, f.Column, f.Message)
		}
		t.Fatalf("%d findings, want %d", len(got), len(want))
	}
	for k, w := range want {
		f := got[k]
		if f.Rule != w.rule || f.Server != w.server || f.Field != w.field {
			t.Errorf("finding %d: %s on %s.%s, want %s on %s.%s", k, f.Rule, f.Server, f.Field, w.rule, w.server, w.field)
			continue
		}
		if f.Line < 1 || f.Line > len(lines) || f.Column < 1 || !strings.HasPrefix(string([]rune(lines[f.Line-1])[f.Column-1:]), w.at) {
			t.Errorf("%s on %s.%s at %d:%d, not at %s", f.Rule, f.Server, f.Field, f.Line, f.Column, w.at)
		}
		if f.Message == "" || strings.Contains(f.Message, "xoxb-2214459") || strings.Contains(f.Message, "k3y9Fq2") {
			t.Errorf("%s: message %q (empty, or repeats the secret)", f.Rule, f.Message)
		}
	}
}

func TestCleanFixture(t *testing.T) {
	data, err := os.ReadFile("testdata/clean.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Check("clean.json", data, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range got {
		t.Errorf("clean config: %s on %s.%s: %s", f.Rule, f.Server, f.Field, f.Message)
	}
}

// A private file with secrets gets no readable-secrets finding; one the
// group alone can read does.
func TestSecretsReadable(t *testing.T) {
	doc := []byte(`{"mcpServers": {"s": {"command": "x", "env": {"API_TOKEN": "a8Fq2LmZx81PwQ"}}}}`)
	for _, tc := range []struct {
		mode  os.FileMode
		count int
		words string
	}{
		{0o600, 0, ""},
		{0, 0, ""},
		{0o640, 1, "the file's group can read it"},
		{0o604, 1, "other users can read it"},
	} {
		got, err := Check("c.json", doc, tc.mode)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range got {
			if f.Rule == RuleSecretsReadable {
				n++
				if !strings.Contains(f.Message, tc.words) {
					t.Errorf("mode %o: %q lacks %q", tc.mode, f.Message, tc.words)
				}
			}
		}
		if n != tc.count {
			t.Errorf("mode %o: %d readable-secrets findings, want %d", tc.mode, n, tc.count)
		}
	}
}

func TestUnpinned(t *testing.T) {
	for _, tc := range []struct {
		command string
		args    []string
		flagged bool
	}{
		{"npx", []string{"-y", "pkg"}, true},
		{"npx", []string{"-y", "pkg@1.2.3"}, false},
		{"npx", []string{"-y", "@scope/pkg"}, true},
		{"npx", []string{"-y", "@scope/pkg@^1.2"}, true},
		{"npx", []string{"-y", "@scope/pkg@next"}, true},
		{"npx", []string{"-y", "@scope/pkg@v2.0.1"}, false},
		{"npx", []string{"-y", "-p", "pkg", "bin"}, true},
		{"npx", []string{"--package=pkg@3.0.0", "bin"}, false},
		{"npx", []string{"./local/server.js"}, false},
		{"/usr/local/bin/npx", []string{"pkg"}, true},
		{"npx.cmd", []string{"pkg@1.0.0"}, false},
		{"pnpm", []string{"dlx", "pkg"}, true},
		{"bunx", []string{"pkg@1.0.0"}, false},
		{"uvx", []string{"mcp-server-time"}, true},
		{"uvx", []string{"mcp-server-time==0.6.2"}, false},
		{"uvx", []string{"mcp-server-time@latest"}, true},
		{"uvx", []string{"mcp-server-time>=0.6"}, true},
		{"uvx", []string{"--from", "git+https://github.com/x/y", "y"}, false},
		{"uvx", []string{"--python", "3.12", "pkg==1.0"}, false},
		{"uv", []string{"tool", "run", "pkg"}, true},
		{"pipx", []string{"run", "pkg==1.0"}, false},
		{"docker", []string{"run", "-i", "--rm", "org/img"}, true},
		{"docker", []string{"run", "-i", "--rm", "img"}, false}, // built locally, most often
		{"docker", []string{"run", "-i", "--rm", "-e", "TOKEN", "org/img:1.2"}, false},
		{"docker", []string{"run", "-v", "/a:/b", "ghcr.io/org/img:latest"}, true},
		{"docker", []string{"run", "localhost:5000/img"}, true},
		{"docker", []string{"run", "localhost:5000/img:2"}, false},
		{"docker", []string{"run", "org/img@sha256:abc"}, false},
		{"docker", []string{"ps"}, false},
		{"cmd", []string{"/c", "npx", "-y", "pkg"}, true},
		{"cmd", []string{"/c", "npx", "-y", "pkg@1.0.0"}, false},
		{"node", []string{"server.js"}, false},
		{"npx", []string{"-y", "github:org/repo#main"}, true},
		{"npx", []string{"-y", "github:org/repo"}, true},
		{"npx", []string{"-y", "github:org/repo#4f2a9c1d"}, false},
	} {
		doc := fmt.Sprintf(`{"mcpServers": {"s": {"command": %q, "args": [%s]}}}`, tc.command, quoted(tc.args))
		got, err := Check("c.json", []byte(doc), 0)
		if err != nil {
			t.Fatal(err)
		}
		flagged := false
		for _, f := range got {
			flagged = flagged || f.Rule == RuleUnpinned
		}
		if flagged != tc.flagged {
			t.Errorf("%s %v: unpinned %v, want %v", tc.command, tc.args, flagged, tc.flagged)
		}
	}
}

func TestSecrets(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		secret      bool
	}{
		{"GITHUB_TOKEN", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", true},
		{"API_KEY", "a8Fq2LmZx81PwQ", true},
		{"API_KEY", "${API_KEY}", false},
		{"API_KEY", "${env:API_KEY}", false},
		{"API_KEY", "$API_KEY", false},
		{"API_KEY", "<your-api-key>", false},
		{"API_KEY", "your_api_key_here", false},
		{"API_KEY", "sk-xxxxxxxx", false},
		{"API_KEY", "short", false},
		{"Authorization", "remote_api_token", false},
		{"API_KEY", "my_secret_value", false},
		{"AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPL2", true}, // a known format, whatever the name
		{"CLIENT_ID", "a8Fq2LmZx81PwQ", false},
		{"GOOGLE_APPLICATION_CREDENTIALS", "/home/me/key.json", false},
		{"LOG_LEVEL", "a8Fq2LmZx81PwQ", false},
		{"DB_PASSWORD", "hunter2hunter2", true},
		{"REDIS_URL", "redis://localhost:6379", false},
	} {
		if got := secretValue(tc.name, tc.value); got != tc.secret {
			t.Errorf("%s=%q: secret %v, want %v", tc.name, tc.value, got, tc.secret)
		}
	}
}

func TestPlainHTTP(t *testing.T) {
	for _, tc := range []struct {
		url    string
		remote bool
	}{
		{"http://localhost:8080/mcp", false},
		{"http://127.0.0.1:3000/sse", false},
		{"http://[::1]:3000/mcp", false},
		{"http://mcp.example.com/mcp", true},
		{"http://192.168.1.20:8000/mcp", true},
		{"https://mcp.example.com/mcp", false},
		{"HTTP://Example.com", true},
	} {
		if got := plainRemote(tc.url); got != tc.remote {
			t.Errorf("%s: plain remote %v, want %v", tc.url, got, tc.remote)
		}
	}
}

func TestBadDocuments(t *testing.T) {
	for _, tc := range []struct{ doc, err string }{
		{`{"mcpServers": `, "c.json:1:16: not valid JSON"},
		{`[]`, `want an object with "mcpServers"`},
		{`{"servers": 3}`, `want an object with "mcpServers"`},
	} {
		_, err := Check("c.json", []byte(tc.doc), 0)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.doc, err, tc.err)
		}
	}
}

func quoted(args []string) string {
	q := make([]string, len(args))
	for k, a := range args {
		q[k] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, ", ")
}

// The rule ids and severities here are the lint's config rules'.
func TestRulesAreTheLints(t *testing.T) {
	severity := map[string]Severity{RuleUnpinned: Warn, RuleInlineSecret: Warn, RulePlainHTTP: Warn, RuleShellCommand: Warn, RuleSecretsReadable: Error}
	rules := lint.ConfigRules()
	if len(rules) != len(severity) {
		t.Fatalf("%d config rules in the lint, %d here", len(rules), len(severity))
	}
	for _, r := range rules {
		if s, ok := severity[r.ID]; !ok || string(s) != string(r.Severity) {
			t.Errorf("lint rule %s (%s): here %q", r.ID, r.Severity, s)
		}
	}
}

// No finding's message repeats a URL's password or a secret query value,
// in url or in an args item, whatever else the finding says.
func TestMessagesRedactURLs(t *testing.T) {
	doc := `{"mcpServers": {
  "remote": {"url": "http://alice:hunter2pass@mcp.example.com/mcp?api_key=Zq81LmPx4Fa9&mode=fast", "disabled": true},
  "bridge": {"command": "npx", "args": ["-y", "mcp-remote@1.2.3", "http://bob:s3cretPw99@mcp.example.com/sse?token=Tk7Hq2Lm9Pz4&x=1"]}
}}`
	got, err := Check("c.json", []byte(doc), 0)
	if err != nil {
		t.Fatal(err)
	}
	plain := 0
	for _, f := range got {
		for _, secret := range []string{"hunter2pass", "Zq81LmPx4Fa9", "s3cretPw99", "Tk7Hq2Lm9Pz4"} {
			if strings.Contains(f.Message, secret) {
				t.Errorf("%s on %s.%s repeats %q: %s", f.Rule, f.Server, f.Field, secret, f.Message)
			}
		}
		if f.Rule == RulePlainHTTP {
			plain++
			if !strings.Contains(f.Message, "alice:***@") && !strings.Contains(f.Message, "bob:***@") {
				t.Errorf("plain-http message does not show the redacted URL: %s", f.Message)
			}
		}
	}
	if plain != 2 {
		t.Errorf("%d config-plain-http findings, want 2: %+v", plain, got)
	}
}

func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://alice:hunter2pass@host/mcp?api_key=abc123&mode=x", "http://alice:***@host/mcp?api_key=***&mode=x"},
		{"https://host/sse?token=T0k&access_token=A1&key=K&secret=S&client_secret=C#frag", "https://host/sse?token=***&access_token=***&key=***&secret=***&client_secret=***#frag"},
		{"https://host/sse?api_key=${API_KEY}&token=literal", "https://host/sse?api_key=${API_KEY}&token=***"},
		{"https://alice@host/x", "https://alice@host/x"},
		{"git+https://a8Fq2LmZx81PwQzK3y9Fq2Lm@github.com/o/r", "git+https://***@github.com/o/r"},
		{"https://host/x?client_id=abc", "https://host/x?client_id=abc"},
		{"--url=http://u:p4ss@h/x", "--url=http://u:***@h/x"},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// config-inline-secret finds mcp-remote's header credential in both
// forms, a URL's password, secret query values in args URLs, and judges a
// stand-in by the value itself.
func TestInlineSecretsInArgs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		field string // "" for no finding
	}{
		{"header, two arguments", []string{"mcp-remote@1.2.3", "https://mcp.example.com/sse", "--header", "Authorization: Bearer a8Fq2LmZx81PwQz"}, "args[3]"},
		{"header, one argument", []string{"mcp-remote@1.2.3", "https://mcp.example.com/sse", "--header=Authorization:Bearer a8Fq2LmZx81PwQz"}, "args[2]"},
		{"header from a variable", []string{"mcp-remote@1.2.3", "https://mcp.example.com/sse", "--header", "Authorization:${AUTH_HEADER}"}, ""},
		{"header with a stand-in", []string{"mcp-remote@1.2.3", "https://mcp.example.com/sse", "--header", "Authorization: Bearer <your-token>"}, ""},
		{"a harmless header", []string{"mcp-remote@1.2.3", "https://mcp.example.com/sse", "--header", "Accept: text/event-stream"}, ""},
		{"password in a URL", []string{"mcp-remote@1.2.3", "https://alice:hunter2pass@mcp.example.com/sse"}, "args[1]"},
		{"secret query in a URL", []string{"mcp-remote@1.2.3", "https://mcp.example.com/sse?api_key=Zq81LmPx4Fa9wq"}, "args[1]"},
		{"a reference in one parameter excuses no literal in another", []string{"mcp-remote@1.2.3", "https://mcp.example.com/sse?api_key=${API_KEY}&token=ghp_abcdefghijklmnopqrstuvwxyz0123456789"}, "args[1]"},
		{"a reference in one parameter, a literal secret in another", []string{"mcp-remote@1.2.3", "https://mcp.example.com/sse?api_key=${API_KEY}&token=Tk7Hq2Lm9Pz4wq"}, "args[1]"},
		{"references only", []string{"mcp-remote@1.2.3", "https://mcp.example.com/sse?api_key=${API_KEY}"}, ""},
		{"a password from a variable", []string{"mcp-remote@1.2.3", "https://alice:${PASSWORD}@mcp.example.com/sse"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := fmt.Sprintf(`{"mcpServers": {"s": {"command": "npx", "args": [%s]}}}`, quoted(tc.args))
			got, err := Check("c.json", []byte(doc), 0)
			if err != nil {
				t.Fatal(err)
			}
			var fields []string
			for _, f := range got {
				if f.Rule == RuleInlineSecret {
					fields = append(fields, f.Field)
					for _, secret := range []string{"a8Fq2LmZx81PwQz", "hunter2pass", "Zq81LmPx4Fa9wq", "Tk7Hq2Lm9Pz4wq", "ghp_abc"} {
						if strings.Contains(f.Message, secret) {
							t.Errorf("message repeats the secret: %s", f.Message)
						}
					}
				}
			}
			want := []string{}
			if tc.field != "" {
				want = []string{tc.field}
			}
			if strings.Join(fields, ",") != strings.Join(want, ",") {
				t.Errorf("config-inline-secret on %v, want %v", fields, want)
			}
		})
	}
}

// A VS Code mcp.json with comments and trailing commas is read, and a
// file whose lines end in CR alone is located by its lines.
func TestConfigJSONCAndCRLines(t *testing.T) {
	jsonc := "// workspace servers\n{\n  \"servers\": {\n    /* remote */\n    \"r\": {\"url\": \"http://mcp.example.com/mcp\",},\n  },\n}\n"
	for _, tc := range []struct {
		name, doc string
		line      int
	}{
		{"JSONC", jsonc, 5},
		{"CR only", strings.ReplaceAll(jsonc, "\n", "\r"), 5},
		{"CRLF", strings.ReplaceAll(jsonc, "\n", "\r\n"), 5},
	} {
		got, err := Check("mcp.json", []byte(tc.doc), 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(got) != 1 || got[0].Rule != RulePlainHTTP || got[0].Line != tc.line || got[0].Column != 18 {
			t.Errorf("%s: %+v, want config-plain-http at %d:18", tc.name, got, tc.line)
		}
	}
}

// A URL in an env value (DATABASE_URL) holding a password is a secret
// written inline, though the variable's name is no credential's.
func TestInlineSecretInEnvURL(t *testing.T) {
	for _, tc := range []struct {
		value string
		found bool
	}{
		{"postgres://app:hunter2pass@db.example.com:5432/app", true},
		{"postgres://app:${DB_PASSWORD}@db.example.com:5432/app", false},
		{"postgres://app@db.example.com:5432/app", false},
		{"https://api.example.com/v1?token=Tk7Hq2Lm9Pz4wq", true},
	} {
		doc := fmt.Sprintf(`{"mcpServers": {"db": {"command": "db-mcp", "env": {"DATABASE_URL": %q}}}}`, tc.value)
		got, err := Check("c.json", []byte(doc), 0)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, f := range got {
			if f.Rule == RuleInlineSecret && f.Field == "env.DATABASE_URL" {
				found = true
				if strings.Contains(f.Message, "hunter2pass") || strings.Contains(f.Message, "Tk7Hq2") {
					t.Errorf("message repeats the secret: %s", f.Message)
				}
			}
		}
		if found != tc.found {
			t.Errorf("DATABASE_URL=%s: found %v, want %v", tc.value, found, tc.found)
		}
	}
}
