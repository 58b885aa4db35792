package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/declare"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/core/termsafe"
	"toolscope/core/tokens"
)

// HTMLOptions shape the HTML page.
type HTMLOptions struct {
	// Source names the catalog in the heading.
	Source string
	// Catalog is the catalog the report is about: its tools' texts,
	// declarations and order.
	Catalog *catalog.Catalog
	// Rules are the rules that ran, for their teaching text.
	Rules []lint.Rule
	// Probe is the catalog's recorded probe, nil for none: its measures
	// beside the pairs, and its confusion matrix.
	Probe *judge.ProbeRecord
	// Version names the toolscope that wrote the page.
	Version string
}

//go:embed html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"band": lint.Band,
}).Parse(htmlSource))

// WriteHTML writes the report as one page to open from a pull request:
// the score and the gate first, what to fix first, the findings, the
// pairs worth a look, pictures (a map of
// the risky pairs, the probe's confusion matrix, each tool's tokens), then
// each tool folded, with its findings' teaching text and its declarations.
// The page loads nothing: its style is inline, its pictures inline SVG,
// and it has no script. Catalog text is escaped for HTML by html/template
// after termsafe spells out control characters, bidi overrides and other
// invisible characters.
func WriteHTML(w io.Writer, r *lint.Report, o HTMLOptions) error {
	return htmlTemplate.Execute(w, newPage(r, o))
}

// page is what the template renders; every string in it is made safe to
// show (termsafe) and is escaped by the template.
type page struct {
	Title, Source, Version string
	OK                     bool
	FailReasons            string
	Score                  *lint.Score
	Band                   string
	// Dash is the score ring's arc: the score's share of its circumference.
	Dash   string
	Lowest string
	Counts []count
	Method string
	Notes  []string
	// First is the ordered list of what to fix first; Findings every
	// finding, errors first, shown before any pair (FindingsMore past the
	// page's list).
	First                     []firstRow
	Findings                  []findingItem
	AllFindings, FindingsMore int
	Pairs                     []pairRow
	// AllPairs counts the pairs worth a look, MorePairs those past the
	// page's list.
	AllPairs, MorePairs int
	Map                 *pairMap
	Matrix              *confusionMatrix
	Tokens              *tokenBars
	Tools               []toolSection
	// Config holds the findings on no tool: an mcp-config's own, each
	// under its server.
	Config   []findingItem
	Declared []declaredTool
	Accepted []acceptedRow
	Baseline string
}

// firstRow is one item of the first-to-fix list.
type firstRow struct{ Mark, Class, Text string }

// maxFindingRows caps the findings listed before the pairs; the tool
// cards hold them all.
const maxFindingRows = 100

// acceptedRow is a result the project config accepted, with its reason.
type acceptedRow struct{ What, Reason string }

type count struct {
	N     int
	Label string
	Class string
}

// pairRow is one pair worth a look.
type pairRow struct {
	Kind, Mark, Class string
	A, B              string
	Score             string
	Text              string
	Why               string
	Probe             []string
	Judge             string
	State             string
}

// ringLength is the circumference of the score ring (radius 52).
const ringLength = 2 * math.Pi * 52

// maxPairRows caps the pairs the page lists; the JSON has them all.
const maxPairRows = 100

