package live

import (
	"strings"
	"testing"
)

func fakeEnv(vars map[string]string) Getenv {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

func TestExpand(t *testing.T) {
	e := expander{getenv: fakeEnv(map[string]string{"TOKEN": "abc", "EMPTY": ""}), workspace: "/proj"}
	cases := []struct{ in, want, err string }{
		{in: "Bearer $TOKEN", want: "Bearer abc"},
		{in: "Bearer ${TOKEN}!", want: "Bearer abc!"},
		{in: "${env:TOKEN}", want: "abc"},
		{in: "${MISSING:-fallback}", want: "fallback"},
		{in: "${EMPTY:-fallback}", want: "fallback"},
		{in: "${EMPTY}", want: ""},
		{in: "${workspaceFolder}/db", want: "/proj/db"},
		{in: "cost $$5 and $ alone and $1", want: "cost $5 and $ alone and $1"},
		{in: "trailing $", want: "trailing $"},
		{in: "no references", want: "no references"},
		{in: "$MISSING", err: "environment variable MISSING is not set"},
		{in: "${env:MISSING}", err: "environment variable MISSING is not set"},
		{in: "${input:token}", err: "${input:token} asks the editor for a value"},
		{in: "${TOKEN", err: "unterminated ${"},
		{in: "${not a name}", err: "is not a variable reference"},
	}
	for _, tc := range cases {
		got, err := e.expand(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("expand(%q) error %v, want %q", tc.in, err, tc.err)
			}
			if err != nil && strings.Contains(err.Error(), "abc") {
				t.Errorf("expand(%q) error echoes a value: %v", tc.in, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("expand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestWorkspaceOfAVSCodeConfigIsTheProject(t *testing.T) {
	if got := workspaceOf("/proj/.vscode/mcp.json"); got != "/proj" {
		t.Errorf("workspaceOf(.vscode/mcp.json) = %q", got)
	}
	if got := workspaceOf("/proj/.mcp.json"); got != "/proj" {
		t.Errorf("workspaceOf(.mcp.json) = %q", got)
	}
}

func TestParseHeader(t *testing.T) {
	env := fakeEnv(map[string]string{"TOKEN": "s3cret"})
	cases := []struct{ line, name, value, err string }{
		{line: "Authorization: Bearer $TOKEN", name: "Authorization", value: "Bearer s3cret"},
		{line: "X-Api-Key:${TOKEN}", name: "X-Api-Key", value: "s3cret"},
		{line: "X-Empty:", name: "X-Empty", value: ""},
		{line: "no colon", err: "a header is written 'Name: value'"},
		{line: ": v", err: "a header is written 'Name: value'"},
		{line: "Authorization: Bearer $NOPE", err: "header Authorization: environment variable NOPE is not set"},
	}
	for _, tc := range cases {
		name, value, err := ParseHeader(tc.line, env)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("ParseHeader(%q) error %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil || name != tc.name || value != tc.value {
			t.Errorf("ParseHeader(%q) = %q, %q, %v", tc.line, name, value, err)
		}
	}
}

func FuzzExpand(f *testing.F) {
	for _, s := range []string{"$A ${B} ${env:C} ${D:-x} $$ $", "${", "${input:x}", "${workspaceFolder}"} {
		f.Add(s)
	}
	e := expander{getenv: fakeEnv(map[string]string{"A": "1", "B": ""}), workspace: "/w"}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := e.expand(s)
		if err == nil && !strings.Contains(s, "$") && out != s {
			t.Fatalf("expand changed %q without a reference: %q", s, out)
		}
	})
}
