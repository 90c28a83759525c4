package cli

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/threshold"
)

// ExitThresholds is the exit code of a command whose thresholds failed,
// k6's, so that CI jobs tell a slow system from a broken benchmark.
const ExitThresholds = 99

// thresholdFlag is --threshold, repeatable, each parsed as it is given so
// that a wrong one is refused before anything runs.
func thresholdFlag(dest *[]threshold.Threshold) flagDef {
	return funcFlag("threshold", "LIMIT", "fail the command (exit 99) unless the run meets LIMIT (repeatable):\n'READ:p(99)<5ms', 'OVERALL:throughput>2000', 'errors<0.1%',\n'UPDATE:intended p(99.9)<20ms'; add ';abortOnFail' to stop the run\nat the first interval after which it fails", true, func(v string) error {
		t, err := threshold.Parse(v)
		if err != nil {
			return errors.New("--threshold: " + err.Error())
		}
		*dest = append(*dest, t)
		return nil
	})
}

// thresholdSink feeds a phase's intervals to the thresholds that may end
// it (abortOnFail).
type thresholdSink struct{ live *threshold.Live }

func (thresholdSink) Open(bench.Phase) error { return nil }
func (s thresholdSink) Interval(u bench.Update) error {
	s.live.Observe(u.Interval)
	return nil
}
func (thresholdSink) Close(bool) error { return nil }

// watchThresholds arms those of ts with abortOnFail on exec; the Live it
// returns is nil when none has it.
func watchThresholds(ts []threshold.Threshold, exec *bench.Execution) *threshold.Live {
	live := threshold.NewLive(ts)
	if live != nil {
		exec.Display = append(exec.Display, thresholdSink{live})
		exec.Limits.Abort = live.Abort()
	}
	return live
}

// judgeThresholds records on res how it met ts: before the results are
// written, so that the file and the store keep the outcomes.
func judgeThresholds(ts []threshold.Threshold, res *results.Results, live *threshold.Live) error {
	if len(ts) == 0 || res == nil {
		return nil
	}
	recs, err := threshold.Judge(ts, res, live)
	if err != nil {
		return fmt.Errorf("judging the thresholds: %w", err)
	}
	if res.Extra == nil {
		res.Extra = &results.Extra{}
	}
	res.Extra.Thresholds = recs
	return nil
}

// thresholdsFailure says on w why each failed threshold failed and is
// the command's exit 99, or nil when all passed. Thresholds that could
// not be judged (no results) fail too: a CI job must not pass unseen.
func thresholdsFailure(w io.Writer, ts []threshold.Threshold, res *results.Results) error {
	if len(ts) == 0 {
		return nil
	}
	if res == nil || res.Extra == nil || len(res.Extra.Thresholds) != len(ts) {
		return exitError{ExitThresholds, fmt.Errorf("%d thresholds could not be judged: the run has no results", len(ts))}
	}
	failed := 0
	for _, t := range res.Extra.Thresholds {
		if !t.Pass {
			failed++
			fmt.Fprintf(w, "mongobench: threshold %s failed: %s\n", t.Threshold, t.Reason)
		}
	}
	if failed == 0 {
		return nil
	}
	return exitError{ExitThresholds, fmt.Errorf("%d of %d thresholds failed", failed, len(ts))}
}

// sweepThresholdsFailure says on w which trials failed which thresholds
// and is the sweep's exit 99, or nil when every trial met them all.
func sweepThresholdsFailure(w io.Writer, ts []threshold.Threshold, s *sweep.Sweep) error {
	if len(ts) == 0 || len(s.ThresholdFailures) == 0 {
		return nil
	}
	for _, f := range s.ThresholdFailures {
		keys := slices.Sorted(maps.Keys(f.Point))
		point := make([]string, len(keys))
		for i, k := range keys {
			point[i] = k + "=" + f.Point[k]
		}
		for _, t := range f.Failed {
			fmt.Fprintf(w, "mongobench: %s trial %d (%s): threshold %s failed: %s\n", printable.String(strings.Join(point, " ")), f.Trial, printable.String(f.File), t.Threshold, t.Reason)
		}
	}
	return exitError{ExitThresholds, fmt.Errorf("%s of the sweep failed thresholds (above)", plural(len(s.ThresholdFailures), "trial"))}
}

// checkThresholdOperations refuses, before anything runs, a threshold on
// an operation the workload does not have: YCSB's operations for a YCSB
// workload, a native workload's named operations for one.
func checkThresholdOperations(ts []threshold.Threshold, nf *native.File) error {
	if nf == nil {
		return threshold.CheckOperations(ts, true, nil)
	}
	names := make([]string, len(nf.Operations))
	for i, op := range nf.Operations {
		names[i] = op.Name
	}
	return threshold.CheckOperations(ts, false, names)
}
