package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"toolscope/embed/cache"
)

// `toolscope cache` shows the store a lint filled, and `cache clear`
// removes it (and the old format's files), keeping the judgments.
func TestCacheCommandShowsAndClears(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(cache.EnvDir, dir)
	code, out, errOut := runCmd("", "cache")
	if code != 0 || !strings.Contains(out, "empty (no store yet)") || !strings.Contains(out, dir) {
		t.Fatalf("an empty cache: exit %d\n%s%s", code, out, errOut)
	}
	// A catalog of its own: the demo's patterns would be compiled, and
	// their warnings spent, before the tests that want them.
	catalog := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(catalog, []byte(`{"tools": [
		{"name": "get_weather", "description": "Current weather for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}},
		{"name": "get_forecast", "description": "Five-day forecast for a city.", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}]}`), 0o600)
	if code, _, errOut := runCmd("", "lint", "--embedder", "mock", "--format", "json", "--no-config", catalog); code > 1 {
		t.Fatalf("lint: exit %d: %s", code, errOut)
	}
	old := filepath.Join(dir, "vectors-v1-x-000000000000.bin")
	os.WriteFile(old, []byte("old"), 0o600)
	os.WriteFile(filepath.Join(dir, "judgments-v2.jsonl"), []byte("{}\n"), 0o600)

	code, out, errOut = runCmd("", "cache")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, filepath.Join(dir, cache.StoreName)) {
		t.Errorf("the store's path is not shown:\n%s", out)
	}
	m := regexp.MustCompile(`entries:   \d+ vectors, (\d+) token counts`).FindStringSubmatch(out)
	if m == nil || m[1] == "0" {
		t.Errorf("no token counts shown after a lint:\n%s", out)
	}
	if !regexp.MustCompile(`size:      [\d.]+ KiB on disk, [\d.]+ (B|KiB) of entries \(cap 256.0 MiB\)`).MatchString(out) {
		t.Errorf("no size shown:\n%s", out)
	}
	if !strings.Contains(out, "old files: 1 (3 B)") || !strings.Contains(out, "judgments: judgments-v2.jsonl") {
		t.Errorf("the old file or the judgments are not shown:\n%s", out)
	}

	code, out, errOut = runCmd("", "cache", "clear")
	if code != 0 || !strings.HasPrefix(out, "cleared: ") {
		t.Fatalf("clear: exit %d\n%s%s", code, out, errOut)
	}
	for _, gone := range []string{cache.StoreName, filepath.Base(old)} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s is still there after clear", gone)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "judgments-v2.jsonl")); err != nil {
		t.Errorf("clear removed the judgments: %v", err)
	}
	if code, out, _ := runCmd("", "cache"); code != 0 || !strings.Contains(out, "empty (no store yet)") {
		t.Errorf("after clear: exit %d\n%s", code, out)
	}
}

func TestCacheCommandErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(cache.EnvDir, dir)
	if code, _, errOut := runCmd("", "cache", "wipe"); code != 2 || !strings.Contains(errOut, `unexpected argument "wipe"`) {
		t.Errorf("a bad argument: exit %d: %s", code, errOut)
	}
	// A damaged store is said in one line, and clear starts it afresh.
	os.WriteFile(filepath.Join(dir, cache.StoreName), []byte(strings.Repeat("garbage ", 1000)), 0o600)
	code, _, errOut := runCmd("", "cache")
	if code != 2 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "cache clear starts it afresh") {
		t.Errorf("a damaged store: exit %d: %q", code, errOut)
	}
	if code, _, errOut := runCmd("", "cache", "clear"); code != 0 {
		t.Errorf("clear of a damaged store: exit %d: %s", code, errOut)
	}
}
