package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/mongobench/mongobench/internal/disk"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/store"
)

type diskArgs struct {
	opts  disk.Options
	store storeFlags
	help  bool
}

func diskFlags(a *diskArgs) []flagDef {
	defs := fromDefs(a.opts.Flags())
	defs = append(defs, a.store.defs("the results store that keeps the baseline (default mongobench.db, or $MONGOBENCH_STORE)",
		"print the baseline without keeping it")...)
	return append(defs, helpFlag(&a.help))
}

func diskHelp() string {
	return disk.Usage + "\n" + flagsHelp(diskFlags(&diskArgs{}))
}

func parseDiskArgs(args []string) (*diskArgs, error) {
	a := &diskArgs{opts: disk.DefaultOptions()}
	defs := diskFlags(a)
	fs := newFlagSet("disk", defs)
	help, bad := fs.refusal(fs.parse(args))
	if bad != nil {
		return nil, bad
	}
	if help || a.help {
		a.help = true
		return a, nil
	}
	if fs.fs.NArg() > 0 {
		return nil, badInputf("disk: unexpected argument %q: name the directory with --dir D", redact.Arg(fs.fs.Arg(0)))
	}
	abs, err := disk.CheckDir(a.opts.Dir)
	if err != nil {
		return nil, badInputf("disk: --dir %w", err)
	}
	a.opts.Dir = abs
	return a, nil
}

// runDisk is "mongobench disk".
func runDisk(ctx context.Context, args []string, env Env) error {
	a, err := parseDiskArgs(args)
	if err != nil {
		return err
	}
	a.store.fromEnv(env)
	if a.help {
		fmt.Fprintln(env.Stdout, diskHelp())
		return nil
	}
	if !a.store.disabled {
		if err := checkStorePath(storePath(a.store.path)); err != nil {
			return err
		}
	}
	if a.opts.Fio = disk.LookFio(env.Getenv("PATH")); a.opts.Fio == "" {
		return badInput{fmt.Errorf("disk: %w", disk.ErrNoFio)}
	}
	// The store is opened first: a store that cannot be written is
	// refused before minutes of measuring.
	var st *store.Store
	if !a.store.disabled {
		if st, err = openStore(a.store.path); err != nil {
			return err
		}
		defer st.Close()
	}
	var keep disk.Keeper
	if st != nil {
		keep = st
	}
	err = disk.Run(ctx, a.opts, keep, env.Stdout, env.Stderr)
	switch {
	case errors.Is(err, disk.ErrNoBlockDevice), errors.Is(err, disk.ErrDirNotWritable):
		return badInput{fmt.Errorf("disk: --dir %w", err)}
	case err != nil:
		return fmt.Errorf("disk: %w", err)
	}
	return nil
}
