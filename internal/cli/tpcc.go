package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"

	mongodb "github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/tpcc"
)

const tpccAbout = `usage: mongobench tpcc load|run|check [flags] [-p NAME=VALUE ...]

TPC-C adapted to MongoDB as py-tpcc and its paper (Kamsky, PVLDB 2019)
have it: load writes the warehouses, run runs the five transactions in
the standard mix and prints tpmC and each transaction's latencies, check
tests TPC-C's consistency conditions 1-4 (run does too, after the run,
unless -p tpcc.check=false); a broken condition exits 1.

properties (-p):
  mongodb.url              the server (default: MONGOBENCH_URL, else the
                           embedded server; keep its data between commands
                           with --data-dir)
  warehouses=1             the scale; items=100000 and customers=3000
                           (per district) are smaller only for trials
  seed=0                   the data's seed; runseed=1 the run's
  threadcount=1            workers (run)
  maxexecutiontime=60      seconds (run); operationcount=N ends it sooner
  tpcc.transactions=true   multi-document transactions (false: statement
                           by statement)
  tpcc.normalized=false    order lines in ORDER_LINE, not in their order
  tpcc.findandmodify=true  findAndModify where py-tpcc uses it
  tpcc.batchwrites=true    a NewOrder's stock updates in one bulk write
  tpcc.deliveryperdistrict=false  a Delivery as ten transactions
  tpcc.causal=false        causally consistent sessions
  tpcc.writeconcern, tpcc.readconcern, tpcc.readpreference
  tpcc.maxattempts=10      runs of a transaction on TransientTransactionError
  tpcc.linepaths           set delivered lines by index, not ORDER_LINE.$[]
                           (default: true on the embedded server only)
  tpcc.check=true          run: check the conditions after the run

flags:`

type tpccOptions struct {
	props         []string
	dataDir, part string
	drop, help    bool
}

func tpccFlags(o *tpccOptions) []flagDef {
	return []flagDef{
		funcFlag("p", "NAME=VALUE", "set a property (see above)", false, func(s string) error { o.props = append(o.props, s); return nil }),
		textFlag("data-dir", "DIR", "the embedded server's data directory, so that run and check find what load wrote", true, &o.dataDir),
		textFlag("part", "I/N", "load or run part I of N (from 0): its share of the warehouses", true, &o.part),
		switchFlag("drop", "load: drop the TPC-C collections first", true, &o.drop),
		helpFlag(&o.help),
	}
}

func tpccHelp() string { return tpccAbout + "\n" + flagsHelp(tpccFlags(&tpccOptions{})) }

// tpccSettings are the properties resolved.
type tpccSettings struct {
	url, database       string
	scale               tpcc.Scale
	seed, runSeed       uint64
	threads             int
	duration            time.Duration
	count               int64
	opts                tpcc.Options
	linePathsSet, check bool
	part                partition.Part
	rng                 tpcc.WarehouseRange
	embedded            bool
}

var tpccKnown = []string{"mongodb.url", "warehouses", "items", "customers", "seed", "runseed", "threadcount",
	"maxexecutiontime", "operationcount", "tpcc.transactions", "tpcc.normalized", "tpcc.findandmodify",
	"tpcc.batchwrites", "tpcc.deliveryperdistrict", "tpcc.causal", "tpcc.writeconcern", "tpcc.readconcern",
	"tpcc.readpreference", "tpcc.maxattempts", "tpcc.linepaths", "tpcc.check"}

