package baseline

import (
	"bytes"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/jsonv"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

func cat(names ...string) *catalog.Catalog {
	c := &catalog.Catalog{Source: "t.json"}
	for i, n := range names {
		c.Tools = append(c.Tools, &catalog.Tool{Index: i, Name: n})
	}
	return c
}

func finding(rule, tool, param string, sev lint.Severity, msg string) lint.Finding {
	return lint.Finding{Rule: rule, Tool: tool, Param: param, Severity: sev, Message: msg}
}

func pair(kind similarity.Verdict, a, b string) similarity.PairFinding {
	return similarity.PairFinding{Kind: kind, Pair: similarity.Pair{A: a, B: b}}
}

func report(findings []lint.Finding, pairs ...similarity.PairFinding) *lint.Report {
	var sim similarity.Result
	for _, p := range pairs {
		if p.Kind == similarity.Confusable {
			sim.Confusable = append(sim.Confusable, p)
		} else {
			sim.Watch = append(sim.Watch, p)
		}
	}
	sim.ConfusableCount, sim.WatchCount = len(sim.Confusable), len(sim.Watch)
	return lint.NewReport(cat("a", "b", "c"), findings, sim, lint.Gate{FailOn: lint.SeverityError})
}

func write(t *testing.T, f *File) string {
	t.Helper()
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The same results in any order write the same file, and a pair is the
// same whichever tool comes first.
func TestFromReportIsStable(t *testing.T) {
	one := report([]lint.Finding{
		finding("r1", "a", "x", lint.SeverityWarn, "m1"),
		finding("r2", "b", "", lint.SeverityError, "m2"),
	}, pair(similarity.Confusable, "a", "b"), pair(similarity.Watch, "c", "a"))
	two := report([]lint.Finding{
		finding("r2", "b", "", lint.SeverityError, "m2"),
		finding("r1", "a", "x", lint.SeverityWarn, "m1"),
	}, pair(similarity.Watch, "a", "c"), pair(similarity.Confusable, "b", "a"))
	if a, b := write(t, FromReport(one)), write(t, FromReport(two)); a != b {
		t.Errorf("reordered results wrote different baselines:\n%s\n%s", a, b)
	}
	back, err := Parse([]byte(write(t, FromReport(one))))
	if err != nil {
		t.Fatal(err)
	}
	if write(t, back) != write(t, FromReport(one)) {
		t.Error("a baseline read back writes differently")
	}
}

func TestApply(t *testing.T) {
	base := FromReport(report([]lint.Finding{
		finding("short", "a", "", lint.SeverityWarn, "23 characters"),
		finding("enum", "b", "x", lint.SeverityWarn, "m"),
		finding("gone", "c", "", lint.SeverityError, "m"),
	}, pair(similarity.Confusable, "a", "b"), pair(similarity.Watch, "b", "c"), pair(similarity.Confusable, "a", "c")))
	cases := []struct {
		name     string
		findings []lint.Finding
		pairs    []similarity.PairFinding
		strict   bool
		ok       bool
		states   string // findings' then pairs' states, in report order
		sum      [5]int // new, unchanged, updated, absent, new failing
	}{
		{"the same results pass",
			[]lint.Finding{finding("short", "a", "", lint.SeverityWarn, "23 characters"), finding("enum", "b", "x", lint.SeverityWarn, "m"), finding("gone", "c", "", lint.SeverityError, "m")},
			[]similarity.PairFinding{pair(similarity.Confusable, "b", "a"), pair(similarity.Confusable, "a", "c"), pair(similarity.Watch, "c", "b")},
			false, true, "unchanged unchanged unchanged unchanged unchanged unchanged", [5]int{0, 6, 0, 0, 0}},
		{"a reworded message is updated, not new",
			[]lint.Finding{finding("short", "a", "", lint.SeverityWarn, "25 characters")}, nil,
			false, true, "updated", [5]int{0, 0, 1, 5, 0}},
		{"a new error fails",
			[]lint.Finding{finding("enum", "b", "y", lint.SeverityError, "m")}, nil,
			false, false, "new", [5]int{1, 0, 0, 6, 1}},
		{"a new warning passes, unless strict",
			[]lint.Finding{finding("enum", "a", "x", lint.SeverityWarn, "m")}, nil,
			false, true, "new", [5]int{1, 0, 0, 6, 0}},
		{"strict: a new warning fails",
			[]lint.Finding{finding("enum", "a", "x", lint.SeverityWarn, "m")}, nil,
			true, false, "new", [5]int{1, 0, 0, 6, 1}},
		{"a warning become an error fails",
			[]lint.Finding{finding("short", "a", "", lint.SeverityError, "23 characters")}, nil,
			false, false, "updated", [5]int{0, 0, 1, 5, 1}},
		{"a watch pair become confusable fails",
			nil, []similarity.PairFinding{pair(similarity.Confusable, "c", "b")},
			false, false, "updated", [5]int{0, 0, 1, 5, 1}},
		{"a new confusable pair fails",
			nil, []similarity.PairFinding{pair(similarity.Confusable, "b", "d")},
			false, false, "new", [5]int{1, 0, 0, 6, 1}},
		{"a new watch pair passes",
			nil, []similarity.PairFinding{pair(similarity.Watch, "b", "d")},
			false, true, "new", [5]int{1, 0, 0, 6, 0}},
		{"a confusable pair become watch passes",
			nil, []similarity.PairFinding{pair(similarity.Watch, "a", "b")},
			false, true, "updated", [5]int{0, 0, 1, 5, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := report(c.findings, c.pairs...)
			base.Apply(r, cat("a", "b", "c"), "base.json", c.strict)
			var states []string
			for _, f := range r.Structural {
				states = append(states, string(f.BaselineState))
			}
			for _, list := range [][]similarity.PairFinding{r.Similarity.Confusable, r.Similarity.Watch} {
				for _, p := range list {
					states = append(states, string(p.BaselineState))
				}
			}
			b := r.Baseline
			sum := [5]int{b.New, b.Unchanged, b.Updated, b.Absent, b.NewFailing}
			if r.OK != c.ok || strings.Join(states, " ") != c.states || sum != c.sum {
				t.Errorf("ok %v states %q summary %v, want ok %v states %q summary %v", r.OK, strings.Join(states, " "), sum, c.ok, c.states, c.sum)
			}
			if b.Absent != len(b.AbsentFindings)+len(b.AbsentPairs) {
				t.Errorf("absent %d, but %d findings and %d pairs listed", b.Absent, len(b.AbsentFindings), len(b.AbsentPairs))
			}
		})
	}
}

// A finding the baseline holds twice (two tools of one name) is matched
// once per entry: a third occurrence is new.
func TestApplyCountsRepeats(t *testing.T) {
	dup := finding("duplicate-name", "a", "", lint.SeverityError, "m")
	base := FromReport(report([]lint.Finding{dup, dup}))
	r := report([]lint.Finding{dup, dup, dup})
	base.Apply(r, cat("a"), "b.json", false)
	if r.OK || r.Baseline.New != 1 || r.Baseline.Unchanged != 2 {
		t.Errorf("ok %v, %+v", r.OK, *r.Baseline)
	}
	r = report([]lint.Finding{dup})
	base.Apply(r, cat("a"), "b.json", false)
	if !r.OK || r.Baseline.Absent != 1 || r.Baseline.AbsentFindings[0].ToolIndex != 0 {
		t.Errorf("ok %v, %+v", r.OK, *r.Baseline)
	}
}

// Findings that share a key (each enum member of one parameter flagged on
// its own) match the entry with their own message, in any order: a
// reordered enum is unchanged, and only the member that changed is updated.
func TestApplyRepeatsMatchTheirOwnMessage(t *testing.T) {
	m := func(msg string, sev lint.Severity) lint.Finding {
		return finding("enum-type-mismatch", "a", "x", sev, msg)
	}
	base := FromReport(report([]lint.Finding{m("member 1", lint.SeverityError), m("member 2", lint.SeverityError), m("member 3", lint.SeverityWarn)}))
	cases := []struct {
		name     string
		findings []lint.Finding
		states   string
		sum      [5]int // new, unchanged, updated, absent, new failing
	}{
		{"reordered", []lint.Finding{m("member 3", lint.SeverityWarn), m("member 2", lint.SeverityError), m("member 1", lint.SeverityError)},
			"unchanged unchanged unchanged", [5]int{0, 3, 0, 0, 0}},
		{"one reworded", []lint.Finding{m("member 9", lint.SeverityError), m("member 2", lint.SeverityError), m("member 3", lint.SeverityWarn)},
			"updated unchanged unchanged", [5]int{0, 2, 1, 0, 0}},
		{"the warning raised", []lint.Finding{m("member 3", lint.SeverityError), m("member 1", lint.SeverityError), m("member 2", lint.SeverityError)},
			"updated unchanged unchanged", [5]int{0, 2, 1, 0, 1}},
		{"one more", []lint.Finding{m("member 4", lint.SeverityError), m("member 3", lint.SeverityWarn), m("member 2", lint.SeverityError), m("member 1", lint.SeverityError)},
			"new unchanged unchanged unchanged", [5]int{1, 3, 0, 0, 1}},
		{"one fixed", []lint.Finding{m("member 3", lint.SeverityWarn), m("member 1", lint.SeverityError)},
			"unchanged unchanged", [5]int{0, 2, 0, 1, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := report(c.findings)
			base.Apply(r, cat("a"), "b.json", false)
			var states []string
			for _, f := range r.Structural {
				states = append(states, string(f.BaselineState))
			}
			b := r.Baseline
			if got := strings.Join(states, " "); got != c.states || [5]int{b.New, b.Unchanged, b.Updated, b.Absent, b.NewFailing} != c.sum {
				t.Errorf("states %q %+v, want %q %v", got, *b, c.states, c.sum)
			}
		})
	}
}

// The catalog-wide too-many-tools finding sits on whichever tool comes
// first past the limit: a reordered or grown catalog moves it to another
// tool, and it is still the baseline's.
func TestApplyCatalogFindingFollowsNoTool(t *testing.T) {
	tm := func(tool, msg string) lint.Finding {
		return finding(lint.RuleTooManyTools, tool, "", lint.SeverityError, msg)
	}
	base := FromReport(report([]lint.Finding{tm("a", "200 tools")}))
	for _, c := range []struct {
		name  string
		f     lint.Finding
		state similarity.BaselineState
	}{
		{"same tool", tm("a", "200 tools"), similarity.BaselineUnchanged},
		{"reordered", tm("c", "200 tools"), similarity.BaselineUnchanged},
		{"grown", tm("b", "201 tools"), similarity.BaselineUpdated},
	} {
		r := report([]lint.Finding{c.f})
		base.Apply(r, cat("a", "b", "c"), "b.json", false)
		if got := r.Structural[0].BaselineState; got != c.state || !r.OK || r.Baseline.Absent != 0 {
			t.Errorf("%s: %s, ok %v, %+v; want %s", c.name, got, r.OK, *r.Baseline, c.state)
		}
	}
}

// Confusable pairs the verdict list left out cannot be matched: they fail.
func TestApplyTruncatedPairsCountAsNew(t *testing.T) {
	base := FromReport(report(nil, pair(similarity.Confusable, "a", "b")))
	r := report(nil, pair(similarity.Confusable, "a", "b"))
	r.Similarity.ConfusableCount = 3
	base.Apply(r, cat("a", "b"), "b.json", false)
	if r.OK || r.Baseline.NewFailing != 2 {
		t.Errorf("ok %v, %+v", r.OK, *r.Baseline)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{``, "empty"},
		{`{`, "1:2: unexpected end of input"},
		{`[]`, "cannot unmarshal array"},
		{`{"kind": "toolscope-baseline", "version": 1, "extra": 1}`, `unknown field "extra"`},
		{`{"kind": "other", "version": 1}`, "not a toolscope baseline"},
		{`{"kind": "toolscope-baseline", "version": 2}`, "version 2"},
		{`{"kind": "toolscope-baseline", "version": 1, "findings": [{"tool": "t", "severity": "warn"}]}`, "findings[0]: want a rule"},
		{`{"kind": "toolscope-baseline", "version": 1, "findings": [{"rule": "r", "tool": "t", "severity": "info"}]}`, `findings[0]: severity "info"`},
		{`{"kind": "toolscope-baseline", "version": 1, "pairs": [{"a": "x"}]}`, `pairs[0]: kind ""`},
		{`{"kind": "toolscope-baseline", "version": 1, "pairs": [{"a": "x", "b": "y", "kind": "close"}]}`, `pairs[0]: kind "close"`},
		{"{\n \"kind\": \"toolscope-baseline\",\n \"version\": \"1\"}", "3:"},
		{`{"kind": "toolscope-baseline", "version": 1} {}`, "text after the JSON value"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): %v, want one line with %q", c.in, err, c.want)
		}
	}
}

// A baseline saved with a byte order mark reads; positions count from the
// character after it; a mark anywhere else is no JSON.
func TestParseSkipsALeadingBOM(t *testing.T) {
	if _, err := Parse([]byte("\ufeff" + `{"kind": "toolscope-baseline", "version": 1}`)); err != nil {
		t.Errorf("a leading byte order mark: %v", err)
	}
	if _, err := Parse([]byte("\ufeff{")); err == nil || !strings.HasPrefix(err.Error(), "1:2:") {
		t.Errorf("an error after the mark: %v, want it at 1:2, after the brace (not counting the mark)", err)
	}
	if _, err := Parse([]byte(" \ufeff" + `{"kind": "toolscope-baseline", "version": 1}`)); err == nil {
		t.Error("a mark after a space was read")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("\ufeff" + `{"kind": "toolscope-baseline", "version": 1}`))
	f.Add([]byte(`{"kind": "toolscope-baseline", "version": 1, "findings": [{"rule": "r", "tool": "t", "severity": "warn", "message": "m"}], "pairs": [{"a": "y", "b": "x", "kind": "watch"}]}`))
	f.Add([]byte(`{"kind": "toolscope-baseline", "version": 1}`))
	f.Add([]byte(`{"kind": "toolscope-baseline", "version": 1, "findings": [], "pairs": [], "catalogs": [{"path": "a/tools.json", "findings": [{"rule": "r", "tool": "t", "severity": "error", "message": "m"}], "pairs": [{"a": "y", "b": "x", "kind": "confusable"}], "tools": [{"name": "t", "description": "abc"}]}], "tools": [{"name": "x"}]}`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Parse(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("a multi-line error: %q", err)
			}
			return
		}
		// What parses writes back to what parses the same.
		var buf bytes.Buffer
		if err := b.Write(&buf); err != nil {
			t.Fatal(err)
		}
		again, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("a written baseline does not parse: %v", err)
		}
		var buf2 bytes.Buffer
		again.Write(&buf2)
		if buf.String() != buf2.String() {
			t.Errorf("round trip differs")
		}
		b.Apply(report(nil), cat("a"), "f", false)
	})
}

