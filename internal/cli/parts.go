package cli

import (
	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/workload"
)

// partArgs are the flags of a partitioned run, as given.
type partArgs = partition.Given

// resolvePart narrows spec to this process's part, if it is one
// (partition.NewPlan); its refusals are bad input. The url is the one the
// parts share; "" for the embedded server.
func resolvePart(command string, a *partArgs, props *workload.Properties, spec *workload.Spec, url string, env Env) (*partition.Plan, error) {
	plan, err := partition.NewPlan(command, *a, props, spec, url, env.Getenv)
	if err != nil {
		return nil, badInput{err}
	}
	return plan, nil
}
