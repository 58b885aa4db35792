package main

import (
	"strings"
	"testing"
)

// probe with no API key for OpenAI's own API says what is missing in one
// line, before estimating or sending anything; --fix's judge too.
func TestProbeWithoutAKey(t *testing.T) {
	clearJudgeEnv(t)
	for _, args := range [][]string{
		{"probe", "--model", "openai:gpt-4.1-mini", "testdata/diff/v1.json"},
		{"probe", "--model", "openai:gpt-4.1-mini", "--model-url", "https://api.openai.com/v1", "testdata/diff/v1.json"},
	} {
		code, out, errOut := runCmd("", args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 ||
			!strings.Contains(errOut, "no API key for openai:gpt-4.1-mini at api.openai.com: set $TOOLSCOPE_JUDGE_KEY or $OPENAI_API_KEY") ||
			!strings.Contains(errOut, "nothing was sent") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	// A key found, or another server, is left to answer.
	t.Setenv("OPENAI_API_KEY", "sk-test-not-real")
	if code, _, errOut := runCmd("", "probe", "--model", "openai:gpt-4.1-mini", "--max-cost", "0", "testdata/diff/v1.json"); strings.Contains(errOut, "no API key") {
		t.Errorf("with a key: exit %d, %q", code, errOut)
	}
}
