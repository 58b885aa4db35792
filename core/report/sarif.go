package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
)

// SARIF 2.1.0 output for code-scanning UIs: one run, the rule pack (with
// the pair verdicts as two more rules) as the driver's rules, and one
// result per finding and per verdict pointing at the tool's line in the
// catalog file.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool      sarifTool       `json:"tool"`
	Artifacts []sarifArtifact `json:"artifacts,omitempty"`
	Results   []sarifResult   `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	Name                 string      `json:"name"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      sarifText   `json:"fullDescription"`
	Help                 sarifText   `json:"help"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifArtifact struct {
	Location sarifArtifactLocation `json:"location"`
}

type sarifArtifactLocation struct {
	URI   string `json:"uri"`
	Index *int   `json:"index,omitempty"`
}

type sarifResult struct {
	RuleID    string `json:"ruleId"`
	RuleIndex int    `json:"ruleIndex"`
	// Kind is "pass" for a baseline's absent result (no alert), else left
	// out (SARIF's default, "fail").
	Kind                string                   `json:"kind,omitempty"`
	Level               string                   `json:"level"`
	Message             sarifText                `json:"message"`
	Locations           []sarifLocation          `json:"locations"`
	RelatedLocations    []sarifLocation          `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string        `json:"partialFingerprints"`
	BaselineState       similarity.BaselineState `json:"baselineState,omitempty"`
	Suppressions        []sarifSuppression       `json:"suppressions,omitempty"`
}

// sarifSuppression is a project config's acceptance of a result.
type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

func suppressions(reason string) []sarifSuppression {
	if reason == "" {
		return nil
	}
	return []sarifSuppression{{Kind: "external", Justification: reason}}
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	PhysicalLocation *sarifPhysical         `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	Message          *sarifText             `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogicalLocation struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
	Kind               string `json:"kind"`
}

// The pseudo-rules under which pair verdicts are reported.
const (
	sarifConfusableRule = "confusable-pair"
	sarifWatchRule      = "watch-pair"
)

// SARIFOptions shape the SARIF log.
type SARIFOptions struct {
	// Rules is the pack that ran, for the driver's rule list.
	Rules []lint.Rule
	// Version is toolscope's version, "" when unknown.
	Version string
}

