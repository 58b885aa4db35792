// Package probe runs a probe of a catalog against a chat model and its fix
// loop, so that the command line, the explorer and tests reach the same
// behaviour through the same code: the requests written (or given) and
// sent --repeats times, the arguments checked, the picks tabulated, the
// offline similarity check set beside them (its failure noted, never
// fatal: the picks are paid for), the record; then, with a fix asked for,
// the judge's sentences for each confused pair tested on the same
// requests (held to lint's error rules first), and the kept ones appended
// to the catalog file (--write), the record refreshed to match.
//
// It sits on top of core/judge rather than inside it: judge holds the
// primitives one request at a time (asking a pair, picking a tool,
// records, estimates), and this package is the run that strings them
// together with a cost gate, files written and what the user is told.
//
// A Request holds everything built: the models, their prices, the
// catalog, the given requests, the offline check as a function. What a
// front end owns is injected through IO: the lines said on the way (an
// io.Writer), the progress line and the question asked before a costly
// step. Nothing here parses flags or draws a screen.
package probe
