package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	driver "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/runner"
	"github.com/mongobench/mongobench/internal/workload"
)

// NoticeKind says how a notice is to be taken.
type NoticeKind int

const (
	// Info says what the preparation did (started a server, dropped or
	// loaded a collection, warmed up).
	Info NoticeKind = iota
	// Warning says why the figures may not mean what they seem to.
	Warning
)

// Notice is one thing a phase has to say as it prepares or ends; callers
// print them, collect them, or say each warning once over many phases.
type Notice struct {
	Kind NoticeKind
	Text string
}

// Target is a phase to prepare: its settings and what the caller decides
// around them.
type Target struct {
	*Settings
	// DataDir keeps the embedded server's data, when the phase starts one
	// (Settings.URL is ""); "" for a temporary directory.
	DataDir string
	// Drop drops the collection before a load.
	Drop bool
	// Stop, when closed, ends the preparation at once (an *Interrupted
	// error) and the phase gracefully; operations in flight get Grace.
	Stop  <-chan struct{}
	Grace time.Duration
	// Notify gets what the preparation and the phase have to say, in
	// order; nil drops it.
	Notify func(Notice)
	// PhaseSeed derives the phase's seed from the run's; nil keeps the
	// run's. A part of a partitioned run takes a seed of its own.
	PhaseSeed func(run uint64) uint64
	// BeforePhase, when set, is called once the facts before the phase
	// are read, under a context a stop cancels, just before the phase
	// starts: a part of a partitioned run waits there for the others.
	// What it returns is kept as the Observation's Part.
	BeforePhase func(ctx context.Context, p *Prepared) (*results.Part, error)
	// AfterPhase, when set, is called as soon as the phase's operations
	// are done, before anything is read after it: a calibration ends its
	// measurement there.
	AfterPhase func()
	// OperationsOnly sends the server the phase's operations and nothing
	// else: no monitoring connection, no count of the collection or search
	// for where earlier inserts ended before it (inserts start after
	// recordcount), no warm-up, and no topology, sizes or metrics read
	// around it. A calibration against the null server, whose answers to
	// those say nothing, measures the client's own path so.
	OperationsOnly bool
	// Native, when set, is the native workload the phase runs instead of
	// YCSB's CoreWorkload (its threads, target and length are already
	// in Spec, as a -P file's properties are).
	Native *native.File
}

// Interrupted is the error of a preparation stopped by Target.Stop:
// nothing was measured.
type Interrupted struct {
	Step string // what was under way: "connecting to ...", "warming up"
	// Preload says how far the filling of the embedded server got, when
	// that is what was stopped; nil otherwise.
	Preload *PreloadCut
}

func (e *Interrupted) Error() string { return "interrupted while " + e.Step }

// PreloadCut is how far an interrupted preload got, by the inserts the
// server acknowledged rather than by the plan: counting in the server
// instead would wait on it while it still works through the batches cut
// short.
type PreloadCut struct {
	Acknowledged int64 // inserts the server acknowledged
	InFlight     int64 // inserts cut short, which may be stored too
	Records      int64 // recordcount
	Table        string
}

// Prepared is a phase ready to run: its server, its connections, its data
// and its workload's starting point.
type Prepared struct {
	t        Target
	Server   *embedded.Server // started for this phase; nil when given a URL
	URL      string           // the server's; may hold a password
	Database string
	// RunSeed is the run's seed (given, or picked from the clock), which
	// its configuration records; Seed is the phase's, the same unless
	// Target.PhaseSeed derives another.
	RunSeed uint64
	Seed    uint64
	Client  *mongo.Client
	Monitor *driver.Client
	core    *workload.Core
	ops     runner.OpRunner // a native workload's phase; nil for YCSB's
	// shards sample a sharded cluster's shard primaries beside Monitor
	// (a mongos); opened by Run once the topology is known.
	shards []metrics.ShardClient
	// measuring is set once the phase has started: from then on a stop
	// is graceful, and the connections close in the foreground.
	measuring bool
}

