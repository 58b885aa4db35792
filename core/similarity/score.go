package similarity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"toolscope/core/catalog"
	"toolscope/embed"
	"toolscope/internal/par"
)

// EmbedBatch is how many texts go to the embedder per call: small enough
// for steady progress and prompt cancellation, large enough to batch.
const EmbedBatch = 256

// Scores is the scored catalog: the vectors and what the kernel kept. It
// answers verdict questions for any thresholds (Judge) without embedding
// again. Its methods are safe for concurrent use.
type Scores struct {
	mu         sync.Mutex
	fullWords  int             // Options.FullWords, under the risk scoring
	tools      []*catalog.Tool // the distinct tools, in catalog order
	toolCount  int             // the whole catalog's
	embedderID string
	scoring    Scoring
	thresholds Thresholds
	calibrated bool
	notes      []string
	pairCount  int
	geo        *geometry
	ranked     []scored
	neighbors  [][]scored
	limit      int     // Options.VerdictLimit
	detail     int     // Options.DetailLimit
	words      []words // hint material, filled on first need
	// purposes is each tool's purposeOf for its own name parts, read on
	// first need: a tool is in many pairs.
	purposes []purposeMemo
	// termSets is each tool's description terms by their singular
	// (singularSet), made on first need.
	termSets []termSetMemo
	band     band
	model    *RiskModel // the risk scoring's
	servers  []int32    // each distinct tool's server, when they come from several
	k        int        // the adaptive scoring's neighbours per tool
	twin     *twinJudge // the cross-server pairs' judge, during Judge
}

// band is the verdict pairs kept for the thresholds they were scored
// against: the best limit pairs of each kind, and the exact counts of all.
type band struct {
	pairs                           []scored
	floor, threshold, affinityFloor float64
	crossFloor, crossThreshold      float64
	crossWatch                      float64
	complete                        bool
	confusable, watch               int
}

// Score embeds the catalog's distinct tools and scores every pair under
// opts.Scoring. Tools repeating an earlier name are left out. It fails when
// the embedder fails or misbehaves, or ctx ends.
func Score(ctx context.Context, cat *catalog.Catalog, opts Options) (*Scores, error) {
	if opts.Embedder == nil {
		return nil, errors.New("similarity needs an embedder")
	}
	s := &Scores{toolCount: len(cat.Tools), embedderID: opts.Embedder.ID(), scoring: opts.Scoring, limit: max(0, opts.VerdictLimit), detail: max(0, opts.DetailLimit)}
	if s.scoring == "" {
		s.scoring = ScoringRisk
	}
	if !slices.Contains(Scorings, s.scoring) {
		return nil, fmt.Errorf("unknown scoring %q (want risk, adaptive or cosine)", s.scoring)
	}
	s.model = opts.RiskModel
	if s.model == nil {
		s.model = DefaultRiskModel()
	}
	seen := make(map[string]bool, len(cat.Tools))
	for _, t := range cat.Tools {
		if !seen[t.Name] {
			seen[t.Name] = true
			s.tools = append(s.tools, t)
		}
	}
	s.thresholds, s.calibrated = resolveThresholds(opts.Embedder, s.scoring, opts)
	s.servers = serversOf(s.tools)
	if s.servers != nil && s.scoring == ScoringRisk && opts.Threshold == nil && !s.thresholds.ReportOnly() {
		s.thresholds.CrossServer = s.model.Twins
	}
	if n, ok := opts.Embedder.(embed.Noter); ok {
		s.notes = append(s.notes, n.Note())
	}
	if !s.calibrated && s.scoring == ScoringRisk {
		s.notes = append(s.notes, fmt.Sprintf("the risk model was fitted on %s vectors: with %s the risks are not calibrated, a ranking only; pass --threshold to set your own", s.model.Embedder, s.embedderID))
	} else if !s.calibrated {
		s.notes = append(s.notes, fmt.Sprintf("%s has no calibration for the %s scoring: the thresholds are the scoring's defaults, a starting point only; pass --threshold to set your own", s.embedderID, s.scoring))
	}
	n := len(s.tools)
	s.pairCount = n * (n - 1) / 2
	if n < 2 {
		return s, nil
	}
	geo, err := s.embed(ctx, opts)
	if err != nil {
		return nil, err
	}
	s.geo = geo
	if err := s.scoreAll(ctx, opts); err != nil {
		return nil, err
	}
	return s, nil
}

