// Package analysis computes what comparisons, sweeps and reports say about
// runs: the figures of a run, the pairing of runs into comparable sets,
// the means of repeated trials with their confidence intervals, the knee
// of a series and the words of a verdict. It reads results already in
// memory and returns values: it opens no file and prints nothing, so that
// compare, sweep and report agree by construction.
package analysis
