package cli

import (
	"context"
	"errors"

	"github.com/mongobench/mongobench/internal/findmax"
	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/sweep/sweeptext"
	"github.com/mongobench/mongobench/internal/threshold"
	"github.com/mongobench/mongobench/internal/workload"
)

// findMaxFlag is sweep's --find-max: the objective, in --threshold's
// grammar, repeatable.
func findMaxFlag(dest *[]threshold.Threshold) flagDef {
	return funcFlag("find-max", "LIMIT", "search -target for the highest rate that meets LIMIT (--threshold's\ngrammar, repeatable), such as 'READ:p(99)<10ms', achieving 95% of\nthe target, the median operation under 10 ms behind schedule: doubles or halves from -target\n(default 1000), bisects to within 10%, runs the answer twice more", true, func(v string) error {
		t, err := threshold.Parse(v)
		if err != nil {
			return errors.New("--find-max: " + err.Error())
		}
		*dest = append(*dest, t)
		return nil
	})
}

// checkFindMax refuses what a search cannot do: it varies -target
// itself, one configuration at a time.
func checkFindMax(o *sweepOptions) error {
	if len(o.findMax) == 0 {
		return nil
	}
	if len(o.dims) > 0 {
		return badInputf("sweep: --find-max searches -target itself, in one configuration: give no --vary (run one search per configuration)")
	}
	if o.command != "run" {
		return badInputf("sweep: --find-max searches the rate of a run phase: use sweep run")
	}
	return nil
}

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
