package judge

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"toolscope/core/catalog"
)

// TestReviewersAnswersReadOnTheDevelopmentSet: every problem the two
// reviewers listed for the development set's tools, answered as a model
// would, reads: each category is the rubric's and each parameter they
// named resolves in its tool's schema, so no answer of theirs would be
// refused as malformed.
func TestReviewersAnswersReadOnTheDevelopmentSet(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "calibration", "rules-dev", "act")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the development set is absent (%v)", err)
	}
	type row struct {
		ID          int             `json:"id"`
		Tool        string          `json:"tool"`
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
		Annotations json.RawMessage `json:"annotations"`
	}
	var tools []row
	readLines(t, filepath.Join(dir, "tools.jsonl"), func(line []byte) {
		var r row
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatal(err)
		}
		tools = append(tools, r)
	})
	read := 0
	for _, file := range []string{"act-A.jsonl", "act-B.jsonl"} {
		readLines(t, filepath.Join(dir, file), func(line []byte) {
			var a struct {
				ID       int             `json:"id"`
				Problems json.RawMessage `json:"problems"`
			}
			if err := json.Unmarshal(line, &a); err != nil {
				t.Fatal(err)
			}
			r := tools[a.ID]
			entry := fmt.Sprintf(`[{"name": %q, "description": %q, "inputSchema": %s}]`, r.Tool, r.Description, orEmpty(r.Schema))
			cat, err := catalog.Parse("t.json", []byte(entry))
			if err != nil {
				t.Fatalf("%s: %v", r.Tool, err)
			}
			if _, err := ParseReview(`{"problems": `+string(a.Problems)+`}`, ReviewToolsOf(cat)[0]); err != nil {
				t.Errorf("%s, %s: %v", file, r.Tool, err)
			}
			read++
		})
	}
	if read == 0 {
		t.Fatal("no answer read")
	}
}

func orEmpty(r json.RawMessage) string {
	if len(r) == 0 || string(r) == "null" {
		return "{}"
	}
	return string(r)
}

func readLines(t *testing.T, path string, each func([]byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			each(sc.Bytes())
		}
	}
}
