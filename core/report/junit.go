package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
)

// JUnit XML for CI systems that show test results but read no SARIF
// (Jenkins, GitLab, Azure Pipelines, CircleCI): one test suite per
// catalog, one test case per tool, a failure per result that fails the
// gate, the others as the case's output.

// JUnitRun is one catalog's report, for a document of several suites.
type JUnitRun struct {
	Report  *lint.Report
	Catalog *catalog.Catalog
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string         `xml:"name,attr"`
	ClassName string         `xml:"classname,attr"`
	File      string         `xml:"file,attr,omitempty"`
	Line      int            `xml:"line,attr,omitempty"`
	Failures  []junitFailure `xml:"failure"`
	SystemOut string         `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the reports as one JUnit XML document. A tool's case
// fails on an error finding (a warning too when the gate counts them),
// on a confusable pair it is the first of, and for a new failing result
// only when a baseline was applied; a catalog-wide failure (FailedOn)
// fails a case named after the gate itself.
func WriteJUnit(w io.Writer, runs []JUnitRun) error {
	doc := junitSuites{Name: "toolscope lint"}
	for _, run := range runs {
		s := junitSuiteOf(run.Report, run.Catalog)
		doc.Suites = append(doc.Suites, s)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitSuiteOf is a catalog's suite: a case per tool (and per server a
// config's finding is on), failing with the findings and verdicts that
// fail the gate, the rest as the case's output, and a case for the gate
// when it failed on something else.
func junitSuiteOf(r *lint.Report, cat *catalog.Catalog) junitSuite {
	b := newJUnitCases(r, cat)
	for _, f := range r.Structural {
		b.addFinding(f)
	}
	for _, list := range [][]similarity.PairFinding{r.Similarity.Confusable, r.Similarity.Watch} {
		for _, p := range list {
			b.addPair(p)
		}
	}
	cases := b.cases
	for i := range cases {
		cases[i].SystemOut = xmlText(strings.Join(b.out[i], "\n"))
	}
	if len(r.FailedOn) > 0 {
		gate := junitCase{Name: "gate", ClassName: xmlText(cat.Source)}
		for _, why := range r.FailedOn {
			gate.Failures = append(gate.Failures, junitFailure{Message: xmlText(why), Type: "gate"})
		}
		cases = append(cases, gate)
	}
	s := junitSuite{Name: xmlText(cat.Source), Cases: cases, Tests: len(cases)}
	for _, c := range cases {
		if len(c.Failures) > 0 {
			s.Failures++
		}
	}
	return s
}

// junitCases fills a suite's cases: their failures, and the lines each
// case writes as its output.
type junitCases struct {
	r          *lint.Report
	cat        *catalog.Catalog
	cases      []junitCase
	out        [][]string     // each case's output lines
	serverCase map[string]int // the case of each server with a finding
}

// newJUnitCases is a case per tool, placed in the catalog when it is a
// file.
func newJUnitCases(r *lint.Report, cat *catalog.Catalog) *junitCases {
	_, file := artifactURI(cat.Source)
	cases := make([]junitCase, len(cat.Tools))
	for i, t := range cat.Tools {
		cases[i] = junitCase{Name: xmlText(t.Name), ClassName: xmlText(cat.Source)}
		if file {
			cases[i].File, cases[i].Line = xmlText(cat.Source), t.Pos.Line
		}
	}
	return &junitCases{r: r, cat: cat, cases: cases, out: make([][]string, len(cat.Tools)), serverCase: map[string]int{}}
}

// fails is whether a result in state fails its case: with a baseline,
// only what is new or changed since it does.
func (b *junitCases) fails(state similarity.BaselineState) bool {
	return b.r.Baseline == nil || state == similarity.BaselineNew || state == similarity.BaselineUpdated
}

// caseOf is the index of f's case. A finding on no tool (an
// mcp-config's, on a server that was not started) is a case of its own,
// one per server, so that the failures agree with the gate.
func (b *junitCases) caseOf(f lint.Finding) int {
	if f.ToolIndex >= 0 && f.ToolIndex < len(b.cat.Tools) {
		return f.ToolIndex
	}
	if k, ok := b.serverCase[f.Tool]; ok {
		return k
	}
	k := len(b.cases)
	b.serverCase[f.Tool] = k
	name := f.Tool
	if f.File != "" {
		name = "server " + f.Tool + " (config)"
	}
	c := junitCase{Name: xmlText(name), ClassName: xmlText(b.cat.Source)}
	if _, isFile := artifactURI(f.File); isFile {
		c.File, c.Line = xmlText(f.File), f.Line
	}
	b.cases = append(b.cases, c)
	b.out = append(b.out, nil)
	return k
}

// addFinding adds a structural finding to its case: a failure when it
// fails the gate, a line of output otherwise.
func (b *junitCases) addFinding(f lint.Finding) {
	k := b.caseOf(f)
	text := fmt.Sprintf("%s: %s", findingWhere(f), f.Message)
	if f.Line > 0 {
		text = fmt.Sprintf("%s (line %d)", text, f.Line)
	}
	failing := f.Severity == lint.SeverityError || b.r.FailOn == lint.SeverityWarn
	if failing && b.fails(f.BaselineState) {
		b.cases[k].Failures = append(b.cases[k].Failures, junitFailure{Message: xmlText(ruleLabel(f) + ": " + f.Message), Type: f.Rule, Text: xmlText(modelSays(f, text))})
	} else {
		b.out[k] = append(b.out[k], string(f.Severity)+" "+ruleLabel(f)+": "+text)
	}
}

// addPair adds a pair verdict to its first tool's case: a failure when
// it fails the gate (a watch pair only in a review run), a line of
// output otherwise.
func (b *junitCases) addPair(p similarity.PairFinding) {
	if p.I < 0 || p.I >= len(b.cases) {
		return
	}
	text := fmt.Sprintf("%s and %s are %s. Hint: %s", p.A, p.B, verdictPhrase(p.Kind), p.Hint)
	if (p.Kind == similarity.Confusable || b.r.Review) && b.fails(p.BaselineState) {
		rule := sarifConfusableRule
		if p.Kind == similarity.Watch {
			rule = sarifWatchRule
		}
		b.cases[p.I].Failures = append(b.cases[p.I].Failures, junitFailure{Message: xmlText(fmt.Sprintf("%s and %s are %s", p.A, p.B, verdictPhrase(p.Kind))), Type: rule, Text: xmlText(text)})
	} else {
		b.out[p.I] = append(b.out[p.I], text)
	}
}

// xmlText makes catalog text fit XML 1.0, which has no way to write most
// control characters, and safe to print: they are spelled out, as every
// other output spells them.
// The noncharacters U+FFFE and U+FFFF, which XML 1.0 cannot hold either
// and the encoder would turn into U+FFFD, are spelled out too.
func xmlText(s string) string {
	return xmlNonChars.Replace(termsafe.Block(strings.ReplaceAll(s, "\r", "")))
}

var xmlNonChars = strings.NewReplacer("\ufffe", `\ufffe`, "\uffff", `\uffff`)
