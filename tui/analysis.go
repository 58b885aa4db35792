package tui

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"toolscope/core/catalog"
	"toolscope/core/config"
	"toolscope/core/lint"
	"toolscope/core/similarity"
	"toolscope/embed"
)

// The background work and its replies. Every reply carries the id of the
// request it answers; the model keeps the id of the latest request of each
// kind and drops any other reply, so a slow answer about an old catalog or
// old thresholds can never overwrite a newer one.

// loadedMsg answers a reload: the catalog read again and analysed, or
// unchanged when it lists the same tools as before.
type loadedMsg struct {
	id        int
	snap      *snapshot
	unchanged bool
	err       error
}

// sourceFindings finds what is wrong with where a catalog's tools come
// from, each finding at a tool of the catalog (Options.SourceFindings).
type sourceFindings = func(*catalog.Catalog) []lint.Finding

// analysedMsg answers the first analysis of the catalog.
type analysedMsg struct {
	id   int
	snap *snapshot
}

// scoredMsg answers a similarity run: the scored catalog, or why not.
type scoredMsg struct {
	id       int
	spec     string
	embedder embed.Embedder // opened for this run, kept for the next
	scores   *similarity.Scores
	err      error
}

// progressMsg reports a similarity run's progress.
type progressMsg struct {
	id int
	p  similarity.Progress
}

// judgedMsg answers a request for verdicts at some thresholds.
type judgedMsg struct {
	id  int
	sim similarity.Result
}

// failedMsg is a background command that panicked: the explorer reports it
// and keeps running. id is the request it answers, so the panic of a
// superseded request does not end the current one.
type failedMsg struct {
	what string
	id   int
	err  error
}

// safe runs work as a command, turning a panic into a failedMsg.
func safe(what string, work func() tea.Msg) tea.Cmd { return safeID(what, 0, work) }

// safeID is safe for a request with an id, which its failedMsg carries.
func safeID(what string, id int, work func() tea.Msg) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = failedMsg{what: what, id: id, err: fmt.Errorf("internal error: %v", r)}
			}
		}()
		return work()
	}
}

// scoreJob is one similarity run in flight.
type scoreJob struct {
	id       int
	cancel   context.CancelFunc
	progress chan similarity.Progress
	last     similarity.Progress
}

// score starts embedding and scoring the catalog in the background and
// returns the commands that deliver the result and the progress.
func score(id int, cat *catalog.Catalog, opts lint.Options, spec string, e embed.Embedder, open func(string) (embed.Embedder, error)) (*scoreJob, tea.Cmd) {
	ctx, cancel := context.WithCancel(context.Background())
	job := &scoreJob{id: id, cancel: cancel, progress: make(chan similarity.Progress, 1)}
	opts.Progress = func(p similarity.Progress) {
		// Keep only the latest report: the bar needs no history.
		select {
		case <-job.progress:
		default:
		}
		job.progress <- p
	}
	run := safeID("similarity", id, func() tea.Msg {
		defer close(job.progress)
		if e == nil {
			var err error
			if e, err = open(spec); err != nil {
				return scoredMsg{id: id, spec: spec, err: err}
			}
		}
		opts.Embedder = e
		s, err := similarity.Score(ctx, cat, opts.Options)
		return scoredMsg{id: id, spec: spec, embedder: e, scores: s, err: err}
	})
	return job, tea.Batch(run, job.next())
}

// next waits for the job's next progress report.
func (j *scoreJob) next() tea.Cmd {
	return func() tea.Msg {
		p, ok := <-j.progress
		if !ok {
			return nil
		}
		return progressMsg{id: j.id, p: p}
	}
}

// judge derives the verdicts for thresholds th in the background: lowering
// them below what was kept scores the pairs again.
func judge(id int, s *similarity.Scores, th similarity.Thresholds) tea.Cmd {
	return safeID("verdicts", id, func() tea.Msg {
		return judgedMsg{id: id, sim: s.Judge(th)}
	})
}

// reload re-reads and analyses the catalog in the background, so the
// screen swaps to the new catalog whole; when the tools are the same as
// old's, nothing needs doing again.
func reload(id int, load func(context.Context) (*catalog.Catalog, error), opts lint.Options, cfg *config.Config, source sourceFindings, old *catalog.Catalog) tea.Cmd {
	return safeID("reload", id, func() tea.Msg {
		cat, err := load(context.Background())
		switch {
		case err != nil:
			return loadedMsg{id: id, err: err}
		case sameTools(old, cat):
			// The same tools may still bring other findings (where they
			// come from, the file around them): the rules run again, and
			// only findings that are the same make the reload a no-op.
			return loadedMsg{id: id, unchanged: true, snap: analyse(cat, opts, cfg, source)}
		}
		return loadedMsg{id: id, snap: analyse(cat, opts, cfg, source)}
	})
}

// analyseCmd runs the rules and the declarations in the background.
func analyseCmd(id int, cat *catalog.Catalog, opts lint.Options, cfg *config.Config, source sourceFindings) tea.Cmd {
	return safeID("rules", id, func() tea.Msg {
		return analysedMsg{id: id, snap: analyse(cat, opts, cfg, source)}
	})
}
