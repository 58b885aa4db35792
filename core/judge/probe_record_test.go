package judge

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// probedTools are three tools and a probe of them: a's five requests, two
// to b; b's five, one to a and one to no tool; c's two, none astray.
func probedTools() ([]Tool, Probe) {
	tools := []Tool{tool("a", "does a"), tool("b", "does b"), tool("c", "does c")}
	var cases []ProbeCase
	add := func(meant string, picks ...string) {
		for i, p := range picks {
			cases = append(cases, ProbeCase{Tool: meant, Request: meant + " request " + string(rune('1'+i)), Picked: p, From: FromWritten})
		}
	}
	add("a", "a", "b", "b", "a", "a")
	add("b", "b", "a", NoPick, "b", "b")
	add("c", "c", "c")
	return tools, Tabulate("openai:m", []string{"a", "b", "c"}, cases)
}

func TestProbeRecordRoundTrip(t *testing.T) {
	tools, p := probedTools()
	date := time.Date(2026, 3, 10, 12, 30, 0, 0, time.UTC)
	rec := NewProbeRecord(p, tools, date)
	path := filepath.Join(t.TempDir(), ProbeFileName)
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := ReadProbeFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Model != "openai:m" || !back.Date.Equal(date) || !reflect.DeepEqual(back.Tools, rec.Tools) || !reflect.DeepEqual(back.Cases, p.Cases) {
		t.Fatalf("read back %+v\nwrote     %+v", back, rec)
	}
	if back.Tools[0].Texts != tools[0].TextHash() || !strings.HasPrefix(back.Tools[0].Texts, "sha256:") {
		t.Errorf("tool a's texts %q; want its text hash %q", back.Tools[0].Texts, tools[0].TextHash())
	}
	// One case a line, for diffs.
	if n := strings.Count(string(rec.Encode()), `"request"`); n != len(p.Cases) || strings.Count(string(rec.Encode()), "\n") < len(p.Cases)+len(tools) {
		t.Errorf("not one case a line:\n%s", rec.Encode())
	}
	if got, err := ReadProbeFile(filepath.Join(t.TempDir(), "none.json")); got != nil || err != nil {
		t.Errorf("a missing file: %v, %v; want nothing and no error", got, err)
	}
	// A symlink at the path is refused, as the judgments file's is.
	link := filepath.Join(t.TempDir(), "link.json")
	if err := os.Symlink(path, link); err == nil {
		if err := rec.WriteFile(link); err == nil {
			t.Error("wrote through a symlink")
		}
	}
}

// The rate of a pair counts both directions over both tools' requests.
func TestProbeRecordRate(t *testing.T) {
	tools, p := probedTools()
	rec := NewProbeRecord(p, tools, time.Now())
	for _, tc := range []struct {
		a, b  string
		ok    bool
		short string
		words [2]string
	}{
		{"a", "b", true, "3/10", [2]string{"2 of 5 requests for a went to b", "1 of 5 requests for b went to a"}},
		{"b", "a", true, "3/10", [2]string{"1 of 5 requests for b went to a", "2 of 5 requests for a went to b"}},
		{"a", "c", true, "0/7", [2]string{"0 of 5 requests for a went to c", "0 of 2 requests for c went to a"}},
		{"a", "d", false, "", [2]string{}},
		{"a", "a", false, "", [2]string{}},
	} {
		got, ok := rec.Rate(tc.a, tc.b)
		if ok != tc.ok {
			t.Errorf("%s, %s: measured %v; want %v", tc.a, tc.b, ok, tc.ok)
			continue
		}
		if ok && (got.Short() != tc.short || got.Sentences() != tc.words) {
			t.Errorf("%s, %s: %q %q; want %q %q", tc.a, tc.b, got.Short(), got.Sentences(), tc.short, tc.words)
		}
	}
	if n := rec.MostRequests(); n != 10 {
		t.Errorf("most requests of a pair %d; want 10", n)
	}
	var none *ProbeRecord
	if _, ok := none.Rate("a", "b"); ok {
		t.Error("no record measured a pair")
	}
}

// A pair whose tool's text changed since the probe is stale; a change to
// a third tool leaves it current.
func TestProbeRecordStale(t *testing.T) {
	tools, p := probedTools()
	rec := NewProbeRecord(p, tools, time.Now())
	a, b, c := tools[0], tools[1], tools[2]
	edited := b
	edited.Description = "does b, and says when"
	schema := a
	schema.InputSchema = []byte(`{"type":"object"}`)
	for _, tc := range []struct {
		name  string
		x, y  Tool
		stale bool
	}{
		{"unchanged", a, b, false},
		{"description changed", a, edited, true},
		{"schema changed", schema, b, true},
		{"a third tool changed", a, c, false},
	} {
		got, ok := rec.RateOf(tc.x, tc.y)
		if !ok || got.Stale != tc.stale {
			t.Errorf("%s: measured %v stale %v; want stale %v", tc.name, ok, got.Stale, tc.stale)
		}
		if tc.stale && !strings.HasSuffix(got.Short(), "*") {
			t.Errorf("%s: %q is not marked stale", tc.name, got.Short())
		}
	}
}