// What a project config accepted after the baseline was written carries a
// state, is not reported absent, and counts nowhere.
func TestApplyMatchesSuppressed(t *testing.T) {
	f := finding("enum", "a", "x", lint.SeverityWarn, "m")
	base := FromReport(report([]lint.Finding{f}, pair(similarity.Confusable, "a", "b")))
	r := report(nil)
	sf, sp := f, pair(similarity.Confusable, "b", "a")
	sf.Suppression, sp.Suppression = "reviewed", "reviewed"
	fresh := finding("enum", "c", "", lint.SeverityError, "m")
	r.Suppressed = &lint.Suppressed{Findings: []lint.Finding{sf, fresh}, Pairs: []similarity.PairFinding{sp}}
	base.Apply(r, cat("a", "b", "c"), "b.json", false)
	b := r.Baseline
	if !r.OK || b.Absent != 0 || b.New+b.Unchanged+b.Updated != 0 {
		t.Errorf("ok %v, %+v", r.OK, *b)
	}
	got := []similarity.BaselineState{r.Suppressed.Findings[0].BaselineState, r.Suppressed.Findings[1].BaselineState, r.Suppressed.Pairs[0].BaselineState}
	if got[0] != similarity.BaselineUnchanged || got[1] != similarity.BaselineNew || got[2] != similarity.BaselineUnchanged {
		t.Errorf("states %v", got)
	}
}

