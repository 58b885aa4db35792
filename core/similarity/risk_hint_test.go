package similarity

import (
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/internal/testcat"
)

// A flagged pair's hint names the axis that tells the tools apart and
// proposes, for each description, a sentence naming the other tool with the
// condition on that axis.
func TestRiskHintNamesTheAxis(t *testing.T) {
	cases := []struct {
		name         string
		a, b         *catalog.Tool
		hint         string // the hint starts so
		fixA, fixB   string // each fix ends so ("" : none proposed)
		aNamesB      bool
		wantFixCount int
	}{
		{"time, from a name word and the descriptions",
			&catalog.Tool{Name: "get_volume_metrics", Description: "Get live metrics of one volume."},
			&catalog.Tool{Name: "hist_volume_metrics", Description: "Get recorded metrics of one volume, months back."},
			"make the time each covers explicit (get_volume_metrics: the present; hist_volume_metrics: the past)",
			"instead when the request is about the past (hist, recorded, months).",
			"instead when the request is about the present (live).", false, 2},
		{"a qualifier only one name has",
			&catalog.Tool{Name: "run_pipeline", Description: "Triggers a pipeline."},
			&catalog.Tool{Name: "run_rollback_pipeline", Description: "Triggers a rollback pipeline."},
			"make what 'rollback' means explicit",
			"instead when the request is about the rollback pipeline.",
			"instead when the request is not about rollback.", false, 2},
		{"different actions",
			&catalog.Tool{Name: "schedule_downtime", Description: "Schedule a downtime."},
			&catalog.Tool{Name: "cancel_downtime", Description: "Cancel a downtime."},
			"make the action ('schedule' vs 'cancel') explicit",
			"instead when the request is to cancel the downtime.",
			"instead when the request is to schedule the downtime.", false, 2},
		{"a description that already names the other gets no fix",
			&catalog.Tool{Name: "search_logs", Description: "Search recent logs. Use `search_archived_logs` instead when older."},
			&catalog.Tool{Name: "search_archived_logs", Description: "Search archived logs."},
			"make the time each covers explicit",
			"",
			"instead when the request is about the present (recent).", true, 1},
	}
	for _, c := range cases {
		parts := parseNames([]*catalog.Tool{c.a, c.b})
		ax := chooseAxis(parts[0], parts[1], descriptionTerms(c.a.Description), descriptionTerms(c.b.Description))
		fixes := riskFixes(c.a, c.b, parts[0], parts[1], ax, c.aNamesB, false)
		hint := riskHint(c.a.Name, c.b.Name, ax, fixes)
		if !strings.HasPrefix(hint, c.hint) {
			t.Errorf("%s: hint %q, want it to start %q", c.name, hint, c.hint)
		}
		if len(fixes) != c.wantFixCount {
			t.Fatalf("%s: fixes %+v", c.name, fixes)
		}
		for _, f := range fixes {
			want := c.fixB
			if f.Tool == c.a.Name {
				want = c.fixA
			}
			if !strings.HasPrefix(f.Sentence, "Use `"+f.Other+"` ") || !strings.HasSuffix(f.Sentence, want) {
				t.Errorf("%s: fix for %s: %q, want it to end %q", c.name, f.Tool, f.Sentence, want)
			}
			if !strings.Contains(hint, f.Sentence) {
				t.Errorf("%s: the hint %q does not carry the fix %q", c.name, hint, f.Sentence)
			}
		}
	}
}

