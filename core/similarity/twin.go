package similarity

import (
	"math"

	"slices"
	"strings"
	"toolscope/core/catalog"
	"unicode"
)

// Twin evidence: across servers a pair that does the same job twice
// usually says so in its names (firecrawl_map and tavily_map, two
// servers' delete_branch) and is each tool's best match on the other
// server. A cross-server pair's risk is judged against the cross-server
// start less what its names and ranks show (RiskModel.TwinBonus, in
// log-odds of the risk), while a generic verb shared alone (redis's get
// and time's get_timestamp) counts against it (docs/calibration.md).

// TwinTrait names one piece of twin evidence.
type TwinTrait int

// The twin traits, in the model's order.
const (
	// TraitMutual: each tool is the other's riskiest match on the
	// other's server.
	TraitMutual TwinTrait = iota
	// TraitSameName: the names are the same once each server's own name,
	// plurals and verb synonyms (fetch/read/get, find/query/search,
	// run/execute) are set aside.
	TraitSameName
	// TraitSameObject: the names act on the same object (the words left
	// when the verbs are set aside; a name of verbs alone is its own
	// object).
	TraitSameObject
	// TraitVerbOnly: the names share words, but only verbs, and their
	// objects differ.
	TraitVerbOnly
	numTraits
)

var traitNames = [numTraits]string{"mutual", "sameName", "sameObject", "verbOnly"}

func (t TwinTrait) String() string { return traitNames[t] }

// TraitNames lists the twin traits in the model's order.
func TraitNames() []string { return traitNames[:] }

// TwinTraits are one cross-server pair's twin evidence, each 0 or 1.
type TwinTraits [numTraits]float64

// TwinLogit is the log-odds a cross-server pair of risk r and traits x
// is judged by against logit(Twins): the risk's own log-odds plus the
// evidence.
func (m *RiskModel) TwinLogit(r float64, x TwinTraits) float64 {
	z := logit(r)
	for k, w := range m.TwinBonus {
		z += w * x[k]
	}
	return z
}

// TwinFloor is the lowest risk at which a cross-server pair can be
// judged a twin: the start less every positive bonus. Twins 0: none.
func (m *RiskModel) TwinFloor() float64 {
	if m.Twins <= 0 {
		return 0
	}
	z := logit(m.Twins)
	for _, w := range m.TwinBonus {
		z -= max(0, w)
	}
	return sigmoid(z)
}

func logit(p float64) float64 {
	p = min(max(p, 1e-12), 1-1e-12)
	return math.Log(p / (1 - p))
}

// NameTraits are the name evidence of tools named a and b on servers
// serverA and serverB (TraitMutual left 0).
func NameTraits(a, serverA, b, serverB string) TwinTraits {
	return coreTraits(nameCore(a, serverA), nameCore(b, serverB))
}

// coreTraits are the name evidence of two name cores (nameCore).
func coreTraits(ca, cb []string) TwinTraits {
	var x TwinTraits
	if len(ca) == 0 || len(cb) == 0 {
		return x
	}
	if sameSet(ca, cb) {
		x[TraitSameName] = 1
	}
	if sameSet(objectOf(ca), objectOf(cb)) {
		x[TraitSameObject] = 1
	}
	if x[TraitSameName] == 0 && x[TraitSameObject] == 0 {
		shared, verbs := 0, 0
		for _, w := range ca {
			if slices.Contains(cb, w) {
				shared++
				if isVerb(w) {
					verbs++
				}
			}
		}
		if shared > 0 && shared == verbs {
			x[TraitVerbOnly] = 1
		}
	}
	return x
}

// twinNames is a merged catalog's name cores, worked out once, for the
// kernel to tell which cross-server pairs under the watch floor the
// evidence could lift to the start. A merged catalog of many small
// servers asks it of nearly every pair, so each core is kept as sorted
// word ids too (its set, and its object's), and a pair's traits are read
// from those without allocating.
type twinNames struct {
	cores [][]string
	// set and obj are each core's words and its object's (objectOf), as
	// sorted distinct ids; verb says which ids are verbs.
	set, obj [][]int32
	verb     []bool
	bonus    TwinTraits
	// sums hash each core's set and its object's: two cores of
	// different sums are not the same set.
	sums []coreSums
}

