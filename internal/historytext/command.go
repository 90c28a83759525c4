package historytext

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/store"
	tt "github.com/mongobench/mongobench/internal/texttable"
	"github.com/mongobench/mongobench/internal/workload"
)

// About is history's help before its flags.
const About = `usage: mongobench history [--label L] [--sweep ID] [--phase load|run] [--limit N] [-v] [--changes] [--format F]

Lists the runs recorded in the results store, newest first: their run ids
(which compare and report accept), labels, sweeps, points and figures.

flags:`

// DefaultLimit keeps a long history from scrolling the newest runs away.
const DefaultLimit = 20

// MaxLimit keeps --limit, which the store query adds one to, far from
// int's end.
const MaxLimit = 1_000_000_000

// Options are history's command line: which runs, and how they are shown.
type Options struct {
	Filter  store.Filter
	Verbose bool
	Format  tt.Format

	Changes, LimitGiven bool // --changes, --limit
}

// NewOptions are history's defaults.
func NewOptions() *Options {
	return &Options{Filter: store.Filter{Limit: DefaultLimit}}
}

// Flags are history's own flags, bound to o; a wrong value is refused as
// it is parsed.
func (o *Options) Flags() []cmdflag.Def {
	return []cmdflag.Def{
		cmdflag.Text("label", "L", "only runs with label L (-l)", true, &o.Filter.Label),
		cmdflag.Text("sweep", "ID", "only the runs of sweep ID", true, &o.Filter.SweepID),
		cmdflag.Text("phase", "load|run", "only load or only run phases", true, &o.Filter.Phase),
		cmdflag.Func("limit", "N", "at most N runs (default 20; 0 lists all)", true, func(v string) error {
			n, err := workload.ParseInt(v, 0, MaxLimit)
			if err != nil {
				return fmt.Errorf("history: --limit %q is invalid: expected a whole number from 0 to %d (0 lists all)", v, MaxLimit)
			}
			o.Filter.Limit, o.LimitGiven = int(n), true
			return nil
		}),
		cmdflag.Switch("v", "also print each run's command line", false, &o.Verbose),
		cmdflag.Switch("changes", "find where throughput or p99 changed for good (change-point\ndetection) in the runs of each configuration, oldest first;\nwith it --limit defaults to all runs", true, &o.Changes),
		cmdflag.Func("format", "FORMAT", "text (default), csv or markdown", true, func(v string) (err error) {
			if o.Format, err = tt.ParseFormat(v); err != nil {
				return fmt.Errorf("history: %w", err)
			}
			return nil
		}),
	}
}

// Check checks what parsing could not: no word but flags (args), the
// phase named, and the sweep's id given with or without its prefix.
func (o *Options) Check(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("history: unexpected argument %q: filter with --label L or --sweep ID", redact.Arg(args[0]))
	}
	switch o.Filter.Phase {
	case "", "load", "run":
	default:
		return fmt.Errorf("history: --phase %q is invalid: expected load or run", o.Filter.Phase)
	}
	o.Filter.SweepID = strings.TrimPrefix(o.Filter.SweepID, store.SweepPrefix)
	return nil
}

// FilterError is a label or sweep no run in the store has: the user's
// mistake (a typo, most often), the close names said.
type FilterError struct{ Err error }

func (e FilterError) Error() string { return e.Err.Error() }
func (e FilterError) Unwrap() error { return e.Err }

// Show prints the runs of st that o selects to w: the listing, or with
// --changes each configuration's change points; notes go to notes. An
// empty store is no mistake and is said; a filter that names nothing is
// a FilterError.
func Show(ctx context.Context, w, notes io.Writer, st *store.Store, o *Options) error {
	if o.Changes {
		f := o.Filter
		if !o.LimitGiven {
			f.Limit = 0
		}
		infos, err := st.List(ctx, f)
		if err != nil {
			return err
		}
		if len(infos) == 0 {
			return noRunsMatch(ctx, notes, st, f)
		}
		return WriteChanges(ctx, w, notes, st, infos, o.Format)
	}
	runs, more, err := st.Page(ctx, o.Filter)
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		return noRunsMatch(ctx, notes, st, o.Filter)
	}
	WriteListing(w, o.Format, runs, o.Verbose)
	if more {
		fmt.Fprintf(notes, "mongobench: showing the newest %d runs; --limit N shows more, --limit 0 all\n", o.Filter.Limit)
	}
	return nil
}

// noRunsMatch explains an empty listing: an empty store is no mistake, a
// label or sweep that no run has is, and the store names the close ones.
func noRunsMatch(ctx context.Context, notes io.Writer, st *store.Store, f store.Filter) error {
	if err := st.CheckFilter(ctx, f); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return FilterError{fmt.Errorf("history: %s in %s", err.Error(), st.Path())}
		}
		return err
	}
	what := "no runs recorded yet"
	if f.Label != "" || f.SweepID != "" || f.Phase != "" {
		what = "no runs match"
	}
	fmt.Fprintf(notes, "mongobench: %s in %s\n", what, st.Path())
	return nil
}
