package cli

import (
	"context"
	"errors"

	"github.com/mongobench/mongobench/internal/findmax"
	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/sweep/sweeptext"
	"github.com/mongobench/mongobench/internal/workload"
)

// findMaxDims makes -target the sweep's one varied property, starting
// where -target (or -p target) says.
func findMaxDims(o *sweepOptions, props *workload.Properties) {
	if len(o.findMax) == 0 {
		return
	}
	o.dims = []sweep.Dim{sweep.FindMaxDim(props)}
}

// runFindMax runs the search and says the answer; no rate sustained is
// exit 99, as a failed threshold is.
func runFindMax(ctx context.Context, env Env, s *sweep.Sweep, o *sweepOptions) error {
	res, err := s.FindMax(ctx, findmax.Options{Start: sweep.FindMaxStartOf(o.dims[0])})
	sweeptext.WriteFindMax(env.Stdout, res, o.findMax)
	if err != nil {
		return err
	}
	if !res.Found() {
		return exitError{ExitThresholds, errors.New("find-max: no rate tried met the objective")}
	}
	return nil
}
