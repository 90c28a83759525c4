package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"github.com/mongobench/mongobench/internal/bench"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/store"
	"github.com/mongobench/mongobench/internal/workload"
)

const sweepAbout = `usage: mongobench sweep [run|load] mongodb [load/run flags] --vary NAME=V1,V2,... [flags]

Runs the same benchmark at every point of a series: the load/run command line
plus what varies. Each finished run adds a row to the table on stdout; each
run's results file goes to --out-dir and into the results store.

flags:
%s
The command is run unless load is given. With no mongodb.url one embedded
server serves the whole sweep, and the data is loaded before the first point.
Ctrl-C stops the sweep after the current run, whose results are kept, marked
partial.`

// varyAliases are the flag names --vary accepts for properties.
var varyAliases = map[string]string{"threads": "threadcount", "l": "label"}

// dataProperties shape the loaded data: varying one of them means each
// point needs its own load.
var dataProperties = []string{
	"recordcount", "insertstart", "insertcount", "table", "fieldcount", "fieldlength", "minfieldlength",
	"fieldlengthdistribution", "fieldlengthhistogram", "fieldnameprefix", "insertorder", "zeropadding",
	"dataintegrity", "mongodb.url", "mongodb.shardkey", "mongodb.shardkey.chunks",
}

// sweepDim is one --vary.
type sweepDim struct {
	name   string
	values []string // nil for auto
	auto   bool
}

type sweepOptions struct {
	command      string     // run | load
	bench        []string   // the load/run arguments, sweep flags taken out
	benchArgs    *benchArgs // bench, parsed
	dims         []sweepDim
	repeat       int
	discardFirst bool
	reload       *bool // nil: reload when a varied property shapes the data
	outDir       string
	knee         stats.KneeOptions
	format       tableFormat
	store        storeFlags
	help         bool
}

// maxRepeat bounds --repeat: far more trials than any confidence interval
// needs, and few enough that a typo is not a week-long sweep.
const maxRepeat = 10000

// sweepFlags are the flags sweep adds to load's and run's, bound to o and
// to reload and noReload; -h is load's and run's.
func sweepFlags(o *sweepOptions, reload, noReload *bool) []flagDef {
	defs := []flagDef{
		funcFlag("vary", "NAME=V1,V2,...", "a property (or -threads/-target) and its values; several\n--vary make a matrix. --vary threadcount=auto doubles the\nthreads from 1 until throughput saturates (the knee)", true, func(v string) error {
			d, err := parseVary(v)
			if err != nil {
				return err
			}
			for _, prev := range o.dims {
				if prev.name == d.name {
					return fmt.Errorf("--vary %s is given twice: list all its values in one --vary, separated by commas", d.name)
				}
			}
			o.dims = append(o.dims, d)
			return nil
		}),
		funcFlag("repeat", "N", "trials per point (default 1); with N >= 2 every figure is\nthe mean with its 95% confidence interval", true, func(v string) error {
			n, err := workload.ParseInt(v, 1, maxRepeat)
			if err != nil {
				return fmt.Errorf("--repeat %q is invalid: expected a whole number of trials from 1 to %d", v, maxRepeat)
			}
			o.repeat = int(n)
			return nil
		}),
		switchFlag("discard-first", "run one more trial first at each point, as a warm-up, and\nleave it out of the means", true, &o.discardFirst),
		switchFlag("reload", "drop and load the data before every run: each trial,\nthe warm-up included, starts from the same data", true, reload),
		switchFlag("no-reload", "load the data only into an empty collection, once\n(default: load again when a varied property shapes\nthe data: recordcount, fieldcount, fieldlength, table, ...)", true, noReload),
		funcFlag("out-dir", "DIR", "where results files go (default sweep-<timestamp>)", true, func(v string) error {
			if o.outDir = v; strings.TrimSpace(v) == "" {
				return errors.New("--out-dir is empty: expected a directory")
			}
			return nil
		}),
		funcFlag("knee-throughput", "F", "a step that gains less throughput than this fraction ...", true, func(v string) (err error) {
			o.knee.MinThroughputGain, err = parseFraction("knee-throughput", v, "0.05 for +5% throughput")
			return err
		}),
		funcFlag("knee-latency", "F", "... while p99 grows by more than this one is the knee\n(defaults 0.05 and 0.20)", true, func(v string) (err error) {
			o.knee.MinLatencyGrowth, err = parseFraction("knee-latency", v, "0.20 for +20% p99")
			return err
		}),
		funcFlag("max-threads", "N", "where threadcount=auto stops at the latest (default 1024)", true, func(v string) error {
			n, err := workload.ParseInt(v, 1, 1<<20)
			if err != nil {
				return fmt.Errorf("--max-threads %q is invalid: expected a whole number from 1 to 1048576", v)
			}
			o.knee.MaxX = float64(n)
			return nil
		}),
		funcFlag("format", "FORMAT", "the table as text (default), csv or markdown; with csv\nthe knee goes to stderr", true, func(v string) (err error) {
			o.format, err = parseTableFormat(v)
			return err
		}),
	}
	return append(defs, o.store.defs("the results store (default mongobench.db, or $MONGOBENCH_STORE)", "record nothing")...)
}

// sweepHelp is sweep's help.
func sweepHelp() string {
	var reload, noReload bool
	o := &sweepOptions{}
	return fmt.Sprintf(sweepAbout, flagsHelp(append(sweepFlags(o, &reload, &noReload), helpFlag(&o.help))))
}

