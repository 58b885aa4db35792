package similarity

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/internal/testcat"
	"toolscope/embed"
)

func TestNameRelations(t *testing.T) {
	cases := []struct {
		a, b string
		want nameRelation
	}{
		{"create_annotation", "delete_annotation", nameRelation{opposite: true}},
		{"install_package", "uninstall_package", nameRelation{opposite: true}},
		{"start_server", "stop_server", nameRelation{opposite: true}},
		{"read_sheet", "write_sheet", nameRelation{opposite: true}},
		{"click", "hover", nameRelation{otherVerb: true}},
		{"get_page", "fetch_page", nameRelation{sameAction: true}},
		// A longer name that only adds a thing of the object names another
		// resource; one that narrows the same thing is nested.
		{"get_page", "get_page_property", nameRelation{sameAction: true}},
		{"get_application", "get_application_events", nameRelation{sameAction: true}},
		{"delete-ai-config", "delete-ai-config-variation", nameRelation{sameAction: true}},
		{"list_issues", "list_open_issues", nameRelation{sameAction: true, nested: true}},
		// un-X, stop_X and X_back are other actions than X.
		{"uninstall", "upgrade_helm_chart", nameRelation{opposite: true}},
		{"port_forward", "stop_port_forward", nameRelation{opposite: true}},
		{"navigate", "navigate_back", nameRelation{opposite: true}},
		// A first word that is not a known action of both is still an
		// action when the rest of the names is the same.
		{"get_cost", "confirm_cost", nameRelation{otherVerb: true}},
		{"list_automations", "manage_automations", nameRelation{otherVerb: true}},
		{"get_volume_status", "hist_volume_status", nameRelation{nested: true}},
		{"search", "search_events", nameRelation{sameAction: true, nested: true}},
		{"list_projects", "list_branches", nameRelation{sameAction: true}},
		{"list_pages", "get_page", nameRelation{otherVerb: true}},
		{"weather", "forecast", nameRelation{}},
	}
	for _, c := range cases {
		a, b := parseName(NameTokens(c.a)), parseName(NameTokens(c.b))
		got := relate(&a, &b)
		if got != c.want {
			t.Errorf("%s / %s: %+v, want %+v", c.a, c.b, got, c.want)
		}
		if back := relate(&b, &a); back != got {
			t.Errorf("%s / %s: not symmetric: %+v and %+v", c.a, c.b, got, back)
		}
	}
}

func TestParseNamesDropsTheCatalogPrefix(t *testing.T) {
	var tools []*catalog.Tool
	for _, n := range []string{"acme_create_page", "acme_delete_page", "acme_search", "acme_get_page"} {
		tools = append(tools, &catalog.Tool{Name: n})
	}
	parts := parseNames(tools)
	if parts[0].verb != "create" || !slices.Equal(parts[0].object, []string{"page"}) || parts[2].verb != "search" || len(parts[2].object) != 0 {
		t.Errorf("parts %+v", parts)
	}
}

func TestGuidedMentions(t *testing.T) {
	tools := []*catalog.Tool{
		{Name: "search_logs", Description: "Searches logs. Use get_log_entry instead when you have the entry id."},
		{Name: "get_log_entry", Description: "Gets one log entry. Related: search_logs."},
		{Name: "click", Description: "Clicks an element."},
		{Name: "hover", Description: "Hovers over an element. Prefer `click` when the element must be activated. Do not click twice."},
		{Name: "fill", Description: "Fills an input; fill_form when several."},
	}
	g := guidedMentions(tools)
	want := map[[2]int]bool{{0, 1}: true, {3, 2}: true}
	for i := range tools {
		for j := range tools {
			if g[i][j] != want[[2]int{i, j}] {
				t.Errorf("%s names %s with guidance: %v, want %v", tools[i].Name, tools[j].Name, g[i][j], want[[2]int{i, j}])
			}
		}
	}
}

func TestMentions(t *testing.T) {
	cases := []struct {
		text, name string
		want       bool
	}{
		{"use search_logs instead", "search_logs", true},
		{"use search_logs.", "search_logs", true},
		{"use search_logs_v2 instead", "search_logs", false},
		{"use my_search_logs instead", "search_logs", false},
		{"click the button", "click", false},
		{"prefer `click` when", "click", true},
		{"prefer 'click' when", "click", true},
		{"", "x_y", false},
	}
	for _, c := range cases {
		if got := mentions(c.text, c.name); got != c.want {
			t.Errorf("mentions(%q, %q) = %v", c.text, c.name, got)
		}
	}
}

