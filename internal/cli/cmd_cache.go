package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"toolscope/core/judge"
	"toolscope/embed/cache"
)

const (
	cacheUsage   = "cache [clear]"
	cacheSummary = "show the cache of vectors and token counts (where, how big, how many entries), or clear it"
)

func init() {
	register(command{name: "cache", usage: cacheUsage, summary: cacheSummary, run: runCache})
}

func runCache(args []string, io stdio) int {
	fs := newFlagSet("cache")
	positional, code, ok := parseCommand(fs, cacheUsage, cacheSummary, args, io)
	if !ok {
		return code
	}
	switch {
	case len(positional) == 0:
		return showCache(io)
	case len(positional) == 1 && positional[0] == "clear":
		freed, err := cache.Clear("")
		if err != nil {
			fmt.Fprintf(io.err, "toolscope cache: %s\n", oneLine(err))
			return 2
		}
		fmt.Fprintf(io.out, "cleared: %s freed\n", humanBytes(freed))
		return 0
	default:
		return usageError(io, "cache", fmt.Sprintf("unexpected argument %q: want nothing or clear", positional[len(positional)-1]))
	}
}

func showCache(io stdio) int {
	info, err := cache.Inspect("")
	if info.Dir == "" && err != nil {
		fmt.Fprintf(io.err, "toolscope cache: %s\n", oneLine(err))
		return 2
	}
	w := io.out
	fmt.Fprintf(w, "directory: %s\n", info.Dir)
	fmt.Fprintf(w, "store:     %s\n", info.Path)
	if !info.Exists {
		fmt.Fprintln(w, "size:      empty (no store yet)")
	} else {
		fmt.Fprintf(w, "size:      %s on disk, %s of entries (cap %s)\n", humanBytes(info.FileBytes), humanBytes(info.EntryBytes), humanBytes(info.MaxBytes))
		fmt.Fprintf(w, "entries:   %d vectors, %d token counts\n", info.Vectors, info.Counts)
	}
	if len(info.OldFiles) > 0 {
		fmt.Fprintf(w, "old files: %d (%s), moved into the store by the next run\n", len(info.OldFiles), humanBytes(info.OldBytes))
	}
	if st, serr := os.Stat(filepath.Join(info.Dir, judge.CacheFile)); serr == nil {
		fmt.Fprintf(w, "judgments: %s (%s), kept by clear: remove it by hand to judge again\n", judge.CacheFile, humanBytes(st.Size()))
	}
	if err != nil {
		fmt.Fprintf(io.err, "toolscope cache: %s\n", oneLine(err))
		return 2
	}
	return 0
}

// humanBytes writes n in B, KiB, MiB or GiB.
func humanBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
