package similarity

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"toolscope/core/catalog"
	"toolscope/core/textutil"
	"toolscope/core/vecf32"
)

// The risk scoring: a calibrated chance, in [0, 1], that a model takes one
// tool of a pair for the other. A small logistic model (risk_model.go,
// fitted by `go run ./core/calibration/cmd/fit`, docs/calibration.md)
// weighs features a reader can follow: how alike the texts read, how the
// names' structures relate, how many parameters the tools share, and
// whether a description already says when to choose which.

// Feature names a risk feature.
type Feature int

// The risk features, in the model's order.
const (
	// FeatAdaptive is the adaptive score of the names and first sentences:
	// how much closer the pair reads than each tool usually reads to its
	// three nearest neighbours.
	FeatAdaptive Feature = iota
	// FeatFull is the cosine of the two tools' name and full description.
	FeatFull
	// FeatTerms is the cosine of the two texts' words weighted by how rare
	// each is in the catalog (tf-idf).
	FeatTerms
	// FeatOpposite: the actions undo each other (create/delete) or one
	// reads where the other writes.
	FeatOpposite
	// FeatOtherAction: two known actions of different kinds (click/hover).
	FeatOtherAction
	// FeatNested: one name's object is part of the other's
	// (get_page/get_page_property), or a general tool beside a specific one.
	FeatNested
	// FeatGuided: each description names the other tool with a choice
	// condition ("use x instead when ...", "prefer y when ...", "only
	// after z"). One description naming the other is not enough: the
	// labelled pairs guided from one side only are as often confused.
	FeatGuided
	// FeatBag is the cosine of the two tools' bags of words (bag.go): the
	// name's, the description's and the top-level parameters' names,
	// descriptions and enum values, weighted by rarity in the catalog.
	FeatBag
	numFeatures
)

var featureNames = [numFeatures]string{"adaptive", "full", "terms", "opposite", "otherAction", "nested", "guided", "bag"}

func (f Feature) String() string { return featureNames[f] }

// FeatureNames lists the features in the model's order.
func FeatureNames() []string { return featureNames[:] }

// Features are one pair's risk features.
type Features [numFeatures]float64

// RiskModel is a logistic model over the features: risk =
// 1/(1+exp(-(Bias + Σ Weights[k]·x[k]))). Means are the training means,
// against which a feature's contribution to a pair's risk is told.
type RiskModel struct {
	Bias    float64
	Weights Features
	Means   Features
	// Threshold and Watch are where the confusable and watch verdicts
	// start.
	Threshold, Watch float64
	// Twins is where a pair of tools from two different servers of a
	// merged catalog becomes confusable: the cross-server band, fitted on
	// twins (the same job on two servers). 0: no band of its own.
	Twins float64
	// TwinBonus is what each piece of twin evidence adds to a
	// cross-server pair's log-odds before it is held to Twins (twin.go).
	TwinBonus TwinTraits
	// Embedder is the ID of the embedder whose vectors it was fitted on:
	// with another, the risks are a ranking, not a calibrated chance.
	Embedder string
}

// Logit is the model's log-odds for x.
func (m *RiskModel) Logit(x Features) float64 {
	z := m.Bias
	for k, w := range m.Weights {
		z += w * x[k]
	}
	return z
}

// Risk is the model's risk for x, in [0, 1].
func (m *RiskModel) Risk(x Features) float64 { return sigmoid(m.Logit(x)) }

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// Reason is one feature's part in a pair's risk: Effect is its
// contribution to the log-odds against the average pair (positive raises
// the risk), Text says it in words.
type Reason struct {
	Feature string  `json:"feature"`
	Effect  float64 `json:"effect"`
	Text    string  `json:"text"`
}

// MaxReasons is how many reasons a pair reports.
const MaxReasons = 3

