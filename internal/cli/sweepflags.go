package cli

import (
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/sweep"
	"github.com/mongobench/mongobench/internal/threshold"
)

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

// sweepFlags are the flags sweep adds to load's and run's, bound to o and
// to reload and noReload; -h is load's and run's.
func sweepFlags(o *sweepOptions, reload, noReload *bool) []flagDef {
	defs := fromDefs(sweep.Flags(sweep.FlagDest{Dims: &o.dims, Repeat: &o.repeat, DiscardFirst: &o.discardFirst,
		Reload: reload, NoReload: noReload, OutDir: &o.outDir, Knee: &o.knee}))
	defs = append(defs,
		fromDef(sweep.FindMaxFlag(&o.findMax)),
		funcFlag("format", "FORMAT", "the table as text (default), csv or markdown; with csv\nthe knee goes to stderr", true, func(v string) (err error) {
			o.format, err = parseTableFormat(v)
			return err
		}))
	return append(defs, o.store.defs("the results store (default mongobench.db, or $MONGOBENCH_STORE)", "record nothing")...)
}

// sweepHelp is sweep's help.
func sweepHelp() string {
	var reload, noReload bool
	o := &sweepOptions{}
	return fmt.Sprintf(sweep.Usage, flagsHelp(append(sweepFlags(o, &reload, &noReload), helpFlag(&o.help))))
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
	if pa := a.parts; pa != (partition.Given{}) {
		return nil, badInputf("sweep: --part, --parts, --run-id, --start-at and --barrier-timeout go with load and run: a sweep is not split into parts")
	}
	if err := sweep.CheckFindMax(o.findMax, o.dims, o.command); err != nil {
		return nil, badInput{err}
	}
	if len(o.dims) == 0 && o.repeat < 2 && len(o.findMax) == 0 {
		return nil, badInputf("sweep: nothing to sweep: give --vary NAME=V1,V2,... (such as --vary threadcount=1,2,4,8) or --repeat N")
	}
	if _, err := sweep.CountPoints(o.dims); err != nil {
		return nil, badInput{err}
	}
	return o, nil
}