func TestRiskModel(t *testing.T) {
	m := DefaultRiskModel()
	var lo, hi Features
	lo[FeatAdaptive], hi[FeatAdaptive] = -1, 0.3
	lo[FeatFull], hi[FeatFull] = 0.2, 0.95
	hi[FeatBag] = 0.8
	if r := m.Risk(lo); r < 0 || r > m.Watch {
		t.Errorf("far pair: risk %v", r)
	}
	if r := m.Risk(hi); r < m.Threshold || r > 1 {
		t.Errorf("near pair: risk %v", r)
	}
	guided := hi
	guided[FeatGuided] = 1
	if m.Risk(guided) >= m.Threshold {
		t.Errorf("a pair whose descriptions name each other with guidance stays at risk %v", m.Risk(guided))
	}
	opp := hi
	opp[FeatOpposite] = 1
	if m.Risk(opp) >= m.Risk(hi) {
		t.Error("opposite actions do not lower the risk")
	}
	rs := m.reasons(hi, reasonContext{})
	if len(rs) == 0 || len(rs) > MaxReasons || rs[0].Effect <= 0 {
		t.Fatalf("reasons %+v", rs)
	}
	for k := 1; k < len(rs); k++ {
		if math.Abs(rs[k].Effect) > math.Abs(rs[k-1].Effect) {
			t.Errorf("reasons not by effect: %+v", rs)
		}
	}
}

