package cli

import (
	"context"
	"fmt"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/comparetext"
)

// compareOptions are compare's parsed command line.
type compareOptions struct {
	comparetext.Options
	args  *comparetext.Args
	store storeFlags
	help  bool
}

// compareFlags are compare's flags (comparetext's and the store's),
// bound to o.
func compareFlags(o *compareOptions) []flagDef {
	if o.args == nil {
		o.args = comparetext.NewArgs()
	}
	defs := fromDefs(o.args.Flags())
	defs = append(defs, o.store.defs("the results store to look runs up in (default mongobench.db,\nor $MONGOBENCH_STORE)", readOnlyNoStore)...)
	return append(defs, helpFlag(&o.help))
}

// compareHelp is compare's help.
func compareHelp() string {
	return comparetext.About + "\n" + flagsHelp(compareFlags(&compareOptions{}))
}

func parseCompareArgs(args []string) (*compareOptions, error) {
	o := &compareOptions{}
	defs := compareFlags(o)
	refs, help, err := parseRefs("compare", defs, args)
	if err != nil {
		return nil, err
	}
	o.help = o.help || help
	if o.help {
		return o, nil
	}
	if o.Options, err = o.args.Options(refs); err != nil {
		return nil, badInputf("compare: %w", err)
	}
	return o, nil
}

// runCompare is "mongobench compare".
func runCompare(ctx context.Context, args []string, env Env) error {
	o, err := parseCompareArgs(args)
	if err != nil {
		return err
	}
	o.store.fromEnv(env)
	if o.help {
		fmt.Fprintln(env.Stdout, compareHelp())
		return nil
	}
	src := &runSource{storePath: o.store.path}
	defer src.close()
	groups, err := src.loadGroups(ctx, o.Refs)
	if err != nil {
		return err
	}
	if err := src.source().Separate(o.Refs, groups); err != nil {
		return badInputf("compare: %w", err)
	}
	st, err := newStudy(o.Refs, groups, o.Baseline, o.Alpha, o.Allowed)
	if err != nil {
		return badInputf("compare: %w", err)
	}
	// The table is all or nothing: none once a signal is heard.
	if err := ctx.Err(); err != nil {
		return err
	}
	comparetext.Write(env.Stdout, o.Format, src.source().Shown(o.Refs, o.Format == textFormat), st)
	if !o.args.Gates.Set() {
		return nil
	}
	// The gates' outcomes follow the comparison, on stderr when stdout is
	// a table for a program; a failed one is exit 99.
	w := env.Stdout
	if o.Format != textFormat {
		w = env.Stderr
	}
	return thresholdsExit(o.args.Gates.Failure(w, st))
}

// newStudy builds the study of groups named by refs, their letters naming
// them in its words. A refusal names the groups by letter and argument.
func newStudy(refs []string, groups [][]analysis.Run, baseline int, alpha float64, allowed []string) (*analysis.Study, error) {
	return analysis.NewStudy(groups, analysis.StudyOptions{
		Refs: refs, Baseline: baseline, Latency: analysis.ChooseLatency(groups...), Alpha: alpha, Allowed: allowed,
	})
}
