package bench

import (
	"github.com/mongobench/mongobench/internal/tpcc"

	"fmt"
	"io"
	"strconv"

	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
)

// WriteSummaryLines writes the lines a load's or run's summary has after
// YCSB's: what stopped it on failures, the server and its host,
// replication and sharding, the schedule lag, the client, the diagnosis,
// the thresholds judged and, last, where a reader of the summary's tail sees it, a phase that
// found nothing. warn gets the client's warning, as its lines are
// written.
func (e *Executed) WriteSummaryLines(w io.Writer, warn func(string)) {
	out, obsv, res := e.Outcome, e.Observation, e.Results
	if out.ErrorStop != nil {
		fmt.Fprintf(w, "[ERRORS], StoppedBy, %s %s\n", out.ErrorStop.Flag, strconv.FormatFloat(out.ErrorStop.Limit, 'f', -1, 64))
	}
	var lines []string
	if out.Observer != nil {
		first, last := out.Observer.Bounds()
		lines = append(lines, metrics.SummaryLines(first, last, obsv.SizesAfter, obsv.Topology)...)
		lines = append(lines, metrics.ReplicationLines(out.Observer.Intervals())...)
	}
	lines = append(lines, metrics.ShardingLines(obsv.Sharding)...)
	lines = append(lines, export.ScheduleLagLines(out.Summary)...)
	lines = append(lines, DocumentLines(out.Documents)...)
	writeLines(w, lines)
	if res != nil && res.Extra != nil {
		writeLines(w, tpcc.SummaryLines(res.Extra.TPCC))
	}
	// The client's lines and warning say what the run's one diagnosis
	// says of it.
	var diag *results.Diagnosis
	if res != nil && res.Extra != nil {
		diag = res.Extra.Diagnosis
	}
	if obsv.Client != nil {
		writeLines(w, obsv.Client.SummaryLines(diag))
		if s := obsv.Client.Warning(diag); s != "" {
			warn(s)
		}
	}
	writeLines(w, diagnosis.SummaryLines(diag))
	writeLines(w, ThresholdLines(res))
	// The exit status (Outcome.Failure) says the same to scripts.
	if s := out.NotFound().Sentence(); s != "" {
		fmt.Fprintf(w, "[WARNING], AllNotFound, %s\n", printable.Field(s))
	}
}

func writeLines(w io.Writer, lines []string) {
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
}

// ThresholdLines are the summary's [THRESHOLD] lines, one per threshold
// the run was judged by, in the order given: "[THRESHOLD], READ:p(99)<5ms,
// pass".
func ThresholdLines(res *results.Results) []string {
	if res == nil || res.Extra == nil {
		return nil
	}
	var lines []string
	for _, t := range res.Extra.Thresholds {
		verdict := "pass"
		if !t.Pass {
			verdict = "fail"
		}
		lines = append(lines, fmt.Sprintf("[THRESHOLD], %s, %s", printable.Field(t.Threshold), verdict))
	}
	return lines
}