// resolveThresholds picks the verdict start: the user's values, else the
// embedder's calibration for the scoring, else the scoring's defaults.
func resolveThresholds(e embed.Embedder, scoring Scoring, opts Options) (Thresholds, bool) {
	var th Thresholds
	cal, calibrated := e.Calibration(string(scoring))
	if scoring == ScoringRisk {
		// The risk model is the calibration, fitted on one embedder's
		// vectors.
		m := opts.RiskModel
		if m == nil {
			m = DefaultRiskModel()
		}
		// The band is a difference: rounded to nine decimals, it is written
		// as the model's two starts are (0.37109, not 0.37109000000000003).
		cal, calibrated = embed.Calibration{Threshold: m.Threshold, WatchBand: math.Round((m.Threshold-m.Watch)*1e9) / 1e9}, e.ID() == m.Embedder
	}
	switch {
	case calibrated:
		th = Thresholds{Confusability: cal.Threshold, WatchBand: cal.WatchBand}
	case scoring == ScoringAdaptive:
		th = Thresholds{Confusability: opts.Adaptive.Threshold, WatchBand: opts.Adaptive.WatchBand}
	case scoring == ScoringRisk:
		th = Thresholds{Confusability: cal.Threshold, WatchBand: cal.WatchBand}
	default:
		th = Thresholds{Confusability: DefaultCosineThreshold, WatchBand: DefaultCosineWatchBand}
	}
	if scoring == ScoringAdaptive {
		th.AffinityFloor = opts.Adaptive.AffinityFloor
	}
	if opts.Threshold != nil {
		th.Confusability = *opts.Threshold
		calibrated = true
	}
	if opts.WatchBand != nil {
		th.WatchBand = *opts.WatchBand
	}
	if th.ReportOnly() {
		th.WatchBand = 0
	}
	return th, calibrated
}

// embed embeds each distinct text once, in batches, and lays the vectors
// out for the kernel. The risk scoring embeds two texts per tool: the
// first sentence (the kernel's) and the full text.
func (s *Scores) embed(ctx context.Context, opts Options) (*geometry, error) {
	texts, rowOf := distinctTexts(s.tools, s.textsOf(opts))
	vectors, err := s.embedTexts(ctx, opts, texts)
	if err != nil {
		return nil, err
	}
	if opts.Progress != nil {
		opts.Progress(Progress{Stage: StageEmbed, Done: len(texts), Total: len(texts)})
		opts.Progress(Progress{Stage: StageFeatures})
	}
	g, err := s.layOut(vectors, rowOf[0])
	if err != nil {
		return nil, err
	}
	if err := s.checkVectors(vectors, g.dim); err != nil {
		return nil, err
	}
	if s.scoring == ScoringRisk {
		g.risk = s.riskGeometry(vectors, rowOf[1], g.dim)
		g.bound = newRiskBound(g.risk)
	}
	if s.scoring != ScoringCosine {
		g.weight = opts.Adaptive.JaccardWeight
		g.tokens, g.vocab = nameTokenIDs(s.tools)
		g.masks = make([][2]uint64, len(g.tokens))
		for k, set := range g.tokens {
			for _, id := range set {
				g.masks[k][id>>6&1] |= 1 << (id & 63)
			}
		}
	}
	return g, nil
}

// textsOf is the texts the scoring embeds for each tool: the kernel's
// first, then, under the risk scoring, the full text.
func (s *Scores) textsOf(opts Options) []func(*catalog.Tool) string {
	textOf := []func(*catalog.Tool) string{CosineText}
	switch s.scoring {
	case ScoringAdaptive:
		textOf[0] = AdaptiveText
	case ScoringRisk:
		s.fullWords = opts.FullWords
		textOf = []func(*catalog.Tool) string{AdaptiveText, func(t *catalog.Tool) string { return FullText(t, s.fullWords) }}
	}
	return textOf
}

