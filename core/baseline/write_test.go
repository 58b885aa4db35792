package baseline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"toolscope/core/lint"
)

// Concurrent --write-baseline runs to one path leave one whole baseline,
// one of those written, never a mix, a torn file or a temp file.
func FuzzConcurrentWrites(f *testing.F) {
	f.Add("get_*", "an \x1b[2J message", "other", uint8(4))
	f.Add("", "\u202e", "x\ny", uint8(9))
	f.Fuzz(func(t *testing.T, tool, msg, other string, n uint8) {
		n = n%8 + 2
		dir := t.TempDir()
		path := filepath.Join(dir, "baseline.json")
		files := make([][]byte, n)
		parsed := make([]*File, n)
		for i := range files {
			bf := &File{Kind: kind, Version: Version, Pairs: []Pair{}}
			for j := range i + 1 {
				bf.Findings = append(bf.Findings, Finding{Rule: "description-missing-or-short", Tool: tool + strings.Repeat(other, j), Severity: lint.SeverityWarn, Message: msg})
			}
			var b bytes.Buffer
			if err := bf.Write(&b); err != nil {
				t.Fatal(err)
			}
			// The text as a baseline read back writes it: invalid UTF-8
			// became U+FFFD on the way.
			p, err := Parse(b.Bytes())
			if err != nil {
				t.Skip(err) // a baseline this input cannot make
			}
			b.Reset()
			p.Write(&b)
			files[i], parsed[i] = b.Bytes(), p
		}
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range files {
			wg.Go(func() { errs[i] = parsed[i].WriteFile(path) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		whole := false
		for _, b := range files {
			whole = whole || bytes.Equal(b, got)
		}
		if !whole {
			t.Errorf("the file is none of the baselines written:\n%s", got)
		}
		if _, err := Load(path); err != nil {
			t.Errorf("the file written does not load: %v", err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("%d files in the directory, want the baseline alone", len(ents))
		}
	})
}