// The risk scoring under the mock: risks in [0, 1], ranked by risk, the
// verdicts carry reasons and fixes, and applying a pair's fixes lowers
// its risk.
func TestRiskScoring(t *testing.T) {
	src := testcat.List(
		testcat.Tool("create_page", "Creates a page in the workspace.", `{"type":"object","properties":{"title":{"type":"string"}}}`),
		testcat.Tool("delete_page", "Deletes a page from the workspace.", ""),
		testcat.Tool("search_pages", "Searches pages in the workspace by title.", ""),
		testcat.Tool("find_pages", "Finds pages in the workspace by title.", ""),
		testcat.Tool("get_weather", "Returns the weather for a city.", ""),
	)
	opts := mockOptions(ScoringRisk)
	plain, err := Score(context.Background(), testcat.Parse(t, src), opts)
	if err != nil {
		t.Fatal(err)
	}
	if sim := plain.Judge(plain.Thresholds()); sim.Calibrated || !strings.Contains(strings.Join(sim.Notes, " "), "not calibrated") {
		t.Errorf("no note that the mock's risks are not calibrated: %q", sim.Notes)
	}
	th := 0.05
	opts.Threshold = &th
	r, err := judged(context.Background(), testcat.Parse(t, src), opts)
	if err != nil {
		t.Fatal(err)
	}
	sim := r
	if sim.Scoring != ScoringRisk || len(sim.Ranked) != 10 {
		t.Fatalf("scoring %s, %d ranked", sim.Scoring, len(sim.Ranked))
	}
	for k, p := range sim.Ranked {
		if p.Similarity < 0 || p.Similarity > 1 || p.Risk == nil || *p.Risk != p.Similarity {
			t.Errorf("pair %s/%s: risk %v", p.A, p.B, p.Similarity)
		}
		if k > 0 && p.Similarity > sim.Ranked[k-1].Similarity {
			t.Error("ranking not by risk")
		}
	}
	var top *PairFinding
	for k := range sim.Confusable {
		p := &sim.Confusable[k]
		if len(p.Fixes) != 2 || !strings.Contains(p.Hint, p.Fixes[0].Sentence) {
			t.Errorf("%s/%s: fixes %+v, hint %q", p.A, p.B, p.Fixes, p.Hint)
		}
		if top == nil && p.A == "search_pages" && p.B == "find_pages" {
			top = p
		}
	}
	if top == nil {
		t.Fatalf("search_pages/find_pages not confusable: %+v", sim.Confusable)
	}
	if len(top.Reasons) == 0 {
		t.Error("no reasons")
	}
	data, _ := json.Marshal(top)
	if !strings.Contains(string(data), `"reasons":[{"feature":`) || !strings.Contains(string(data), `"fixes":[{"tool":"search_pages"`) {
		t.Errorf("JSON %s", data)
	}
	cat := testcat.Parse(t, src)
	for _, f := range top.Fixes {
		if !f.Apply(cat.Tools) {
			t.Fatalf("fix for %s found no tool", f.Tool)
		}
	}
	r2, err := judged(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r2.Ranked {
		if p.A == top.A && p.B == top.B && p.Similarity >= top.Similarity {
			t.Errorf("the fixes left the risk at %v (was %v)", p.Similarity, top.Similarity)
		}
	}
}

// A what-if with the description unchanged gives the scored risks; one
// with the fix appended lowers the pair's risk.
func TestWhatIf(t *testing.T) {
	cat := testcat.Sample(t, 40)
	opts := mockOptions(ScoringRisk)
	opts.RankLimit = 0
	scores, err := Score(context.Background(), cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	sim := scores.Judge(scores.Thresholds())
	want := map[[2]int]float64{}
	for _, p := range sim.Ranked {
		want[[2]int{p.I, p.J}], want[[2]int{p.J, p.I}] = p.Similarity, p.Similarity
	}
	top := sim.Ranked[0]
	for _, idx := range []int{top.I, top.J, 7} {
		got, err := scores.WhatIf(context.Background(), opts.Embedder, idx, cat.Tools[idx].Description)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(cat.Tools)-1 {
			t.Fatalf("%d pairs for %d tools", len(got), len(cat.Tools))
		}
		for k, p := range got {
			if p.I != idx || math.Abs(p.Similarity-want[[2]int{p.I, p.J}]) > 1e-9 {
				t.Errorf("what-if %s/%s: %v, scored %v", p.A, p.B, p.Similarity, want[[2]int{p.I, p.J}])
			}
			if k > 0 && p.Similarity > got[k-1].Similarity {
				t.Error("what-if pairs not riskiest first")
			}
		}
	}
	// A description rewritten to be about something else takes the pair
	// apart.
	got, err := scores.WhatIf(context.Background(), opts.Embedder, top.I, "Converts a temperature between Celsius and Fahrenheit.")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range got {
		if p.J == top.J && p.Similarity >= top.Similarity {
			t.Errorf("an unrelated description left the risk at %v (was %v)", p.Similarity, top.Similarity)
		}
	}
	adaptive, _ := Score(context.Background(), cat, mockOptions(ScoringAdaptive))
	if _, err := adaptive.WhatIf(context.Background(), opts.Embedder, 0, "x"); err == nil {
		t.Error("a what-if under the adaptive scoring did not fail")
	}
	if _, err := scores.WhatIf(context.Background(), opts.Embedder, 999, "x"); err == nil {
		t.Error("a what-if on no tool did not fail")
	}
}

// guidedMentionsByScan is the plain definition guidedMentions must keep:
// every other tool's name tried against every cue sentence.
func guidedMentionsByScan(tools []*catalog.Tool) []map[int]bool {
	out := make([]map[int]bool, len(tools))
	for i, t := range tools {
		for _, sentence := range sentences(t.Description) {
			lower := strings.ToLower(sentence)
			if !hasGuideCue(lower) {
				continue
			}
			for j, u := range tools {
				if j != i && mentions(lower, strings.ToLower(u.OwnName())) {
					if out[i] == nil {
						out[i] = map[int]bool{}
					}
					out[i][j] = true
				}
			}
		}
	}
	return out
}

func sameMentions(t *testing.T, tools []*catalog.Tool) {
	t.Helper()
	got, want := guidedMentions(tools), guidedMentionsByScan(tools)
	for i := range tools {
		for j := range tools {
			if got[i][j] != want[i][j] {
				t.Fatalf("%q names %q with guidance: %v, by scanning %v (description %q)", tools[i].Name, tools[j].Name, got[i][j], want[i][j], tools[i].Description)
			}
		}
	}
}

func TestGuidedMentionsMatchesTheScan(t *testing.T) {
	names := []string{"search_logs", "search", "get_log_entry", "a.b", "a.b.", "x-y", "click", "Get Weather", "naïve_tool", "", "UPPER_case"}
	texts := []string{
		"Use search_logs instead.", "use search_logs. Then", "prefer `search` when", "prefer 'search' when", "prefer \"search\" when", "prefer `search'",
		"when a.b.", "when a.b. next", "when a.b..", "when (x-y) fits", "use get weather instead", "use naïve_tool when", "only after upper_case.",
		"use search_logs_v2 instead", "use my_search_logs when", "when `click`.", "when click.",
	}
	var tools []*catalog.Tool
	for k, n := range names {
		tools = append(tools, &catalog.Tool{Name: n, Description: texts[k%len(texts)] + " " + texts[(k*7+3)%len(texts)]})
	}
	for _, text := range texts {
		tools = append(tools, &catalog.Tool{Name: "other", Description: text})
	}
	sameMentions(t, tools)
}

func FuzzGuidedMentions(f *testing.F) {
	f.Add("search_logs", "get_log_entry", "Use get_log_entry instead when you have the id.", "Related: `search_logs`.")
	f.Add("a.b", "c", "when a.b.", "prefer 'c' when")
	f.Fuzz(func(t *testing.T, n1, n2, d1, d2 string) {
		sameMentions(t, []*catalog.Tool{{Name: n1, Description: d1}, {Name: n2, Description: d2}, {Name: "x_" + n2, Description: d2 + " " + d1}})
	})
}

// The kernel stops scoring a pair once it cannot enter any list; what it
// keeps must be what scoring every pair to the end keeps: the ranking,
// each tool's neighbours and the verdicts, bit for bit.
func TestRiskKernelKeepsWhatFullScoringKeeps(t *testing.T) {
	cat := testcat.Synth(t, 400)
	for _, c := range []struct {
		name      string
		rank      int
		threshold float64
	}{
		{"ranking of 25, default bands", 25, -1},
		{"ranking of 1", 1, -1},
		{"low threshold", 60, 0.08},
		{"report-only", 40, math.Inf(1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.Embedder = embed.Mock{}
			opts.RankLimit, opts.Neighbours = c.rank, 4
			if c.threshold >= 0 {
				th, band := c.threshold, c.threshold/2
				opts.Threshold, opts.WatchBand = &th, &band
			}
			scores, err := Score(context.Background(), cat, opts)
			if err != nil {
				t.Fatal(err)
			}
			sim := scores.Judge(scores.Thresholds())
			n := len(cat.Tools)
			var all []Pair
			nb := make([][]Pair, n)
			for i := range n {
				for j := i + 1; j < n; j++ {
					x, ok := scores.Features(i, j)
					if !ok {
						t.Fatalf("no features for %d, %d", i, j)
					}
					p := Pair{A: cat.Tools[i].Name, B: cat.Tools[j].Name, I: i, J: j, Similarity: scores.Model().Risk(x)}
					all = append(all, p)
					nb[i], nb[j] = append(nb[i], p), append(nb[j], p)
				}
			}
			order := func(p, q Pair) int {
				switch {
				case p.Similarity > q.Similarity:
					return -1
				case p.Similarity < q.Similarity:
					return 1
				case p.I != q.I:
					return p.I - q.I
				}
				return p.J - q.J
			}
			slices.SortFunc(all, order)
			same := func(what string, got, want []Pair) {
				t.Helper()
				if len(got) != len(want) {
					t.Fatalf("%s: %d pairs, scoring every pair keeps %d", what, len(got), len(want))
				}
				for k := range want {
					if got[k].I != want[k].I || got[k].J != want[k].J || got[k].Similarity != want[k].Similarity {
						t.Fatalf("%s[%d]: %s/%s %v, scoring every pair gives %s/%s %v", what, k, got[k].A, got[k].B, got[k].Similarity, want[k].A, want[k].B, want[k].Similarity)
					}
				}
			}
			same("ranked", sim.Ranked, all[:min(c.rank, len(all))])
			th := scores.Thresholds()
			conf, watch := 0, 0
			for _, p := range all {
				switch {
				case th.ReportOnly():
				case p.Similarity >= th.Confusability:
					conf++
				case p.Similarity >= th.Confusability-th.WatchBand:
					watch++
				}
			}
			if sim.ConfusableCount != conf || sim.WatchCount != watch {
				t.Errorf("%d confusable and %d watch, scoring every pair finds %d and %d", sim.ConfusableCount, sim.WatchCount, conf, watch)
			}
			if !th.ReportOnly() && conf+watch == 0 {
				t.Fatal("no verdict at all: the case tests nothing of the floor")
			}
			for i := range n {
				row := nb[i]
				// A tool's neighbours go by risk, then the other tool's index.
				slices.SortFunc(row, func(p, q Pair) int {
					if p.Similarity != q.Similarity {
						return order(p, q)
					}
					return otherOf(p, i) - otherOf(q, i)
				})
				same(fmt.Sprintf("neighbours of %s", cat.Tools[i].Name), sim.Neighbours[i], row[:min(4, len(row))])
			}
		})
	}
}

func otherOf(p Pair, i int) int {
	if p.I == i {
		return p.J
	}
	return p.I
}

func TestBagWords(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"getVolumeStatus", []string{"get", "volume", "status"}},
		{"List the pods_in a namespace.", []string{"list", "pod", "namespace"}},
		{"policies addresses status bus glass", []string{"policy", "addresse", "status", "bus", "glass"}},
		{"x 2fa v2 HTTPServer", []string{"v2", "httpserver"}},
	}
	for _, c := range cases {
		if got := bagWords(c.text, nil); !slices.Equal(got, c.want) {
			t.Errorf("bagWords(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// A tool's bag holds its parameters' names, descriptions and enum values,
// and leaves out the name words half the catalog's names or more share.
func TestBagsReadParametersAndDropTheCatalogsWords(t *testing.T) {
	cat := testcat.Parse(t, testcat.List(
		testcat.Tool("k8s_pods_log", "Logs.", `{"type":"object","properties":{"tailLines":{"description":"how many lines"},"stream":{"enum":["stdout","stderr"]}}}`),
		testcat.Tool("k8s_pods_get", "A pod.", ""),
		testcat.Tool("k8s_nodes_top", "Node usage.", ""),
		testcat.Tool("k8s_events", "Events.", ""),
	))
	rows, end := bags(cat.Tools, 7)
	// k8s is in every name and pods in half: the catalog's, not the tool's.
	want := bagOf(cat.Tools[0], map[string]bool{"k8s": true, "pod": true})
	slices.Sort(want)
	want = slices.Compact(want)
	if len(rows[0]) != len(want) || !slices.Equal(want, []string{"how", "line", "log", "many", "stderr", "stdout", "stream", "tail"}) {
		t.Errorf("row 0 has %d words, want %q", len(rows[0]), want)
	}
	for _, r := range rows {
		var sq float64
		for _, w := range r {
			if w.id < 7 || int(w.id) >= end {
				t.Errorf("id %d outside [7, %d)", w.id, end)
			}
			sq += w.w * w.w
		}
		if math.Abs(sq-1) > 1e-9 {
			t.Errorf("a bag of length %v, want unit", math.Sqrt(sq))
		}
	}
}

// Each tool's word neighbours are the others by bag cosine, best first,
// at most k, ties by index; a tool sharing no word has none. The order is
// the cosine the risk feature reads (the pair's FeatBag).
func TestWordNeighbours(t *testing.T) {
	cat := testcat.Parse(t, testcat.List(
		testcat.Tool("refund_invoice", "Refund a paid invoice to the customer.", ""),
		testcat.Tool("void_invoice", "Void an unpaid invoice.", ""),
		testcat.Tool("credit_invoice", "Credit a paid invoice.", ""),
		testcat.Tool("ping", "Health check.", ""),
		testcat.Tool("send_invoice", "Email an invoice.", ""),
	))
	got := WordNeighbours(cat.Tools, 3)
	rows, _ := bags(cat.Tools, 0)
	cos := func(i, j int) float64 {
		var s float64
		for _, a := range rows[i] {
			for _, b := range rows[j] {
				if a.id == b.id {
					s += a.w * b.w
				}
			}
		}
		return s
	}
	if len(got[3]) != 0 {
		t.Errorf("ping shares no word, has neighbours %v", got[3])
	}
	for i, list := range got {
		if i != 3 && len(list) != 3 {
			t.Errorf("tool %d: %d neighbours, want k=3", i, len(list))
		}
		for r := 1; r < len(list); r++ {
			a, b := cos(i, list[r-1]), cos(i, list[r])
			if a < b || a == b && list[r-1] > list[r] {
				t.Errorf("tool %d: %v out of order (%.3f, %.3f)", i, list, a, b)
			}
		}
	}
	// "paid" is rarer than "invoice": refund's nearest is credit.
	if got[0][0] != 2 {
		t.Errorf("refund_invoice's nearest is %d, want credit_invoice (2)", got[0][0])
	}
}