func newPage(r *lint.Report, o HTMLOptions) *page {
	cat := o.Catalog
	if cat == nil {
		cat = &catalog.Catalog{}
	}
	p := &page{Title: "toolscope lint", Source: pageLine(o.Source), Version: pageLine(o.Version), OK: r.OK, Score: r.Score}
	if !r.OK {
		p.FailReasons = pageLine(failReasons(r))
	}
	if r.Score != nil {
		p.Band = lint.Band(r.Score.Catalog)
		p.Dash = fmt.Sprintf("%.1f %.1f", ringLength*float64(r.Score.Catalog)/100, ringLength)
		if w, ok := worstTool(r.Score); ok && w.Score < r.Score.Catalog {
			p.Lowest = fmt.Sprintf("lowest: %s %d", pageLine(w.Name), w.Score)
		}
	}
	s := r.Summary
	p.Counts = []count{
		{r.ToolCount, pluralWord(r.ToolCount, "tool"), ""},
		{s.Confusable, "confusable", classIf(s.Confusable > 0, "bad")},
		{s.Watch, "review", classIf(s.Watch > 0, "warn")},
		{s.Errors, pluralWord(s.Errors, "error"), classIf(s.Errors > 0, "bad")},
		{s.Warnings, pluralWord(s.Warnings, "warning"), classIf(s.Warnings > 0, "warn")},
	}
	sim := r.Similarity
	if sim.Analyzed {
		p.Method = fmt.Sprintf("%s embedder, %s scoring; %s; %d pairs compared", pageLine(sim.Embedder), sim.Scoring, thresholdText(sim), sim.PairCount)
	} else {
		p.Method = "similarity skipped (no embedder, or fewer than two distinct tools): structural rules only"
	}
	for _, n := range sim.Notes {
		p.Notes = append(p.Notes, pageLine(n))
	}
	if r.Baseline != nil {
		p.Baseline = baselineText(r.Baseline)
	}
	if sup := r.Suppressed; sup != nil {
		for _, q := range sup.Pairs {
			p.Accepted = append(p.Accepted, acceptedRow{What: pageLine(fmt.Sprintf("%s %s ↔ %s", q.Kind.Shown(), q.A, q.B)), Reason: pageLine(q.Suppression)})
		}
		for _, f := range sup.Findings {
			p.Accepted = append(p.Accepted, acceptedRow{What: pageLine(ruleLabel(f) + " on " + findingWhere(f)), Reason: pageLine(f.Suppression)})
		}
	}
	fresh := freshRates(o.Probe, cat)
	p.Pairs = pairRows(r, fresh, crossed(o.Probe, cat))
	p.AllPairs = len(p.Pairs)
	if len(p.Pairs) > maxPairRows {
		p.MorePairs = len(p.Pairs) - maxPairRows
		p.Pairs = p.Pairs[:maxPairRows]
	}
	p.Map = newPairMap(cat, p.Pairs)
	p.Matrix = newConfusionMatrix(o.Probe, cat)
	counts := r.Tokens
	if counts == nil || len(counts.Tools) != len(cat.Tools) {
		m := tokens.Measure(cat, 0, false)
		counts = &m
	}
	p.Tokens = newTokenBars(counts.Tools)
	p.Tools, p.Config = toolSections(r, cat, o.Rules, p.Pairs, counts.Tools)
	// The page measured the catalog's tokens even when the run did not:
	// the list states them.
	withTokens := *r
	if withTokens.Tokens == nil && len(cat.Tools) > 0 {
		withTokens.Tokens = counts
	}
	for _, it := range FirstToFix(&withTokens) {
		class := map[string]string{"error": "bad", "warn": "warn", "ok": "ok"}[it.Severity]
		p.First = append(p.First, firstRow{Mark: firstMark(it.Severity), Class: class, Text: pageLine(it.Text)})
	}
	p.Findings = pageFindings(r)
	p.AllFindings = len(p.Findings)
	if len(p.Findings) > maxFindingRows {
		p.FindingsMore = len(p.Findings) - maxFindingRows
		p.Findings = p.Findings[:maxFindingRows]
	}
	p.Declared = declaredTools(cat)
	return p
}

func classIf(cond bool, class string) string {
	if cond {
		return class
	}
	return ""
}

