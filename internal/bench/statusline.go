package bench

import (
	"fmt"
	"io"
	"time"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/measure"
)

// StatusLines writes YCSB's status line (-s) for each interval.
type StatusLines struct {
	w     io.Writer
	phase Phase
	done  int64
}

// NewStatusLines returns a sink writing the lines to w.
func NewStatusLines(w io.Writer) *StatusLines { return &StatusLines{w: w} }

func (s *StatusLines) Open(p Phase) error {
	s.phase = p
	return nil
}

func (s *StatusLines) Interval(u Update) error {
	iv := u.Interval
	// YCSB's status line counts the operations done, not started: the
	// ones in flight are not done yet.
	s.done += iv.Operations
	if afterTheEnd(iv, u.PhaseOver) {
		return nil
	}
	elapsed := time.Duration(iv.EndNs)
	remaining := time.Duration(-1)
	switch {
	case s.phase.Operations > 0:
		// As YCSB: no estimate before the first operation, nor once
		// nothing is left to do.
		if s.done > 0 && s.done < s.phase.Operations {
			rate := float64(s.done) / elapsed.Seconds()
			remaining = time.Duration(float64(s.phase.Operations-s.done) / rate * float64(time.Second))
		}
	case s.phase.MaxTime > 0:
		remaining = s.phase.MaxTime - elapsed
	}
	// The terminal is not a file the run depends on: a line that cannot
	// be written is not worth a warning.
	fmt.Fprintln(s.w, export.StatusLine(s.phase.Clock.StartTime().Add(elapsed), elapsed, s.done, iv, remaining))
	return nil
}

func (s *StatusLines) Close(bool) error { return nil }

// afterTheEnd reports whether iv is an interval that a status line would
// only repeat: closed once the phase was over, with nothing recorded in it.
// The figures were final at the line before; a last one would say "0
// current ops/sec" of a run that did not slow down, only end.
func afterTheEnd(iv *measure.Interval, phaseOver bool) bool {
	if !phaseOver || iv.Operations > 0 || len(iv.Measurements) > 0 {
		return false
	}
	for op := range iv.Status {
		for _, n := range iv.Status[op] {
			if n > 0 {
				return false
			}
		}
	}
	return true
}