func TestParseProbeRecordErrors(t *testing.T) {
	good := `{"probe": 1, "model": "openai:m", "date": "2026-03-10T12:00:00Z",
 "tools": [{"name": "a", "texts": "sha256:00"}, {"name": "b", "texts": "sha256:11"}],
 "cases": [{"tool": "a", "request": "r", "picked": "b", "from": "written"}]}`
	if _, err := ParseProbeRecord([]byte(good)); err != nil {
		t.Fatalf("good record: %v", err)
	}
	for _, tc := range []struct{ in, err string }{
		{``, "1:1: no JSON value"},
		{`[]`, "1:1: the record is an array, want an object"},
		{`{"probe": 2}`, `1:11: "probe" must be 1`},
		{strings.Replace(good, `"model"`, `"modl"`, 1), `1:14: the record: unknown field "modl"`},
		{strings.Replace(good, `"openai:m"`, `""`, 1), `1:23: "model" is empty`},
		{strings.Replace(good, `"2026-03-10T12:00:00Z"`, `"yesterday"`, 1), `1:43: "date" "yesterday" is not an RFC 3339 time`},
		{strings.Replace(good, `"sha256:11"`, `"11"`, 1), `2:72: tools[1]: "texts" must be`},
		{strings.Replace(good, `{"name": "b"`, `{"name": "a"`, 1), `2:49: tools[1]: tool "a" is listed twice`},
		{strings.Replace(good, `"tool": "a"`, `"tool": "z"`, 1), `3:21: cases[0]: tool "z" is not among`},
		{strings.Replace(good, `"picked": "b"`, `"picked": 3`, 1), `3:52: "picked" is a number, want a string`},
		{strings.Replace(good, `"written"`, `"guessed"`, 1), `3:65: cases[0]: "from" must be one of`},
		{good[:strings.Index(good, `"cases"`)] + `"cases": {}}`, `3:11: "cases" is an object, want an array`},
		{strings.Replace(good, `"request": "r"`, `"request": "r", "request": "s"`, 1), `3:12: cases[0]: "request" is given twice`},
	} {
		_, err := ParseProbeRecord([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%.60q: err %v; want %q", tc.in, err, tc.err)
		}
	}
	path := filepath.Join(t.TempDir(), ProbeFileName)
	os.WriteFile(path, []byte("{\n  \"probe\": 1,\n  \"model\": 7\n}"), 0o644)
	if _, err := ReadProbeFile(path); err == nil || err.Error() != "probe "+path+`:3:12: "model" is a number, want a string` {
		t.Errorf("a bad file: %v; want one line naming the file, the line and the column", err)
	}
}

// A record keeps how the requests were sent, each case's repeat, the
// model's arguments and their issues, and negatives; older records,
// without them, still read.
func TestProbeRecordKeepsArgumentsRepeatsAndNegatives(t *testing.T) {
	tools := []Tool{tool("a", "does a"), tool("b", "does b")}
	cases := []ProbeCase{
		{Tool: "a", Request: "r1", Picked: "a", From: FromExamples, Repeat: 1, Arguments: []byte(`{"q":"x"}`), ArgumentIssues: []string{}},
		{Tool: "a", Request: "r1", Picked: "b", From: FromExamples, Repeat: 2, Arguments: []byte(`"not json"`), ArgumentIssues: []string{"the arguments: expected object, got string"}},
		{Tool: NoPick, Request: "joke", Picked: NoPick, From: FromExamples, Repeat: 1, ArgumentIssues: []string{}},
		{Tool: NoPick, Request: "joke", Picked: "a", From: FromExamples, Repeat: 2, Arguments: []byte(`{}`), ArgumentIssues: []string{}},
	}
	p := Tabulate("openai:m", []string{"a", "b"}, cases)
	p.ToolChoice, p.Seed = ChoiceAuto, 1<<63+5
	rec := NewProbeRecord(p, tools, time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC))
	back, err := ParseProbeRecord(rec.Encode())
	if err != nil {
		t.Fatalf("%v\n%s", err, rec.Encode())
	}
	if !reflect.DeepEqual(back.Cases, cases) || back.Choice != ChoiceAuto || back.Repeats != 2 || back.Seed != 1<<63+5 {
		t.Fatalf("read back %+v %q %d %d\n%s", back.Cases, back.Choice, back.Repeats, back.Seed, rec.Encode())
	}
	for _, tc := range []struct{ edit, err string }{
		{`"repeats": 2`, `"repeats": 0`},
		{`"toolChoice": "auto"`, `"toolChoice": "none"`},
		{`"repeat":2`, `"repeat":"2"`},
		{`"argumentIssues":[]`, `"argumentIssues":[1]`},
		{`"seed": 9223372036854775813`, `"seed": -1`},
	} {
		bad := strings.Replace(string(rec.Encode()), tc.edit, tc.err, 1)
		if bad == string(rec.Encode()) {
			t.Fatalf("%s is not in the record", tc.edit)
		}
		if _, err := ParseProbeRecord([]byte(bad)); err == nil {
			t.Errorf("%s read without an error", tc.err)
		}
	}
}

