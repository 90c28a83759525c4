package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/tpcc"
)

// prepareTPCC readies TPC-C's run phase in place of YCSB's core: its
// database (tpcc unless the URL names one), a refusal of transactions
// the server cannot run, the data (loaded first into an empty embedded
// server, as a YCSB run fills it, or into an empty FerretDB; elsewhere
// refused when absent), and the
// five transactions as the runner's operations.
func (p *Prepared) prepareTPCC(ctx context.Context) error {
	s := *p.t.TPCC
	p.Database = tpcc.DatabaseOf(p.URL)
	drv := p.Client.Driver()
	srv, srvErr := native.ServerOf(ctx, drv)
	if !s.Options.NoTransactions && srvErr == nil {
		ph := &native.Phase{Operations: []*native.Operation{{Name: "NewOrder", Kind: native.Transaction, Atomic: true}}}
		if why := ph.Unsupported(srv); len(why) > 0 {
			return InputError{fmt.Errorf("tpcc.transactions=true: %s; or give -p tpcc.transactions=false", strings.TrimPrefix(why[0], "operation NewOrder: "))}
		}
	}
	// The embedded server, whether this phase or a sweep started it, is
	// filled when empty.
	embedded := p.Server != nil || (srvErr == nil && srv.FerretDB != "")
	if !s.LinePathsSet {
		// FerretDB has no all-positional operator ($[]).
		s.Options.LinePaths = embedded
	}
	db := drv.Database(p.Database)
	n, err := db.Collection(tpcc.CollWarehouse).CountDocuments(ctx, bson.D{})
	if err != nil {
		return p.t.step(fmt.Errorf("cannot count the warehouses in %s: %w", p.Database, err), "counting the warehouses")
	}
	switch {
	case n == 0 && embedded:
		p.t.notify(Info, "the embedded server is empty: loading %d TPC-C warehouse(s) first (tpcc.loadseed=%d)", s.Scale.Warehouses, s.LoadSeed)
		start := time.Now()
		if err := tpcc.CreateSchema(ctx, db, s.Options.Normalized); err != nil {
			return p.t.step(err, "creating TPC-C's collections")
		}
		_, err := tpcc.Load(ctx, db, tpcc.LoadConfig{Scale: s.Scale, Seed: s.LoadSeed, Normalized: s.Options.Normalized,
			Items: true, Parallel: min(p.t.Spec.Threads, s.Scale.Warehouses) + 1})
		if err != nil {
			return p.t.step(err, "loading TPC-C's warehouses")
		}
		p.t.notify(Info, "loaded in %.1f s", time.Since(start).Seconds())
	case n < int64(s.Scale.Warehouses):
		return InputError{fmt.Errorf("warehouses=%d: %s holds %d TPC-C warehouse(s): load them first (mongobench tpcc load -p warehouses=%d), or give warehouses=%d", s.Scale.Warehouses, p.Database, n, s.Scale.Warehouses, n)}
	}
	ops, err := tpcc.NewPhaseRunner(drv, p.Database, s, p.Seed)
	if err != nil {
		return InputError{err}
	}
	p.ops = ops
	return nil
}

var _ Finisher = (*tpcc.PhaseRunner)(nil)
