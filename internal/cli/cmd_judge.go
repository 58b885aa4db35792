package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/judge"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/embed/cache"
	"toolscope/tui"
)

// judgeNeighbours is how many nearest neighbours per tool the scoring
// keeps when a judge picks its questions from them.
const judgeNeighbours = judge.FuseDepth

// DefaultJudgeMaxPairs is --judge-max-pairs' default: the most pairs one
// run sends.
const DefaultJudgeMaxPairs = 1000

// judgeCall is one catalog's judging: its report so far, the catalog and
// its config, the argument that named it (where its judgments file is
// found), and the command whose name its lines on stderr carry.
type judgeCall struct {
	report *lint.Report
	cat    *catalog.Catalog
	cfg    *config.Config
	arg    string
	io     stdio
	cmd    string
}

// judgeFlags are the judge's flags on lint and diff.
type judgeFlags struct {
	spec        string
	url         string
	maxPairs    int
	price       string
	file        string
	record      bool
	concurrency int
	noCache     *bool
	// store is the judgment cache the explorer's judge, lookups and replay
	// share, opened once (cache).
	store *judge.Cache
	// review is lint's model review (cmd_lint_review.go), nil elsewhere.
	review *reviewFlags
}

func addJudgeFlags(fs *flag.FlagSet) *judgeFlags {
	j := &judgeFlags{}
	fs.StringVar(&j.spec, "judge", "", "ask a chat `MODEL` (openai:NAME) whether each tool's nearest candidates are confusable; its judgments override the offline verdicts (docs/judge.md)")
	fs.StringVar(&j.url, "judge-url", "", "the judge's OpenAI-compatible API base `URL` (default $TOOLSCOPE_JUDGE_URL, then $OPENAI_BASE_URL, then OpenAI)")
	fs.IntVar(&j.maxPairs, "judge-max-pairs", DefaultJudgeMaxPairs, "send at most `N` pairs to the judge in one run (-1: no limit; 0 says the same); the others stay unjudged")
	fs.StringVar(&j.price, "judge-price", "", "the judge's price `IN,OUT` in dollars per million tokens, for the estimate (default: OpenAI list price if known; 0 for a local server)")
	fs.StringVar(&j.file, "judgments", "", "judgments `FILE` to replay and record (default: "+judge.FileName+" beside toolscope.yaml, else in the catalog's directory)")
	fs.BoolVar(&j.record, "judge-record", false, "write this run's judgments into the judgments file")
	fs.IntVar(&j.concurrency, "judge-concurrency", judge.DefaultConcurrency, "at most `N` judge requests in flight at once")
	return j
}

// check validates the flags.
func (j *judgeFlags) check() error {
	if j.spec != "" {
		if _, err := judge.ParseSpec(j.spec); err != nil {
			return fmt.Errorf("--judge %s", err)
		}
	}
	if j.price != "" {
		if _, err := judge.ParsePrice(j.price); err != nil {
			return fmt.Errorf("--judge-price: %w", err)
		}
	}
	if j.maxPairs == -1 {
		j.maxPairs = 0 // no limit, as -1 says it for every flag
	}
	switch {
	case j.maxPairs < 0:
		return fmt.Errorf("--judge-max-pairs %d: want 0 or more (-1: no limit)", j.maxPairs)
	case j.concurrency < 1 || j.concurrency > 64:
		return fmt.Errorf("--judge-concurrency %d is outside 1..64", j.concurrency)
	case j.url != "" && j.spec == "":
		return errors.New("--judge-url needs --judge openai:MODEL")
	}
	return nil
}

// path is the judgments file: --judgments, else beside the project config,
// else in the catalog file's directory (the working directory for stdin
// and live sources).
func (j *judgeFlags) path(cfg *config.Config, catalogArg string) string {
	cfgPath := ""
	if cfg != nil {
		cfgPath = cfg.Path
	}
	return projectFile(j.file, judge.FileName, cfgPath, catalogArg)
}

// read reads the judgments file at path: one named by --judgments as it
// is, one found (beside the config, in the catalog's or the working
// directory) only when it is the user's own, as the config is.
func (j *judgeFlags) read(path string) (*judge.Records, error) {
	if j.file != "" {
		return judge.ReadFile(path)
	}
	return judge.ReadFoundFile(path)
}

