package cli

import (
	"context"
	"io"
	"os"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
)

// outputs is output.Tally, with the results file and the store's copy
// written by keep.
type outputs struct{ output.Tally }

func (o *outputs) report(w io.Writer) error { return o.Report(w) }

// keep writes the results file out ("" for none) and saves res in the
// store st (nil for none), each whatever became of the other (bench.Keep).
func (o *outputs) keep(ctx context.Context, env Env, out string, st *store.Store, res *results.Results) {
	bench.Keep(ctx, &o.Tally, env.Stderr, out, st, res)
}

// namedPath is a path the user gave, with the flag that gave it.
type namedPath struct{ flag, path string }

func named(ps []namedPath) []output.Named {
	out := make([]output.Named, len(ps))
	for i, p := range ps {
		out[i] = output.Named{Flag: p.flag, Path: p.path}
	}
	return out
}

// checkOutput, checkDataDir, checkStorePath and checkDistinct are
// output's checks, their refusals bad input.
func checkOutput(flag, path string) error { return asBadInput(output.CheckFile(flag, path)) }
func checkDataDir(dir string) error       { return asBadInput(output.CheckDataDir(dir)) }
func checkStorePath(path string) error    { return asBadInput(output.CheckStore(path)) }
func checkDistinct(inputs, outputs []namedPath) error {
	return asBadInput(output.CheckDistinct(named(inputs), named(outputs)))
}

func asBadInput(err error) error {
	if err != nil {
		return badInput{err}
	}
	return nil
}

// storeInputs is the results store as a file no output may replace: the
// one the command uses, and the one a file stands at even when it uses
// none (--no-store), since writing over it loses every run it holds.
func storeInputs(f storeFlags) []namedPath {
	p := storePath(f.path)
	if _, err := os.Stat(p); err == nil || !f.disabled {
		return []namedPath{{"results store", p}}
	}
	return nil
}

// checkBenchOutputs checks every path a load or run will write, before the
// store is opened or the server started: results file and its journal,
// summary file, histogram logs, store and the embedded server's data
// directory.
func checkBenchOutputs(cfg *benchConfig, storePath string) error {
	p := output.Plan{Files: bench.OutputFiles(cfg.Spec, cfg.args.out), Store: storePath, Inputs: output.Existing("-P", cfg.args.files)}
	if cfg.URL == "" {
		p.DataDir = cfg.args.dataDir
	}
	if storePath == "" {
		p.Inputs = append(named(storeInputs(cfg.args.store)), p.Inputs...)
	}
	return asBadInput(p.Check())
}
