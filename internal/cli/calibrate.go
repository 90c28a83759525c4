package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/mongobench/mongobench/internal/calibrate"
	"github.com/mongobench/mongobench/internal/outfile"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/workload"
)

const calibrateAbout = `usage: mongobench calibrate [-threads LIST] [-P file]... [-p name=value]... [-operationcount N] [--repeat N] [--json PATH]

Measures mongobench's own ceiling on this machine: runs a workload against a
MongoDB wire-protocol null server (started as a child process on loopback,
answering every request at once) and prints, per thread count, the client's
ops/s, CPU per operation, p50/p99 latency and RSS on each of mongobench's
wire paths (mongodb.path=driver, shown as "mongobench", and lean) beside a
bare loop of the official Go driver run the same way, and each path's
overhead above it. Workload a and the load phase (batchsize 1 and 100) are
measured at 16 threads too, and each goal is judged: holds or does not hold.
Its phases are load's and run's, sending the server the operations alone:
nothing is observed around them.`

// calibrateArgs is a parsed calibrate command line.
type calibrateArgs struct {
	threads    string
	files      []string
	settings   []kv
	operations string
	repeat     int
	jsonPath   string
	urlOptions string
	noExtras   bool
	inProcess  bool
	help       bool
}

// maxCalibrateRepeat bounds --repeat: medians settle long before.
const maxCalibrateRepeat = 1000

// calibrateFlags are calibrate's flags, bound to a.
func calibrateFlags(a *calibrateArgs) []flagDef {
	return []flagDef{
		textFlag("threads", "LIST", "thread counts, comma-separated (default 1,16,64)", false, &a.threads),
		funcFlag("P", "FILE", "workload property file (default workloadc; repeatable)", false, file(&a.files)),
		funcFlag("p", "NAME=VALUE", "set a property (repeatable); -p mongodb.url=URL uses a\nnull server already running there", false, property(&a.settings)),
		textFlag("operationcount", "N", "operations per measurement (default 100000)", false, &a.operations),
		funcFlag("repeat", "N", "measure every point N times and report medians (default 1)", true, func(v string) error {
			n, err := workload.ParseInt(v, 1, maxCalibrateRepeat)
			if err != nil {
				return fmt.Errorf("calibrate: --repeat %q is invalid: expected a whole number from 1 to %d", v, maxCalibrateRepeat)
			}
			a.repeat = int(n)
			return nil
		}),
		textFlag("json", "PATH", "also write the report as JSON to PATH", true, &a.jsonPath),
		textFlag("url-options", "Q", "connection-string options for both paths, e.g.\n\"retryReads=false&maxPoolSize=32\", to measure driver settings", true, &a.urlOptions),
		switchFlag("no-extras", "measure only the thread sweep", true, &a.noExtras),
		switchFlag("in-process", "run the null server inside this process (its CPU then\ncounts as the client's)", true, &a.inProcess),
		helpFlag(&a.help),
	}
}

// calibrateHelp is calibrate's help.
func calibrateHelp() string {
	return calibrateAbout + "\n" + flagsHelp(calibrateFlags(&calibrateArgs{}))
}

func parseCalibrateArgs(args []string) (*calibrateArgs, error) {
	a := &calibrateArgs{repeat: 1}
	defs := calibrateFlags(a)
	fs := newFlagSet("calibrate", defs)
	if err := fs.parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			a.help = true
			return a, nil
		}
		if fs.ValueErr() != nil {
			return nil, err
		}
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
			return nil, fmt.Errorf("calibrate: unknown flag %s: accepted flags are %s", name, acceptedFlags(defs, false))
		}
		if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
			return nil, fmt.Errorf("calibrate: flag %s needs a value", name)
		}
		return nil, fmt.Errorf("calibrate: %s", msg)
	}
	if fs.fs.NArg() > 0 {
		return nil, fmt.Errorf("calibrate: unexpected argument %q: properties are given as -p name=value, files as -P file", redact.Arg(fs.fs.Arg(0)))
	}
	return a, nil
}