func FuzzParseProbeRecord(f *testing.F) {
	tools, p := probedTools()
	f.Add(NewProbeRecord(p, tools, time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)).Encode())
	f.Add([]byte(`{"probe": 1, "model": "m", "date": "2026-03-10T12:00:00Z", "tools": [], "cases": []}`))
	f.Add([]byte(`{"probe": 1, "tools": [{"name": "a", "name": "b"}]}`))
	f.Add([]byte(`{"probe": 1, "model": "m", "date": "2026-03-10T12:00:00Z", "toolChoice": "auto", "repeats": 2, "seed": 18446744073709551615, "tools": [{"name": "a", "texts": "sha256:0"}], "cases": [{"tool": "(none)", "request": "r", "picked": "a", "repeat": 2, "arguments": {"q": [1, "\u0007"]}, "argumentIssues": ["x"]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseProbeRecord(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a two-line error: %q", err)
			}
			return
		}
		// What was read writes back to the same record.
		again, err := ParseProbeRecord(r.Encode())
		if err != nil {
			t.Fatalf("the record read does not read back: %v\n%s", err, r.Encode())
		}
		if !reflect.DeepEqual(again.Tools, r.Tools) || !reflect.DeepEqual(again.Cases, r.Cases) || again.Model != r.Model || !again.Date.Equal(r.Date) || again.Choice != r.Choice || again.Repeats != r.Repeats || again.Seed != r.Seed {
			t.Fatalf("round trip changed the record")
		}
		for _, c := range r.Cases {
			if _, ok := r.texts[c.Tool]; !ok && c.Tool != NoPick {
				t.Fatalf("case for unlisted tool %q accepted", c.Tool)
			}
		}
	})
}

// The summary a plain lint reads holds what the score and the page take,
// the same measures as the whole record, at a fraction of the
// allocations: no tree of the document, no request or arguments kept.
func TestProbeSummary(t *testing.T) {
	tools, p := probedTools()
	for k := range p.Cases {
		p.Cases[k].Arguments = []byte(`{"query": "a long query", "filters": {"a": [1, 2, 3], "b": "x", "c": {"d": true}}, "limit": 10}`)
	}
	for range 8 {
		p.Cases = append(p.Cases, p.Cases...)
	}
	rec := NewProbeRecord(p, tools, time.Date(2026, 3, 10, 12, 30, 0, 0, time.UTC))
	path := filepath.Join(t.TempDir(), ProbeFileName)
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	whole, err := ReadFoundProbeFile(path)
	if err != nil {
		t.Fatal(err)
	}
	summary, err := ReadFoundProbeSummary(path)
	if err != nil {
		t.Fatal(err)
	}
	if summary.Model != whole.Model || !summary.Date.Equal(whole.Date) || !reflect.DeepEqual(summary.Tools, whole.Tools) || len(summary.Cases) != len(whole.Cases) {
		t.Fatalf("summary %+v\nwhole %+v", summary, whole)
	}
	for _, pair := range [][2]Tool{{tools[0], tools[1]}, {tools[1], tools[2]}} {
		a, okA := summary.RateOf(pair[0], pair[1])
		b, okB := whole.RateOf(pair[0], pair[1])
		if okA != okB || a.Count() != b.Count() || a.Of() != b.Of() {
			t.Errorf("%s/%s: summary %v %d/%d, whole %v %d/%d", pair[0].Name, pair[1].Name, okA, a.Count(), a.Of(), okB, b.Count(), b.Of())
		}
	}
	light := testing.AllocsPerRun(3, func() { ReadFoundProbeSummary(path) })
	full := testing.AllocsPerRun(3, func() { ReadFoundProbeFile(path) })
	if light*4 > full {
		t.Errorf("the summary takes %.0f allocations, the whole record %.0f: want a quarter or less", light, full)
	}
	for _, bad := range []string{`{"probe": 2}`, "<<<<<<< HEAD\n{}", `{"probe": 1, "date": "yesterday"}`} {
		if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		if got, err := ReadFoundProbeSummary(path); got != nil || err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%q: %v, %v; want an error naming the file", bad, got, err)
		}
	}
}
