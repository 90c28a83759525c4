package bench

import (
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

// SpecOf is the workload a results file's configuration describes, as
// ResolveSpec resolves it (the percentiles every summary reports added),
// for printing a run again as its own command would have; nil when the
// configuration does not resolve.
func SpecOf(res *results.Results) *workload.Spec {
	p := workload.NewProperties()
	for k, v := range res.Config {
		p.Set(k, v, "results")
	}
	spec, _, err := ResolveSpec(res.Phase, p)
	if err != nil {
		return nil
	}
	return spec
}
