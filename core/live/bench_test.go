package live

import (
	"context"
	"net/http/httptest"
	"testing"

	"toolscope/core/live/livetest"
)

// BenchmarkListHTTP lists 1,007 tools in pages of 100 from an in-process
// Streamable HTTP server: the whole round trip, SDK and raw capture
// included.
func BenchmarkListHTTP(b *testing.B) {
	srv := httptest.NewServer(livetest.Handler(livetest.Behaviour{PageSize: 100, Extra: 1000}))
	defer srv.Close()
	s, err := Open(context.Background(), Spec{URL: srv.URL}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		cat, err := s.List(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if len(cat.Tools) != 1007 {
			b.Fatalf("%d tools", len(cat.Tools))
		}
	}
}

// BenchmarkSSETee is the cost of watching a server-sent event stream.
func BenchmarkSSETee(b *testing.B) {
	event := []byte("event: message\ndata: " + string(livetest.ListJSON()) + "\n\n")
	tee := &sseTee{emit: func([]byte) {}}
	b.SetBytes(int64(len(event)))
	for b.Loop() {
		tee.feed(event)
	}
}
