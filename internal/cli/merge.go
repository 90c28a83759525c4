package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
)

const mergeAbout = `usage: mongobench merge PARTS... [-o FILE] [flags]

Adds up the results files of the parts of one partitioned run (load or run
with --part I/N or --parts N) into the results of the whole: histograms
added bucket by bucket, so the percentiles are exact; counts summed;
intervals aligned on the parts' common start. PARTS are results files, or
directories whose *.json files are all parts of the run. A part killed
mid-run left no results file: give its journal (FILE.intervals.jsonl),
which a directory supplies by itself; the merged run is then marked
partial. Parts of different runs, a part given twice or a part missing
are refused. Prints
the whole run's summary as load and run do, with the parts' start skew;
the merged results file is a results file like any other.

flags:`

type mergeOptions struct {
	out   string
	store storeFlags
	help  bool
}

func mergeFlags(o *mergeOptions) []flagDef {
	out := textFlag("o", "FILE", "write the merged results file", false, &o.out)
	out.aliases = []string{"out"}
	defs := []flagDef{out}
	defs = append(defs, o.store.defs("record the merged run in this results store (default mongobench.db,\nor $MONGOBENCH_STORE)", "record nothing")...)
	return append(defs, helpFlag(&o.help))
}

func mergeHelp() string {
	return mergeAbout + "\n" + flagsHelp(mergeFlags(&mergeOptions{}))
}

// runMerge is "mongobench merge".
func runMerge(ctx context.Context, args []string, env Env) error {
	o := &mergeOptions{}
	defs := mergeFlags(o)
	fs := newFlagSet("merge", defs)
	pos, err := fs.parseInterleaved(args)
	help, bad := fs.refusal(err)
	if bad != nil {
		return bad
	}
	o.help = o.help || help
	if o.help {
		fmt.Fprintln(env.Stdout, mergeHelp())
		return nil
	}
	if len(pos) == 0 {
		return badInputf("merge: no parts given: expected the parts' results files, or directories holding them")
	}
	files, err := mergeInputs(pos, o.out)
	if err != nil {
		return err
	}
	o.store.fromEnv(env)
	if o.out != "" {
		if err := checkOutputFile("-o", o.out); err != nil {
			return badInput{err}
		}
		ins := storeInputs(o.store)
		for _, f := range files {
			ins = append(ins, namedPath{"part", f})
		}
		if err := checkDistinct(ins, []namedPath{{"-o", o.out}}); err != nil {
			return badInputf("merge: %w", err)
		}
	}
	var runStore *store.Store
	if !o.store.disabled {
		if runStore, err = openStore(o.store.path); err != nil {
			return err
		}
		defer runStore.Close()
	}

	// One part at a time: only the sums stay in memory.
	m := results.NewMerger()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		res, err := readPart(f)
		if err != nil {
			return err
		}
		if err := m.Add(f, res); err != nil {
			return badInput{err}
		}
		if res.Partial {
			fmt.Fprintf(env.Stderr, "mongobench: merge: warning: part %d (%s) did not finish: the merged run holds what it measured, marked partial\n", res.Extra.Part.Index, f)
		}
	}
	merged, err := m.Results()
	if err != nil {
		return badInput{err}
	}
	// Past this point the outputs are written, each whole: a stop no
	// longer cuts them short.
	if err := ctx.Err(); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	if err := printMerged(env, merged); err != nil {
		return err
	}
	outs := outputs{}
	outs.keep(ctx, env, o.out, runStore, merged)
	return outs.report(env.Stderr)
}

// mergeInputs expands the arguments into the parts' files
// (results.PartFiles); its refusals are bad input.
func mergeInputs(args []string, out string) ([]string, error) {
	files, err := results.PartFiles(args, out)
	var oe *results.OutputIsPartError
	switch {
	case errors.As(err, &oe):
		return nil, badInputf("merge: -o %w", err)
	case err != nil:
		return nil, badInputf("merge: %w", err)
	}
	return files, nil
}

// readPart reads one part's results file, or the journal of a part that
// did not finish.
func readPart(path string) (*results.Results, error) {
	res, err := results.ReadFile(path)
	if err != nil {
		return nil, badInputf("merge: %w", err)
	}
	return res, nil
}

// printMerged prints the merged run's summary, as the run's own command
// would have, and the parts' figures.
func printMerged(env Env, res *results.Results) error {
	s, err := res.Summary()
	if err != nil {
		return err
	}
	opts := export.TextOptions{Percentiles: []float64{50, 95, 99, 99.9, 99.99}, Service: true, Partial: res.Partial}
	if spec := bench.SpecOf(res); spec != nil {
		opts.Percentiles, opts.Service, opts.Intended = spec.Percentiles, spec.MeasureService, spec.MeasureIntended
	}
	if err := export.WriteText(env.Stdout, s, opts); err != nil {
		return fmt.Errorf("the summary: %w", err)
	}
	for _, l := range export.ScheduleLagLines(s) {
		fmt.Fprintln(env.Stdout, l)
	}
	mg := res.Extra.Merged
	fmt.Fprintf(env.Stdout, "[PARTS], Parts, %d\n", mg.Parts)
	fmt.Fprintf(env.Stdout, "[PARTS], StartSkew(ms), %s\n", strconv.FormatFloat(mg.StartSkewMs, 'f', 3, 64))
	fmt.Fprintf(env.Stdout, "[PARTS], RunID, %s\n", mg.RunID)
	return nil
}
