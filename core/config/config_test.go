package config

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

const full = `# project settings
version: 1
strict: true
rules:
  says-what-not-when: off   # we say when in the system prompt
  enum-in-prose: error
  description-missing-or-short: {severity: warn, min-chars: 60}
  too-many-tools:
    max-tools: 64
similarity:
  embedder: mock
  scoring: cosine
  threshold: off
  watch-band: 0.1
  rank-limit: 50
accepted-pairs:
  - tools: [search_logs, search_archived_logs]
    reason: only the audit agent gets the archive   # reviewed
ignore:
  - rule: optional-param-undocumented
    tool: list_*
    param: limit
    reason: the API guide documents page sizes
  - tool: legacy_tool
    reason: frozen
`

func TestParseFull(t *testing.T) {
	c, err := Parse("toolscope.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Strict || c.Rules[lint.RuleSaysWhatNotWhen].Severity != SeverityOff || c.Rules[lint.RuleEnumInProse].Severity != SeverityError {
		t.Errorf("rules %+v strict %v", c.Rules, c.Strict)
	}
	if r := c.Rules[lint.RuleDescription]; r.Severity != SeverityWarn || r.MinChars != 60 || r.Line != 7 {
		t.Errorf("description rule %+v", r)
	}
	if c.Rules[lint.RuleTooManyTools].MaxTools != 64 {
		t.Errorf("too-many-tools %+v", c.Rules[lint.RuleTooManyTools])
	}
	tokensRule, err := Parse("c.yaml", []byte("rules:\n  catalog-tokens: {max-share: 0.25, context: 200000}\n"))
	if err != nil || tokensRule.Rules[lint.RuleCatalogTokens].MaxShare != 0.25 || tokensRule.Rules[lint.RuleCatalogTokens].Context != 200000 {
		t.Errorf("catalog-tokens %+v, %v", tokensRule.Rules[lint.RuleCatalogTokens], err)
	}
	s := c.Similarity
	if s.Embedder != "mock" || s.Scoring != similarity.ScoringCosine || !math.IsInf(*s.Threshold, 1) || *s.WatchBand != 0.1 || *s.RankLimit != 50 {
		t.Errorf("similarity %+v", s)
	}
	if len(c.AcceptedPairs) != 1 || c.AcceptedPairs[0].B != "search_archived_logs" || c.AcceptedPairs[0].Line != 17 {
		t.Errorf("pairs %+v", c.AcceptedPairs)
	}
	if len(c.Ignores) != 2 || c.Ignores[0].Tool != "list_*" || c.Ignores[1].Rule != "" {
		t.Errorf("ignores %+v", c.Ignores)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"colour: red\n", `c.yaml:1:1: unknown key "colour" in the top level (known: accepted-pairs, diff, ignore, rule-set, rules, similarity, strict, version)`},
		{"similarity:\n  embeder: use\n", `c.yaml:2:3: unknown key "embeder" in similarity`},
		{"rules:\n  no-such-rule: off\n", `c.yaml:2:3: rules: no rule "no-such-rule"`},
		{"rules:\n  enum-in-prose: loud\n", `c.yaml:2:18: rules: enum-in-prose: "loud": want off, warn or error`},
		{"rules:\n  enum-in-prose: {min-chars: 3}\n", `unknown key "min-chars" in rules: enum-in-prose (known: severity)`},
		{"rules:\n  description-missing-or-short: {min-chars: 0}\n", "min-chars: 0: want 1 or more"},
		{"rules:\n  catalog-tokens: {max-share: 10}\n", "max-share: 10: want a share above 0 and at most 1"},
		{"rules:\n  catalog-tokens: {context: 0}\n", "context: 0: want 1 or more"},
		{"similarity:\n  threshold: high\n", `c.yaml:2:14: similarity: threshold: "high": want a number`},
		{"similarity:\n  watch-band: -1\n", "watch-band -1: want zero or more"},
		{"similarity:\n  scoring: dot\n", `similarity: scoring "dot": want one of risk, adaptive, cosine`},
		{"similarity:\n  rank-limit: 1.5\n", `rank-limit: "1.5": want a whole number`},
		{"strict: maybe\n", `strict: "maybe": want true or false`},
		{"version: 2\n", "version 2: this toolscope reads version 1"},
		{"accepted-pairs:\n  - tools: [a]\n    reason: r\n", "accepted-pairs[0]: tools: want two tool names"},
		{"accepted-pairs:\n  - tools: [a, a]\n    reason: r\n", "want two different tool names"},
		{"accepted-pairs:\n  - tools: [a, b]\n", "c.yaml:2:5: accepted-pairs[0]: want a reason"},
		{"accepted-pairs: {a: b}\n", "accepted-pairs: want a list"},
		{"ignore:\n  - rule: enum-in-prose\n    reason: r\n", "ignore[0]: want a tool"},
		{"ignore:\n  - tool: '['\n    reason: r\n", `ignore[0]: tool "[": not a valid pattern`},
		{"ignore:\n  - tool: x\n    rule: nope\n    reason: r\n", `ignore[0]: no rule "nope"`},
		{"ignore:\n  - tool: x\n", "ignore[0]: want a reason"},
		{"rules: [a]\n", "rules: want a mapping"},
		{"rules:\n  enum-in-prose: off\n  enum-in-prose: warn\n", "enum-in-prose given twice"},
		{"strict: true\nstrict: false\n", `"strict" given twice`},
		{"- a\n", "the top level: want a mapping"},
		{"a: [\n", "c.yaml:"},
		{"\t- x\n", "c.yaml:1:1: found character that cannot start any token"},
		{"rules: {a: *nope}\n", "c.yaml: unknown anchor 'nope' referenced"},
		{"a: b\n---\nc: d\n", "c.yaml:"},
	}
	for _, c := range cases {
		_, err := Parse("c.yaml", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): %v, want one line with %q", c.in, err, c.want)
		}
	}
}

