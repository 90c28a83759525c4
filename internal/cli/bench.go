package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/interrupt"
	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/progress"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/threshold"
)

// stopGrace bounds how long operations in flight may run on after a stop
// request before they are cancelled.
const stopGrace = 5 * time.Second

// benchConfig is everything a load or run needs, resolved and validated.
type benchConfig struct {
	*bench.Settings
	args     *benchArgs
	exporter string // the summary's format: one of export.Exporters
	// plan is this process's part of a partitioned run, or the instant a
	// whole run starts at; nil for neither.
	plan *partition.Plan
	// metricsRunID is the run_id label of the live metrics; "" for none.
	metricsRunID string
}

// warn prints warnings as mongobench's.
func warn(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintf(w, "mongobench: warning: %s\n", s)
	}
}

func resolveBench(command string, args []string, env Env) (*benchConfig, error) {
	a, err := parseBenchArgs(command, args)
	if err != nil {
		return nil, badInput{err}
	}
	if a.help {
		return &benchConfig{args: a}, nil
	}
	props, err := a.loadProperties()
	if err != nil {
		return nil, badInput{err}
	}
	r, warnings, err := bench.Resolve(command, props, a.out, a.parts, env.Getenv)
	warn(env.Stderr, warnings)
	if err != nil {
		return nil, badInput{err}
	}
	return &benchConfig{Settings: r.Settings, args: a, exporter: r.Exporter, plan: r.Part}, nil
}

// printNotice prints what a phase has to say as mongobench's.
func printNotice(w io.Writer) func(bench.Notice) {
	return func(n bench.Notice) {
		if n.Kind == bench.Warning {
			fmt.Fprintf(w, "mongobench: warning: %s\n", n.Text)
			return
		}
		fmt.Fprintf(w, "mongobench: %s\n", n.Text)
	}
}

// prepareError is the command's error for a phase that could not be
// prepared: a stop says so with the signal's exit code, after how far a
// preload got; a property the preparation refused is bad input.
func prepareError(err error, env Env, dataDir string, sig *interrupt.Watch) error {
	var stop *bench.Interrupted
	if errors.As(err, &stop) {
		if c := stop.Preload; c != nil {
			for _, l := range c.Lines(dataDir) {
				fmt.Fprintf(env.Stderr, "mongobench: %s\n", l)
			}
		}
		return exitError{sig.Code(), fmt.Errorf("interrupted while %s: nothing was measured", stop.Step)}
	}
	var ie bench.InputError
	if errors.As(err, &ie) || partition.IsConflict(err) {
		return badInput{err}
	}
	return err
}