// projectFile is where a file the repository keeps (the judgments, the
// probe record) is read and written: given when a flag names it, else
// name beside the project config (cfgPath), else in the catalog file's
// directory (the working directory for stdin and live sources).
func projectFile(given, name, cfgPath, catalogArg string) string {
	switch {
	case given != "":
		return given
	case cfgPath != "":
		return filepath.Join(filepath.Dir(cfgPath), name)
	}
	return filepath.Join(catalogDir(catalogArg), name)
}

// active reports whether the run may judge or replay: a judge is named, or
// a judgments file or the judgment cache exists.
func (j *judgeFlags) active(cfg *config.Config, catalogArg string) bool {
	if j.spec != "" || j.review.asked() {
		return true
	}
	if _, err := os.Stat(j.path(cfg, catalogArg)); err == nil {
		return true
	}
	if dir := j.cacheDir(); dir != "" {
		if fi, err := os.Stat(filepath.Join(dir, judge.CacheFile)); err == nil && fi.Size() > 0 {
			return true
		}
	}
	return false
}

// cacheDir is the judgment cache's directory, "" under --no-cache or
// when there is no cache directory.
func (j *judgeFlags) cacheDir() string {
	if j.noCache != nil && *j.noCache {
		return ""
	}
	d, err := cache.DefaultDir()
	if err != nil {
		return ""
	}
	return d
}

// apply judges or replays the report's candidate pairs and writes the
// judgments into its verdicts (judge.RunPairs). A judge that fails
// part-way is reported on stderr and in the report; the pairs it did not
// judge keep their offline verdict. Errors are input errors (an
// unreadable judgments file, a bad endpoint).
func (j *judgeFlags) apply(ctx context.Context, c judgeCall) (*lint.Report, error) {
	path := j.path(c.cfg, c.arg)
	file, err := j.read(path)
	if err != nil {
		return nil, err
	}
	req := judge.PairRunRequest{Report: c.report, Catalog: c.cat, File: file, Path: path, Record: j.record,
		Cache: judge.OpenCache(j.cacheDir()), MaxPairs: j.maxPairs, IO: runIO(c.io, c.cmd)}
	if j.spec != "" {
		if req.Model, err = j.model(); err != nil {
			return nil, err
		}
		req.Price = j.priceFor(req.Model)
	}
	res, err := judge.RunPairs(ctx, req)
	if err != nil {
		return nil, err
	}
	return res.Report, nil
}

// model is the judge --judge names, asked with --judge-concurrency.
func (j *judgeFlags) model() (*judge.Model, error) {
	model, _ := judge.ParseSpec(j.spec) // checked with the flags
	m, err := judge.New(judge.Options{Model: model, BaseURL: j.url, Concurrency: j.concurrency})
	if err != nil {
		return nil, fmt.Errorf("--judge %s: %w", j.spec, err)
	}
	return m, nil
}

// runIO is how a judge or review run talks on stderr: its lines under the
// command's name, on a terminal a progress line rewritten in place and
// cleared at the end, and the question before paying.
func runIO(io stdio, name string) judge.IO {
	o := judge.IO{
		Say:     func(line string) { fmt.Fprintf(io.err, "toolscope %s: %s\n", name, line) },
		Confirm: func(why string) bool { return confirmAs(io, name, why) },
	}
	if io.errTTY {
		o.Progress = func(line string) { fmt.Fprintf(io.err, "\r\x1b[Ktoolscope %s: %s", name, line) }
		o.Clear = func() { fmt.Fprint(io.err, "\r\x1b[K") }
	}
	return o
}

// priceFor is the price to estimate m's cost with: --judge-price, else
// free on this machine, else the list price; nil when none is known.
func (j *judgeFlags) priceFor(m *judge.Model) *judge.Price {
	var given *judge.Price
	if j.price != "" {
		p, _ := judge.ParsePrice(j.price) // checked with the flags
		given = &p
	}
	model, _ := judge.ParseSpec(j.spec)
	if p, ok := judge.PriceFor(model, m.Endpoint(), given); ok {
		return &p
	}
	return nil
}

