package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/lint"
)

// devLabel is one rated finding on the shared catalogs
// (testdata/rulesdev/labels.jsonl, the seed's pack, and labels-more.jsonl,
// the second batch, copied from the reviewers' labels): a and b are the
// two reviewers' labels (0 noise, 1 minor, 2 act).
type devLabel struct {
	Catalog string `json:"catalog"`
	Tool    string `json:"tool"`
	Param   string `json:"param"`
	Rule    string `json:"rule"`
	A       int    `json:"a"`
	B       int    `json:"b"`
}

// precisionRow is one rule's dev figures as docs/rules.md states them.
type precisionRow struct {
	noiseKept, noise, trueKept, true int
}

var precisionLine = regexp.MustCompile("^\\| `([a-z-]+)` \\| recommended \\| (\\d+)/(\\d+) \\| (\\d+)/(\\d+) \\|")

// TestRulePrecision keeps each recommended rule within the figures
// docs/rules.md states for it: on the reviewers' labels, no more noise
// findings still reported and no fewer true ones; and the default pack
// within 0.8 findings per tool over the shared catalogs.
func TestRulePrecision(t *testing.T) {
	dir := "../shared/catalogs/mcp"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/catalogs/mcp is absent: the dev figures need the catalogs the labels were rated on")
	}
	doc, err := os.ReadFile("docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	stated := map[string]precisionRow{}
	for _, line := range strings.Split(string(doc), "\n") {
		if m := precisionLine.FindStringSubmatch(line); m != nil {
			n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
			stated[m[1]] = precisionRow{n(2), n(3), n(4), n(5)}
		}
	}
	if len(stated) < 11 {
		t.Fatalf("docs/rules.md states dev figures for %d rules, want the eleven rated ones", len(stated))
	}
	labels := readDevLabels(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	findings := map[string][]lint.Finding{}
	tools, total := 0, 0
	for _, f := range files {
		cat, err := catalog.Load(f, nil)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		fs := lint.Structural(cat, lint.DefaultOptions())
		findings[strings.TrimSuffix(filepath.Base(f), ".json")] = fs
		tools += len(cat.Tools)
		total += len(fs)
	}
	got := map[string]precisionRow{}
	for _, l := range labels {
		fs, ok := findings[l.Catalog]
		if !ok {
			t.Fatalf("labels name catalog %s, absent from %s", l.Catalog, dir)
		}
		kept := slices.ContainsFunc(fs, func(f lint.Finding) bool {
			return f.Tool == l.Tool && f.Rule == l.Rule && (l.Param == "" || f.Param == l.Param || slices.Contains(f.Params, l.Param))
		})
		r := got[l.Rule]
		switch {
		case l.A == 0 && l.B == 0:
			r.noise++
			if kept {
				r.noiseKept++
			}
		case l.A >= 1 && l.B >= 1:
			r.true++
			if kept {
				r.trueKept++
			}
		}
		got[l.Rule] = r
	}
	for rule, want := range stated {
		g := got[rule]
		if g.noise != want.noise || g.true != want.true {
			t.Errorf("%s: %d noise and %d true labels, the table says %d and %d", rule, g.noise, g.true, want.noise, want.true)
		}
		if g.noiseKept > want.noiseKept || g.trueKept < want.trueKept {
			t.Errorf("%s: noise kept %d/%d, true kept %d/%d; docs/rules.md states %d/%d and %d/%d", rule, g.noiseKept, g.noise, g.trueKept, g.true, want.noiseKept, want.noise, want.trueKept, want.true)
		}
	}
	if per := float64(total) / float64(tools); per > 0.8 {
		t.Errorf("%d default findings for %d tools: %.2f per tool, over 0.8", total, tools, per)
	}
}

func readDevLabels(t *testing.T) []devLabel {
	t.Helper()
	var out []devLabel
	for _, name := range []string{"labels.jsonl", "labels-more.jsonl"} {
		f, err := os.Open(filepath.Join("testdata/rulesdev", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			var l devLabel
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				f.Close()
				t.Fatal(fmt.Errorf("%s:%d: %w", name, n, err))
			}
			out = append(out, l)
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// --rule-set and rule-set: pick the pack; the flag wins over the config;
// a wrong name is a usage error naming the sets.
func TestLintRuleSet(t *testing.T) {
	rules := func(args ...string) []string {
		t.Helper()
		code, out, errOut := runCmd("", append([]string{"lint", "--no-similarity", "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("lint %v: exit %d %s", args, code, errOut)
		}
		var r struct {
			Structural []struct{ Rule, Param string }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range r.Structural {
			got = append(got, f.Rule+" "+f.Param)
		}
		return got
	}
	def := rules("--no-config", "testdata/lint/tools.json")
	ref := rules("--no-config", "--rule-set", "reference", "testdata/lint/tools.json")
	seedOnly := "optional-param-undocumented level"
	if slices.Contains(def, seedOnly) || !slices.Contains(ref, seedOnly) {
		t.Errorf("default %q, reference %q: want %q in reference only", def, ref, seedOnly)
	}
	cfg := writeFile(t, "toolscope.yaml", "rule-set: reference\n")
	if got := rules("--config", cfg, "testdata/lint/tools.json"); !slices.Equal(got, ref) {
		t.Errorf("rule-set: reference in the config gives %q, want %q", got, ref)
	}
	if got := rules("--config", cfg, "--rule-set", "recommended", "testdata/lint/tools.json"); !slices.Equal(got, def) {
		t.Errorf("--rule-set recommended over the config gives %q, want %q", got, def)
	}
	if code, _, errOut := runCmd("", "lint", "--no-config", "--rule-set", "strict", "testdata/lint/tools.json"); code != 2 || !strings.Contains(errOut, `--rule-set "strict": want recommended, reference, all`) {
		t.Errorf("--rule-set strict: exit %d %s", code, errOut)
	}
	bad := writeFile(t, "toolscope.yaml", "rule-set: loose\n")
	if code, _, errOut := runCmd("", "lint", "--config", bad, "testdata/lint/tools.json"); code != 2 || !strings.Contains(errOut, "toolscope.yaml:1:11: rule-set") {
		t.Errorf("rule-set: loose: exit %d %s", code, errOut)
	}
}
