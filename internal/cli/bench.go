package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	driver "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/workload"
)

// stopGrace bounds how long operations in flight may run on after a stop
// request before they are cancelled.
const stopGrace = 5 * time.Second

// postPhaseLimit bounds what is asked of the server once the phase is over
// (sizes, disconnecting): the run may have ended because the server went
// away or hung, and without a deadline each command would wait out the
// driver's server selection, holding the summary back by half a minute.
const postPhaseLimit = 5 * time.Second

// postPhaseContext is ctx without its cancellation (a Ctrl-C must not
// lose the figures) but with a deadline of postPhaseLimit, or the connect
// timeout when that is shorter.
func postPhaseContext(ctx context.Context, connect time.Duration) (context.Context, context.CancelFunc, time.Duration) {
	d := min(postPhaseLimit, connect)
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), d)
	return c, cancel, d
}

// sizesWithin reads the collection's and database's sizes under ctx, whose
// deadline is limit; what could not be read keeps its reason, and one cut
// short by the deadline says so rather than leave the driver's "context
// deadline exceeded" to explain it.
func sizesWithin(ctx context.Context, limit time.Duration, when string, monitor *driver.Client, dbName, table string) metrics.SizeStats {
	sizes, _ := metrics.Sizes(ctx, monitor, dbName, table)
	if ctx.Err() != nil {
		for _, e := range []*string{&sizes.DBError, &sizes.CollectionError} {
			if *e != "" {
				*e = fmt.Sprintf("no answer within %s %s (%s)", limit, when, *e)
			}
		}
	}
	return sizes
}

// maxConnectTimeout bounds mongodb.connecttimeout: a day is far past any
// real start-up, and the timeout is added to other deadlines.
const maxConnectTimeout = 24 * time.Hour

// benchConfig is everything a load or run needs, resolved and validated.
type benchConfig struct {
	args      *benchArgs
	props     *workload.Properties
	spec      *workload.Spec
	url       string // with deprecated options applied; may hold a password
	batchSize int
	upsert    bool
	connect   time.Duration
	exporter  string // the summary's format: one of export.Exporters
	shard     shardConfig
	// plan is this process's part of a partitioned run, or the instant a
	// whole run starts at; nil for neither.
	plan *partPlan
}