// cache is the judgment cache, opened on first use and shared after.
func (j *judgeFlags) cache() *judge.Cache {
	if j.store == nil {
		j.store = judge.OpenCache(j.cacheDir())
	}
	return j.store
}

// recorded finds, for the explorer, the judgment that holds for two tools'
// current texts: the judgments file's (read once, now), then the cache's;
// nil when neither holds any.
func (j *judgeFlags) recorded(cfg *config.Config, catalogArg string) tui.RecordedFunc {
	return j.recordedIn(j.records(cfg, catalogArg))
}

// recordedIn is recorded over the judgments file's records as read.
func (j *judgeFlags) recordedIn(file *judge.Records) tui.RecordedFunc {
	store := j.cache()
	if file.Len() == 0 && store.Len() == 0 && j.spec == "" {
		return nil
	}
	return func(a, b *catalog.Tool) (judge.Judgment, bool) {
		p := judge.NewPair(judge.FromCatalog(a), judge.FromCatalog(b), nil)
		if got, ok, _ := file.Replay(p, ""); ok {
			return got, true
		}
		got, ok, _ := store.Replay(p, "")
		return got, ok
	}
}

// replayerOf applies, for the explorer, the recorded judgments (file, the
// judgments file at path as read; then the cache's) to a report exactly
// as lint replays them without a key; nil when neither holds any.
func (j *judgeFlags) replayerOf(path string, file *judge.Records) tui.ReplayFunc {
	store := j.cache()
	if j.spec == "" && file.Len() == 0 && store.Len() == 0 {
		// Nothing recorded and nothing to judge: nothing to replay.
		return nil
	}
	shownFile := ""
	if file.Len() > 0 {
		shownFile = path
	}
	// The questions of the catalog and neighbour lists last replayed, their
	// texts hashed: the replay runs on every change of the verdicts (a
	// threshold, a judgment), the questions change with a reload or a new
	// scoring only.
	var mu sync.Mutex
	var lastCat *catalog.Catalog
	var lastNeighbours [][]similarity.Pair
	var words [][]int
	var asked []judge.Pair
	lastFiled := -1
	return func(r *lint.Report, cat *catalog.Catalog) *lint.Report {
		mu.Lock()
		if cat != lastCat {
			words = similarity.WordNeighbours(cat.Tools, judge.FuseDepth)
		}
		if cat != lastCat || !sameLists(r.Similarity.Neighbours, lastNeighbours) || file.Len() != lastFiled {
			// (An accept adds a pair to the file, and so to the questions.)
			lastCat, lastNeighbours, lastFiled = cat, r.Similarity.Neighbours, file.Len()
			asked = judge.QuestionsWith(cat, r.Similarity, words, judge.DefaultPerTool, file)
			for i := range asked {
				asked[i] = asked[i].Hashed()
			}
		}
		questions := asked
		mu.Unlock()
		plan := judge.NewPlan(nil, questions, file, store, 0)
		return judge.Apply(r, cat, plan.Results, judge.ApplyOptions{File: shownFile})
	}
}

// sameLists reports whether two sets of neighbour lists are the same
// lists (not equal ones: the same memory), as a scoring run leaves them.
func sameLists(a, b [][]similarity.Pair) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) || len(a[i]) > 0 && &a[i][0] != &b[i][0] {
			return false
		}
	}
	return true
}

// records is the judgments file's records for the explorer (an unreadable
// file holds none: lint names the error).
func (j *judgeFlags) records(cfg *config.Config, catalogArg string) *judge.Records {
	file, err := j.read(j.path(cfg, catalogArg))
	if err != nil {
		return judge.NewRecords()
	}
	return file
}

