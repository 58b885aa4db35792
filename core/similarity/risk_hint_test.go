package similarity

import (
	"strings"
	"testing"

	"toolscope/core/catalog"
	"toolscope/core/internal/testcat"
	"toolscope/core/jsonv"
)

// A flagged pair's advice names an axis only when both tools' own texts
// show it, builds no condition from a list of words, never restates a
// name as the condition, leaves no placeholder, and says the pair clears
// only with both sentences in.
func TestRiskAdviceIsRightOrPlain(t *testing.T) {
	cases := []struct {
		name       string
		a, b       *catalog.Tool
		hint       string   // in the hint
		fixA, fixB string   // the sentences ("" : none proposed)
		aNamesB    bool     // a's description already names b
		not        []string // in neither the hint nor a sentence
	}{
		{"time, shown by both texts",
			&catalog.Tool{Name: "get_volume_metrics", Description: "Get live metrics of one volume."},
			&catalog.Tool{Name: "hist_volume_metrics", Description: "Get recorded metrics of one volume, months back."},
			"what differs: the time each covers (get_volume_metrics: the present (live); hist_volume_metrics: the past (hist, recorded, months))",
			"Use `hist_volume_metrics` instead to get recorded metrics of one volume, months back.",
			"Use `get_volume_metrics` instead to get live metrics of one volume.", false, nil},
		{"a name word on an axis the other text does not answer is no axis",
			&catalog.Tool{Name: "get_weather_summary", Description: "Summarises the weather of a city in one paragraph."},
			&catalog.Tool{Name: "get_forecast", Description: "Returns the hourly forecast of a city for the next days."},
			"what differs: the names' words ('weather summary' vs 'forecast')",
			"Use `get_forecast` instead to return the hourly forecast of a city for the next days.",
			"Use `get_weather_summary` instead to summarise the weather of a city in one paragraph.", false, []string{"the time each covers", "the future", "the present"}},
		{"how many is no axis: reply and reply-all",
			&catalog.Tool{Name: "reply", Description: "Reply to the sender of an email.", Schema: schema(`{"properties": {"message_id": {}, "body": {}}}`)},
			&catalog.Tool{Name: "reply_all", Description: "Reply to the sender and every recipient of an email.", Schema: schema(`{"properties": {"message_id": {}, "body": {}}}`)},
			"the word 'all' only one name has",
			"Use `reply_all` instead to reply to the sender and every recipient of an email.",
			"Use `reply` instead to reply to the sender of an email.", false, []string{"how many items", "several items", "one item"}},
		{"a format the input has is no output axis",
			&catalog.Tool{Name: "import_xml", Description: "Imports an XML document into the workspace."},
			&catalog.Tool{Name: "import_yaml", Description: "Imports a YAML document into the workspace."},
			"the names' words ('xml' vs 'yaml')",
			"Use `import_yaml` instead to import a YAML document into the workspace.",
			"Use `import_xml` instead to import an XML document into the workspace.", false, []string{"the form each returns", "output"}},
		{"a description that restates its name gives no condition; a required parameter does",
			&catalog.Tool{Name: "get_logs", Description: "Get logs.", Schema: schema(`{"properties": {"query": {}}, "required": ["query"]}`)},
			&catalog.Tool{Name: "get_services", Description: "Get services."},
			"write in get_logs when to pick get_services (its texts give toolscope nothing to reuse)",
			"", "Use `get_logs` instead when the request gives `query`.", false, []string{"to get logs", "to get services"}},
		{"a description that already names the other gets no sentence",
			&catalog.Tool{Name: "search_logs", Description: "Search recent logs. Use `search_archived_logs` instead when older."},
			&catalog.Tool{Name: "search_archived_logs", Description: "Search archived logs older than a week."},
			"search_logs already names search_archived_logs",
			"", "Use `search_logs` instead to search recent logs.", true, nil},
		{"the same first sentence: no sentence could tell them apart",
			&catalog.Tool{Name: "query_a", Description: "Run a SQL query on the warehouse."},
			&catalog.Tool{Name: "query_b", Description: "Run a SQL query on the warehouse."},
			"describe the same job in the same words", "", "", false, nil},
	}
	for _, c := range cases {
		parts := parseNames([]*catalog.Tool{c.a, c.b})
		ax := chooseAxis(parts[0], parts[1], descriptionTerms(c.a.Description), descriptionTerms(c.b.Description))
		fixes := riskFixes(c.a, c.b, parts[0], parts[1], c.aNamesB, false)
		hint := riskHint(c.a, c.b, ax, fixes)
		if !strings.Contains(hint, c.hint) {
			t.Errorf("%s: hint %q, want it to hold %q", c.name, hint, c.hint)
		}
		got := map[string]string{}
		for _, f := range fixes {
			got[f.Tool] = f.Sentence
			if !strings.Contains(hint, f.Sentence) {
				t.Errorf("%s: the hint %q does not carry the fix %q", c.name, hint, f.Sentence)
			}
		}
		if got[c.a.Name] != c.fixA || got[c.b.Name] != c.fixB {
			t.Errorf("%s: sentences %q and %q, want %q and %q", c.name, got[c.a.Name], got[c.b.Name], c.fixA, c.fixB)
		}
		if (c.fixA != "" || c.fixB != "") && !strings.Contains(hint, "the pair clears only when both descriptions say it") {
			t.Errorf("%s: the hint does not say both sentences are needed: %q", c.name, hint)
		}
		for _, bad := range append(c.not, "(say what)", "the request is about", "the request is not about") {
			if strings.Contains(hint, bad) {
				t.Errorf("%s: the advice says %q: %s", c.name, bad, hint)
			}
		}
	}
}

