package main

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"toolscope/core/calibration"
	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/similarity"
)

// measureCandidates reports, held out, how many of the confusable pairs
// the judge's candidates hold (core/judge: Candidates over Fuse): each
// catalog's risk view is its pairs ranked by the model fitted without it,
// so the figure is what an endpoint answering as the reviewers did would
// reach (F1 = 2R/(1+R), every verdict right). It compares the risk view
// alone with the fusion, at 2.5 pairs per tool.
func measureCandidates(data string, h heldOut) error {
	type tally struct{ tp, pos, asked, tools int }
	views := []struct {
		name  string
		words bool
	}{{"the risk alone", false}, {"risk + words, fused (the judge's)", true}}
	fmt.Printf("\njudge candidates held out, at %.1f pairs per tool (recall; F1 of a judge answering as the reviewers did):\n", judge.DefaultPerTool)
	var missed []string
	for _, v := range views {
		sets := map[string]*tally{"dev1": {}, "dev2": {}, "pooled": {}}
		for _, g := range calibration.Groups(calibration.Samples(h.dev)) {
			dir := "confusion"
			if h.setOf[g] == "dev2" {
				dir = "confusion-dev2"
			}
			cat, err := catalog.Load(filepath.Join(data, dir, "catalogs", g+".json"), nil)
			if err != nil {
				return err
			}
			byRisk, positive := riskView(cat, h.dev, g)
			fused := judge.Fuse(len(cat.Tools), byRisk)
			if v.words {
				fused = judge.Fuse(len(cat.Tools), byRisk, similarity.WordNeighbours(cat.Tools, judge.FuseDepth))
			}
			asked := judge.Candidates(fused, judge.DefaultPerTool)
			tp := 0
			for _, p := range asked {
				if positive[p] {
					tp++
				}
			}
			if v.words && tp < len(positive) {
				missed = append(missed, fmt.Sprintf("%s %d", g, len(positive)-tp))
			}
			for _, set := range []string{h.setOf[g], "pooled"} {
				t := sets[set]
				t.tp += tp
				t.pos += len(positive)
				t.asked += len(asked)
				t.tools += len(cat.Tools)
			}
		}
		fmt.Printf("  %s:\n", v.name)
		for _, set := range []string{"dev1", "dev2", "pooled"} {
			t := sets[set]
			r := float64(t.tp) / float64(t.pos)
			fmt.Printf("    %-6s %3d of %3d  recall %.3f  F1 %.3f  %.2f pairs per tool\n", set, t.tp, t.pos, r, 2*r/(1+r), float64(t.asked)/float64(t.tools))
		}
	}
	fmt.Printf("  missed by the judge's, per catalog: %s\n", strings.Join(missed, ", "))
	return nil
}

// riskView is catalog g's risk view for the judge: each tool's partners
// by held-out risk, riskiest first (ties by place), the first FuseDepth;
// and its confusable pairs, by place, lower first.
func riskView(cat *catalog.Catalog, heldDev []calibration.Scored, g string) (byRisk [][]int, positive map[[2]int]bool) {
	index := map[string]int{}
	for i, t := range cat.Tools {
		index[t.Name] = i
	}
	type near struct {
		j    int
		risk float64
	}
	rows := make([][]near, len(cat.Tools))
	positive = map[[2]int]bool{}
	for _, s := range heldDev {
		if s.Group != g {
			continue
		}
		a, b := index[s.A], index[s.B]
		rows[a] = append(rows[a], near{b, s.Risk})
		rows[b] = append(rows[b], near{a, s.Risk})
		if s.Positive {
			positive[[2]int{min(a, b), max(a, b)}] = true
		}
	}
	byRisk = make([][]int, len(rows))
	for i, r := range rows {
		slices.SortStableFunc(r, func(x, y near) int {
			if c := cmp.Compare(y.risk, x.risk); c != 0 {
				return c
			}
			return cmp.Compare(x.j, y.j)
		})
		for _, n := range r[:min(len(r), judge.FuseDepth)] {
			byRisk[i] = append(byRisk[i], n.j)
		}
	}
	return byRisk, positive
}
