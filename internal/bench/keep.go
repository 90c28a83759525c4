package bench

import (
	"context"
	"fmt"
	"io"

	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
)

// Keep writes res to the results file out ("" for none) and saves it in
// the store st (nil for none), each whatever became of the other, and
// tallies both in t; the run's id in the store is said on notes. An
// interrupted command still records what it measured, so the save does
// not inherit ctx's cancellation.
func Keep(ctx context.Context, t *output.Tally, notes io.Writer, out string, st *store.Store, res *results.Results) {
	if out != "" {
		if err := results.WriteFile(out, res); err != nil {
			t.Fail(err)
		} else {
			t.Keep("the results file " + out)
		}
	}
	if st == nil {
		return
	}
	id, err := st.Save(context.WithoutCancel(ctx), res, store.SaveOptions{})
	if err != nil {
		t.Fail(fmt.Errorf("results store: %w", err))
		return
	}
	t.Keep(fmt.Sprintf("run %d in %s", id, st.Path()))
	fmt.Fprintf(notes, "mongobench: saved as run %d in %s\n", id, st.Path())
}
