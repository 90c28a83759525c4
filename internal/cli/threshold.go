package cli

import (
	"io"

	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/threshold"
)

// ExitThresholds is the exit code of a command whose thresholds failed,
// k6's, so that CI jobs tell a slow system from a broken benchmark.
const ExitThresholds = 99

func thresholdFlag(dest *[]threshold.Threshold) flagDef { return fromDef(threshold.Flag(dest)) }

// thresholdsFailure is threshold.Failure as exit 99.
func thresholdsFailure(w io.Writer, ts []threshold.Threshold, res *results.Results) error {
	return thresholdsExit(threshold.Failure(w, ts, res))
}

// sweepThresholdsFailure is the sweep's exit 99, or nil when every trial
// met its thresholds.
func sweepThresholdsFailure(w io.Writer, ts []threshold.Threshold, s *sweep.Sweep) error {
	if len(ts) == 0 {
		return nil
	}
	return thresholdsExit(s.ThresholdsFailure(w))
}

func thresholdsExit(err error) error {
	if err != nil {
		return exitError{ExitThresholds, err}
	}
	return nil
}

func checkThresholdOperations(ts []threshold.Threshold, nf *native.File) error {
	return threshold.CheckWorkload(ts, nf)
}
