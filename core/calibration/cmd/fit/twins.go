package main

import (
	"fmt"

	"toolscope/core/calibration"
)

// twinBand reports the cross-server band: its start on every twin set's
// held-out risks, and each merge held out.
func twinBand(heldTw, controls []calibration.Scored, start float64) {
	all := calibration.TallyAt(heldTw, start)
	ctl := calibration.TallyAt(controls, start)
	fmt.Printf("\ncross-server band (F1-best on the twins with the control): from %.4f; twins P %.2f R %.2f F1 %.2f; control %d of %d pairs flagged\n",
		start, all.Precision(), all.Recall(), all.F1(), ctl.FP, len(controls))
	fmt.Println("  each merge held out (start picked on the other merges and the control):")
	var sum calibration.Counts
	for _, f := range calibration.TwinsLeaveOneSetOut(heldTw, controls...) {
		sum = sum.Add(f.Counts)
		fmt.Printf("  %-28s start %.3f  TP %2d FP %2d FN %2d  P %.2f R %.2f F1 %.2f\n", f.Set, f.Start, f.Counts.TP, f.Counts.FP, f.Counts.FN,
			f.Counts.Precision(), f.Counts.Recall(), f.Counts.F1())
	}
	fmt.Printf("  %-28s                TP %2d FP %2d FN %2d  P %.2f R %.2f F1 %.2f\n", "pooled", sum.TP, sum.FP, sum.FN, sum.Precision(), sum.Recall(), sum.F1())
	disjoint := calibration.VocabularyDisjoint(heldTw)
	d := calibration.TallyAt(disjoint, start)
	fmt.Printf("  twins sharing no name word with each other (and every negative): %d twins, AUC %.3f, at the start P %.2f R %.2f F1 %.2f\n",
		positives(calibration.Samples(disjoint)), calibration.RiskAUC(disjoint), d.Precision(), d.Recall(), d.F1())
	for _, t := range []float64{0.0417, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2} {
		c, k := calibration.TallyAt(heldTw, t), calibration.TallyAt(controls, t)
		fmt.Printf("    at %.4f: twins TP %2d FP %2d P %.2f R %.2f F1 %.2f; control flagged %d\n", t, c.TP, c.FP, c.Precision(), c.Recall(), c.F1(), k.FP)
	}
}
