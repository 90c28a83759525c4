package threshold

import (
	"errors"
	"fmt"
	"io"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/tpcc"
)

// Flag is --threshold, repeatable, each parsed as it is given so that a
// wrong one is refused before anything runs.
func Flag(dest *[]Threshold) cmdflag.Def {
	return cmdflag.Func("threshold", "LIMIT", "fail the command (exit 99) unless the run meets LIMIT (repeatable):\n'READ:p(99)<5ms', 'OVERALL:throughput>2000', 'errors<0.1%',\n'UPDATE:intended p(99.9)<20ms'; add ';abortOnFail' to stop the run\nat the first interval after which it fails", true, func(v string) error {
		t, err := Parse(v)
		if err != nil {
			return errors.New("--threshold: " + err.Error())
		}
		*dest = append(*dest, t)
		return nil
	})
}

// Sink feeds a phase's intervals to the thresholds that may end it
// (abortOnFail).
type Sink struct{ Live *Live }

func (Sink) Open(bench.Phase) error { return nil }
func (s Sink) Interval(u bench.Update) error {
	s.Live.Observe(u.Interval)
	return nil
}
func (Sink) Close(bool) error { return nil }

// Watch arms those of ts with abortOnFail on exec; the Live it returns is
// nil when none has it.
func Watch(ts []Threshold, exec *bench.Execution) *Live {
	live := NewLive(ts)
	if live != nil {
		exec.Display = append(exec.Display, Sink{live})
		exec.Limits.Abort = live.Abort()
	}
	return live
}

// Record records on res how it met ts: before the results are written,
// so that the file and the store keep the outcomes.
func Record(ts []Threshold, res *results.Results, live *Live) error {
	if len(ts) == 0 || res == nil {
		return nil
	}
	recs, err := Judge(ts, res, live)
	if err != nil {
		return fmt.Errorf("judging the thresholds: %w", err)
	}
	if res.Extra == nil {
		res.Extra = &results.Extra{}
	}
	res.Extra.Thresholds = recs
	return nil
}

// Failure says on w why each failed threshold failed, and is the error
// that fails the command, or nil when all passed. Thresholds that could
// not be judged (no results) fail too: a CI job must not pass unseen.
func Failure(w io.Writer, ts []Threshold, res *results.Results) error {
	if len(ts) == 0 {
		return nil
	}
	if res == nil || res.Extra == nil || len(res.Extra.Thresholds) != len(ts) {
		return fmt.Errorf("%d thresholds could not be judged: the run has no results", len(ts))
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
	return fmt.Errorf("%d of %d thresholds failed", failed, len(ts))
}

// CheckWorkload refuses, before anything runs, a threshold on an
// operation the workload does not have: YCSB's operations for a YCSB
// workload (nf nil), a native workload's named operations for one.
func CheckWorkload(ts []Threshold, nf *native.File) error {
	if nf == nil {
		return CheckOperations(ts, true, nil)
	}
	names := make([]string, len(nf.Operations))
	for i, op := range nf.Operations {
		names[i] = op.Name
	}
	return CheckOperations(ts, false, names)
}

// CheckRun is CheckWorkload for a load or run phase: a TPC-C run's
// operations are its five transactions.
func CheckRun(ts []Threshold, tpccRun bool, nf *native.File) error {
	if tpccRun {
		return CheckOperations(ts, false, tpcc.OpNames[:])
	}
	return CheckWorkload(ts, nf)
}
