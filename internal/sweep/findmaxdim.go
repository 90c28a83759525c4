package sweep

import (
	"errors"
	"strconv"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/threshold"
	"github.com/mongobench/mongobench/internal/workload"
)

// FindMaxStart is the first rate find-max tries without a -target.
const FindMaxStart = 1000

// FindMaxDim is a find-max sweep's one varied property: target, starting
// where the properties' target says, when that is a rate, else at
// FindMaxStart.
func FindMaxDim(props *workload.Properties) Dim {
	start := strconv.Itoa(FindMaxStart)
	if v, ok := props.Get("target"); ok {
		if f, err := workload.ParseFloat(v, 0, 1e9); err == nil && f > 0 {
			start = v
		}
	}
	return Dim{Name: "target", Values: []string{start}}
}

// FindMaxStartOf is the rate a search over d (FindMaxDim's) starts at.
func FindMaxStartOf(d Dim) float64 {
	if f, err := strconv.ParseFloat(d.Values[0], 64); err == nil {
		return f
	}
	return FindMaxStart
}

// FindMaxFlag is sweep's --find-max: the objective, in --threshold's
// grammar, repeatable.
func FindMaxFlag(dest *[]threshold.Threshold) cmdflag.Def {
	return cmdflag.Func("find-max", "LIMIT", "search -target for the highest rate that meets LIMIT (--threshold's\ngrammar, repeatable), such as 'READ:p(99)<10ms', achieving 95% of\nthe target, the median operation under 10 ms behind schedule: doubles or halves from -target\n(default 1000), bisects to within 10%, runs the answer twice more", true, func(v string) error {
		t, err := threshold.Parse(v)
		if err != nil {
			return errors.New("--find-max: " + err.Error())
		}
		*dest = append(*dest, t)
		return nil
	})
}

// CheckFindMax refuses what a search cannot do: it varies -target
// itself, one configuration at a time, of a run phase.
func CheckFindMax(objective []threshold.Threshold, dims []Dim, command string) error {
	switch {
	case len(objective) == 0:
		return nil
	case len(dims) > 0:
		return errors.New("sweep: --find-max searches -target itself, in one configuration: give no --vary (run one search per configuration)")
	case command != "run":
		return errors.New("sweep: --find-max searches the rate of a run phase: use sweep run")
	}
	return nil
}
