// Package pipeline is the lint run and the diff run as both front ends
// reach them: a request value in, the linted catalogs (or the compared
// pair) out, so that the command line, the explorer and tests go through
// the same steps in the same order.
//
// A lint run, for each catalog: its settings (the config found for it,
// the analysis options), loading, the structural rules and similarity,
// what the front end adds to the analysis (the server list's own
// findings), the config's ignores and accepts, the judge and the model
// review, and --fix's write followed by a second lint. With Merge the
// catalogs are loaded and linted as one, as a host given all of them
// sees them. After the run, Gate adds what the run's flags ask beyond
// each report's own gate.
//
// What a front end owns is injected: where catalogs come from (Source),
// the settings a catalog gets from flags and config (Setup), the judge
// (which asks a model, prints estimates, may ask a person), the progress
// line, and the memory tuning of a long run. Nothing here parses flags,
// writes a report or draws a screen.
//
// It sits above core/lint, core/config and core/diff, which each hold one
// step, and below the front ends.
package pipeline