func resolveTPCC(o *tpccOptions, getenv func(string) string) (*tpccSettings, error) {
	p, err := tpccProps(o.props)
	if err != nil {
		return nil, err
	}
	s := &tpccSettings{opts: tpcc.DefaultOptions(), check: true}
	if err := s.readProps(p); err != nil {
		return nil, err
	}
	if err := resolveTPCCConcerns(p, &s.opts); err != nil {
		return nil, err
	}
	if err := s.resolveTarget(p, getenv); err != nil {
		return nil, err
	}
	s.part, err = partition.Resolve(o.part, 0, getenv)
	if err != nil {
		return nil, badInputf("tpcc: %v", err)
	}
	s.rng, err = tpcc.PartRange(s.part, s.scale.Warehouses)
	if err != nil {
		return nil, badInputf("tpcc: %v", err)
	}
	if o.drop && !s.part.Whole() {
		return nil, badInputf("tpcc: --drop with --part %s is refused: expected one whole load to drop, since each part would drop the others' data", s.part)
	}
	return s, nil
}

// tpccProps are the -p NAME=VALUE properties by name, each one known.
func tpccProps(props []string) (map[string]string, error) {
	p := map[string]string{}
	for _, kv := range props {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, badInputf("tpcc: -p %q is invalid: expected NAME=VALUE", redact.Arg(kv))
		}
		if !slices.Contains(tpccKnown, k) {
			return nil, badInputf("tpcc: unknown property %q: accepted properties are %s", redact.Arg(k), strings.Join(tpccKnown, ", "))
		}
		p[k] = v
	}
	return p, nil
}

// propReader reads numbers and flags from properties, keeping the first
// error so that a run of reads is checked once, and reports the first
// invalid property in the order they are read.
type propReader struct {
	p   map[string]string
	err error
}

func (r *propReader) num(name string, def, lo, hi int64) int64 {
	v, ok := r.p[name]
	if !ok || r.err != nil {
		return def
	}
	n, e := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if e != nil || n < lo || n > hi {
		r.err = badInputf("tpcc: %s=%q is invalid: expected a whole number from %d to %d", name, v, lo, hi)
	}
	return n
}

func (r *propReader) flag(name string, def bool) bool {
	v, ok := r.p[name]
	if !ok || r.err != nil {
		return def
	}
	b, e := strconv.ParseBool(strings.TrimSpace(v))
	if e != nil {
		r.err = badInputf("tpcc: %s=%q is invalid: expected true or false", name, v)
	}
	return b
}

// readProps sets the scale, the run's bounds and the transactions'
// switches from their properties.
func (s *tpccSettings) readProps(p map[string]string) error {
	r := &propReader{p: p}
	s.scale = tpcc.Scale{
		Warehouses: int(r.num("warehouses", 1, 1, 100000)),
		Items:      int(r.num("items", tpcc.DefaultItems, 100, tpcc.DefaultItems)),
		Customers:  int(r.num("customers", tpcc.DefaultCustomers, 10, tpcc.DefaultCustomers)),
	}
	s.seed = uint64(r.num("seed", 0, 0, 1<<62))
	s.runSeed = uint64(r.num("runseed", 1, 0, 1<<62))
	s.threads = int(r.num("threadcount", 1, 1, 10000))
	s.duration = time.Duration(r.num("maxexecutiontime", 60, 1, 365*24*3600)) * time.Second
	s.count = r.num("operationcount", 0, 0, 1<<62)
	s.opts.NoTransactions = !r.flag("tpcc.transactions", true)
	s.opts.Normalized = r.flag("tpcc.normalized", false)
	s.opts.FindAndModify = r.flag("tpcc.findandmodify", true)
	s.opts.BatchWrites = r.flag("tpcc.batchwrites", true)
	s.opts.DeliveryPerDistrict = r.flag("tpcc.deliveryperdistrict", false)
	s.opts.Causal = r.flag("tpcc.causal", false)
	s.opts.Retry.MaxAttempts = int(r.num("tpcc.maxattempts", 10, 1, 1000))
	_, s.linePathsSet = p["tpcc.linepaths"]
	s.opts.LinePaths = r.flag("tpcc.linepaths", false)
	s.check = r.flag("tpcc.check", true)
	return r.err
}

