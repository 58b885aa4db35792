package validate

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"toolscope/core/jsonv"
)

// TestParity runs every reference case (a copy of the shared
// parity/validate.jsonl): structural issues compare on path, expected and
// got; string-shape issues on path, value and hint, with the prefix and
// length bounds the case gives.
func TestParity(t *testing.T) {
	data, err := os.ReadFile("testdata/validate.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		c, err := jsonv.Parse(line)
		if err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		n++
		id, _ := c.Get("id").Str()
		t.Run(id, func(t *testing.T) {
			got := Validate(c.Get("args"), c.Get("schema"))
			want := c.Get("expect")
			if got.OK != want.Get("ok").Bool {
				t.Errorf("ok = %v, want %v (issues %+v)", got.OK, !got.OK, got.Issues)
			}
			wi := want.Get("issues").Items
			if len(got.Issues) != len(wi) {
				t.Fatalf("%d issues, want %d:\n got %+v\nwant %s", len(got.Issues), len(wi), got.Issues, want.Get("issues").JSON())
			}
			for i, w := range wi {
				checkIssue(t, i, got.Issues[i], w)
			}
		})
	}
	if n < 50 {
		t.Errorf("read %d cases, want the whole file", n)
	}
}

func checkIssue(t *testing.T, i int, got Issue, want *jsonv.Value) {
	t.Helper()
	field := map[string]string{"path": got.Path, "expected": got.Expected, "got": got.Got, "value": got.Value, "hint": got.Hint}
	for _, m := range want.Members {
		w, _ := m.Value.Str()
		switch m.Key {
		case "path", "expected", "got", "value", "hint":
			if field[m.Key] != w {
				t.Errorf("issue %d: %s = %q, want %q", i, m.Key, field[m.Key], w)
			}
		case "value_prefix", "got_prefix":
			f := field[strings.TrimSuffix(m.Key, "_prefix")]
			if !strings.HasPrefix(f, w) {
				t.Errorf("issue %d: %s = %q, want prefix %q", i, strings.TrimSuffix(m.Key, "_prefix"), f, w)
			}
		case "value_max_code_points":
			limit, _ := m.Value.Int()
			if n := utf8.RuneCountInString(got.Value); n > limit {
				t.Errorf("issue %d: value is %d code points, want at most %d", i, n, limit)
			}
		default:
			t.Fatalf("issue %d: unknown expectation %q", i, m.Key)
		}
	}
}