// stopped reports whether c is closed.
func stopped(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// stoppable returns ctx, cancelled once stop is closed. The steps before
// a phase run under it: the phase's graceful stop does not reach them, and
// each may otherwise wait out a timeout of its own on a server that does
// not answer.
func stoppable(ctx context.Context, stop <-chan struct{}) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(ctx)
	if stop == nil {
		return c, cancel
	}
	go func() {
		select {
		case <-stop:
			cancel()
		case <-c.Done():
		}
	}()
	return c, cancel
}

func (t *Target) notify(kind NoticeKind, format string, args ...any) {
	if t.Notify != nil {
		t.Notify(Notice{Kind: kind, Text: fmt.Sprintf(format, args...)})
	}
}

// step returns err, or the interruption when Stop was closed while the
// step was under way (whatever err says then, the signal is its cause).
func (t *Target) step(err error, step string) error {
	if stopped(t.Stop) {
		return &Interrupted{Step: step}
	}
	return err
}

// Prepare readies a phase: it starts the embedded server when no URL is
// given, connects, drops the collection (Drop), shards it on
// mongodb.shardkey before a load (checks it before a run), fills an empty embedded
// server before a run, warns of a collection shorter than recordcount,
// finds where earlier inserts ended, and builds the workload. On error
// everything it opened is closed again.
func Prepare(ctx context.Context, t Target) (_ *Prepared, err error) {
	spec := t.Spec
	p := &Prepared{t: t, URL: t.URL}
	defer func() {
		if err != nil {
			p.Close(ctx)
		}
	}()
	setup, cancel := stoppable(ctx, t.Stop)
	defer cancel()
	if err := p.connect(setup); err != nil {
		return nil, err
	}
	where := p.Database + "." + spec.Table
	if t.Drop {
		if err := p.Client.Drop(setup, spec.Table); err != nil {
			return nil, t.step(fmt.Errorf("cannot drop %s: %w", where, err), "dropping "+where)
		}
		t.notify(Info, "dropped %s", where)
	}
	if err := p.setUpShardKey(setup); err != nil {
		return nil, t.step(err, "setting up the shard key of "+where)
	}
	p.chooseSeeds()
	if t.Native != nil {
		if err := p.prepareNative(setup); err != nil {
			return nil, err
		}
		return p, nil
	}
	nextInsert := spec.RecordCount
	if t.Command == "run" && !t.OperationsOnly {
		if err := p.checkCollection(setup, where); err != nil {
			return nil, err
		}
		if spec.Proportions[workload.TxInsert] > 0 {
			if nextInsert, err = p.nextInsertKey(setup, where); err != nil {
				return nil, err
			}
		}
	}
	if p.core, err = workload.NewCore(spec, nextInsert, p.Seed); err != nil {
		return nil, InputError{err}
	}
	return p, nil
}

// connect starts the embedded server when no URL is given, and opens the
// client and, unless the phase measures operations only, the monitor.
func (p *Prepared) connect(setup context.Context) (err error) {
	t := p.t
	if p.URL == "" {
		p.Server, err = embedded.Start(setup, embedded.Options{DataDir: t.DataDir})
		if err != nil {
			return t.step(fmt.Errorf("cannot start the embedded server: %w", err), "starting the embedded server")
		}
		p.URL = p.Server.URI()
		t.notify(Info, "no mongodb.url given: started the embedded server (FerretDB, SQLite) at %s, data in %s", p.URL, p.Server.DataDir())
	}
	p.Database = mongo.DatabaseFromURL(p.URL)
	p.Client, err = mongo.Open(setup, mongo.Config{
		URL: p.URL, Database: p.Database, Upsert: t.Upsert, Threads: t.Spec.Threads,
		ConnectTimeout: t.Connect, OpTimeout: t.Spec.OpTimeout, Path: t.Path,
	})
	if err != nil {
		return t.step(err, "connecting to "+redact.URL(p.URL))
	}
	if path, fallbacks := p.Client.Path(); path == mongo.PathLean {
		t.notify(Info, "mongodb.path=lean: the lean wire path takes what it covers; to the driver's path go %s", strings.Join(fallbacks, "; "))
	}
	if !t.OperationsOnly {
		if p.Monitor, err = mongo.OpenMonitor(mongo.Config{URL: p.URL, ConnectTimeout: t.Connect}); err != nil {
			return err
		}
	}
	return nil
}

