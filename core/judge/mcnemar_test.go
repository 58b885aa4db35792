package judge

import (
	"math"
	"testing"
)

func TestMcNemar(t *testing.T) {
	for _, tc := range []struct {
		better, worse int
		want          float64
	}{
		{0, 0, 1},
		{1, 0, 1},
		{5, 0, 0.0625},              // 2 · 1/32
		{0, 5, 0.0625},              // symmetric
		{9, 1, 0.021484375},         // 2 · (1 + 10) / 1024
		{3, 3, 1},                   // an even split
		{6, 0, 0.03125},             // 2 · 1/64
		{10, 2, 0.0385742187500000}, // 2 · (1 + 12 + 66) / 4096
	} {
		if got := McNemar(tc.better, tc.worse); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("McNemar(%d, %d) = %.10f; want %.10f", tc.better, tc.worse, got, tc.want)
		}
	}
	// Large counts stay finite and in range.
	if p := McNemar(5000, 4000); p <= 0 || p >= 1e-10 || math.IsNaN(p) {
		t.Errorf("McNemar(5000, 4000) = %g", p)
	}
}
