package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mongobench/mongobench/internal/interrupt"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/tpcc"
)

type tpccOptions struct {
	tpcc.Given
	help bool
}

func tpccFlags(o *tpccOptions) []flagDef { return append(fromDefs(o.Flags()), helpFlag(&o.help)) }

func tpccHelp() string { return tpcc.Usage + "\n" + flagsHelp(tpccFlags(&tpccOptions{})) }

func runTPCC(ctx context.Context, args []string, env Env) error {
	o := &tpccOptions{}
	defs := tpccFlags(o)
	if len(args) == 0 {
		return badInputf("tpcc: expected a phase, load, run or check: mongobench tpcc load|run|check [flags]")
	}
	phase := args[0]
	if phase == "run" && !slices.Contains(args[1:], "-h") && !slices.Contains(args[1:], "--help") {
		return runBench(ctx, "run", tpcc.RunArgs(args[1:]), env)
	}
	if phase == "-h" || phase == "--help" || phase == "-help" {
		o.help = true
	} else if phase != "load" && phase != "check" && phase != "run" {
		return badInputf("tpcc: unknown phase %q: expected load, run or check", redact.Arg(phase))
	}
	fs := newFlagSet("tpcc "+phase, defs)
	if err := fs.parse(args[1:]); err != nil {
		return badInputf("tpcc %s: %v: accepted flags are %s", phase, err, acceptedFlags(defs, true))
	}
	if o.help {
		fmt.Fprintln(env.Stdout, tpccHelp())
		return nil
	}
	if fs.fs.NArg() > 0 {
		return badInputf("tpcc %s: unexpected argument %q: accepted flags are %s", phase, redact.Arg(fs.fs.Arg(0)), acceptedFlags(defs, true))
	}
	if err := checkDataDir(o.DataDir); err != nil {
		return err
	}
	s, err := tpcc.ResolveSettings(o.Props, o.Part, env.Getenv)
	if err != nil {
		return badInputf("tpcc: %v", err)
	}
	if err := s.CheckDrop(o.Drop); err != nil {
		return badInputf("tpcc: %v", err)
	}
	client, closeAll, err := tpcc.Open(ctx, s, o.DataDir, env.Stderr)
	if err != nil {
		return err
	}
	defer closeAll()
	sig := interrupt.New(env.Interrupt)
	defer sig.Close()
	ctx, cancel := interrupt.Context(ctx, sig.Stopped())
	defer cancel()
	if err = tpcc.RunPhase(ctx, phase, client, s, o.Drop, env.Stdout); errors.Is(err, tpcc.ErrLoaded) {
		err = badInput{err}
	}
	if code := sig.Code(); code != 0 {
		return exitError{code: code, err: fmt.Errorf("tpcc %s interrupted", phase)}
	}
	return err
}