func runBench(ctx context.Context, command string, args []string, env Env) error {
	cfg, err := resolveBench(command, args, env)
	if err != nil {
		return err
	}
	if cfg.args.help {
		fmt.Fprintln(env.Stdout, benchHelp(command))
		return nil
	}
	if err := threshold.CheckRun(cfg.args.thresholds, cfg.Spec.TPCC, cfg.args.native); err != nil {
		return badInput{err}
	}
	spec := cfg.Spec

	// A signal before the phase cancels whatever step is under way and
	// ends the command at once: there is nothing measured to save yet.
	sig := interrupt.New(env.Interrupt)
	defer sig.Close()

	// The store is opened before the benchmark so that a wrong --store is
	// reported before any time is spent measuring.
	var runStore *store.Store
	cfg.args.store.fromEnv(env)
	saving := !cfg.args.store.disabled
	storeFile := ""
	if saving {
		storeFile = storePath(cfg.args.store.path)
	}
	if err := checkBenchOutputs(cfg, storeFile); err != nil {
		return err
	}
	var metricsSink bench.Sink
	if cfg.args.metricsAddr != "" {
		run := metricsOptions(cfg, time.Now())
		srv, err := serveMetrics(cfg.args.metricsAddr, run, env)
		if err != nil {
			return err
		}
		cfg.metricsRunID = run.RunID
		defer srv.Close()
		metricsSink = srv.Sink()
	}
	if saving {
		if runStore, err = openStore(cfg.args.store.path); err != nil {
			return err
		}
		defer runStore.Close()
	}

	target := bench.Target{
		Settings: cfg.Settings, DataDir: cfg.args.dataDir, Drop: cfg.args.drop,
		Stop: sig.Stopped(), Grace: stopGrace, Notify: printNotice(env.Stderr),
		Native: cfg.args.native,
	}
	exec := bench.Execution{
		Limits: cfg.args.limits,
		Meta: func(p *bench.Prepared) results.Meta {
			return resultsMeta(cfg, command, p.RunSeed, redact.URL(p.URL), p.Database)
		},
		Endpoint: metricsSink,
		Display:  displaySinks(env, cfg.args.status),
	}
	journal := ""
	if cfg.args.out != "" {
		journal = cfg.args.out + results.JournalSuffix
		exec.Journal = journal
	}
	if runStore != nil {
		exec.DiskCeilings = func(ctx context.Context) []*results.DiskCeiling {
			return runStore.RunCeilings(ctx, func(w string) { warn(env.Stderr, []string{w}) })
		}
	}
	if plan := cfg.plan; plan != nil {
		bench.ArmPart(plan, &target, &exec, func(msg string) { fmt.Fprintf(env.Stderr, "mongobench: %s\n", msg) })
	}
	exec.Target = target
	live := threshold.Watch(cfg.args.thresholds, &exec)
	done, err := bench.Execute(ctx, exec)
	if err != nil {
		return prepareError(err, env, cfg.args.dataDir, sig)
	}
	if err := threshold.Record(cfg.args.thresholds, done.Results, live); err != nil {
		return err
	}
	// The results are built whether or not they are kept: the summary
	// prints their diagnosis.
	out, dbName := done.Outcome, done.Database
	// Every output is written whatever became of the others: a results
	// file that cannot be written must not cost the run its place in the
	// store, nor the store the results file.
	outs := outputs{output.Tally{Failed: out.SinkErrors}}
	writeSummary(env, cfg, done, &outs)
	if line := out.ScheduleNote(spec.PeakTarget()); line != "" {
		fmt.Fprintf(env.Stderr, "mongobench: %s\n", line)
	}
	if err := keepResults(ctx, env, cfg.args.out, runStore, done, &outs); err != nil {
		return err
	}
	if journal != "" && !outs.JournalFailed(journal) {
		if _, err := os.Stat(journal); err == nil {
			outs.Keep("the journal " + journal)
		}
	}
	failure := outs.report(env.Stderr)
	if code := sig.Code(); code != 0 {
		return exitError{code, errors.New("interrupted: the summary and results cover what ran and are marked partial")}
	}
	if failure != nil {
		return failure
	}
	if note := out.DuplicateKeyNote(command, dbName, spec.Table); note != "" {
		fmt.Fprintf(env.Stderr, "mongobench: %s\n", note)
	}
	if err := out.Failure(); err != nil {
		return err
	}
	return thresholdsExit(threshold.Failure(env.Stderr, cfg.args.thresholds, done.Results))
}

// writeSummary prints the phase's summary: YCSB's lines, then what the
// server, its host and the client did, and the diagnosis, where the
// exporter says (stdout, or exportfile).
func writeSummary(env Env, cfg *benchConfig, done *bench.Executed, outs *outputs) {
	spec, out := cfg.Spec, done.Outcome
	summary := newSummaryOutput(env, spec.ExportFile, cfg.exporter)
	opts := export.TextOptions{Percentiles: spec.Percentiles, Service: spec.MeasureService, Intended: spec.MeasureIntended, Partial: out.Partial}
	summaryErr := export.WriteText(summary, out.Summary, opts)
	if summaryErr != nil {
		summaryErr = fmt.Errorf("the summary: %w", summaryErr)
	}
	done.WriteSummaryLines(summary, func(w string) { fmt.Fprintf(env.Stderr, "mongobench: warning: %s\n", w) })
	if err := summary.close(); err != nil && summaryErr == nil {
		summaryErr = err
	}
	if summaryErr != nil {
		outs.Fail(summaryErr)
	} else {
		outs.Keep(summary.what())
	}
}

// keepResults writes the results file and saves the run in the store,
// each whatever became of the other; the error is the results' own, when
// they could not be assembled.
func keepResults(ctx context.Context, env Env, out string, runStore *store.Store, done *bench.Executed, outs *outputs) error {
	if out == "" && runStore == nil {
		return nil
	}
	if done.ResultsErr != nil {
		return done.ResultsErr
	}
	outs.keep(ctx, env, out, runStore, done.Results)
	return nil
}

// displaySinks show a phase as it goes (package progress).
func displaySinks(env Env, status bool) []bench.Sink {
	return progress.Sinks(env.Stderr, env.StderrIsTerminal, status)
}
