package main

import (
	"fmt"

	"toolscope/core/calibration"
)

// twinBand reports the cross-server band: its start on every twin set's
// held-out risks, and each merge held out.
func twinBand(heldTw []calibration.Scored) float64 {
	start := calibration.TwinThreshold(heldTw)
	all := calibration.TallyAt(heldTw, start)
	fmt.Printf("\ncross-server band (twins, F1-best): from %.3f; on the held-out risks it was fitted on P %.2f R %.2f F1 %.2f\n",
		start, all.Precision(), all.Recall(), all.F1())
	fmt.Println("  each merge held out (start picked on the other merges):")
	var sum calibration.Counts
	for _, f := range calibration.TwinsLeaveOneSetOut(heldTw) {
		sum = sum.Add(f.Counts)
		fmt.Printf("  %-28s start %.3f  TP %2d FP %2d FN %2d  P %.2f R %.2f F1 %.2f\n", f.Set, f.Start, f.Counts.TP, f.Counts.FP, f.Counts.FN,
			f.Counts.Precision(), f.Counts.Recall(), f.Counts.F1())
	}
	fmt.Printf("  %-28s                TP %2d FP %2d FN %2d  P %.2f R %.2f F1 %.2f\n", "pooled", sum.TP, sum.FP, sum.FN, sum.Precision(), sum.Recall(), sum.F1())
	disjoint := calibration.VocabularyDisjoint(heldTw)
	d := calibration.TallyAt(disjoint, start)
	fmt.Printf("  twins sharing no name word with each other (and every negative): %d twins, AUC %.3f, at the start P %.2f R %.2f F1 %.2f\n",
		positives(calibration.Samples(disjoint)), calibration.RiskAUC(disjoint), d.Precision(), d.Recall(), d.F1())
	return start
}
