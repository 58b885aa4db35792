package embed

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestMockCountsUTF16CodeUnits(t *testing.T) {
	cases := []struct {
		text string
		want map[int]float32
	}{
		{"", map[int]float32{}},
		{"a", map[int]float32{'a' % 32: 1}},
		{"aA!", map[int]float32{1: 3}}, // 97, 65 and 33 all land on 1
		{"é", map[int]float32{0xe9 % 32: 1}},
		// U+1F600 is two code units, 0xD83D and 0xDE00.
		{"😀", map[int]float32{0xd83d % 32: 1, 0xde00 % 32: 1}},
	}
	for _, c := range cases {
		v, err := Mock{}.Embed(context.Background(), []string{c.text})
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != 1 || len(v[0]) != MockDimensions {
			t.Fatalf("%q: got %d vectors of %d", c.text, len(v), len(v[0]))
		}
		for k, x := range v[0] {
			if x != c.want[k] {
				t.Errorf("%q: dimension %d = %v, want %v", c.text, k, x, c.want[k])
			}
		}
	}
}

func TestMockCalibrationAndNote(t *testing.T) {
	m := Mock{}
	if c, ok := m.Calibration("cosine"); !ok || c != (Calibration{Threshold: 0.94, WatchBand: 0.02}) {
		t.Errorf("cosine calibration %+v %v", c, ok)
	}
	if _, ok := m.Calibration("adaptive"); ok {
		t.Errorf("the mock has no adaptive calibration")
	}
	if n := Noter(m).Note(); !strings.Contains(n, "not") || m.ID() != "mock" || m.Dimensions() != 32 {
		t.Errorf("note %q, id %q", n, m.ID())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}
