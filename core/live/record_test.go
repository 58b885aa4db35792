package live

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// sseEvents feeds s to an sseTee in chunks of n bytes and returns the data
// of every event it emitted.
func sseEvents(s string, n int) []string {
	var out []string
	tee := &sseTee{emit: func(b []byte) { out = append(out, string(b)) }}
	for i := 0; i < len(s); i += n {
		tee.feed([]byte(s[i:min(i+n, len(s))]))
	}
	return out
}

func TestSSEEvents(t *testing.T) {
	cases := []struct {
		name, stream string
		want         []string
	}{
		{"one event", "event: message\ndata: {\"a\":1}\n\n", []string{`{"a":1}`}},
		{"multi-line data", "data: line1\ndata:line2\n\n", []string{"line1\nline2"}},
		{"CRLF", "id: 7\r\ndata: x\r\n\r\ndata: y\r\n\r\n", []string{"x", "y"}},
		{"lone CR", "data: x\r\rdata: y\r\r", []string{"x", "y"}},
		{"comments and no data", ": keepalive\n\nevent: ping\n\n", nil},
		{"unfinished event", "data: x\n\ndata: partial", []string{"x"}},
		{"empty data", "data\n\n", []string{""}},
	}
	for _, tc := range cases {
		for _, n := range []int{1, 2, 3, 1 << 10} {
			if got := sseEvents(tc.stream, n); !slices.Equal(got, tc.want) {
				t.Errorf("%s, %d-byte chunks: %q, want %q", tc.name, n, got, tc.want)
			}
		}
	}
}

func FuzzSSEChunking(f *testing.F) {
	f.Add("data: a\r\n\r\ndata: b\n\n", 1)
	f.Add("data: x\rdata: y\r\r", 2)
	f.Fuzz(func(t *testing.T, stream string, n int) {
		if n <= 0 || n > len(stream) {
			n = 1
		}
		whole, chunked := sseEvents(stream, len(stream)+1), sseEvents(stream, n)
		if !slices.Equal(whole, chunked) {
			t.Fatalf("%q: whole %q, in %d-byte chunks %q", stream, whole, n, chunked)
		}
	})
}

func TestJSONTeeEmitsAtEOF(t *testing.T) {
	var got []string
	tee := &jsonTee{ReadCloser: io.NopCloser(strings.NewReader(`{"jsonrpc":"2.0"}`)), emit: func(b []byte) { got = append(got, string(b)) }}
	if _, err := io.ReadAll(iotest{tee}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{`{"jsonrpc":"2.0"}`}) {
		t.Errorf("emitted %q", got)
	}
}

// iotest reads one byte at a time, as a slow network would deliver.
type iotest struct{ r io.Reader }

func (o iotest) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

func TestPagesMatchAnswersToTheirCursor(t *testing.T) {
	p := newPages()
	req := func(id int64, method, cursor string) *jsonrpc.Request {
		params, _ := json.Marshal(map[string]string{"cursor": cursor})
		rid, _ := jsonrpc.MakeID(float64(id))
		return &jsonrpc.Request{ID: rid, Method: method, Params: params}
	}
	p.sent(req(1, "tools/list", ""))
	p.sent(req(2, "tools/list", "c2"))
	p.sent(req(3, "prompts/list", ""))
	before := p.seq()
	p.receivedRaw([]byte(`[{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"b"}]}},{"jsonrpc":"2.0","id":3,"result":{"prompts":[]}}]`))
	p.receivedRaw([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"}],"nextCursor":"c2"}}`))
	p.receivedRaw([]byte(`{"jsonrpc":"2.0","id":9,"result":{"tools":[]}}`))
	if raw, at, ok := p.page(""); !ok || at <= before || !bytes.Contains(raw, []byte(`"a"`)) {
		t.Errorf("first page %s at %d, ok %v", raw, at, ok)
	}
	if raw, _, ok := p.page("c2"); !ok || !bytes.Contains(raw, []byte(`"b"`)) {
		t.Errorf("page c2 %s, ok %v", raw, ok)
	}
	if p.seq() != before+2 {
		t.Errorf("seq %d, want %d: only tools/list answers count", p.seq(), before+2)
	}
}

func TestSplitPage(t *testing.T) {
	cases := []struct{ raw, tools, next, err string }{
		{raw: `{"tools":[{"name":"a"} , {"name":"b", "name":"c"}],"nextCursor":"x"}`, tools: `{"name":"a"}|{"name":"b", "name":"c"}`, next: "x"},
		{raw: `{"tools":[ ],"nextCursor":null}`, tools: ""},
		{raw: `{"nextCursor":"x","tools":[{"name":"a","n":1.50}]}`, tools: `{"name":"a","n":1.50}`, next: "x"},
		{raw: `{"tools":[1, null]}`, tools: `1|null`},
		{raw: `{"tools":{}}`, err: "the result has no tools array"},
		{raw: `{}`, err: "the result has no tools array"},
		{raw: `{"tools":[],"nextCursor":5}`, err: "nextCursor is not a string"},
		{raw: `[1]`, err: "the result is not a JSON object"},
	}
	for _, tc := range cases {
		tools, next, err := splitPage([]byte(tc.raw))
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("splitPage(%s) error %v, want %q", tc.raw, err, tc.err)
			}
			continue
		}
		var got []string
		for _, tool := range tools {
			got = append(got, string(tool))
		}
		if err != nil || strings.Join(got, "|") != tc.tools || next != tc.next {
			t.Errorf("splitPage(%s) = %q, %q, %v", tc.raw, tools, next, err)
		}
	}
}

func FuzzSplitPage(f *testing.F) {
	f.Add([]byte(`{"tools":[{"name":"a"}],"nextCursor":"c"}`))
	f.Add([]byte(`{"tools":[],"nextCursor":null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		tools, _, err := splitPage(raw)
		if err != nil {
			return
		}
		for _, tool := range tools {
			if !json.Valid(tool) {
				t.Fatalf("entry %q of %q is not JSON", tool, raw)
			}
		}
	})
}

func TestStderrExcerpt(t *testing.T) {
	in := "one\n\ntwo\nthree\nfour\nfive\nsix\n  \n"
	if got := stderrExcerpt(in); got != "two | three | four | five | six" {
		t.Errorf("stderrExcerpt = %q", got)
	}
	long := strings.Repeat("x", 1000)
	if got := stderrExcerpt(long); len([]rune(got)) != 601 || !strings.HasPrefix(got, "…") {
		t.Errorf("a long line is kept as %d runes", len([]rune(got)))
	}
}

func TestTailKeepsTheEnd(t *testing.T) {
	cases := []struct {
		writes  []string
		want    string
		midLine bool
	}{
		{[]string{"short"}, "short", false},
		{[]string{"first line\nsecond\n", "end"}, "end", false},
		// No newline left to start after: the kept text starts inside a
		// line, and says so.
		{[]string{"0123456789abcdef"}, "6789abcdef", true},
	}
	for _, c := range cases {
		tl := &tail{max: 10}
		for _, w := range c.writes {
			tl.Write([]byte(w))
		}
		if got, midLine := tl.text(); got != c.want || midLine != c.midLine {
			t.Errorf("%q: tail = %q, %v; want %q, %v", c.writes, got, midLine, c.want, c.midLine)
		}
	}
}
