package similarity

import (
	"cmp"
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/internal/testcat"
	"toolscope/embed"
)

// bruteForce scores every pair the plain way, as the SPEC states it, for
// the kernel to be checked against.
func bruteForce(t *testing.T, cat *catalog.Catalog, scoring Scoring, ad Adaptive) []scored {
	t.Helper()
	textOf := CosineText
	if scoring == ScoringAdaptive {
		textOf = AdaptiveText
	}
	n := len(cat.Tools)
	vec := make([][]float32, n)
	for i, tl := range cat.Tools {
		v, _ := embed.Mock{}.Embed(context.Background(), []string{textOf(tl)})
		vec[i] = v[0]
	}
	cos := func(a, b []float32) float64 {
		var dot, ma, mb float64
		for k := range a {
			x, y := float64(a[k]), float64(b[k])
			dot += x * y
			ma += x * x
			mb += y * y
		}
		if ma == 0 || mb == 0 {
			return 0
		}
		return dot / (math.Sqrt(ma) * math.Sqrt(mb))
	}
	aff := func(i, j int) float64 {
		c := cos(vec[i], vec[j])
		if scoring == ScoringCosine {
			return c
		}
		x, y := map[string]bool{}, map[string]bool{}
		for _, w := range NameTokens(cat.Tools[i].Name) {
			x[w] = true
		}
		for _, w := range NameTokens(cat.Tools[j].Name) {
			y[w] = true
		}
		inter := 0
		for w := range x {
			if y[w] {
				inter++
			}
		}
		jac := 0.0
		if union := len(x) + len(y) - inter; union > 0 {
			jac = float64(inter) / float64(union)
		}
		return c + ad.JaccardWeight*jac
	}
	usual := make([]float64, n)
	if scoring == ScoringAdaptive {
		k := min(ad.K, n-1)
		for i := range n {
			var row []float64
			for j := range n {
				if j != i {
					row = append(row, aff(min(i, j), max(i, j)))
				}
			}
			slices.SortFunc(row, func(a, b float64) int { return cmp.Compare(b, a) })
			var sum float64
			for _, a := range row[:k] {
				sum += a
			}
			usual[i] = sum / float64(k)
		}
	}
	var all []scored
	for i := range n {
		for j := i + 1; j < n; j++ {
			a := aff(i, j)
			s := a
			if scoring == ScoringAdaptive {
				s = 2*a - usual[i] - usual[j]
			}
			all = append(all, scored{i: int32(i), j: int32(j), s: s, a: a})
		}
	}
	slices.SortStableFunc(all, func(p, q scored) int { return cmp.Compare(q.s, p.s) })
	return all
}

// judged scores cat and judges the pairs at the scoring's own thresholds, as
// a lint run does.
func judged(ctx context.Context, cat *catalog.Catalog, opts Options) (Result, error) {
	s, err := Score(ctx, cat, opts)
	if err != nil {
		return Result{}, err
	}
	return s.Judge(s.Thresholds()), nil
}

func mockOptions(scoring Scoring) Options {
	o := DefaultOptions()
	o.Embedder = embed.Mock{}
	o.Scoring = scoring
	return o
}

