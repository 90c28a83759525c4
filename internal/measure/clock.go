package measure

import "time"

// Clock is the one monotonic time base of a process. Every timestamp handed
// to a Recorder is an offset in nanoseconds from the clock's start, so
// timestamps are small integers that subtract without wall-clock jumps.
type Clock struct {
	start time.Time
}

// NewClock starts a clock now.
func NewClock() Clock { return Clock{start: time.Now()} }

// Now returns the nanoseconds elapsed since the clock started. It reads the
// monotonic clock (a vDSO call on Linux): no allocation, no syscall.
func (c Clock) Now() int64 { return int64(time.Since(c.start)) }

// StartTime returns the wall-clock time of offset 0.
func (c Clock) StartTime() time.Time { return c.start }

// Time returns the wall-clock time of offset ns.
func (c Clock) Time(ns int64) time.Time { return c.start.Add(time.Duration(ns)) }