// distinctTexts lists each text textOf makes of the tools once, so two
// tools that read the same are embedded once; rowOf[f][k] is the place
// in texts of textOf[f] of tool k.
func distinctTexts(tools []*catalog.Tool, textOf []func(*catalog.Tool) string) (texts []string, rowOf [][]int) {
	index := make(map[string]int, len(tools))
	rowOf = make([][]int, len(textOf))
	for f, of := range textOf {
		rowOf[f] = make([]int, len(tools))
		for k, t := range tools {
			text := of(t)
			at, ok := index[text]
			if !ok {
				at = len(texts)
				index[text] = at
				texts = append(texts, text)
			}
			rowOf[f][k] = at
		}
	}
	return texts, rowOf
}

// embedTexts embeds texts EmbedBatch at a time, for steady progress and
// prompt cancellation, and refuses an embedder that answers a batch with
// another count of vectors.
func (s *Scores) embedTexts(ctx context.Context, opts Options, texts []string) ([][]float32, error) {
	var vectors [][]float32
	for from := 0; from < len(texts); from += EmbedBatch {
		if opts.Progress != nil {
			opts.Progress(Progress{Stage: StageEmbed, Done: from, Total: len(texts)})
		}
		batch := texts[from:min(from+EmbedBatch, len(texts))]
		vs, err := opts.Embedder.Embed(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("embedding with %s: %w", s.embedderID, err)
		}
		if len(vs) != len(batch) {
			return nil, fmt.Errorf("embedding with %s: got %d vectors for %d texts", s.embedderID, len(vs), len(batch))
		}
		vectors = append(vectors, vs...)
	}
	return vectors, nil
}

// layOut copies each tool's kernel vector (vectors[rows[k]]) into one
// block, with its norm, refusing a vector of another length or one that
// is not finite: it names the tool whose vector is wrong.
func (s *Scores) layOut(vectors [][]float32, rows []int) (*geometry, error) {
	dim := len(vectors[0])
	g := &geometry{n: len(s.tools), dim: dim, vecs: make([]float32, len(s.tools)*dim), norms: make([]float64, len(s.tools)),
		exact: s.scoring == ScoringCosine && s.embedderID == (embed.Mock{}).ID(), server: s.servers}
	if s.twins() {
		g.twin = newTwinNames(s.tools, s.model.TwinBonus)
	}
	for k, row := range rows {
		v := vectors[row]
		if len(v) != dim {
			return nil, fmt.Errorf("embedding with %s: vectors of different lengths (%d and %d)", s.embedderID, dim, len(v))
		}
		dst := g.vecs[k*dim : (k+1)*dim]
		var sq float64
		for d, x := range v {
			f := float64(x)
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("embedding with %s: the vector for tool %q holds %v", s.embedderID, s.tools[k].Name, f)
			}
			dst[d] = x
			sq += float64(f * f)
		}
		g.norms[k] = math.Sqrt(sq)
	}
	return g, nil
}

// checkVectors refuses, among all the vectors (the full texts' too), one
// that is not finite or not dim long.
func (s *Scores) checkVectors(vectors [][]float32, dim int) error {
	for _, v := range vectors {
		for _, x := range v {
			if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("embedding with %s: a vector holds %v", s.embedderID, f)
			}
		}
		if len(v) != dim {
			return fmt.Errorf("embedding with %s: vectors of different lengths (%d and %d)", s.embedderID, dim, len(v))
		}
	}
	return nil
}