// accepter records the explorer's accepts as a person's judgments in the
// judgments file beside the config the accept wrote (or --judgments), and
// in file, the records its replay and lookups read: label 1 with the
// reason, for the pair's texts now. An undo removes the person's judgment
// of the pair.
func (j *judgeFlags) accepter(file *judge.Records) tui.AcceptRecordFunc {
	return func(configPath string, a, b *catalog.Tool, reason string, undo bool) (string, error) {
		path := projectFile(j.file, judge.FileName, configPath, "")
		accept := judge.PersonAccept(judge.FromCatalog(a), judge.FromCatalog(b), reason)
		if undo {
			if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
				return "", nil
			}
		}
		_, err := judge.Update(path, func(r *judge.Records) {
			if undo {
				r.Remove(accept.A, accept.B, judge.PersonBy)
			} else {
				r.Replace(accept)
			}
		})
		if err != nil {
			return "", err
		}
		if undo {
			file.Remove(accept.A, accept.B, judge.PersonBy)
		} else {
			file.Replace(accept)
		}
		return path, nil
	}
}

// addExplorerJudgeFlags declares the judge flags the explorer takes: the
// model, its URL and price (J judges one pair at a time).
func addExplorerJudgeFlags(fs *flag.FlagSet) *judgeFlags {
	j := &judgeFlags{concurrency: 1}
	fs.StringVar(&j.spec, "judge", "", "the chat `MODEL` (openai:NAME) that J asks about the selected pair (docs/judge.md)")
	fs.StringVar(&j.url, "judge-url", "", "the judge's OpenAI-compatible API base `URL` (default $TOOLSCOPE_JUDGE_URL, then $OPENAI_BASE_URL, then OpenAI)")
	fs.StringVar(&j.price, "judge-price", "", "the judge's price `IN,OUT` in dollars per million tokens, for the cost shown first")
	return j
}

// open checks that the judge named can be reached as configured (a valid
// URL), sending nothing.
func (j *judgeFlags) open() error {
	if j.spec == "" {
		return nil
	}
	model, _ := judge.ParseSpec(j.spec)
	if _, err := judge.New(judge.Options{Model: model, BaseURL: j.url}); err != nil {
		return fmt.Errorf("--judge %s: %w", j.spec, err)
	}
	return nil
}

// explorer is the explorer's judge: a recorded judgment of the same texts
// by the same model answers at once, anything else is asked and cached.
// Both are nil without --judge (open has checked the endpoint).
func (j *judgeFlags) explorer() (tui.JudgeFunc, tui.JudgeCostFunc, tui.JudgeCostAllFunc) {
	if j.spec == "" {
		return nil, nil, nil
	}
	model, _ := judge.ParseSpec(j.spec)
	m, err := judge.New(judge.Options{Model: model, BaseURL: j.url, Concurrency: 1})
	if err != nil {
		return nil, nil, nil
	}
	store := j.cache()
	price := j.priceFor(m)
	pairOf := func(a, b *catalog.Tool, siblings []string) judge.Pair {
		return judge.NewPair(judge.FromCatalog(a), judge.FromCatalog(b), siblings)
	}
	ask := func(ctx context.Context, a, b *catalog.Tool, siblings []string) (judge.Judgment, bool, error) {
		p := pairOf(a, b, siblings)
		if rec, ok := store.Lookup(p, m.ID(), judge.PromptVersion, m.Endpoint()); ok {
			return rec, true, nil
		}
		got, _, err := m.Ask(ctx, p)
		if err != nil {
			return judge.Judgment{}, false, err
		}
		store.Store(got, m.Endpoint())
		return got, false, nil
	}
	cost := func(a, b *catalog.Tool, siblings []string) string {
		p := pairOf(a, b, siblings)
		if _, ok := store.Lookup(p, m.ID(), judge.PromptVersion, m.Endpoint()); ok {
			return m.ID() + " judged it before: no request"
		}
		return m.ID() + ": " + judge.EstimatePairs([]judge.Pair{p}, price).String("--judge-price")
	}
	costAll := func(pairs [][2]*catalog.Tool, siblings [][]string) string {
		var ask []judge.Pair
		for i, t := range pairs {
			p := pairOf(t[0], t[1], siblings[i])
			if _, ok := store.Lookup(p, m.ID(), judge.PromptVersion, m.Endpoint()); !ok {
				ask = append(ask, p)
			}
		}
		if len(ask) == 0 {
			return m.ID() + " judged them all before: no request"
		}
		return fmt.Sprintf("%s: %d not judged before, %s", m.ID(), len(ask), judge.EstimatePairs(ask, price).String("--judge-price"))
	}
	return ask, cost, costAll
}
