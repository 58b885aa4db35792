package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/embed"
)

// loadingElements are elements that fetch or run something.
var loadingElements = map[string]bool{"script": true, "link": true, "img": true, "iframe": true, "object": true, "embed": true,
	"video": true, "audio": true, "source": true, "image": true, "use": true, "foreignobject": true, "frame": true, "base": true, "form": true}

// loadingAttrs are attributes that fetch or run something.
var loadingAttrs = map[string]bool{"src": true, "href": true, "srcset": true, "action": true, "formaction": true, "background": true, "poster": true, "data": true}

// checkPage parses page as XML (stricter than HTML: every element closed,
// every attribute quoted, no stray & or <) and fails on anything that
// would load or run: a script, a link, an image, a frame, a URL
// attribute, an event handler, url() or @import in a style. It returns
// the page's text, entities decoded.
func checkPage(t *testing.T, page []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = true
	var text strings.Builder
	depth := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the page is not well-formed: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			name := strings.ToLower(tok.Name.Local)
			if loadingElements[name] {
				t.Errorf("the page has a <%s> element", name)
			}
			for _, a := range tok.Attr {
				an := strings.ToLower(a.Name.Local)
				if loadingAttrs[an] || strings.HasPrefix(an, "on") {
					t.Errorf("<%s> has the attribute %s=%q", name, an, a.Value)
				}
				if v := strings.ToLower(a.Value); strings.Contains(v, "url(") || strings.Contains(v, "javascript:") {
					t.Errorf("<%s %s=%q> refers to something", name, an, a.Value)
				}
			}
		case xml.EndElement:
			depth--
		case xml.CharData:
			text.Write(tok)
			text.WriteByte(' ')
		}
	}
	if depth != 0 {
		t.Fatalf("the page ends %d elements deep", depth)
	}
	s := strings.ToLower(text.String())
	for _, bad := range []string{"url(", "@import", "@font-face"} {
		if strings.Contains(s, bad) {
			t.Errorf("the page's text or style holds %q", bad)
		}
	}
	return text.String()
}

