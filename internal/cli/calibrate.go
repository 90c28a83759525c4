package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/mongobench/mongobench/internal/calibrate"
	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/redact"
)

const calibrateAbout = `usage: mongobench calibrate [-threads LIST] [-P file]... [-p name=value]... [-operationcount N] [--repeat N] [--json PATH]

Measures mongobench's own ceiling on this machine: runs a workload against a
MongoDB wire-protocol null server (started as a child process on loopback,
answering every request at once) and prints, per thread count, the client's
ops/s, CPU per operation, p50/p99 latency and RSS on each of mongobench's
wire paths (mongodb.path=driver, shown as "mongobench", and lean) beside a
bare loop of the official Go driver run the same way, and each path's
overhead above it. Workload a and the load phase (batchsize 1 and 100) are
measured at 16 threads too, and each goal is judged: holds or does not hold.
Its phases are load's and run's, sending the server the operations alone:
nothing is observed around them.`

// calibrateArgs is a parsed calibrate command line.
type calibrateArgs = calibrate.Args

func calibrateFlags(a *calibrateArgs) []flagDef { return fromDefs(a.Flags()) }

// calibrateHelp is calibrate's help.
func calibrateHelp() string {
	return calibrateAbout + "\n" + flagsHelp(calibrateFlags(&calibrateArgs{}))
}

func parseCalibrateArgs(args []string) (*calibrateArgs, error) {
	a := &calibrateArgs{Repeat: 1}
	defs := calibrateFlags(a)
	fs := newFlagSet("calibrate", defs)
	if err := fs.parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			a.Help = true
			return a, nil
		}
		if fs.ValueErr() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("calibrate: %s", flagError(err, defs))
	}
	if fs.fs.NArg() > 0 {
		return nil, fmt.Errorf("calibrate: unexpected argument %q: properties are given as -p name=value, files as -P file", redact.Arg(fs.fs.Arg(0)))
	}
	return a, nil
}

// runCalibrate is "mongobench calibrate".
func runCalibrate(ctx context.Context, args []string, env Env) error {
	a, err := parseCalibrateArgs(args)
	if err != nil {
		return badInput{err}
	}
	if a.Help {
		fmt.Fprintln(env.Stdout, calibrateHelp())
		return nil
	}
	opts, err := a.Options()
	if err != nil {
		return badInput{err}
	}
	if a.JSONPath != "" {
		// Calibrate keeps no runs, but the store stands where it stands.
		st := storeFlags{disabled: true}
		st.fromEnv(env)
		ins := storeInputs(st)
		for _, f := range a.Files {
			ins = append(ins, namedPath{"-P", f})
		}
		p := output.Plan{Files: []output.Named{{Flag: "--json", Path: a.JSONPath}}, Inputs: named(ins)}
		if err := p.Check(); err != nil {
			return badInput{err}
		}
	}
	opts.Progress = env.Stderr

	interrupt := newInterrupt(env.Interrupt)
	defer interrupt.close()
	ctx, cancel := stopContext(ctx, interrupt.stopped())
	defer cancel()

	rep, runErr := calibrate.Run(ctx, opts)
	if rep == nil {
		if code := interrupt.code(); code != 0 {
			return exitError{code, errors.New("calibrate: interrupted before anything was measured")}
		}
		return fmt.Errorf("calibrate: %w", runErr)
	}
	outs := outputs{calibrate.Keep(env.Stdout, a.JSONPath, rep)}
	if err := outs.report(env.Stderr); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	if code := interrupt.code(); code != 0 {
		return exitError{code, errors.New("calibrate: interrupted: the report covers the points measured before the signal and is marked partial")}
	}
	if runErr != nil {
		return fmt.Errorf("calibrate: %w", runErr)
	}
	return nil
}
