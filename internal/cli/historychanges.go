package cli

import (
	"context"

	"github.com/mongobench/mongobench/internal/historytext"
	"github.com/mongobench/mongobench/internal/store"
)

// historyChanges is history --changes on the runs f selects.
func historyChanges(ctx context.Context, env Env, st *store.Store, f store.Filter, format tableFormat) error {
	infos, err := st.List(ctx, f)
	if err != nil {
		return err
	}
	if len(infos) == 0 {
		return noRunsMatch(ctx, env, st, f)
	}
	return historytext.WriteChanges(ctx, env.Stdout, env.Stderr, st, infos, format)
}
