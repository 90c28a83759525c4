package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/threshold"
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

type sweepOptions struct {
	command      string     // run | load
	bench        []string   // the load/run arguments, sweep flags taken out
	benchArgs    *benchArgs // bench, parsed
	dims         []sweep.Dim
	repeat       int
	discardFirst bool
	reload       *bool // nil: reload when a varied property shapes the data
	outDir       string
	knee         stats.KneeOptions
	format       tableFormat
	store        storeFlags
	help         bool

	findMax []threshold.Threshold // --find-max
}

// maxRepeat bounds --repeat: far more trials than any confidence interval
// needs, and few enough that a typo is not a week-long sweep.
const maxRepeat = 10000

// sweepFlags are the flags sweep adds to load's and run's, bound to o and
// to reload and noReload; -h is load's and run's.
func sweepFlags(o *sweepOptions, reload, noReload *bool) []flagDef {
	defs := []flagDef{
		funcFlag("vary", "NAME=V1,V2,...", "a property (or -threads/-target) and its values; several\n--vary make a matrix. --vary threadcount=auto doubles the\nthreads from 1 until throughput saturates (the knee);\n--vary readproportion,insertproportion=0.95:0.05,0.9:0.1\nvaries linked properties together", true, func(v string) error {
			d, err := sweep.ParseVary(v)
			if err != nil {
				return err
			}
			for _, prev := range o.dims {
				for _, n := range d.Names() {
					if slices.Contains(prev.Names(), n) {
						return fmt.Errorf("--vary %s is given twice: list all its values in one --vary, separated by commas", n)
					}
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
		findMaxFlag(&o.findMax),
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
	rest, err := cmdflag.Extract(defsOf(defs), args)
	if err != nil {
		return nil, badInputf("sweep: %w", err)
	}
	o.bench = rest
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
	if pa := a.parts; pa != (partArgs{}) {
		return nil, badInputf("sweep: --part, --parts, --run-id, --start-at and --barrier-timeout go with load and run: a sweep is not split into parts")
	}
	if err := checkFindMax(o); err != nil {
		return nil, err
	}
	if len(o.dims) == 0 && o.repeat < 2 && len(o.findMax) == 0 {
		return nil, badInputf("sweep: nothing to sweep: give --vary NAME=V1,V2,... (such as --vary threadcount=1,2,4,8) or --repeat N")
	}
	if _, err := sweep.CountPoints(o.dims); err != nil {
		return nil, badInput{err}
	}
	return o, nil
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