// resolveTPCCConcerns sets the write concern, read concern and read
// preference that their properties name; without one, the server's.
func resolveTPCCConcerns(p map[string]string, opts *tpcc.Options) error {
	if v, ok := p["tpcc.writeconcern"]; ok {
		switch {
		case v == "majority":
			opts.WriteConcern = writeconcern.Majority()
		default:
			n, e := strconv.Atoi(v)
			if e != nil || n < 0 || n > 50 {
				return badInputf("tpcc: tpcc.writeconcern=%q is invalid: expected majority or a number of members from 0 to 50", v)
			}
			opts.WriteConcern = &writeconcern.WriteConcern{W: n}
		}
	}
	if v, ok := p["tpcc.readconcern"]; ok {
		switch v {
		case "local", "majority", "snapshot", "linearizable", "available":
			opts.ReadConcern = &readconcern.ReadConcern{Level: v}
		default:
			return badInputf("tpcc: tpcc.readconcern=%q is invalid: expected local, majority, snapshot, linearizable or available", v)
		}
	}
	if v, ok := p["tpcc.readpreference"]; ok {
		mode, e := readpref.ModeFromString(v)
		if e != nil {
			return badInputf("tpcc: tpcc.readpreference=%q is invalid: expected primary, primaryPreferred, secondary, secondaryPreferred or nearest", v)
		}
		rp, e := readpref.New(mode)
		if e != nil {
			return badInputf("tpcc: tpcc.readpreference=%q: %v", v, e)
		}
		opts.ReadPreference = rp
	}
	return nil
}

// resolveTarget sets the server's URL, from mongodb.url or else
// MONGOBENCH_URL, and the database: tpcc unless the URL names one.
func (s *tpccSettings) resolveTarget(p map[string]string, getenv func(string) string) error {
	s.url = p["mongodb.url"]
	if s.url == "" {
		s.url = getenv("MONGOBENCH_URL")
	}
	if s.url != "" {
		if e := mongodb.ValidateURL(s.url); e != nil {
			return badInputf("tpcc: %v", e)
		}
	}
	s.database = "tpcc"
	if s.url != "" {
		if db := mongodb.DatabaseFromURL(s.url); db != mongodb.DefaultDatabase || strings.Contains(s.url, "/"+mongodb.DefaultDatabase) {
			s.database = db
		}
	}
	return nil
}

