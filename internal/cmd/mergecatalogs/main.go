// Command mergecatalogs writes one catalog of N distinct real tools drawn
// in turn from the catalog files given:
//
//	go run ./internal/cmd/mergecatalogs -n 5000 -o merged.json ../shared/catalogs/*/*.json
package main

import (
	"flag"
	"fmt"
	"os"

	"toolscope/internal/realcat"
)

func main() {
	n := flag.Int("n", 1000, "how many distinct tools")
	out := flag.String("o", "", "output file (default stdout)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mergecatalogs -n N [-o FILE] CATALOG.json...")
		os.Exit(2)
	}
	data, err := realcat.MergeFiles(flag.Args(), *n)
	if err == nil {
		if *out == "" {
			_, err = os.Stdout.Write(data)
		} else {
			err = os.WriteFile(*out, data, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mergecatalogs:", err)
		os.Exit(1)
	}
}
