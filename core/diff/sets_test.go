package diff

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
)

// sameKey agrees with same: equal keys exactly for the same values.
func TestSameKeyAgreesWithSame(t *testing.T) {
	vals := []string{`1`, `1.0`, `1e0`, `-0`, `0`, `2`, `"1"`, `"a"`, `"a\"b"`, `true`, `false`, `null`,
		`[]`, `[1]`, `[1,2]`, `[2,1]`, `["1,2"]`, `[[1],2]`, `[1,[2]]`,
		`{}`, `{"a":1}`, `{"a":1.0}`, `{"a":1,"b":2}`, `{"b":2,"a":1}`, `{"a":"1"}`, `{"a,b":1}`, `{"a":[1]}`}
	parsed := make([]*jsonv.Value, len(vals))
	for i, s := range vals {
		v, err := jsonv.Parse([]byte(s))
		if err != nil {
			t.Fatal(s, err)
		}
		parsed[i] = v
	}
	for i, a := range parsed {
		for j, b := range parsed {
			if got, want := sameKey(a) == sameKey(b), same(a, b); got != want {
				t.Errorf("%s vs %s: same keys %v, same %v", vals[i], vals[j], got, want)
			}
		}
	}
}

// Enum values and required names compare as sets: a 200,000-value enum
// and 20,000 required parameters diff in a moment (the list scans they
// replace took 5 s for 20,000 values and did not end for 200,000), and
// exactly the values and names that changed are reported.
func TestLargeEnumAndRequiredDiffAsSets(t *testing.T) {
	const n = 200_000
	enum := func(skip int) []any {
		out := make([]any, 0, n+1)
		for i := range n {
			if i != skip {
				out = append(out, fmt.Sprintf("v%d", i))
			}
		}
		return out
	}
	oldEnum, newEnum := enum(-1), append(enum(123), "new")
	props := map[string]any{"kind": map[string]any{"enum": oldEnum}}
	newProps := map[string]any{"kind": map[string]any{"enum": newEnum}}
	var oreq, nreq []string
	for i := range 20_000 {
		name := fmt.Sprintf("p%d", i)
		props[name], newProps[name] = map[string]any{"type": "string"}, map[string]any{"type": "string"}
		oreq = append(oreq, name)
		if i != 77 {
			nreq = append(nreq, name)
		}
	}
	cat := func(props map[string]any, req []string) *catalog.Catalog {
		data, _ := json.Marshal([]any{map[string]any{"name": "t", "description": "d",
			"inputSchema": map[string]any{"type": "object", "properties": props, "required": req}}})
		c, err := catalog.Parse("c.json", data)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	r := Compare(cat(props, oreq), cat(newProps, nreq))
	got := kinds(r)
	for _, want := range []string{"enum-value-removed@kind!", "enum-value-added@kind", "param-now-optional@p77"} {
		if !strings.Contains(got, want) {
			t.Errorf("changes %q lack %q", got, want)
		}
	}
	for _, c := range r.Changes {
		switch c.Kind {
		case EnumValueRemoved:
			if !strings.HasSuffix(c.Message, `no longer takes "v123"`) {
				t.Errorf("removed: %s", c.Message)
			}
		case EnumValueAdded:
			if !strings.HasSuffix(c.Message, `also takes "new"`) {
				t.Errorf("added: %s", c.Message)
			}
		}
	}
	if len(r.Changes) != 3 {
		t.Errorf("%d changes, want 3: %s", len(r.Changes), got)
	}
}