func TestKernelMatchesBruteForce(t *testing.T) {
	cat := testcat.Sample(t, 150)
	for _, scoring := range []Scoring{ScoringCosine, ScoringAdaptive} {
		t.Run(string(scoring), func(t *testing.T) {
			all := bruteForce(t, cat, scoring, DefaultAdaptive())
			opts := mockOptions(scoring)
			opts.RankLimit = 0
			opts.Neighbours = 4
			s, err := Score(context.Background(), cat, opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.ranked) != len(all) {
				t.Fatalf("ranked %d pairs, want all %d", len(s.ranked), len(all))
			}
			for k, p := range all {
				g := s.ranked[k]
				if g.i != p.i || g.j != p.j || math.Float64bits(g.s) != math.Float64bits(p.s) || math.Float64bits(g.a) != math.Float64bits(p.a) {
					t.Fatalf("ranked[%d] = %+v, want %+v", k, g, p)
				}
			}
			// Each tool's neighbours: its best pairs, ties to the lower
			// other index.
			for tl := range cat.Tools {
				var want []scored
				for _, p := range all {
					if int(p.i) == tl || int(p.j) == tl {
						want = append(want, p)
					}
				}
				slices.SortStableFunc(want, func(x, y scored) int {
					if c := cmp.Compare(y.s, x.s); c != 0 {
						return c
					}
					return cmp.Compare(other(x, int32(tl)), other(y, int32(tl)))
				})
				want = want[:4]
				if got := s.neighbors[tl]; !slices.Equal(got, want) {
					t.Fatalf("neighbours of %d = %+v, want %+v", tl, got, want)
				}
			}
			// RankLimit keeps the head of the same ranking.
			opts.RankLimit = 37
			s2, err := Score(context.Background(), cat, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s2.ranked, s.ranked[:37]) {
				t.Errorf("RankLimit 37 kept a different head of the ranking")
			}
		})
	}
}