// riskGeometry works out what the risk scoring reads beside the kernel's
// vectors: the full texts' unit vectors (vectors[fullRows[k]]), the
// names' parts, the guided mentions, the bags of words and the word
// weights.
func (s *Scores) riskGeometry(vectors [][]float32, fullRows []int, dim int) *riskGeo {
	full := make([][]float32, len(fullRows))
	for k, r := range fullRows {
		full[k] = vectors[r]
	}
	r := &riskGeo{model: s.model, dim: dim}
	// The five are independent: each on its own goroutine.
	var wg sync.WaitGroup
	wg.Go(func() { r.full = unitRows(full, dim) })
	wg.Go(func() { r.parts = parseNames(s.tools) })
	wg.Go(func() { r.guides = guidedMentions(s.tools) })
	wg.Go(func() { r.bags, r.ids = bags(s.tools, 0) })
	r.terms, r.vocab = tfidf(s.tools)
	wg.Wait()
	// The bag's ids follow the terms' in one dense row (setRow).
	r.shiftBags(int32(len(r.vocab)))
	r.reach = bagReach(r.bags, r.ids)
	r.termsRoom = max(0, s.model.Weights[FeatTerms])
	r.fullSpan = math.Abs(s.model.Weights[FeatFull])
	return r
}

// nameTokenIDs numbers every name word and gives each tool its sorted
// set, with how many words there are.
func nameTokenIDs(tools []*catalog.Tool) ([][]int32, int) {
	ids := map[string]int32{}
	out := make([][]int32, len(tools))
	for k, t := range tools {
		var set []int32
		for _, w := range NameTokens(t.OwnName()) {
			id, ok := ids[w]
			if !ok {
				id = int32(len(ids))
				ids[w] = id
			}
			set = append(set, id)
		}
		slices.Sort(set)
		out[k] = slices.Compact(set)
	}
	return out, len(ids)
}

// scoreAll runs the kernel: one pass for cosine; for adaptive, a first
// pass finding each tool's usual affinity, then the scoring pass.
func (s *Scores) scoreAll(ctx context.Context, opts Options) error {
	passes, offset := 1, 0
	if s.scoring != ScoringCosine {
		passes = 2
	}
	progress := func(done int) {
		if opts.Progress != nil {
			opts.Progress(Progress{Stage: StageScore, Done: offset + done, Total: passes * s.pairCount})
		}
	}
	if s.scoring != ScoringCosine {
		k := max(1, min(opts.Adaptive.K, len(s.tools)-1))
		s.k = k
		// It keeps no verdict pairs: no floor, across servers either (a
		// merged catalog's pairs are nearly all across servers, and a
		// zero floor there kept every one of them).
		first, err := s.geo.run(ctx, want{rank: -1, floor: noFloor, crossFloor: noFloor, crossThreshold: noFloor, crossWatch: noFloor, neighbors: k, byAffinity: true}, progress)
		if err != nil {
			return err
		}
		s.geo.usual = usualAffinity(first.neighbors)
		offset = s.pairCount
	}
	rank := opts.RankLimit
	if rank < 0 {
		rank = -1
	}
	w := s.verdictWant(s.thresholds)
	w.rank, w.neighbors = rank, max(0, opts.Neighbours)
	k, err := s.geo.run(ctx, w, progress)
	if err != nil {
		return err
	}
	s.ranked, s.neighbors = k.ranked, k.neighbors
	s.keepBand(w, k)
	return nil
}

// verdictWant is a pass collecting the verdict pairs for th.
func (s *Scores) verdictWant(th Thresholds) want {
	w := want{rank: -1, floor: noFloor, threshold: th.Confusability, affinityFloor: math.Inf(-1), bandCap: s.limit}
	if !th.ReportOnly() {
		w.floor = th.Confusability - th.WatchBand
	}
	w.crossFloor, w.crossThreshold = w.floor, w.threshold
	if th.CrossServer > 0 && !th.ReportOnly() {
		// Across servers the band starts lower; a watch band under it
		// reaches no lower than the catalog's own.
		w.crossThreshold, w.crossFloor = th.CrossServer, min(w.floor, th.CrossServer)
		if s.twins() {
			// Twin evidence lowers a pair's start: keep, apart, every
			// pair that the most evidence could lift to it.
			w.crossFloor = min(w.crossFloor, s.twinFloor(th.CrossServer))
		}
	}
	w.crossWatch = w.crossFloor
	if s.twins() && th.CrossServer > 0 && !th.ReportOnly() {
		w.crossWatch = min(w.floor, th.CrossServer)
	}
	if s.scoring == ScoringAdaptive {
		w.affinityFloor = th.AffinityFloor
	}
	return w
}