// reasons lists the features that moved x's risk most, largest first;
// effects under 0.25 in log-odds are left out.
func (m *RiskModel) reasons(x Features, ctx reasonContext) []Reason {
	var out []Reason
	for k := range numFeatures {
		if binaryFeature(Feature(k)) && x[k] == 0 {
			continue // an absent trait is no reason a reader can follow
		}
		e := m.Weights[k] * (x[k] - m.Means[k])
		if math.Abs(e) < 0.25 {
			continue
		}
		out = append(out, Reason{Feature: featureNames[k], Effect: math.Round(e*100) / 100, Text: reasonText(Feature(k), x, e > 0, ctx)})
	}
	slices.SortStableFunc(out, func(p, q Reason) int {
		switch {
		case math.Abs(p.Effect) > math.Abs(q.Effect):
			return -1
		case math.Abs(p.Effect) < math.Abs(q.Effect):
			return 1
		}
		return 0
	})
	if len(out) > MaxReasons {
		out = out[:MaxReasons]
	}
	return out
}

// binaryFeature reports whether f is a trait a pair has or not.
func binaryFeature(f Feature) bool {
	return f == FeatOpposite || f == FeatOtherAction || f == FeatNested || f == FeatGuided
}

// reasonContext is what a reason's words quote: the two names and their
// structures, and the rare words both texts use.
type reasonContext struct {
	a, b         nameParts
	nameA, nameB string
	shared       []string
}

func reasonText(f Feature, x Features, up bool, c reasonContext) string {
	switch f {
	case FeatAdaptive:
		if up {
			return "their names and first sentences read closer than each usually does to its nearest tools"
		}
		return "each name and first sentence reads closer to its nearest tools than to this one"
	case FeatFull:
		if up {
			return fmt.Sprintf("the full descriptions read alike (cosine %.2f)", x[f])
		}
		return fmt.Sprintf("the full descriptions read differently (cosine %.2f)", x[f])
	case FeatTerms:
		switch {
		case up && len(c.shared) > 0:
			return "both use the catalog's rarer words " + quoteJoin(c.shared, ", ")
		case up:
			return fmt.Sprintf("they share rare words (%.0f%% weighted overlap)", 100*x[f])
		}
		return "they share few of the catalog's rarer words"
	case FeatOpposite:
		if reversed(&c.a, &c.b) {
			plain := c.a
			if c.a.reverse {
				plain = c.b
			}
			turned := c.a
			if !c.a.reverse {
				turned = c.b
			}
			what := strings.TrimSpace(plain.verb + " " + strings.Join(plain.said, " "))
			how := strings.TrimSpace(turned.verb + " " + strings.Join(turned.said, " "))
			return fmt.Sprintf("one reverses the other ('%s' vs '%s'): the request says which way", what, how)
		}
		if stopper, other := c.a, c.b; stops(&stopper, &other) || stops(&other, &stopper) {
			if !stops(&stopper, &other) {
				stopper, other = other, stopper
			}
			what := strings.Join(other.said, " ")
			return fmt.Sprintf("one undoes the other ('%s' vs '%s %s'): the request's verb says which", what, stopper.verb, what)
		}
		return fmt.Sprintf("opposite actions ('%s' vs '%s'): the request's verb says which", c.a.verb, c.b.verb)
	case FeatOtherAction:
		return fmt.Sprintf("different actions ('%s' vs '%s')", c.a.verb, c.b.verb)
	case FeatNested:
		return nestedText(c)
	case FeatGuided:
		return "each description names the other tool and says when to choose it"
	case FeatBag:
		if up {
			return fmt.Sprintf("their names, descriptions and parameters use the same rare words (%.0f%% weighted overlap)", 100*x[f])
		}
		return "their names, descriptions and parameters share few of the catalog's rarer words"
	}
	return ""
}

// prepositions join an object to what it belongs to in a name:
// activity_to_incident, labels_from_query.
var prepositions = map[string]bool{"to": true, "from": true, "in": true, "into": true, "on": true, "of": true, "for": true, "by": true, "with": true}

