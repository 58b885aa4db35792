package validate

import (
	"strings"
	"testing"
)

func TestParseArguments(t *testing.T) {
	cases := []struct {
		name, text string
		got        string // "" when the text parses
		wantNil    bool
	}{
		{"object", `{"a": 1}`, "", false},
		{"array parses (Validate judges its type)", `[1]`, "", false},
		{"empty text is no arguments", "", "", true},
		{"blank text is no arguments", " \n\t", "", true},
		{"truncated object", `{"volume_id": "vol-0a1b2c3d", "window":`, "truncated JSON at byte 39", true},
		{"truncated string", `{"volume_id": "vol-0a`, "truncated JSON at byte 21", true},
		{"truncated with trailing space", "{\"a\": 1 \n", "truncated JSON at byte 9", true},
		{"unparseable", `{"volume_id": yes please}`, "unparseable JSON at byte 14", true},
		{"trailing garbage", `{"a":1} x`, "unparseable JSON at byte 8", true},
		{"single quotes", `{'a': 1}`, "unparseable JSON at byte 1", true},
		{"nested past the parser's limit", strings.Repeat(`{"a":`, 600), "JSON nested deeper than 512 levels at byte 2560", true},
		{"nested past the limit, closed", strings.Repeat("[", 513) + strings.Repeat("]", 513), "JSON nested deeper than 512 levels at byte 512", true},
		{"invalid UTF-8", "{\"a\": \"\xff\"}", "unparseable JSON at byte 7", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, issues := ParseArguments(c.text)
			if (v == nil) != c.wantNil {
				t.Errorf("value = %v, want nil: %v", v, c.wantNil)
			}
			if c.got == "" {
				if len(issues) != 0 {
					t.Errorf("issues %+v, want none", issues)
				}
				return
			}
			want := Issue{Path: "", Expected: ExpectedArguments, Got: c.got}
			if len(issues) != 1 || issues[0] != want {
				t.Errorf("issues %+v, want [%+v]", issues, want)
			}
		})
	}
}

// TestTransportIssuesEchoNothing: the text of a broken call never reaches
// the issue, whatever it holds.
func TestTransportIssuesEchoNothing(t *testing.T) {
	_, issues := ParseArguments(`{"password": "hunter2", oops}`)
	text := FormatIssues("login", issues)
	if strings.Contains(text, "hunter2") || strings.Contains(text, "oops") {
		t.Errorf("transport issue echoes the call: %s", text)
	}
}