// parseSweepArgs takes sweep's own flags out of args, wherever they are,
// and parses the rest with load's and run's parser.
func parseSweepArgs(args []string) (*sweepOptions, error) {
	o := &sweepOptions{command: "run", repeat: 1}
	if len(args) > 0 && (args[0] == "run" || args[0] == "load") {
		o.command, args = args[0], args[1:]
	}
	var reload, noReload bool
	own := sweepFlags(o, &reload, &noReload)
	defs := append(own, helpFlag(&o.help))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.bench = append(o.bench, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") {
			o.bench = append(o.bench, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		d, ok := lookup(defs, name)
		if !ok {
			o.bench = append(o.bench, a)
			continue
		}
		if d.arg != "" && !hasValue {
			if i+1 >= len(args) {
				return nil, badInputf("sweep: flag --%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if d.arg == "" {
			on := true
			if hasValue {
				b, err := strconv.ParseBool(value)
				if err != nil {
					return nil, badInputf("sweep: --%s=%s is invalid: expected true or false", name, value)
				}
				on = b
			}
			value = strconv.FormatBool(on)
		}
		if err := d.value.Set(value); err != nil {
			return nil, badInputf("sweep: %w", err)
		}
	}
	if o.help {
		return o, nil
	}
	switch {
	case reload && noReload:
		return nil, badInputf("sweep: --reload and --no-reload contradict each other: give one")
	case reload || noReload:
		o.reload = &reload
	}
	a, err := parseBenchArgs(o.command, o.bench)
	if err != nil {
		if strings.HasPrefix(err.Error(), "unknown flag") {
			return nil, badInputf("sweep: %v; and sweep's %s", err, acceptedFlags(own, false))
		}
		return nil, badInputf("sweep: %w", err)
	}
	if a.help {
		o.help = true
		return o, nil
	}
	o.benchArgs = a
	if a.out != "" {
		return nil, badInputf("sweep: --out names one results file, and a sweep writes one per run: use --out-dir DIR")
	}
	if len(o.dims) == 0 && o.repeat < 2 {
		return nil, badInputf("sweep: nothing to sweep: give --vary NAME=V1,V2,... (such as --vary threadcount=1,2,4,8) or --repeat N")
	}
	return o, nil
}

// parseVary parses "NAME=V1,V2,..." or "threadcount=auto".
func parseVary(s string) (sweepDim, error) {
	name, list, ok := strings.Cut(s, "=")
	name = strings.TrimLeft(strings.TrimSpace(name), "-")
	if !ok || name == "" {
		return sweepDim{}, fmt.Errorf("--vary %q: expected --vary NAME=V1,V2,... such as --vary threadcount=1,2,4,8", redact.Arg(s))
	}
	if alias, ok := varyAliases[name]; ok {
		name = alias
	}
	switch {
	case name == "exportfile" || name == "dotransactions":
		return sweepDim{}, fmt.Errorf("--vary %s: the sweep sets %s for each run itself", name, name)
	case !workload.IsKnown(name):
		msg := fmt.Sprintf("--vary %s: unknown property", name)
		if hint := workload.Suggest(name); hint != "" {
			msg += "; did you mean " + hint + "?"
		}
		return sweepDim{}, errors.New(msg)
	case strings.TrimSpace(list) == "":
		return sweepDim{}, fmt.Errorf("--vary %s=: no values: list them after the =, separated by commas", name)
	}
	values := strings.Split(list, ",")
	for i, v := range values {
		v = strings.TrimSpace(v)
		if v == "" {
			return sweepDim{}, fmt.Errorf("--vary %s=%s: value %d is empty", name, redact.URL(list), i+1)
		}
		if slices.Contains(values[:i], v) {
			return sweepDim{}, fmt.Errorf("--vary %s=%s: value %s is given twice", name, redact.URL(list), redact.URL(v))
		}
		values[i] = v
	}
	if slices.Contains(values, "auto") {
		switch {
		case name != "threadcount":
			return sweepDim{}, fmt.Errorf("--vary %s=auto: auto is only for threadcount (it doubles the threads until throughput saturates)", name)
		case len(values) > 1:
			return sweepDim{}, fmt.Errorf("--vary threadcount=%s: auto stands alone: --vary threadcount=auto", list)
		}
		return sweepDim{name: name, auto: true}, nil
	}
	return sweepDim{name: name, values: values}, nil
}

func parseFraction(flagName, value, example string) (float64, error) {
	f, err := workload.ParseFloat(value, 0, maxKneeFraction)
	if err != nil || f == 0 {
		return 0, fmt.Errorf("--%s %q is invalid: expected a fraction > 0 and at most %d, such as %s", flagName, value, maxKneeFraction, example)
	}
	return f, nil
}

// maxKneeFraction bounds the knee's thresholds: a million-fold change is
// past anything a knee could mean, yet the way to ask for no knee at all.
const maxKneeFraction = 1_000_000

// parseAlpha reads --alpha, a significance level strictly between 0 and 1.
func parseAlpha(v string) (float64, error) {
	f, err := workload.ParseFloat(v, 0, 1)
	if err != nil || f == 0 || f == 1 {
		return 0, fmt.Errorf("--alpha %q is invalid: expected a significance level between 0 and 1, such as 0.05", v)
	}
	return f, nil
}

// sweepPoint is one point of the sweep: a value for each varied property.
type sweepPoint struct {
	index  int // 1-based, in running order
	values map[string]string
	label  string
	cfg    *benchConfig // the point's resolved configuration
}

// trialRun is one finished (or stopped) run of a point.
type trialRun struct {
	trial   int
	warmup  bool
	res     *results.Results
	figures analysis.Figures
	id      int64 // store run id; 0 when not stored
}

// counts reports whether the run counts in its point's means and knee:
// not a warm-up, not cut short.
func (t trialRun) counts() bool { return !t.warmup && t.res != nil && !t.res.Partial }

// sweeper runs one sweep.
type sweeper struct {
	o          *sweepOptions
	env        Env
	stderr     io.Writer // env.Stderr without repeated warnings
	id         string
	dir        string
	varied     []string // dims in command-line order
	x          string   // the knee's dimension
	ops        []string // operation columns of the table
	kind       analysis.LatencyKind
	table      *sweepTable
	st         *store.Store
	server     *embedded.Server
	sig        *sweepSignals
	clients    map[string]*mongo.Client
	loaded     map[string]string // location → key of the data the sweep loaded there
	checked    map[string]bool   // locations whose data was looked at
	dataDim    bool              // a varied property shapes the data
	needServer bool              // a point has no URL: the embedded server serves it
	planned    int               // points known up front; 0 with auto
	points     int
	ids        []int64
	unsaved    int // runs the store refused
	// shown names the varied values that carry a secret; see secretNames.
	shown map[string]map[string]string
}

// secretNames gives the values of a --vary that carry a secret (a URL with
// a password) the names url1, url2, ... (value1, ... for other properties),
// in the order given. A point's values name it in progress lines, the
// table, results files, the store and file names; the redacted URLs could
// not stand in, as two URLs that differ only in their passwords would
// name two points alike.
func secretNames(dims []sweepDim) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, d := range dims {
		if !slices.ContainsFunc(d.values, redact.Changed) {
			continue
		}
		prefix := "value"
		if d.name == "mongodb.url" {
			prefix = "url"
		}
		names := make(map[string]string, len(d.values))
		for i, v := range d.values {
			names[v] = fmt.Sprintf("%s%d", prefix, i+1)
		}
		out[d.name] = names
	}
	return out
}

// show returns a point's values as they may be shown and written: those
// that carry a secret replaced by their names.
func (s *sweeper) show(values map[string]string) map[string]string {
	if len(s.shown) == 0 {
		return values
	}
	out := make(map[string]string, len(values))
	for k, v := range values {
		if name, ok := s.shown[k][v]; ok {
			v = name
		}
		out[k] = v
	}
	return out
}

// runSweep is "mongobench sweep".
func runSweep(ctx context.Context, args []string, env Env) error {
	o, err := parseSweepArgs(args)
	if err != nil {
		return err
	}
	o.store.fromEnv(env)
	if o.help {
		fmt.Fprintln(env.Stdout, sweepHelp())
		return nil
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	if env.said == nil {
		env.said = new(saidOnce)
	}
	s := &sweeper{o: o, env: env, stderr: newWarnOnce(env.Stderr), clients: map[string]*mongo.Client{},
		loaded: map[string]string{}, checked: map[string]bool{}}
	for _, d := range o.dims {
		s.varied = append(s.varied, d.name)
		s.dataDim = s.dataDim || slices.Contains(dataProperties, d.name)
	}
	s.x = analysis.XDim(s.varied)
	s.shown = secretNames(o.dims)
	series, err := s.plan()
	if err != nil {
		return err
	}
	if err := s.start(ctx); err != nil {
		return err
	}
	defer s.close()
	runErr := s.run(ctx, series)
	s.finish()
	if errors.Is(runErr, errSweepStopped) {
		code := s.sig.stopped()
		if code == 0 {
			code = ExitSIGINT
		}
		return exitError{code, errors.New("interrupted: the sweep stopped; the table and the results files cover what ran, a run cut short is marked partial")}
	}
	if runErr == nil && s.unsaved > 0 {
		// The sweep went on without the store; it still failed at that.
		return fmt.Errorf("the sweep ran, but %s could not be saved in the results store (above); the results files in %s keep every run", plural(s.unsaved, "run"), s.dir)
	}
	return runErr
}

// seriesPlan is the points of one series: the values of every varied
// property but the fastest are fixed in a series.
type seriesPlan struct {
	fixed  map[string]string
	label  string
	points []*sweepPoint // nil for an automatic series
}

// plan lists the series and points, in running order, and resolves every
// point's configuration, so that a wrong value fails before anything runs.
func (s *sweeper) plan() ([]*seriesPlan, error) {
	var outer []sweepDim
	var inner *sweepDim
	for i := range s.o.dims {
		if s.o.dims[i].name == s.x {
			inner = &s.o.dims[i]
		} else {
			outer = append(outer, s.o.dims[i])
		}
	}
	combos := []map[string]string{{}}
	for _, d := range outer {
		var next []map[string]string
		for _, c := range combos {
			for _, v := range d.values {
				m := map[string]string{d.name: v}
				for k, cv := range c {
					m[k] = cv
				}
				next = append(next, m)
			}
		}
		combos = next
	}
	var (
		series []*seriesPlan
		cfgs   []*benchConfig
		quiet  = Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: s.env.Getenv}
		first  = true
	)
	resolve := func(values map[string]string) (*sweepPoint, error) {
		p := &sweepPoint{values: values, label: s.pointLabel(values)}
		env := quiet
		if first {
			env, first = s.env, false
		}
		cfg, err := resolveBench(s.o.command, s.pointArgs(values), env)
		if err != nil {
			if p.label == "" {
				return nil, fmt.Errorf("sweep: %w", err)
			}
			return nil, fmt.Errorf("sweep point %s: %w", p.label, err)
		}
		p.cfg = cfg
		cfgs = append(cfgs, cfg)
		return p, nil
	}
	n := 0
	for _, c := range combos {
		sp := &seriesPlan{fixed: c, label: s.pointLabel(c)}
		switch {
		case inner == nil:
			p, err := resolve(c)
			if err != nil {
				return nil, err
			}
			sp.points = append(sp.points, p)
		case inner.auto:
			// Later points differ only in threads, which cannot make a
			// valid configuration invalid below --max-threads.
			values := withValue(c, inner.name, "1")
			if _, err := resolve(values); err != nil {
				return nil, err
			}
		default:
			for _, v := range inner.values {
				p, err := resolve(withValue(c, inner.name, v))
				if err != nil {
					return nil, err
				}
				sp.points = append(sp.points, p)
			}
		}
		n += len(sp.points)
		series = append(series, sp)
	}
	if inner == nil || !inner.auto {
		s.planned = n
	}
	s.kind = analysis.IntendedLatency
	for _, cfg := range cfgs {
		s.ops = s.addOps(s.ops, cfg.Spec)
		if !cfg.Spec.RecordIntended() {
			s.kind = analysis.ServiceLatency
		}
		s.needServer = s.needServer || cfg.URL == ""
	}
	analysis.SortOpNames(s.ops)
	return series, nil
}

func withValue(m map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for mk, mv := range m {
		out[mk] = mv
	}
	out[k] = v
	return out
}

// pointLabel names a point by its values in command-line order.
func (s *sweeper) pointLabel(values map[string]string) string {
	m := results.SweepMark{Varied: s.varied, Point: s.show(values)}
	return m.Label()
}

// pointArgs is the load/run command line of a point: the sweep's own, with
// the point's values last so that they win.
func (s *sweeper) pointArgs(values map[string]string) []string {
	args := slices.Clone(s.o.bench)
	for _, name := range s.varied {
		if v, ok := values[name]; ok {
			args = append(args, "-p", name+"="+v)
		}
	}
	return args
}

// addOps adds the operations a point's workload issues to the table's
// columns, which are known before anything runs so that rows print as
// they come.
func (s *sweeper) addOps(ops []string, spec *workload.Spec) []string {
	if s.o.command == "load" {
		if !slices.Contains(ops, "INSERT") {
			ops = append(ops, "INSERT")
		}
		return ops
	}
	names := [...]string{
		workload.TxRead: "READ", workload.TxUpdate: "UPDATE", workload.TxInsert: "INSERT",
		workload.TxScan: "SCAN", workload.TxReadModifyWrite: "READ-MODIFY-WRITE", workload.TxDelete: "DELETE",
	}
	for tx, p := range spec.Proportions {
		if p > 0 && !slices.Contains(ops, names[tx]) {
			ops = append(ops, names[tx])
		}
	}
	return ops
}

// start prepares the output directory, the store and, when a point has no
// URL, the embedded server.
func (s *sweeper) start(ctx context.Context) error {
	s.id = time.Now().UTC().Format("20060102-150405")
	if !s.o.store.disabled {
		if err := checkStorePath(storePath(s.o.store.path)); err != nil {
			return err
		}
		st, err := openStore(s.o.store.path)
		if err != nil {
			return err
		}
		s.st = st
	}
	dir, err := s.makeDir(ctx)
	if err != nil {
		s.close()
		return err
	}
	s.dir = dir
	if s.needServer {
		a := s.o.benchArgs
		if err := checkDataDir(a.dataDir); err != nil {
			s.close()
			return err
		}
		srv, err := embedded.Start(ctx, embedded.Options{DataDir: a.dataDir})
		if err != nil {
			s.close()
			return fmt.Errorf("cannot start the embedded server: %w", err)
		}
		s.server = srv
		fmt.Fprintf(s.env.Stderr, "mongobench: no mongodb.url given: started the embedded server (FerretDB, SQLite) at %s for the whole sweep, data in %s\n", srv.URI(), srv.DataDir())
	}
	s.sig = watchSweepSignals(s.env.Interrupt)
	s.table = newSweepTable(s)
	return nil
}

// makeDir creates the output directory. The default name carries the
// sweep id, made unique against earlier directories and stored sweeps; a
// directory the user names must not hold results already, which the
// sweep's would be mixed with.
func (s *sweeper) makeDir(ctx context.Context) (string, error) {
	base := s.id
	for n := 2; ; n++ {
		taken := false
		if s.o.outDir == "" {
			_, err := os.Stat("sweep-" + s.id)
			taken = err == nil
		}
		if !taken && s.st != nil {
			runs, err := s.st.List(ctx, store.Filter{SweepID: s.id, Limit: 1})
			if err != nil {
				return "", err
			}
			taken = len(runs) > 0
		}
		if !taken {
			break
		}
		s.id = fmt.Sprintf("%s-%d", base, n)
	}
	dir := s.o.outDir
	if dir == "" {
		dir = "sweep-" + s.id
	}
	if err := outfile.CheckDir(dir); err != nil {
		flag := "--out-dir"
		if s.o.outDir == "" {
			flag = "the default --out-dir"
		}
		return "", badInputf("sweep: %s %s: %v: expected a directory mongobench may create files in (it is created if missing)", flag, dir, err)
	}
	if entries, err := os.ReadDir(dir); err == nil && s.o.outDir != "" {
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json") {
				return "", badInputf("sweep: --out-dir %s already holds results files (%s): name a new directory", dir, e.Name())
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("sweep: cannot create the output directory: %w", err)
	}
	return dir, nil
}

func (s *sweeper) close() {
	for _, c := range s.clients {
		_ = c.Close(context.Background())
	}
	s.clients = nil
	if s.server != nil {
		_ = s.server.Close()
		s.server = nil
	}
	if s.st != nil {
		_ = s.st.Close()
		s.st = nil
	}
	if s.sig != nil {
		s.sig.close()
	}
}

// errSweepStopped ends the sweep's loop when a signal asked it to stop.
var errSweepStopped = errors.New("sweep stopped")

// run runs every series, printing rows as runs finish, and the knee of
// each series at the end (also when stopped early).
func (s *sweeper) run(ctx context.Context, series []*seriesPlan) error {
	what := plural(s.planned, "point")
	if s.planned == 0 {
		what = "threadcount=auto"
	}
	trials := s.o.repeat
	if s.o.discardFirst {
		trials++
	}
	if w := s.noReloadWarning(); w != "" {
		fmt.Fprintln(s.env.Stderr, w)
	}
	fmt.Fprintf(s.env.Stderr, "mongobench: sweep %s: %s × %s; results files in %s\n", s.id, what, plural(trials, "trial"), s.dir)
	if s.kind == analysis.IntendedLatency {
		fmt.Fprintf(s.env.Stderr, "mongobench: sweep %s: the table's latencies are %s\n", s.id, s.kind)
	}
	for _, d := range s.o.dims {
		for _, v := range d.values {
			if name, ok := s.shown[d.name][v]; ok {
				fmt.Fprintf(s.env.Stderr, "mongobench: sweep %s: %s=%s is %s\n", s.id, d.name, name, redact.URL(v))
			}
		}
	}
	s.table.header()
	var knees []string
	var runErr error
	for _, sp := range series {
		var done []pointResult
		if sp.points == nil {
			done, runErr = s.runAuto(ctx, sp)
		} else {
			for _, p := range sp.points {
				var pr pointResult
				pr, runErr = s.runPoint(ctx, p)
				if len(pr.trials) > 0 {
					done = append(done, pr)
				}
				if runErr != nil {
					break
				}
			}
		}
		if k := s.knee(sp, done); k != "" {
			knees = append(knees, k)
		}
		if runErr != nil {
			break
		}
	}
	switch {
	case len(knees) > 0 && s.o.format == csvFormat:
		// Stdout is the table alone, for a spreadsheet to read.
		for _, k := range knees {
			fmt.Fprintf(s.env.Stderr, "mongobench: sweep %s: %s\n", s.id, k)
		}
	case len(knees) > 0:
		fmt.Fprintln(s.env.Stdout)
		for _, k := range knees {
			fmt.Fprintln(s.env.Stdout, k)
		}
	}
	return runErr
}

// noReloadWarning says, when --no-reload keeps a run sweep from loading
// the data its varied properties shape, that every point runs on the data
// loaded for the first: the user asked for it (to keep a large data set
// between points, say), but the table would otherwise look like a series
// over data sizes it never measured. "" when nothing needs saying.
func (s *sweeper) noReloadWarning() string {
	if s.o.command != "run" || s.o.reload == nil || *s.o.reload {
		return ""
	}
	// table and mongodb.url pick where the data lives, and --no-reload
	// still loads each empty collection once: they get data of their own.
	perLocation := false
	var names, first []string
	for _, d := range s.o.dims {
		switch {
		case d.name == "table" || d.name == "mongodb.url":
			perLocation = perLocation || len(d.values) > 1
		case slices.Contains(dataProperties, d.name) && len(d.values) > 1:
			// The first point to run takes every property's first value.
			names = append(names, d.name)
			first = append(first, d.name+"="+d.values[0])
		}
	}
	if len(names) == 0 {
		return ""
	}
	which := "the first point"
	if perLocation {
		which = "the first point on its collection"
	}
	return fmt.Sprintf("mongobench: warning: --no-reload with --vary %s: every point runs on the data loaded for %s (%s)",
		strings.Join(names, ", "), which, strings.Join(first, " "))
}

// pointResult is a point with its runs.
type pointResult struct {
	point  *sweepPoint
	trials []trialRun
}

// counts reports whether any of the point's trials counts toward its
// figures.
func (pr pointResult) counts() bool {
	return slices.ContainsFunc(pr.trials, func(t trialRun) bool { return t.counts() })
}

// countedFigures are the figures of the point's trials that count.
func (pr pointResult) countedFigures() []analysis.Figures {
	var fs []analysis.Figures
	for _, t := range pr.trials {
		if t.counts() {
			fs = append(fs, t.figures)
		}
	}
	return fs
}

// kneePoint is the point at x as knee detection takes it, from the trials
// that count; ok is false when none does.
func (pr pointResult) kneePoint(x float64) (p stats.Point, ok bool) {
	fs := pr.countedFigures()
	if len(fs) == 0 {
		return stats.Point{X: x}, false
	}
	return analysis.Summarize(fs).KneePoint(x), true
}

// runAuto runs an automatic thread series: the threads double until
// stats.NextAutoStep sees the knee confirmed or reaches --max-threads.
func (s *sweeper) runAuto(ctx context.Context, sp *seriesPlan) ([]pointResult, error) {
	var done []pointResult
	for {
		var pts []stats.Point
		for _, pr := range done {
			x, _ := strconv.ParseFloat(pr.point.values[s.x], 64)
			p, _ := pr.kneePoint(x)
			pts = append(pts, p)
		}
		next, stop := stats.NextAutoStep(pts, s.o.knee)
		if stop {
			return done, nil
		}
		values := withValue(sp.fixed, s.x, strconv.FormatFloat(next, 'f', -1, 64))
		p := &sweepPoint{values: values, label: s.pointLabel(values)}
		cfg, err := resolveBench(s.o.command, s.pointArgs(values), Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: s.env.Getenv})
		if err != nil {
			return done, fmt.Errorf("sweep point %s: %w", p.label, err)
		}
		p.cfg = cfg
		pr, err := s.runPoint(ctx, p)
		if len(pr.trials) > 0 {
			done = append(done, pr)
		}
		if err != nil {
			return done, err
		}
		if !pr.counts() {
			return done, nil
		}
	}
}

// runPoint prepares the data for a point and runs its trials.
func (s *sweeper) runPoint(ctx context.Context, p *sweepPoint) (pointResult, error) {
	s.points++
	p.index = s.points
	pr := pointResult{point: p}
	url := p.cfg.URL
	if url == "" {
		url = s.server.URI()
	}
	total := s.o.repeat
	if s.o.discardFirst {
		total++
	}
	for trial := 1; trial <= total; trial++ {
		if s.sig.stopped() != 0 {
			return pr, errSweepStopped
		}
		// Before every trial: --reload loads each one afresh, so that the
		// trials of a point measure the same thing; otherwise only the
		// first trial of a point may need a load.
		if s.o.command == "run" {
			if err := s.sig.step(ctx, func(ctx context.Context) error { return s.prepareData(ctx, p, url, trial, total) }); err != nil {
				return pr, err
			}
		}
		warm := s.o.discardFirst && trial == 1
		s.progress(p, trial, total, warm)
		if s.o.command == "load" {
			if err := s.sig.step(ctx, func(ctx context.Context) error { return s.dropTable(ctx, p, url) }); err != nil {
				return pr, err
			}
		}
		t, err := s.runTrial(ctx, p, url, trial, warm)
		if t.res != nil {
			pr.trials = append(pr.trials, t)
			s.table.trialRow(p, t, trialNote(t, err))
		}
		if err != nil {
			return pr, err
		}
	}
	s.table.meanRow(p, pr.trials)
	return pr, nil
}

func (s *sweeper) progress(p *sweepPoint, trial, total int, warm bool) {
	where := fmt.Sprintf("point %d", p.index)
	if s.planned > 0 {
		where += fmt.Sprintf("/%d", s.planned)
	}
	if p.label != "" {
		where += " (" + p.label + ")"
	}
	what := fmt.Sprintf("trial %d/%d", trial, total)
	if warm {
		what += " (warm-up)"
	}
	fmt.Fprintf(s.env.Stderr, "mongobench: sweep %s: %s, %s starts\n", s.id, where, what)
}

// runTrial runs one trial of a point through the load/run code, in
// process, then marks its results with their place in the sweep and
// saves them.
func (s *sweeper) runTrial(ctx context.Context, p *sweepPoint, url string, trial int, warm bool) (trialRun, error) {
	t := trialRun{trial: trial, warmup: warm}
	name := fmt.Sprintf("p%02d", p.index)
	if p.label != "" {
		name += "-" + fileSafe(p.label)
	}
	name += fmt.Sprintf("-t%d", trial)
	file := filepath.Join(s.dir, name+".json")
	args := s.pointArgs(p.values)
	if p.cfg.URL == "" {
		args = append(args, "-p", "mongodb.url="+url)
	}
	if p.cfg.Spec.HdrFileOutput {
		args = append(args, "-p", "hdrhistogram.output.path="+filepath.Join(s.dir, name+"-"))
	}
	// The trial's summary stays in memory: an exportfile of the sweep's
	// properties would be overwritten by every trial.
	args = append(args, "-p", "exportfile=", "--out", file)
	var stdout bytes.Buffer
	runEnv := Env{Stdout: &stdout, Stderr: s.stderr, Getenv: s.env.Getenv, Interrupt: s.sig.next(), StderrIsTerminal: s.env.StderrIsTerminal, said: s.env.said}
	var run callerRun
	err := runBench(withCallerSaves(ctx, &run), s.o.command, args, runEnv)
	if run.res == nil {
		if err == nil {
			err = errors.New("the run gave no results")
		}
		return t, s.trialError(p, trial, err)
	}
	// The run is kept (marked, saved, in the table) even when its results
	// file could not be written; it is read as any reader of that file
	// reads it, extra sections as decoded JSON.
	res, rerr := asRead(run.res)
	if rerr != nil {
		return t, s.trialError(p, trial, rerr)
	}
	mark := &results.SweepMark{ID: s.id, Varied: s.varied, Point: s.show(p.values), Trial: trial, Warmup: warm}
	if res.Extra == nil {
		res.Extra = &results.Extra{}
	}
	res.Extra.Sweep = mark
	if werr := writeResults(file, res); werr != nil && err == nil {
		err = werr
	}
	t.res = res
	t.figures = analysis.FiguresOf(res, s.kind)
	if s.st != nil {
		id, serr := saveRun(ctx, s.st, res, store.SaveOptions{SweepID: s.id, Point: s.show(p.values), Trial: trial})
		if serr != nil {
			if s.unsaved == 0 {
				fmt.Fprintf(s.env.Stderr, "mongobench: warning: %v; the results files in %s keep every run\n", serr, s.dir)
			}
			s.unsaved++
		}
		if serr == nil {
			t.id = id
			s.ids = append(s.ids, id)
		}
	}
	return t, s.trialError(p, trial, err)
}

// trialNote is the note column of a trial's row in the sweep's table.
func trialNote(t trialRun, err error) string {
	switch {
	case t.warmup:
		return "warm-up: not in the mean"
	case t.res.Partial:
		return "partial: interrupted"
	case err != nil:
		return "failed"
	case t.res.Extra != nil && t.res.Extra.Client != nil && t.res.Extra.Client.Bound:
		// The run's warning is on stderr above; the table keeps it beside
		// the figures it discredits.
		return "client-bound"
	}
	return ""
}

// trialError says which run an error belongs to; an interrupt becomes the
// sweep's stop.
func (s *sweeper) trialError(p *sweepPoint, trial int, err error) error {
	if err == nil {
		return nil
	}
	var ee exitError
	if errors.As(err, &ee) && (ee.code == ExitSIGINT || ee.code == ExitSIGTERM) {
		return errSweepStopped
	}
	if p.label == "" {
		return fmt.Errorf("sweep trial %d: %w", trial, err)
	}
	return fmt.Errorf("sweep point %s, trial %d: %w", p.label, trial, err)
}

// asRead returns res as it reads back from its results file.
func asRead(res *results.Results) (*results.Results, error) {
	var b bytes.Buffer
	if err := results.WriteJSON(&b, res); err != nil {
		return nil, err
	}
	return results.ReadJSON(&b)
}

// fileSafe turns a point's label into part of a file name.
func fileSafe(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '=' || c == '-'
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) > 80 {
		b = b[:80]
	}
	return string(b)
}

