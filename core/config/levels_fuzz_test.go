package config

import (
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"

	"toolscope/core/diff"
)

// FuzzDiffLevels reads a levels block of any two entries: it is refused,
// with the line of the entry at fault, exactly when a kind is unknown or
// given twice or a level unknown; what is read holds the levels given, and
// an edit saved keeps them and the file's comment.
func FuzzDiffLevels(f *testing.F) {
	f.Add("pattern-changed", "ERR", "type-changed")
	f.Add("tool-removed", "warning", "tool-removed")
	f.Add("no-such-kind", "info", "tool-added")
	f.Add("param-removed", "fatal", "x")
	f.Add("description-changed", "Info", "readonly-to-destructive")
	f.Fuzz(func(t *testing.T, kind, level, second string) {
		q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
		src := "# levels tuned for this repo\ndiff:\n  levels:\n    " + q(kind) + ": " + q(level) + "\n    " + q(second) + ": warn\n"
		c, err := Parse("t.yaml", []byte(src))
		_, kindOK := diff.DefaultLevels[diff.Kind(kind)]
		_, secondOK := diff.DefaultLevels[diff.Kind(second)]
		lvl, levelOK := diff.ParseLevel(level)
		var ce *Error
		if err != nil {
			if !errors.As(err, &ce) || !strings.HasPrefix(ce.Msg, "diff: levels:") {
				return // not YAML the library reads (a character it refuses)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			switch {
			case !kindOK || !levelOK:
				if ce.Line != 4 {
					t.Fatalf("%v: want line 4", err)
				}
			case !secondOK || second == kind:
				if ce.Line != 5 {
					t.Fatalf("%v: want line 5", err)
				}
			default:
				t.Fatalf("a valid block refused: %v\n%s", err, src)
			}
			return
		}
		if !kindOK || !levelOK || !secondOK || second == kind {
			t.Fatalf("an invalid block read as %v\n%s", c.DiffLevels, src)
		}
		want := map[diff.Kind]diff.Level{diff.Kind(kind): lvl, diff.Kind(second): diff.LevelWarn}
		if !maps.Equal(c.DiffLevels, want) {
			t.Fatalf("read %v, want %v", c.DiffLevels, want)
		}
		if err := c.AcceptPair("a", "b", "reviewed"); err != nil {
			t.Fatal(err)
		}
		out, err := c.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse("t.yaml", out)
		if err != nil || !maps.Equal(back.DiffLevels, want) || len(back.AcceptedPairs) != 1 {
			t.Fatalf("saved and read back: %v, %v\n%s", err, back, out)
		}
		if !strings.HasPrefix(string(out), "# levels tuned for this repo\n") {
			t.Fatalf("the comment is lost:\n%s", out)
		}
	})
}
