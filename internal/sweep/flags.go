package sweep

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/stats"
	"github.com/mongobench/mongobench/internal/workload"
)

// FlagDest is where the flags a sweep adds to load's and run's put what
// they are given.
type FlagDest struct {
	Dims             *[]Dim
	Repeat           *int
	DiscardFirst     *bool
	Reload, NoReload *bool
	OutDir           *string
	Knee             *stats.KneeOptions
}

// MaxRepeat bounds --repeat: far more trials than any confidence interval
// needs, and few enough that a typo is not a week-long sweep.
const MaxRepeat = 10000

// Flags are the flags a sweep adds to load's and run's (--vary to
// --max-threads), bound to d.
func Flags(d FlagDest) []cmdflag.Def {
	return []cmdflag.Def{
		cmdflag.Func("vary", "NAME=V1,V2,...", "a property (or -threads/-target) and its values; several\n--vary make a matrix. --vary threadcount=auto doubles the\nthreads from 1 until throughput saturates (the knee);\n--vary readproportion,insertproportion=0.95:0.05,0.9:0.1\nvaries linked properties together", true, func(v string) error {
			dim, err := ParseVary(v)
			if err != nil {
				return err
			}
			for _, prev := range *d.Dims {
				for _, n := range dim.Names() {
					if slices.Contains(prev.Names(), n) {
						return fmt.Errorf("--vary %s is given twice: list all its values in one --vary, separated by commas", n)
					}
				}
			}
			*d.Dims = append(*d.Dims, dim)
			return nil
		}),
		cmdflag.Func("repeat", "N", "trials per point (default 1); with N >= 2 every figure is\nthe mean with its 95% confidence interval", true, func(v string) error {
			n, err := workload.ParseInt(v, 1, MaxRepeat)
			if err != nil {
				return fmt.Errorf("--repeat %q is invalid: expected a whole number of trials from 1 to %d", v, MaxRepeat)
			}
			*d.Repeat = int(n)
			return nil
		}),
		cmdflag.Switch("discard-first", "run one more trial first at each point, as a warm-up, and\nleave it out of the means", true, d.DiscardFirst),
		cmdflag.Switch("reload", "drop and load the data before every run: each trial,\nthe warm-up included, starts from the same data", true, d.Reload),
		cmdflag.Switch("no-reload", "load the data only into an empty collection, once\n(default: load again when a varied property shapes\nthe data: recordcount, fieldcount, fieldlength, table, ...)", true, d.NoReload),
		cmdflag.Func("out-dir", "DIR", "where results files go (default sweep-<timestamp>)", true, func(v string) error {
			if *d.OutDir = v; strings.TrimSpace(v) == "" {
				return errors.New("--out-dir is empty: expected a directory")
			}
			return nil
		}),
		cmdflag.Func("knee-throughput", "F", "a step that gains less throughput than this fraction ...", true, func(v string) (err error) {
			d.Knee.MinThroughputGain, err = ParseFraction("knee-throughput", v, "0.05 for +5% throughput")
			return err
		}),
		cmdflag.Func("knee-latency", "F", "... while p99 grows by more than this one is the knee\n(defaults 0.05 and 0.20)", true, func(v string) (err error) {
			d.Knee.MinLatencyGrowth, err = ParseFraction("knee-latency", v, "0.20 for +20% p99")
			return err
		}),
		cmdflag.Func("max-threads", "N", "where threadcount=auto stops at the latest (default 1024)", true, func(v string) error {
			n, err := workload.ParseInt(v, 1, 1<<20)
			if err != nil {
				return fmt.Errorf("--max-threads %q is invalid: expected a whole number from 1 to 1048576", v)
			}
			d.Knee.MaxX = float64(n)
			return nil
		}),
	}
}

// ParseFraction reads a knee threshold given to flagName
// (analysis.ParseFraction), as report reads its own.
var ParseFraction = analysis.ParseFraction