// A baseline follows a renamed tool as diff recognises one: the same
// description, or the same parameters and a shared word in the names.
// Its pair and its finding stay unchanged, not new; a tool that is really
// new is new.
func TestBaselineFollowsRenames(t *testing.T) {
	tools := func(specs ...[3]string) *catalog.Catalog {
		c := &catalog.Catalog{Source: "t.json"}
		for i, s := range specs {
			tl := &catalog.Tool{Index: i, Name: s[0], Description: s[1]}
			if s[2] != "" {
				v, err := jsonv.Parse([]byte(s[2]))
				if err != nil {
					t.Fatal(err)
				}
				tl.Schema = v
			}
			c.Tools = append(c.Tools, tl)
		}
		return c
	}
	schema := `{"type": "object", "properties": {"q": {"type": "string"}}}`
	before := tools([3]string{"search_logs", "Search the logs.", ""}, [3]string{"search_old_logs", "Search old logs.", ""}, [3]string{"fetch_user", "", schema})
	mk := func(c *catalog.Catalog, a, b, user string) *lint.Report {
		return lint.NewReport(c, []lint.Finding{finding("r", user, "q", lint.SeverityError, "m")},
			similarity.Result{Confusable: []similarity.PairFinding{pair(similarity.Confusable, a, b)}, ConfusableCount: 1}, lint.Gate{FailOn: lint.SeverityError})
	}
	base := FromReport(mk(before, "search_logs", "search_old_logs", "fetch_user"))
	base.Remember(before)
	back, err := Parse([]byte(write(t, base)))
	if err != nil || len(back.Tools) != 3 {
		t.Fatalf("%v: tools %+v", err, back.Tools)
	}
	for _, c := range []struct {
		name    string
		cat     *catalog.Catalog
		a, b, u string
		ok      bool
	}{
		{"renamed, same description", tools([3]string{"search_logs", "Search the logs.", ""}, [3]string{"search_archived_logs", "Search old logs.", ""}, [3]string{"fetch_user", "", schema}), "search_logs", "search_archived_logs", "fetch_user", true},
		{"renamed, same schema and a shared word", tools([3]string{"search_logs", "Search the logs.", ""}, [3]string{"search_old_logs", "Search old logs.", ""}, [3]string{"get_user", "", schema}), "search_logs", "search_old_logs", "get_user", true},
		{"same schema, no shared word", tools([3]string{"search_logs", "Search the logs.", ""}, [3]string{"search_old_logs", "Search old logs.", ""}, [3]string{"get_account", "", schema}), "search_logs", "search_old_logs", "get_account", false},
		{"another tool", tools([3]string{"search_logs", "Search the logs.", ""}, [3]string{"search_all_logs", "Search every log.", ""}, [3]string{"fetch_user", "", schema}), "search_logs", "search_all_logs", "fetch_user", false},
	} {
		r := mk(c.cat, c.a, c.b, c.u)
		back.Apply(r, c.cat, "b.json", false)
		if r.OK != c.ok {
			t.Errorf("%s: ok %v, want %v (%+v)", c.name, r.OK, c.ok, r.Baseline)
		}
	}
}
