package cli

import (
	"fmt"
	"time"

	"github.com/mongobench/mongobench/internal/promsink"
)

// metricsAddrExpected is what --metrics-addr accepts.
const metricsAddrExpected = promsink.AddrExpected

// serveMetrics starts the --metrics-addr endpoint. An address that cannot
// be listened on is bad input, found before anything runs.
func serveMetrics(addr string, run promsink.Options, env Env) (*promsink.Server, error) {
	srv, err := promsink.ListenFlag(addr, run)
	if err != nil {
		return nil, badInput{err}
	}
	fmt.Fprintf(env.Stderr, "mongobench: serving metrics at %s (run_id %q)\n", srv.URL(), run.RunID)
	return srv, nil
}

// metricsOptions name the run the endpoint's series belong to: the part
// of a distributed run (part 0 of 1 when it is not split) and the run id
// its parts share, or for a whole run an id of its own that sorts by
// when it started; its label; and its workload files.
func metricsOptions(cfg *benchConfig, now time.Time) promsink.Options {
	o := promsink.Options{Part: 0, Parts: 1, RunID: newRunID(now), Label: cfg.Spec.Label, Workload: promsink.WorkloadName(cfg.args.files)}
	if cfg.plan != nil && !cfg.plan.Part.Whole() {
		o.Part, o.Parts, o.RunID = cfg.plan.Part.Index, cfg.plan.Part.Count, cfg.plan.RunID
	}
	return o
}

func newRunID(now time.Time) string { return promsink.NewRunID(now) }
