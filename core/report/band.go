package report

import "toolscope/core/similarity"

// bandNote says, after a pair's score, which band judged it: only a pair
// of two servers judged by the cross-server band says anything.
func bandNote(p similarity.PairFinding) string {
	if p.Band == similarity.BandCrossServer {
		return ", across servers"
	}
	return ""
}

// crossServerText is the cross-server band's start, said after the
// catalog's own bands; "" when the run has none.
func crossServerText(th similarity.Thresholds) string {
	if th.CrossServer <= 0 || th.ReportOnly() {
		return ""
	}
	return "; across servers, confusable from " + similarity.StartText(th.CrossServer) + ", lower for names and ranks that show twins (the band fitted on twins)"
}
