package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/similarity"
)

// TestSARIFCarriesFixes: a finding's fix is in SARIF as byte
// replacements that, made in the file, give what lint --fix writes; the
// log stays schema-valid.
func TestSARIFCarriesFixes(t *testing.T) {
	src := []byte("{\"tools\": [\n  {\"name\": \"math.sum\", \"description\": \"Adds numbers up and returns their sum.\",\n   \"inputSchema\": {\"type\": \"object\", \"properties\": {\"mode\": {\"type\": \"string\", \"description\": \"fast | exact\"}}}}\n]}\n")
	cat, err := catalog.Parse("cat.json", src)
	if err != nil {
		t.Fatal(err)
	}
	opts := lint.DefaultOptions()
	opts.Rules = lint.AllRules()
	r := lint.NewReport(cat, lint.Structural(cat, opts), similarity.Result{Scoring: similarity.ScoringRisk}, opts.Gate)
	var buf bytes.Buffer
	if err := WriteSARIF(&buf, r, cat, SARIFOptions{Rules: lint.AllRules()}); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	fixes := 0
	for _, res := range log.Runs[0].Results {
		var f *lint.Finding
		for i := range r.Structural {
			if r.Structural[i].Rule == res.RuleID && len(r.Structural[i].Fix) > 0 {
				f = &r.Structural[i]
			}
		}
		if f == nil {
			if len(res.Fixes) > 0 {
				t.Errorf("%s carries fixes with no fix in the finding", res.RuleID)
			}
			continue
		}
		if len(res.Fixes) != 1 || len(res.Fixes[0].ArtifactChanges) != 1 {
			t.Fatalf("%s: fixes %+v, want one change", res.RuleID, res.Fixes)
		}
		var edits []catalog.Edit
		for _, rep := range res.Fixes[0].ArtifactChanges[0].Replacements {
			edits = append(edits, catalog.Edit{Offset: rep.DeletedRegion.ByteOffset, Length: rep.DeletedRegion.ByteLength, Text: rep.InsertedContent.Text})
		}
		want, err := catalog.ApplyPatch(src, f.Fix)
		if err != nil {
			t.Fatal(err)
		}
		if got := catalog.ApplyEdits(src, edits); !bytes.Equal(got, want) {
			t.Errorf("%s: the replacements give\n%s\nwant\n%s", res.RuleID, got, want)
		}
		fixes++
	}
	if fixes != 2 {
		t.Errorf("%d results with fixes, want 2 (the rename and the enum)", fixes)
	}
	schema := compiledSARIFSchema(t)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Errorf("SARIF with fixes does not validate: %v", err)
	}
}