// nestedText says which name holds the other's object and what it adds.
func nestedText(c reasonContext) string {
	general, specific, gp, sp := c.nameA, c.nameB, c.a, c.b
	if len(c.a.object) > len(c.b.object) {
		general, specific, gp, sp = c.nameB, c.nameA, c.b, c.a
	}
	var extra []string
	for _, w := range sp.said {
		if !slices.Contains(gp.object, strings.TrimSuffix(singular(w), "_")) && !stopWords[w] {
			extra = append(extra, w)
		}
	}
	// add_activity_to_incident beside create_incident: the general
	// object follows a preposition, so the specific tool acts on
	// something else that belongs to it, and is no narrower tool.
	for k, w := range sp.said {
		if k > 0 && prepositions[w] && k+1 < len(sp.said) && slices.Contains(gp.object, strings.TrimSuffix(singular(sp.said[len(sp.said)-1]), "_")) {
			return fmt.Sprintf("%s acts on %s of the %s that %s is about", specific, quoteJoin(sp.said[:k], " "), strings.Join(sp.said[k+1:], " "), general)
		}
	}
	if gp.verb != "" && gp.action == sp.action {
		return fmt.Sprintf("%s is %s narrowed by %s: a specific tool beside a general one", specific, general, quoteJoin(extra, ", "))
	}
	return fmt.Sprintf("%s holds the object of %s (%s) and adds %s", specific, general, strings.Join(gp.said, " "), quoteJoin(extra, ", "))
}

// riskGeo is what the risk scoring reads beside the first-sentence
// vectors: the full-text vectors (unit length), each tool's name
// structure and word weights, and the tools its description names with
// guidance.
type riskGeo struct {
	model  *RiskModel
	dim    int
	full   []float32 // n rows of dim, unit length (zero rows stay zero)
	parts  []nameParts
	guides []map[int]bool // tool -> the tools its description names with guidance
	terms  [][]termWeight // each tool's tf-idf vector, unit length, by term id
	vocab  []string       // the terms, by id
	bags   [][]termWeight // each tool's bag of words (bag.go), unit length, ids from len(vocab)
	ids    int            // one past the last term or bag id: a dense row's length
	// reach is each tool's bag length on the words another tool's bag
	// holds too (bagReach): no pair's bag cosine exceeds the product of
	// the two's.
	reach []float64
	// termsRoom is the most the term overlap (at most 1) can add to the
	// log-odds, fullSpan the most the full texts' cosine (in [-1, 1]) can
	// move it (see eval). The bars eval is given sit a margin under the
	// exact ones (logitBar), which covers the rounding of its partial sums.
	termsRoom, fullSpan float64
}

// bagReach gives, per tool, the length of its bag on the words another
// tool's bag holds too: by Cauchy-Schwarz two tools' bag cosine is at most
// the product of their reaches, and a bag of words no other tool uses
// reaches nothing.
func bagReach(rows [][]termWeight, ids int) []float64 {
	df := make([]int32, ids)
	for _, row := range rows {
		for _, t := range row {
			df[t.id]++
		}
	}
	out := make([]float64, len(rows))
	for k, row := range rows {
		var sq float64
		for _, t := range row {
			if df[t.id] > 1 {
				sq += t.w * t.w
			}
		}
		out[k] = math.Sqrt(sq)
	}
	return out
}

type termWeight struct {
	id int32
	w  float64
}