func TestRankingTiesKeepCatalogOrder(t *testing.T) {
	// Anagram names embed to the same mock vector: every pair among them
	// ties, and ties rank in (i, j) order.
	cat := testcat.Parse(t, testcat.List(testcat.Tool("abc", "-", ""), testcat.Tool("zzzz", "-", ""), testcat.Tool("cab", "-", ""), testcat.Tool("bca", "-", ""), testcat.Tool("acb", "-", "")))
	opts := mockOptions(ScoringCosine)
	r, err := judged(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range r.Ranked[:6] {
		got = append(got, p.A+"-"+p.B)
	}
	want := []string{"abc-cab", "abc-bca", "abc-acb", "cab-bca", "cab-acb", "bca-acb"}
	if !slices.Equal(got, want) {
		t.Errorf("tied pairs ranked %v, want %v", got, want)
	}
	if r.PairCount != 10 || len(r.Ranked) != 10 {
		t.Errorf("pairCount %d, ranked %d, want 10 and 10", r.PairCount, len(r.Ranked))
	}
	for _, p := range r.Ranked {
		if p.I >= p.J || cat.Tools[p.I].Name != p.A || cat.Tools[p.J].Name != p.B {
			t.Errorf("pair %+v: A must be the lower catalog index", p)
		}
	}
}

func TestJudgeRederivesVerdicts(t *testing.T) {
	cat := testcat.Sample(t, 120)
	for _, scoring := range []Scoring{ScoringCosine, ScoringAdaptive} {
		opts := mockOptions(scoring)
		s, err := Score(context.Background(), cat, opts)
		if err != nil {
			t.Fatal(err)
		}
		base := s.Thresholds()
		for _, th := range []Thresholds{
			base,
			{Confusability: base.Confusability + 0.01, WatchBand: base.WatchBand / 2, AffinityFloor: base.AffinityFloor},
			{Confusability: base.Confusability - 0.05, WatchBand: 0.03, AffinityFloor: base.AffinityFloor - 0.1},
			{Confusability: math.Inf(1)},
			base,
		} {
			got := s.Judge(th)
			o := opts
			c, w := th.Confusability, th.WatchBand
			o.Threshold, o.WatchBand = &c, &w
			o.Adaptive.AffinityFloor = th.AffinityFloor
			fresh, err := judged(context.Background(), cat, o)
			if err != nil {
				t.Fatal(err)
			}
			want := fresh
			if !samePairs(got.Confusable, want.Confusable) || !samePairs(got.Watch, want.Watch) ||
				got.ConfusableCount != want.ConfusableCount || got.WatchCount != want.WatchCount {
				t.Errorf("%s %+v: Judge gave %d/%d verdicts, a fresh analysis %d/%d", scoring, th,
					len(got.Confusable), len(got.Watch), len(want.Confusable), len(want.Watch))
			}
		}
	}
}

func samePairs(a, b []PairFinding) bool {
	return slices.EqualFunc(a, b, func(x, y PairFinding) bool {
		return x.Kind == y.Kind && x.I == y.I && x.J == y.J && x.Similarity == y.Similarity && x.Hint == y.Hint
	})
}

func TestVerdictLimitKeepsCountsExact(t *testing.T) {
	cat := testcat.Sample(t, 120)
	opts := mockOptions(ScoringCosine)
	full, err := judged(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.VerdictLimit = 5
	cut, err := judged(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	if full.ConfusableCount <= 5 || full.WatchCount <= 5 {
		t.Fatalf("the test needs more than 5 verdicts of each kind, got %d/%d", full.ConfusableCount, full.WatchCount)
	}
	if cut.ConfusableCount != full.ConfusableCount || cut.WatchCount != full.WatchCount {
		t.Errorf("counts with limit %d/%d, without %d/%d", cut.ConfusableCount, cut.WatchCount, full.ConfusableCount, full.WatchCount)
	}
	if !cut.Truncated || full.Truncated {
		t.Errorf("truncated = %v (limited) and %v (full)", cut.Truncated, full.Truncated)
	}
	if !samePairs(cut.Confusable, full.Confusable[:5]) || !samePairs(cut.Watch, full.Watch[:5]) {
		t.Errorf("the limited lists are not the head of the full ones")
	}
}

func TestAdaptiveAffinityFloor(t *testing.T) {
	// Two unrelated tools: whatever their score against each other, the
	// affinity floor keeps a two-tool catalog from flagging them.
	cat := testcat.Parse(t, testcat.List(testcat.Tool("alpha", "Weighs cargo", ""), testcat.Tool("omega", "Paints fences blue", "")))
	r, err := judged(context.Background(), cat, mockOptions(ScoringAdaptive))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Ranked[0]
	if p.Affinity == nil || *p.Affinity >= 0.75 {
		t.Fatalf("affinity = %v, want below the floor", p.Affinity)
	}
	if p.Similarity < -0.04 {
		t.Fatalf("score %v: want at least the threshold for the test to mean something", p.Similarity)
	}
	if r.ConfusableCount != 0 || r.WatchCount != 0 {
		t.Errorf("verdicts %+v under the affinity floor", r)
	}
}

func TestHints(t *testing.T) {
	cases := []struct {
		a, b, da, db string
		want         Axis
	}{
		{"get_fcns_database", "influx_get_fcns_database", "", "", Axis{Kind: AxisQualifier, Qualifiers: []string{"influx"}}},
		{"getVolumeStatus", "hist-volume-status", "", "", Axis{Kind: AxisQualifier, Qualifiers: []string{"get", "hist"}}},
		{"volume_status", "status_volume", "", "", Axis{Kind: AxisQualifier}},
		{"list_a", "list_b", "Lists the pools of a cluster", "Lists the disks in a pool, by size",
			Axis{Kind: AxisTerms, TermsA: []string{"pools", "cluster"}, TermsB: []string{"disks", "pool", "size"}}},
		{"x_one", "y_two", "Show every host.", "Show every host!", Axis{Kind: AxisNearDuplicate}},
		{"x_one", "y_two", "The host", "The host and its disks", Axis{Kind: AxisTerms, TermsB: []string{"disks"}}},
	}
	for _, c := range cases {
		got := axisOf(wordsOf(c.a, c.da), wordsOf(c.b, c.db))
		if got.Kind != c.want.Kind || !slices.Equal(got.Qualifiers, c.want.Qualifiers) || !slices.Equal(got.TermsA, c.want.TermsA) || !slices.Equal(got.TermsB, c.want.TermsB) {
			t.Errorf("%s/%s: axis %+v, want %+v", c.a, c.b, got, c.want)
		}
		text := hintText(got, c.a, c.b)
		if strings.Contains(text, "[]") {
			t.Errorf("%s/%s: hint %q shows an empty term list", c.a, c.b, text)
		}
		for _, w := range append(append(got.Qualifiers, got.TermsA...), got.TermsB...) {
			if !strings.Contains(text, w) {
				t.Errorf("%s/%s: hint %q does not name %q", c.a, c.b, text, w)
			}
		}
	}
}

func TestTexts(t *testing.T) {
	cases := []struct{ name, desc, cosine, adaptive string }{
		{"get_volume-status", "  Live status. Use for now.  ", "get volume status: Live status. Use for now.", "get volume status: Live status."},
		{"getHTTPStatus2xx", "", "get HTTPStatus2xx", "get HTTPStatus2xx"},
		{"a1B2c", "First line\nsecond line", "a1 B2c: First line\nsecond line", "a1 B2c: First line"},
		{"x", "Use e.g. this, i.e. that. Then more.", "x: Use e.g. this, i.e. that. Then more.", "x: Use e.g. this, i.e. that."},
		{"__x__", "v1.2 is out! Really", "x: v1.2 is out! Really", "x: v1.2 is out!"},
	}
	for _, c := range cases {
		tl := &catalog.Tool{Name: c.name, Description: c.desc}
		if got := CosineText(tl); got != c.cosine {
			t.Errorf("CosineText(%q) = %q, want %q", c.name, got, c.cosine)
		}
		if got := AdaptiveText(tl); got != c.adaptive {
			t.Errorf("AdaptiveText(%q) = %q, want %q", c.name, got, c.adaptive)
		}
	}
	if got := NameTokens("getVolume__Status-v2"); !slices.Equal(got, []string{"get", "volume", "status", "v2"}) {
		t.Errorf("NameTokens = %v", got)
	}
}

// countingEmbedder is the mock, counting the texts it is asked for.
type countingEmbedder struct {
	embed.Mock
	texts int
}

func (c *countingEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c.texts += len(texts)
	return c.Mock.Embed(ctx, texts)
}

func TestIdenticalTextsEmbedOnce(t *testing.T) {
	cat := testcat.Parse(t, testcat.List(testcat.Tool("a", "Same words", ""), testcat.Tool("b", "x", ""), testcat.Tool("a", "dup", ""), testcat.Tool("c", "x", ""), testcat.Tool("b", "x", "")))
	e := &countingEmbedder{}
	opts := mockOptions(ScoringCosine)
	opts.Embedder = e
	r, err := judged(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Distinct tools a, b, c; b and c differ by name, so three texts.
	if e.texts != 3 || r.PairCount != 3 {
		t.Errorf("embedded %d texts for %d pairs, want 3 and 3", e.texts, r.PairCount)
	}
}

// fakeEmbedder returns fixed vectors.
type fakeEmbedder struct {
	embed.Mock
	vecs [][]float32
	err  error
}

func (f fakeEmbedder) Embed(context.Context, []string) ([][]float32, error) { return f.vecs, f.err }

func TestEmbedderMisbehaviour(t *testing.T) {
	cat := testcat.Parse(t, testcat.List(testcat.Tool("a", "one", ""), testcat.Tool("b", "two", "")))
	cases := []struct {
		name string
		e    fakeEmbedder
		want string
	}{
		{"failure", fakeEmbedder{err: errors.New("boom")}, "boom"},
		{"too few vectors", fakeEmbedder{vecs: [][]float32{{1}}}, "got 1 vectors for 2 texts"},
		{"different lengths", fakeEmbedder{vecs: [][]float32{{1, 2}, {1}}}, "different lengths"},
		{"not a number", fakeEmbedder{vecs: [][]float32{{float32(math.NaN())}, {1}}}, "NaN"},
	}
	for _, c := range cases {
		opts := mockOptions(ScoringCosine)
		opts.Embedder = c.e
		if _, err := judged(context.Background(), cat, opts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
	opts := mockOptions(ScoringCosine)
	opts.Embedder = fakeEmbedder{vecs: [][]float32{{0, 0}, {1, 1}}}
	r, err := judged(context.Background(), cat, opts)
	if err != nil || r.Ranked[0].Similarity != 0 {
		t.Errorf("a zero vector: %v, %+v; want cosine 0", err, r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := judged(ctx, testcat.Sample(t, 100), mockOptions(ScoringCosine)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestThresholdResolution(t *testing.T) {
	five, one := 0.5, 0.1
	cases := []struct {
		name       string
		scoring    Scoring
		threshold  *float64
		band       *float64
		want       Thresholds
		calibrated bool
	}{
		{"the mock's cosine calibration", ScoringCosine, nil, nil, Thresholds{Confusability: 0.94, WatchBand: 0.02}, true},
		{"no calibration for adaptive: the scoring's defaults", ScoringAdaptive, nil, nil, Thresholds{Confusability: -0.04, WatchBand: 0.05, AffinityFloor: 0.75}, false},
		{"the user's threshold", ScoringCosine, &five, nil, Thresholds{Confusability: 0.5, WatchBand: 0.02}, true},
		{"the user's threshold and band", ScoringAdaptive, &five, &one, Thresholds{Confusability: 0.5, WatchBand: 0.1, AffinityFloor: 0.75}, true},
	}
	for _, c := range cases {
		o := mockOptions(c.scoring)
		o.Threshold, o.WatchBand = c.threshold, c.band
		th, cal := resolveThresholds(embed.Mock{}, c.scoring, o)
		if th != c.want || cal != c.calibrated {
			t.Errorf("%s: %+v calibrated %v, want %+v %v", c.name, th, cal, c.want, c.calibrated)
		}
	}
	o := mockOptions(ScoringCosine)
	o.Embedder = fakeEmbedder{}
	if th, cal := resolveThresholds(uncalibrated{}, ScoringCosine, o); th != (Thresholds{Confusability: 0.85, WatchBand: 0.05}) || cal {
		t.Errorf("uncalibrated cosine: %+v %v, want the 0.85/0.05 defaults", th, cal)
	}
}

type uncalibrated struct{ embed.Mock }

func (uncalibrated) Calibration(string) (embed.Calibration, bool) { return embed.Calibration{}, false }

func TestFullText(t *testing.T) {
	tool := func(desc string) *catalog.Tool { return &catalog.Tool{Name: "get_page", Description: desc} }
	for _, tt := range []struct {
		desc  string
		words int
		want  string
	}{
		{"Gets a page by its id. Use it when the id is known.", 0, "get page: Gets a page by its id. Use it when the id is known."},
		{"Gets a page by its id. Use it when the id is known.", 4, "get page: Gets a page by its id."},
		{"Gets a page by its id. Use it when the id is known.", 8, "get page: Gets a page by its id. Use it"},
		{"Gets a page by its id and a long tail of words", 4, "get page: Gets a page by its id and a long tail of words"},
		{"Gets a page by its id. Use it when the id is known.", 11, "get page: Gets a page by its id. Use it when the id"},
		{"Gets a page by its id.", 6, "get page: Gets a page by its id."},
		{"Gets a page by its id.", 7, "get page: Gets a page by its id."},
		{"Gets\ta b.\n\nNext  page  ", 4, "get page: Gets\ta b.\n\nNext"},
		{"", 3, "get page"},
		{"Un café. S'il vous plaît, merci", 3, "get page: Un café. S'il"},
	} {
		if got := FullText(tool(tt.desc), tt.words); got != tt.want {
			t.Errorf("FullText(%q, %d) = %q, want %q", tt.desc, tt.words, got, tt.want)
		}
	}
	// Without a cut it is the cosine scoring's text.
	for _, d := range []string{"Gets a page.", "", " x "} {
		if FullText(tool(d), 0) != CosineText(tool(d)) {
			t.Errorf("FullText(%q, 0) is not CosineText", d)
		}
	}
}

// The risk scoring embeds the cut full texts, and what-if cuts as the
// scoring did.
func TestFullWordsCutsTheEmbeddedText(t *testing.T) {
	cat := testcat.Parse(t, testcat.List(
		testcat.Tool("get_page", "Gets one page. It returns every property and block in it.", `{}`),
		testcat.Tool("list_pages", "Lists the pages. Newest first, twenty at a time.", `{}`)))
	rec := &recorder{Embedder: embed.Mock{}}
	opts := DefaultOptions()
	opts.Embedder = rec
	opts.FullWords = 4
	s, err := Score(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"get page: Gets one page. It", "list pages: Lists the pages. Newest"} {
		if !slices.Contains(rec.texts, want) {
			t.Errorf("%q not embedded; got %q", want, rec.texts)
		}
	}
	rec.texts = nil
	if _, err := s.WhatIf(context.Background(), rec, 0, "Fetches a page. Then returns it whole."); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rec.texts, "get page: Fetches a page. Then") {
		t.Errorf("what-if embedded %q", rec.texts)
	}
}

// recorder is an embedder that notes every text it is given.
type recorder struct {
	embed.Embedder
	texts []string
}

func (r *recorder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	r.texts = append(r.texts, texts...)
	return r.Embedder.Embed(ctx, texts)
}

// scaled is the mock with every component scaled off the integers, under
// the ID it is given: float32 sums of its products round.
type scaled struct{ id string }

func (e scaled) ID() string      { return e.id }
func (e scaled) Dimensions() int { return embed.MockDimensions }
func (e scaled) Calibration(string) (embed.Calibration, bool) {
	return embed.Calibration{}, false
}
func (e scaled) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	vs, err := embed.Mock{}.Embed(ctx, texts)
	for _, v := range vs {
		for k := range v {
			v[k] = v[k]*float32(1+float64(k)/7.3) + 0.1
		}
	}
	return vs, err
}

// The cosine with the mock (the parity path) sums in float64 and gives
// the exact cosines' bits; with any other embedder the kernel's float32
// blocks stay within float32 rounding of them.
func TestFloat32PathsAgainstExactCosines(t *testing.T) {
	cat := testcat.Sample(t, 90)
	n := len(cat.Tools)
	vs, err := scaled{}.Embed(context.Background(), func() []string {
		texts := make([]string, n)
		for i, tl := range cat.Tools {
			texts[i] = CosineText(tl)
		}
		return texts
	}())
	if err != nil {
		t.Fatal(err)
	}
	exact := func(i, j int) float64 {
		var dot, ma, mb float64
		for k := range vs[i] {
			x, y := float64(vs[i][k]), float64(vs[j][k])
			dot += x * y
			ma += x * x
			mb += y * y
		}
		return dot / (math.Sqrt(ma) * math.Sqrt(mb))
	}
	for _, tt := range []struct {
		id   string
		tol  float64
		bits bool
	}{{"mock", 0, true}, {"other", 1e-6, false}} {
		opts := DefaultOptions()
		opts.Embedder = scaled{tt.id}
		opts.Scoring = ScoringCosine
		opts.RankLimit = 0
		s, err := Score(context.Background(), cat, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.ranked) != n*(n-1)/2 {
			t.Fatalf("%s: %d pairs ranked", tt.id, len(s.ranked))
		}
		exactBits := 0
		for _, p := range s.ranked {
			want := exact(int(p.i), int(p.j))
			if math.Abs(p.s-want) > tt.tol {
				t.Fatalf("%s: pair (%d, %d) scores %v, exact %v", tt.id, p.i, p.j, p.s, want)
			}
			if p.s == want {
				exactBits++
			}
		}
		if tt.bits && exactBits != len(s.ranked) {
			t.Errorf("%s: %d of %d cosines exact", tt.id, exactBits, len(s.ranked))
		}
		if !tt.bits && exactBits == len(s.ranked) {
			t.Errorf("%s: every cosine exact: the float32 path is not in use", tt.id)
		}
	}
}

// parallel hands out every index once, whatever the cores, the length and
// the chunk size.
func TestParallelCoversEachIndexOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 5} {
		saved := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 15, 16, 17, 1000} {
			for _, size := range []int{1, 16, 64} {
				seen := make([]atomic.Int32, n)
				parallel(n, size, func(lo, hi int) {
					for i := lo; i < hi; i++ {
						seen[i].Add(1)
					}
				})
				for i := range seen {
					if c := seen[i].Load(); c != 1 {
						t.Fatalf("GOMAXPROCS %d, n %d, size %d: index %d run %d times", procs, n, size, i, c)
					}
				}
			}
		}
		runtime.GOMAXPROCS(saved)
	}
}
