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
	Tool               sarifTool                        `json:"tool"`
	AutomationDetails  *sarifAutomation                 `json:"automationDetails,omitempty"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Artifacts          []sarifArtifact                  `json:"artifacts,omitempty"`
	Results            []sarifResult                    `json:"results"`
}

// sarifAutomation is a run's runAutomationDetails: its id's part before
// the last "/" is the category GitHub code scanning files the run's
// alerts under, one per catalog.
type sarifAutomation struct {
	ID string `json:"id"`
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
	ID string `json:"id"`
	// DeprecatedIDs are the rule's old ids: review-pair was watch-pair.
	DeprecatedIDs        []string    `json:"deprecatedIds,omitempty"`
	Name                 string      `json:"name"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      sarifText   `json:"fullDescription"`
	Help                 sarifText   `json:"help"`
	HelpURI              string      `json:"helpUri,omitempty"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level string `json:"level"`
}

type sarifArtifact struct {
	Location sarifArtifactLocation `json:"location"`
}

type sarifArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
	Index     *int   `json:"index,omitempty"`
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
	Fixes               []sarifFix               `json:"fixes,omitempty"`
	// Properties mark a model's finding: the reviewer and the category.
	Properties map[string]string `json:"properties,omitempty"`
}

// sarifFix is a finding's fix as byte replacements in the catalog file.
type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifByteRegion `json:"deletedRegion"`
	InsertedContent *sarifContent   `json:"insertedContent,omitempty"`
}

type sarifByteRegion struct {
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
}

type sarifContent struct {
	Text string `json:"text"`
}

// sarifFixes is f's fix as SARIF fixes on the file at loc, none when f
// has none or there is no source text to place it in (editor nil).
func sarifFixes(f lint.Finding, editor *catalog.Editor, loc sarifArtifactLocation) []sarifFix {
	if len(f.Fix) == 0 || editor == nil {
		return nil
	}
	edits, err := editor.Edits(f.Fix)
	if err != nil || len(edits) == 0 {
		return nil
	}
	change := sarifArtifactChange{ArtifactLocation: loc}
	for _, e := range edits {
		change.Replacements = append(change.Replacements, sarifReplacement{
			DeletedRegion:   sarifByteRegion{ByteOffset: e.Offset, ByteLength: e.Length},
			InsertedContent: &sarifContent{Text: e.Text}})
	}
	desc := f.Suggestion
	if desc == "" {
		desc = "the fix toolscope lint --fix applies"
	}
	return []sarifFix{{Description: sarifText{Text: desc}, ArtifactChanges: []sarifArtifactChange{change}}}
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
	sarifWatchRule      = "review-pair"
)

// SARIFOptions shape the SARIF log.
type SARIFOptions struct {
	// Rules is the pack that ran, for the driver's rule list, each with
	// the severity it ran at (a config may raise one).
	Rules []lint.Rule
	// Version is toolscope's version, "" when unknown.
	Version string
	// InformationURI is toolscope's home page, HelpURI a rule's page
	// (given its id); "" and nil leave them out.
	InformationURI string
	HelpURI        func(ruleID string) string
	// SrcRoot is the absolute directory relative catalog paths start from
	// (the repository's root): the runs declare it as %SRCROOT%, and
	// artifact locations refer to it. "" leaves paths as they are.
	SrcRoot string
}

// SARIFRun is one catalog's report, for a log of several runs.
type SARIFRun struct {
	Report  *lint.Report
	Catalog *catalog.Catalog
	// Rules is the pack that ran on this catalog (its config's).
	Rules []lint.Rule
	// Pack names the rule pack (the config's path, "" for none): in a log
	// of more than MaxSARIFRuns catalogs, the catalogs of one pack share a
	// run.
	Pack string
}

// MaxSARIFRuns is the most runs a log holds: GitHub code scanning refuses
// a file of more. A log of more catalogs has a run per rule pack instead
// of one per catalog.
const MaxSARIFRuns = 20

// MaxSARIFResults is the most results WriteSARIF writes: GitHub code
// scanning refuses a run with more, and a log that size already takes
// hundreds of megabytes (a 40 MB baseline's absent findings made 323 MB).
const MaxSARIFResults = 25_000

// WriteSARIF writes the report as a SARIF 2.1.0 log about cat's file; a
// report with more than MaxSARIFResults results is refused whole, before
// anything is written or built.
func WriteSARIF(w io.Writer, r *lint.Report, cat *catalog.Catalog, o SARIFOptions) error {
	return WriteSARIFRuns(w, []SARIFRun{{Report: r, Catalog: cat, Rules: o.Rules}}, o)
}

// WriteSARIFRuns writes one SARIF 2.1.0 log. Up to MaxSARIFRuns catalogs
// get a run each, with its own runAutomationDetails.id
// ("toolscope/PATH/"): GitHub code scanning no longer merges several runs
// of one category in an upload. More catalogs than that share a run per
// rule pack ("toolscope/catalogs/", or "toolscope/catalogs/PACK/" when
// there are several), which describes its rules once and lists every
// catalog as an artifact: GitHub refuses a file of more than 20 runs, and
// a run per catalog repeated the rules' help in each. A run with more than
// MaxSARIFResults results, or more than MaxSARIFRuns packs, is refused
// before anything is written.
func WriteSARIFRuns(w io.Writer, runs []SARIFRun, o SARIFOptions) error {
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{}}
	if len(runs) <= MaxSARIFRuns {
		for _, r := range runs {
			if n := sarifResultCount(r.Report); n > MaxSARIFResults {
				return fmt.Errorf("%s: the SARIF log would hold %d results, over the %d a run may hold (GitHub code scanning refuses more): fix or ignore findings, use a baseline that matches the catalog, or choose another format", r.Catalog.Source, n, MaxSARIFResults)
			}
		}
		for _, r := range runs {
			log.Runs = append(log.Runs, sarifRunOf(r.Report, r.Catalog, r.Rules, o))
		}
	} else {
		packed, err := sarifPackedRuns(runs, o)
		if err != nil {
			return err
		}
		log.Runs = packed
	}
	enc := json.NewEncoder(termsafe.JSON(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// srcRoot is the base id relative artifact locations refer to.
const srcRoot = "%SRCROOT%"

// sarifPackedRuns is a run per rule pack, in the order packs are first
// met, each holding its catalogs' results.
func sarifPackedRuns(runs []SARIFRun, o SARIFOptions) ([]sarifRun, error) {
	var packs []string
	byPack := map[string][]SARIFRun{}
	for _, r := range runs {
		if _, ok := byPack[r.Pack]; !ok {
			packs = append(packs, r.Pack)
		}
		byPack[r.Pack] = append(byPack[r.Pack], r)
	}
	if len(packs) > MaxSARIFRuns {
		return nil, fmt.Errorf("the SARIF log would hold %d runs, one per config, over the %d a file may hold (GitHub code scanning refuses more): lint fewer configs' catalogs in one run, or choose another format", len(packs), MaxSARIFRuns)
	}
	var out []sarifRun
	for _, p := range packs {
		n := 0
		for _, r := range byPack[p] {
			n += sarifResultCount(r.Report)
		}
		if n > MaxSARIFResults {
			where := "the catalogs linted without a config"
			if p != "" {
				where = "the catalogs of " + p
			}
			return nil, fmt.Errorf("%s: the SARIF log would hold %d results in one run, over the %d a run may hold (GitHub code scanning refuses more): fix or ignore findings, use baselines, lint them in several runs, or choose another format", where, n, MaxSARIFResults)
		}
		b := newSARIFRun(byPack[p][0].Rules, o)
		for _, r := range byPack[p] {
			b.add(r.Report, r.Catalog)
		}
		id := "toolscope/catalogs/"
		if len(packs) > 1 {
			id += sarifPackName(p) + "/"
		}
		b.run.AutomationDetails = &sarifAutomation{ID: id}
		out = append(out, b.run)
	}
	return out, nil
}

// sarifPackName is a pack's part of a category: the config's path as a
// URI, "default" for none.
func sarifPackName(pack string) string {
	if pack == "" {
		return "default"
	}
	uri, _ := artifactURI(pack)
	return uri
}

// sarifRunOf is the run of one catalog.
func sarifRunOf(r *lint.Report, cat *catalog.Catalog, rules []lint.Rule, o SARIFOptions) sarifRun {
	b := newSARIFRun(rules, o)
	if uri, file := b.add(r, cat); file {
		b.run.AutomationDetails = &sarifAutomation{ID: "toolscope/" + uri + "/"}
	}
	return b.run
}

// sarifRunBuilder fills one run: its rules described once, then the
// results of each catalog added.
type sarifRunBuilder struct {
	run   sarifRun
	index map[string]int
	o     SARIFOptions
}

func newSARIFRun(rules []lint.Rule, o SARIFOptions) *sarifRunBuilder {
	driver := sarifDriver{Name: "toolscope", Version: o.Version, InformationURI: o.InformationURI}
	index := map[string]int{}
	for _, rule := range rules {
		index[rule.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(rule, o))
	}
	for _, rule := range pairRules() {
		index[rule.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(rule, o))
	}
	return &sarifRunBuilder{run: sarifRun{Tool: sarifTool{Driver: driver}, Results: []sarifResult{}}, index: index, o: o}
}

// add appends cat's artifact (when it is a file) and r's results; uri is
// the artifact's.
func (b *sarifRunBuilder) add(r *lint.Report, cat *catalog.Catalog) (uri string, file bool) {
	c := &sarifCatalog{b: b, cat: cat, artifact: len(b.run.Artifacts)}
	c.uri, c.file = artifactURI(cat.Source)
	if c.file {
		c.base = b.baseOf(c.uri)
		b.run.Artifacts = append(b.run.Artifacts, sarifArtifact{Location: sarifArtifactLocation{URI: c.uri, URIBaseID: c.base}})
	}
	findings, pairs := sarifReported(r)
	for _, f := range findings {
		res := c.findingResult(f)
		b.run.Results = append(b.run.Results, res)
	}
	sim := r.Similarity
	for _, p := range pairs {
		res := c.pairResult(p, &sim, r.Review)
		b.run.Results = append(b.run.Results, res)
	}
	return c.uri, c.file
}

// sarifReported is every finding and pair a report's run holds, in the
// order they are written: the current ones, then those the baseline
// holds and the catalog no longer has, then the suppressed.
func sarifReported(r *lint.Report) ([]lint.Finding, []similarity.PairFinding) {
	findings, pairs := [][]lint.Finding{r.Structural}, [][]similarity.PairFinding{r.Similarity.Confusable, r.Similarity.Watch}
	if r.Baseline != nil {
		findings = append(findings, r.Baseline.AbsentFindings)
		pairs = append(pairs, r.Baseline.AbsentPairs)
	}
	if r.Suppressed != nil {
		findings = append(findings, r.Suppressed.Findings)
		pairs = append(pairs, r.Suppressed.Pairs)
	}
	return slices.Concat(findings...), slices.Concat(pairs...)
}

// sarifCatalog is one catalog being added to a run: where its own
// artifact is, so that its results can point into it.
type sarifCatalog struct {
	b        *sarifRunBuilder
	cat      *catalog.Catalog
	uri      string // the catalog's artifact URI
	file     bool   // whether the catalog is a file (and so an artifact)
	base     string // the base id uri is relative to, "" for none
	artifact int    // the index of the catalog's artifact in the run
	editor   *catalog.Editor
}

// baseOf is the base a relative artifact URI is under: the repository's
// root (%SRCROOT%) when known, which the run then declares.
func (b *sarifRunBuilder) baseOf(uri string) string {
	if b.o.SrcRoot == "" || strings.Contains(uri, ":") || strings.HasPrefix(uri, "/") {
		return ""
	}
	rootURI := (&url.URL{Scheme: "file", Path: strings.TrimSuffix(filepath.ToSlash(b.o.SrcRoot), "/") + "/"})
	if !strings.HasPrefix(rootURI.Path, "/") {
		rootURI.Path = "/" + rootURI.Path
	}
	b.run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: rootURI.String()}}
	return srcRoot
}

// artifactOf is the index and URI of the artifact of another file a
// result is in (an mcp-config's), added once; false when other is not a
// file.
func (b *sarifRunBuilder) artifactOf(other string) (int, string, bool) {
	u, ok := artifactURI(other)
	if !ok {
		return 0, "", false
	}
	for k, a := range b.run.Artifacts {
		if a.Location.URI == u {
			return k, u, true
		}
	}
	b.run.Artifacts = append(b.run.Artifacts, sarifArtifact{Location: sarifArtifactLocation{URI: u, URIBaseID: b.baseOf(u)}})
	return len(b.run.Artifacts) - 1, u, true
}

// ruleIndex is the index of f's rule among the driver's rules. A finding
// from a rule the caller did not list gets a minimal description, so
// that the log stays consistent.
func (b *sarifRunBuilder) ruleIndex(f lint.Finding) int {
	if ri, ok := b.index[f.Rule]; ok {
		return ri
	}
	ri := len(b.run.Tool.Driver.Rules)
	b.index[f.Rule] = ri
	summary := f.Rule
	if f.Rule == lint.RuleModelReview {
		summary = modelRuleSummary
	}
	b.run.Tool.Driver.Rules = append(b.run.Tool.Driver.Rules, sarifRuleOf(lint.Rule{ID: f.Rule, Severity: f.Severity, Summary: summary}, b.o))
	return ri
}

// ownLocation is the catalog's own artifact, for a location in it.
func (c *sarifCatalog) ownLocation() sarifArtifactLocation {
	at := c.artifact
	return sarifArtifactLocation{URI: c.uri, URIBaseID: c.base, Index: &at}
}

// sourceEditor edits the catalog's source for fixes; the source is read
// once for every fix of the catalog. Nil when there is no source.
func (c *sarifCatalog) sourceEditor() *catalog.Editor {
	if c.editor == nil && c.cat.SourceBytes() != nil {
		c.editor, _ = catalog.NewEditor(c.cat.SourceBytes())
	}
	return c.editor
}

// locate is a result's location: at line:col, or at the tool's own
// position when line is 0; in its own file when it names one.
func (c *sarifCatalog) locate(toolIndex int, tool, param string, line, col int, own string) sarifLocation {
	fq := tool
	if param != "" {
		fq += "." + param
	}
	loc := sarifLocation{LogicalLocations: []sarifLogicalLocation{{Name: tool, FullyQualifiedName: fq, Kind: "function"}}}
	if own != "" && line > 0 {
		if at, u, ok := c.b.artifactOf(own); ok {
			loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: sarifArtifactLocation{URI: u, URIBaseID: c.b.run.Artifacts[at].Location.URIBaseID, Index: &at},
				Region: &sarifRegion{StartLine: line, StartColumn: col}}
		}
		return loc
	}
	if c.file && toolIndex >= 0 && toolIndex < len(c.cat.Tools) {
		t := c.cat.Tools[toolIndex]
		loc.PhysicalLocation = &sarifPhysical{ArtifactLocation: c.ownLocation()}
		if line == 0 {
			line, col = t.Pos.Line, t.Pos.Col
		}
		if line > 0 {
			loc.PhysicalLocation.Region = &sarifRegion{StartLine: line, StartColumn: col}
		}
	}
	return loc
}

// findingResult is the result of a structural finding.
func (c *sarifCatalog) findingResult(f lint.Finding) sarifResult {
	ri := c.b.ruleIndex(f)
	msg := modelSays(f, f.Message)
	if f.Suggestion != "" {
		msg += suggestionLabel(f) + f.Suggestion
	}
	res := sarifResult{
		RuleID: f.Rule, RuleIndex: ri, Level: sarifLevel(f.Severity),
		Message:             sarifText{Text: msg},
		Locations:           []sarifLocation{c.locate(f.ToolIndex, f.Tool, f.Param, f.Line, f.Column, f.File)},
		PartialFingerprints: partialFingerprints(lint.FindingKey(f)),
		BaselineState:       f.BaselineState,
		Suppressions:        suppressions(f.Suppression),
	}
	if c.file && f.BaselineState != similarity.BaselineAbsent && len(f.Fix) > 0 {
		res.Fixes = sarifFixes(f, c.sourceEditor(), c.ownLocation())
	}
	if f.By != "" {
		res.Properties = map[string]string{"by": f.By, "category": f.Category}
	}
	if f.BaselineState == similarity.BaselineAbsent {
		res.Kind, res.Level = "pass", "none"
		res.Message.Text = "no longer reported (in the baseline): " + msg
	}
	return res
}

// pairResult is the result of a pair verdict, pointing at the first tool
// with the second as its related location; a watch pair is an error in
// a review run.
func (c *sarifCatalog) pairResult(p similarity.PairFinding, sim *similarity.Result, review bool) sarifResult {
	id, level := sarifConfusableRule, "error"
	if p.Kind == similarity.Watch {
		id, level = sarifWatchRule, "note"
		if review {
			level = "error"
		}
	}
	related := c.locate(p.J, p.B, "", 0, 0, "")
	one := 1
	related.ID = &one
	related.Message = &sarifText{Text: p.B}
	why := ""
	if len(p.Reasons) > 0 {
		why = " Why: " + ReasonsText(p.Reasons) + "."
	}
	res := sarifResult{
		RuleID: id, RuleIndex: c.b.index[id], Level: level,
		Message: sarifText{Text: fmt.Sprintf("%s and [%s](1) are %s (%s).%s Hint: %s",
			sarifPlain(p.A), sarifPlain(p.B), verdictPhrase(p.Kind), scoredAs(sim, p.Pair)+bandNote(p), why, p.Hint)},
		Locations:           []sarifLocation{c.locate(p.I, p.A, "", 0, 0, "")},
		RelatedLocations:    []sarifLocation{related},
		PartialFingerprints: partialFingerprints(lint.PairKey(p.A, p.B)),
		BaselineState:       p.BaselineState,
		Suppressions:        suppressions(p.Suppression),
	}
	if p.BaselineState == similarity.BaselineAbsent {
		res.Kind, res.Level = "pass", "none"
		res.Message.Text = fmt.Sprintf("%s and [%s](1) are no longer %s (in the baseline)", sarifPlain(p.A), sarifPlain(p.B), verdictPhrase(p.Kind))
	}
	return res
}

// sarifResultCount is how many results WriteSARIF would write for r.
func sarifResultCount(r *lint.Report) int {
	n := len(r.Structural) + len(r.Similarity.Confusable) + len(r.Similarity.Watch)
	if r.Baseline != nil {
		n += len(r.Baseline.AbsentFindings) + len(r.Baseline.AbsentPairs)
	}
	if r.Suppressed != nil {
		n += len(r.Suppressed.Findings) + len(r.Suppressed.Pairs)
	}
	return n
}

// pairRules describe the verdicts as rules, for code-scanning UIs.
func pairRules() []lint.Rule {
	return []lint.Rule{
		{ID: sarifConfusableRule, Severity: lint.SeverityError, Summary: "two tools a model could mix up",
			Teaching: lint.Teaching{
				Why: "The pair scores at or above the confusability threshold: what the model reads of the two tools (names and descriptions) is so alike that it may call one for the other.",
				Fix: "Make the differentiating axis explicit in both descriptions: say WHEN to choose each (the hint says what differs and proposes a sentence for each; the pair clears only with both in), or merge the two into one tool with a parameter.",
				Before: `get_fcns_database: "FC name server registrations."