// tfidf gives each tool a unit tf-idf vector over its name's words and its
// description's terms, the idf taken over the catalog, and the terms by id.
func tfidf(tools []*catalog.Tool) ([][]termWeight, []string) {
	ids := map[string]int32{}
	var vocab []string
	counts := make([]map[int32]float64, len(tools))
	var df []int
	for k, t := range tools {
		counts[k] = map[int32]float64{}
		words := append(NameTokens(t.OwnName()), descriptionTerms(t.Description)...)
		for _, w := range words {
			id, ok := ids[w]
			if !ok {
				id = int32(len(ids))
				ids[w] = id
				vocab = append(vocab, w)
				df = append(df, 0)
			}
			if counts[k][id] == 0 {
				df[id]++
			}
			counts[k][id]++
		}
	}
	out := make([][]termWeight, len(tools))
	n := float64(len(tools))
	for k, c := range counts {
		var row []termWeight
		for id, tf := range c {
			w := (1 + math.Log(tf)) * math.Log((1+n)/(1+float64(df[id])))
			if w > 0 {
				row = append(row, termWeight{id, w})
			}
		}
		out[k] = unitRow(row)
	}
	return out, vocab
}

// unitRow sorts a row by id and scales it to unit length. Summed in id
// order, the same texts give the same bits.
func unitRow(row []termWeight) []termWeight {
	slices.SortFunc(row, func(a, b termWeight) int { return int(a.id - b.id) })
	var sq float64
	for _, t := range row {
		sq += t.w * t.w
	}
	for r := range row {
		row[r].w /= math.Sqrt(sq)
	}
	return row
}

// sharedTerms lists up to n terms tools i and j share, those that weigh
// most in their overlap first.
func (r *riskGeo) sharedTerms(i, j, n int) []string {
	return sharedTerms(r.terms[i], r.terms[j], r.vocab, n)
}

// sharedTerms lists up to n terms of a and b, those that weigh most in
// their overlap first.
func sharedTerms(a, b []termWeight, vocab []string, n int) []string {
	type part struct {
		id int32
		w  float64
	}
	var parts []part
	for x, y := 0, 0; x < len(a) && y < len(b); {
		switch {
		case a[x].id < b[y].id:
			x++
		case a[x].id > b[y].id:
			y++
		default:
			parts = append(parts, part{a[x].id, a[x].w * b[y].w})
			x++
			y++
		}
	}
	slices.SortStableFunc(parts, func(p, q part) int {
		switch {
		case p.w > q.w:
			return -1
		case p.w < q.w:
			return 1
		}
		return int(p.id - q.id)
	})
	var out []string
	for _, p := range parts[:min(n, len(parts))] {
		out = append(out, vocab[p.id])
	}
	return out
}

func sparseDot(a, b []termWeight) float64 {
	var s float64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i].id < b[j].id:
			i++
		case a[i].id > b[j].id:
			j++
		default:
			s += a[i].w * b[j].w
			i++
			j++
		}
	}
	return s
}

// denseDot is sparseDot with a's weights laid out by term id (0 where a
// lacks the term): the same products added in the same order, so the same
// bits, without walking a.
func denseDot(a []float64, b []termWeight) float64 {
	var s float64
	for _, t := range b {
		if w := a[t.id]; w != 0 {
			s += w * t.w
		}
	}
	return s
}

// shiftBags moves the bag's word ids past the terms' (from first on).
func (r *riskGeo) shiftBags(first int32) {
	for _, row := range r.bags {
		for k := range row {
			row[k].id += first
		}
	}
	r.ids += int(first)
}

// setRow lays tool i's term and bag weights out by id in dense (ids
// runs of zeros otherwise), for denseDot; clearRow zeroes them again.
func (r *riskGeo) setRow(dense []float64, i int) {
	for _, t := range r.terms[i] {
		dense[t.id] = t.w
	}
	for _, t := range r.bags[i] {
		dense[t.id] = t.w
	}
}

func (r *riskGeo) clearRow(dense []float64, i int) {
	for _, t := range r.terms[i] {
		dense[t.id] = 0
	}
	for _, t := range r.bags[i] {
		dense[t.id] = 0
	}
}

// features computes pair (i, j)'s features, given its adaptive score;
// dense, when set, holds tool i's term and bag weights by id (setRow).
func (r *riskGeo) features(i, j int, adaptive float64, dense []float64) Features {
	var x Features
	r.eval(i, j, adaptive, dense, math.Inf(-1), &x)
	return x
}

