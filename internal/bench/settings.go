package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/tpcc"
	"github.com/mongobench/mongobench/internal/workload"
)

// InputError marks an error in what the user gave (a property, a name, a
// URL), as opposed to a failure of the server or the machine: callers
// report it as bad input.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

func inputErrorf(format string, args ...any) error {
	return InputError{fmt.Errorf(format, args...)}
}

// MaxConnectTimeout bounds mongodb.connecttimeout: a day is far past any
// real start-up, and the timeout is added to other deadlines.
const MaxConnectTimeout = 24 * time.Hour

// Settings is one phase's configuration resolved from its properties:
// what Prepare needs besides what the caller decides (data directory,
// --drop, signals).
type Settings struct {
	Command   string // load | run
	Props     *workload.Properties
	Spec      *workload.Spec
	URL       string // with deprecated options applied; may hold a password; "" for the embedded server
	BatchSize int
	Upsert    bool
	Path      string        // mongodb.path: the wire path of the hot operations
	Connect   time.Duration // mongodb.connecttimeout
	Shard     Shard         // mongodb.shardkey: the collection's shard key, set up or checked
	// TPCC, when set (workload=tpcc), is the TPC-C run the phase runs
	// instead of YCSB's CoreWorkload.
	TPCC *tpcc.PhaseSettings
}

// ResolveSpec resolves the workload of a load or run phase from props,
// with the percentiles every summary reports added. The warnings are
// returned with the spec; the error is an InputError.
func ResolveSpec(command string, props *workload.Properties) (*workload.Spec, []string, error) {
	spec, ws, err := workload.Resolve(props, command == "run")
	warnings := make([]string, len(ws))
	for i, w := range ws {
		warnings[i] = string(w)
	}
	if err != nil {
		return nil, warnings, InputError{err}
	}
	for _, extra := range []float64{99.9, 99.99} {
		if !slices.Contains(spec.Percentiles, extra) {
			spec.Percentiles = append(spec.Percentiles, extra)
		}
	}
	slices.Sort(spec.Percentiles)
	return spec, warnings, nil
}

// The defaults of the client's side, from the one table of properties.
var (
	defaultBatchSize = int(mustParse(workload.ParseInt(workload.DefaultOf("batchsize"), 1, 100000)))
	defaultConnect   = mustParse(workload.ParseSeconds(workload.DefaultOf("mongodb.connecttimeout"), 0, MaxConnectTimeout))
)

// mustParse is a default the table of properties gives: one that does
// not parse is a mistake of the table, seen as the program starts.
func mustParse[T any](v T, err error) T {
	if err != nil {
		panic("bench: a default in workload.KnownProperties does not parse: " + err.Error())
	}
	return v
}