// client returns a connection to a point's server, for counting and
// dropping its collection (the benchmark runs open their own).
func (s *sweeper) client(ctx context.Context, p *sweepPoint, url string) (*mongo.Client, error) {
	if c, ok := s.clients[url]; ok {
		return c, nil
	}
	c, err := mongo.Open(ctx, mongo.Config{URL: url, Database: mongo.DatabaseFromURL(url), Threads: 1, ConnectTimeout: p.cfg.Connect, OpTimeout: p.cfg.Spec.OpTimeout})
	if err != nil {
		return nil, err
	}
	s.clients[url] = c
	return c, nil
}

// dataKey identifies the data a point needs: where it lives and every
// property that shapes it.
func dataKey(spec *workload.Spec, url string, shard bench.Shard) string {
	return fmt.Sprintf("%s|%s|%s|%d|%d|%d|%d|%d|%d|%d|%s|%s|%s|%t|%d|%t", url, spec.Table, shard.Key, shard.InitialChunks, spec.RecordCount, spec.InsertStart, spec.InsertCount,
		spec.FieldCount, spec.FieldLength, spec.MinFieldLength, spec.FieldLengthDistribution, spec.FieldLengthHistogram,
		spec.FieldNamePrefix, spec.OrderedInserts, spec.ZeroPadding, spec.DataIntegrity)
}