func pluralWord(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// rateOf finds a probe's measure of a pair by its tools' names.
type rateOf func(a, b string) (judge.PairRate, bool)

// freshRates reads a probe's measures against the catalog as it is: a
// measure is marked stale when either tool's texts changed since.
func freshRates(rec *judge.ProbeRecord, cat *catalog.Catalog) rateOf {
	if rec == nil {
		return func(string, string) (judge.PairRate, bool) { return judge.PairRate{}, false }
	}
	tools := map[string]judge.Tool{}
	for _, t := range cat.Tools {
		if _, dup := tools[t.Name]; !dup {
			tools[t.Name] = judge.FromCatalog(t)
		}
	}
	return func(a, b string) (judge.PairRate, bool) {
		ta, okA := tools[a]
		tb, okB := tools[b]
		if !okA || !okB {
			return judge.PairRate{}, false
		}
		return rec.RateOf(ta, tb)
	}
}

// pairRows are the pairs worth a look: the confusable ones, the review
// ones, those a judge cleared, and those a probe saw crossed, each once,
// with its hint, the judge's sentence and the probe's measure.
func pairRows(r *lint.Report, rate rateOf, crossed [][2]string) []pairRow {
	judged := map[string]lint.JudgedPair{}
	if r.Judged != nil {
		for _, j := range r.Judged.Pairs {
			judged[lint.PairKey(j.A, j.B)] = j
		}
	}
	seen := map[string]bool{}
	var rows []pairRow
	add := func(row pairRow) {
		key := lint.PairKey(row.A, row.B)
		if seen[key] {
			return
		}
		seen[key] = true
		if j, ok := judged[key]; ok {
			row.Judge = pageLine(fmt.Sprintf("%s (%s, label %d): %s", j.Verdict, j.By, j.Label, j.Reason))
		}
		if pr, ok := rate(row.A, row.B); ok {
			sentences := pr.Sentences()
			row.Probe = []string{pageLine(sentences[0]), pageLine(sentences[1])}
			if pr.Stale {
				row.Probe = append(row.Probe, "measured before the texts last changed")
			}
		}
		rows = append(rows, row)
	}
	for _, list := range [][]similarity.PairFinding{r.Similarity.Confusable, r.Similarity.Watch} {
		for _, f := range list {
			row := pairRow{Kind: "review", Mark: "~", Class: "warn", A: pageLine(f.A), B: pageLine(f.B),
				Score: scoreText(f.Similarity, f.Affinity, &r.Similarity), Text: pageLine(f.Hint), State: strings.TrimSpace(stateText(f.BaselineState))}
			if f.Kind == similarity.Confusable {
				row.Kind, row.Mark, row.Class = "confusable", "✗", "bad"
			}
			if len(f.Reasons) > 0 {
				row.Why = pageLine(ReasonsText(f.Reasons))
			}
			add(row)
		}
	}
	if r.Judged != nil {
		for _, j := range r.Judged.Pairs {
			if j.Verdict != "confusable" {
				add(pairRow{Kind: "cleared", Mark: "✓", Class: "ok", A: pageLine(j.A), B: pageLine(j.B), Score: "judged"})
			}
		}
	}
	for _, c := range crossed {
		if pr, ok := rate(c[0], c[1]); ok {
			add(pairRow{Kind: "probed", Mark: "⇄", Class: "probe", A: pageLine(c[0]), B: pageLine(c[1]), Score: "probe " + pr.Short()})
		}
	}
	return rows
}

// crossed are the pairs of cat's tools a recorded probe saw a request
// cross, each once, in the record's order.
func crossed(rec *judge.ProbeRecord, cat *catalog.Catalog) [][2]string {
	if rec == nil {
		return nil
	}
	names := map[string]bool{}
	for _, t := range cat.Tools {
		names[t.Name] = true
	}
	seen := map[string]bool{}
	var out [][2]string
	for _, c := range rec.Cases {
		key := lint.PairKey(c.Tool, c.Picked)
		if c.Picked == c.Tool || !names[c.Tool] || !names[c.Picked] || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, [2]string{c.Tool, c.Picked})
	}
	return out
}

// The map's geometry, in SVG user units.
const (
	mapMaxTools   = 48
	mapLabelChars = 26
)

// pairMap is the tools on a circle with the risky pairs between them.
type pairMap struct {
	Size, Center, Radius float64
	Nodes                []mapNode
	Edges                []mapEdge
	Left                 int // tools not drawn
}

type mapNode struct {
	X, Y, LX, LY, Angle float64
	Anchor, Label, Full string
	Class               string
}

type mapEdge struct {
	X1, Y1, X2, Y2 float64
	Class, Title   string
}

