package probe

import (
	"fmt"
	"sort"

	"toolscope/core/catalog"
	"toolscope/core/judge"
	"toolscope/core/safefile"
	"toolscope/core/termsafe"
)

// Kept are the kept fixes' sentences by tool, in catalog order of the
// fixes; a tool kept in two fixes has both, in order.
func Kept(trials []judge.FixTrial) map[string]string {
	out := map[string]string{}
	for _, t := range trials {
		if !t.Kept {
			continue
		}
		for _, s := range [][2]string{{t.A, t.Sentences.A}, {t.B, t.Sentences.B}} {
			if s[1] != "" {
				out[s[0]] = judge.Amend(out[s[0]], s[1])
			}
		}
	}
	return out
}

// write appends the kept sentences to the catalog file's descriptions,
// under the file's lock, keeping every other byte; the file must still
// hold the texts the probe read. It returns the catalog as written, nil
// when nothing was. For a catalog that is no file it prints the
// sentences with the tool each belongs to.
func write(req Request, trials []judge.FixTrial) (*catalog.Catalog, error) {
	kept := Kept(trials)
	if len(kept) == 0 {
		req.IO.say("no fix kept: nothing written")
		return nil, nil
	}
	tools := make([]string, 0, len(kept))
	for t := range kept {
		tools = append(tools, t)
	}
	sort.Slice(tools, func(i, j int) bool {
		a, _ := req.Catalog.Lookup(tools[i])
		b, _ := req.Catalog.Lookup(tools[j])
		return a.Index < b.Index
	})
	if req.Fix.File == "" {
		req.IO.say("the catalog is not a file: the kept sentences, to add to the server's descriptions:")
		for _, t := range tools {
			fmt.Fprintf(req.IO.Notes, "  %s: %s\n", termsafe.Line(t), termsafe.Line(kept[t]))
		}
		return nil, nil
	}
	written, err := writeFile(req.Fix.File, req.Catalog, kept, tools)
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		req.IO.say("wrote to %s's description: %s", termsafe.Line(t), termsafe.Line(kept[t]))
	}
	return written, nil
}

// writeFile appends kept to the descriptions of the catalog file path,
// which must still hold the texts read had for tools, and returns
// the catalog as written.
func writeFile(path string, read *catalog.Catalog, kept map[string]string, tools []string) (*catalog.Catalog, error) {
	unlock, err := safefile.Lock(path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	data, source, err := catalog.Read(path, nil)
	if err != nil {
		return nil, err
	}
	now, err := catalog.Parse(source, data)
	if err != nil {
		return nil, fmt.Errorf("%s changed since the probe read it: %w", path, err)
	}
	for _, name := range tools {
		was, _ := read.Lookup(name)
		is, ok := now.Lookup(name)
		if !ok || judge.FromCatalog(is).TextHash() != judge.FromCatalog(was).TextHash() {
			return nil, fmt.Errorf("%s changed since the probe read it (tool %s): nothing written; probe again", path, termsafe.Line(name))
		}
	}
	// Sentences kept in two fixes meet in one description: the whole is
	// held to lint's error rules again.
	if why := judge.NewSentenceGuard(now).RefuseWhole(kept); why != "" {
		return nil, fmt.Errorf("%s: nothing written", why)
	}
	out, err := catalog.AppendToDescriptions(data, now, kept)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: nothing written", path, err)
	}
	if err := safefile.Write(path, out); err != nil {
		return nil, err
	}
	written, err := catalog.Parse(source, out)
	if err != nil {
		return nil, fmt.Errorf("%s as written: %w", path, err)
	}
	return written, nil
}

// refreshRecord writes the record again of the catalog as --write left
// it, so that lint --min-accuracy right after replays it: the kept
// fixes' re-tested picks in place of the probe's.
func (res *Result) refreshRecord(req Request, written *catalog.Catalog, fixes []judge.FixTrial) {
	fresh := res.Probe
	fresh.Cases = judge.Refreshed(res.Probe.Cases, fixes)
	tools, _, _ := Tools(written)
	if res.RecordErr = judge.NewProbeRecord(fresh, tools, req.Now()).WriteFile(req.Record); res.RecordErr == nil {
		req.IO.say("recorded the written descriptions and the kept fixes' re-tested picks in %s", termsafe.Line(req.Record))
	}
}
