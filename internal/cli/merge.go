package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
)

type mergeOptions struct {
	out   string
	store storeFlags
	help  bool
}

func mergeFlags(o *mergeOptions) []flagDef {
	defs := []flagDef{results.MergeOutFlag(&o.out)}
	defs = append(defs, o.store.defs("record the merged run in this results store (default mongobench.db,\nor $MONGOBENCH_STORE)", "record nothing")...)
	return append(defs, helpFlag(&o.help))
}

func mergeHelp() string {
	return results.MergeAbout + "\n" + flagsHelp(mergeFlags(&mergeOptions{}))
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
	files, err := results.MergeInputs(pos, o.out)
	if err != nil {
		return badInputf("merge: %w", err)
	}
	o.store.fromEnv(env)
	if o.out != "" {
		if err := output.CheckProperty("-o", o.out); err != nil {
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

	merged, err := results.MergeFiles(ctx, files, func(f string, part *results.Results) {
		fmt.Fprintf(env.Stderr, "mongobench: merge: warning: part %d (%s) did not finish: the merged run holds what it measured, marked partial\n", part.Extra.Part.Index, f)
	})
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
			return err
		}
		return badInput{err}
	}
	// Past this point the outputs are written, each whole: a stop no
	// longer cuts them short.
	if err := ctx.Err(); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	if err := bench.WriteMergedSummary(env.Stdout, merged); err != nil {
		return err
	}
	outs := outputs{}
	outs.keep(ctx, env, o.out, runStore, merged)
	return outs.report(env.Stderr)
}