// prepareData loads the data a run trial needs: before every trial with
// --reload, since a run's inserts, updates and deletes would otherwise be
// what the next trial runs on; when the data a point needs differs from
// what the sweep loaded, if a varied property shapes the data; else only
// into an empty collection.
func (s *sweeper) prepareData(ctx context.Context, p *sweepPoint, url string, trial, total int) error {
	spec := p.cfg.Spec
	loc := url + "|" + spec.Table
	key := dataKey(spec, url, p.cfg.Shard)
	reload := s.dataDim
	if s.o.reload != nil {
		reload = *s.o.reload
	}
	switch {
	case reload && s.o.reload != nil:
		// --reload: every run starts from fresh data.
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

// dropTable empties a load point's collection, so that its load inserts
// into nothing, as every trial of it must.
func (s *sweeper) dropTable(ctx context.Context, p *sweepPoint, url string) error {
	c, err := s.client(ctx, p, url)
	if err != nil {
		return err
	}
	if err := c.Drop(ctx, p.cfg.Spec.Table); err != nil {
		return fmt.Errorf("cannot drop %s.%s before the load: %w", mongo.DatabaseFromURL(url), p.cfg.Spec.Table, err)
	}
	return nil
}

// load drops the point's collection and loads it with the point's
// workload, unthrottled and in batches: the load prepares the measured
// runs and is not one of them. trial of total is the trial it prepares.
func (s *sweeper) load(ctx context.Context, p *sweepPoint, url string, trial, total int) error {
	if s.sig.stopped() != 0 {
		return errSweepStopped
	}
	spec := p.cfg.Spec
	dbName := mongo.DatabaseFromURL(url)
	if err := s.dropTable(ctx, p, url); err != nil {
		return err
	}
	what := "the sweep"
	everyRun := s.o.reload != nil && *s.o.reload
	if s.dataDim || everyRun {
		what = orText(p.label, what)
	}
	if everyRun && total > 1 {
		// One load per trial: the line says which, as the trial's own
		// line after it does.
		if p.label == "" {
			what = fmt.Sprintf("trial %d/%d", trial, total)
		} else {
			what += fmt.Sprintf(", trial %d/%d", trial, total)
		}
	}
	fmt.Fprintf(s.env.Stderr, "mongobench: sweep %s: loading %d records into %s.%s for %s\n", s.id, spec.InsertCount, dbName, spec.Table, what)
	args := s.pointArgs(p.values)
	if p.cfg.URL == "" {
		args = append(args, "-p", "mongodb.url="+url)
	}
	args = append(args, "-p", "target=0", "-p", "maxexecutiontime=0", "-p", "warmuptime=0", "-p", "hdrhistogram.fileoutput=false", "-p", "exportfile=")
	_, batch := p.cfg.Props.Get("batchsize")
	_, mbatch := p.cfg.Props.Get("mongodb.batchsize")
	if !batch && !mbatch {
		args = append(args, "-p", "batchsize=100")
	}
	var stderr bytes.Buffer
	start := time.Now()
	err := runBench(withCallerSaves(ctx, nil), "load", args, Env{Stdout: io.Discard, Stderr: &stderr, Getenv: s.env.Getenv, Interrupt: s.sig.next(), said: s.env.said})
	if err != nil {
		var ee exitError
		if errors.As(err, &ee) && (ee.code == ExitSIGINT || ee.code == ExitSIGTERM) {
			return errSweepStopped
		}
		_, _ = s.env.Stderr.Write(stderr.Bytes())
		return fmt.Errorf("sweep: loading the data for %s: %w", what, err)
	}
	if s.server != nil {
		if err := s.server.EnsureIDIndexes(ctx); err != nil {
			fmt.Fprintf(s.env.Stderr, "mongobench: warning: embedded server: %v\n", err)
		}
	}
	el := time.Since(start).Seconds()
	fmt.Fprintf(s.env.Stderr, "mongobench: sweep %s: loaded %d records in %.1f s\n", s.id, spec.InsertCount, el)
	return nil
}

// knee states the knee of one series over its finished points, or why
// there is none; "" when the sweep varies nothing to find one along.
func (s *sweeper) knee(sp *seriesPlan, done []pointResult) string {
	if s.x == "" {
		return ""
	}
	prefix := ""
	if sp.label != "" {
		prefix = sp.label + ": "
	}
	var pts []stats.Point
	for _, pr := range done {
		x, err := strconv.ParseFloat(pr.point.values[s.x], 64)
		p, ok := pr.kneePoint(x)
		if err != nil || !ok {
			continue
		}
		pts = append(pts, p)
	}
	return prefix + analysis.KneeOf(s.x, pts, s.o.knee).Text
}

// finish says where everything went.
func (s *sweeper) finish() {
	runs := s.table.rows
	where := "results files in " + s.dir
	if len(s.ids) > 0 {
		where += ", " + idList(s.ids) + " in " + s.st.Path()
	}
	fmt.Fprintf(s.env.Stderr, "mongobench: sweep %s: %s; %s\n", s.id, plural(runs, "run"), where)
	if runs > 0 {
		ref := s.dir
		if len(s.ids) > 0 {
			ref = store.SweepPrefix + s.id
		}
		fmt.Fprintf(s.env.Stderr, "mongobench: mongobench report %s -o report.html makes its report\n", ref)
	}
}

// sweepTable prints the sweep's table a row at a time, so its columns are
// sized up front from the headers and the planned values.
type sweepTable struct {
	w      io.Writer
	s      *sweeper
	head   []string
	widths []int
	rows   int
}

func newSweepTable(s *sweeper) *sweepTable {
	t := &sweepTable{w: s.env.Stdout, s: s}
	for _, d := range s.o.dims {
		name := d.name
		if name == "threadcount" {
			name = "threads"
		}
		width := len(name)
		for _, v := range d.values {
			if shown, ok := s.shown[d.name][v]; ok {
				v = shown
			}
			width = max(width, len(v))
		}
		if d.auto {
			width = max(width, 4)
		}
		t.head = append(t.head, name)
		t.widths = append(t.widths, width)
	}
	t.add("trial", 5)
	t.add("runtime(s)", 10)
	t.add("throughput(ops/s)", 10)
	for _, op := range s.ops {
		t.add(op+" ops", 9)
		t.add(op+" avg(us)", 10)
		t.add(op+" p99(us)", 10)
	}
	t.add(analysis.NotOKFigure, 6)
	t.add("note", 0)
	return t
}

func (t *sweepTable) add(head string, width int) {
	t.head = append(t.head, head)
	t.widths = append(t.widths, max(width, len(head)))
}

func (t *sweepTable) header() {
	switch t.s.o.format {
	case csvFormat, markdownFormat:
		left := map[int]bool{len(t.head) - 1: true}
		for i := range t.s.o.dims {
			left[i] = true
		}
		writeTableAs(t.w, t.s.o.format, t.head, nil, left)
	default:
		fmt.Fprintln(t.w, formatRow(t.head, t.widths, map[int]bool{len(t.head) - 1: true}))
	}
}

func (t *sweepTable) print(cells []string) {
	switch t.s.o.format {
	case csvFormat:
		cw := csv.NewWriter(t.w)
		_ = cw.Write(cells)
		cw.Flush()
	case markdownFormat:
		fmt.Fprintln(t.w, markdownRow(cells))
	default:
		fmt.Fprintln(t.w, formatRow(cells, t.widths, map[int]bool{len(cells) - 1: true}))
	}
}

func (t *sweepTable) pointCells(p *sweepPoint) []string {
	cells := make([]string, 0, len(t.head))
	shown := t.s.show(p.values)
	for _, d := range t.s.o.dims {
		cells = append(cells, shown[d.name])
	}
	return cells
}

func (t *sweepTable) trialRow(p *sweepPoint, tr trialRun, note string) {
	t.rows++
	f := tr.figures
	cells := append(t.pointCells(p), strconv.Itoa(tr.trial), strconv.FormatFloat(f.RuntimeS, 'f', 2, 64), formatFigure(f.Throughput, "ops/s"))
	for _, op := range t.s.ops {
		o := f.Ops[op]
		if o == nil || !o.HasLatency {
			cells = append(cells, "0", "–", "–")
			continue
		}
		cells = append(cells, strconv.FormatInt(o.Count, 10), formatFigure(o.Avg, "us"), formatFigure(o.Pct["99"], "us"))
	}
	cells = append(cells, strconv.FormatInt(f.NotOK, 10), note)
	t.print(cells)
}

// meanRow prints the means of a point's counted trials with their 95%
// confidence intervals, when there are at least two.
func (t *sweepTable) meanRow(p *sweepPoint, trials []trialRun) {
	fs := pointResult{trials: trials}.countedFigures()
	if len(fs) < 2 {
		return
	}
	pf := analysis.Summarize(fs)
	cells := append(t.pointCells(p), "mean", estimateText(pf.Runtime, "s"), estimateText(pf.Throughput, "ops/s"))
	for _, op := range t.s.ops {
		o := pf.Op(op)
		cells = append(cells, estimateText(o.Count, ""), estimateText(o.Avg, "us"), estimateText(o.P99, "us"))
	}
	cells = append(cells, estimateText(pf.NotOK, ""), fmt.Sprintf("mean of %d trials, ± 95%% CI", len(fs)))
	t.print(cells)
}

// sweepSignals hands the sweep's first signal to the run in progress, and
// remembers it so that no further run starts.
type sweepSignals struct {
	mu   sync.Mutex
	code int
	cur  chan int
	stop chan struct{} // closed by the signal
	done chan struct{}
	once sync.Once
}

func watchSweepSignals(in <-chan int) *sweepSignals {
	s := &sweepSignals{stop: make(chan struct{}), done: make(chan struct{})}
	if in == nil {
		return s
	}
	go func() {
		select {
		case code := <-in:
			s.mu.Lock()
			defer s.mu.Unlock()
			s.code = code
			close(s.stop)
			if s.cur != nil {
				select {
				case s.cur <- code:
				default:
				}
			}
		case <-s.done:
		}
	}()
	return s
}

// next returns the interrupt channel for the next run; it already holds
// the signal if one came.
func (s *sweepSignals) next() <-chan int {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := make(chan int, 1)
	if s.code != 0 {
		c <- s.code
	}
	s.cur = c
	return c
}

// stopped returns the exit code the signal asks for, or 0.
func (s *sweepSignals) stopped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.code
}

func (s *sweepSignals) close() { s.once.Do(func() { close(s.done) }) }

// context returns ctx, cancelled by the signal: for the sweep's own steps
// between runs (connecting, counting, dropping), which would otherwise
// wait out their timeouts on a server that does not answer.
func (s *sweepSignals) context(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-s.stop:
			cancel()
		case <-c.Done():
		}
	}()
	return c, cancel
}

// step runs one of the sweep's own steps under a context the signal
// cancels; a step cut short by the signal stops the sweep, as a signal
// between runs does.
func (s *sweepSignals) step(ctx context.Context, f func(context.Context) error) error {
	c, cancel := s.context(ctx)
	defer cancel()
	err := f(c)
	if err != nil && s.stopped() != 0 {
		return errSweepStopped
	}
	return err
}

// warnOnce passes lines through to w, except warnings already passed: each
// run of a sweep would repeat the same ones.
type warnOnce struct {
	mu   sync.Mutex
	w    io.Writer
	seen map[string]bool
	buf  []byte
}

func newWarnOnce(w io.Writer) *warnOnce { return &warnOnce{w: w, seen: map[string]bool{}} }

func (d *warnOnce) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.buf = append(d.buf, p...)
	for {
		i := bytes.IndexByte(d.buf, '\n')
		if i < 0 {
			break
		}
		line := string(d.buf[:i+1])
		d.buf = d.buf[i+1:]
		if strings.HasPrefix(line, "mongobench: warning: ") {
			if d.seen[line] {
				continue
			}
			d.seen[line] = true
		}
		if _, err := io.WriteString(d.w, line); err != nil {
			return len(p), err
		}
	}
	return len(p), nil
}
