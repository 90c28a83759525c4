package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/native"
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
	if err := p.checkSupported(ctx, f, phases); err != nil {
		return err
	}
	if t.Command == "load" {
		if err := native.Setup(ctx, f, drv, p.Database, t.Drop); err != nil {
			return t.step(err, "creating the workload's collections and indexes")
		}
	} else if p.Server != nil && f.Load != nil {
		if err := p.preloadNative(ctx, f); err != nil {
			return err
		}
	}
	var err error
	if p.ops, err = native.NewPhaseRunner(f, ph, drv, p.Database); err != nil {
		return InputError{err}
	}
	return nil
}

// checkSupported refuses, before anything is written or measured, a
// phase with an operation the server cannot run (a transaction on a
// standalone or on FerretDB, an aggregation stage FerretDB lacks): one
// line naming each and what is accepted, instead of a run whose every
// such operation fails. A server that will not say what it is is not
// refused: its operations' own errors will say.
func (p *Prepared) checkSupported(ctx context.Context, f *native.File, phases []*native.Phase) error {
	srv, err := native.ServerOf(ctx, p.Client.Driver())
	if err != nil {
		p.t.notify(Info, "could not ask the server what it supports (%v): %s runs as written", err, f.Path)
		return nil
	}
	var why []string
	for _, ph := range phases {
		why = append(why, ph.Unsupported(srv)...)
	}
	if len(why) > 0 {
		return InputError{fmt.Errorf("%s: the server cannot run %s", f.Path, strings.Join(why, "; "))}
	}
	return nil
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
