package cli

import (
	"github.com/mongobench/mongobench/internal/threshold"
)

// ExitThresholds is the exit code of a command whose thresholds failed,
// k6's, so that CI jobs tell a slow system from a broken benchmark.
const ExitThresholds = 99

func thresholdFlag(dest *[]threshold.Threshold) flagDef { return fromDef(threshold.Flag(dest)) }

// thresholdsExit is failed thresholds' error as exit 99.
func thresholdsExit(err error) error {
	if err != nil {
		return exitError{ExitThresholds, err}
	}
	return nil
}
