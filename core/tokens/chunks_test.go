package tokens

import (
	"slices"
	"strings"
	"testing"
)

func chunkList(s string) []string {
	var out []string
	chunks(s, func(c string) { out = append(out, c) })
	return out
}

func TestChunksCut(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"plain words", []string{"plain words"}},
		{`{"name":"get","description":"x"}`, []string{`{"`, `name":"`, `get","`, `description":"`, `x"}`}},
		{`a"b`, []string{`a"b`}},       // one punctuation character: no break
		{` :"x`, []string{` :"`, `x`}}, // a space before the run
		{`":"é`, []string{`":"é`}},     // a non-ASCII letter: no break
		{`"," 1`, []string{`"," 1`}},   // a space after the run: no break
		{`"]9`, []string{`"]`, `9`}},   // a digit after the run
		{"\xff\":x", []string{"\xff\":", "x"}},
	} {
		if got := chunkList(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("chunks(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.Join(chunkList(tc.in), "") != tc.in {
			t.Errorf("chunks(%q) lose text", tc.in)
		}
	}
}

// chunkedAgrees checks that s counts the same whole and chunk by chunk,
// under both encodings.
func chunkedAgrees(t testing.TB, s string) {
	t.Helper()
	for _, e := range []Encoding{O200k, Cl100k} {
		cc := chunkCounter{e: e, seen: map[string]int{}}
		if got, want := cc.count(s), MustCount(e, s); got != want {
			t.Fatalf("%s: %q counts %d chunk by chunk (%q), %d whole", e, s, got, chunkList(s), want)
		}
	}
}

func TestChunkedCountsEqualWholeCounts(t *testing.T) {
	for _, s := range []string{
		`{"function":{"name":"get_weather","description":"Current weather.","parameters":{"type":"object"}},"type":"function"}`,
		`it's":"done`, `they'll","x`, `a'd":"ll`, `"'s"'s`, `x"'re":"ve`, // contractions at a break
		`a  ":"b`, "a\n\":\"b", "a\r\n\":\"b", "a\":\"\r\nb", // spaces and newlines around the run
		`path":"/usr/bin","next`, `a//":"b`, `"/"/x`, // the slash tail of o200k's punctuation run
		`x":"123456","y`, `1,000,000","z`, `"":"A"`,
		"\xff\xfe\":\"x", "\xe6\x97\":\"x\xe6", "日本\":\"語", "emoji 🔍\",\"x",
		`<|endoftext|>":"<|endofprompt|>`,
		strings.Repeat(`{"a":"b","c":[1,2]},`, 50),
	} {
		chunkedAgrees(t, s)
	}
}

func TestChunkedCountsOnSharedCatalogs(t *testing.T) {
	n := 0
	for _, c := range sharedCatalogs(t) {
		for _, def := range Definitions(c.Tools) {
			chunkedAgrees(t, def)
			n++
		}
	}
	t.Logf("%d definitions count the same chunk by chunk under both encodings", n)
}

func FuzzChunkedCount(f *testing.F) {
	for _, s := range []string{`{"name":"x","description":"it's"}`, "a\":\"\r\nb", `"/"/x`, "\xff\":x", `1,2","3`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		chunkedAgrees(t, s)
	})
}
