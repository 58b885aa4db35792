package lint

import (
	"slices"
	"strings"
	"testing"

	"toolscope/core/internal/testcat"
	"toolscope/core/jsonv"
)

// Each recommended check on the shapes reviewers rated: what they called
// noise stays quiet, what they called true is reported.
func TestRecommendedChecks(t *testing.T) {
	props := func(p string) string { return `{"type": "object", "properties": {` + p + `}}` }
	cases := []struct {
		name string
		rule Rule
		src  string
		want []string
	}{
		// description-missing-or-short, judged by what the text tells
		{"no description is an error", ToldDescriptionRule(40), testcat.List(testcat.Tool("a", "-", "")), []string{"a error"}},
		{"short and clear passes", ToldDescriptionRule(40), testcat.List(testcat.Tool("fileshare_delete", "Delete a file share", "")), nil},
		{"a short generic action warns", ToldDescriptionRule(40), testcat.List(testcat.Tool("query", "Run a read-only SQL query", "")), []string{"query warn"}},
		{"a short action that names its system passes", ToldDescriptionRule(40), testcat.List(testcat.Tool("query_duckdb", "Execute SQL queries on DuckDB", "")), nil},
		{"short and saying only the name warns", ToldDescriptionRule(40), testcat.List(testcat.Tool("sort-excel-range", "Sort an Excel range.", "")), []string{"sort-excel-range warn"}},
		{"a generated wrapper around the name warns", ToldDescriptionRule(40), testcat.List(testcat.Tool("API-retrieve-a-block", "Notion | Retrieve a block\nError Responses:\n400: Bad request", "")), []string{"API-retrieve-a-block warn"}},
		{"a generic action warns", ToldDescriptionRule(40), testcat.List(testcat.Tool("query", "Run a read-only SQL query", props(`"sql": {"type": "string"}`))), []string{"query warn"}},
		{"short beside a shapeless object warns", ToldDescriptionRule(40), testcat.List(testcat.Tool("workflow_update", "Update a Workers workflow", props(`"content": {"type": "object"}`))), []string{"workflow_update warn"}},
		{"short for six parameters warns", ToldDescriptionRule(40), testcat.List(testcat.Tool("stories-search", "Find Shortcut stories.", props(`"a": {}, "b": {}, "c": {}, "d": {}, "e": {}, "f": {}`))), []string{"stories-search warn"}},
		{"long enough passes whatever it says", ToldDescriptionRule(20), testcat.List(testcat.Tool("sort-excel-range", "Sort an Excel range.", "")), nil},

		// says-what-not-when, for descriptions that add nothing
		{"a plain action naming its object passes", SaysWhenRule(), testcat.List(testcat.Tool("mute_host", "Mute a host in Datadog", "")), nil},
		{"repeating the name warns", SaysWhenRule(), testcat.List(testcat.Tool("delete_item", "Delete an item", "")), []string{"delete_item warn"}},
		{"'Use this to' is a when", SaysWhenRule(), testcat.List(testcat.Tool("delete_item", "Delete an item. Use this to clean up.", "")), nil},
		{"'instead' is a when", SaysWhenRule(), testcat.List(testcat.Tool("get_item", "DEPRECATED: get_item_v2 instead", "")), nil},
		{"no description is the description rule's", SaysWhenRule(), testcat.List(testcat.Tool("a", "-", "")), nil},

		// enum-in-prose, closed lists only
		{"a list shown under Examples: is examples", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"sort": {"type": "string", "description": "Sort as <field> asc|desc. Examples: date, cited, or author."}`))), nil},
		{"values an anyOf branch declares", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"format": {"description": "Citation format(s). Allowed values: apa, mla, bibtex, ris.", "anyOf": [{"type": "string", "enum": ["apa", "mla", "bibtex", "ris"]}, {"type": "array", "items": {"type": "string", "enum": ["apa", "mla", "bibtex", "ris"]}}]}`))), nil},
		{"alternatives inside a pattern are parts of a value", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"duration": {"type": "string", "description": "The total duration. In readable format matching /^(\\d+) +(second|minute|hour|day)s?$/"}`))), nil},
		{"a closed list warns", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"state": {"type": "string", "description": "one of new, acknowledged, resolved"}`))), []string{`t.state warn "enum": ["new","acknowledged","resolved"]`}},
		{"a list closed by 'or' holds its last value", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"state": {"type": "string", "description": "Which issues: one of open, closed or all."}`))), []string{`t.state warn "enum": ["open","closed","all"]`}},
		{"a list closed by ', and' holds its last value, not 'and'", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"group": {"type": "string", "description": "Allowed values: null, Minor, NotAdult, and Adult. See the docs."}`))), []string{`t.group warn "enum": ["null","Minor","NotAdult","Adult"]`}},
		{"'and' that runs on is no list's end", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"state": {"type": "string", "description": "one of open, closed and more are coming"}`))), []string{`t.state warn "enum": ["open","closed"]`}},
		{"a list whose last item cannot be read is left alone", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"group": {"type": "string", "description": "Allowed values: null, Minor, and Adult users"}`))), nil},
		{"a query's examples are no enum", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"query": {"type": "string", "description": "values a | b | c"}`))), nil},
		{"a list of examples is no enum", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"mode": {"type": "string", "description": "such as fast | slow"}`))), nil},
		{"placeholders are no enum", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"target": {"type": "string", "description": "one of <project>, <team>, <user>"}`))), nil},
		{"ids are no enum", ClosedListInProseRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"board": {"type": "string", "description": "one of 12345678, 23456789"}`))), nil},

		// optional-param-undocumented, where omission is neither said nor plain
		{"a default answers it", OmissionRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"limit": {"type": "integer", "default": 50, "description": "Page size"}`))), nil},
		{"a count with no default warns", OmissionRule(), testcat.List(testcat.Tool("list_hosts", testcat.Long, props(`"count": {"type": "number", "description": "Number of hosts to return"}`))), []string{"list_hosts.count warn"}},
		{"a list's record-time bound is a filter", OmissionRule(), testcat.List(testcat.Tool("list_issues", testcat.Long, props(`"created_after": {"type": "string", "description": "Return issues created after the given time"}, "due_date": {"type": "string", "description": "Return issues that have the due date"}`))), nil},
		{"a query's window start still warns", OmissionRule(), testcat.List(testcat.Tool("query_logs", testcat.Long, props(`"start_time": {"type": "string", "description": "Start of the time range"}`))), []string{"query_logs.start_time warn"}},
		{"an action taken only when given", OmissionRule(), testcat.List(testcat.Tool("publish_notes", "Publish all draft notes. Optionally sets reviewer_state and posts a summary.", props(`"reviewer_state": {"type": "string", "enum": ["reviewed", "requested_changes"], "description": "Reviewer state to set after publishing"}`))), nil},
		{"a look left out keeps the default look", OmissionRule(), testcat.List(testcat.Tool("create_text_box", "Creates a text box on a slide.", props(`"fontSize": {"type": "number", "description": "Font size in points"}`))), nil},
		{"a formatting tool keeps what it is not given", OmissionRule(), testcat.List(testcat.Tool("format_cells", "Formats cells of a sheet.", props(`"wrap": {"type": "string", "enum": ["WRAP", "CLIP"], "description": "Wrap strategy"}`))), nil},
		{"a record date's bound is a filter", OmissionRule(), testcat.List(testcat.Tool("count_issues", testcat.Long, props(`"startDateSince": {"type": "string", "description": "Start date since (yyyy-MM-dd)"}`))), nil},
		{"a search's number of guests is what to look for", OmissionRule(), testcat.List(testcat.Tool("search_listings", testcat.Long, props(`"adults": {"type": "number", "description": "Number of adults"}`))), nil},
		{"a query's number of hours back still warns", OmissionRule(), testcat.List(testcat.Tool("query_logs", testcat.Long, props(`"hours": {"type": "number", "description": "The number of hours to query back"}`))), []string{"query_logs.hours warn"}},
		{"items skipped are an offset", OmissionRule(), testcat.List(testcat.Tool("list_commits", testcat.Long, props(`"skip": {"type": "integer", "description": "Number of items to skip for pagination."}`))), nil},
		{"an enum of one value leaves the other way", OmissionRule(), testcat.List(testcat.Tool("show_object", testcat.Long, props(`"format": {"type": "string", "enum": ["raw"], "description": "Output format for the object. Use raw for unprocessed output."}`))), nil},
		{"a made record's start is a value, not a window", OmissionRule(), testcat.List(testcat.Tool("add_card", testcat.Long, props(`"start": {"type": "string", "description": "Start date for the card (YYYY-MM-DD)"}`))), nil},
		{"a start time outside logs, metrics and traces is a filter", OmissionRule(), testcat.List(testcat.Tool("diagnose_app", "Runs a detector on an app.", props(`"start-time": {"type": "string", "description": "The start time in ISO format"}`))), nil},
		{"a list's from is a filter", OmissionRule(), testcat.List(testcat.Tool("list_notifications", "Lists notifications.", props(`"from": {"type": "string", "description": "Return entities from a specific time. Pass an RFC 3339 datetime string."}`))), nil},
		{"a trace listing's start is a window", OmissionRule(), testcat.List(testcat.Tool("list_traces", "Lists root spans of traces.", props(`"startTime": {"type": "string", "description": "Optional. Start of the time interval (inclusive). Must be in RFC 3339 format."}`))), []string{"list_traces.startTime warn"}},
		{"'all' in a sentence that shares one word is not about the parameter", OmissionRule(), testcat.List(testcat.Tool("grep_scripts", "Search across all script sources.", props(`"maxResultsPerScript": {"type": "number", "description": "Max matches per script"}`))), []string{"grep_scripts.maxResultsPerScript warn"}},
		{"a time with no default warns", OmissionRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"timezone": {"type": "string", "description": "IANA zone"}`))), []string{"t.timezone warn"}},
		{"a model on a tool that reads is a filter", OmissionRule(), testcat.List(testcat.Tool("get_llm_slow_traces", "Find the slowest traces.", props(`"genAiRequestModel": {"type": "string", "minLength": 1}`))), nil},
		{"a model on a tool that acts is what it runs with", OmissionRule(), testcat.List(testcat.Tool("create_transcription", "Starts a live transcription of a call.", props(`"SpeechModel": {"type": "string", "description": "Recognition model used by the transcription engine"}`))), []string{"create_transcription.SpeechModel warn"}},
		{"a described enum of a tool that acts lists its choices", OmissionRule(), testcat.List(testcat.Tool("add_review", "Adds a review note, optionally changing the status.", props(`"new_status": {"type": "string", "enum": ["Approved", "Declined"], "description": "Optional new status to record with the note"}`))), nil},
		{"a region of a tool that acts is left to the server", OmissionRule(), testcat.List(testcat.Tool("import_model", "Imports a model.", props(`"preferred_gpu_region": {"type": "string", "description": "Preferred GPU region for the model (e.g. nyc3)"}`))), nil},
		{"no description warns", OmissionRule(), testcat.List(testcat.Tool("t", "Scrapes one page and converts it to markdown.", props(`"proxy": {"type": "string", "enum": ["basic", "auto"]}`))), []string{"t.proxy warn"}},
		{"a described filter is plain", OmissionRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"filter": {"type": "string", "description": "Narrow the results"}`))), nil},
		{"a described cursor is plain", OmissionRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"cursor": {"type": "string", "description": "Pagination cursor"}`))), nil},
		{"a described boolean is plain", OmissionRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"mobile": {"type": "boolean", "description": "Emulate a phone"}`))), nil},
		{"an update's fields are plain", OmissionRule(), testcat.List(testcat.Tool("update_incident", testcat.Long, props(`"severity": {"type": "string", "enum": ["a", "b"], "description": "New severity"}`))), nil},
		{"a destructive tool's id-like option is left to destructive-unstated", OmissionRule(), testcat.List(testcat.Tool("reset_branch", testcat.Long, props(`"migration_version": {"type": "string", "description": "Reset to this version"}`))), nil},
		// What reviewers of unseen catalogs called noise: filters, ends of
		// windows, an update's fields, an undescribed filter of a search.
		{"an enum narrowing a search is a filter", OmissionRule(), testcat.List(testcat.Tool("stories-search", testcat.Long, props(`"state": {"type": "string", "enum": ["started", "done"], "description": "State"}`))), nil},
		{"a described filter by its words", OmissionRule(), testcat.List(testcat.Tool("list_alerts", testcat.Long, props(`"panelId": {"type": "integer", "description": "Filter by panel ID"}`))), nil},
		{"the end of a window means now", OmissionRule(), testcat.List(testcat.Tool("search_logs", testcat.Long, props(`"endTime": {"type": "string", "description": "End time for the search (ISO)"}`))), nil},
		{"the start of a window does not", OmissionRule(), testcat.List(testcat.Tool("analytics_get", testcat.Long, props(`"since": {"type": "string", "description": "Start time for analytics (ISO string)"}`))), []string{"analytics_get.since warn"}},
		{"a bound a search's results must meet", OmissionRule(), testcat.List(testcat.Tool("search_homes", testcat.Long, props(`"num_baths": {"type": "integer", "description": "Bathrooms"}, "max_vote_count": {"type": "integer", "description": "Most votes"}`))), nil},
		{"a bound on what a search returns", OmissionRule(), testcat.List(testcat.Tool("search_homes", testcat.Long, props(`"num_results": {"type": "integer", "description": "Results"}`))), []string{"search_homes.num_results warn"}},
		{"a minimum is a bound, not a count", OmissionRule(), testcat.List(testcat.Tool("search_homes", testcat.Long, props(`"min_lot_size": {"type": "integer", "description": "Smallest lot"}`))), nil},
		{"a bound on how many is a count", OmissionRule(), testcat.List(testcat.Tool("chat", testcat.Long, props(`"maxTokens": {"type": "integer", "description": "Cap on the reply"}`))), []string{"chat.maxTokens warn"}},
		{"a mode on a tool that reads", OmissionRule(), testcat.List(testcat.Tool("get_directions", testcat.Long, props(`"mode": {"type": "string", "enum": ["driving", "walking"], "description": "Travel mode"}`))), []string{"get_directions.mode warn"}},
		{"a test switch is no mode", OmissionRule(), testcat.List(testcat.Tool("zones_get", testcat.Long, props(`"testMode": {"type": "string", "description": "Test mode for internal testing purposes"}`))), nil},
		{"an undescribed option of a search is a filter its name says", OmissionRule(), testcat.List(testcat.Tool("search_agents", testcat.Long, props(`"agentname": {"type": "string"}`))), nil},
		{"an undescribed option of a search whose name says nothing of its value warns", OmissionRule(), testcat.List(testcat.Tool("scm_blame", "Get SCM blame information for source code", props(`"from": {"type": "string"}, "to": {"type": "string"}`))), []string{"scm_blame.from warn", "scm_blame.to warn"}},
		{"an undescribed type of a search with its values in an anyOf branch", OmissionRule(), testcat.List(testcat.Tool("search_hotspots", testcat.Long, props(`"status": {"anyOf": [{"type": "string", "enum": ["TO_REVIEW", "REVIEWED"]}, {"type": "null"}]}`))), nil},
		{"a default said in Chinese", OmissionRule(), testcat.List(testcat.Tool("apply_migration", "Applies a schema migration to the database.", props(`"lockTimeoutMs": {"type": "integer", "description": "apply 可选：获取数据库锁的最长时间（毫秒），默认 5000。"}`))), nil},
		{"an enum with a default value", OmissionRule(), testcat.List(testcat.Tool("translate_text", "Translate text to a target language.", props(`"formality": {"type": "string", "enum": ["less", "more", "default"], "description": "Whether to lean formal"}`))), nil},
		{"null says what omission means", OmissionRule(), testcat.List(testcat.Tool("create_discount", "Creates a discount.", props(`"maximumRecurringIntervals": {"type": "number", "description": "Number of billing periods this discount recurs for. `+"`null`"+` if this discount recurs forever."}`))), nil},
		{"only applicable when another is set", OmissionRule(), testcat.List(testcat.Tool("run_logs_query", testcat.Long, props(`"custom-start": {"type": "string", "description": "Start date in ISO8601 format. Only applicable when time-frame is custom."}`))), nil},
		{"a model's uuid is an id, not a mode", OmissionRule(), testcat.List(testcat.Tool("create_eval_run", testcat.Long, props(`"judge_model_uuid": {"type": "string", "description": "UUID of the judge model"}`))), nil},
		{"a date field's name is no date", OmissionRule(), testcat.List(testcat.Tool("search_records_by_timeframe", "Filter records by creation or update time.", props(`"date_field": {"type": "string", "enum": ["created_at", "updated_at"], "description": "Explicit date field"}`))), nil},
		{"business units (ids) and a unit price are no unit choice", OmissionRule(), testcat.List(testcat.Tool("create_product", testcat.Long, props(`"perimeterBusinessUnits": {"type": "array", "items": {"type": "integer"}, "description": "IDs of business units"}, "unitPrice": {"type": "number", "description": "Price per unit"}`))), nil},
		{"a unit of measure still warns", OmissionRule(), testcat.List(testcat.Tool("create_reading", testcat.Long, props(`"temperature_unit": {"type": "string", "description": "Temperature unit"}`))), []string{"create_reading.temperature_unit warn"}},
		{"an undescribed value of a made record is not set when left out", OmissionRule(), testcat.List(testcat.Tool("create_body_measurement", "Writes a body measurement for a new date.", props(`"neck_cm": {"type": "number"}, "purchaseDetails": {"type": "object", "properties": {"unitPrice": {"type": "number"}}}`))), nil},
		{"an undescribed string of a made record has no form", OmissionRule(), testcat.List(testcat.Tool("create_issue", "Opens an issue in one repository.", props(`"milestone": {"type": "string"}`))), []string{"create_issue.milestone warn"}},
		{"an undescribed time of a made record warns", OmissionRule(), testcat.List(testcat.Tool("schedule_downtime", testcat.Long, props(`"start": {"type": "number"}, "message": {"type": "string"}`))), []string{"schedule_downtime.start warn"}},
		{"an undescribed option of a tool that acts warns", OmissionRule(), testcat.List(testcat.Tool("suggest_config", "Generates an Alloy snippet that keeps the approved labels.", props(`"forwardTo": {"type": "string"}`))), []string{"suggest_config.forwardTo warn"}},
		{"either-or says what omission does", OmissionRule(), testcat.List(testcat.Tool("drop_schema", testcat.Long, props(`"mode": {"type": "string", "description": "Either mode or name must be provided"}`))), nil},
		{"a sentence of the tool's description says it", OmissionRule(), testcat.List(testcat.Tool("kv_list", "List keys. If limit is not given, 1000 come back.", props(`"limit": {"type": "integer", "description": "Most keys"}`))), nil},
		{"documented in the tool's description", OmissionRule(), testcat.List(testcat.Tool("t", "Takes `params`: an object of filters.", props(`"params": {"type": "object"}`))), nil},
		{"optional alone says nothing of omission", OmissionRule(), testcat.List(testcat.Tool("log_query", "Query logs of a resource.\nOptional: hours, limit", props(`"limit": {"type": "integer", "description": "The maximum number of results to return."}`))), []string{"log_query.limit warn"}},
		{"only needed when says it", OmissionRule(), testcat.List(testcat.Tool("quota_list", "Regions where resource types are available.", props(`"model": {"type": "string", "description": "Optional model name. Only needed when cognitive services are included."}`))), nil},
		{"the number of is a count", OmissionRule(), testcat.List(testcat.Tool("activitylog_list", "Lists the activity log of a resource.", props(`"hours": {"type": "number", "description": "The number of hours prior to now to retrieve logs for."}`))), []string{"activitylog_list.hours warn"}},
		{"a shift left out is zero", OmissionRule(), testcat.List(testcat.Tool("shift_date", "Shifts a date into the future or the past.", props(`"hours": {"type": "integer", "description": "The number of hours before (negative value) or after (positive value) the date."}`))), nil},
		// An undescribed value whose name does not give its form, on any
		// tool but an update: a time as a string, a colour, a sort.
		{"an undescribed time filter's form is a guess", OmissionRule(), testcat.List(testcat.Tool("discounts-search", "Search and list discount codes for a store.", props(`"createdAfter": {"type": "string"}, "tag_id": {"type": "number"}, "url": {"type": "string"}`))), []string{"discounts-search.createdAfter warn"}},
		{"an undescribed ordering names no fields", OmissionRule(), testcat.List(testcat.Tool("list_tags", "List all tags.", props(`"ordering": {"type": "string"}, "order": {"type": "array", "items": {"type": "string"}}, "sort_order": {"type": "string", "enum": ["asc", "desc"]}`))), []string{"list_tags.ordering warn", "list_tags.order warn"}},
		{"an undescribed colour has no notation", OmissionRule(), testcat.List(testcat.Tool("submolt_settings", "Changes a community's look.", props(`"banner_color": {"type": "string"}, "theme_color": {"type": "string", "pattern": "^#[0-9a-f]{6}$"}`))), []string{"submolt_settings.banner_color warn"}},
		{"a time's field name or an update's time is no form to guess", OmissionRule(), testcat.List(testcat.Tool("update_account", "Updates an account.", props(`"balance_as_of": {"type": "string"}`)), testcat.Tool("search_records", testcat.Long, props(`"date_field": {"type": "string"}, "after": {"type": "string"}`))), nil},
		{"a described locale left out is the usual one", OmissionRule(), testcat.List(testcat.Tool("launch_app", "Launch an app on the device.", props(`"locale": {"type": "string", "description": "Locale to launch with (e.g. fr-FR)"}`))), nil},
		{"an undescribed language of a made session is a choice", OmissionRule(), testcat.List(testcat.Tool("create_session", "Create a verification session.", props(`"language": {"type": "string", "enum": ["en", "fr"]}`))), []string{"create_session.language warn"}},
		{"a made task's start date is a value it carries", OmissionRule(), testcat.List(testcat.Tool("task_create", "Create a new Task in a project.", props(`"exp_end_date": {"type": "string", "description": "Expected end date YYYY-MM-DD"}, "startDate": {"type": "string", "description": "Planned start date (YYYY-MM-DD)"}`))), nil},
		{"a made journal's own date is the server's pick", OmissionRule(), testcat.List(testcat.Tool("create-manual-journal", "Create a manual journal in Xero.", props(`"date": {"type": "string", "description": "Date of the journal (YYYY-MM-DD)"}`))), []string{"create-manual-journal.date warn"}},
		{"a read's date still picks the day", OmissionRule(), testcat.List(testcat.Tool("get_week_year", "Gets the week of the year of a date.", props(`"date": {"type": "string", "description": "The date to get the week of, e.g. 2025-03-23"}`))), []string{"get_week_year.date warn"}},
		{"a legacy parameter is to be left out", OmissionRule(), testcat.List(testcat.Tool("batch_records", "Execute batched record operations.", props(`"operation_type": {"type": "string", "enum": ["create", "delete"], "description": "Batch operation type (legacy format)"}`))), nil},
		{"an alternative to other parameters leaves them to apply", OmissionRule(), testcat.List(testcat.Tool("forecast", "Get a weather forecast.", props(`"start_hour": {"type": "string", "description": "Hourly timestamp, for a sub-day range (alternative to start_date/end_date)."}`))), nil},
		{"a made release's target date is not set when left out", OmissionRule(), testcat.List(testcat.Tool("createRelease", "Create a new release.", props(`"targetDate": {"type": "string", "description": "Estimated completion date in YYYY-MM-DD format"}, "expirationDate": {"type": "string", "description": "Expiry (YYYY-MM-DD)"}`))), []string{"createRelease.expirationDate warn"}},
		{"an override left out leaves what it overrides", OmissionRule(), testcat.List(testcat.Tool("starwind_add", "Generates install commands.", props(`"framework": {"type": "string", "enum": ["astro", "react"], "description": "Optional framework override."}`))), nil},
		{"required parameters are not this rule's", OmissionRule(), testcat.List(testcat.Tool("t", testcat.Long, `{"type": "object", "properties": {"count": {"type": "number"}}, "required": ["count"]}`)), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ruleFindings(t, c.rule, c.src); !slices.Equal(got, c.want) {
				t.Errorf("findings = %q, want %q", got, c.want)
			}
		})
	}
}

// Parameters most of a catalog's tools repeat (an Azure catalog's retry
// settings) are said once for all, and are no tool's finding.
func TestCommonParametersAreLeftAlone(t *testing.T) {
	var tools []string
	for i, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		limit := ""
		if i < 4 {
			limit = `, "limit": {"type": "integer", "description": "Max results"}`
		}
		tools = append(tools, testcat.Tool("get_"+n, testcat.Long, `{"type": "object", "properties": {"retry-max": {"type": "integer", "description": "Most retries"}`+limit+`}}`))
	}
	got := ruleFindings(t, OmissionRule(), testcat.List(tools...))
	want := []string{"get_a.limit warn", "get_b.limit warn", "get_c.limit warn", "get_d.limit warn"}
	if !slices.Equal(got, want) {
		t.Errorf("findings = %q, want %q (retry-max is on every tool)", got, want)
	}
}

func TestActRules(t *testing.T) {
	props := func(p string) string { return `{"type": "object", "properties": {` + p + `}}` }
	cases := []struct {
		name string
		rule Rule
		src  string
		want []string
	}{
		{"a window's bounds with no unit", QuantityUnitRule(), testcat.List(testcat.Tool("schedule_downtime", testcat.Long, props(`"start": {"type": "number"}, "end": {"type": "number"}`))),
			// No period is suggested: it would guess the unit left unstated.
			[]string{`schedule_downtime.start warn`, `schedule_downtime.end warn`}},
		{"a wait condition is no duration", QuantityUnitRule(), testcat.List(testcat.Tool("navigate", testcat.Long, props(`"waitUntil": {"type": "string", "description": "Navigation wait condition"}`))), nil},
		{"a unit in the description", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"from": {"type": "number", "description": "Start, seconds since the Unix epoch"}, "to": {"type": "number", "description": "End, epoch seconds"}`))), nil},
		{"a unit in the name", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"timeout_ms": {"type": "number"}`))), nil},
		{"a format in the schema", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"since": {"type": "string", "format": "date-time"}`))), nil},
		{"an example value", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"rateInterval": {"type": "string", "description": "Rate interval (default: 5m)"}`))), nil},
		{"a duration", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"delay": {"type": "number"}`))), []string{"t.delay warn"}},
		// Units given where reviewers of unseen catalogs found them.
		{"a unit in Chinese", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"timeout": {"type": "integer", "description": "超时时间，单位秒"}`))), nil},
		{"a unit in Spanish", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"timeout": {"type": "integer", "description": "Tiempo de espera en segundos"}`))), nil},
		{"a unit shown by a value", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"interval": {"type": "string", "description": "Sampling interval like 30s"}`))), nil},
		{"a unit in a $ref'd definition", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, `{"type": "object", "$defs": {"Dur": {"type": "string", "format": "duration"}}, "properties": {"timeout": {"$ref": "#/$defs/Dur"}}}`)), nil},
		{"no unit in a $ref'd definition", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, `{"type": "object", "$defs": {"Dur": {"type": "integer", "description": "How long to wait"}}, "properties": {"timeout": {"$ref": "#/$defs/Dur"}}}`)), []string{"t.timeout warn"}},
		{"a hash read as a time", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"since": {"type": "string", "description": "Commit hash to compare from"}`))), nil},
		{"a flag read as a duration", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"retention": {"type": "string", "description": "Whether to keep the backups"}`))), nil},
		{"a setting named like a duration", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"retention": {"type": "string", "description": "keep-all or keep-last"}`))), nil},
		{"a duration said to be one", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"retention": {"type": "string", "description": "How long backups are kept"}`))), []string{"t.retention warn"}},
		{"untyped and undescribed", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"delay": {}`))), nil},
		{"a date", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"planned_start_date": {"type": "string", "description": "Start date"}`))), []string{`t.planned_start_date warn`}},
		{"a sender is no time", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"from": {"type": "string", "description": "The email address to send from"}, "to": {"type": "string"}`))), nil},
		{"an offset is no time", QuantityUnitRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"start": {"type": "integer", "description": "Starting offset for pagination"}`))), nil},
		{"an element pair is no window", QuantityUnitRule(), testcat.List(testcat.Tool("drag", testcat.Long, props(`"from_uid": {"type": "string"}, "to_uid": {"type": "string"}`))), nil},

		{"an object with no shape", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"content": {"type": "object", "description": "Workflow content"}`))), []string{"t.content warn"}},
		{"a write's object in a known query language", ShapelessParamRule(), testcat.List(testcat.Tool("update_many", testcat.Long, props(`"filter": {"type": "object", "properties": {}, "description": "The selection criteria, matching the syntax of the filter argument of db.collection.updateOne()"}`))), nil},
		{"a query DSL object", ShapelessParamRule(), testcat.List(testcat.Tool("search", testcat.Long, props(`"queryBody": {"type": "object", "additionalProperties": {}, "description": "Complete Elasticsearch query DSL object that can include query, size, from, sort"}`))), nil},
		{"a record's metadata is the caller's own keys", ShapelessParamRule(), testcat.List(testcat.Tool("update_store", testcat.Long, props(`"metadata": {"type": "object", "additionalProperties": {}}, "labels": {"type": "object"}`))), nil},
		{"settings are no map of the caller's own", ShapelessParamRule(), testcat.List(testcat.Tool("update_store", testcat.Long, props(`"settings": {"type": "object", "additionalProperties": {}}`))), []string{"update_store.settings warn"}},
		{"a JSON Schema has a standard's form", ShapelessParamRule(), testcat.List(testcat.Tool("update_code_block", testcat.Long, props(`"inputSchema": {"type": "object", "additionalProperties": {}, "description": "Updated input JSON Schema"}`))), nil},
		{"a write's columns and values", ShapelessParamRule(), testcat.List(testcat.Tool("create_record", testcat.Long, props(`"data": {"type": "object", "description": "Object containing column names and values to insert"}, "dependencies": {"type": "object", "description": "stepId -> [dependent stepIds]"}`))), nil},
		{"a write's column-value pairs", ShapelessParamRule(), testcat.List(testcat.Tool("insert_rows", testcat.Long, props(`"data": {"type": "object", "description": "Data object with column-value pairs"}`))), nil},
		{"a write's object shown in the tool's example call", ShapelessParamRule(), testcat.List(testcat.Tool("execute_mutation", "Insert a row. Example: table=\"users\", data={\"name\": \"John\"}", props(`"data": {"type": "object", "description": "The row"}`))), nil},
		{"an object handed on to a workflow, an event or a merge", ShapelessParamRule(), testcat.List(testcat.Tool("run_workflow", testcat.Long, props(`"input": {"type": "object", "description": "Input data to pass to the workflow"}, "wip_data": {"type": "object", "description": "WIP data to merge into existing state"}, "payload": {"type": "object", "description": "Static payload to include with each emitted event"}`))), nil},
		{"a raw API call's body and params", ShapelessParamRule(), testcat.List(testcat.Tool("call_api", testcat.Long, props(`"method": {"type": "string"}, "path": {"type": "string"}, "body": {"type": "object", "additionalProperties": {}, "description": "Request body for POST/PUT/PATCH"}`)), testcat.Tool("call_cloud_api", testcat.Long, props(`"service": {"type": "string"}, "action": {"type": "string"}, "params": {"type": "object", "description": "The action's parameter object, keys as in the official API"}`))), nil},
		{"a query or a script in the store's language", ShapelessParamRule(), testcat.List(testcat.Tool("reindex", testcat.Long, props(`"query": {"type": "object", "additionalProperties": {}, "description": "Optional query to filter which documents to reindex"}, "script": {"type": "object", "additionalProperties": {}, "description": "Optional script to transform documents during reindex"}`))), nil},
		{"an action's own object is still read", ShapelessParamRule(), testcat.List(testcat.Tool("scrape", testcat.Long, props(`"url": {"type": "string"}, "automation": {"type": "object", "additionalProperties": {}, "description": "Web automation actions (Click, Fill, Wait, Scroll, etc.)"}`))), []string{"scrape.automation warn"}},
		{"a request's headers are names to values", ShapelessParamRule(), testcat.List(testcat.Tool("fetch_html", testcat.Long, props(`"headers": {"type": "object", "description": "Optional headers to include in the request"}, "extraHeaders": {"type": "object"}`))), nil},
		{"a write's object described vaguely", ShapelessParamRule(), testcat.List(testcat.Tool("create_engagement", testcat.Long, props(`"metadata": {"type": "object", "properties": {}, "additionalProperties": true, "description": "Metadata specific to the engagement type"}`))), []string{"create_engagement.metadata warn"}},
		{"an object with properties", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"content": {"type": "object", "properties": {"a": {}}}`))), nil},
		{"an object whose keys are described", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"labels": {"type": "object", "description": "Label names mapped to their values, e.g. {\"env\": \"prod\"}"}`))), nil},
		{"an array with items", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"ids": {"type": "array", "items": {"type": "string"}}`))), nil},
		{"empty properties state nothing", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"fields": {"type": "object", "properties": {}, "description": "The record's fields."}`))), []string{"t.fields warn"}},
		{"additionalProperties true states nothing", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"settings": {"type": "object", "additionalProperties": true}`))), []string{"t.settings warn"}},
		{"items that are bare objects state nothing", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"rows": {"type": "array", "items": {"type": "object"}, "description": "Rows to add."}`))), []string{"t.rows warn"}},
		{"additionalProperties false says no keys", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"opts": {"type": "object", "additionalProperties": false}`))), nil},
		{"a map of strings", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"env": {"type": "object", "additionalProperties": {"type": "string"}}`))), nil},
		{"items that are described objects", ShapelessParamRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"rows": {"type": "array", "items": {"type": "object", "properties": {"a": {}}}}`))), nil},
		{"the tool's description shows the body", ShapelessParamRule(), testcat.List(testcat.Tool("update-range", "Update an Excel range. Body: { values: [['a','b']] } for one row.", props(`"body": {"type": "object", "properties": {}, "additionalProperties": true}`))), nil},

		{"a generic query", GenericActionRule(), testcat.List(testcat.Tool("query", "Run a read-only SQL query", "")), []string{"query warn"}},
		{"a query naming its system", GenericActionRule(), testcat.List(testcat.Tool("query", "Run a read-only SQL query against the PostgreSQL warehouse", "")), nil},

		{"a read annotated destructive", AnnotationsContradictRule(), testcat.List(`{"name": "API-post-search", "annotations": {"title": "Post Search", "destructiveHint": true}}`), []string{"API-post-search warn"}},
		{"a delete annotated read-only", AnnotationsContradictRule(), testcat.List(`{"name": "delete_row", "annotations": {"readOnlyHint": true}}`), []string{"delete_row warn"}},
		{"a delete annotated destructive", AnnotationsContradictRule(), testcat.List(`{"name": "delete_row", "annotations": {"destructiveHint": true}}`), nil},
		{"a title that reads, a description that writes", AnnotationsContradictRule(), testcat.List(`{"name": "quickstart", "description": "Creates a starter project and deploys it.", "annotations": {"title": "Get started", "destructiveHint": true}}`), nil},

		{"a token of no stated kind", UnexplainedValuesRule(), testcat.List(testcat.Tool("get_form", testcat.Long, `{"type": "object", "properties": {"formToken": {"type": "string"}}, "required": ["formToken"]}`)), []string{"get_form.formToken warn"}},
		{"a token the tool describes", UnexplainedValuesRule(), testcat.List(testcat.Tool("get_form", "Get a form by its form token, the last part of its URL.", `{"type": "object", "properties": {"formToken": {"type": "string"}}, "required": ["formToken"]}`)), nil},
		{"a permission's id is an id", UnexplainedValuesRule(), testcat.List(testcat.Tool("update_permission", "Update an existing permission role", `{"type": "object", "properties": {"permissionId": {"type": "string", "description": "Permission ID"}}, "required": ["permissionId"]}`)), nil},
		{"a severity only listed among the required", UnexplainedValuesRule(), testcat.List(testcat.Tool("create_incident", "Create a new incident. Requires title, severity, and room prefix.", `{"type": "object", "properties": {"title": {"type": "string", "description": "The title of the incident"}, "severity": {"type": "string", "description": "The severity of the incident"}, "roomPrefix": {"type": "string", "description": "The prefix of the room"}}, "required": ["title", "severity", "roomPrefix"]}`)), []string{"create_incident.severity warn"}},
		{"a severity the tool's description explains", UnexplainedValuesRule(), testcat.List(testcat.Tool("create_incident", "Create a new incident. The severity is one of the levels list_severities returns, e.g. critical.", `{"type": "object", "properties": {"title": {"type": "string", "description": "The title of the incident"}, "severity": {"type": "string", "description": "The severity of the incident"}, "roomPrefix": {"type": "string", "description": "The prefix of the room"}}, "required": ["title", "severity", "roomPrefix"]}`)), nil},
		{"a type listed in the description may be free text", UnexplainedValuesRule(), testcat.List(testcat.Tool("generate_contract", "Generates a contract given involved parties, contract type and location.", `{"type": "object", "properties": {"parties": {"type": "array", "items": {"type": "string"}, "description": "Parties involved."}, "contract_type": {"type": "string", "description": "Type of the contract."}, "location": {"type": "string", "description": "Where it applies."}}, "required": ["parties", "contract_type", "location"]}`)), nil},
		{"a closed set with an enum", UnexplainedValuesRule(), testcat.List(testcat.Tool("t", testcat.Long, `{"type": "object", "properties": {"level": {"type": "string", "enum": ["a"]}}, "required": ["level"]}`)), nil},

		{"an object that allows no keys", SchemaContradictsRule(), testcat.List(testcat.Tool("act", testcat.Long, props(`"variables": {"type": "object", "properties": {}, "additionalProperties": false, "description": "Pass the variable keys used in the template"}`))), []string{"act.variables warn"}},
		{"a list described, a string wanted", SchemaContradictsRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"types": {"type": "string", "description": "List of resource types"}`))), []string{"t.types warn"}},
		{"a comma-separated list in a string", SchemaContradictsRule(), testcat.List(testcat.Tool("t", testcat.Long, props(`"types": {"type": "string", "description": "List of resource types, comma-separated"}`))), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ruleFindings(t, c.rule, c.src); !slices.Equal(got, c.want) {
				t.Errorf("findings = %q, want %q", got, c.want)
			}
		})
	}
}

