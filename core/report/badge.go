package report

import (
	"fmt"
	"io"
	"unicode/utf8"

	"toolscope/core/lint"
)

// badgeColors are the badge's colours by band (lint.Band), the ones
// README badges use for passing, warning and failing.
var badgeColors = map[string]string{"good": "#3fa31b", "fair": "#b59100", "poor": "#e0611b", "bad": "#d23b2a"}

// WriteBadge writes the catalog's score as an SVG badge in the usual
// two-part style: "toolscope" on grey, the score on its band's colour. It
// holds no catalog text and loads nothing.
func WriteBadge(w io.Writer, s *lint.Score) error {
	if s == nil {
		return fmt.Errorf("the report has no score")
	}
	label, value := "toolscope", fmt.Sprintf("score %d", s.Catalog)
	color := badgeColors[lint.Band(s.Catalog)]
	lw, vw := badgeTextWidth(label)+12, badgeTextWidth(value)+12
	total := lw + vw
	_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="20" role="img" aria-label="%s: %s">
<title>%s: %s/100 (%s)</title>
<linearGradient id="s" x2="0" y2="100%%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="%d" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="%d" height="20" fill="#555"/><rect x="%d" width="%d" height="20" fill="%s"/><rect width="%d" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="%d" y="15" fill="#010101" fill-opacity=".3">%s</text><text x="%d" y="14">%s</text>
<text x="%d" y="15" fill="#010101" fill-opacity=".3">%s</text><text x="%d" y="14">%s</text>
</g>
</svg>
`, total, label, value, label, value[len("score "):], lint.Band(s.Catalog), total, lw, lw, vw, color, total,
		lw/2, label, lw/2, label, lw+vw/2, value, lw+vw/2, value)
	return err
}

// badgeTextWidth estimates a text's width in Verdana 11px: about 7
// pixels a character, digits and lower case a little narrower.
func badgeTextWidth(s string) int {
	return utf8.RuneCountInString(s)*7 - 2
}