func resolveBench(command string, args []string, env Env) (*benchConfig, error) {
	a, err := parseBenchArgs(command, args)
	if err != nil {
		return nil, badInput{err}
	}
	if a.help {
		return &benchConfig{args: a}, nil
	}
	props, err := a.loadProperties()
	if err != nil {
		return nil, badInput{err}
	}
	spec, warnings, err := workload.Resolve(props, command == "run")
	if err != nil {
		return nil, badInput{err}
	}
	for _, w := range warnings {
		fmt.Fprintf(env.Stderr, "mongobench: warning: %s\n", w)
	}
	for _, extra := range []float64{99.9, 99.99} {
		if !slices.Contains(spec.Percentiles, extra) {
			spec.Percentiles = append(spec.Percentiles, extra)
		}
	}
	slices.Sort(spec.Percentiles)
	cfg := &benchConfig{args: a, props: props, spec: spec}
	exporter, _ := props.Get("exporter")
	if cfg.exporter, err = export.ParseExporter(exporter); err != nil {
		return nil, badInput{err}
	}
	// Output paths are checked before anything is measured: YCSB finds a
	// missing directory only once the run is over, and loses its output.
	if spec.ExportFile != "" {
		if err := checkOutputFile("exportfile", spec.ExportFile); err != nil {
			return nil, badInput{err}
		}
		if a.out != "" && filepath.Clean(a.out) == filepath.Clean(spec.ExportFile) {
			return nil, badInputf("exportfile=%s and --out %s name the same file: the summary goes to exportfile, the JSON results to --out, each to a file of its own", spec.ExportFile, a.out)
		}
	}
	if spec.HdrFileOutput {
		if err := checkOutputPrefix("hdrhistogram.output.path", spec.HdrOutputPath); err != nil {
			return nil, badInput{err}
		}
	}

	cfg.batchSize = 1
	for _, name := range []string{"mongodb.batchsize", "batchsize"} {
		if v, ok := props.Get(name); ok {
			n, err := workload.ParseInt(v, 1, 100000)
			if err != nil {
				return nil, badInputf("%s=%q is invalid: expected %s", name, v, workload.IntRange(1, 100000))
			}
			cfg.batchSize = int(n)
		}
	}
	// Run-phase inserts are one record each; batchsize shapes loads only.
	inFlightBatch := cfg.batchSize
	if command == "run" {
		inFlightBatch = 1
	}
	if err := spec.CheckInFlight(inFlightBatch); err != nil {
		return nil, badInput{err}
	}
	if v, ok := props.Get("mongodb.upsert"); ok {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return nil, badInputf("mongodb.upsert=%q is invalid: expected true or false", v)
		}
		cfg.upsert = b
	}
	cfg.connect = 10 * time.Second
	if v, ok := props.Get("mongodb.connecttimeout"); ok {
		d, err := workload.ParseSeconds(v, 0, maxConnectTimeout)
		if err != nil || d <= 0 {
			return nil, badInputf("mongodb.connecttimeout=%q is invalid: expected a number of seconds > 0 and at most %d (or a duration such as 30s)", v, int(maxConnectTimeout.Seconds()))
		}
		cfg.connect = d
	}

	if mc, ok := props.Get("mongodb.maxconnections"); ok {
		if _, err := workload.ParseInt(mc, 1, 1<<20); err != nil {
			return nil, badInputf("mongodb.maxconnections=%q is invalid: expected %s", mc, workload.IntRange(1, 1<<20))
		}
	}
	url, _ := props.Get("mongodb.url")
	url = strings.TrimSpace(url)
	if url == "" {
		url = strings.TrimSpace(env.Getenv("MONGOBENCH_URL"))
	}
	if url != "" {
		if !strings.HasPrefix(url, "mongodb://") && !strings.HasPrefix(url, "mongodb+srv://") {
			return nil, badInputf("mongodb.url %q is invalid: expected a connection string starting with mongodb:// or mongodb+srv://", redact.URL(url))
		}
		wc, _ := props.Get("mongodb.writeConcern")
		rp, _ := props.Get("mongodb.readPreference")
		mc, _ := props.Get("mongodb.maxconnections")
		var warns []string
		url, warns, err = mongo.ApplyDeprecated(url, wc, rp, mc)
		if err != nil {
			return nil, badInput{err}
		}
		for _, w := range warns {
			fmt.Fprintf(env.Stderr, "mongobench: warning: %s\n", w)
		}
		if err := mongo.ValidateURL(url); err != nil {
			return nil, badInput{err}
		}
		if w := mongo.InsecureTLSWarning(url); w != "" {
			fmt.Fprintf(env.Stderr, "mongobench: warning: %s\n", w)
		}
	}
	cfg.url = url
	if err := checkNames(url, spec); err != nil {
		return nil, err
	}
	if cfg.shard, err = resolveShard(props); err != nil {
		return nil, err
	}
	if cfg.plan, err = resolvePart(command, &a.parts, props, spec, url, env); err != nil {
		return nil, err
	}
	return cfg, nil
}

// checkNames refuses names MongoDB forbids before anything runs: the
// server would fail every operation on them, and the run would measure
// nothing but errors.
func checkNames(url string, spec *workload.Spec) error {
	dbName := mongo.DefaultDatabase
	if url != "" {
		dbName = mongo.DatabaseFromURL(url)
		if err := mongo.CheckDatabaseName(dbName); err != nil {
			return badInputf("mongodb.url %s names the database %q, which is invalid: %w", redact.URL(url), dbName, err)
		}
	}
	if err := mongo.CheckCollectionName(dbName, spec.Table); err != nil {
		return badInputf("table=%q is invalid: %w", spec.Table, err)
	}
	if err := mongo.CheckFieldPrefix(spec.FieldNamePrefix); err != nil {
		return badInputf("fieldnameprefix=%q is invalid: %w", spec.FieldNamePrefix, err)
	}
	return nil
}