influx_get_fcns_database: "FC name server registrations."`,
				After: `get_fcns_database: "FC name server registrations, live from the switch. Use for the fabric right now."
influx_get_fcns_database: "FC name server registrations as recorded in InfluxDB. Use for history and trends."`,
			}},
		{ID: sarifWatchRule, Severity: lint.SeverityWarn, Summary: "two related tools to review",
			Teaching: lint.Teaching{
				Why:    "The pair is on the review list: related enough that a model may mix them up, though most such pairs are told apart. Text likeness cannot say which; a reader (or a judging model) can. Advisory: it fails the gate only under --fail-on review or --strict.",
				Fix:    "Read the two descriptions side by side and make sure each says when it is the right call.",
				Before: `list_volumes: "Lists volumes."`,
				After:  `list_volumes: "Lists volumes in a pool. Use first, to find a volume id for get_volume."`,
			}},
	}
}

func sarifRuleOf(r lint.Rule, o SARIFOptions) sarifRule {
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
	helpURI := ""
	if o.HelpURI != nil {
		helpURI = o.HelpURI(r.ID)
	}
	level := sarifLevel(r.Severity)
	var deprecated []string
	if r.ID == sarifWatchRule {
		// A review pair is advisory: its results are notes. Its rule was
		// watch-pair: code scanning keeps its alerts through the rename.
		level = "note"
		deprecated = []string{"watch-pair"}
	}
	return sarifRule{
		DeprecatedIDs: deprecated,
		ID:            r.ID, Name: pascal(r.ID),
		ShortDescription:     sarifText{Text: r.Summary},
		FullDescription:      sarifText{Text: full},
		Help:                 sarifText{Text: text, Markdown: md},
		HelpURI:              helpURI,
		DefaultConfiguration: sarifConfig{Level: level},
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

// MergedPrefix starts the source of catalogs linted as one
// (catalog.MergedPrefix).
const MergedPrefix = catalog.MergedPrefix

// artifactURI turns a catalog source into a URI reference for SARIF; file
// is false when the catalog did not come from a file (stdin, a live
// server), and results then carry logical locations only.
func artifactURI(source string) (uri string, file bool) {
	switch {
	case source == "" || source == "-" || source == "stdin",
		strings.HasPrefix(source, "mcp:"), strings.HasPrefix(source, MergedPrefix), strings.Contains(source, "://"):
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

// verdictPhrase says a pair's verdict after "are": confusable, or on the
// review list.
func verdictPhrase(v similarity.Verdict) string {
	if v == similarity.Watch {
		return "on the review list"
	}
	return string(v)
}
