package lint

import (
	"slices"
	"testing"

	"toolscope/core/jsonv"
)

var wordsCases = []string{
	"", "a", "sortDir", "SortDir", "getHTTPResponse", "list_projects", "page-size 10", "  spaced   out  ",
	"camelCaseID2Name", "x9Y", "ALLCAPS", "end.", "Returns the user's issues (max 100).", "a__b--c", "9lives",
}

// On ASCII text the fast split is the general one's.
func TestASCIIWordsOf(t *testing.T) {
	for _, s := range wordsCases {
		if got, want := asciiWordsOf(s), runeWordsOf(s); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
	if got := wordsOf("sortDir"); !slices.Equal(got, []string{"sort", "dir"}) {
		t.Errorf("sortDir: %q", got)
	}
}

func FuzzASCIIWordsOf(f *testing.F) {
	for _, s := range wordsCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isASCII(s) {
			return
		}
		if got, want := asciiWordsOf(s), runeWordsOf(s); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	})
}

// nameHas, which lowers no word, answers as the words wordsOf cuts.
func FuzzNameHas(f *testing.F) {
	for _, s := range wordsCases {
		f.Add(s, "dir")
	}
	f.Add("getHTTPResponse", "httpresponse")
	f.Add("Kelvin", "\u212aelvin")
	f.Fuzz(func(t *testing.T, name, w string) {
		words := []string{w, "id", "sort"}
		want := slices.ContainsFunc(wordsOf(name), func(x string) bool { return slices.Contains(words, x) })
		if got := nameHas(name, words...); got != want {
			t.Errorf("nameHas(%q, %q) = %v, want %v", name, words, got, want)
		}
	})
}

// properties hands out a schema's object-valued properties in order,
// nil when there are none, and an append to what it returns never
// writes into the schema.
func TestPropertiesShareNothingWritable(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   []string
	}{
		{`{"properties": {"a": {}, "b": {"type": "string"}}}`, []string{"a", "b"}},
		{`{"properties": {"a": 1, "b": {}, "c": "x", "d": {}}}`, []string{"b", "d"}},
		{`{"properties": {"a": 1}}`, nil},
		{`{"properties": {}}`, nil},
		{`{"properties": []}`, nil},
		{`{}`, nil},
	} {
		v, err := jsonv.Parse([]byte(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		got := properties(v)
		var keys []string
		for _, m := range got {
			keys = append(keys, m.Key)
		}
		if !slices.Equal(keys, tc.want) || (tc.want == nil) != (got == nil) {
			t.Errorf("%s: %q (nil %v), want %q", tc.schema, keys, got == nil, tc.want)
		}
		if len(got) > 0 {
			// Room behind the members, as a schema built in code may have.
			props := v.Get("properties")
			props.Members = append(make([]jsonv.Member, 0, 2*len(props.Members)), props.Members...)
			got = properties(v)
			grown := append(got, jsonv.Member{Key: "z"})
			if &grown[0] == &props.Members[0] {
				t.Errorf("%s: an append went into the schema's own members", tc.schema)
			}
		}
	}
}