func runBench(ctx context.Context, command string, args []string, env Env) error {
	if env.said == nil {
		env.said = new(saidOnce)
	}
	cfg, err := resolveBench(command, args, env)
	if err != nil {
		return err
	}
	if cfg.args.help {
		fmt.Fprintln(env.Stdout, benchHelp(command))
		return nil
	}
	spec := cfg.spec

	// A signal before the phase cancels whatever step is under way and
	// ends the command at once: there is nothing measured to save yet.
	interrupt := newInterrupt(env.Interrupt)
	defer interrupt.close()
	setupCtx, cancelSetup := interrupt.context(ctx)
	defer cancelSetup()
	// disconnect closes a client within the post-phase limit; when the run
	// was interrupted before it measured, in the background, since the
	// server may be why it was, and the driver's Disconnect waits for a
	// monitor's handshake with it whatever its context says.
	measuring := false
	disconnect := func(close func(context.Context) error) {
		c, cancel, _ := postPhaseContext(ctx, cfg.connect)
		if interrupt.code() != 0 && !measuring {
			go func() { defer cancel(); _ = close(c) }()
			return
		}
		defer cancel()
		_ = close(c)
	}

	// The store is opened before the benchmark so that a wrong --store is
	// reported before any time is spent measuring.
	var runStore *store.Store
	cfg.args.store.fromEnv(env)
	saving := !cfg.args.store.disabled && !callerSaves(ctx)
	storeFile := ""
	if saving {
		storeFile = storePath(cfg.args.store.path)
	}
	if err := checkBenchOutputs(cfg, storeFile); err != nil {
		return err
	}
	var metricsSink bench.Sink
	if cfg.args.metricsAddr != "" {
		srv, err := serveMetrics(cfg.args.metricsAddr, metricsPart(cfg), env)
		if err != nil {
			return err
		}
		defer srv.Close()
		metricsSink = srv.Sink()
	}
	if saving {
		if runStore, err = openStore(cfg.args.store.path); err != nil {
			return err
		}
		defer runStore.Close()
	}

	var server *embedded.Server
	url := cfg.url
	if url == "" {
		server, err = embedded.Start(setupCtx, embedded.Options{DataDir: cfg.args.dataDir})
		if err != nil {
			return interrupt.before(fmt.Errorf("cannot start the embedded server: %w", err), "starting the embedded server")
		}
		defer server.Close()
		url = server.URI()
		fmt.Fprintf(env.Stderr, "mongobench: no mongodb.url given: started the embedded server (FerretDB, SQLite) at %s, data in %s\n", url, server.DataDir())
	}
	dbName := mongo.DatabaseFromURL(url)
	client, err := mongo.Open(setupCtx, mongo.Config{
		URL: url, Database: dbName, Upsert: cfg.upsert, Threads: spec.Threads,
		ConnectTimeout: cfg.connect, OpTimeout: spec.OpTimeout,
	})
	if err != nil {
		return interrupt.before(err, "connecting to "+redact.URL(url))
	}
	defer disconnect(client.Close)
	monitor, err := mongo.OpenMonitor(mongo.Config{URL: url, ConnectTimeout: cfg.connect})
	if err != nil {
		return err
	}
	defer disconnect(monitor.Disconnect)
	localServer := server != nil || isLocalURL(url)

	if cfg.args.drop { // load only: parseBenchArgs refuses it with run
		if err := client.Drop(setupCtx, spec.Table); err != nil {
			return interrupt.before(fmt.Errorf("cannot drop %s.%s: %w", dbName, spec.Table, err), "dropping "+dbName+"."+spec.Table)
		}
		fmt.Fprintf(env.Stderr, "mongobench: dropped %s.%s\n", dbName, spec.Table)
	}
	if err := setUpShardKey(setupCtx, env, cfg.shard, client, command, spec.Table); err != nil {
		return interrupt.before(err, "setting up the shard key of "+dbName+"."+spec.Table)
	}
	seed := spec.Seed
	if !spec.SeedSet {
		seed = uint64(time.Now().UnixNano())
	}
	runSeed := seed // what the results' configuration says
	if cfg.plan != nil {
		seed = cfg.plan.part.Seed(seed)
	}

	nextInsert := spec.RecordCount
	if command == "run" {
		n, err := client.Count(setupCtx, spec.Table)
		if err := interrupt.before(nil, "counting the documents in "+dbName+"."+spec.Table); err != nil {
			return err
		}
		switch {
		case err != nil && server != nil:
			return fmt.Errorf("cannot count documents in %s.%s: %w", dbName, spec.Table, err)
		case n == 0 && server != nil:
			if err := preload(setupCtx, env, cfg, client, server, seed, interrupt); err != nil {
				return err
			}
		case err == nil:
			if w := shortCollectionWarning(spec, dbName, n); w != "" {
				fmt.Fprintf(env.Stderr, "mongobench: warning: %s\n", w)
			}
		}
	}
	if command == "run" && spec.Proportions[workload.TxInsert] > 0 {
		nextInsert, err = workload.NextInsertKey(setupCtx, spec, func(ctx context.Context, key string) (bool, error) {
			return client.KeyExists(ctx, spec.Table, key)
		})
		if err != nil {
			return interrupt.before(fmt.Errorf("cannot find where earlier inserts ended in %s.%s: %w", dbName, spec.Table, err), "finding where earlier inserts ended")
		}
		if nextInsert > spec.RecordCount {
			fmt.Fprintf(env.Stderr, "mongobench: %s.%s already holds keys up to number %d from earlier runs: inserts continue after them\n", dbName, spec.Table, nextInsert-1)
		}
	}

	core, err := workload.NewCore(spec, nextInsert, seed)
	if err != nil {
		return badInput{err}
	}
	ph := phaseConfig{
		command: command, core: core, spec: spec, client: client, seed: seed,
		batchSize: cfg.batchSize, status: cfg.args.status, interrupt: interrupt,
		maxErrors: cfg.args.maxErrors, maxErrorRate: cfg.args.maxErrorRate, monitor: monitor, localHost: localServer,
		metrics: metricsSink,
	}
	if command == "load" {
		ph.operations = spec.InsertCount
	} else {
		ph.operations = spec.OperationCount
	}
	if cfg.args.out != "" {
		ph.journal = cfg.args.out + results.JournalSuffix
		ph.meta = resultsMeta(cfg, command, runSeed, redact.URL(url), dbName)
	}
	var warm *results.Warmup
	if command == "run" && spec.WarmupTime > 0 {
		// Under setupCtx: a signal during the warm-up ends the command,
		// and nothing of the warm-up is kept, so its operations in flight
		// are cut short rather than granted stopGrace.
		if warm, err = runWarmup(setupCtx, env, ph); err != nil {
			return err
		}
		if err := interrupt.before(nil, "warming up"); err != nil {
			return err
		}
	}
	// The facts read before the phase get a deadline too: a server that
	// stalls after answering the first ping must not hang the run here,
	// before its clock has even started.
	preLimit := max(cfg.connect, 10*time.Second)
	preCtx, cancelPre := context.WithTimeout(setupCtx, preLimit)
	topology := metrics.Topology(preCtx, monitor, dbName, spec.Table)
	sizesBefore := sizesWithin(preCtx, preLimit, "before the phase", monitor, dbName, spec.Table)
	cancelPre()
	ph.shards = openShardMonitors(setupCtx, env, url, &topology, cfg.connect)
	for _, sh := range ph.shards {
		defer disconnect(sh.Client.Disconnect)
	}
	if err := interrupt.before(nil, "reading the server's topology and sizes"); err != nil {
		return err
	}
	var part *results.Part
	if cfg.plan != nil {
		at, how, err := cfg.plan.synchronize(setupCtx, env, monitor, dbName, partition.SystemClock{})
		if err := interrupt.before(err, "waiting for the start"); err != nil {
			return err
		}
		part = cfg.plan.record(seed, at, how)
	}
	measuring = true
	out, err := runPhase(ctx, env, ph)
	if err != nil {
		return err
	}
	postCtx, cancelPost, postLimit := postPhaseContext(ctx, cfg.connect)
	sizesAfter := sizesWithin(postCtx, postLimit, "after the phase", monitor, dbName, spec.Table)
	shardRun := readShardingRun(postCtx, monitor, &topology, out.Summary, spec.StatusInterval)
	cancelPost()
	// Sizes that could not be read are kept with the reason: the summary
	// and results file say "not available" and why.
	obsv := bench.Observation{
		Topology: &topology, SizesBefore: &sizesBefore, SizesAfter: &sizesAfter, Warmup: warm,
		Client:   out.Client(server != nil || servedInProcess(url)),
		Part:     part,
		Sharding: shardRun,
	}
	if runStore != nil {
		obsv.DiskCeilings = diskCeilings(ctx, env, runStore)
	}
	if server != nil {
		if err := server.EnsureIDIndexes(ctx); err != nil {
			fmt.Fprintf(env.Stderr, "mongobench: warning: embedded server: %v\n", err)
		}
	}

	// The results are built whether or not they are kept: the summary
	// prints their diagnosis.
	res, resErr := out.Results(resultsMeta(cfg, command, runSeed, redact.URL(url), dbName), obsv)

	// Every output is written whatever became of the others: a results
	// file that cannot be written must not cost the run its place in the
	// store, nor the store the results file.
	outs := outputs{failed: out.SinkErrors}
	summary := newSummaryOutput(env, spec.ExportFile, cfg.exporter)
	opts := export.TextOptions{Percentiles: spec.Percentiles, Service: spec.MeasureService, Intended: spec.MeasureIntended, Partial: out.Partial}
	summaryErr := export.WriteText(summary, out.Summary, opts)
	if summaryErr != nil {
		summaryErr = fmt.Errorf("the summary: %w", summaryErr)
	}
	if out.ErrorStop != nil {
		fmt.Fprintf(summary, "[ERRORS], StoppedBy, %s %s\n", out.ErrorStop.Flag, strconv.FormatFloat(out.ErrorStop.Limit, 'f', -1, 64))
	}
	if out.Observer != nil {
		first, last := out.Observer.Bounds()
		for _, l := range metrics.SummaryLines(first, last, obsv.SizesAfter, obsv.Topology) {
			fmt.Fprintln(summary, l)
		}
		for _, l := range metrics.ReplicationLines(out.Observer.Intervals()) {
			fmt.Fprintln(summary, l)
		}
	}
	for _, l := range metrics.ShardingLines(obsv.Sharding) {
		fmt.Fprintln(summary, l)
	}
	for _, l := range export.ScheduleLagLines(out.Summary) {
		fmt.Fprintln(summary, l)
	}
	if obsv.Client != nil {
		for _, l := range obsv.Client.SummaryLines() {
			fmt.Fprintln(summary, l)
		}
		if w := env.said.clientWarning(*obsv.Client); w != "" {
			fmt.Fprintf(env.Stderr, "mongobench: warning: %s\n", w)
		}
	}
	if res != nil && res.Extra != nil {
		for _, l := range diagnosis.SummaryLines(res.Extra.Diagnosis) {
			fmt.Fprintln(summary, l)
		}
	}
	if err := summary.close(); err != nil && summaryErr == nil {
		summaryErr = err
	}
	if summaryErr != nil {
		outs.fail(summaryErr)
	} else {
		outs.kept = append(outs.kept, summary.what())
	}
	// Without -target there is no schedule to be behind.
	switch {
	case spec.Target > 0 && (out.Result.LateStarts > 0 || out.Result.Abandoned > 0):
		fmt.Fprintf(env.Stderr, "mongobench: %d operations started over 1 ms behind schedule; %d were cut short by the end of the phase and not counted\n", out.Result.LateStarts, out.Result.Abandoned)
	case out.Result.Abandoned > 0:
		fmt.Fprintf(env.Stderr, "mongobench: %d operations were cut short by the end of the phase and not counted\n", out.Result.Abandoned)
	}
	if cfg.args.out != "" || runStore != nil || callerSaves(ctx) {
		if resErr != nil {
			return resErr
		}
		handToCaller(ctx, res)
		if cfg.args.out != "" {
			if err := writeResults(cfg.args.out, res); err != nil {
				outs.fail(err)
			} else {
				outs.kept = append(outs.kept, "the results file "+cfg.args.out)
			}
		}
		if runStore != nil {
			if id, err := saveRun(ctx, runStore, res, store.SaveOptions{}); err != nil {
				outs.fail(err)
			} else {
				outs.kept = append(outs.kept, fmt.Sprintf("run %d in %s", id, runStore.Path()))
				fmt.Fprintf(env.Stderr, "mongobench: saved as run %d in %s\n", id, runStore.Path())
			}
		}
	}
	if ph.journal != "" && !outs.journalFailed(ph.journal) {
		if _, err := os.Stat(ph.journal); err == nil {
			outs.kept = append(outs.kept, "the journal "+ph.journal)
		}
	}
	failure := outs.report(env.Stderr)
	if code := interrupt.code(); code != 0 {
		return exitError{code, errors.New("interrupted: the summary and results cover what ran and are marked partial")}
	}
	if failure != nil {
		return failure
	}
	if out.Result.DuplicateKeys > 0 && command == "load" {
		fmt.Fprintf(env.Stderr, "mongobench: %d inserts failed on duplicate keys: %s.%s already holds these records; load again with -p mongodb.upsert=true, or drop the collection first (--drop)\n",
			out.Result.DuplicateKeys, dbName, spec.Table)
	}
	if es := out.ErrorStop; es != nil {
		if es.Flag == "--max-errors" {
			return fmt.Errorf("stopped after %d failed operations (--max-errors %d); the summary and results cover what ran", es.Failed, cfg.args.maxErrors)
		}
		return fmt.Errorf("stopped early: %s; the summary and results cover what ran", es.Reason)
	}
	if failed := failedOperations(out.Summary); failed > 0 && failed == out.Summary.Operations {
		return fmt.Errorf("every one of the %d operations failed (see the Return= and Error lines)", failed)
	}
	return nil
}