// eval computes pair (i, j)'s features and log-odds (Logit's); it gives
// up (ok false) when the pair's log-odds is under bar, as soon as the
// features left could not lift it there. Most pairs of a large catalog
// can enter none of the kernel's lists.
func (r *riskGeo) eval(i, j int, adaptive float64, dense []float64, bar float64, x *Features) (z float64, ok bool) {
	m := r.model
	*x = Features{}
	x[FeatAdaptive] = adaptive
	// The name traits are cheap: with them known, only the full texts'
	// cosine (in [-1, 1]) and the term overlap (in [0, 1]) are left to
	// bound, then only the overlap.
	rel := relate(&r.parts[i], &r.parts[j])
	known := m.Bias + m.Weights[FeatAdaptive]*adaptive
	if rel.opposite {
		x[FeatOpposite] = 1
		known += m.Weights[FeatOpposite]
	}
	if rel.otherVerb {
		x[FeatOtherAction] = 1
		known += m.Weights[FeatOtherAction]
	}
	if rel.nested {
		x[FeatNested] = 1
		known += m.Weights[FeatNested]
	}
	if r.guides[i][j] && r.guides[j][i] {
		x[FeatGuided] = 1
		known += m.Weights[FeatGuided]
	}
	room := r.termsRoom + max(0, m.Weights[FeatBag])*r.reach[i]*r.reach[j]
	if known+room+r.fullSpan < bar {
		return 0, false
	}
	x[FeatFull] = unitDot(r.full, r.dim, i, j)
	known += m.Weights[FeatFull] * x[FeatFull]
	if known+room < bar {
		return 0, false
	}
	// The bag, then the terms: with the bag known only the terms' room is
	// left to bound.
	if dense != nil {
		x[FeatBag] = denseDot(dense, r.bags[j])
	} else {
		x[FeatBag] = sparseDot(r.bags[i], r.bags[j])
	}
	if known+m.Weights[FeatBag]*x[FeatBag]+r.termsRoom < bar {
		return 0, false
	}
	if dense != nil {
		x[FeatTerms] = denseDot(dense, r.terms[j])
	} else {
		x[FeatTerms] = sparseDot(r.terms[i], r.terms[j])
	}
	z = m.Logit(*x)
	return z, z >= bar
}