func runTPCC(ctx context.Context, args []string, env Env) error {
	o := &tpccOptions{}
	defs := tpccFlags(o)
	if len(args) == 0 {
		return badInputf("tpcc: expected a phase, load, run or check: mongobench tpcc load|run|check [flags]")
	}
	phase := args[0]
	if phase == "-h" || phase == "--help" || phase == "-help" {
		fmt.Fprintln(env.Stdout, tpccHelp())
		return nil
	}
	if phase != "load" && phase != "run" && phase != "check" {
		return badInputf("tpcc: unknown phase %q: expected load, run or check", redact.Arg(phase))
	}
	fs := newFlagSet("tpcc "+phase, defs)
	if err := fs.parse(args[1:]); err != nil {
		return badInputf("tpcc %s: %v: accepted flags are %s", phase, err, acceptedFlags(defs, true))
	}
	if o.help {
		fmt.Fprintln(env.Stdout, tpccHelp())
		return nil
	}
	if fs.fs.NArg() > 0 {
		return badInputf("tpcc %s: unexpected argument %q: accepted flags are %s", phase, redact.Arg(fs.fs.Arg(0)), acceptedFlags(defs, true))
	}
	if err := checkDataDir(o.dataDir); err != nil {
		return err
	}
	s, err := resolveTPCC(o, env.Getenv)
	if err != nil {
		return err
	}
	if s.url == "" {
		srv, err := embedded.Start(ctx, embedded.Options{DataDir: o.dataDir})
		if err != nil {
			return fmt.Errorf("cannot start the embedded server: %w", err)
		}
		defer srv.Close()
		s.url, s.embedded = srv.URI(), true
		fmt.Fprintf(env.Stderr, "mongobench: no mongodb.url given: started the embedded server (FerretDB, SQLite) at %s, data in %s\n", s.url, srv.DataDir())
	}
	if !s.linePathsSet {
		// The embedded server has no all-positional operator ($[]).
		s.opts.LinePaths = s.embedded
	}
	if s.embedded && !s.opts.NoTransactions && phase == "run" {
		return badInputf("tpcc run: the embedded server has no multi-document transactions: give -p tpcc.transactions=false, or a replica set's mongodb.url")
	}
	co := options.Client().ApplyURI(s.url).SetAppName("mongobench tpcc")
	if co.MaxPoolSize == nil {
		co.SetMaxPoolSize(uint64(max(100, s.threads)))
	}
	if co.ServerSelectionTimeout == nil {
		co.SetServerSelectionTimeout(10 * time.Second)
	}
	client, err := mongo.Connect(co)
	if err != nil {
		return fmt.Errorf("cannot connect to %s: %s", redact.URL(s.url), redact.Error(err.Error(), s.url))
	}
	defer func() { _ = client.Disconnect(context.WithoutCancel(ctx)) }()
	if err := client.Ping(ctx, nil); err != nil {
		return fmt.Errorf("cannot reach %s: %s", redact.URL(s.url), redact.Error(err.Error(), s.url))
	}
	iw := newInterrupt(env.Interrupt)
	defer iw.close()
	ctx, cancel := stopContext(ctx, iw.stopped())
	defer cancel()
	switch phase {
	case "load":
		err = tpccLoad(ctx, client, s, o.drop, env)
	case "run":
		err = tpccRun(ctx, client, s, env)
		if err == nil && s.check && ctx.Err() == nil {
			err = tpccCheck(ctx, client, s, env.Stdout)
		}
	default:
		err = tpccCheck(ctx, client, s, env.Stdout)
	}
	if code := iw.code(); code != 0 {
		return exitError{code: code, err: fmt.Errorf("tpcc %s interrupted", phase)}
	}
	return err
}

func tpccLoad(ctx context.Context, client *mongo.Client, s *tpccSettings, drop bool, env Env) error {
	db := client.Database(s.database)
	if drop {
		if err := tpcc.Drop(ctx, db); err != nil {
			return err
		}
	} else {
		n, err := db.Collection(tpcc.CollWarehouse).CountDocuments(ctx, map[string]any{"W_ID": map[string]any{"$gte": s.rng.First, "$lte": s.rng.Last}})
		if err != nil {
			return err
		}
		if n > 0 {
			return badInputf("tpcc load: %s already holds warehouses %s: give --drop to load them again", s.database, s.rng)
		}
	}
	if err := tpcc.CreateSchema(ctx, db, s.opts.Normalized); err != nil {
		return err
	}
	began := time.Now()
	stats, err := tpcc.Load(ctx, db, tpcc.LoadConfig{Scale: s.scale, Seed: s.seed, Normalized: s.opts.Normalized, Range: s.rng,
		Items: s.part.Index == 0, Parallel: min(s.threads, s.rng.Len()) + 1})
	if err != nil {
		return err
	}
	elapsed := time.Since(began)
	w := env.Stdout
	fmt.Fprintf(w, "[LOAD], Warehouses, %s\n", s.rng)
	fmt.Fprintf(w, "[LOAD], RunTime(ms), %d\n", elapsed.Milliseconds())
	var total int64
	for _, c := range tpcc.Collections(s.opts.Normalized) {
		fmt.Fprintf(w, "[LOAD], %s, %d\n", c, stats.Docs[c])
		total += stats.Docs[c]
	}
	fmt.Fprintf(w, "[LOAD], Documents, %d\n", total)
	if !s.scale.Standard() {
		fmt.Fprintf(w, "[WARNING], Scale, items=%d customers=%d: smaller than TPC-C's; figures are not comparable with TPC-C's\n", s.scale.Items, s.scale.Customers)
	}
	return nil
}