// A reason says what it read: the names' relation with the words that
// make it, the shared rare words by name.
func TestRiskReasonTexts(t *testing.T) {
	p := parseNames([]*catalog.Tool{{Name: "search"}, {Name: "search_events"}, {Name: "mute_host"}, {Name: "unmute_host"}})
	// maps_ is this catalog's server prefix, dropped.
	p = append(p, parseNames([]*catalog.Tool{{Name: "maps_geocode"}, {Name: "maps_reverse_geocode"}, {Name: "maps_directions"}, {Name: "maps_elevation"}})...)
	cases := []struct {
		f    Feature
		c    reasonContext
		want string
	}{
		{FeatNested, reasonContext{a: p[0], b: p[1], nameA: "search", nameB: "search_events"}, "search_events is search narrowed by 'events': a specific tool beside a general one"},
		{FeatOpposite, reasonContext{a: p[2], b: p[3]}, "opposite actions ('mute' vs 'unmute'): the request's verb says which"},
		{FeatOpposite, reasonContext{a: p[4], b: p[5]}, "one reverses the other ('geocode' vs 'reverse geocode'): the request says which way"},
		{FeatTerms, reasonContext{shared: []string{"warehouse", "volume"}}, "both use the catalog's rarer words 'warehouse', 'volume'"},
	}
	for _, c := range cases {
		if got := reasonText(c.f, Features{}, true, c.c); got != c.want {
			t.Errorf("%s: %q, want %q", c.f, got, c.want)
		}
	}
	if r := relate(&p[4], &p[5]); !r.opposite {
		t.Errorf("geocode / reverse_geocode: %+v, want opposite", r)
	}
}

// A name's action: the first word when it is one, else the last action
// word; a word as often a thing yields to a real action.
func TestParseNameAction(t *testing.T) {
	cases := []struct{ name, verb string }{
		{"get_job_test_results", "get"},
		{"fs_blob_import_create", "create"},
		{"monitor_delete", "delete"},
		{"monitor_checks", "monitor"},
		{"take_snapshot", "take"},
		{"performance_start_trace", "start"},
		{"maps_geocode", ""},
	}
	for _, c := range cases {
		if got := parseName(NameTokens(c.name)).verb; got != c.verb {
			t.Errorf("%s: action %q, want %q", c.name, got, c.verb)
		}
	}
}

// In a catalog merged from several servers, each server's own prefix is
// dropped: tavily_search and firecrawl_search are both the action search.
func TestParseNamesDropsEachServersPrefix(t *testing.T) {
	var tools []*catalog.Tool
	for _, s := range []string{"tavily", "firecrawl"} {
		for _, n := range []string{"search", "crawl_site", "map_site", "extract_page"} {
			tools = append(tools, &catalog.Tool{Name: s + "_" + n, Server: s})
		}
	}
	parts := parseNames(tools)
	if parts[0].verb != "search" || parts[4].verb != "search" || len(parts[0].object) != 0 || len(parts[4].object) != 0 {
		t.Errorf("tavily_search %+v, firecrawl_search %+v", parts[0], parts[4])
	}
}

// A fix says what only the other tool takes: the parameters a request must
// carry for it (required first, two at most, none both take).
func TestRiskFixNamesTheParametersOnlyOneTakes(t *testing.T) {
	cat := testcat.Parse(t, testcat.List(
		testcat.Tool("pods_get", "Get a pod by name.", `{"type":"object","properties":{"name":{},"namespace":{}},"required":["name"]}`),
		testcat.Tool("pods_log", "Get the log of a pod.", `{"type":"object","properties":{"name":{},"namespace":{},"tailLines":{},"container":{}},"required":["name","container"]}`),
		testcat.Tool("pods_list", "List pods.", ""),
	))
	pods, get, log, list := parseNames(cat.Tools), cat.Tools[0], cat.Tools[1], cat.Tools[2]
	cases := []struct {
		a, b       *catalog.Tool
		pa, pb     nameParts
		fixA, fixB string // each fix ends so
	}{
		{get, log, pods[0], pods[1], "when the request is about the pods log; it takes `container` and `tailLines`.", "when the request is to get the pods."},
		{get, list, pods[0], pods[2], "when the request is to list the pods.", "when the request is to get the pods; it takes `name` and `namespace`."},
	}
	for _, c := range cases {
		ax := chooseAxis(c.pa, c.pb, descriptionTerms(c.a.Description), descriptionTerms(c.b.Description))
		fixes := riskFixes(c.a, c.b, c.pa, c.pb, ax, false, false)
		if len(fixes) != 2 || !strings.HasSuffix(fixes[0].Sentence, c.fixA) || !strings.HasSuffix(fixes[1].Sentence, c.fixB) {
			t.Errorf("%s / %s: fixes %q and %q, want them to end %q and %q", c.a.Name, c.b.Name, fixes[0].Sentence, fixes[1].Sentence, c.fixA, c.fixB)
		}
	}
}
