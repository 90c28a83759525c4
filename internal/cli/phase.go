package cli

import (
	"context"

	driver "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

type phaseConfig struct {
	command    string
	core       *workload.Core
	spec       *workload.Spec
	client     *mongo.Client
	seed       uint64
	batchSize  int
	operations int64
	status     bool // -s: status lines on stderr
	quiet      bool // a preparatory phase: no outputs, nothing observed
	interrupt  *interruptWatch
	maxErrors  int64
	// maxErrorRate is --max-error-rate; 0 for none.
	maxErrorRate float64
	monitor      *driver.Client        // samples server metrics; nil for none
	localHost    bool                  // the server runs on this machine
	shards       []metrics.ShardClient // shard primaries sampled beside a mongos
	journal      string                // path of the interval journal; "" for none
	metrics      bench.Sink            // the metrics endpoint's sink; nil for none
	meta         results.Meta          // what the journal's header says of the run
}

// runPhase runs one load or run phase with the outputs its flags ask for.
func runPhase(ctx context.Context, env Env, pc phaseConfig) (*bench.Outcome, error) {
	spec := pc.spec
	var sinks []bench.Sink
	if pc.journal != "" {
		sinks = append(sinks, bench.NewJournal(pc.journal, pc.meta))
	}
	if !pc.quiet {
		if pc.metrics != nil {
			sinks = append(sinks, pc.metrics)
		}
		if spec.HdrFileOutput {
			sinks = append(sinks, bench.NewHdrLogs(spec.HdrOutputPath))
		}
		// On a terminal the display does the status lines' job.
		switch {
		case env.StderrIsTerminal:
			sinks = append(sinks, newProgressSink(env.Stderr))
		case pc.status:
			sinks = append(sinks, bench.NewStatusLines(env.Stderr))
		}
	}
	return bench.Run(ctx, pc.config(env), sinks...)
}

// config is the phase for bench.
func (pc *phaseConfig) config(env Env) bench.Config {
	return bench.Config{
		Command: pc.command, Core: pc.core, Spec: pc.spec, Client: pc.client, Seed: pc.seed,
		BatchSize: pc.batchSize, Operations: pc.operations,
		MaxErrors: pc.maxErrors, MaxErrorRate: pc.maxErrorRate,
		Observe: !pc.quiet, Monitor: pc.monitor, LocalHost: pc.localHost, Shards: pc.shards,
		Stop: pc.interrupt.stopped(), Grace: stopGrace,
		Warnings: env.Stderr,
	}
}