// ResolveSettings resolves the client's side of a phase from props and
// its resolved spec: batch size, upsert, timeouts and the server's URL
// (props' mongodb.url, else envURL). Names MongoDB forbids are refused
// here, before anything runs: the server would fail every operation on
// them. The warnings met before an error are returned with it, so that
// they can be said first; errors are InputErrors.
func ResolveSettings(command string, props *workload.Properties, spec *workload.Spec, envURL string) (*Settings, []string, error) {
	s := &Settings{Command: command, Props: props, Spec: spec, BatchSize: defaultBatchSize, Connect: defaultConnect}
	for _, name := range []string{"mongodb.batchsize", "batchsize"} {
		if v, ok := props.Get(name); ok {
			n, err := workload.ParseInt(v, 1, 100000)
			if err != nil {
				return nil, nil, inputErrorf("%s=%q is invalid: expected %s", name, v, workload.IntRange(1, 100000))
			}
			s.BatchSize = int(n)
		}
	}
	// Run-phase inserts are one record each; batchsize shapes loads only.
	inFlightBatch := s.BatchSize
	if command == "run" {
		inFlightBatch = 1
	}
	if err := spec.CheckInFlight(inFlightBatch); err != nil {
		return nil, nil, InputError{err}
	}
	if v, ok := props.Get("mongodb.upsert"); ok {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return nil, nil, inputErrorf("mongodb.upsert=%q is invalid: expected true or false", v)
		}
		s.Upsert = b
	}
	s.Path = mongo.PathDriver
	if v, ok := props.Get("mongodb.path"); ok {
		switch p := strings.TrimSpace(v); p {
		case mongo.PathDriver, mongo.PathLean:
			s.Path = p
		default:
			return nil, nil, inputErrorf("mongodb.path=%q is invalid: expected %s or %s", v, mongo.PathDriver, mongo.PathLean)
		}
	}
	if v, ok := props.Get("mongodb.connecttimeout"); ok {
		d, err := workload.ParseSeconds(v, 0, MaxConnectTimeout)
		if err != nil || d <= 0 {
			return nil, nil, inputErrorf("mongodb.connecttimeout=%q is invalid: expected a number of seconds > 0 and at most %d (or a duration such as 30s)", v, int(MaxConnectTimeout.Seconds()))
		}
		s.Connect = d
	}
	if mc, ok := props.Get("mongodb.maxconnections"); ok {
		if _, err := workload.ParseInt(mc, 1, 1<<20); err != nil {
			return nil, nil, inputErrorf("mongodb.maxconnections=%q is invalid: expected %s", mc, workload.IntRange(1, 1<<20))
		}
	}
	url, _ := props.Get("mongodb.url")
	url = strings.TrimSpace(url)
	if url == "" {
		url = strings.TrimSpace(envURL)
	}
	var warnings []string
	if url != "" {
		if !strings.HasPrefix(url, "mongodb://") && !strings.HasPrefix(url, "mongodb+srv://") {
			return nil, nil, inputErrorf("mongodb.url %q is invalid: expected a connection string starting with mongodb:// or mongodb+srv://", redact.URL(url))
		}
		wc, _ := props.Get("mongodb.writeConcern")
		rp, _ := props.Get("mongodb.readPreference")
		mc, _ := props.Get("mongodb.maxconnections")
		var err error
		url, warnings, err = mongo.ApplyDeprecated(url, wc, rp, mc)
		if err != nil {
			return nil, nil, InputError{err}
		}
		if err := mongo.ValidateURL(url); err != nil {
			return nil, warnings, InputError{err}
		}
		if w := mongo.InsecureTLSWarning(url); w != "" {
			warnings = append(warnings, w)
		}
	}
	s.URL = url
	if err := checkNames(url, spec); err != nil {
		return nil, warnings, err
	}
	var err error
	if s.Shard, err = resolveShard(props); err != nil {
		return nil, warnings, err
	}
	isTPCC := workload.IsTPCC(props)
	if isTPCC && command != "run" {
		return nil, warnings, inputErrorf("workload=tpcc is a run phase: TPC-C's data is loaded by mongobench tpcc load")
	}
	// TPC-C's properties are checked wherever they are given, as every
	// known property is; only a TPC-C run uses them.
	if isTPCC || slices.ContainsFunc(tpcc.PhaseProperties, func(k string) bool { _, ok := props.Get(k); return ok }) {
		ts, err := tpcc.ResolvePhase(props.Get)
		if err != nil {
			return nil, warnings, InputError{err}
		}
		if isTPCC {
			s.TPCC = ts
		}
	}
	return s, warnings, nil
}

// checkNames refuses names MongoDB forbids.
func checkNames(url string, spec *workload.Spec) error {
	dbName := mongo.DefaultDatabase
	if url != "" {
		dbName = mongo.DatabaseFromURL(url)
		if err := mongo.CheckDatabaseName(dbName); err != nil {
			return inputErrorf("mongodb.url %s names the database %q, which is invalid: %w", redact.URL(url), dbName, err)
		}
	}
	if err := mongo.CheckCollectionName(dbName, spec.Table); err != nil {
		return inputErrorf("table=%q is invalid: %w", spec.Table, err)
	}
	if err := mongo.CheckFieldPrefix(spec.FieldNamePrefix); err != nil {
		return inputErrorf("fieldnameprefix=%q is invalid: %w", spec.FieldNamePrefix, err)
	}
	return nil
}

// ResolvedConfig is every property with the value the phase used: what
// the user set, else the default. Secrets are redacted here, once, before
// the configuration reaches any output. url is the server's and database
// its database; seed is the one the phase used.
func ResolvedConfig(s *Settings, seed uint64, url, database string) map[string]string {
	out := map[string]string{}
	for _, k := range workload.KnownProperties {
		if k.Default != "" {
			out[k.Name] = k.Default
		}
	}
	for _, k := range s.Props.Keys() {
		v, _ := s.Props.Get(k)
		out[k] = v
	}
	out["mongodb.url"] = url
	out["mongodb.database"] = database
	out["seed"] = strconv.FormatUint(seed, 10)
	out["threadcount"] = strconv.Itoa(s.Spec.Threads)
	out["batchsize"] = strconv.Itoa(s.BatchSize)
	// What the run measured, not the property's default: with a target
	// it defaults to both.
	out["measurement.interval"] = s.Spec.MeasurementInterval
	for k, v := range out {
		out[k] = redact.URL(v)
	}
	return out
}
