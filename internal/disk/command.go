package disk

import (
	"context"
	"fmt"
	"io"

	"github.com/mongobench/mongobench/internal/results"
)

// Keeper keeps a baseline: the results store.
type Keeper interface {
	SaveDiskBaseline(ctx context.Context, b *results.DiskBaseline) (int64, error)
	Path() string
}

// Run is mongobench disk once its options are checked: it says what it
// measures on stderr, measures, prints the table on stdout and keeps the
// baseline in keep (nil for none). A baseline measured in full is kept
// even when ctx ends now.
func Run(ctx context.Context, o Options, keep Keeper, stdout, stderr io.Writer) error {
	fmt.Fprintf(stderr, "mongobench: measuring the disk of %s with fio: %d tests of %s each\n", o.Dir, o.Tests(), o.Runtime)
	b, err := Measure(ctx, o)
	if err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	fmt.Fprint(stdout, Table(b))
	if keep == nil {
		return nil
	}
	id, err := keep.SaveDiskBaseline(ctx, b)
	if err != nil {
		return fmt.Errorf("the baseline was measured but not kept: %w", err)
	}
	fmt.Fprintf(stderr, "mongobench: saved as disk baseline %d of %s in %s\n", id, DeviceName(b.Device), keep.Path())
	return nil
}