// The file init writes changes nothing: every setting is commented out.
func TestEmptyAndNull(t *testing.T) {
	for _, in := range []string{"", "# nothing\n", "version: 1\nrules:\nsimilarity:\naccepted-pairs:\nignore:\n"} {
		c, err := Parse("c.yaml", []byte(in))
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if len(c.Rules) != 0 || c.Similarity != (Similarity{}) || c.Strict || len(c.AcceptedPairs)+len(c.Ignores) != 0 {
			t.Errorf("%q: not empty: %+v", in, c)
		}
	}
}

// The search goes up to the repository's root, and outside a repository
// looks in the catalog's directory only.
func TestFind(t *testing.T) {
	tests := []struct {
		name   string
		git    string // where .git is, under the temp root; "" for none
		config string // where toolscope.yaml is
		want   bool
	}{
		{"outside a repository, in the directory", "", "a/b", true},
		{"outside a repository, above the directory", "", "a", false},
		{"outside a repository, far above", "", ".", false},
		{"in a repository, above the directory", "a", "a", true},
		{"in a repository, at the directory", "a", "a/b", true},
		{"above the repository's root", "a/b", "a", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			deep := filepath.Join(root, "a", "b")
			if err := os.MkdirAll(deep, 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.git != "" {
				os.Mkdir(filepath.Join(root, tt.git, ".git"), 0o755)
			}
			want := filepath.Join(root, tt.config, FileName)
			if err := os.WriteFile(want, []byte("version: 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Find(deep)
			if err != nil || (got == want) != tt.want || (!tt.want && got != "") {
				t.Errorf("Find = %q, %v; want found %v (%s)", got, err, tt.want, want)
			}
		})
	}
}

// A config found by search that another user owns, or that others may
// write, is refused with an error naming the file; the user's own is read.
func TestFindRefusesAConfigOthersControl(t *testing.T) {
	tests := []struct {
		name  string
		mode  os.FileMode
		owner int // -1 keeps the user's own
		err   string
	}{
		{"the user's own", 0o644, -1, ""},
		{"group-writable, the user's group", 0o664, -1, ""},
		{"writable by everyone", 0o646, -1, "writable by every user (mode 0646)"},
		{"another user's", 0o644, 65534, "owned by uid 65534"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, FileName)
			if err := os.WriteFile(p, []byte("version: 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(p, tt.mode); err != nil {
				t.Fatal(err)
			}
			if tt.owner >= 0 {
				if err := os.Chown(p, tt.owner, -1); err != nil {
					t.Skipf("cannot give the file to uid %d here (%v): run as root to test it", tt.owner, err)
				}
			}
			got, err := Find(dir)
			if tt.err == "" {
				if err != nil || got != p {
					t.Errorf("Find = %q, %v; want %s", got, err, p)
				}
				return
			}
			if err == nil || got != "" || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), p+": ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("Find = %q, %v; want one line naming %s and saying %q", got, err, p, tt.err)
			}
		})
	}
}

