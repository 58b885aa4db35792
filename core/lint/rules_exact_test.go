package lint

import (
	"encoding/json"
	"slices"
	"testing"

	"toolscope/core/internal/testcat"
)

// The exact checks on the shapes reviewers would act on, and on the
// near-misses that are fine.
func TestExactChecks(t *testing.T) {
	schema := func(p, req string) string {
		return `{"type": "object", "properties": {` + p + `}, "required": [` + req + `]}`
	}
	cases := []struct {
		name string
		rule Rule
		src  string
		want []string
	}{
		// required-param-impossible
		{"an empty enum", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"project": {"type": "string", "enum": []}`, `"project"`))), []string{"t.project error"}},
		{"a list that needs an entry none can be", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"components": {"type": "array", "items": {"type": "string", "enum": []}, "minItems": 1}`, `"components"`))), []string{"t.components error"}},
		{"a list that can only be empty", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"tags": {"type": "array", "items": false}`, `"tags"`))), []string{"t.tags warn"}},
		{"a list of valid entries", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}, "minItems": 1}`, `"tags"`))), nil},
		{"a const the type rejects", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"v": {"type": "integer", "const": "2"}`, `"v"`))), []string{"t.v error"}},
		{"bounds that do not meet", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"n": {"type": "integer", "minimum": 10, "maximum": 1}`, `"n"`))), []string{"t.n error"}},
		{"an empty type list", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"n": {"type": []}`, `"n"`))), []string{"t.n error"}},
		{"an empty enum in a required field", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"data": {"type": "object", "properties": {"kind": {"type": "string", "enum": []}}, "required": ["kind"]}`, `"data"`))), []string{"t.data.kind error"}},
		{"an empty enum in an optional field", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"data": {"type": "object", "properties": {"kind": {"type": "string", "enum": []}}}`, `"data"`))), nil},
		{"an optional one can be left out", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"project": {"type": "string", "enum": []}`, ``))), nil},
		{"a const of its type", RequiredImpossibleRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"v": {"type": "string", "const": "2"}`, `"v"`))), nil},

		// required-said-optional
		{"required but defaulted", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("list_tables", testcat.Long, schema(`"schemas": {"type": "array", "items": {"type": "string"}, "description": "Schemas to include. Defaults to all schemas."}`, `"schemas"`))), []string{"list_tables.schemas warn"}},
		{"an entry's default is not the list's", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("push_files", testcat.Long, schema(`"files": {"type": "array", "items": {"type": "object"}, "description": "Files to push. Each entry defaults to action 'create'."}`, `"files"`))), nil},
		{"a default said of a field, on a line under a bullet", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("stage_change", testcat.Long, schema(`"params": {"type": "object", "description": "Parameters for the operation:\n- CREATE_TABLE: { tableName, access? }\n  access sets up grants:\n  If access is omitted, defaults to \"owner\".\n- DROP_TABLE: { tableName }"}`, `"params"`))), nil},
		{"an indented line with no bullet above is the parameter's", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"level": {"type": "string", "description": "Level to return.\n  Defaults to info."}`, `"level"`))), []string{"t.level warn"}},
		{"a count per page still defaults", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"per_page": {"type": "integer", "description": "Items per page, defaults to 20"}`, `"per_page"`))), []string{"t.per_page warn"}},
		{"if not provided, ask: where the value comes from", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"folder_id": {"type": "string", "description": "The folder's ID. If not provided, ask the user which folder to use."}`, `"folder_id"`))), nil},
		{"if not provided, all are returned: a contradiction", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"status": {"type": "string", "description": "Filter tests by status. If not provided, all tests are returned."}`, `"status"`))), []string{"t.status warn"}},
		{"required but optional", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"device": {"type": "string", "description": "ID of the device (Optional)"}`, `"device"`))), []string{"t.device warn"}},
		{"required but omittable", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"parent": {"type": "string", "description": "The parent, if a subproject; otherwise it can be omitted."}`, `"parent"`))), []string{"t.parent warn"}},
		{"required but omit to", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"region": {"type": "string", "description": "Omit to use the account's default region."}`, `"region"`))), []string{"t.region warn"}},
		{"required but leave empty", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"branch": {"type": "string", "description": "Branch to deploy; leave empty for the default branch."}`, `"branch"`))), []string{"t.branch warn"}},
		{"required but may be left blank", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"tag": {"type": "string", "description": "Image tag. Can be left blank to deploy latest."}`, `"tag"`))), []string{"t.tag warn"}},
		{"required but if unspecified", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"replicas": {"type": "integer", "description": "How many replicas. If unspecified, 1 is used."}`, `"replicas"`))), []string{"t.replicas warn"}},
		{"required but not required", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"when": {"type": "string", "description": "Time to send it at. Set 0 if not required."}`, `"when"`))), []string{"t.when warn"}},
		{"required but a default is used", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"model": {"type": "string", "description": "Model to run. The default model will be used when this is empty."}`, `"model"`))), []string{"t.model warn"}},
		{"required but falls back", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"cwd": {"type": "string", "description": "Working directory; falls back to the project root."}`, `"cwd"`))), []string{"t.cwd warn"}},
		{"required but Default 1", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("hotel.find", testcat.Long, schema(`"stars": {"type": "integer", "description": "Minimum number of stars the hotel should have. Default 1"}`, `"stars"`))), []string{"hotel.find.stars warn"}},
		{"never use a default is an order, not a default", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"kind": {"type": "string", "enum": ["web", "app"], "description": "The integration kind. Do not proceed without an explicit selection. Never use a default value."}`, `"kind"`))), nil},
		{"a default in a bullet about one value", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"hook": {"type": "string", "enum": ["BaseHook", "BaseCurve"], "description": "The hook. Available hooks:\n - BaseHook: the base.\n - BaseCurve: no fee mechanism by default."}`, `"hook"`))), nil},
		{"a bullet list does not hide the parameter's own default", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"hook": {"type": "string", "description": "The hook, by default BaseHook. Available hooks:\n - BaseHook: the base."}`, `"hook"`))), []string{"t.hook warn"}},
		{"an empty value is not an omission", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"labels": {"type": "array", "items": {"type": "string"}, "description": "Labels to set; if empty, every label is removed."}`, `"labels"`))), nil},
		{"omit inside a sentence is no leave to omit", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"fields": {"type": "string", "description": "Fields to keep; the server will omit for privacy any field not listed."}`, `"fields"`))), nil},
		{"where the value comes from is no default", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"env": {"type": "string", "description": "The environment. If not provided in context, find it in .azure."}`, `"env"`))), nil},
		{"an optional one may say so", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"limit": {"type": "integer", "description": "Optional. Defaults to 10."}`, ``))), nil},
		{"a field's note inside the description", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("import_model", testcat.Long, schema(`"source_ref": {"type": "object", "description": "Source reference: repo_id (string, required), commit_sha (string, optional; if omitted, the latest)"}`, `"source_ref"`))), nil},
		{"a parenthesis about the parameter still counts", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"limit": {"type": "integer", "description": "Most rows (optional, 10 if omitted)"}`, `"limit"`))), []string{"t.limit warn"}},
		{"how the value is read, in parentheses", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("search", testcat.Long, schema(`"pattern": {"type": "string", "description": "The search pattern (regex by default)"}`, `"pattern"`))), nil},
		{"optional words about something else", RequiredSaidOptionalRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"sql": {"type": "string", "description": "The query; optional clauses such as LIMIT are allowed"}`, `"sql"`))), nil},

		// alternatives-none-required
		{"issueId or issueKey, neither required", AlternativesNoneRule(), testcat.List(testcat.Tool("get_issue", "Get one issue with its comments.", schema(`"issueId": {"type": "string"}, "issueKey": {"type": "string"}`, ``))), []string{"get_issue.issueId warn"}},
		{"behind a server's prefix", AlternativesNoneRule(), testcat.List(testcat.Tool("jira_get_issue", "Get one issue with its comments.", schema(`"issueId": {"type": "string"}, "issueKey": {"type": "string"}`, ``))), []string{"jira_get_issue.issueId warn"}},
		{"the text says either", AlternativesNoneRule(), testcat.List(testcat.Tool("get_issue", "Get one issue. Give either issueId or issueKey.", schema(`"issueId": {"type": "string"}, "issueKey": {"type": "string"}`, ``))), nil},
		{"the schema says anyOf", AlternativesNoneRule(), testcat.List(testcat.Tool("get_issue", testcat.Long, `{"type": "object", "properties": {"issueId": {"type": "string"}, "issueKey": {"type": "string"}}, "anyOf": [{"required": ["issueId"]}, {"required": ["issueKey"]}]}`)), nil},
		{"a search's ids are filters", AlternativesNoneRule(), testcat.List(testcat.Tool("search_issues", testcat.Long, schema(`"issueId": {"type": "string"}, "issueKey": {"type": "string"}`, ``))), nil},
		{"a fallback ranks them", AlternativesNoneRule(), testcat.List(testcat.Tool("get_network_request", "Get request details by ID. URL lookup as fallback.", schema(`"id": {"type": "string"}, "url": {"type": "string"}`, ``))), nil},
		{"used if the other is not provided", AlternativesNoneRule(), testcat.List(testcat.Tool("get_component_details", testcat.Long, schema(`"componentKey": {"type": "string", "description": "The component key"}, "componentName": {"type": "string", "description": "The component name (used if key not provided)"}`, ``))), nil},
		{"ids of another thing", AlternativesNoneRule(), testcat.List(testcat.Tool("get_issue", testcat.Long, schema(`"userId": {"type": "string"}, "userName": {"type": "string"}`, ``))), nil},
		{"another parameter required beside them", AlternativesNoneRule(), testcat.List(testcat.Tool("get_issue", testcat.Long, schema(`"issueId": {"type": "string"}, "issueKey": {"type": "string"}, "site": {"type": "string"}`, `"site"`))), []string{"get_issue.issueId warn"}},
		{"an update's new name and slug", AlternativesNoneRule(), testcat.List(testcat.Tool("update_project", testcat.Long, schema(`"projectSlug": {"type": "string"}, "name": {"type": "string", "description": "The new name for the project"}, "slug": {"type": "string", "description": "The new slug"}`, `"projectSlug"`))), nil},
		{"found by a required slug, renamed by name and slug", AlternativesNoneRule(), testcat.List(testcat.Tool("update_project", testcat.Long, schema(`"projectSlug": {"type": "string"}, "name": {"type": "string"}, "slug": {"type": "string"}`, `"projectSlug"`))), nil},
		{"an update found by optional id or key, renamed by name and key", AlternativesNoneRule(), testcat.List(testcat.Tool("update_project", testcat.Long, schema(`"projectId": {"type": "number"}, "projectKey": {"type": "string"}, "name": {"type": "string"}, "key": {"type": "string"}`, ``))), []string{"update_project.projectId warn"}},
		{"one of them required", AlternativesNoneRule(), testcat.List(testcat.Tool("get_issue", testcat.Long, schema(`"issueId": {"type": "string"}, "issueKey": {"type": "string"}, "site": {"type": "string"}`, `"site", "issueKey"`))), nil},

		// required-param-unclear
		{"an undescribed slug", RequiredUnclearRule(), testcat.List(testcat.Tool("get_breed", testcat.Long, schema(`"slug": {"type": "string"}`, `"slug"`))), []string{"get_breed.slug warn"}},
		{"a key beside its value is a pair's", RequiredUnclearRule(), testcat.List(testcat.Tool("bulk_env_update", testcat.Long, schema(`"key": {"type": "string"}, "value": {"type": "string"}`, `"key", "value"`))), nil},
		{"a license tool's key is the license key", RequiredUnclearRule(), testcat.List(testcat.Tool("licenses-validate", testcat.Long, schema(`"key": {"type": "string"}, "instance_id": {"type": "string"}`, `"key", "instance_id"`))), nil},
		{"a key beside an instance is not", RequiredUnclearRule(), testcat.List(testcat.Tool("validate", testcat.Long, schema(`"key": {"type": "string"}, "instance_id": {"type": "string"}`, `"key", "instance_id"`))), []string{"validate.key warn"}},
		{"an undescribed to", RequiredUnclearRule(), testcat.List(testcat.Tool("send_sms", testcat.Long, schema(`"to": {"type": "string"}`, `"to"`))), []string{"send_sms.to warn"}},
		{"a prefix described by its name", RequiredUnclearRule(), testcat.List(testcat.Tool("create_incident", testcat.Long, schema(`"roomPrefix": {"type": "string", "description": "The prefix of the room to create the incident in"}`, `"roomPrefix"`))), []string{"create_incident.roomPrefix warn"}},
		{"a model described by its name", RequiredUnclearRule(), testcat.List(testcat.Tool("ai_embeddings", testcat.Long, schema(`"model": {"type": "string", "description": "The embedding model to use"}`, `"model"`))), []string{"ai_embeddings.model warn"}},
		{"a key described by its object", RequiredUnclearRule(), testcat.List(testcat.Tool("kv_get", testcat.Long, schema(`"key": {"type": "string", "description": "The key to retrieve"}`, `"key"`))), nil},
		{"a model described beyond its name", RequiredUnclearRule(), testcat.List(testcat.Tool("ai_embeddings", testcat.Long, schema(`"model": {"type": "string", "description": "A Workers AI model id, e.g. @cf/baai/bge-base-en-v1.5"}`, `"model"`))), nil},
		{"a name that says what it takes", RequiredUnclearRule(), testcat.List(testcat.Tool("get_issue", testcat.Long, schema(`"issue_id": {"type": "string"}`, `"issue_id"`))), nil},
		{"an optional one", RequiredUnclearRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"slug": {"type": "string"}`, ``))), nil},
		{"a language described by its name", RequiredUnclearRule(), testcat.List(testcat.Tool("create_type", testcat.Long, schema(`"lang": {"type": "string", "description": "Language"}`, `"lang"`))), []string{"create_type.lang warn"}},
		{"a language given in a form", RequiredUnclearRule(), testcat.List(testcat.Tool("create_type", testcat.Long, schema(`"lang": {"type": "string", "description": "Language code, e.g. zh-CN or en-US"}`, `"lang"`))), nil},
		{"a required field of a required object", RequiredUnclearRule(), testcat.List(testcat.Tool("create_type", testcat.Long, schema(`"data": {"type": "object", "properties": {"code": {"type": "string"}, "note": {"type": "string"}}, "required": ["code"]}`, `"data"`))), []string{"create_type.data.code warn"}},
		{"a required field of a required array's items", RequiredUnclearRule(), testcat.List(testcat.Tool("create_type", testcat.Long, schema(`"data": {"type": "object", "properties": {"name": {"type": "array", "items": {"type": "object", "properties": {"lang": {"type": "string", "description": "Language"}, "text": {"type": "string", "description": "The name in that language"}}, "required": ["lang", "text"]}}}, "required": ["name"]}`, `"data"`))), []string{"create_type.data.name.lang warn"}},
		{"a field an enclosing field's example shows", RequiredUnclearRule(), testcat.List(testcat.Tool("generate_graph", testcat.Long, schema(`"data": {"type": "object", "description": "Nodes and edges, such as { edges: [{ source: 'a', target: 'b' }] }", "properties": {"edges": {"type": "array", "items": {"type": "object", "properties": {"source": {"type": "string"}, "target": {"type": "string"}}, "required": ["source", "target"]}}}, "required": ["edges"]}`, `"data"`))), nil},
		{"a field of an optional object", RequiredUnclearRule(), testcat.List(testcat.Tool("create_type", testcat.Long, schema(`"data": {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]}`, ``))), nil},
		{"an optional field of a required object", RequiredUnclearRule(), testcat.List(testcat.Tool("create_type", testcat.Long, schema(`"data": {"type": "object", "properties": {"code": {"type": "string"}}}`, `"data"`))), nil},
		{"an enum lists the values", RequiredUnclearRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"type": {"type": "string", "enum": ["a", "b"]}`, `"type"`))), nil},
		{"values-unexplained speaks for a type", RequiredUnclearRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"type": {"type": "string"}`, `"type"`))), nil},
		{"the tool's description names it", RequiredUnclearRule(), testcat.List(testcat.Tool("t", "Get a breed; `slug` is the breed's URL name.", schema(`"slug": {"type": "string"}`, `"slug"`))), nil},

		// param-description-copied
		{"a latitude described as the longitude", DescriptionCopiedRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"latitude": {"type": "string", "description": "User's longitude (optional)"}, "longitude": {"type": "string", "description": "User's longitude (optional)"}`, ``))), []string{"t.latitude warn"}},
		{"a shared description naming neither", DescriptionCopiedRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"from": {"type": "string", "description": "A date, YYYY-MM-DD"}, "to": {"type": "string", "description": "A date, YYYY-MM-DD"}`, ``))), nil},
		{"different descriptions", DescriptionCopiedRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"latitude": {"type": "string", "description": "User's latitude"}, "longitude": {"type": "string", "description": "User's longitude"}`, ``))), nil},
		{"an id by its other name", DescriptionCopiedRule(), testcat.List(testcat.Tool("t", testcat.Long, schema(`"id": {"type": "string", "description": "The UUID of the investigation"}, "investigationId": {"type": "string", "description": "The UUID of the investigation"}`, ``))), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ruleFindings(t, c.rule, c.src); !slices.Equal(got, c.want) {
				t.Errorf("findings = %q, want %q", got, c.want)
			}
		})
	}
}

// A finding about several parameters names them all in params, and the
// first in param; a finding about one carries no params.
func TestFindingParams(t *testing.T) {
	src := testcat.List(testcat.Tool("get_issue", "Get one issue with its comments.", `{"type": "object", "properties": {"issueId": {"type": "string"}, "issueKey": {"type": "string"}}}`),
		testcat.Tool("t", testcat.Long, `{"type": "object", "properties": {"project": {"type": "string", "enum": []}}, "required": ["project"]}`))
	opts := DefaultOptions()
	opts.Rules = []Rule{AlternativesNoneRule(), RequiredImpossibleRule()}
	fs := Structural(testcat.Parse(t, src), opts)
	if len(fs) != 2 {
		t.Fatalf("%d findings, want 2: %+v", len(fs), fs)
	}
	data, err := json.Marshal(fs)
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		Param  string   `json:"param"`
		Params []string `json:"params"`
	}
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if got[0].Param != "issueId" || !slices.Equal(got[0].Params, []string{"issueId", "issueKey"}) {
		t.Errorf("several: param %q params %q, want issueId and both", got[0].Param, got[0].Params)
	}
	if got[1].Param != "project" || got[1].Params != nil {
		t.Errorf("one: param %q params %q, want project and no params", got[1].Param, got[1].Params)
	}
}