// calibrateOptions turns the command line into calibrate.Options, the
// -P files read and merged.
func calibrateOptions(a *calibrateArgs) (calibrate.Options, error) {
	o := calibrate.Options{
		Repeats:    a.repeat,
		SkipExtras: a.noExtras,
		URLOptions: a.urlOptions,
		Overrides:  map[string]string{},
	}
	if a.inProcess {
		o.Server = calibrate.ServerInProcess
	}
	g := calibrate.Given{Threads: a.threads, Operations: a.operations}
	for _, s := range a.settings {
		g.Settings = append(g.Settings, [2]string{s.key, s.value})
	}
	if err := g.Apply(&o); err != nil {
		return o, err
	}
	if len(a.files) > 0 {
		props := workload.NewProperties()
		names := make([]string, len(a.files))
		for i, f := range a.files {
			p, err := readWorkloadFile(f)
			if err != nil {
				return o, err
			}
			props.Merge(p)
			names[i] = path.Base(strings.ReplaceAll(f, `\`, "/"))
		}
		o.Properties = props
		o.Workload = strings.Join(names, "+")
	}
	return o, nil
}

// runCalibrate is "mongobench calibrate".
func runCalibrate(ctx context.Context, args []string, env Env) error {
	a, err := parseCalibrateArgs(args)
	if err != nil {
		return badInput{err}
	}
	if a.help {
		fmt.Fprintln(env.Stdout, calibrateHelp())
		return nil
	}
	opts, err := calibrateOptions(a)
	if err != nil {
		return badInput{err}
	}
	if err := opts.Validate(); err != nil {
		return badInput{err}
	}
	if a.jsonPath != "" {
		if err := checkOutput("--json", a.jsonPath); err != nil {
			return err
		}
		// Calibrate keeps no runs, but the store stands where it stands.
		st := storeFlags{disabled: true}
		st.fromEnv(env)
		ins := storeInputs(st)
		for _, f := range a.files {
			ins = append(ins, namedPath{"-P", f})
		}
		if err := checkDistinct(ins, []namedPath{{"--json", a.jsonPath}}); err != nil {
			return err
		}
	}
	opts.Progress = env.Stderr

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	interrupt := newInterrupt(env.Interrupt)
	defer interrupt.close()
	go func() {
		select {
		case <-interrupt.stopped():
			cancel()
		case <-ctx.Done():
		}
	}()

	rep, runErr := calibrate.Run(ctx, opts)
	if rep == nil {
		if code := interrupt.code(); code != 0 {
			return exitError{code, errors.New("calibrate: interrupted before anything was measured")}
		}
		return fmt.Errorf("calibrate: %w", runErr)
	}
	// What was measured is printed and saved even when the calibration
	// stopped early.
	// The report and its JSON copy are written whatever became of the
	// other.
	var outs outputs
	if err := calibrate.WriteReport(env.Stdout, rep); err != nil {
		outs.Fail(fmt.Errorf("the report on standard output: %w", err))
	} else {
		outs.Keep("the report")
	}
	if a.jsonPath != "" {
		if err := writeCalibrateJSON(a.jsonPath, rep); err != nil {
			outs.Fail(err)
		} else {
			outs.Keep(a.jsonPath)
		}
	}
	if err := outs.report(env.Stderr); err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	if code := interrupt.code(); code != 0 {
		return exitError{code, errors.New("calibrate: interrupted: the report covers the points measured before the signal and is marked partial")}
	}
	if runErr != nil {
		return fmt.Errorf("calibrate: %w", runErr)
	}
	return nil
}

func writeCalibrateJSON(p string, rep *calibrate.Report) error {
	return outfile.Write(p, func(w io.Writer) error { return calibrate.WriteJSON(w, rep) })
}
