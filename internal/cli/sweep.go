package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/interrupt"
	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/promsink"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/sweep/sweeptext"
	"github.com/mongobench/mongobench/internal/threshold"
	"github.com/mongobench/mongobench/internal/workload"
)

// runSweep is "mongobench sweep": it parses, plans and runs the sweep
// through the sweep package, printing the table as trials finish.
func runSweep(ctx context.Context, args []string, env Env) error {
	o, err := parseSweepArgs(args)
	if err != nil {
		return err
	}
	o.store.fromEnv(env)
	if o.help {
		fmt.Fprintln(env.Stdout, sweepHelp())
		return nil
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	props, err := o.benchArgs.loadProperties()
	if err != nil {
		return badInput{err}
	}
	if err := checkSweepInput(o); err != nil {
		return err
	}
	sig := interrupt.New(env.Interrupt)
	defer sig.Close()
	plan, err := planSweep(ctx, o, props, env, sig)
	if err != nil {
		return err
	}
	pr := &sweepPrinter{env: env, format: o.format, Progress: &sweeptext.Progress{Stdout: env.Stdout, Stderr: env.Stderr,
		Plan: plan, FindMax: len(o.findMax) > 0, Reload: o.reload, Knee: o.knee, CSV: o.format == csvFormat}}
	if pr.ops, err = checkSweepOutputs(o, plan); err != nil {
		return err
	}
	var st *store.Store
	if !o.store.disabled {
		if st, err = openStore(o.store.path); err != nil {
			return err
		}
		defer st.Close()
	}
	// One endpoint for the whole sweep, fed each trial in turn.
	var metricsSink bench.Sink
	var metricsRunID string
	if o.benchArgs.metricsAddr != "" {
		srv, runID, err := serveSweepMetrics(o, plan, env)
		if err != nil {
			return err
		}
		defer srv.Close()
		metricsSink, metricsRunID = srv.Sink(), runID
	}
	a := o.benchArgs
	s, err := sweep.Start(ctx, plan, sweep.Config{
		Repeat: o.repeat, DiscardFirst: o.discardFirst, Reload: o.reload, OutDir: o.outDir,
		DataDir: a.dataDir, Drop: a.drop, Native: a.native, Limits: a.limits,
		Grace: stopGrace, Stop: sig.Stopped(), Store: st, Metrics: metricsSink, MetricsRunID: metricsRunID,
		Tool:        results.Tool{Name: "mongobench", Version: Version},
		CommandLine: append([]string{"mongobench", o.command}, redact.Args(o.bench)...),
		Display:     func() []bench.Sink { return displaySinks(env, a.status) },
		Knee:        o.knee,
		Events:      pr,
		Thresholds:  append(a.thresholds, o.findMax...),
	})
	if err != nil {
		var ie bench.InputError
		if errors.As(err, &ie) {
			return badInput{err}
		}
		return err
	}
	defer s.Close()
	pr.Sweep = s
	pr.start()
	var runErr error
	if len(o.findMax) > 0 {
		runErr = runFindMax(ctx, env, s, o)
	} else {
		runErr = s.Run(ctx)
	}
	pr.Knees()
	pr.finish(st)
	return sweepOutcome(runErr, s, o, env, sig)
}

// checkSweepInput refuses, before planning, what a sweep cannot run.
func checkSweepInput(o *sweepOptions) error {
	if err := threshold.CheckWorkload(append(o.benchArgs.thresholds, o.findMax...), o.benchArgs.native); err != nil {
		return badInput{err}
	}
	return nil
}

// planSweep resolves the sweep's points. Planning resolves every point,
// which takes seconds for thousands: a signal ends it.
func planSweep(ctx context.Context, o *sweepOptions, props *workload.Properties, env Env, sig *interrupt.Watch) (*sweep.Plan, error) {
	findMaxDims(o, props)
	planCtx, stopPlanning := interrupt.Context(ctx, sig.Stopped())
	plan, err := sweep.NewPlanNative(planCtx, o.command, props, env.Getenv("MONGOBENCH_URL"), o.dims, o.benchArgs.native)
	stopPlanning()
	if code := sig.Code(); code != 0 && err != nil {
		return nil, exitError{code, errors.New("sweep: interrupted while planning its points: nothing was run")}
	}
	if err != nil {
		return nil, badInput{err}
	}
	if len(o.findMax) > 0 {
		plan.Planned = 0 // the search decides its points
	}
	return plan, nil
}

// serveSweepMetrics starts the sweep's metrics endpoint, and returns it
// with the run id its series carry.
func serveSweepMetrics(o *sweepOptions, plan *sweep.Plan, env Env) (*promsink.Server, string, error) {
	label, _ := plan.Props.Get("label")
	run := promsink.Options{Part: 0, Parts: 1, RunID: newRunID(time.Now()), Label: label,
		Workload: promsink.WorkloadName(o.benchArgs.files)}
	srv, err := serveMetrics(o.benchArgs.metricsAddr, run, env)
	if err != nil {
		return nil, "", err
	}
	return srv, run.RunID, nil
}

// sweepOutcome is the sweep's error, and so its exit status, once it
// has run and its table is printed.
func sweepOutcome(runErr error, s *sweep.Sweep, o *sweepOptions, env Env, sig *interrupt.Watch) error {
	var ie bench.InputError
	switch {
	case errors.Is(runErr, sweep.ErrStopped):
		code := sig.Code()
		if code == 0 {
			code = ExitSIGINT
		}
		return exitError{code, errors.New("interrupted: the sweep stopped; the table and the results files cover what ran, a run cut short is marked partial")}
	case errors.As(runErr, &ie):
		return badInput{runErr}
	case runErr == nil && s.Unsaved > 0:
		// The sweep went on without the store; it still failed at that.
		return fmt.Errorf("the sweep ran, but %s could not be saved in the results store (above); the results files in %s keep every run", plural(s.Unsaved, "run"), s.Dir)
	case runErr == nil && len(o.findMax) == 0 && len(o.benchArgs.thresholds) > 0:
		return thresholdsExit(s.ThresholdsFailure(env.Stderr))
	}
	return runErr
}

// checkSweepOutputs refuses, before anything runs, what the sweep could
// not write (sweep.Plan.CheckOutputs); it returns the operations the
// sweep's table has columns for (sweep.Plan.TableOps).
func checkSweepOutputs(o *sweepOptions, plan *sweep.Plan) ([]string, error) {
	ins := append(output.Existing("-P", o.benchArgs.files), named(storeInputs(o.store))...)
	store := ""
	if !o.store.disabled {
		store = storePath(o.store.path)
	}
	if err := plan.CheckOutputs(ins, store, o.benchArgs.dataDir); err != nil {
		return nil, badInput{err}
	}
	return plan.TableOps(o.command, o.benchArgs.native), nil
}

// sweepPrinter prints what a sweep tells as it goes: notices and
// progress on stderr (sweeptext.Progress), the table on stdout.
type sweepPrinter struct {
	*sweeptext.Progress
	env    Env
	format tableFormat
	ops    []string
	table  *sweepTable
}

var _ sweep.Events = (*sweepPrinter)(nil)

// start says what the sweep will do and prints the table's header.
func (pr *sweepPrinter) start() {
	pr.Start()
	pr.table = newSweepTable(pr.env.Stdout, pr.format, pr.Plan, pr.ops)
	pr.table.header()
}

func (pr *sweepPrinter) Notice(n bench.Notice) { printNotice(pr.env.Stderr)(n) }

func (pr *sweepPrinter) TrialDone(p *sweep.Point, t sweep.Trial, err error) {
	pr.table.trialRow(p, t, trialNote(t, err))
}

func (pr *sweepPrinter) PointDone(p *sweep.Point, trials []sweep.Trial) { pr.table.meanRow(p, trials) }

// finish says where everything went.
func (pr *sweepPrinter) finish(st *store.Store) {
	runs, path := 0, ""
	if pr.table != nil {
		runs = pr.table.rows
	}
	if st != nil {
		path = st.Path()
	}
	pr.Finish(runs, path)
}