// newPairMap places the tools on a circle, catalog order clockwise from
// the top, and draws each listed pair between them: all the tools when
// they are few, else those in a pair.
func newPairMap(cat *catalog.Catalog, rows []pairRow) *pairMap {
	if len(rows) == 0 || len(cat.Tools) < 2 {
		return nil
	}
	inPair := map[string]string{}
	rank := map[string]int{"bad": 4, "warn": 3, "probe": 2, "ok": 1}
	for _, r := range rows {
		for _, n := range []string{r.A, r.B} {
			if rank[r.Class] > rank[inPair[n]] {
				inPair[n] = r.Class
			}
		}
	}
	var names []string
	seen := map[string]bool{}
	for _, t := range cat.Tools {
		n := pageLine(t.Name)
		if seen[n] {
			continue
		}
		seen[n] = true
		if len(cat.Tools) <= mapMaxTools || inPair[n] != "" {
			names = append(names, n)
		}
	}
	m := &pairMap{}
	if len(names) > mapMaxTools {
		m.Left = len(names) - mapMaxTools
		names = names[:mapMaxTools]
	}
	longest := 0
	for _, n := range names {
		longest = max(longest, min(len([]rune(n)), mapLabelChars))
	}
	m.Radius = math.Max(120, float64(len(names))*9)
	label := float64(longest)*6.6 + 16
	m.Center = m.Radius + label + 8
	m.Size = 2 * m.Center
	at := map[string][2]float64{}
	for i, n := range names {
		a := 2*math.Pi*float64(i)/float64(len(names)) - math.Pi/2
		x, y := m.Center+m.Radius*math.Cos(a), m.Center+m.Radius*math.Sin(a)
		at[n] = [2]float64{x, y}
		node := mapNode{X: round1(x), Y: round1(y), LX: round1(m.Center + (m.Radius+10)*math.Cos(a)), LY: round1(m.Center + (m.Radius+10)*math.Sin(a)),
			Angle: round1(a * 180 / math.Pi), Anchor: "start", Label: clipRunes(n, mapLabelChars), Full: n, Class: inPair[n]}
		if math.Cos(a) < -1e-9 {
			node.Angle, node.Anchor = round1(node.Angle+180), "end"
		}
		m.Nodes = append(m.Nodes, node)
	}
	// The lighter pairs first, so that the confusable ones are drawn on
	// top.
	ordered := slices.Clone(rows)
	slices.SortStableFunc(ordered, func(a, b pairRow) int { return rank[a.Class] - rank[b.Class] })
	for _, r := range ordered {
		p, okA := at[r.A]
		q, okB := at[r.B]
		if !okA || !okB {
			continue
		}
		m.Edges = append(m.Edges, mapEdge{X1: round1(p[0]), Y1: round1(p[1]), X2: round1(q[0]), Y2: round1(q[1]), Class: r.Class,
			Title: r.Kind + ": " + r.A + " ↔ " + r.B + " (" + r.Score + ")"})
	}
	return m
}

// pageLine and pageBlock make catalog text fit for the page: termsafe's
// escapes (control characters, bidi overrides, invisible characters),
// then the noncharacters (U+FFFE, U+FDD0, ...) that HTML and XML refuse,
// spelled the same way; html/template escapes the markup.
func pageLine(s string) string  { return spellNoncharacters(termsafe.Line(s)) }
func pageBlock(s string) string { return spellNoncharacters(termsafe.Block(s)) }

