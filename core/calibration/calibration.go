// Package calibration measures how well a similarity scoring tells
// labelled confusable tools (twins) from the rest. A labelled set merges
// several real MCP catalogs, as a host mounting several servers does; the
// tools of one group do the same job on different servers. Every
// cross-server pair inside a group is a positive, every other cross-server
// pair of the set a negative; pairs within one server are scored (they
// shape the adaptive scoring's neighbourhoods) but not judged.
//
// The figures: ROC AUC over those pairs, precision, recall and F1 of the
// confusable verdict at given thresholds, and leave-one-set-out F1, where
// the threshold is picked on the other sets and measured on the one left
// out, which is what a user with an unseen catalog gets.
package calibration

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"toolscope/core/catalog"
	"toolscope/core/lint"
	"toolscope/core/live"
	"toolscope/core/similarity"
)

// Twins is the labelled data (calibration/twins.json).
type Twins struct {
	Sets []Set `json:"sets"`
}

// Set is one labelled set: the catalogs it merges, and its groups of
// twins, each member written "catalog:tool".
type Set struct {
	Name     string     `json:"name"`
	Catalogs []string   `json:"catalogs"`
	Groups   [][]string `json:"groups"`
}

// ReadTwins reads a twins file.
func ReadTwins(path string) (*Twins, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t Twins
	if err := json.Unmarshal(data, &t); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(t.Sets) == 0 {
		return nil, fmt.Errorf("%s: no sets", path)
	}
	return &t, nil
}

// Naming says how a merged catalog names its tools.
type Naming int

const (
	// AsServed keeps each tool's name as its server serves it, which is
	// how the labelled data was scored. A name that an earlier catalog of
	// the set already uses gets trailing underscores: the scorings open a
	// name into words and drop them, so the tool reads the same but stays
	// distinct (rather than being left out as a duplicate).
	AsServed Naming = iota
	// Qualified names a tool as a host merging servers does,
	// live.QualifiedName(catalog, tool): server__tool.
	Qualified
)

// Merge loads the set's catalogs from dir (dir/<name>.json) into one
// catalog, each tool's Server set to its catalog's name, and returns with
// it the index of every tool by its "catalog:tool" label. Every group
// member must exist.
func (s Set) Merge(dir string, naming Naming) (*catalog.Catalog, map[string]int, error) {
	out := &catalog.Catalog{Source: s.Name}
	index := map[string]int{}
	owner := map[string]string{} // name -> the catalog that serves it
	for _, name := range s.Catalogs {
		cat, err := catalog.Load(filepath.Join(dir, name+".json"), nil)
		if err != nil {
			return nil, nil, fmt.Errorf("set %s: %w", s.Name, err)
		}
		for _, t := range cat.Tools {
			q := *t
			q.Index = len(out.Tools)
			q.Server = name
			if naming == Qualified {
				q.Name = live.QualifiedName(name, t.Name)
			}
			// A repeat within one catalog stays a duplicate, as served.
			for o, ok := owner[q.Name]; ok && o != name; o, ok = owner[q.Name] {
				q.Name += "_"
			}
			if _, ok := owner[q.Name]; !ok {
				owner[q.Name] = name
			}
			index[name+":"+t.Name] = q.Index
			out.Tools = append(out.Tools, &q)
		}
	}
	for _, g := range s.Groups {
		for _, m := range g {
			if _, ok := index[m]; !ok {
				return nil, nil, fmt.Errorf("set %s: twin %s is in none of its catalogs", s.Name, m)
			}
		}
	}
	return out, index, nil
}

// Pair is one judged pair: its score and affinity under the scoring, and
// whether it is labelled a twin.
type Pair struct {
	A, B            string
	Score, Affinity float64
	Twin            bool
}

