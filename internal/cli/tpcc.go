package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongobench/mongobench/internal/embedded"
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
	s, err := tpcc.ResolveSettings(o.props, o.part, env.Getenv)
	if err != nil {
		return badInputf("tpcc: %v", err)
	}
	if o.drop && !s.Part.Whole() {
		return badInputf("tpcc: --drop with --part %s is refused: expected one whole load to drop, since each part would drop the others' data", s.Part)
	}
	embeddedServer := false
	if s.URL == "" {
		srv, err := embedded.Start(ctx, embedded.Options{DataDir: o.dataDir})
		if err != nil {
			return fmt.Errorf("cannot start the embedded server: %w", err)
		}
		defer srv.Close()
		s.URL, embeddedServer = srv.URI(), true
		fmt.Fprintf(env.Stderr, "mongobench: no mongodb.url given: started the embedded server (FerretDB, SQLite) at %s, data in %s\n", s.URL, srv.DataDir())
	}
	if !s.LinePathsSet {
		// The embedded server has no all-positional operator ($[]).
		s.Options.LinePaths = embeddedServer
	}
	if embeddedServer && !s.Options.NoTransactions && phase == "run" {
		return badInputf("tpcc run: the embedded server has no multi-document transactions: give -p tpcc.transactions=false, or a replica set's mongodb.url")
	}
	co := options.Client().ApplyURI(s.URL).SetAppName("mongobench tpcc")
	if co.MaxPoolSize == nil {
		co.SetMaxPoolSize(uint64(max(100, s.Threads)))
	}
	if co.ServerSelectionTimeout == nil {
		co.SetServerSelectionTimeout(10 * time.Second)
	}
	client, err := mongo.Connect(co)
	if err != nil {
		return fmt.Errorf("cannot connect to %s: %s", redact.URL(s.URL), redact.Error(err.Error(), s.URL))
	}
	defer func() { _ = client.Disconnect(context.WithoutCancel(ctx)) }()
	if err := client.Ping(ctx, nil); err != nil {
		return fmt.Errorf("cannot reach %s: %s", redact.URL(s.URL), redact.Error(err.Error(), s.URL))
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
		if err == nil && s.Check && ctx.Err() == nil {
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

func tpccLoad(ctx context.Context, client *mongo.Client, s *tpcc.Settings, drop bool, env Env) error {
	db := client.Database(s.Database)
	if drop {
		if err := tpcc.Drop(ctx, db); err != nil {
			return err
		}
	} else {
		n, err := db.Collection(tpcc.CollWarehouse).CountDocuments(ctx, map[string]any{"W_ID": map[string]any{"$gte": s.Range.First, "$lte": s.Range.Last}})
		if err != nil {
			return err
		}
		if n > 0 {
			return badInputf("tpcc load: %s already holds warehouses %s: give --drop to load them again", s.Database, s.Range)
		}
	}
	if err := tpcc.CreateSchema(ctx, db, s.Options.Normalized); err != nil {
		return err
	}
	began := time.Now()
	stats, err := tpcc.Load(ctx, db, tpcc.LoadConfig{Scale: s.Scale, Seed: s.Seed, Normalized: s.Options.Normalized, Range: s.Range,
		Items: s.Part.Index == 0, Parallel: min(s.Threads, s.Range.Len()) + 1})
	if err != nil {
		return err
	}
	elapsed := time.Since(began)
	w := env.Stdout
	fmt.Fprintf(w, "[LOAD], Warehouses, %s\n", s.Range)
	fmt.Fprintf(w, "[LOAD], RunTime(ms), %d\n", elapsed.Milliseconds())
	var total int64
	for _, c := range tpcc.Collections(s.Options.Normalized) {
		fmt.Fprintf(w, "[LOAD], %s, %d\n", c, stats.Docs[c])
		total += stats.Docs[c]
	}
	fmt.Fprintf(w, "[LOAD], Documents, %d\n", total)
	if !s.Scale.Standard() {
		fmt.Fprintf(w, "[WARNING], Scale, items=%d customers=%d: smaller than TPC-C's; figures are not comparable with TPC-C's\n", s.Scale.Items, s.Scale.Customers)
	}
	return nil
}

func tpccRun(ctx context.Context, client *mongo.Client, s *tpcc.Settings, env Env) error {
	seed := s.Part.Seed(s.RunSeed)
	exec := tpcc.NewExecutor(client, s.Database, s.Scale, s.Options, seed)
	rec := tpcc.NewHDRRecorder()
	cfg := tpcc.RunConfig{Scale: s.Scale, Range: s.Range, Workers: s.Threads, Duration: s.Duration, Count: s.Count, LoadSeed: s.Seed, Seed: seed}
	st, err := tpcc.Run(ctx, exec, cfg, rec)
	if err != nil {
		return err
	}
	writeTPCCSummary(env.Stdout, rec.Summary(), exec)
	if st.FirstError != nil {
		fmt.Fprintf(env.Stderr, "mongobench: tpcc run: first failure: %s\n", redact.Error(st.FirstError.Error(), s.URL))
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

func tpccCheck(ctx context.Context, client *mongo.Client, s *tpcc.Settings, w io.Writer) error {
	conds, err := tpcc.Check(ctx, client.Database(s.Database), s.Options.Normalized, s.Range)
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
		return fmt.Errorf("tpcc check: consistency condition(s) %s broken on warehouses %s", strings.Join(broken, ", "), s.Range)
	}
	return nil
}
