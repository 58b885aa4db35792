package calibration

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAUC(t *testing.T) {
	p := func(score float64, twin bool) Pair { return Pair{Score: score, Twin: twin} }
	tests := []struct {
		name  string
		pairs []Pair
		want  float64
	}{
		{"twins on top", []Pair{p(0.9, true), p(0.8, true), p(0.1, false), p(0.2, false)}, 1},
		{"twins at the bottom", []Pair{p(0.1, true), p(0.9, false)}, 0},
		{"all tied", []Pair{p(0.5, true), p(0.5, false), p(0.5, false)}, 0.5},
		{"one of two inverted", []Pair{p(0.9, true), p(0.5, false), p(0.4, true), p(0.1, false)}, 0.75},
		{"a tie counts half", []Pair{p(0.5, true), p(0.5, false), p(0.1, false)}, 0.75},
	}
	for _, tt := range tests {
		if got := AUC(tt.pairs); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: AUC %g, want %g", tt.name, got, tt.want)
		}
	}
	if !math.IsNaN(AUC([]Pair{p(1, true)})) {
		t.Error("AUC without negatives is not NaN")
	}
}

func TestVerdictTallyAndBestThreshold(t *testing.T) {
	pairs := []Pair{
		{Score: 0.9, Affinity: 0.9, Twin: true},
		{Score: 0.8, Affinity: 0.5, Twin: true}, // under the affinity floor
		{Score: 0.7, Affinity: 0.9, Twin: false},
		{Score: 0.6, Affinity: 0.9, Twin: true},
		{Score: 0.1, Affinity: 0.9, Twin: false},
	}
	c := Verdict{Threshold: 0.65, AffinityFloor: 0.75}.Tally(pairs)
	if c != (Counts{TP: 1, FP: 1, FN: 2}) {
		t.Errorf("tally %+v", c)
	}
	if c.Precision() != 0.5 || math.Abs(c.Recall()-1.0/3) > 1e-12 || c.F1() != 0.4 {
		t.Errorf("P %g R %g F1 %g", c.Precision(), c.Recall(), c.F1())
	}
	if (Counts{}).F1() != 0 {
		t.Error("F1 of nothing is not 0")
	}
	v, best := BestThreshold(pairs, 0.75)
	// 0.6 flags three with two twins (F1 4/6); 0.9 flags one twin (F1 2/4).
	if v.Threshold != 0.6 || best != (Counts{TP: 2, FP: 1, FN: 1}) {
		t.Errorf("best %v %+v", v, best)
	}
}

func TestLeaveOneSetOutPicksOnTheOthers(t *testing.T) {
	sets := [][]Pair{
		{{Score: 0.9, Twin: true}, {Score: 0.5}},
		{{Score: 0.8, Twin: true}, {Score: 0.4}},
		{{Score: 0.3, Twin: true}, {Score: 0.2}}, // its twins score lower than the others'
	}
	folds := LeaveOneSetOut([]string{"a", "b", "c"}, sets, math.Inf(-1))
	if folds[2].Held != "c" || folds[2].Picked.Threshold != 0.8 || folds[2].Counts != (Counts{FN: 1}) {
		t.Errorf("fold c: %+v", folds[2])
	}
	// Trained on b and c, 0.3 catches both twins for one false flag (F1
	// 0.8), and flags a's negative too.
	if folds[0].Picked.Threshold != 0.3 || folds[0].Counts != (Counts{TP: 1, FP: 1}) || folds[0].Trained.F1() != 0.8 {
		t.Errorf("fold a: %+v", folds[0])
	}
}

func writeCatalog(t *testing.T, dir, name string, tools ...string) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"tools":[`)
	for i, tool := range tools {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"name":"` + tool + `","description":"Does ` + tool + `."}`)
	}
	b.WriteString("]}")
	if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestMergeNamesTools(t *testing.T) {
	dir := t.TempDir()
	writeCatalog(t, dir, "neon", "list_projects", "run_sql")
	writeCatalog(t, dir, "supa-base", "list_projects", "list_projects", "execute_sql")
	set := Set{Name: "pg", Catalogs: []string{"neon", "supa-base"}, Groups: [][]string{{"neon:list_projects", "supa-base:list_projects"}}}

	cat, index, err := set.Merge(dir, AsServed)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range cat.Tools {
		names = append(names, tool.Name+"@"+tool.Server)
	}
	// Another server's name gets a trailing underscore; a repeat within
	// one server stays the duplicate it is.
	want := "list_projects@neon run_sql@neon list_projects_@supa-base list_projects_@supa-base execute_sql@supa-base"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("as served: %s\nwant %s", got, want)
	}
	if index["supa-base:execute_sql"] != 4 {
		t.Errorf("index %v", index)
	}

	cat, _, err = set.Merge(dir, Qualified)
	if err != nil {
		t.Fatal(err)
	}
	if cat.Tools[2].Name != "supa-base__list_projects" || cat.Tools[2].Index != 2 {
		t.Errorf("qualified: %s at %d", cat.Tools[2].Name, cat.Tools[2].Index)
	}

	set.Groups = append(set.Groups, []string{"neon:drop_database"})
	if _, _, err := set.Merge(dir, AsServed); err == nil || !strings.Contains(err.Error(), "neon:drop_database") {
		t.Errorf("a missing twin: %v", err)
	}
	set.Catalogs = append(set.Catalogs, "absent")
	if _, _, err := set.Merge(dir, AsServed); err == nil {
		t.Error("a missing catalog was accepted")
	}
}

func TestReadTwins(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "twins.json")
	for body, ok := range map[string]bool{
		`{"sets":[{"name":"a","catalogs":["x"],"groups":[["x:t"]]}]}`: true,
		`{"sets":[]}`: false,
		`not json`:    false,
	} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadTwins(path); (err == nil) != ok {
			t.Errorf("%s: err %v", body, err)
		}
	}
	if _, err := ReadTwins(filepath.Join(dir, "absent.json")); err == nil {
		t.Error("a missing file was accepted")
	}
}