func (s *Scores) keepBand(w want, k kept) {
	s.band = band{pairs: k.band, floor: w.floor, threshold: w.threshold, affinityFloor: w.affinityFloor,
		crossFloor: w.crossFloor, crossThreshold: w.crossThreshold, crossWatch: w.crossWatch, complete: k.complete, confusable: k.confusable, watch: k.watch}
}

func newTicker() *time.Ticker { return time.NewTicker(100 * time.Millisecond) }

// Thresholds are the thresholds resolved at Score: the user's, else the
// embedder's calibration, else the scoring's defaults.
func (s *Scores) Thresholds() Thresholds { return s.thresholds }

// Scoring is the scoring the pairs were scored under.
func (s *Scores) Scoring() Scoring { return s.scoring }

// Judge gives the similarity section for thresholds th: verdicts from the
// kept pairs, with hints. Raising the thresholds costs a filter; lowering
// them below what was kept scores the pairs again (without embedding).
func (s *Scores) Judge(th Thresholds) Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scoring != ScoringAdaptive {
		th.AffinityFloor = 0
	}
	sim := Result{
		Analyzed:   s.geo != nil,
		Embedder:   s.embedderID,
		Scoring:    s.scoring,
		Calibrated: s.calibrated || th != s.thresholds,
		Thresholds: th,
		PairCount:  s.pairCount,
		Notes:      s.notes,
	}
	if s.geo == nil {
		return sim
	}
	w := s.verdictWant(th)
	b, sameAsKept := s.bandFor(w)
	var twin *twinJudge
	if s.twins() && th.CrossServer > 0 && !th.ReportOnly() {
		twin = s.newTwinJudge(b.pairs, min(w.floor, w.crossFloor), th.CrossServer)
	}
	v := s.sortVerdicts(b.pairs, w, th, twin)
	s.twin = twin
	sim.Confusable, sim.Watch = s.findings(Confusable, v.conf, th), s.findings(Watch, v.watch, th)
	s.twin = nil
	confusable, watch := v.confusableCount, v.watchCount
	if sameAsKept && !b.complete {
		confusable, watch = b.confusable, b.watch
	}
	sim.ConfusableCount, sim.WatchCount = confusable, watch
	sim.Truncated = len(sim.Confusable) < confusable || len(sim.Watch) < watch
	sim.Ranked = s.pairs(s.ranked)
	sim.Neighbours = make([][]Pair, s.toolCount)
	for k, row := range s.neighbors {
		sim.Neighbours[s.tools[k].Index] = s.pairs(row)
	}
	return sim
}

// bandFor is the kept band that answers w, and whether it was kept for
// w's very thresholds (then its counts are exact even when its pairs are
// not all of them). When the kept pairs cannot answer, the pairs are
// scored again for w (not embedded again): a rescan is bounded and not
// cancellable mid-way, like a sort.
func (s *Scores) bandFor(w want) (band, bool) {
	b := s.band
	sameAsKept := w.floor == b.floor && w.threshold == b.threshold && w.affinityFloor == b.affinityFloor &&
		w.crossFloor == b.crossFloor && w.crossThreshold == b.crossThreshold && w.crossWatch == b.crossWatch
	within := b.complete && w.floor >= b.floor && w.crossFloor >= b.crossFloor && w.affinityFloor >= b.affinityFloor &&
		(!s.twins() || w.crossThreshold >= b.crossThreshold && w.crossWatch <= b.crossWatch) // candidates kept for a start as high
	if !sameAsKept && !within {
		k, err := s.geo.run(context.Background(), w, nil)
		if err == nil {
			s.keepBand(w, k)
			b, sameAsKept = s.band, true
		}
	}
	return b, sameAsKept
}

// verdicts are the pairs that get a finding, of each kind in band order
// and at most the verdict limit, and how many of each kind there are.
type verdicts struct {
	conf, watch                 []scored
	confusableCount, watchCount int
}