func spellNoncharacters(s string) string {
	if !strings.ContainsFunc(s, noncharacter) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if noncharacter(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// noncharacter reports whether r is one of Unicode's 66 noncharacters.
func noncharacter(r rune) bool {
	return r >= 0xfdd0 && r <= 0xfdef || r&0xfffe == 0xfffe
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// clipRunes shortens s to n runes, an ellipsis marking the cut.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// The confusion matrix's geometry.
const (
	matrixMaxTools = 30
	matrixCellSize = 22
)

// confusionMatrix is a probe's picks: a row per tool requests were
// written for, a column per tool picked, each cell shaded by its share of
// the row.
type confusionMatrix struct {
	Model, Date     string
	Correct, Cases  int
	Rows, Cols      []matrixLabel
	Cells           []matrixCell
	Width, Height   int
	Left, Top, Cell int
	// Dropped counts the tools left out past matrixMaxTools.
	Dropped int
}

type matrixLabel struct {
	Name, Full string
	Pos        int
}

type matrixCell struct {
	X, Y     int
	Opacity  float64
	N        int
	Off      bool // a pick of another tool
	Title    string
	TextDark bool
}

// newConfusionMatrix draws a recorded probe's matrix over the tools it
// sent requests for; with many tools, those in a confusion first.
func newConfusionMatrix(rec *judge.ProbeRecord, cat *catalog.Catalog) *confusionMatrix {
	if rec == nil || len(rec.Cases) == 0 {
		return nil
	}
	var tools []string
	for _, t := range rec.Tools {
		tools = append(tools, t.Name)
	}
	p := judge.Tabulate(rec.Model, tools, rec.Cases)
	asked := []string{}
	for _, n := range tools {
		if len(p.Matrix[n]) > 0 {
			asked = append(asked, n)
		}
	}
	if len(asked) > matrixMaxTools {
		confused := map[string]bool{}
		for _, c := range p.Confusions {
			confused[c.Tool], confused[c.Picked] = true, true
		}
		slices.SortStableFunc(asked, func(a, b string) int {
			switch {
			case confused[a] == confused[b]:
				return 0
			case confused[a]:
				return -1
			}
			return 1
		})
	}
	m := &confusionMatrix{Model: pageLine(rec.Model), Date: rec.Date.UTC().Format("2006-01-02"), Correct: p.Correct, Cases: len(p.Cases), Cell: matrixCellSize}
	if len(asked) > matrixMaxTools {
		m.Dropped = len(asked) - matrixMaxTools
		asked = asked[:matrixMaxTools]
	}
	cols := slices.Clone(asked)
	for _, row := range p.Matrix {
		if row[judge.NoPick] > 0 {
			cols = append(cols, judge.NoPick)
			break
		}
	}
	longest := 0
	for _, n := range cols {
		longest = max(longest, min(len([]rune(pageLine(n))), mapLabelChars))
	}
	m.Left = longest*7 + 12
	m.Top = longest*7 + 12
	m.Width = m.Left + len(cols)*matrixCellSize + 4
	m.Height = m.Top + len(asked)*matrixCellSize + 4
	for i, n := range asked {
		m.Rows = append(m.Rows, matrixLabel{Name: clipRunes(pageLine(n), mapLabelChars), Full: pageLine(n), Pos: m.Top + i*matrixCellSize + matrixCellSize/2})
	}
	for j, n := range cols {
		label := pageLine(n)
		if n == judge.NoPick {
			label = "(no tool)"
		}
		m.Cols = append(m.Cols, matrixLabel{Name: clipRunes(label, mapLabelChars), Full: label, Pos: m.Left + j*matrixCellSize + matrixCellSize/2})
	}
	for i, a := range asked {
		row := p.Matrix[a]
		of := 0
		for _, n := range row {
			of += n
		}
		for j, b := range cols {
			n := row[b]
			if n == 0 || of == 0 {
				continue
			}
			share := float64(n) / float64(of)
			m.Cells = append(m.Cells, matrixCell{X: m.Left + j*matrixCellSize, Y: m.Top + i*matrixCellSize, Opacity: round2(0.15 + 0.85*share), N: n,
				Off: a != b, TextDark: share < 0.5, Title: pageLine(fmt.Sprintf("%d of %d requests for %s went to %s", n, of, a, b))})
		}
	}
	return m
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// tokenBars is each tool's tokens as a bar, the largest first.
type tokenBars struct {
	Total int
	Bars  []tokenBar
	Rest  int // tools not drawn
}

type tokenBar struct {
	Name   string
	Tokens int
	Share  string
	Width  template.CSS
	Heavy  bool
}

const maxTokenBars = 40

// tokensCharged is where the score starts to charge a definition for its
// tokens (docs/lint.md, "The score").
const tokensCharged = 600

func newTokenBars(counts []tokens.Tool) *tokenBars {
	if len(counts) == 0 {
		return nil
	}
	sorted := slices.Clone(counts)
	slices.SortStableFunc(sorted, func(a, b tokens.Tool) int { return b.O200k - a.O200k })
	b := &tokenBars{}
	for _, t := range sorted {
		b.Total += t.O200k
	}
	if b.Total == 0 {
		return nil
	}
	most := sorted[0].O200k
	for k, t := range sorted {
		if k == maxTokenBars {
			b.Rest = len(sorted) - k
			break
		}
		share := float64(t.O200k) / float64(b.Total)
		b.Bars = append(b.Bars, tokenBar{Name: pageLine(t.Name), Tokens: t.O200k, Share: percentText(share),
			// A number the page computes, never catalog text.
			Width: template.CSS(fmt.Sprintf("width: %.1f%%", 100*float64(t.O200k)/float64(max(most, 1)))),
			Heavy: t.O200k > tokensCharged})
	}
	return b
}

func percentText(f float64) string {
	if f < 0.1 {
		return fmt.Sprintf("%.1f%%", 100*f)
	}
	return fmt.Sprintf("%.0f%%", 100*f)
}

// toolSection is one tool, folded: its score, texts, findings with their
// teaching, and pairs.
type toolSection struct {
	Name, Description string
	NoDescription     bool
	Score             int
	HasScore          bool
	Errors, Warnings  int
	Tokens            int
	Findings          []findingItem
	Pairs             []pairRow
	Factors           string
}

// Confusable counts the tool's confusable pairs (⇄ in the tool list).
func (s toolSection) Confusable() int {
	n := 0
	for _, p := range s.Pairs {
		if p.Kind == "confusable" {
			n++
		}
	}
	return n
}

// Review counts the tool's pairs on the review list (≈ in the tool list).
func (s toolSection) Review() int {
	n := 0
	for _, p := range s.Pairs {
		if p.Kind == "review" {
			n++
		}
	}
	return n
}

type findingItem struct {
	Rule, Where, Severity, Mark, Message, Suggestion, Line, State string
	Why, Fix, Before, After                                       string
	// Fixable says lint --fix applies the suggestion.
	Fixable bool
}

// pageFindings are the report's findings as the page lists them before
// the pairs: errors first, each in the file's order.
func pageFindings(r *lint.Report) []findingItem {
	var errs, warns []findingItem
	for _, f := range r.Structural {
		it := findingItem{Rule: pageLine(ruleLabel(f)), Where: pageLine(findingWhere(f)), Severity: string(f.Severity), Mark: "~ warn", Message: pageLine(f.Message),
			Suggestion: pageLine(f.Suggestion), State: strings.TrimSpace(stateText(f.BaselineState)), Fixable: len(f.Fix) > 0}
		if f.Line > 0 {
			it.Line = fmt.Sprintf("line %d", f.Line)
		}
		if f.Severity == lint.SeverityError {
			it.Mark = "✗ error"
			errs = append(errs, it)
		} else {
			warns = append(warns, it)
		}
	}
	return append(errs, warns...)
}

// toolSections are the page's sections, one per tool name (its first
// tool), each with its findings and pairs, and the findings about a
// config's servers rather than a tool.
func toolSections(r *lint.Report, cat *catalog.Catalog, rules []lint.Rule, rows []pairRow, counts []tokens.Tool) ([]toolSection, []findingItem) {
	out, byName := sectionsOf(r, cat, counts)
	if r.Score != nil {
		scoreFactors(out, byName, r.Score)
	}
	t := newTeacher(rules)
	var config []findingItem
	for _, f := range r.Structural {
		k, ok := byName[f.Tool]
		if f.File != "" || !ok {
			// A config's finding is about its server, not a tool.
			config = append(config, configFinding(f, t))
			continue
		}
		it := findingItem{Rule: pageLine(ruleLabel(f)), Where: pageLine(findingWhere(f)), Severity: string(f.Severity), Mark: "~ warn", Message: pageLine(f.Message),
			Suggestion: pageLine(f.Suggestion), State: strings.TrimSpace(stateText(f.BaselineState)), Fixable: len(f.Fix) > 0}
		if f.Severity == lint.SeverityError {
			it.Mark = "✗ error"
			out[k].Errors++
		} else {
			out[k].Warnings++
		}
		if f.Line > 0 {
			it.Line = fmt.Sprintf("line %d", f.Line)
		}
		t.teach(&it, k, f.Rule)
		out[k].Findings = append(out[k].Findings, it)
	}
	for _, row := range rows {
		for _, n := range []string{row.A, row.B} {
			for k := range out {
				if out[k].Name == n {
					out[k].Pairs = append(out[k].Pairs, row)
				}
			}
		}
	}
	return out, config
}

// sectionsOf is a section per tool name, in catalog order, with its
// tokens and score, and the index of each name's section.
func sectionsOf(r *lint.Report, cat *catalog.Catalog, counts []tokens.Tool) ([]toolSection, map[string]int) {
	byName := map[string]int{}
	var out []toolSection
	for _, t := range cat.Tools {
		if _, dup := byName[t.Name]; dup {
			continue
		}
		byName[t.Name] = len(out)
		sec := toolSection{Name: pageLine(t.Name), Description: pageBlock(t.Description), NoDescription: strings.TrimSpace(t.Description) == ""}
		if t.Index >= 0 && t.Index < len(counts) {
			sec.Tokens = counts[t.Index].O200k
		}
		if r.Score != nil {
			sec.Score, sec.HasScore = r.Score.Tools[t.Name], true
		}
		out = append(out, sec)
	}
	return out, byName
}

// scoreFactors says what made each tool's score, from the first of the
// score's parts for its name.
func scoreFactors(out []toolSection, byName map[string]int, score *lint.Score) {
	for _, p := range score.Parts {
		if k, ok := byName[p.Name]; ok && out[k].Factors == "" {
			out[k].Factors = fmt.Sprintf("findings ×%.2f · pairs ×%.2f · tokens ×%.2f", p.Findings, p.Pairs, p.Tokens)
			if p.NoDescription {
				out[k].Factors += " · no description: at most 10"
			}
		}
	}
}

// configFinding is a finding about a config's server, placed by its
// file's line when it has one.
func configFinding(f lint.Finding, t *teacher) findingItem {
	it := findingItem{Rule: pageLine(f.Rule), Where: pageLine(findingWhere(f)), Severity: string(f.Severity), Mark: "~ warn", Message: pageLine(f.Message),
		Suggestion: pageLine(f.Suggestion), State: strings.TrimSpace(stateText(f.BaselineState))}
	if f.Severity == lint.SeverityError {
		it.Mark = "✗ error"
	}
	if f.Line > 0 {
		it.Line = fmt.Sprintf("line %d", f.Line)
		if f.File != "" {
			it.Line = pageLine(fmt.Sprintf("%s line %d", f.File, f.Line))
		}
	}
	t.teach(&it, configSection, f.Rule)
	return it
}

// configSection is the section teach counts the config's findings in.
const configSection = -1

// teacher gives a finding its rule's teaching once per rule and section:
// a rule's tenth parameter teaches nothing new.
type teacher struct {
	teaching map[string]lint.Teaching
	taught   map[taughtKey]bool
}

type taughtKey struct {
	section int // a tool's section, or configSection
	rule    string
}

func newTeacher(rules []lint.Rule) *teacher {
	t := &teacher{teaching: map[string]lint.Teaching{}, taught: map[taughtKey]bool{}}
	for _, rule := range rules {
		t.teaching[rule.ID] = rule.Teaching
	}
	return t
}

// teach fills it with rule's teaching unless section has had it.
func (t *teacher) teach(it *findingItem, section int, rule string) {
	tc, ok := t.teaching[rule]
	key := taughtKey{section, rule}
	if !ok || t.taught[key] {
		return
	}
	t.taught[key] = true
	it.Why, it.Fix, it.Before, it.After = pageLine(tc.Why), pageLine(tc.Fix), pageBlock(tc.Before), pageBlock(tc.After)
}

// declaredTool is a tool's declarations: its ruled arguments and period,
// or the refusal that stops them.
type declaredTool struct {
	Name    string
	Refusal string
	Ruled   []ruledArg
	Forms   []string
	Facts   string
}

type ruledArg struct {
	Argument, Kind, Text string
	Period               bool
}

func declaredTools(cat *catalog.Catalog) []declaredTool {
	var out []declaredTool
	for _, t := range cat.Tools {
		rules, refusal := declare.Read(t)
		d := declaredTool{Name: pageLine(t.Name)}
		switch {
		case refusal != nil:
			d.Refusal = pageLine(refusal.Error())
		case rules == nil:
			continue
		default:
			for _, r := range rules.Ruled {
				a := ruledArg{Argument: pageLine(r.Argument), Kind: string(r.Kind), Period: r.Period}
				if r.Kind == declare.Assume {
					a.Text = pageLine(r.Assume.JSON() + " when left out, recorded as default")
				} else {
					a.Text = pageLine(r.Question)
					if len(r.Choices) > 0 {
						a.Text += "  " + pageLine(declare.ChoicesText(r.Choices))
					}
				}
				d.Ruled = append(d.Ruled, a)
			}
			if p := rules.Period; p != nil {
				for i := range p.Forms {
					d.Forms = append(d.Forms, pageLine(p.Forms[i].String()))
				}
				d.Facts = pageLine(p.Facts.Text())
			}
		}
		out = append(out, d)
	}
	return out
}
