// Package report turns results files into one self-contained HTML report: the
// run configuration, YCSB's summary table, throughput and latency over time,
// the percentile spectrum, sweep and comparison charts, and the server and
// host metrics recorded beside the client's figures.
//
// FromRuns draws the page's Input from groups of runs through package
// analysis (the study compare prints, the lines of a sweep, the knees, what
// the configurations ran on); Render writes it. The command line only
// resolves which runs the user named.
//
// # Why charts are SVG drawn in Go
//
// The report must work offline, years later, opened from a mail attachment.
// A charting library vendored from npm would have met that by inlining a few
// hundred kilobytes of JavaScript, but it would also bring a build step or a
// blob to keep up to date, a second language to review, and charts that only
// exist once a browser has run the script, so that neither a golden file nor
// a reader with scripts turned off could see them. The charts mongobench
// needs are few and plain (lines on linear or logarithmic axes, error bars, a
// marked point, grouped bars), so this package draws them itself as inline
// SVG, from the same Go code that computes their captions:
//
//   - the output is deterministic, so the whole report is golden-tested;
//   - nothing is vendored, and no script runs, so no console error is possible;
//   - the charts print, zoom and copy like the rest of the page, and tooltips
//     are plain SVG <title> elements.
//
// Every chart states in one sentence, computed from the data, what it shows
// ("Throughput held at 3,050 ops/s ± 4% for 60 s"), the way a benchmark
// write-up puts its conclusion under each slide.
//
// Server and host metrics are read generically: every number in the
// metrics package's samples of Extra.ServerMetrics and Extra.HostMetrics is
// plotted under the path of JSON keys the results file writes it at,
// grouped by name prefix and unit, so that a new metric needs no change
// here.
package report
