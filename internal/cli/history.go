package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mongobench/mongobench/internal/historytext"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/workload"
)

const historyAbout = `usage: mongobench history [--label L] [--sweep ID] [--phase load|run] [--limit N] [-v] [--changes] [--format F]

Lists the runs recorded in the results store, newest first: their run ids
(which compare and report accept), labels, sweeps, points and figures.

flags:`

// defaultHistoryLimit keeps a long history from scrolling the newest runs
// away.
const defaultHistoryLimit = 20

// maxHistoryLimit keeps --limit, which the store query adds one to, far
// from int's end.
const maxHistoryLimit = 1_000_000_000

type historyOptions struct {
	filter  store.Filter
	verbose bool
	format  tableFormat
	store   storeFlags
	help    bool

	changes, limitGiven bool // --changes, --limit
}

// historyFlags are history's flags, bound to o.
func historyFlags(o *historyOptions) []flagDef {
	defs := []flagDef{
		textFlag("label", "L", "only runs with label L (-l)", true, &o.filter.Label),
		textFlag("sweep", "ID", "only the runs of sweep ID", true, &o.filter.SweepID),
		textFlag("phase", "load|run", "only load or only run phases", true, &o.filter.Phase),
		funcFlag("limit", "N", "at most N runs (default 20; 0 lists all)", true, func(v string) error {
			n, err := workload.ParseInt(v, 0, maxHistoryLimit)
			if err != nil {
				return badInputf("history: --limit %q is invalid: expected a whole number from 0 to %d (0 lists all)", v, maxHistoryLimit)
			}
			o.filter.Limit, o.limitGiven = int(n), true
			return nil
		}),
		switchFlag("v", "also print each run's command line", false, &o.verbose),
		switchFlag("changes", "find where throughput or p99 changed for good (change-point\ndetection) in the runs of each configuration, oldest first;\nwith it --limit defaults to all runs", true, &o.changes),
		funcFlag("format", "FORMAT", "text (default), csv or markdown", true, func(v string) (err error) {
			if o.format, err = parseTableFormat(v); err != nil {
				return badInputf("history: %w", err)
			}
			return nil
		}),
	}
	defs = append(defs, o.store.defs("the results store (default mongobench.db, or $MONGOBENCH_STORE)", readOnlyNoStore)...)
	return append(defs, helpFlag(&o.help))
}

// historyHelp is history's help.
func historyHelp() string {
	return historyAbout + "\n" + flagsHelp(historyFlags(&historyOptions{}))
}

func parseHistoryArgs(args []string) (*historyOptions, error) {
	o := &historyOptions{}
	o.filter.Limit = defaultHistoryLimit
	defs := historyFlags(o)
	fs := newFlagSet("history", defs)
	help, bad := fs.refusal(fs.parse(args))
	if bad != nil {
		return nil, bad
	}
	if help {
		o.help = true
		return o, nil
	}
	if o.help {
		return o, nil
	}
	if fs.fs.NArg() > 0 {
		return nil, badInputf("history: unexpected argument %q: filter with --label L or --sweep ID", redact.Arg(fs.fs.Arg(0)))
	}
	switch o.filter.Phase {
	case "", "load", "run":
	default:
		return nil, badInputf("history: --phase %q is invalid: expected load or run", o.filter.Phase)
	}
	o.filter.SweepID = strings.TrimPrefix(o.filter.SweepID, store.SweepPrefix)
	return o, nil
}

// runHistory is "mongobench history".
func runHistory(ctx context.Context, args []string, env Env) error {
	o, err := parseHistoryArgs(args)
	if err != nil {
		return err
	}
	o.store.fromEnv(env)
	if o.help {
		fmt.Fprintln(env.Stdout, historyHelp())
		return nil
	}
	path := storePath(o.store.path)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(env.Stderr, "mongobench: no runs recorded yet: %s does not exist (load, run and sweep record their runs there)\n", path)
		return nil
	}
	st, err := openExistingStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	if o.changes {
		f := o.filter
		if !o.limitGiven {
			f.Limit = 0
		}
		return historyChanges(ctx, env, st, f, o.format)
	}
	runs, more, err := st.Page(ctx, o.filter)
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		return noRunsMatch(ctx, env, st, o.filter)
	}
	historytext.WriteListing(env.Stdout, o.format, runs, o.verbose)
	if more {
		fmt.Fprintf(env.Stderr, "mongobench: showing the newest %d runs; --limit N shows more, --limit 0 all\n", o.filter.Limit)
	}
	return nil
}

// noRunsMatch explains an empty listing: an empty store is no mistake, a
// label or sweep that no run has is (a typo, most often), and the store
// names the close ones.
func noRunsMatch(ctx context.Context, env Env, st *store.Store, f store.Filter) error {
	if err := st.CheckFilter(ctx, f); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return badInputf("history: %s in %s", err.Error(), st.Path())
		}
		return err
	}
	what := "no runs recorded yet"
	if f.Label != "" || f.SweepID != "" || f.Phase != "" {
		what = "no runs match"
	}
	fmt.Fprintf(env.Stderr, "mongobench: %s in %s\n", what, st.Path())
	return nil
}