// Edits change only their entry: comments, order and the rest stay.
func TestEditKeepsComments(t *testing.T) {
	c, err := Parse("c.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AcceptPair("get_deploy", "start_deploy", "different verbs, reviewed"); err != nil {
		t.Fatal(err)
	}
	if err := c.AcceptPair("search_archived_logs", "search_logs", "new reason"); err != nil {
		t.Fatal(err)
	}
	if err := c.IgnoreFinding(Ignore{Rule: lint.RuleEnumInProse, Tool: "get_volume_status", Param: "pool", Reason: "values change weekly"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.RemoveIgnore("", "legacy_tool", ""); !ok || err != nil {
		t.Errorf("RemoveIgnore: %v %v", ok, err)
	}
	data, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	out := string(data)
	for _, want := range []string{"# project settings", "says-what-not-when: off   # we say when in the system prompt",
		"tools: [get_deploy, start_deploy]", "reason: new reason # reviewed", "param: pool"} {
		if !strings.Contains(out, want) {
			t.Errorf("saved config lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "legacy_tool") {
		t.Errorf("removed entry still there:\n%s", out)
	}
	back, err := Parse("c.yaml", data)
	if err != nil {
		t.Fatalf("the saved config does not parse: %v\n%s", err, out)
	}
	if len(back.AcceptedPairs) != 2 || back.AcceptedPairs[0].Reason != "new reason" || len(back.Ignores) != 2 {
		t.Errorf("read back: %+v %+v", back.AcceptedPairs, back.Ignores)
	}
	// Into a new file, and into one whose lists are empty keys.
	for _, in := range []string{"", "accepted-pairs:\nignore:\n"} {
		c, _ := Parse("c.yaml", []byte(in))
		if err := c.AcceptPair("a", "b", "r"); err != nil {
			t.Fatal(err)
		}
		if err := c.IgnoreFinding(Ignore{Tool: "x", Reason: "r"}); err != nil {
			t.Fatal(err)
		}
		data, _ := c.Marshal()
		back, err := Parse("c.yaml", data)
		if err != nil || len(back.AcceptedPairs) != 1 || len(back.Ignores) != 1 {
			t.Errorf("%q: %v\n%s", in, err, data)
		}
	}
	if err := c.AcceptPair("a", "b", " "); err == nil {
		t.Error("a pair without a reason accepted")
	}
}

func TestSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	c := New(path)
	if err := c.AcceptPair("a", "b", "r"); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil || len(back.AcceptedPairs) != 1 {
		t.Errorf("Load after Save: %v %+v", err, back)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.yaml")); err == nil || !strings.Contains(err.Error(), "none.yaml: cannot read") {
		t.Errorf("missing file: %v", err)
	}
}

func TestApply(t *testing.T) {
	cat := &catalog.Catalog{Source: "c.json"}
	for i, n := range []string{"search_logs", "search_archived_logs", "list_volumes", "get_deploy", "legacy_tool"} {
		cat.Tools = append(cat.Tools, &catalog.Tool{Index: i, Name: n})
	}
	findings := []lint.Finding{
		{Rule: lint.RuleOptionalParam, Tool: "list_volumes", Param: "limit", Severity: lint.SeverityWarn},
		{Rule: lint.RuleOptionalParam, Tool: "list_volumes", Param: "offset", Severity: lint.SeverityWarn},
		{Rule: lint.RuleEnumInProse, Tool: "get_deploy", Param: "env", Severity: lint.SeverityWarn},
		{Rule: lint.RuleDescription, Tool: "legacy_tool", Severity: lint.SeverityError},
	}
	sim := similarity.Result{Analyzed: true, Thresholds: similarity.Thresholds{Confusability: 0.5},
		Confusable: []similarity.PairFinding{{Kind: similarity.Confusable, Pair: similarity.Pair{A: "search_archived_logs", B: "search_logs"}}}, ConfusableCount: 1}
	r := lint.NewReport(cat, findings, sim, lint.Gate{FailOn: lint.SeverityError})
	if r.OK {
		t.Fatal("the unfiltered report must fail")
	}
	c, err := Parse("c.yaml", []byte(full+"  - tool: nothing_here\n    reason: stale\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := c.Apply(r, cat)
	// enum-in-prose raised to error: that fails the gate on its own.
	if got.OK || got.Summary.Errors != 1 || got.Summary.Confusable != 0 || got.Similarity.ConfusableCount != 0 {
		t.Errorf("ok %v summary %+v", got.OK, got.Summary)
	}
	if len(got.Structural) != 2 || got.Structural[0].Param != "offset" || got.Structural[1].Severity != lint.SeverityError {
		t.Errorf("kept %+v", got.Structural)
	}
	sup := got.Suppressed
	if len(sup.Findings) != 2 || sup.Findings[0].Suppression != "the API guide documents page sizes" || len(sup.Pairs) != 1 || sup.Pairs[0].Suppression == "" {
		t.Errorf("suppressed %+v", sup)
	}
	if len(sup.Unused) != 1 || !strings.Contains(sup.Unused[0], "nothing_here") {
		t.Errorf("unused %v", sup.Unused)
	}
	var o lint.Options = lint.DefaultOptions()
	c.Tune(&o)
	if len(o.Disabled) != 1 || o.Disabled[0] != lint.RuleSaysWhatNotWhen {
		t.Errorf("disabled %v", o.Disabled)
	}
	// 44 characters that tell nothing beyond the name: under 60, not 40.
	short := &catalog.Tool{Name: "get_store_item", Description: "Get the item from the store, from the store.", HasDescription: true}
	for _, rule := range o.Rules {
		if rule.ID == lint.RuleDescription && len(rule.Check(short, nil)) == 0 {
			t.Error("min-chars 60 did not reach the rule")
		}
	}
	for _, rule := range lint.DefaultRules() {
		if rule.ID == lint.RuleDescription && len(rule.Check(short, nil)) != 0 {
			t.Error("the default rule flags 44 characters")
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(full))
	f.Add([]byte("rules:\n  enum-in-prose: off\n"))
	f.Add([]byte("diff:\n  levels:\n    pattern-changed: error\n    type-changed: WARN\n"))
	f.Add([]byte("a: [\n"))
	f.Add([]byte("&a [*a]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("f.yaml", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("a multi-line error: %q", err)
			}
			return
		}
		// What parses can be edited and saved, and reads back.
		if err := c.AcceptPair("fuzz_a", "fuzz_b", "fuzz"); err != nil {
			t.Fatalf("AcceptPair on a valid config: %v", err)
		}
		out, err := c.Marshal()
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		if _, err := Parse("f.yaml", out); err != nil {
			t.Fatalf("a saved config does not parse: %v\n%s", err, out)
		}
	})
}

// review-band is the band's key; watch-band, its old spelling, is read
// the same.
func TestReviewBandKeyAndItsOldSpelling(t *testing.T) {
	for _, key := range []string{"review-band", "watch-band"} {
		c, err := Parse("c.yaml", []byte("version: 1\nsimilarity:\n  "+key+": 0.2\n"))
		if err != nil || c.Similarity.WatchBand == nil || *c.Similarity.WatchBand != 0.2 {
			t.Errorf("%s: %v, %+v", key, err, c)
		}
		if _, err := Parse("c.yaml", []byte("version: 1\nsimilarity:\n  "+key+": -1\n")); err == nil || !strings.Contains(err.Error(), key+" -1: want zero or more") {
			t.Errorf("%s -1: %v", key, err)
		}
	}
}