// chooseSeeds sets the run's seed, the spec's or else the clock's, and
// the phase's, derived from it when the caller asks.
func (p *Prepared) chooseSeeds() {
	spec := p.t.Spec
	p.RunSeed = spec.Seed
	if !spec.SeedSet {
		p.RunSeed = uint64(time.Now().UnixNano())
	}
	p.Seed = p.RunSeed
	if p.t.PhaseSeed != nil {
		p.Seed = p.t.PhaseSeed(p.RunSeed)
	}
}

// checkCollection counts the documents a run will read: an empty
// embedded server is filled first, and a collection shorter than
// recordcount is warned of. A count that fails elsewhere is no reason
// not to run.
func (p *Prepared) checkCollection(setup context.Context, where string) error {
	n, err := p.Client.Count(setup, p.t.Spec.Table)
	if err := p.t.step(nil, "counting the documents in "+where); err != nil {
		return err
	}
	switch {
	case err != nil && p.Server != nil:
		return fmt.Errorf("cannot count documents in %s: %w", where, err)
	case n == 0 && p.Server != nil:
		if err := p.preload(setup); err != nil {
			return err
		}
	case err == nil:
		if w := ShortCollectionWarning(p.t.Spec, p.Database, n); w != "" {
			p.t.notify(Warning, "%s", w)
		}
	}
	return nil
}

// nextInsertKey finds where earlier runs' inserts ended, for a run's
// inserts to continue after them rather than collide.
func (p *Prepared) nextInsertKey(setup context.Context, where string) (int64, error) {
	spec := p.t.Spec
	next, err := workload.NextInsertKey(setup, spec, func(ctx context.Context, key string) (bool, error) {
		return p.Client.KeyExists(ctx, spec.Table, key)
	})
	if err != nil {
		return 0, p.t.step(fmt.Errorf("cannot find where earlier inserts ended in %s: %w", where, err), "finding where earlier inserts ended")
	}
	if next > spec.RecordCount {
		p.t.notify(Info, "%s already holds keys up to number %d from earlier runs: inserts continue after them", where, next-1)
	}
	return next, nil
}

// Close disconnects and stops the server Prepare started, within the
// post-phase limit. Before the phase has measured anything after a stop,
// the connections close in the background: the server may be why the run
// was stopped, and the driver's Disconnect waits for a monitor's handshake
// with it whatever its context says.
func (p *Prepared) Close(ctx context.Context) {
	disconnect := func(close func(context.Context) error) {
		c, cancel, _ := postPhaseContext(ctx, p.t.Connect)
		if stopped(p.t.Stop) && !p.measuring {
			go func() { defer cancel(); _ = close(c) }()
			return
		}
		defer cancel()
		_ = close(c)
	}
	for _, sh := range p.shards {
		disconnect(sh.Client.Disconnect)
	}
	p.shards = nil
	if p.Monitor != nil {
		disconnect(p.Monitor.Disconnect)
		p.Monitor = nil
	}
	if p.Client != nil {
		disconnect(p.Client.Close)
		p.Client = nil
	}
	if p.Server != nil {
		_ = p.Server.Close()
		p.Server = nil
	}
}

