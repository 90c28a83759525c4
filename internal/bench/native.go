package bench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/runner"
)

// phaseOf is the phase of f that command runs: load's load, run's
// measure.
func phaseOf(f *native.File, command string) *native.Phase {
	if command == "load" {
		return f.Load
	}
	return f.Measure
}

// prepareNative readies a native workload's phase in place of YCSB's
// core: before a load its collections' indexes (after dropping them with
// --drop); before a run on an empty embedded server, the file's load
// phase first, as a YCSB run fills it with recordcount records.
func (p *Prepared) prepareNative(ctx context.Context) error {
	f, t := p.t.Native, &p.t
	ph := phaseOf(f, t.Command)
	if ph == nil {
		want := "measure"
		if t.Command == "load" {
			want = "load"
		}
		return InputError{fmt.Errorf("%s has no %s phase for mongobench %s; add one under phases", f.Path, want, t.Command)}
	}
	drv := p.Client.Driver()
	phases := []*native.Phase{ph}
	if t.Command != "load" && p.Server != nil && f.Load != nil {
		phases = append(phases, f.Load)
	}
	if t.Command != "load" && f.Warmup != nil {
		phases = append(phases, f.Warmup)
	}
	if err := p.checkSupported(ctx, f, phases, t.Command == "load" || p.Server != nil); err != nil {
		return err
	}
	if t.Command == "load" {
		if err := native.Setup(ctx, f, drv, p.Database, t.Drop); err != nil {
			return t.step(err, "creating the workload's collections and indexes")
		}
		if err := p.nativeShardKeys(ctx, f, true); err != nil {
			return err
		}
	} else {
		if p.Server != nil && f.Load != nil {
			if err := p.preloadNative(ctx, f); err != nil {
				return err
			}
		}
		if err := p.nativeShardKeys(ctx, f, false); err != nil {
			return err
		}
	}
	pr, err := native.NewPhaseRunner(f, ph, drv, p.Database)
	if err != nil {
		return InputError{err}
	}
	if t.Command == "load" {
		// A part of a partitioned load inserts its share's documents:
		// those of its share's numbers, which a load that runs for a
		// duration has none of.
		if f.Load.Count == 0 && t.Spec.InsertStart != 0 {
			return InputError{fmt.Errorf("%s: its load phase runs for a duration, which cannot start at insertstart=%d (a part of a partitioned load inserts the documents of its share of the count); accepted: a load phase with count", f.Path, t.Spec.InsertStart)}
		}
		pr.First = t.Spec.InsertStart
	}
	p.ops = pr
	if t.Command != "load" && f.Warmup != nil {
		if p.warmupOps, err = native.NewPhaseRunner(f, f.Warmup, drv, p.Database); err != nil {
			return InputError{err}
		}
	}
	return nil
}

// warmup runs the warm-up before a run's phase: a native workload's
// warmup phase when it has one (its operations, threads, rate and count
// or duration; -p warmuptime, when given, its length instead), else
// warmuptime of the phase's own workload. Its figures are kept apart from
// the phase's, as a YCSB warm-up's are.
func (p *Prepared) warmup(ctx context.Context, cfg Config) (*results.Warmup, *measure.Summary, error) {
	if p.warmupOps == nil {
		return Warmup(ctx, cfg)
	}
	ph := p.t.Native.Warmup
	spec := *cfg.Spec
	spec.Threads, spec.Target, spec.Stages = ph.Threads, ph.Rate, nil
	cfg.Spec, cfg.Ops = &spec, p.warmupOps
	// A seed of its own: the warm-up's inserts are numbered in another
	// window than the measured phase's, which would otherwise meet them
	// as duplicate keys.
	cfg.Seed = warmupSeed(p.Seed)
	length, count := warmupLength(ph, spec.WarmupTime)
	return warmup(ctx, cfg, length, count)
}