// The sets: reference is the seed's pack with the seed's checks; all
// holds every recommended rule and the opt-in ones; recommended holds no
// opt-in rule; each id keeps one meaning in every set.
func TestRuleSets(t *testing.T) {
	ids := func(rs []Rule) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	ref := ids(ReferenceRules())
	want := []string{RuleDuplicateName, RuleDescription, RuleSaysWhatNotWhen, RuleEnumInProse, RuleOptionalParam, RuleDeclarationRefused,
		RulePatternNotECMA, RuleNameLimits, RuleSchemaNotObject, RuleRequiredUndeclared, RuleEnumTypeMismatch}
	if !slices.Equal(ref, want) {
		t.Errorf("reference = %v, want %v", ref, want)
	}
	all, rec := AllRules(), RecommendedRules()
	for _, r := range rec {
		if r.Tier != TierRecommended {
			t.Errorf("recommended holds %s of tier %s", r.ID, r.Tier)
		}
	}
	optIn := 0
	for _, r := range all {
		if r.Tier == TierOptIn {
			optIn++
		} else if !slices.Contains(ids(rec), r.ID) {
			t.Errorf("%s is in all but not recommended", r.ID)
		}
	}
	if optIn == 0 || len(all) != len(rec)+optIn {
		t.Errorf("all %d rules, recommended %d, opt-in %d", len(all), len(rec), optIn)
	}
	for _, id := range ref {
		if !slices.Contains(ids(all), id) {
			t.Errorf("reference rule %s has no recommended or opt-in check", id)
		}
	}
	for _, s := range RuleSets {
		if got, err := ParseRuleSet(string(s)); err != nil || got != s {
			t.Errorf("ParseRuleSet(%s) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseRuleSet("strict"); err == nil || !strings.Contains(err.Error(), "recommended, reference, all") {
		t.Errorf("ParseRuleSet(strict) error %v", err)
	}
}

// QuantityOf reads the description's unit into the declaration even when
// the rule has nothing to say: the explorer suggests it for a value that
// fails.
func TestQuantityDeclarationFromDescription(t *testing.T) {
	parse := func(src string) *jsonv.Value {
		v, err := jsonv.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	s := parse(`{"type": "number", "description": "Start of the queried time period, seconds since the Unix epoch."}`)
	q, ok := QuantityOf("from", s, []string{"from", "to", "query"})
	if !ok || q.Unstated || q.Partner != "to" || !strings.Contains(q.Declaration, `"as": "epoch-s"`) || !strings.Contains(q.Said, "seconds since the Unix epoch") {
		t.Errorf("QuantityOf = %+v, %v", q, ok)
	}
	ms := parse(`{"type": "integer", "description": "End, in milliseconds"}`)
	if q, _ := QuantityOf("end_time", ms, []string{"start_time", "end_time"}); !strings.Contains(q.Declaration, `"as": "epoch-ms"`) || !strings.Contains(q.Declaration, `"from": {"argument": "start_time"`) {
		t.Errorf("declaration %s", q.Declaration)
	}
}

// An argument the tool's declarations rule says what its omission does
// and how it is written: neither rule asks for it again.
func TestDeclaredArgumentsAreSaid(t *testing.T) {
	src := testcat.List(`{"name": "hist", "description": "` + testcat.Long + `",
  "inputSchema": {"type": "object", "properties": {"window": {"type": "string", "description": "How far back"}, "since": {"type": "string"}}},
  "askOrAssume": {"window": {"assume": "24h"}},
  "period": {"argument": "window", "spelling": "lookback"}}`)
	if got := ruleFindings(t, OmissionRule(), src); !slices.Equal(got, []string{"hist.since warn"}) {
		t.Errorf("optional-param-undocumented = %q, want since only", got)
	}
	if got := ruleFindings(t, QuantityUnitRule(), src); !slices.Equal(got, []string{"hist.since warn"}) {
		t.Errorf("quantity-unit-unstated = %q, want since only", got)
	}
}