func schema(s string) *jsonv.Value {
	v, err := jsonv.Parse([]byte(s))
	if err != nil {
		panic(err)
	}
	return v
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
		fixA, fixB string
	}{
		// "Get the log of a pod." says no more than pods_log: its required
		// parameter is the condition.
		{get, log, pods[0], pods[1], "Use `pods_log` instead when the request gives `container`.", "Use `pods_get` instead to get a pod by name."},
		// "List pods." says nothing pods_list does not: no sentence for it.
		{get, list, pods[0], pods[2], "", "Use `pods_get` instead to get a pod by name; it takes `name` and `namespace`."},
	}
	for _, c := range cases {
		got := map[string]string{}
		for _, f := range riskFixes(c.a, c.b, c.pa, c.pb, false, false) {
			got[f.Tool] = f.Sentence
		}
		if got[c.a.Name] != c.fixA || got[c.b.Name] != c.fixB {
			t.Errorf("%s / %s: fixes %q and %q, want %q and %q", c.a.Name, c.b.Name, got[c.a.Name], got[c.b.Name], c.fixA, c.fixB)
		}
	}
}

// A purpose is the description's own first verb phrase: lead-ins and
// labels dropped, the verb in its base form, a joined verb too, cut at a
// clause; "" when the sentence does not start with what the tool does.
func TestPurpose(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Retrieves the waterfall of a RUM page.", "retrieve the waterfall of a RUM page"},
		{"Notion | List all users", "list all users"},
		{"This tool helps debug CircleCI build failures by retrieving failure logs.", "debug CircleCI build failures by retrieving failure logs"},
		{"This tool is used to rerun a workflow from start or from the failed job.", "rerun a workflow from start or from the failed job"},
		{"Rebases a development branch on production.", "rebase a development branch on production"},
		{"Fetches a URL and returns readable content as markdown.", "fetch a URL and return readable content as markdown"},
		{"Primary entry point for finding arXiv papers by topic.", "find arXiv papers by topic"},
		{"Call this first to find metrics.", ""},
		{"The status of a volume.", ""},
		{"e.g. a tool.", ""},
	} {
		if got := purpose(c.in); got != c.want {
			t.Errorf("purpose(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A description that opens with a label and a trail of headings gives its
// purpose from the last heading that says more than the name; two tools
// whose purposes read alike get no purpose sentence from them.
func TestPurposeFromHeadingsAndAlike(t *testing.T) {
	tools := []*catalog.Tool{
		{Name: "workplace_v1_workplaceAccessData_search", Description: "[Feishu/Lark]-Workplace-workplace access data-search workplace access data-Get Workplace Access Data, including default workplace and custom workplace"},
		{Name: "app_usage_overview", Description: "[Lark]-App Usage-Get App Usage Overview-Displays app usage data for a day"},
		{Name: "app_usage_departmentOverview", Description: "[Lark]-App Usage-Get an overview of department usage-Displays app usage data for a day"},
	}
	parts := parseNames(tools)
	if got := purposeOf(tools[0], parts[0]); got != "get Workplace Access Data, including default workplace and custom workplace" {
		t.Errorf("purpose from the headings: %q", got)
	}
	for _, f := range riskFixes(tools[1], tools[2], parts[1], parts[2], false, false) {
		if strings.Contains(f.Sentence, "display app usage data") {
			t.Errorf("a purpose both read alike became a sentence: %q", f.Sentence)
		}
	}
}