// urlHosts returns the host:port list of a mongodb:// URL; nil for a
// mongodb+srv:// URL, whose hosts only DNS knows.
func urlHosts(uri string) []string {
	rest, ok := strings.CutPrefix(uri, "mongodb://")
	if !ok {
		return nil
	}
	// A password may hold '/' unescaped; the last '@' ends it.
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	if i := strings.IndexAny(rest, "/?"); i >= 0 {
		rest = rest[:i]
	}
	return strings.Split(rest, ",")
}

// servedInProcess reports whether a host of the URL is an embedded server
// running in this process, as a sweep's is.
func servedInProcess(uri string) bool {
	for _, h := range urlHosts(uri) {
		if embedded.InProcess(h) {
			return true
		}
	}
	return false
}

// isLocalURL reports whether every host of a mongodb:// URL is this
// machine, so host metrics describe the server too.
func isLocalURL(uri string) bool {
	hosts := urlHosts(uri)
	if hosts == nil {
		return false
	}
	for _, h := range hosts {
		host := h
		if i := strings.LastIndexByte(h, ':'); i >= 0 && !strings.HasSuffix(h, "]") {
			host = h[:i]
		}
		host = strings.Trim(host, "[]")
		if host != "localhost" && !strings.HasPrefix(host, "127.") && host != "::1" {
			return false
		}
	}
	return true
}