// WriteSARIF writes the report as a SARIF 2.1.0 log about cat's file.
func WriteSARIF(w io.Writer, r *lint.Report, cat *catalog.Catalog, o SARIFOptions) error {
	driver := sarifDriver{Name: "toolscope", Version: o.Version}
	index := map[string]int{}
	for _, rule := range o.Rules {
		index[rule.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(rule))
	}
	for _, rule := range pairRules() {
		index[rule.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(rule))
	}
	run := sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}}
	uri, file := artifactURI(cat.Source)
	if file {
		run.Artifacts = []sarifArtifact{{Location: sarifArtifactLocation{URI: uri}}}
	}
	locate := func(toolIndex int, tool, param string) sarifLocation {
		fq := tool
		if param != "" {
			fq += "." + param
		}
		loc := sarifLocation{LogicalLocations: []sarifLogicalLocation{{Name: tool, FullyQualifiedName: fq, Kind: "function"}}}
		if file && toolIndex >= 0 && toolIndex < len(cat.Tools) {
			t := cat.Tools[toolIndex]
			zero := 0
			loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: sarifArtifactLocation{URI: uri, Index: &zero}}
			if t.Pos.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: t.Pos.Line, StartColumn: t.Pos.Col}
			}
		}
		return loc
	}
	findings, pairs := [][]lint.Finding{r.Structural}, [][]similarity.PairFinding{r.Similarity.Confusable, r.Similarity.Watch}
	if r.Baseline != nil {
		findings = append(findings, r.Baseline.AbsentFindings)
		pairs = append(pairs, r.Baseline.AbsentPairs)
	}
	if r.Suppressed != nil {
		findings = append(findings, r.Suppressed.Findings)
		pairs = append(pairs, r.Suppressed.Pairs)
	}
	for _, f := range slices.Concat(findings...) {
		ri, ok := index[f.Rule]
		if !ok {
			// A finding from a rule the caller did not list: describe it
			// minimally so the log stays consistent.
			ri = len(run.Tool.Driver.Rules)
			index[f.Rule] = ri
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(lint.Rule{ID: f.Rule, Severity: f.Severity, Summary: f.Rule}))
		}
		msg := f.Message
		if f.Suggestion != "" {
			msg += " Suggestion: " + f.Suggestion
		}
		res := sarifResult{
			RuleID: f.Rule, RuleIndex: ri, Level: sarifLevel(f.Severity),
			Message:             sarifText{Text: msg},
			Locations:           []sarifLocation{locate(f.ToolIndex, f.Tool, f.Param)},
			PartialFingerprints: partialFingerprints(lint.FindingKey(f)),
			BaselineState:       f.BaselineState,
			Suppressions:        suppressions(f.Suppression),
		}
		if f.BaselineState == similarity.BaselineAbsent {
			res.Kind, res.Level = "pass", "none"
			res.Message.Text = "no longer reported (in the baseline): " + msg
		}
		run.Results = append(run.Results, res)
	}
	sim := r.Similarity
	for _, p := range slices.Concat(pairs...) {
		id, level := sarifConfusableRule, "error"
		if p.Kind == similarity.Watch {
			id, level = sarifWatchRule, "note"
		}
		related := locate(p.J, p.B, "")
		one := 1
		related.ID = &one
		related.Message = &sarifText{Text: p.B}
		why := ""
		if len(p.Reasons) > 0 {
			why = " Why: " + ReasonsText(p.Reasons) + "."
		}
		res := sarifResult{
			RuleID: id, RuleIndex: index[id], Level: level,
			Message: sarifText{Text: fmt.Sprintf("%s and [%s](1) are %s (%s).%s Hint: %s",
				sarifPlain(p.A), sarifPlain(p.B), p.Kind, scoredAs(sim.Scoring, p.Pair), why, p.Hint)},
			Locations:           []sarifLocation{locate(p.I, p.A, "")},
			RelatedLocations:    []sarifLocation{related},
			PartialFingerprints: partialFingerprints(lint.PairKey(p.A, p.B)),
			BaselineState:       p.BaselineState,
			Suppressions:        suppressions(p.Suppression),
		}
		if p.BaselineState == similarity.BaselineAbsent {
			res.Kind, res.Level = "pass", "none"
			res.Message.Text = fmt.Sprintf("%s and [%s](1) are no longer %s (in the baseline)", sarifPlain(p.A), sarifPlain(p.B), p.Kind)
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(termsafe.JSON(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// pairRules describe the verdicts as rules, for code-scanning UIs.
func pairRules() []lint.Rule {
	return []lint.Rule{
		{ID: sarifConfusableRule, Severity: lint.SeverityError, Summary: "two tools a model could mix up",
			Teaching: lint.Teaching{
				Why: "The pair scores at or above the confusability threshold: what the model reads of the two tools (names and descriptions) is so alike that it may call one for the other.",
				Fix: "Make the differentiating axis explicit in both descriptions: say WHEN to choose each (the hint names the words to build on), or merge the two into one tool with a parameter.",
				Before: `get_fcns_database: "FC name server registrations."
influx_get_fcns_database: "FC name server registrations."`,
				After: `get_fcns_database: "FC name server registrations, live from the switch. Use for the fabric right now."
influx_get_fcns_database: "FC name server registrations as recorded in InfluxDB. Use for history and trends."`,
			}},
		{ID: sarifWatchRule, Severity: lint.SeverityWarn, Summary: "two tools close to confusable",
			Teaching: lint.Teaching{
				Why:    "The pair scores within the watch band below the threshold: not confusable yet, but one more similar sentence away. Advisory; it never fails the gate.",
				Fix:    "Read the two descriptions side by side and make sure each says when it is the right call.",
				Before: `list_volumes: "Lists volumes."`,
				After:  `list_volumes: "Lists volumes in a pool. Use first, to find a volume id for get_volume."`,
			}},
	}
}

func sarifRuleOf(r lint.Rule) sarifRule {
	t := r.Teaching
	text := strings.Join(nonEmpty(t.Why, t.Fix, labelled("Before:", t.Before), labelled("After:", t.After)), "\n\n")
	md := strings.Join(nonEmpty(t.Why, t.Fix, fenced("Before", t.Before), fenced("After", t.After)), "\n\n")
	if text == "" {
		text, md = r.Summary, r.Summary
	}
	full := t.Why
	if full == "" {
		full = r.Summary
	}
	return sarifRule{
		ID: r.ID, Name: pascal(r.ID),
		ShortDescription:     sarifText{Text: r.Summary},
		FullDescription:      sarifText{Text: full},
		Help:                 sarifText{Text: text, Markdown: md},
		DefaultConfiguration: sarifConfig{Level: sarifLevel(r.Severity)},
	}
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func labelled(label, s string) string {
	if s == "" {
		return ""
	}
	return label + "\n" + s
}

func fenced(label, s string) string {
	if s == "" {
		return ""
	}
	return "**" + label + "**\n\n```json\n" + s + "\n```"
}

func sarifLevel(s lint.Severity) string {
	if s == lint.SeverityError {
		return "error"
	}
	return "warning"
}

// pascal turns a kebab-case id into the PascalCase name SARIF suggests.
func pascal(id string) string {
	var b strings.Builder
	for _, w := range strings.Split(id, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// artifactURI turns a catalog source into a URI reference for SARIF; file
// is false when the catalog did not come from a file (stdin, a live
// server), and results then carry logical locations only.
func artifactURI(source string) (uri string, file bool) {
	switch {
	case source == "" || source == "-" || source == "stdin",
		strings.HasPrefix(source, "mcp:"), strings.Contains(source, "://"):
		return "", false
	}
	p := filepath.ToSlash(source)
	if filepath.IsAbs(source) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		return (&url.URL{Scheme: "file", Path: p}).String(), true
	}
	return (&url.URL{Path: p}).String(), true
}

// sarifPlain escapes text placed in a SARIF message beside an embedded
// link: a tool name holding "](" must not forge a link of its own
// (SARIF 2.1.0 §3.11.6 escapes brackets and backslashes with a backslash).
func sarifPlain(s string) string { return sarifPlainEscaper.Replace(s) }

var sarifPlainEscaper = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`)

// partialFingerprints carries a result's key, hashed, under the scheme's
// version.
func partialFingerprints(key string) map[string]string {
	return map[string]string{lint.FingerprintVersion: lint.Fingerprint(key)}
}