// preload fills an empty embedded server before a run: it starts empty,
// and a run against nothing would measure NOT_FOUND.
func (p *Prepared) preload(ctx context.Context) error {
	spec := preloadSpec(p.t.Spec)
	p.t.notify(Info, "the embedded server is empty: loading %d records into %s first", spec.RecordCount, spec.Table)
	core, err := workload.NewCore(&spec, spec.RecordCount, p.Seed)
	if err != nil {
		return InputError{err}
	}
	start := time.Now()
	out, err := Run(ctx, Config{
		Command: "load", Core: core, Spec: &spec, Client: p.Client, Seed: p.Seed,
		BatchSize: PreloadBatch(&spec, p.t.BatchSize), Operations: spec.InsertCount,
		Stop: p.t.Stop, Grace: p.t.Grace, Notify: p.t.Notify,
	})
	if err != nil {
		return err
	}
	// Stopped by a signal: the records are not all there, and the run
	// that would follow has nothing to measure.
	if stopped(p.t.Stop) {
		return &Interrupted{Step: "loading the embedded server", Preload: &PreloadCut{
			Acknowledged: out.Summary.Status[db.Insert][db.OK], InFlight: out.Result.Abandoned,
			Records: spec.RecordCount, Table: spec.Table,
		}}
	}
	if failed := FailedOperations(out.Summary); failed > 0 {
		return fmt.Errorf("loading the embedded server failed for %d of %d records", failed, out.Summary.Operations)
	}
	if err := p.Server.EnsureIDIndexes(ctx); err != nil {
		return fmt.Errorf("embedded server: %w", err)
	}
	el := time.Since(start)
	p.t.notify(Info, "loaded %d records in %.1f s (%.0f records/s)", spec.InsertCount, el.Seconds(), float64(spec.InsertCount)/el.Seconds())
	return nil
}

// preloadSpec is the run's workload as the preload uses it: the same
// records, loaded as fast as the server takes them. The run's -target,
// time limit and warm-up shape what is measured, not the filling: a
// preload at -target 10 took 100 s for 1,000 records, and one cut by
// maxexecutiontime would leave the run reading keys never loaded.
func preloadSpec(run *workload.Spec) workload.Spec {
	spec := *run
	spec.Transactions = false
	spec.Target = 0
	spec.Stages = nil
	spec.MaxExecutionTime = 0
	spec.WarmupTime = 0
	return spec
}

// PreloadBatch is the batch size that fills a collection before it is
// measured: at least 100 records per insertMany, for speed, unless records
// so large would hold more than workload.InFlightBudget in the client at
// once.
func PreloadBatch(spec *workload.Spec, batchSize int) int {
	fits := workload.InFlightBudget / (int64(spec.Threads) * spec.MaxRecordBytes())
	return int(max(1, min(int64(max(batchSize, 100)), fits)))
}

// ShortCollectionWarning says what a run on a collection of n documents,
// fewer than recordcount, will measure: the operations that look a key up
// find nothing for about the share of keys that were never loaded, and
// NOT_FOUND answers faster than a real read, so the figures flatter the
// server. "" when the collection holds the records or the workload looks
// no key up.
func ShortCollectionWarning(spec *workload.Spec, dbName string, n int64) string {
	if n >= spec.RecordCount {
		return ""
	}
	var ops []string
	for _, o := range []struct {
		tx   workload.TransactionType
		name string
	}{
		{workload.TxRead, "reads"}, {workload.TxUpdate, "updates"},
		{workload.TxReadModifyWrite, "read-modify-writes"}, {workload.TxDelete, "deletes"},
	} {
		if spec.Proportions[o.tx] > 0 {
			ops = append(ops, o.name)
		}
	}
	if len(ops) == 0 {
		return ""
	}
	what := ops[0]
	if len(ops) > 1 {
		what = strings.Join(ops[:len(ops)-1], ", ") + " and " + ops[len(ops)-1]
	}
	missing := 100 * float64(spec.RecordCount-n) / float64(spec.RecordCount)
	share := fmt.Sprintf("about %.0f%%", missing)
	if missing < 1 {
		share = "under 1%"
	}
	fix := "run \"mongobench load\" with the same properties first"
	if n > 0 {
		fix += fmt.Sprintf(", or set recordcount=%d", n)
	}
	return fmt.Sprintf("%s.%s holds %d documents, recordcount is %d: %s of %s will be NOT_FOUND; %s",
		dbName, spec.Table, n, spec.RecordCount, share, what, fix)
}