// preload fills an empty embedded server before a run: it starts empty,
// and a run against nothing would measure NOT_FOUND.
func preload(ctx context.Context, env Env, cfg *benchConfig, client *mongo.Client, server *embedded.Server, seed uint64, interrupt *interruptWatch) error {
	spec := *cfg.spec
	spec.Transactions = false
	fmt.Fprintf(env.Stderr, "mongobench: the embedded server is empty: loading %d records into %s first\n", spec.RecordCount, spec.Table)
	core, err := workload.NewCore(&spec, spec.RecordCount, seed)
	if err != nil {
		return badInput{err}
	}
	start := time.Now()
	out, err := runPhase(ctx, env, phaseConfig{
		command: "load", core: core, spec: &spec, client: client, seed: seed,
		batchSize: preloadBatch(&spec, cfg.batchSize), operations: spec.InsertCount, quiet: true, interrupt: interrupt,
	})
	if err != nil {
		return err
	}
	// Stopped by a signal: the records are not all there, and the run
	// that would follow has nothing to measure.
	if interrupt.code() != 0 {
		preloadInterrupted(env, cfg, out)
		return interrupt.before(nil, "loading the embedded server")
	}
	if failed := failedOperations(out.Summary); failed > 0 {
		return fmt.Errorf("loading the embedded server failed for %d of %d records", failed, out.Summary.Operations)
	}
	if err := server.EnsureIDIndexes(ctx); err != nil {
		return fmt.Errorf("embedded server: %w", err)
	}
	el := time.Since(start)
	fmt.Fprintf(env.Stderr, "mongobench: loaded %d records in %.1f s (%.0f records/s)\n", spec.InsertCount, el.Seconds(), float64(spec.InsertCount)/el.Seconds())
	return nil
}