// warmupLength is what ends the warmup phase ph: its count or duration,
// or warmupTime (-p warmuptime) in their place when given.
func warmupLength(ph *native.Phase, warmupTime time.Duration) (time.Duration, int64) {
	if warmupTime > 0 {
		return warmupTime, 0
	}
	return ph.Duration, ph.Count
}

// warmupSeed is the warm-up's seed, derived from the phase's.
func warmupSeed(seed uint64) uint64 { return seed ^ 0x9e3779b97f4a7c15 }

// checkSupported refuses, before anything is written or measured, a
// phase with an operation the server cannot run (a transaction on a
// standalone or on FerretDB, an aggregation stage FerretDB lacks): one
// line naming each and what is accepted, instead of a run whose every
// such operation fails; with setUp, also a collection it cannot create as
// the file describes it (a validator on FerretDB). A server that will
// not say what it is is not refused: its operations' own errors will say.
func (p *Prepared) checkSupported(ctx context.Context, f *native.File, phases []*native.Phase, setUp bool) error {
	srv, err := native.ServerOf(ctx, p.Client.Driver())
	if err != nil {
		p.t.notify(Info, "could not ask the server what it supports (%v): %s runs as written", err, f.Path)
		return nil
	}
	var why []string
	if setUp {
		why = f.UnsupportedCollections(srv)
	}
	for _, ph := range phases {
		why = append(why, ph.Unsupported(srv)...)
	}
	if len(why) > 0 {
		return InputError{fmt.Errorf("%s: the server cannot run %s", f.Path, strings.Join(why, "; "))}
	}
	return nil
}

// nativeShardKeys shards f's collections that have a shardKey through
// the mongos before a load (load), or checks them before another phase;
// a server that is no mongos, or a collection sharded otherwise, is bad
// input, as for mongodb.shardkey.
func (p *Prepared) nativeShardKeys(ctx context.Context, f *native.File, load bool) error {
	err := native.SetUpShardKeys(ctx, f, p.Client, load, func(s string) { p.t.notify(Info, "%s", s) })
	var notMongos *mongo.NotMongosError
	var mismatch *mongo.ShardKeyMismatchError
	if errors.As(err, &notMongos) || errors.As(err, &mismatch) {
		return InputError{fmt.Errorf("%s: %w", f.Path, err)}
	}
	return p.t.step(err, "setting up the shard keys of "+f.Path)
}

// preloadNative runs f's load phase into an empty embedded server.
func (p *Prepared) preloadNative(ctx context.Context, f *native.File) error {
	first := f.Collections[0].Name
	n, err := p.Client.Count(ctx, first)
	if err != nil || n > 0 {
		return p.t.step(err, "counting the documents in "+first)
	}
	if err := native.Setup(ctx, f, p.Client.Driver(), p.Database, false); err != nil {
		return p.t.step(err, "creating the workload's collections and indexes")
	}
	if err := p.nativeShardKeys(ctx, f, true); err != nil {
		return err
	}
	lr, err := native.NewPhaseRunner(f, f.Load, p.Client.Driver(), p.Database)
	if err != nil {
		return InputError{err}
	}
	spec := *p.t.Spec
	spec.Threads, spec.Target, spec.MaxExecutionTime = f.Load.Threads, 0, f.Load.Duration
	p.t.notify(Info, "the embedded server is empty: running the load phase of %s first", f.Path)
	start := time.Now()
	out, err := Run(ctx, Config{
		Command: "load", Ops: lr, Spec: &spec, Client: p.Client, Seed: p.Seed,
		BatchSize: 1, Operations: f.Load.Count,
		Stop: p.t.Stop, Grace: p.t.Grace, Notify: p.t.Notify,
	})
	if err != nil {
		return err
	}
	if stopped(p.t.Stop) {
		return &Interrupted{Step: "running the load phase of " + f.Path}
	}
	p.t.notify(Info, "loaded: %d operations in %.1f s", out.Summary.Operations, time.Since(start).Seconds())
	return nil
}

var _ runner.OpRunner = (*native.PhaseRunner)(nil)
