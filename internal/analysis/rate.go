package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mongobench/mongobench/internal/results"
)

// RateDim is the property a rate sweep varies: the target rate of an
// open-loop run. Along it the question is not where throughput stops
// rising (it rises with the target by construction) but up to which
// target the client kept its schedule.
const RateDim = "target"

// A target counts as held when the rate achieved is within
// RateTolerance of it and at most LateShareLimit of the operations
// started late (over a millisecond after their scheduled start). A run
// that falls behind its schedule shows one or both: fewer operations
// per second than asked for, or operations that waited for a free worker
// and were started in a rush to catch up, which keeps the rate while the
// intended latency counts every wait. A few late starts are the
// scheduler's noise on a busy machine; a tenth of the operations is a
// schedule no longer kept.
const (
	RateTolerance  = 0.05
	LateShareLimit = 0.10
)

// RatePoint is one target of a rate sweep, over its trials: the means of
// the rate achieved, the late starts and the intended p99.
type RatePoint struct {
	// Target is the target rate in operations per second.
	Target float64
	// Achieved is the mean rate achieved, in operations per second.
	Achieved float64
	// LateStarts and Operations are the means over the trials of the
	// operations that started late and of those started.
	LateStarts, Operations float64
	// IntendedP99 is the mean p99 of intended latency over all
	// operations, in µs; 0 when the runs recorded none.
	IntendedP99 float64
	Trials      int
}

// LateShare is the share of the operations that started late; 0 when no
// operation started.
func (p RatePoint) LateShare() float64 {
	if p.Operations <= 0 {
		return 0
	}
	return p.LateStarts / p.Operations
}

// Held reports whether the point kept its target (see RateTolerance).
func (p RatePoint) Held() bool {
	return p.Achieved >= p.Target*(1-RateTolerance) && p.LateShare() <= LateShareLimit
}

// RatePointOf is the point at target from its trials' results (the trials
// that count: no warm-ups, nothing interrupted).
func RatePointOf(target float64, runs []*results.Results) RatePoint {
	p := RatePoint{Target: target}
	var achieved, late, ops, p99 []float64
	for _, r := range runs {
		if r == nil {
			continue
		}
		p.Trials++
		achieved = append(achieved, r.ThroughputOpsSec)
		started := float64(r.Operations)
		if r.Extra != nil && r.Extra.Runner != nil {
			late = append(late, float64(r.Extra.Runner.LateStarts))
			if r.Extra.Runner.OperationsStarted > 0 {
				started = float64(r.Extra.Runner.OperationsStarted)
			}
		}
		ops = append(ops, started)
		if f := FiguresOf(r, IntendedLatency); f.P99 > 0 {
			p99 = append(p99, f.P99)
		}
	}
	p.Achieved, p.LateStarts, p.Operations, p.IntendedP99 = meanOf(achieved), meanOf(late), meanOf(ops), meanOf(p99)
	return p
}

func meanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// RateVerdict is what a rate sweep found: the highest target held before
// the first that was not, and what happened at that one.
type RateVerdict struct {
	// Points are the sweep's targets in increasing order (unthrottled
	// points, target 0, left out).
	Points []RatePoint
	// Held is the index in Points of the highest target held below the
	// first one missed (or of the last point when every target was
	// held); -1 when the first target was already missed.
	Held int
	// Missed is the index of the first target not held; -1 when every
	// target was held.
	Missed int
	// HeldAbove counts the targets above Missed that were held again: a
	// miss that is noise rather than a limit.
	HeldAbove int
	// Text states the verdict in lower case, without a full stop:
	// "kept up to 100 ops/s (99.9 ops/s achieved); at 200 ops/s only 185 ops/s were achieved
	// (93%), 574 operations (57%) started late and intended p99 reached 1.18 s".
	Text string
}