// demoReport lints a small catalog with the mock embedder and scores it.
func demoReport(t *testing.T, src string) (*lint.Report, *catalog.Catalog) {
	t.Helper()
	cat, err := catalog.Parse("tools.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	opts := lint.DefaultOptions()
	opts.Embedder = embed.Mock{}
	r, err := lint.Analyze(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	r.Score = lint.ScoreOf(r, cat, nil)
	return r, cat
}

const pageCatalog = `{"tools": [
 {"name": "get_volume_status", "description": "Get the live status of one storage volume.",
  "inputSchema": {"type": "object", "properties": {"pool": {"type": "string", "description": "Storage pool: one of gold | silver | bronze."}}}},
 {"name": "hist_volume_status", "description": "Get the live status of one storage volume, historic.",
  "inputSchema": {"type": "object", "properties": {"window": {"type": "string"}}}},
 {"name": "bad<script>alert(1)</script>", "description": "Deletes \u001b[2J everything \u202e now & \"forever\" <b>bold</b>."},
 {"name": "resize_volume", "description": ""},
 {"name": "query_metrics", "description": "Query a metric over a period. Use for charts.",
  "inputSchema": {"type": "object", "properties": {"window": {"type": "string", "description": "Lookback."}}, "required": ["window"]},
  "period": {"argument": "window", "spelling": "lookback"}}
]}`

func writePage(t *testing.T, r *lint.Report, cat *catalog.Catalog, probe *judge.ProbeRecord) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, r, HTMLOptions{Source: "dir/tools\u202e.json", Catalog: cat, Rules: lint.DefaultRules(), Probe: probe, Version: "devel"}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The page is well-formed, loads nothing, names every tool and leads with
// the score and the gate; catalog text is escaped for HTML and spelled
// safe for a reader (no raw ESC, no bidi override).
func TestHTMLPage(t *testing.T) {
	r, cat := demoReport(t, pageCatalog)
	page := writePage(t, r, cat, nil)
	text := checkPage(t, []byte(page))
	for _, tl := range cat.Tools {
		if !strings.Contains(text, pageLine(tl.Name)) {
			t.Errorf("the page does not name %q", tl.Name)
		}
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "<b>bold") {
		t.Error("catalog markup reached the page raw")
	}
	if strings.ContainsAny(page, "\x1b\u202e") {
		t.Error("a raw ESC or bidi override reached the page")
	}
	if !strings.Contains(text, `\x1b[2J`) || !strings.Contains(text, `\u202e`) {
		t.Error("the escapes that spell the hidden characters are missing")
	}
	score := strings.Index(text, fmt.Sprintf("%d/100", r.Score.Catalog))
	gate := strings.Index(text, "RESULT: FAIL")
	pairs := strings.Index(text, "Pairs worth a look")
	if score < 0 || gate < 0 || pairs < 0 || score > pairs || gate > pairs {
		t.Errorf("the summary does not lead with the score (%d) and the gate (%d) before the pairs (%d)", score, gate, pairs)
	}
	for _, want := range []string{
		"Map of the risky pairs", "share of the catalog", // pictures
		"No description: a model reads nothing but the name", // the blank tool
		"Why it matters and how to fix it",                   // teaching, folded
		"Declarations and periods", "period: ",               // the declared period
		"@media print",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, "ZgotmplZ") {
		t.Error("the template refused a value (ZgotmplZ)")
	}
	if strings.Contains(page, "Probe: where the requests went") {
		t.Error("a confusion matrix without a probe record")
	}
}

// A recorded probe adds its confusion matrix, its measure beside the
// pairs listed, and the pairs it saw crossed that no verdict lists.
func TestHTMLPageWithProbe(t *testing.T) {
	r, cat := demoReport(t, pageCatalog)
	var tools []judge.Tool
	for _, tl := range cat.Tools {
		tools = append(tools, judge.FromCatalog(tl))
	}
	a, b := cat.Tools[0].Name, cat.Tools[1].Name
	c := cat.Tools[4].Name
	cases := []judge.ProbeCase{
		{Tool: a, Request: "r1", Picked: b}, {Tool: a, Request: "r2", Picked: a},
		{Tool: b, Request: "r3", Picked: b}, {Tool: b, Request: "r4", Picked: judge.NoPick},
		{Tool: c, Request: "r5", Picked: a}, {Tool: c, Request: "r6", Picked: c},
	}
	rec := judge.NewProbeRecord(judge.Tabulate("openai:m", []string{a, b, c}, cases), tools, time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC))
	page := writePage(t, r, cat, rec)
	text := checkPage(t, []byte(page))
	for _, want := range []string{"Probe: where the requests went", "3 of 6 requests went to their tool", "1 of 2 requests for get_volume_status went to hist_volume_status", "(no tool)",
		"⇄ probed", "1 of 2 requests for query_metrics went to get_volume_status", "crossed in the probe"} {
		if !strings.Contains(text, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// A catalog with no pair and no finding still makes a page, without the
// pictures that would be empty.
func TestHTMLPageQuiet(t *testing.T) {
	r, cat := demoReport(t, `[{"name": "only_tool", "description": "Does the one thing there is. Use for everything."}]`)
	page := writePage(t, r, cat, nil)
	text := checkPage(t, []byte(page))
	if !strings.Contains(text, "only_tool") || !strings.Contains(text, "RESULT: ok") {
		t.Errorf("the page lacks the tool or the result:\n%s", text)
	}
	if strings.Contains(page, "Map of the risky pairs") {
		t.Error("a map without pairs")
	}
}

// The badge is an SVG of the score in its band's colour, and nothing of
// the catalog.
func TestBadge(t *testing.T) {
	for _, tt := range []struct {
		score int
		color string
	}{{100, "#3fa31b"}, {85, "#3fa31b"}, {70, "#b59100"}, {40, "#e0611b"}, {0, "#d23b2a"}} {
		var b bytes.Buffer
		if err := WriteBadge(&b, &lint.Score{Catalog: tt.score}); err != nil {
			t.Fatal(err)
		}
		svg := b.String()
		if err := xml.Unmarshal(b.Bytes(), new(struct{})); err != nil {
			t.Fatalf("score %d: the badge is not XML: %v", tt.score, err)
		}
		if !strings.HasPrefix(svg, "<svg ") || !strings.Contains(svg, fmt.Sprintf(">score %d<", tt.score)) || !strings.Contains(svg, tt.color) {
			t.Errorf("score %d: want the score and %s in\n%s", tt.score, tt.color, svg)
		}
	}
	if err := WriteBadge(io.Discard, nil); err == nil {
		t.Error("a badge without a score")
	}
}
