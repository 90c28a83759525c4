package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/mongobench/mongobench/internal/historytext"
)

type historyOptions struct {
	*historytext.Options
	store storeFlags
	help  bool
}

// historyFlags are history's flags (historytext's and the store's), bound
// to o.
func historyFlags(o *historyOptions) []flagDef {
	if o.Options == nil {
		o.Options = historytext.NewOptions()
	}
	defs := fromDefs(o.Options.Flags())
	defs = append(defs, o.store.defs("the results store (default mongobench.db, or $MONGOBENCH_STORE)", readOnlyNoStore)...)
	return append(defs, helpFlag(&o.help))
}

// historyHelp is history's help.
func historyHelp() string {
	return historytext.About + "\n" + flagsHelp(historyFlags(&historyOptions{}))
}

func parseHistoryArgs(args []string) (*historyOptions, error) {
	o := &historyOptions{}
	fs := newFlagSet("history", historyFlags(o))
	help, bad := fs.refusal(fs.parse(args))
	if bad != nil {
		return nil, bad
	}
	if o.help = o.help || help; o.help {
		return o, nil
	}
	return o, asBadInput(o.Check(fs.fs.Args()))
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
	err = historytext.Show(ctx, env.Stdout, env.Stderr, st, o.Options)
	if fe := (historytext.FilterError{}); errors.As(err, &fe) {
		return badInput{err}
	}
	return err
}