// logitBar is the log-odds under which a pair's risk is sure to be under
// p, to a margin well above rounding; a bar of 1 or more bars only pairs
// whose risk rounds under 1.
func logitBar(p float64) float64 {
	switch {
	case math.IsNaN(p) || p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return 20
	}
	return min(math.Log(p)-math.Log1p(-p), 20) - 1e-6
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// unitDot is the dot product of rows i and j of v, in float32 (vecf32).
func unitDot(v []float32, dim, i, j int) float64 {
	return float64(vecf32.Dot(v[i*dim:(i+1)*dim], v[j*dim:(j+1)*dim]))
}

// unitRows lays vectors out as unit rows, scaled in float64 and stored as
// float32.
func unitRows(vs [][]float32, dim int) []float32 {
	out := make([]float32, len(vs)*dim)
	for k, v := range vs {
		row := out[k*dim : (k+1)*dim]
		var sq float64
		for _, x := range v {
			sq += float64(x) * float64(x)
		}
		if sq > 0 {
			n := math.Sqrt(sq)
			for d, x := range v {
				row[d] = float32(float64(x) / n)
			}
		}
	}
	return out
}

// guideCues are the words that turn a mention of another tool into a
// choice condition.
var guideCues = []string{"when", "instead", "prefer", "rather", "only after", "before", "after", "not for", "unlike", "use ", "vs", "versus", "if "}

// guidedMentions finds, for each tool, the other tools its description
// names in a sentence that also says when to choose (a guide cue). A name
// counts when it stands whole (bounded by other than letters, digits, `_`,
// `-` and `.`); a one-word name must be quoted (`x`, 'x' or "x").
//
// A whole mention of a name made of name bytes is a maximal run of name
// bytes in the sentence, so each cue sentence is cut into its runs and
// the runs looked up by name: linear in the text, where trying every name
// against every sentence grows with the square of the catalog. Names with
// other bytes (spaces, non-ASCII) are tried one by one, as mentions does.
func guidedMentions(tools []*catalog.Tool) []map[int]bool {
	byName := map[string][]int{}
	oneWord := make([]bool, len(tools))
	var odd []int // names a run cannot be
	for j, u := range tools {
		name := strings.ToLower(u.OwnName())
		if name == "" {
			continue
		}
		oneWord[j] = len(NameTokens(name)) < 2
		if strings.IndexFunc(name, func(r rune) bool { return r >= 0x80 || !isNameByte(byte(r)) }) >= 0 {
			odd = append(odd, j)
			continue
		}
		byName[name] = append(byName[name], j)
	}
	out := make([]map[int]bool, len(tools))
	mark := func(i, j int) {
		if j == i {
			return
		}
		if out[i] == nil {
			out[i] = map[int]bool{}
		}
		out[i][j] = true
	}
	for i, t := range tools {
		if t.Description == "" {
			continue
		}
		for _, sentence := range sentences(t.Description) {
			lower := strings.ToLower(sentence)
			if !hasGuideCue(lower) {
				continue
			}
			for at := 0; at < len(lower); {
				if !isNameByte(lower[at]) {
					at++
					continue
				}
				end := at
				for end < len(lower) && isNameByte(lower[end]) {
					end++
				}
				before, after := byte(' '), byte(' ')
				if at > 0 {
					before = lower[at-1]
				}
				if end < len(lower) {
					after = lower[end]
				}
				quoted := strings.IndexByte("`'\"", before) >= 0 && before == after
				for _, j := range byName[lower[at:end]] {
					if !oneWord[j] || quoted {
						mark(i, j)
					}
				}
				// A full stop that ends the sentence ends the name too.
				if lower[end-1] == '.' && (end == len(lower) || lower[end] == ' ') {
					for _, j := range byName[lower[at:end-1]] {
						if !oneWord[j] {
							mark(i, j)
						}
					}
				}
				at = end
			}
			for _, j := range odd {
				if j != i && mentions(lower, strings.ToLower(tools[j].OwnName())) {
					mark(i, j)
				}
			}
		}
	}
	return out
}

func hasGuideCue(lower string) bool {
	for _, c := range guideCues {
		if strings.Contains(lower, c) {
			return true
		}
	}
	return false
}

// sentences splits a description at sentence ends and line breaks.
func sentences(s string) []string {
	var out []string
	for s != "" {
		first := FirstSentence(s)
		if first == "" {
			break
		}
		at := strings.Index(s, first)
		out = append(out, first)
		s = s[at+len(first):]
	}
	return out
}

func isNameByte(c byte) bool { return textutil.IsLowerOrDigit(c) || c == '_' || c == '-' || c == '.' }

// mentions reports whether name stands whole in text (both lower case).
func mentions(text, name string) bool {
	if name == "" {
		return false
	}
	oneWord := len(NameTokens(name)) < 2
	for from := 0; ; {
		k := strings.Index(text[from:], name)
		if k < 0 {
			return false
		}
		at, end := from+k, from+k+len(name)
		from = at + 1
		before, after := byte(' '), byte(' ')
		if at > 0 {
			before = text[at-1]
		}
		if end < len(text) {
			after = text[end]
		}
		// A trailing full stop ends the sentence, not the name.
		if after == '.' && (end+1 == len(text) || text[end+1] == ' ') {
			after = ' '
		}
		if isNameByte(before) || isNameByte(after) {
			continue
		}
		if !oneWord || strings.ContainsRune("`'\"", rune(before)) && before == after {
			return true
		}
	}
}
