package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"strings"

	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/workload"
	"github.com/mongobench/mongobench/workloads"
)

// benchArgs is a parsed load/run command line.
type benchArgs struct {
	command   string // load | run
	binding   string
	files     []string // -P, in order
	settings  []kv     // -p, -threads, -target, -l, -s, in command-line order
	status    bool     // -s
	out       string   // --out
	dataDir   string   // --data-dir
	help      bool
	maxErrors int64 // --max-errors
	// maxErrorRate is --max-error-rate: 0 < F <= 1, or 0 for no limit.
	maxErrorRate float64
	drop         bool       // --drop
	store        storeFlags // --store, --no-store
	raw          []string   // the arguments as given, for the results file
}

type kv struct{ key, value string }

// settingFlag records a flag as a property at its place on the command line.
type settingFlag struct {
	key  string
	dest *[]kv
}

func (f settingFlag) String() string { return "" }
func (f settingFlag) Set(v string) error {
	*f.dest = append(*f.dest, kv{f.key, v})
	return nil
}

type propertyFlag struct{ dest *[]kv }

func (f propertyFlag) String() string { return "" }
func (f propertyFlag) Set(v string) error {
	key, value, ok := strings.Cut(v, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return fmt.Errorf("-p %q: expected -p name=value", redact.Arg(v))
	}
	*f.dest = append(*f.dest, kv{key, value})
	return nil
}

type fileFlag struct{ dest *[]string }

func (f fileFlag) String() string { return "" }
func (f fileFlag) Set(v string) error {
	*f.dest = append(*f.dest, v)
	return nil
}

const benchFlagsHelp = `flags:
  -P FILE        workload property file (repeatable; workloada..workloadf are built in)
  -p NAME=VALUE  set a property; wins over -P files (repeatable)
  -threads N     client threads (threadcount)
  -target N      total operations per second over all threads; 0 = as fast as possible
  -l LABEL       label for this run
  -s             status line on stderr every status.interval seconds
  --out PATH     write the JSON results file (-p exportfile=F takes YCSB's
                 summary, in the format of -p exporter, to F instead of stdout)
  --data-dir DIR keep the embedded server's data in DIR (default: a temporary directory)
  --max-errors N stop once N operations have failed (default: never; failures are counted)
  --max-error-rate F
                 stop once more than the fraction F (0 < F <= 1, e.g. 0.5) of the
                 operations failed: judged at the end of each whole status interval
                 over the operations finished since the last verdict, once at least
                 20 have finished (default: never)
  --warmup 30s   run this long before measuring (warmuptime); warm-up is reported apart
  --drop         load: drop the collection first
  --store PATH   record the run in this results store (default mongobench.db,
                 or $MONGOBENCH_STORE); --no-store: record nothing
  -h             this help`

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
	fs := flag.NewFlagSet(command, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(fileFlag{&a.files}, "P", "")
	fs.Var(settingFlag{"threadcount", &a.settings}, "threads", "")
	fs.Var(settingFlag{"target", &a.settings}, "target", "")
	fs.Var(settingFlag{"label", &a.settings}, "l", "")
	fs.Var(settingFlag{"db", &a.settings}, "db", "")
	fs.BoolVar(&a.status, "s", false, "")
	fs.StringVar(&a.out, "out", "", "")
	fs.StringVar(&a.dataDir, "data-dir", "", "")
	// The flag package wraps a value's error in `invalid value "x" for
	// flag -p: `, which repeats ours, and says only "parse error" of a bad
	// number: these flags' own messages are kept as they are.
	var valueErr error
	fs.Func("p", "", func(v string) error {
		valueErr = propertyFlag{&a.settings}.Set(v)
		return valueErr
	})
	fs.Func("max-errors", "", func(v string) error {
		a.maxErrors, valueErr = parseMaxErrors(v)
		return valueErr
	})
	fs.Func("max-error-rate", "", func(v string) error {
		a.maxErrorRate, valueErr = parseMaxErrorRate(v)
		return valueErr
	})
	fs.BoolVar(&a.drop, "drop", false, "")
	a.store.register(fs)
	fs.Var(settingFlag{"warmuptime", &a.settings}, "warmup", "")
	fs.BoolVar(&a.help, "h", false, "")
	fs.BoolVar(&a.help, "help", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			a.help = true
			return a, nil
		}
		if valueErr != nil {
			return nil, valueErr
		}
		return nil, flagError(err)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q: properties are given as -p name=value, files as -P file", redact.Arg(fs.Arg(0)))
	}
	// Refused here, before anything connects: a run that dropped its
	// collection would measure an empty one.
	if a.drop && command != "load" {
		return nil, fmt.Errorf("--drop goes with load: it drops the collection before loading it again; %s keeps the data it finds", command)
	}
	return a, nil
}

func parseMaxErrors(v string) (int64, error) {
	n, err := workload.ParseInt(v, 0, math.MaxInt64)
	if err != nil {
		return 0, fmt.Errorf("--max-errors %q is invalid: expected a whole number >= 0 (0 = never stop on errors)", v)
	}
	return n, nil
}

func parseMaxErrorRate(v string) (float64, error) {
	f, err := workload.ParseFloat(v, 0, 1)
	if err != nil || f == 0 {
		return 0, fmt.Errorf("--max-error-rate %q is invalid: expected a fraction of failed operations greater than 0 and at most 1, such as 0.5", v)
	}
	return f, nil
}

// flagError turns the flag package's messages into one line that says
// what is accepted.
func flagError(err error) error {
	msg := flagMessage(err)
	if strings.HasPrefix(msg, "unknown flag ") {
		msg += ": accepted flags are -P, -p, -threads, -target, -l, -s, --out, --data-dir, --max-errors, --max-error-rate, --warmup, --drop, --store, --no-store, -h"
	}
	return errors.New(msg)
}

// loadProperties reads the -P files in order, then applies the command
// line's settings, which win regardless of position (YCSB's rule).
func (a *benchArgs) loadProperties() (*workload.Properties, error) {
	props := workload.NewProperties()
	for _, f := range a.files {
		p, err := readWorkloadFile(f)
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

// readWorkloadFile reads a -P file from disk, or one of the built-in
// workloads when the name is workloada … workloadf or workload_s6 (alone or under
// workloads/) and no such file exists, so YCSB's command lines work from
// any directory.
func readWorkloadFile(name string) (*workload.Properties, error) {
	if _, err := os.Stat(name); err == nil {
		return workload.ParseFile(name)
	}
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	if data, err := fs.ReadFile(workloads.Files, base); err == nil && (base == name || strings.TrimSuffix(name, base) == "workloads/") {
		return workload.Parse(strings.NewReader(string(data)), base)
	}
	return nil, fmt.Errorf("cannot read workload file %s: no such file (built in: workloada, workloadb, workloadc, workloadd, workloade, workloadf, workload_s6)", name)
}
