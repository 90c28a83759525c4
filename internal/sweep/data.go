package sweep

import (
	"context"
	"fmt"
	"time"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/workload"
)

// client returns a connection to a point's server, for counting and
// dropping its collection (the phases open their own).
func (s *Sweep) client(ctx context.Context, p *Point, url string) (*mongo.Client, error) {
	if c, ok := s.clients[url]; ok {
		return c, nil
	}
	c, err := mongo.Open(ctx, mongo.Config{URL: url, Database: mongo.DatabaseFromURL(url), Threads: 1, ConnectTimeout: p.Settings.Connect, OpTimeout: p.Settings.Spec.OpTimeout})
	if err != nil {
		return nil, err
	}
	s.clients[url] = c
	return c, nil
}

// native is the native workload point p runs: its own, read with its
// values of the file's parameters, or the sweep's; nil for YCSB's.
func (s *Sweep) native(p *Point) *native.File {
	if p.Native != nil {
		return p.Native
	}
	return s.cfg.Native
}

// dataKey identifies the data a point needs: where it lives and every
// property that shapes it; for a native workload, every parameter of the
// file, since any may size or fill a collection.
func dataKey(spec *workload.Spec, url string, shard bench.Shard, nf *native.File) string {
	if nf != nil {
		return fmt.Sprintf("%s|%s|%s|%d|native|%s", url, spec.Table, shard.Key, shard.InitialChunks, nf.ParameterKey())
	}
	return fmt.Sprintf("%s|%s|%s|%d|%d|%d|%d|%d|%d|%d|%s|%s|%s|%t|%d|%t", url, spec.Table, shard.Key, shard.InitialChunks, spec.RecordCount, spec.InsertStart, spec.InsertCount,
		spec.FieldCount, spec.FieldLength, spec.MinFieldLength, spec.FieldLengthDistribution, spec.FieldLengthHistogram,
		spec.FieldNamePrefix, spec.OrderedInserts, spec.ZeroPadding, spec.DataIntegrity)
}

// prepareData loads the data a run trial needs: before every trial with
// Reload, since a run's inserts, updates and deletes would otherwise be
// what the next trial runs on; when the data a point needs differs from
// what the sweep loaded, if a varied property shapes the data; else only
// into an empty collection.
func (s *Sweep) prepareData(ctx context.Context, p *Point, url string, trial, total int) error {
	spec := p.Settings.Spec
	loc := url + "|" + spec.Table
	key := dataKey(spec, url, p.Settings.Shard, s.native(p))
	reload := s.plan.DataDim
	if s.cfg.Reload != nil {
		reload = *s.cfg.Reload
	}
	switch {
	case s.native(p) != nil && s.native(p).Load == nil:
		// A native workload without a load phase runs on the data it
		// finds: there is nothing to load it with.
		return nil
	case reload && s.cfg.Reload != nil:
		// Reload: every run starts from fresh data.
	case reload && s.loaded[loc] == key:
		return nil
	case !reload && s.checked[loc]:
		return nil
	case !reload:
		c, err := s.client(ctx, p, url)
		if err != nil {
			return err
		}
		n, err := c.Count(ctx, spec.Table)
		if err != nil {
			return fmt.Errorf("cannot count documents in %s.%s: %w", mongo.DatabaseFromURL(url), spec.Table, err)
		}
		s.checked[loc] = true
		if n > 0 {
			return nil
		}
	}
	if err := s.load(ctx, p, url, trial, total); err != nil {
		return err
	}
	s.loaded[loc] = key
	s.checked[loc] = true
	return nil
}

// dropTable empties a point's collection, so that a load inserts into
// nothing, as every trial of a load must.
func (s *Sweep) dropTable(ctx context.Context, p *Point, url string) error {
	c, err := s.client(ctx, p, url)
	if err != nil {
		return err
	}
	if err := c.Drop(ctx, p.Settings.Spec.Table); err != nil {
		return fmt.Errorf("cannot drop %s.%s before the load: %w", mongo.DatabaseFromURL(url), p.Settings.Spec.Table, err)
	}
	return nil
}

