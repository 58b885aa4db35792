package cli

import (
	"flag"
	"fmt"

	"toolscope/core/judge"
	"toolscope/core/live"
)

// fixOptions are probe's --fix flags: the judge that proposes the
// sentences (lint's spellings), where its judgments are recorded, and
// whether kept sentences are written to the catalog.
type fixOptions struct {
	fix                          bool
	judge, url, price, judgments string
	write                        bool
}

// declare declares the --fix flags on fs, each bound to its option.
func (f *fixOptions) declare(fs *flag.FlagSet) {
	fs.BoolVar(&f.fix, "fix", false, "for each confused pair, test the judge's proposed sentences for both tools on the same requests, and keep them only when more go right and none goes wrong")
	fs.StringVar(&f.judge, "judge", "", "the chat `MODEL` (openai:NAME) that proposes the sentences for --fix (default: the probed model)")
	fs.StringVar(&f.url, "judge-url", "", "the judge's API base `URL` (default: the probed model's)")
	fs.StringVar(&f.price, "judge-price", "", "the judge's price `IN,OUT` in dollars per million tokens (default: the probed model's when the judge is the probed model, else OpenAI list price if known)")
	fs.StringVar(&f.judgments, "judgments", "", "judgments `FILE` whose recorded sentences --fix reuses (default: "+judge.FileName+" beside toolscope.yaml, else in the catalog's directory)")
	fs.BoolVar(&f.write, "write", false, "append the kept sentences to the catalog file's descriptions (a catalog file only; for a live server they are printed)")
}

// check refuses the --fix flags given without --fix.
func (f fixOptions) check() error {
	if f.fix {
		if f.judge != "" {
			if _, err := judge.ParseSpec(f.judge); err != nil {
				return fmt.Errorf("--judge %w", err)
			}
		}
		if f.price != "" {
			if _, err := judge.ParsePrice(f.price); err != nil {
				return fmt.Errorf("--judge-price: %w", err)
			}
		}
		return nil
	}
	for _, x := range []struct {
		name string
		set  bool
	}{{"--judge", f.judge != ""}, {"--judge-url", f.url != ""}, {"--judge-price", f.price != ""}, {"--judgments", f.judgments != ""}, {"--write", f.write}} {
		if x.set {
			return fmt.Errorf("%s is for --fix; add --fix", x.name)
		}
	}
	return nil
}

// read reads the judgments before any request is paid for; one found
// rather than named only when it is the user's own, as lint reads it.
func (f fixOptions) read(cfgPath, catalogArg string) (*judge.Records, error) {
	path := projectFile(f.judgments, judge.FileName, cfgPath, catalogArg)
	if f.judgments != "" {
		return judge.ReadFile(path)
	}
	return judge.ReadFoundFile(path)
}

// judgeOf is the fix loop's judge, built when a pair needs one: the
// probed model m (at its price) unless --judge names another or
// --judge-url another endpoint (the probed model's URL by default);
// --judge-price, else the list price, prices it.
func (f fixOptions) judgeOf(m *judge.Model, modelURL string, price *judge.Price, concurrency int) func() (*judge.Model, *judge.Price, error) {
	return func() (*judge.Model, *judge.Price, error) {
		jm, jprice := m, price
		if f.judge != "" && f.judge != m.ID() || f.url != "" {
			spec := f.judge
			if spec == "" {
				spec = m.ID()
			}
			name, _ := judge.ParseSpec(spec)
			url := f.url
			if url == "" {
				url = modelURL
			}
			built, err := judge.New(judge.Options{Model: name, BaseURL: url, URLFlag: "--judge-url", Concurrency: concurrency})
			if err == nil {
				err = missingKey(built, "--judge-url")
			}
			if err != nil {
				return nil, nil, err
			}
			jm, jprice = built, nil
		}
		if f.price != "" {
			pr, _ := judge.ParsePrice(f.price)
			jprice = &pr
		}
		if pr, known := judge.PriceFor(trimPrefix(jm.ID()), jm.Endpoint(), jprice); known {
			return jm, &pr, nil
		}
		return jm, nil, nil
	}
}

func trimPrefix(id string) string {
	name, _ := judge.ParseSpec(id)
	return name
}

// isCatalogFile reports whether the CATALOG argument is a file --write
// may change: not the demo, stdin, a live server or an --mcp-config.
func isCatalogFile(arg string, l *liveFlags) bool {
	return arg != "" && arg != "-" && l.config == "" && !live.IsLive(arg)
}
