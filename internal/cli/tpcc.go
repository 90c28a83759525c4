package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/threshold"
	"github.com/mongobench/mongobench/internal/tpcc"
)

type tpccOptions struct {
	props         []string
	dataDir, part string
	drop, help    bool
}

func tpccFlags(o *tpccOptions) []flagDef {
	return []flagDef{
		funcFlag("p", "NAME=VALUE", "set a property (see above)", false, func(s string) error { o.props = append(o.props, s); return nil }),
		textFlag("data-dir", "DIR", "the embedded server's data directory, so that run and check find what load wrote", true, &o.dataDir),
		textFlag("part", "I/N", "load or check part I of N (from 0): its share of the warehouses", true, &o.part),
		switchFlag("drop", "load: drop the TPC-C collections first", true, &o.drop),
		helpFlag(&o.help),
	}
}

func tpccHelp() string { return tpcc.Usage + "\n" + flagsHelp(tpccFlags(&tpccOptions{})) }

func runTPCC(ctx context.Context, args []string, env Env) error {
	o := &tpccOptions{}
	defs := tpccFlags(o)
	if len(args) == 0 {
		return badInputf("tpcc: expected a phase, load, run or check: mongobench tpcc load|run|check [flags]")
	}
	phase := args[0]
	if phase == "run" && !slices.Contains(args[1:], "-h") && !slices.Contains(args[1:], "--help") {
		return runBench(ctx, "run", tpccRunArgs(args[1:]), env)
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
	if err := checkDataDir(o.dataDir); err != nil {
		return err
	}
	s, err := tpcc.ResolveSettings(o.props, o.part, env.Getenv)
	if err != nil {
		return badInputf("tpcc: %v", err)
	}
	if err := s.CheckDrop(o.drop); err != nil {
		return badInputf("tpcc: %v", err)
	}
	client, closeAll, err := tpcc.Open(ctx, s, o.dataDir, env.Stderr)
	if err != nil {
		return err
	}
	defer closeAll()
	iw := newInterrupt(env.Interrupt)
	defer iw.close()
	ctx, cancel := stopContext(ctx, iw.stopped())
	defer cancel()
	if err = tpcc.RunPhase(ctx, phase, client, s, o.drop, env.Stdout); errors.Is(err, tpcc.ErrLoaded) {
		err = badInput{err}
	}
	if code := iw.code(); code != 0 {
		return exitError{code: code, err: fmt.Errorf("tpcc %s interrupted", phase)}
	}
	return err
}

// checkRunOperations checks --threshold's operations against the run's:
// TPC-C's five transactions, a native workload's, or YCSB's.
func checkRunOperations(cfg *benchConfig) error {
	if cfg.Spec.TPCC {
		return threshold.CheckOperations(cfg.args.thresholds, false, tpcc.OpNames[:])
	}
	return checkThresholdOperations(cfg.args.thresholds, cfg.args.native)
}

// tpccRunArgs are mongobench run's arguments for tpcc run's: TPC-C's
// workload, a minute unless the arguments say otherwise (-p wins over
// what comes before it), and --no-check as the property it stands for.
func tpccRunArgs(args []string) []string {
	out := []string{"-p", "workload=tpcc", "-p", "maxexecutiontime=60"}
	for _, a := range args {
		if a == "--no-check" || a == "-no-check" {
			out = append(out, "-p", "tpcc.check=false")
			continue
		}
		out = append(out, a)
	}
	return out
}