// sortVerdicts sorts the band's pairs into verdicts under w and th: a
// pair across servers by its own start, or by the twin evidence when
// twin is set; the rest go unreported.
func (s *Scores) sortVerdicts(pairs []scored, w want, th Thresholds, twin *twinJudge) verdicts {
	var v verdicts
	lowest := min(w.floor, w.crossFloor)
	for _, p := range pairs {
		if p.s < lowest {
			break
		}
		floor, threshold := w.floor, w.threshold
		crossing := s.geo.crossing(p.i, p.j)
		if crossing {
			floor, threshold = w.crossFloor, w.crossThreshold
		}
		if p.a < w.affinityFloor || p.s < floor {
			continue
		}
		isConf := p.s >= threshold
		if crossing && twin != nil {
			isConf = twin.confusable(p)
			if !isConf && p.s < min(w.floor, th.CrossServer) {
				continue // a candidate for the evidence only
			}
		}
		if isConf {
			v.confusableCount++
			if s.limit == 0 || len(v.conf) < s.limit {
				v.conf = append(v.conf, p)
			}
		} else {
			v.watchCount++
			if s.limit == 0 || len(v.watch) < s.limit {
				v.watch = append(v.watch, p)
			}
		}
	}
	return v
}

// pairs turns kept pairs into report pairs.
func (s *Scores) pairs(ps []scored) []Pair {
	out := make([]Pair, len(ps))
	var aff, risk []float64
	if s.scoring != ScoringCosine {
		aff = make([]float64, len(ps))
	}
	if s.scoring == ScoringRisk {
		risk = make([]float64, len(ps))
	}
	for k, p := range ps {
		a, b := s.tools[p.i], s.tools[p.j]
		out[k] = Pair{A: a.Name, B: b.Name, I: a.Index, J: b.Index, Similarity: p.s}
		if aff != nil {
			aff[k] = p.a
			out[k].Affinity = &aff[k]
		}
		if risk != nil {
			risk[k] = p.s
			out[k].Risk = &risk[k]
		}
	}
	return out
}

// findings makes the verdicts of kind, with their hints, from kept pairs,
// in their order, on every core.
func (s *Scores) findings(kind Verdict, ps []scored, th Thresholds) []PairFinding {
	if len(ps) == 0 {
		return nil
	}
	if s.words == nil {
		s.words = make([]words, len(s.tools))
		parallel(len(s.tools), 64, func(lo, hi int) {
			for k, t := range s.tools[lo:hi] {
				s.words[lo+k] = wordsOf(t.OwnName(), t.Description)
			}
		})
		s.purposes = make([]purposeMemo, len(s.tools))
		s.termSets = make([]termSetMemo, len(s.tools))
	}
	out := make([]PairFinding, len(ps))
	parallel(len(ps), 16, func(lo, hi int) {
		for k, p := range ps[lo:hi] {
			if s.detail > 0 && lo+k >= s.detail {
				out[lo+k] = s.bareFinding(kind, p, th)
			} else {
				out[lo+k] = s.finding(kind, p, th)
			}
		}
	})
	return out
}

// bareFinding is finding without the reasons, fixes and hint: a pair past
// Options.DetailLimit.
func (s *Scores) bareFinding(kind Verdict, p scored, th Thresholds) PairFinding {
	f := PairFinding{Kind: kind, Pair: s.pairs([]scored{p})[0], Axis: axisOf(s.words[p.i], s.words[p.j])}
	if th.CrossServer > 0 && !th.ReportOnly() && s.geo.crossing(p.i, p.j) {
		f.Band = BandCrossServer
	}
	return f
}

// parallel runs fn over [0, n) on every core, in chunks of size handed
// out in turn; fn runs on the calling goroutine too.
func parallel(n, size int, fn func(lo, hi int)) { par.Chunks(n, size, fn) }

