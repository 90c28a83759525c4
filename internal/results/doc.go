// Package results is the results file of a run: the model every reader
// (report, compare, sweep, the store, merge) works from, its JSON reading
// and writing, the journal a run writes as it goes (and from which a
// killed run's results are rebuilt), and the exact merge of the results of
// several clients, which adds their whole HDR histograms.
package results
