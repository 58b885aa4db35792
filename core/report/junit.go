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

func junitSuiteOf(r *lint.Report, cat *catalog.Catalog) junitSuite {
	s := junitSuite{Name: xmlText(cat.Source)}
	_, file := artifactURI(cat.Source)
	cases := make([]junitCase, len(cat.Tools))
	for i, t := range cat.Tools {
		cases[i] = junitCase{Name: xmlText(t.Name), ClassName: xmlText(cat.Source)}
		if file {
			cases[i].File, cases[i].Line = xmlText(cat.Source), t.Pos.Line
		}
	}
	fails := func(state similarity.BaselineState) bool {
		return r.Baseline == nil || state == similarity.BaselineNew || state == similarity.BaselineUpdated
	}
	var out = make([][]string, len(cat.Tools))
	// A finding on no tool (an mcp-config's, on a server that was not
	// started) is a case of its own, one per server, so that the
	// failures agree with the gate.
	serverCase := map[string]int{}
	for _, f := range r.Structural {
		if f.ToolIndex < 0 || f.ToolIndex >= len(cat.Tools) {
			k, ok := serverCase[f.Tool]
			if !ok {
				k = len(cases)
				serverCase[f.Tool] = k
				name := f.Tool
				if f.File != "" {
					name = "server " + f.Tool + " (config)"
				}
				c := junitCase{Name: xmlText(name), ClassName: xmlText(cat.Source)}
				if _, isFile := artifactURI(f.File); isFile {
					c.File, c.Line = xmlText(f.File), f.Line
				}
				cases = append(cases, c)
				out = append(out, nil)
			}
			f.ToolIndex = k
		}
		text := fmt.Sprintf("%s: %s", findingWhere(f), f.Message)
		if f.Line > 0 {
			text = fmt.Sprintf("%s (line %d)", text, f.Line)
		}
		failing := f.Severity == lint.SeverityError || r.FailOn == lint.SeverityWarn
		if failing && fails(f.BaselineState) {
			cases[f.ToolIndex].Failures = append(cases[f.ToolIndex].Failures, junitFailure{Message: xmlText(ruleLabel(f) + ": " + f.Message), Type: f.Rule, Text: xmlText(modelSays(f, text))})
		} else {
			out[f.ToolIndex] = append(out[f.ToolIndex], string(f.Severity)+" "+ruleLabel(f)+": "+text)
		}
	}
	for _, list := range [][]similarity.PairFinding{r.Similarity.Confusable, r.Similarity.Watch} {
		for _, p := range list {
			if p.I < 0 || p.I >= len(cases) {
				continue
			}
			text := fmt.Sprintf("%s and %s are %s. Hint: %s", p.A, p.B, verdictPhrase(p.Kind), p.Hint)
			if (p.Kind == similarity.Confusable || r.Review) && fails(p.BaselineState) {
				rule := sarifConfusableRule
				if p.Kind == similarity.Watch {
					rule = sarifWatchRule
				}
				cases[p.I].Failures = append(cases[p.I].Failures, junitFailure{Message: xmlText(fmt.Sprintf("%s and %s are %s", p.A, p.B, verdictPhrase(p.Kind))), Type: rule, Text: xmlText(text)})
			} else {
				out[p.I] = append(out[p.I], text)
			}
		}
	}
	for i := range cases {
		cases[i].SystemOut = xmlText(strings.Join(out[i], "\n"))
	}
	if len(r.FailedOn) > 0 {
		gate := junitCase{Name: "gate", ClassName: xmlText(cat.Source)}
		for _, why := range r.FailedOn {
			gate.Failures = append(gate.Failures, junitFailure{Message: xmlText(why), Type: "gate"})
		}
		cases = append(cases, gate)
	}
	s.Cases = cases
	s.Tests = len(cases)
	for _, c := range cases {
		if len(c.Failures) > 0 {
			s.Failures++
		}
	}
	return s
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