func newTwinNames(tools []*catalog.Tool, bonus TwinTraits) *twinNames {
	n := len(tools)
	t := &twinNames{cores: make([][]string, n), set: make([][]int32, n), obj: make([][]int32, n), sums: make([]coreSums, n), bonus: bonus}
	ids := map[string]int32{}
	idsOf := func(words []string) []int32 {
		out := make([]int32, 0, len(words))
		for _, w := range words {
			id, ok := ids[w]
			if !ok {
				id = int32(len(ids))
				ids[w] = id
				t.verb = append(t.verb, isVerb(w))
			}
			out = append(out, id)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	for k, tl := range tools {
		core := nameCore(tl.OwnName(), tl.Server)
		t.cores[k] = core
		if len(core) > 0 {
			t.set[k], t.obj[k] = idsOf(core), idsOf(objectOf(core))
			t.sums[k] = coreSums{set: idSum(t.set[k]), obj: idSum(t.obj[k]), named: true}
		}
	}
	return t
}

// coreSums are a core's sums; named says it has words.
type coreSums struct {
	set, obj uint64
	named    bool
}

// idSum hashes sorted ids (FNV-1a over them).
func idSum(ids []int32) uint64 {
	h := uint64(14695981039346656037)
	for _, id := range ids {
		h = (h ^ uint64(uint32(id))) * 1099511628211
	}
	return h
}

// need is a log-odds under which pair (i, j) cannot reach start, in
// logit, with its names' evidence: no more than what reaches asks of
// logit(p.s). It reads the cores' sums alone: the same sums stand for
// the same name or object (a sum shared by chance only lowers it), and
// shared verbs, whose bonus is not positive, are left out.
func (t *twinNames) need(i, j int, start float64) float64 {
	z := start - max(0, t.bonus[TraitMutual])
	a, b := &t.sums[i], &t.sums[j]
	if !a.named || !b.named {
		return z
	}
	if a.set == b.set {
		z -= max(0, t.bonus[TraitSameName])
	}
	if a.obj == b.obj {
		z -= max(0, t.bonus[TraitSameObject])
	}
	return z - max(0, t.bonus[TraitVerbOnly])
}

// traits are coreTraits of tools i and j's cores.
func (t *twinNames) traits(i, j int32) TwinTraits {
	var x TwinTraits
	a, b := t.set[i], t.set[j]
	if len(a) == 0 || len(b) == 0 {
		return x
	}
	if slices.Equal(a, b) {
		x[TraitSameName] = 1
	}
	if slices.Equal(t.obj[i], t.obj[j]) {
		x[TraitSameObject] = 1
	}
	if x[TraitSameName] == 0 && x[TraitSameObject] == 0 {
		// Shared words, all of them verbs.
		shared, onlyVerbs := false, true
		for p, q := 0, 0; p < len(a) && q < len(b); {
			switch {
			case a[p] < b[q]:
				p++
			case a[p] > b[q]:
				q++
			default:
				shared = true
				onlyVerbs = onlyVerbs && t.verb[a[p]]
				p++
				q++
			}
		}
		if shared && onlyVerbs {
			x[TraitVerbOnly] = 1
		}
	}
	return x
}

// reaches reports whether pair p, were it each tool's best match, could
// reach start with its names' evidence.
func (t *twinNames) reaches(p scored, start float64) bool {
	x := t.traits(p.i, p.j)
	if t.bonus[TraitMutual] > 0 {
		x[TraitMutual] = 1
	}
	z := logit(p.s)
	for k, w := range t.bonus {
		z += w * x[k]
	}
	return z >= logit(start)
}

// verbSynonyms maps a verb to the one its job is told by; "" drops it.
var verbSynonyms = map[string]string{
	"get": "get", "fetch": "get", "read": "get", "retrieve": "get", "describe": "get", "show": "get",
	"search": "search", "find": "search", "query": "search",
	"list": "list",
	"run":  "execute", "execute": "execute", "exec": "execute",
	"delete": "delete", "remove": "delete",
	"create": "create", "add": "create", "new": "create",
	"update": "update", "edit": "update", "modify": "update",
	"navigate": "navigate", "goto": "navigate", "open": "navigate",
	"take": "",
}

var otherVerbs = map[string]bool{"set": true, "put": true, "post": true, "send": true, "call": true, "use": true, "check": true}

func isVerb(w string) bool {
	_, ok := verbSynonyms[w]
	return ok || otherVerbs[w]
}

// nameCore is a name's words, lower-cased and singular, with its
// server's own words and mcp/server/api set aside and verbs mapped to
// their synonyms' one.
func nameCore(name, server string) []string {
	skip := map[string]bool{"mcp": true, "server": true, "api": true}
	for _, w := range splitName(server) {
		skip[w] = true
	}
	var out []string
	for _, w := range splitName(name) {
		if skip[w] {
			continue
		}
		w = singular(w)
		if v, ok := verbSynonyms[w]; ok {
			w = v
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// objectOf is a core's words that are not verbs, or its last word when
// all are.
func objectOf(core []string) []string {
	var out []string
	for _, w := range core {
		if !isVerb(w) && !slices.Contains(verbValues, w) {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return core[len(core)-1:]
	}
	return out
}

var verbValues = []string{"get", "search", "list", "execute", "delete", "create", "update", "navigate"}

func sameSet(a, b []string) bool {
	for _, w := range a {
		if !slices.Contains(b, w) {
			return false
		}
	}
	for _, w := range b {
		if !slices.Contains(a, w) {
			return false
		}
	}
	return true
}

// splitName splits at non-letters and non-digits and at lower-to-upper
// case changes, lower-cased.
func splitName(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return out
}

// twins reports whether cross-server pairs are judged with twin
// evidence: under the risk scoring of a merged catalog whose model
// weighs any.
func (s *Scores) twins() bool {
	return s.scoring == ScoringRisk && s.servers != nil && s.model != nil && s.model.TwinBonus != (TwinTraits{})
}

// twinFloor is the lowest risk the evidence can lift to start.
func (s *Scores) twinFloor(start float64) float64 {
	m := *s.model
	m.Twins = start
	return m.TwinFloor()
}

// twinJudge judges the cross-server pairs of a band by risk and
// evidence.
type twinJudge struct {
	s     *Scores
	m     RiskModel
	start float64 // logit of the start
	// best is each tool's highest risk on each other server, among the
	// band's pairs.
	best map[[2]int32]float64
}

func (s *Scores) newTwinJudge(pairs []scored, lowest, start float64) *twinJudge {
	j := &twinJudge{s: s, m: *s.model, start: logit(start), best: map[[2]int32]float64{}}
	srv := s.geo.server
	for _, p := range pairs {
		if p.s < lowest {
			break
		}
		if !s.geo.crossing(p.i, p.j) {
			continue
		}
		for _, k := range [][2]int32{{p.i, srv[p.j]}, {p.j, srv[p.i]}} {
			if v, ok := j.best[k]; !ok || p.s > v {
				j.best[k] = p.s
			}
		}
	}
	return j
}

// Traits are cross-server pair p's twin evidence.
func (j *twinJudge) traits(p scored) TwinTraits {
	a, b := j.s.tools[p.i], j.s.tools[p.j]
	x := NameTraits(a.OwnName(), a.Server, b.OwnName(), b.Server)
	srv := j.s.geo.server
	if p.s >= j.best[[2]int32{p.i, srv[p.j]}] && p.s >= j.best[[2]int32{p.j, srv[p.i]}] {
		x[TraitMutual] = 1
	}
	return x
}

func (j *twinJudge) confusable(p scored) bool {
	return j.m.TwinLogit(p.s, j.traits(p)) >= j.start
}

// reason is cross-server pair p's twin evidence as a reason, when it
// moves the pair's log-odds by 0.25 or more (traits weighing under 0.1
// left out).
func (j *twinJudge) reason(p scored) (Reason, bool) { return j.reasonOf(j.traits(p)) }

func (j *twinJudge) reasonOf(x TwinTraits) (Reason, bool) {
	effect := 0.0
	var parts []string
	for k, w := range j.m.TwinBonus {
		if x[k] == 0 || math.Abs(w) < 0.1 {
			continue // a trait the fit gives next to no weight is no reason
		}
		effect += w * x[k]
		switch TwinTrait(k) {
		case TraitMutual:
			parts = append(parts, "each is the other's closest tool on the other's server")
		case TraitSameName:
			parts = append(parts, "the names are the same once the servers' own names, plurals and verb synonyms are set aside")
		case TraitSameObject:
			if x[TraitSameName] == 0 {
				parts = append(parts, "the names act on the same object")
			}
		case TraitVerbOnly:
			parts = append(parts, "the names share only a generic verb")
		}
	}
	if math.Abs(effect) < 0.25 || len(parts) == 0 {
		return Reason{}, false
	}
	return Reason{Feature: "twin", Effect: math.Round(effect*100) / 100, Text: "across servers, " + strings.Join(parts, ", and ")}, true
}

// withTwinReason puts the twin evidence first among a pair's reasons,
// keeping at most MaxReasons.
func withTwinReason(rs []Reason, r Reason) []Reason {
	out := append([]Reason{r}, rs...)
	return out[:min(len(out), MaxReasons)]
}
