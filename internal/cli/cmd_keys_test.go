package cli

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

// "No limit" is -1 for every flag that has one; the old 0 still works.
func TestNoLimitIsMinusOne(t *testing.T) {
	for _, args := range [][]string{
		{"lint", "--rank-limit", "-1", "--embedder", "mock", "testdata/diff/v1.json"},
		{"lint", "--rank-limit", "0", "--embedder", "mock", "testdata/diff/v1.json"},
		{"lint", "--max-warnings", "-1", "--no-similarity", "testdata/diff/v1.json"},
		{"lint", "--judge-max-pairs", "-1", "--no-similarity", "testdata/diff/v1.json"},
	} {
		if code, _, errOut := runCmd("", args...); code == 2 {
			t.Errorf("%q: %s", args, errOut)
		}
	}
	for _, args := range [][]string{
		{"lint", "--rank-limit", "-2", "--embedder", "mock", "testdata/diff/v1.json"},
		{"lint", "--judge-max-pairs", "-2", "--no-similarity", "testdata/diff/v1.json"},
	} {
		if code, _, errOut := runCmd("", args...); code != 2 || !strings.Contains(errOut, "-1: no limit") {
			t.Errorf("%q: exit %d, %q", args, code, errOut)
		}
	}
	// Help names every value in capitals; a one-letter flag shows one dash.
	_, out, _ := runCmd("", "snapshot", "--help")
	if !strings.Contains(out, "\n  -o FILE ") || strings.Contains(out, "--o ") {
		t.Errorf("snapshot --help:\n%s", out)
	}
	for _, cmd := range []string{"lint", "probe", "judge", "diff", "snapshot"} {
		_, out, _ := runCmd("", cmd, "--help")
		for _, word := range []string{" int ", " string ", " float "} {
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "  -") && strings.Contains(line[:min(len(line), 27)], word) {
					t.Errorf("%s --help: %q", cmd, line)
				}
			}
		}
	}
}

// probe's model flags share one prefix (--model, --model-url,
// --model-price, --model-concurrency); the old spellings still work.
func TestProbeModelConcurrency(t *testing.T) {
	clearJudgeEnv(t)
	for _, flag := range []string{"--model-concurrency", "--concurrency"} {
		code, _, errOut := runCmd("", "probe", "--model", "openai:m", flag, "0", "testdata/diff/v1.json")
		if code != 2 || !strings.Contains(errOut, "--model-concurrency 0 is outside 1..64") {
			t.Errorf("%s 0: exit %d, %q", flag, code, errOut)
		}
	}
}
