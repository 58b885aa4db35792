package lint

import (
	"path/filepath"
	"reflect"
	"testing"

	"toolscope/core/catalog"
)

// structuralOnePass is Structural as one loop over the tools and, for each,
// the rules: the order the aside goroutine's findings are put back into.
func structuralOnePass(cat *catalog.Catalog, opts Options) []Finding {
	rules := EnabledRules(opts.Rules, opts.Disabled)
	c := newContext(cat)
	var out []Finding
	for _, t := range cat.Tools {
		for _, r := range rules {
			out = check(out, r, t, c)
		}
	}
	return finishFixes(cat, out)
}

// The aside rules run beside the others from asideFrom tools on, and the
// others on spans of spanTools tools on every processor; the findings must
// come out as one pass makes them, on catalogs where every share finds
// things on the same tools.
func TestStructuralAsideKeepsOnePassOrder(t *testing.T) {
	planted, err := catalog.Load("testdata/poison/planted.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	cats := map[string]*catalog.Catalog{"planted": planted}
	// The planted tools repeated past asideFrom, some names repeated (a
	// duplicate gets only the duplicate-name finding).
	big := &catalog.Catalog{Source: "planted x"}
	for i := range 3*asideFrom + 7 {
		tool := *planted.Tools[i%len(planted.Tools)]
		if i%5 != 0 {
			tool.Name = tool.Name + "_" + string(rune('a'+i%26)) + string(rune('a'+i/26%26))
		}
		tool.Index = i
		big.Tools = append(big.Tools, &tool)
	}
	cats["planted x"] = big
	files, _ := filepath.Glob("../../../shared/catalogs/*/*.json")
	for _, f := range files {
		c, err := catalog.Load(f, nil)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cats[filepath.Base(f)] = c
	}
	if len(files) == 0 {
		t.Log("../shared/catalogs is absent: the planted catalogs only")
	}
	for _, disabled := range [][]string{nil, {RuleToolPoisoning}, {RuleDescription, RuleOptionalParam}} {
		for name, cat := range cats {
			opts := DefaultOptions()
			opts.Disabled = disabled
			got, want := Structural(cat, opts), structuralOnePass(cat, opts)
			if len(want) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, disabled %v: %d findings, one pass makes %d, or in another order", name, disabled, len(got), len(want))
				for i := range min(len(got), len(want)) {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Errorf("first difference at %d: %s %s, want %s %s", i, got[i].Tool, got[i].Rule, want[i].Tool, want[i].Rule)
						break
					}
				}
			}
		}
	}
	// The big catalog does exercise both sides on one tool.
	var poison, other bool
	for _, f := range Structural(big, DefaultOptions()) {
		if f.Rule == RuleToolPoisoning {
			poison = true
		} else {
			other = true
		}
	}
	if !poison || !other {
		t.Fatalf("the planted catalog gave poisoning findings %v and others %v: the test checks nothing", poison, other)
	}
}
