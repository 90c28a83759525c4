// Package findmax searches for the highest rate a system sustains while
// it meets a service-level objective (NoSQLBench's findmax): bracket the
// rate by doubling or halving from a start, bisect the bracket down to a
// resolution, then run the highest passing rate again before believing
// it. The rate is the schedule's (-target); what "sustains" means is the
// caller's Probe: its thresholds met, the achieved rate close to the
// target, no backlog of late starts.
package findmax

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Options shape the search.
type Options struct {
	// Start is the first rate tried, operations per second.
	Start float64
	// Min and Max bound the rates tried (defaults 1 and 1e9).
	Min, Max float64
	// Resolution is how close the bracket must close, relative to its
	// lower end (default 0.10: the answer is within 10%).
	Resolution float64
	// Confirm is how many more times the answer's rate runs before it is
	// believed (default 2): a single pass at the boundary is often luck.
	Confirm int
	// MaxSteps bounds the probes (default 40).
	MaxSteps int
}

func (o Options) withDefaults() Options {
	if o.Min <= 0 {
		o.Min = 1
	}
	if o.Max <= 0 {
		o.Max = 1e9
	}
	if o.Resolution <= 0 {
		o.Resolution = 0.10
	}
	if o.Confirm < 0 {
		o.Confirm = 0
	} else if o.Confirm == 0 {
		o.Confirm = 2
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = 40
	}
	return o
}

// Verdict is what one probe found at a rate.
type Verdict struct {
	Pass bool
	// Why says why it failed, for the table of steps.
	Why string
}

// Probe runs the system at target operations per second and judges it.
type Probe func(ctx context.Context, target float64) (Verdict, error)

// Step is one probe of the search.
type Step struct {
	Phase  string // "bracket", "bisect" or "confirm"
	Target float64
	Verdict
}

// Result is the answer: the system sustains Low and not High. Low is 0
// when even the lowest rate tried failed; High is 0 when no rate up to
// Max failed.
type Result struct {
	Low, High float64
	Steps     []Step
}

// Found says whether a sustained rate was found.
func (r Result) Found() bool { return r.Low > 0 }

// Text says the answer in words: "sustains 4200–4600 ops/s".
func (r Result) Text() string {
	switch {
	case r.Low == 0:
		return fmt.Sprintf("sustains no rate tried: even %s ops/s failed", rateText(r.High))
	case r.High == 0:
		return fmt.Sprintf("sustains at least %s ops/s, the most tried", rateText(r.Low))
	}
	return fmt.Sprintf("sustains %s–%s ops/s", rateText(r.Low), rateText(r.High))
}

func rateText(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// ErrSteps says the search ran out of probes before it closed.
var ErrSteps = errors.New("findmax: the search ran out of steps before its bracket closed")

// Search runs the search. On an error from probe (a stop, a failure to
// run) it returns what it knows so far with the error.
func Search(ctx context.Context, o Options, probe Probe) (Result, error) {
	o = o.withDefaults()
	var res Result
	run := func(phase string, t float64) (bool, error) {
		if len(res.Steps) >= o.MaxSteps {
			return false, ErrSteps
		}
		v, err := probe(ctx, t)
		if err != nil {
			return false, err
		}
		res.Steps = append(res.Steps, Step{Phase: phase, Target: t, Verdict: v})
		return v.Pass, nil
	}
	start := math.Min(math.Max(o.Start, o.Min), o.Max)
	lo, hi := 0.0, 0.0 // highest pass, lowest failure; 0 for none yet
	// Bracket: double while passing, halve while failing.
	for t := start; ; {
		pass, err := run("bracket", t)
		if err != nil {
			res.Low, res.High = lo, hi
			return res, err
		}
		if pass {
			lo = t
			if hi > 0 || t >= o.Max {
				break
			}
			t = math.Min(2*t, o.Max)
			continue
		}
		hi = t
		if lo > 0 {
			break
		}
		if t <= o.Min {
			res.High = hi
			return res, nil
		}
		t = math.Max(t/2, o.Min)
	}
	for {
		// Bisect until the bracket is within the resolution.
		for hi > 0 && (hi-lo)/lo > o.Resolution {
			t := roundRate((lo + hi) / 2)
			if t <= lo || t >= hi {
				break
			}
			pass, err := run("bisect", t)
			if err != nil {
				res.Low, res.High = lo, hi
				return res, err
			}
			if pass {
				lo = t
			} else {
				hi = t
			}
		}
		// Confirm the answer: every run again at lo must pass too.
		confirmed := true
		for range o.Confirm {
			pass, err := run("confirm", lo)
			if err != nil {
				res.Low, res.High = lo, hi
				return res, err
			}
			if !pass {
				confirmed = false
				break
			}
		}
		if confirmed {
			res.Low, res.High = lo, hi
			return res, nil
		}
		// lo failed on a second look: it is the new upper end, and the
		// highest rate below it that passed (never confirmed yet) the
		// lower one.
		hi = lo
		lo = 0
		for _, s := range res.Steps {
			if s.Pass && s.Target < hi && s.Target > lo && !failedAt(res.Steps, s.Target) {
				lo = s.Target
			}
		}
		if lo == 0 {
			res.High = hi
			return res, nil
		}
	}
}

// failedAt says whether any probe at t failed.
func failedAt(steps []Step, t float64) bool {
	for _, s := range steps {
		if s.Target == t && !s.Pass {
			return true
		}
	}
	return false
}

// roundRate keeps the rates tried readable: three significant digits.
func roundRate(v float64) float64 {
	if v <= 0 {
		return v
	}
	mag := math.Pow(10, math.Floor(math.Log10(v))-2)
	return math.Round(v/mag) * mag
}