func tpccRun(ctx context.Context, client *mongo.Client, s *tpccSettings, env Env) error {
	seed := s.part.Seed(s.runSeed)
	exec := tpcc.NewExecutor(client, s.database, s.scale, s.opts, seed)
	rec := tpcc.NewHDRRecorder()
	cfg := tpcc.RunConfig{Scale: s.scale, Range: s.rng, Workers: s.threads, Duration: s.duration, Count: s.count, LoadSeed: s.seed, Seed: seed}
	st, err := tpcc.Run(ctx, exec, cfg, rec)
	if err != nil {
		return err
	}
	writeTPCCSummary(env.Stdout, rec.Summary(), exec)
	if st.FirstError != nil {
		fmt.Fprintf(env.Stderr, "mongobench: tpcc run: first failure: %s\n", redact.Error(st.FirstError.Error(), s.url))
	}
	return nil
}

// writeTPCCSummary prints the run's figures as summary lines: three
// comma-separated fields, one figure a line.
func writeTPCCSummary(w io.Writer, sum tpcc.Summary, exec *tpcc.Executor) {
	fmt.Fprintf(w, "[OVERALL], RunTime(ms), %d\n", sum.Elapsed.Milliseconds())
	fmt.Fprintf(w, "[OVERALL], Throughput(ops/sec), %.2f\n", sum.Throughput)
	fmt.Fprintf(w, "[TPCC], tpmC, %.2f\n", sum.TpmC)
	for _, ts := range sum.Types {
		name := ts.Type.String()
		c := exec.Counts(ts.Type)
		fmt.Fprintf(w, "[%s], Operations, %d\n", name, ts.Count)
		fmt.Fprintf(w, "[%s], Committed, %d\n", name, ts.OK)
		if ts.Type == tpcc.NewOrder {
			fmt.Fprintf(w, "[%s], RolledBack, %d\n", name, ts.Rollbacks)
		}
		fmt.Fprintf(w, "[%s], Failed, %d\n", name, ts.Failed)
		fmt.Fprintf(w, "[%s], Retries, %d\n", name, c.Retries)
		fmt.Fprintf(w, "[%s], CommitRetries, %d\n", name, c.CommitRetries)
		fmt.Fprintf(w, "[%s], Aborts, %d\n", name, c.Aborts)
		if ts.Count > 0 {
			fmt.Fprintf(w, "[%s], 50thPercentileLatency(us), %d\n", name, ts.P50.Microseconds())
			fmt.Fprintf(w, "[%s], 95thPercentileLatency(us), %d\n", name, ts.P95.Microseconds())
			fmt.Fprintf(w, "[%s], 99thPercentileLatency(us), %d\n", name, ts.P99.Microseconds())
			fmt.Fprintf(w, "[%s], MaxLatency(us), %d\n", name, ts.Max.Microseconds())
		}
	}
}

func tpccCheck(ctx context.Context, client *mongo.Client, s *tpccSettings, w io.Writer) error {
	conds, err := tpcc.Check(ctx, client.Database(s.database), s.opts.Normalized, s.rng)
	if err != nil {
		return err
	}
	var broken []string
	for _, c := range conds {
		state := "OK"
		if !c.OK() {
			state = "FAILED"
			broken = append(broken, strconv.Itoa(c.Number))
		}
		fmt.Fprintf(w, "[CHECK], Condition%d, %s (%d checked; %d failed)\n", c.Number, state, c.Checked, c.Failed)
		for _, e := range c.Examples {
			fmt.Fprintf(w, "[CHECK], Condition%d, %s\n", c.Number, strings.ReplaceAll(e, ",", ";"))
		}
	}
	if len(broken) > 0 {
		return fmt.Errorf("tpcc check: consistency condition(s) %s broken on warehouses %s", strings.Join(broken, ", "), s.rng)
	}
	return nil
}