// RateVerdictOf judges a rate sweep from its points, in any order. With
// fewer than two throttled points it says so.
func RateVerdictOf(pts []RatePoint) RateVerdict {
	v := RateVerdict{Held: -1, Missed: -1}
	for _, p := range pts {
		if p.Target > 0 && p.Trials > 0 {
			v.Points = append(v.Points, p)
		}
	}
	slices.SortStableFunc(v.Points, func(a, b RatePoint) int { return cmp.Compare(a.Target, b.Target) })
	if len(v.Points) < 2 {
		v.Text = "no rate verdict: a rate sweep needs at least two targets above 0"
		return v
	}
	for i, p := range v.Points {
		if !p.Held() {
			v.Missed = i
			break
		}
		v.Held = i
	}
	if v.Missed >= 0 {
		for _, p := range v.Points[v.Missed+1:] {
			if p.Held() {
				v.HeldAbove++
			}
		}
	}
	last := v.Points[len(v.Points)-1]
	switch {
	case v.Missed < 0:
		v.Text = fmt.Sprintf("kept every target up to %s (%s achieved, %s)%s",
			rateText(last.Target), rateText(last.Achieved), lateText(last), p99Span(v.Points[0], last))
	case v.Held < 0:
		v.Text = "kept none of the targets: " + missedText(v.Points[0])
	default:
		h := v.Points[v.Held]
		v.Text = fmt.Sprintf("kept up to %s (%s achieved); %s", rateText(h.Target), rateText(h.Achieved), missedText(v.Points[v.Missed]))
		if h.IntendedP99 > 0 && v.Points[v.Missed].IntendedP99 > 0 {
			v.Text += fmt.Sprintf(" (%s at %s)", rateLatency(h.IntendedP99), rateText(h.Target))
		}
	}
	if v.HeldAbove > 0 {
		v.Text += fmt.Sprintf("; yet %s above it held: the miss may be the noise of a busy machine rather than a limit, repeat the sweep (--repeat 3) to tell", plural(v.HeldAbove, "target"))
	}
	return v
}

// missedText says how a target was missed: "at 200 ops/s only 185 ops/s
// were achieved (92%), 574 operations (57%) started late and intended p99
// reached 1.18 s".
func missedText(p RatePoint) string {
	s := "at " + rateText(p.Target) + " "
	short := p.Achieved < p.Target*(1-RateTolerance)
	late := countText(p.LateStarts, "operation")
	if p.LateStarts > 0 {
		late += fmt.Sprintf(" (%s)", shareText(p.LateShare()))
	}
	if short {
		pct := math.Round(100 * p.Achieved / p.Target)
		if pct >= 100*(1-RateTolerance) {
			// A rate short of the tolerance never reads as within it.
			pct = math.Floor(100 * p.Achieved / p.Target)
		}
		s += fmt.Sprintf("only %s were achieved (%.0f%%), %s started late", rateText(p.Achieved), pct, late)
	} else {
		// The rate was kept on average by starting late operations in a
		// rush: the schedule was not.
		s += fmt.Sprintf("the rate was reached (%s) but %s started late", rateText(p.Achieved), late)
	}
	if p.IntendedP99 > 0 {
		s += " and intended p99 reached " + rateLatency(p.IntendedP99)
	}
	return s
}

func lateText(p RatePoint) string {
	if p.LateStarts == 0 {
		return "no late starts"
	}
	return shareText(p.LateShare()) + " of operations started late"
}

// shareText is a share as a percentage: "44%", "0.3%".
func shareText(r float64) string {
	if r < 0.095 {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", 100*r), ".0") + "%"
	}
	return fmt.Sprintf("%.0f%%", 100*r)
}

// p99Span says how intended p99 went from the first target to the last:
// "; intended p99 went from 3.1 ms to 12 ms".
func p99Span(first, last RatePoint) string {
	if first.IntendedP99 <= 0 || last.IntendedP99 <= 0 {
		return ""
	}
	return "; intended p99 went from " + rateLatency(first.IntendedP99) + " to " + rateLatency(last.IntendedP99)
}

// rateText formats a rate in operations per second: "185 ops/s",
// "1,250 ops/s", "12.5 ops/s".
func rateText(v float64) string {
	return numText(v) + " ops/s"
}

// numText formats a positive figure with three significant digits below
// 100 and as a whole number, with thousands separated, above.
func numText(v float64) string {
	switch {
	case v >= 100 || v == math.Trunc(v):
		return groupThousands(int64(math.Round(v)))
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func groupThousands(n int64) string {
	s := fmt.Sprint(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}

// countText counts a mean over trials, as a whole number: "574
// operations", "1 operation".
func countText(v float64, noun string) string {
	n := int64(math.Round(v))
	if n == 1 {
		return "1 " + noun
	}
	return groupThousands(n) + " " + noun + "s"
}

// rateLatency formats a latency in µs with three significant digits in
// the unit that suits it: "850 µs", "67.2 ms", "1.18 s".
func rateLatency(us float64) string {
	v, unit := us, "µs"
	switch {
	case us >= 1e6:
		v, unit = us/1e6, "s"
	case us >= 1e3:
		v, unit = us/1e3, "ms"
	}
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f %s", v, unit)
	case v >= 10:
		return fmt.Sprintf("%.1f %s", v, unit)
	default:
		return fmt.Sprintf("%.2f %s", v, unit)
	}
}