// load drops the point's collection and loads it with the point's
// workload, unthrottled and in batches: the load prepares the measured
// runs and is not one of them. trial of total is the trial it prepares.
func (s *Sweep) load(ctx context.Context, p *Point, url string, trial, total int) error {
	if s.stopped() {
		return ErrStopped
	}
	spec := p.Settings.Spec
	dbName := mongo.DatabaseFromURL(url)
	if err := s.dropTable(ctx, p, url); err != nil {
		return err
	}
	what := "the sweep"
	everyRun := s.cfg.Reload != nil && *s.cfg.Reload
	if (s.plan.DataDim || everyRun) && p.Label != "" {
		what = p.Label
	}
	if everyRun && total > 1 {
		// One load per trial: the line says which, as the trial's own
		// line after it does.
		if p.Label == "" {
			what = fmt.Sprintf("trial %d/%d", trial, total)
		} else {
			what += fmt.Sprintf(", trial %d/%d", trial, total)
		}
	}
	records := fmt.Sprintf("%d records into %s.%s", spec.InsertCount, dbName, spec.Table)
	set := []string{"target", "0", "maxexecutiontime", "0", "warmuptime", "0", "hdrhistogram.fileoutput", "false", "exportfile", ""}
	nf := s.native(p)
	if nf != nil {
		// The file's load phase, as written (with the point's parameters):
		// the measured trials' threads and rate are not the load's.
		records = fmt.Sprintf("%s with the load phase of %s", dbName, nf.Path)
		set = set[:0]
		phase, err := native.PhaseProperties(nf, "load")
		if err != nil {
			return err
		}
		for _, kv := range phase {
			set = append(set, kv.Key, kv.Value)
		}
		if nf.Load.Duration == 0 {
			set = append(set, "maxexecutiontime", "0")
		}
		set = append(set, "target", "0", "warmuptime", "0", "hdrhistogram.fileoutput", "false", "exportfile", "")
	}
	s.info("sweep %s: loading %s for %s", s.ID, records, what)
	if p.Settings.URL == "" {
		set = append(set, "mongodb.url", url)
	}
	_, batch := p.Settings.Props.Get("batchsize")
	_, mbatch := p.Settings.Props.Get("mongodb.batchsize")
	if !batch && !mbatch {
		set = append(set, "batchsize", "100")
	}
	start := time.Now()
	// What the load says is kept, and said only if it fails.
	var said []bench.Notice
	done, err := s.loadPhase(ctx, p, set, func(n bench.Notice) { said = append(said, n) })
	if err != nil {
		if s.stopped() {
			return ErrStopped
		}
		for _, n := range said {
			s.notice(n)
		}
		return fmt.Errorf("sweep: loading the data for %s: %w", what, err)
	}
	if s.Server != nil {
		if err := s.Server.EnsureIDIndexes(ctx); err != nil {
			s.notice(bench.Notice{Kind: bench.Warning, Text: "embedded server: " + err.Error()})
		}
	}
	if nf != nil {
		s.info("sweep %s: loaded: %d operations of the load phase in %.1f s", s.ID, done, time.Since(start).Seconds())
		return nil
	}
	s.info("sweep %s: loaded %d records in %.1f s", s.ID, spec.InsertCount, time.Since(start).Seconds())
	return nil
}

// loadPhase runs the load of a point's data as a load phase with set over
// its properties, and returns the operations it ran.
func (s *Sweep) loadPhase(ctx context.Context, p *Point, set []string, notify func(bench.Notice)) (int64, error) {
	props := p.Settings.Props.Clone()
	for i := 0; i+1 < len(set); i += 2 {
		props.Set(set[i], set[i+1], "-p")
	}
	props.Set("dotransactions", "false", "-p")
	settings, _, err := resolve("load", props, s.plan.EnvURL)
	if err != nil {
		return 0, err
	}
	// A native load creates the file's collections and indexes, dropping
	// all of them first: the point's collection alone is not its data.
	nf := s.native(p)
	prep, err := bench.Prepare(ctx, bench.Target{Settings: settings, Native: nf, Drop: nf != nil, Stop: s.cfg.Stop, Grace: s.cfg.Grace, Notify: notify})
	if err != nil {
		return 0, err
	}
	defer prep.Close(ctx)
	out, _, err := prep.Run(ctx, s.cfg.Limits)
	if err != nil {
		return 0, err
	}
	if s.stopped() {
		return 0, ErrStopped
	}
	if out.Result.DuplicateKeys > 0 {
		notify(bench.Notice{Kind: bench.Info, Text: fmt.Sprintf("%d inserts failed on duplicate keys", out.Result.DuplicateKeys)})
	}
	return out.Summary.Operations, out.Failure()
}
