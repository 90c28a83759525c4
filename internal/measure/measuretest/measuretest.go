// Package measuretest holds a recorded run's summary, built by hand, that
// the tests of every package reading summaries (the output formats, the
// results file) share, so that they check one fixture rather than copies.
package measuretest

import (
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// Hist returns a histogram holding values.
func Hist(t testing.TB, values ...int64) *hdrhistogram.Histogram {
	t.Helper()
	h := measure.NewHistogram()
	for _, v := range values {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// Span returns from, from+step, … up to to.
func Span(from, to, step int64) []int64 {
	var v []int64
	for i := from; i <= to; i += step {
		v = append(v, i)
	}
	return v
}

// Plus returns values each increased by d: intended latency is service
// latency plus the wait for the operation's turn.
func Plus(values []int64, d int64) []int64 {
	out := make([]int64, len(values))
	for i, v := range values {
		out[i] = v + d
	}
	return out
}

// Start is when Summary's run started.
var Start = time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)

// Summary is a run of 40 s: 1000 reads of 1..1000 µs, three failed
// reads, 1000 updates of 2000..2999 µs, two inserts that both failed, and
// one cleanup. Intended latency is service latency plus 100 µs.
func Summary(t testing.TB) *measure.Summary {
	t.Helper()
	read := Span(1, 1000, 1)
	readFailed := []int64{5000, 7000, 90000}
	upd := Span(2000, 2999, 1)
	insFailed := []int64{300, 400}
	s := &measure.Summary{
		StartNs:    0,
		EndNs:      40*int64(time.Second) + 987,
		Start:      Start,
		End:        Start.Add(40*time.Second + 987),
		Operations: 2005,
		Measurements: []measure.Measurement{
			{Name: "READ", Op: db.Read, Service: Hist(t, read...), Intended: Hist(t, Plus(read, 100)...)},
			{Name: "READ-FAILED", Op: db.Read, Failed: true, Service: Hist(t, readFailed...), Intended: Hist(t, Plus(readFailed, 100)...)},
			{Name: "UPDATE", Op: db.Update, Service: Hist(t, upd...), Intended: Hist(t, Plus(upd, 100)...)},
			{Name: "INSERT", Op: db.Insert, Service: Hist(t), Intended: Hist(t)},
			{Name: "INSERT-FAILED", Op: db.Insert, Failed: true, Service: Hist(t, insFailed...), Intended: Hist(t, Plus(insFailed, 100)...)},
			{Name: "CLEANUP", Op: db.Cleanup, Service: Hist(t, 1500), Intended: Hist(t, 1600)},
		},
		RecordStalls: 7,
		Clamped:      1,
		// Every operation started 100 µs behind schedule.
		ScheduleLag: Hist(t, Plus(make([]int64, 2005), 100)...),
	}
	s.Status[db.Read][db.OK] = 1000
	s.Status[db.Read][db.NotFound] = 2
	s.Status[db.Read][db.Error] = 1
	s.Status[db.Update][db.OK] = 1000
	s.Status[db.Insert][db.Error] = 2
	s.Status[db.Cleanup][db.OK] = 1
	// Two intervals: the first half of the reads and updates, then the rest.
	iv := func(index int, from, to int64, ops int64, r, u []int64) measure.IntervalStats {
		rs, ri := measure.Summarize(Hist(t, r...)), measure.Summarize(Hist(t, Plus(r, 100)...))
		us, ui := measure.Summarize(Hist(t, u...)), measure.Summarize(Hist(t, Plus(u, 100)...))
		return measure.IntervalStats{
			Index: index, StartNs: from, EndNs: to, Operations: ops,
			OpsPerSec: float64(ops) / (float64(to-from) / 1e9),
			Measurements: []measure.MeasurementStats{
				{Name: "READ", Op: db.Read, Service: &rs, Intended: &ri},
				{Name: "UPDATE", Op: db.Update, Service: &us, Intended: &ui},
			},
		}
	}
	s.Intervals = []measure.IntervalStats{
		iv(0, 0, 20*int64(time.Second), 1000, read[:500], upd[:500]),
		iv(1, 20*int64(time.Second), s.EndNs, 1005, read[500:], upd[500:]),
	}
	return s
}