// finding makes a verdict, with its hint, from a kept pair (s.words set).
func (s *Scores) finding(kind Verdict, p scored, th Thresholds) PairFinding {
	f := s.bareFinding(kind, p, th)
	pair := f.Pair
	if s.scoring != ScoringRisk {
		// The risk scoring writes a hint of its own below.
		f.Hint = hintText(f.Axis, pair.A, pair.B)
	}
	if s.scoring == ScoringRisk {
		x := s.features(int(p.i), int(p.j))
		r := s.geo.risk
		pa, pb := r.parts[p.i], r.parts[p.j]
		f.Reasons = s.model.reasons(x, reasonContext{a: pa, b: pb, nameA: pair.A, nameB: pair.B, shared: r.sharedTerms(int(p.i), int(p.j), MaxHintTerms)})
		if f.Band == BandCrossServer && s.twin != nil {
			if r, ok := s.twin.reason(p); ok {
				f.Reasons = withTwinReason(f.Reasons, r)
			}
		}
		c := chooseAxisOf(pa, pb, s.words[p.i].terms, s.words[p.j].terms, s.termSet(int(p.i)), s.termSet(int(p.j)))
		f.Fixes = fixesFor(fixSide{s.tools[p.i], pa, r.guides[p.i][int(p.j)], s.purposeOf(int(p.i), pa)},
			fixSide{s.tools[p.j], pb, r.guides[p.j][int(p.i)], s.purposeOf(int(p.j), pb)})
		f.Hint = riskHint(s.tools[p.i], s.tools[p.j], c, f.Fixes)
		if f.Band == BandCrossServer && kind == Confusable {
			f.Hint = twinHint(s.tools[p.i], s.tools[p.j], f.Hint)
		}
	}
	return f
}

// features computes the risk features of distinct tools i and j.
func (s *Scores) features(i, j int) Features {
	g := s.geo
	var c float64
	if ni, nj := g.norms[i], g.norms[j]; ni != 0 && nj != 0 {
		c = g.dot(i, j) / (ni * nj)
	}
	a := c
	if g.weight != 0 {
		a += g.weight * g.jaccardOf(i, j)
	}
	return g.risk.features(i, j, 2*a-g.usual[i]-g.usual[j], nil)
}

// Features gives the risk features of the tools at catalog indexes a and
// b (risk scoring only; ok is false otherwise, or for a tool left out).
func (s *Scores) Features(a, b int) (Features, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.geo == nil || s.geo.risk == nil {
		return Features{}, false
	}
	i, j := -1, -1
	for k, t := range s.tools {
		switch t.Index {
		case a:
			i = k
		case b:
			j = k
		}
	}
	if i < 0 || j < 0 || i == j {
		return Features{}, false
	}
	return s.features(i, j), true
}

// Model is the risk model the pairs were scored with.
func (s *Scores) Model() *RiskModel { return s.model }

// serversOf numbers each tool's server (Tool.Server) when the tools come
// from two servers or more; nil otherwise.
func serversOf(tools []*catalog.Tool) []int32 {
	ids := map[string]int32{}
	out := make([]int32, len(tools))
	for k, t := range tools {
		id, ok := ids[t.Server]
		if !ok {
			id = int32(len(ids))
			ids[t.Server] = id
		}
		out[k] = id
	}
	if len(ids) < 2 {
		return nil
	}
	return out
}

// purposeMemo holds a tool's purposeOf once read.
type purposeMemo struct {
	once sync.Once
	what string
}

// purposeOf is purposeOf for tool i read as q: from the memo when q is
// the tool's own parts (asHint left them), else read.
func (s *Scores) purposeOf(i int, own nameParts) purposeFunc {
	return func(t *catalog.Tool, q nameParts) string {
		if q.verb != own.verb {
			return purposeOf(t, q)
		}
		m := &s.purposes[i]
		m.once.Do(func() { m.what = purposeOf(t, own) })
		return m.what
	}
}

// termSetMemo holds a tool's singularSet of its terms once made.
type termSetMemo struct {
	once sync.Once
	set  map[string]struct{}
}

// termSet is singularSet(s.words[i].terms), made once (s.words set).
func (s *Scores) termSet(i int) map[string]struct{} {
	m := &s.termSets[i]
	m.once.Do(func() { m.set = singularSet(s.words[i].terms) })
	return m.set
}
