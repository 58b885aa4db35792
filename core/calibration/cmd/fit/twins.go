package main

import (
	"fmt"
	"strings"

	"toolscope/core/calibration"
	"toolscope/core/similarity"
)

// twinBand reports the cross-server band: its evidence and start on every
// twin set's held-out risks, each merge held out, and the band on the risk
// alone for comparison.
func twinBand(heldTw, controls []calibration.Scored, m *similarity.RiskModel) {
	adjTw, adjCtl := calibration.WithEvidence(heldTw, m.TwinBonus), calibration.WithEvidence(controls, m.TwinBonus)
	all := calibration.TallyAt(adjTw, m.Twins)
	ctl := calibration.TallyAt(adjCtl, m.Twins)
	var bonus []string
	for k, name := range similarity.TraitNames() {
		bonus = append(bonus, fmt.Sprintf("%s %+.3f", name, m.TwinBonus[k]))
	}
	fmt.Printf("\ncross-server band: risk with evidence (%s, in log-odds) from %.4f (lowest risk judged %.4f); twins P %.2f R %.2f F1 %.2f; control %d of %d pairs flagged\n",
		strings.Join(bonus, ", "), m.Twins, m.TwinFloor(), all.Precision(), all.Recall(), all.F1(), ctl.FP, len(controls))
	for _, band := range []struct {
		name  string
		folds []calibration.TwinFold
	}{
		{"with evidence", calibration.TwinsLeaveOneSetOut(heldTw, controls...)},
		{"on the risk alone", calibration.TwinsLeaveOneSetOutRisk(heldTw, controls...)},
	} {
		fmt.Printf("  each merge held out, %s (fitted on the other merges and the control):\n", band.name)
		var sum calibration.Counts
		for _, f := range band.folds {
			sum = sum.Add(f.Counts)
			fmt.Printf("  %-28s start %.3f  TP %2d FP %2d FN %2d  P %.2f R %.2f F1 %.2f  bonus %.2f\n", f.Set, f.Start, f.Counts.TP, f.Counts.FP, f.Counts.FN,
				f.Counts.Precision(), f.Counts.Recall(), f.Counts.F1(), f.Bonus)
		}
		fmt.Printf("  %-28s                TP %2d FP %2d FN %2d  P %.2f R %.2f F1 %.2f\n", "pooled", sum.TP, sum.FP, sum.FN, sum.Precision(), sum.Recall(), sum.F1())
	}
	disjoint := calibration.VocabularyDisjoint(heldTw)
	d := calibration.TallyAt(calibration.WithEvidence(disjoint, m.TwinBonus), m.Twins)
	fmt.Printf("  twins sharing no name word with each other (and every negative): %d twins, AUC %.3f (risk) %.3f (with evidence), at the band P %.2f R %.2f F1 %.2f\n",
		positives(calibration.Samples(disjoint)), calibration.RiskAUC(disjoint), calibration.RiskAUC(calibration.WithEvidence(disjoint, m.TwinBonus)), d.Precision(), d.Recall(), d.F1())
	fmt.Printf("  AUC over every twin set: risk %.3f, with evidence %.3f\n", calibration.RiskAUC(heldTw), calibration.RiskAUC(adjTw))
	for _, t := range []float64{0.0417, 0.06, 0.1, 0.15, 0.2, 0.25, 0.3} {
		c, k := calibration.TallyAt(adjTw, t), calibration.TallyAt(adjCtl, t)
		fmt.Printf("    at %.4f: twins TP %2d FP %2d P %.2f R %.2f F1 %.2f; control flagged %d\n", t, c.TP, c.FP, c.Precision(), c.Recall(), c.F1(), k.FP)
	}
}