// Score embeds and scores the set's merged catalog under opts (every pair
// kept) and returns its cross-server pairs.
func (s Set) Score(ctx context.Context, dir string, naming Naming, opts lint.Options) ([]Pair, error) {
	cat, index, err := s.Merge(dir, naming)
	if err != nil {
		return nil, err
	}
	opts.RankLimit = 0
	scores, err := similarity.Score(ctx, cat, opts.Options)
	if err != nil {
		return nil, fmt.Errorf("set %s: %w", s.Name, err)
	}
	group := make([]int, len(cat.Tools))
	for g, members := range s.Groups {
		for _, m := range members {
			group[index[m]] = g + 1
		}
	}
	var pairs []Pair
	for _, p := range scores.Judge(scores.Thresholds()).Ranked {
		if cat.Tools[p.I].Server == cat.Tools[p.J].Server {
			continue
		}
		q := Pair{A: p.A, B: p.B, Score: p.Similarity, Affinity: math.Inf(1)}
		if p.Affinity != nil {
			q.Affinity = *p.Affinity
		}
		q.Twin = group[p.I] != 0 && group[p.I] == group[p.J]
		pairs = append(pairs, q)
	}
	return pairs, nil
}

// AUC is the ROC area under the curve of score for telling twins from the
// rest: the chance a random twin outscores a random other pair (ties count
// half). It is NaN without both kinds.
func AUC(pairs []Pair) float64 {
	sorted := slices.Clone(pairs)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Score < sorted[j].Score })
	var pos, neg, wins float64
	for i := 0; i < len(sorted); {
		// A run of equal scores: its twins beat every negative below the
		// run and tie with the run's negatives.
		j := i
		var runPos, runNeg float64
		for ; j < len(sorted) && sorted[j].Score == sorted[i].Score; j++ {
			if sorted[j].Twin {
				runPos++
			} else {
				runNeg++
			}
		}
		wins += runPos * (neg + runNeg/2)
		pos += runPos
		neg += runNeg
		i = j
	}
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	return wins / (pos * neg)
}

// Counts tallies the confusable verdict against the labels.
type Counts struct{ TP, FP, FN int }

// Add sums two tallies.
func (c Counts) Add(d Counts) Counts { return Counts{c.TP + d.TP, c.FP + d.FP, c.FN + d.FN} }

// Precision is TP/(TP+FP), 0 when nothing was flagged.
func (c Counts) Precision() float64 { return ratio(c.TP, c.TP+c.FP) }

// Recall is TP/(TP+FN), 0 when there are no twins.
func (c Counts) Recall() float64 { return ratio(c.TP, c.TP+c.FN) }

// F1 is the harmonic mean of precision and recall.
func (c Counts) F1() float64 { return ratio(2*c.TP, 2*c.TP+c.FP+c.FN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Verdict is where the confusable verdict starts: a score at or above
// Threshold and an affinity at or above AffinityFloor.
type Verdict struct{ Threshold, AffinityFloor float64 }

// Tally counts the verdict's hits and misses on pairs.
func (v Verdict) Tally(pairs []Pair) Counts {
	var c Counts
	for _, p := range pairs {
		flagged := p.Score >= v.Threshold && p.Affinity >= v.AffinityFloor
		switch {
		case flagged && p.Twin:
			c.TP++
		case flagged:
			c.FP++
		case p.Twin:
			c.FN++
		}
	}
	return c
}

// BestThreshold returns the threshold with the highest F1 on pairs, keeping
// the affinity floor; of equal F1s the highest threshold wins (fewest
// flags).
func BestThreshold(pairs []Pair, floor float64) (Verdict, Counts) {
	best := Verdict{Threshold: math.Inf(1), AffinityFloor: floor}
	bestCounts := best.Tally(pairs)
	for _, p := range pairs {
		v := Verdict{Threshold: p.Score, AffinityFloor: floor}
		c := v.Tally(pairs)
		if c.F1() > bestCounts.F1() || (c.F1() == bestCounts.F1() && v.Threshold > best.Threshold) {
			best, bestCounts = v, c
		}
	}
	return best, bestCounts
}

// Fold is one leave-one-set-out round: the threshold picked on the other
// sets, and what it gives on the one left out.
type Fold struct {
	Held    string
	Picked  Verdict
	Counts  Counts
	Trained Counts // on the sets it was picked on
}

// LeaveOneSetOut picks a threshold on all sets but one and measures it on
// that one, for each set in turn.
func LeaveOneSetOut(names []string, pairs [][]Pair, floor float64) []Fold {
	folds := make([]Fold, len(names))
	for held := range names {
		var train []Pair
		for i, ps := range pairs {
			if i != held {
				train = append(train, ps...)
			}
		}
		v, trained := BestThreshold(train, floor)
		folds[held] = Fold{Held: names[held], Picked: v, Counts: v.Tally(pairs[held]), Trained: trained}
	}
	return folds
}
