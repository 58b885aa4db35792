package judge

import "math"

// McNemar is the two-sided exact McNemar p-value of a paired comparison:
// better requests went wrong before and right after, worse the other
// way; the requests that did not change say nothing of the difference.
// Under no difference each changed request is a fair coin, so p is the
// binomial probability of a split at least as uneven as this one: twice
// the smaller tail of Binomial(better+worse, 1/2), at most 1. It is 1
// when nothing changed.
func McNemar(better, worse int) float64 {
	n := better + worse
	k := min(better, worse)
	if n == 0 {
		return 1
	}
	// Summed in logs: C(n, i) / 2^n underflows long before n is large.
	lgN, _ := math.Lgamma(float64(n + 1))
	tail := 0.0
	for i := 0; i <= k; i++ {
		lgI, _ := math.Lgamma(float64(i + 1))
		lgR, _ := math.Lgamma(float64(n - i + 1))
		tail += math.Exp(lgN - lgI - lgR - float64(n)*math.Ln2)
	}
	return min(1, 2*tail)
}
