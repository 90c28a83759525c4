package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/mongobench/mongobench/internal/calibrate"
	"github.com/mongobench/mongobench/internal/interrupt"
	"github.com/mongobench/mongobench/internal/redact"
)

// calibrateArgs is a parsed calibrate command line.
type calibrateArgs = calibrate.Args

func calibrateFlags(a *calibrateArgs) []flagDef { return fromDefs(a.Flags()) }

// calibrateHelp is calibrate's help.
func calibrateHelp() string {
	return calibrate.Usage + "\n" + flagsHelp(calibrateFlags(&calibrateArgs{}))
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
	// Calibrate keeps no runs, but the store stands where it stands.
	st := storeFlags{disabled: true}
	st.fromEnv(env)
	if err := a.CheckOutputs(named(storeInputs(st))); err != nil {
		return badInput{err}
	}
	opts.Progress = env.Stderr

	sig := interrupt.New(env.Interrupt)
	defer sig.Close()
	ctx, cancel := interrupt.Context(ctx, sig.Stopped())
	defer cancel()

	rep, runErr := calibrate.Run(ctx, opts)
	if rep == nil {
		if code := sig.Code(); code != 0 {
			return exitError{code, errors.New("calibrate: interrupted before anything was measured")}
		}
		return fmt.Errorf("calibrate: %w", runErr)
	}
	outs := outputs{calibrate.Keep(env.Stdout, a.JSONPath, rep)}
	if err := outs.report(env.Stderr); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	if code := sig.Code(); code != 0 {
		return exitError{code, errors.New("calibrate: interrupted: the report covers the points measured before the signal and is marked partial")}
	}
	if runErr != nil {
		return fmt.Errorf("calibrate: %w", runErr)
	}
	return nil
}
