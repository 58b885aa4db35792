package cli

import (
	"encoding/json"
	"os"
	"testing"

	"toolscope/core/live/livetest"
	"toolscope/embed/cache"
)

func TestMain(m *testing.M) {
	// A test that starts os.Args[0] with the behaviour set gets the live
	// test server (over stdio) instead of the tests.
	livetest.MainIfAsked()
	// The tests run from the module root, as a user runs the binary: the
	// README, docs, fixtures and testdata they read and the `go build .`
	// of the end-to-end tests are paths from there.
	if err := os.Chdir("../.."); err != nil {
		panic(err)
	}
	// The tests get a cache of their own: judgments and vectors this
	// machine's own runs cached must not change what a test sees.
	dir, err := os.MkdirTemp("", "toolscope-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv(cache.EnvDir, dir)
	afterTests = append(afterTests, func() { os.RemoveAll(dir) })
	code := m.Run()
	for _, f := range afterTests {
		f()
	}
	os.Exit(code)
}

// afterTests clean up what tests shared (the binary built for the
// end-to-end tests).
var afterTests []func()

// stdioConfig writes an mcp-config whose one server, "ops", is the live
// test server over stdio with behaviour b, and returns its path.
func stdioConfig(t *testing.T, b livetest.Behaviour) string {
	t.Helper()
	behaviour, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	config, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"ops": map[string]any{"command": os.Args[0], "env": map[string]string{livetest.EnvBehaviour: string(behaviour)}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "mcp.json", string(config))
}
