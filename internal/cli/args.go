package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/threshold"
	"github.com/mongobench/mongobench/internal/workload"
)

// benchArgs is a parsed load/run command line.
type benchArgs struct {
	command     string // load | run
	binding     string
	files       []string // -P, in order
	settings    []kv     // -p, -threads, -target, -l, -s, in command-line order
	status      bool     // -s
	out         string   // --out
	dataDir     string   // --data-dir
	help        bool
	limits      bench.Limits    // --max-errors, --max-error-rate
	drop        bool            // --drop
	metricsAddr string          // --metrics-addr
	store       storeFlags      // --store, --no-store
	parts       partition.Given // --part, --parts, --run-id, --start-at, --barrier-timeout
	raw         []string        // the arguments as given, for the results file
	native      *native.File    // a native workload among the -P files (native.go)

	thresholds []threshold.Threshold // --threshold
}

type kv struct{ key, value string }

// setting records a flag as a property at its place on the command line.
func setting(key string, dest *[]kv) func(string) error {
	return func(v string) error {
		*dest = append(*dest, kv{key, v})
		return nil
	}
}

// property parses -p name=value into dest.
func property(dest *[]kv) func(string) error {
	return cmdflag.Property(func(k, v string) { *dest = append(*dest, kv{k, v}) })
}

// file appends each -P to dest.
func file(dest *[]string) func(string) error { return cmdflag.Append(dest) }

// benchFlags are load's and run's flags, bound to a. The YCSB ones come
// first, with YCSB's single dash.
func benchFlags(a *benchArgs) []flagDef {
	defs := []flagDef{
		funcFlag("P", "FILE", "workload property file (repeatable; workloada..workloadf are built in)", false, file(&a.files)),
		funcFlag("p", "NAME=VALUE", "set a property; wins over -P files (repeatable)", false, property(&a.settings)),
		funcFlag("threads", "N", "client threads (threadcount)", false, setting("threadcount", &a.settings)),
		funcFlag("target", "N", "total operations per second over all threads; 0 = as fast as possible", false, setting("target", &a.settings)),
		funcFlag("stages", "STAGES", "a ramp of rates instead of -target: DURATION:RATE stages, the rate\nlinear from one to the next from 0, such as 30s:1000,2m:5000,30s:0\n(stages); the ramp sets the operations", true, setting("stages", &a.settings)),
		funcFlag("l", "LABEL", "label for this run", false, setting("label", &a.settings)),
		switchFlag("s", "status line on stderr every status.interval seconds", false, &a.status),
		funcFlag("db", "NAME", "YCSB's binding class (property db), accepted for YCSB's command lines", false, setting("db", &a.settings)),
		textFlag("out", "PATH", "write the JSON results file (-p exportfile=F takes YCSB's\nsummary, in the format of -p exporter, to F instead of stdout)", true, &a.out),
		textFlag("data-dir", "DIR", "keep the embedded server's data in DIR (default: a temporary directory)", true, &a.dataDir),
	}
	defs = append(defs, fromDefs(a.limits.Flags())...)
	defs = append(defs,
		funcFlag("warmup", "D", "run this long before measuring, such as 30s (warmuptime);\nwarm-up is reported apart", true, setting("warmuptime", &a.settings)),
		switchFlag("drop", "load: drop the collection first", true, &a.drop),
		thresholdFlag(&a.thresholds),
		textFlag("metrics-addr", "HOST:PORT", "serve Prometheus metrics at http://HOST:PORT/metrics while the phase\nruns (:9100 on every interface; port 0 picks a free one, said on stderr)", true, &a.metricsAddr))
	defs = append(defs, fromDefs(a.parts.Flags())...)
	defs = append(defs, a.store.defs("record the run in this results store (default mongobench.db,\nor $MONGOBENCH_STORE)", "record nothing")...)
	return append(defs, helpFlag(&a.help))
}

// benchHelp is load's or run's help.
func benchHelp(command string) string {
	return fmt.Sprintf("usage: mongobench %s mongodb [flags]\n\nflags:\n%s", command, flagsHelp(benchFlags(&benchArgs{})))
}

// parseBenchArgs parses "load|run [mongodb] flags...".
func parseBenchArgs(command string, args []string) (*benchArgs, error) {
	a := &benchArgs{command: command, binding: "mongodb", raw: args}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		a.binding = args[0]
		args = args[1:]
	}
	switch a.binding {
	case "mongodb", "mongodb-async":
	default:
		return nil, fmt.Errorf("unknown binding %q: mongobench benchmarks MongoDB; use \"mongodb\" (or \"mongodb-async\")", redact.Arg(a.binding))
	}
	defs := benchFlags(a)
	fs := newFlagSet(command, defs)
	if err := fs.parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			a.help = true
			return a, nil
		}
		if fs.ValueErr() != nil {
			return nil, err
		}
		return nil, flagError(err, defs)
	}
	if fs.fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q: properties are given as -p name=value, files as -P file", redact.Arg(fs.fs.Arg(0)))
	}
	// Refused here, before anything connects: a run that dropped its
	// collection would measure an empty one.
	if a.drop && command != "load" {
		return nil, fmt.Errorf("--drop goes with load: it drops the collection before loading it again; %s keeps the data it finds", command)
	}
	return a, nil
}

// loadProperties reads the -P files in order, then applies the command
// line's settings, which win regardless of position (YCSB's rule).
func (a *benchArgs) loadProperties() (*workload.Properties, error) {
	props, err := a.splitNative()
	if err != nil {
		return nil, err
	}
	for _, f := range a.files {
		p, err := workload.ReadFile(f)
		if err != nil {
			return nil, err
		}
		props.Merge(p)
	}
	for _, s := range a.settings {
		props.Set(s.key, s.value, "-p")
	}
	props.Set("dotransactions", fmt.Sprint(a.command == "run"), "-p")
	return props, nil
}