// shortCollectionWarning says what a run on a collection of n documents,
// fewer than recordcount, will measure: the operations that look a key up
// find nothing for about the share of keys that were never loaded, and
// NOT_FOUND answers faster than a real read, so the figures flatter the
// server. "" when the collection holds the records or the workload looks
// no key up.
func shortCollectionWarning(spec *workload.Spec, dbName string, n int64) string {
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

// preloadBatch is the batch size that fills the embedded server: at least
// 100 records per insertMany, for speed, unless records so large would
// hold more than workload.InFlightBudget in the client at once.
func preloadBatch(spec *workload.Spec, batchSize int) int {
	fits := workload.InFlightBudget / (int64(spec.Threads) * spec.MaxRecordBytes())
	return int(max(1, min(int64(max(batchSize, 100)), fits)))
}

// preloadInterrupted says how far a preload got when a signal stopped it,
// by the inserts the server acknowledged rather than by the plan. Counting
// in the server instead would wait on it while it still works through the
// batches cut short.
func preloadInterrupted(env Env, cfg *benchConfig, out *bench.Outcome) {
	spec := cfg.spec
	loaded := out.Summary.Status[db.Insert][db.OK]
	cut := ""
	if n := out.Result.Abandoned; n > 0 {
		cut = fmt.Sprintf("; %d more were in flight and may be stored too", n)
	}
	fmt.Fprintf(env.Stderr, "mongobench: loading the embedded server was interrupted: the server acknowledged %d of the %d records for %s%s\n", loaded, spec.RecordCount, spec.Table, cut)
	if cfg.args.dataDir != "" {
		fmt.Fprintf(env.Stderr, "mongobench: a later run with --data-dir %s finds %s not empty and will not load it again: give it an empty --data-dir to load all %d records\n", cfg.args.dataDir, spec.Table, spec.RecordCount)
	}
}

// failedOperations counts operations whose status is not OK, excluding
// NOT_FOUND, which is a legitimate answer.
func failedOperations(s *measure.Summary) int64 {
	var n int64
	for op := range s.Status {
		if db.Op(op) == db.InsertBatch {
			continue
		}
		for st, c := range s.Status[op] {
			if !db.Status(st).IsOK() && db.Status(st) != db.NotFound {
				n += c
			}
		}
	}
	return n
}
