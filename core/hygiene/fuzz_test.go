package hygiene

import (
	"os"
	"testing"
)

// Any document: findings or an error, never a panic, and every finding
// located inside the document.
func FuzzCheck(f *testing.F) {
	for _, name := range []string{"testdata/problems.json", "testdata/clean.json"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"servers": {"a": {"command": "docker", "args": ["run", "-e"]}}}`))
	f.Add([]byte(`{"mcpServers": {"a": {"command": "cmd", "args": ["/c"]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Check("f.json", data, 0o644)
		if err != nil {
			return
		}
		for _, g := range got {
			if g.Line < 1 || g.Column < 1 || g.Rule == "" || g.Message == "" {
				t.Fatalf("finding %+v", g)
			}
		}
	})
}
