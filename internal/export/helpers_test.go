package export

import (
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// hist returns a histogram holding values.
func hist(t testing.TB, values ...int64) *hdrhistogram.Histogram {
	t.Helper()
	h := measure.NewHistogram()
	for _, v := range values {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// span returns from, from+step, … up to to.
func span(from, to, step int64) []int64 {
	var v []int64
	for i := from; i <= to; i += step {
		v = append(v, i)
	}
	return v
}

// plus returns values each increased by d: intended latency is service
// latency plus the wait for the operation's turn.
func plus(values []int64, d int64) []int64 {
	out := make([]int64, len(values))
	for i, v := range values {
		out[i] = v + d
	}
	return out
}

var testStart = time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)

// testSummary is a run of 40 s: 1000 reads of 1..1000 µs, three failed
// reads, 1000 updates of 2000..2999 µs, two inserts that both failed, and
// one cleanup. Intended latency is service latency plus 100 µs.
func testSummary(t testing.TB) *measure.Summary {
	t.Helper()
	read := span(1, 1000, 1)
	readFailed := []int64{5000, 7000, 90000}
	upd := span(2000, 2999, 1)
	insFailed := []int64{300, 400}
	s := &measure.Summary{
		StartNs:    0,
		EndNs:      40*int64(time.Second) + 987,
		Start:      testStart,
		End:        testStart.Add(40*time.Second + 987),
		Operations: 2005,
		Measurements: []measure.Measurement{
			{Name: "READ", Op: db.Read, Service: hist(t, read...), Intended: hist(t, plus(read, 100)...)},
			{Name: "READ-FAILED", Op: db.Read, Failed: true, Service: hist(t, readFailed...), Intended: hist(t, plus(readFailed, 100)...)},
			{Name: "UPDATE", Op: db.Update, Service: hist(t, upd...), Intended: hist(t, plus(upd, 100)...)},
			{Name: "INSERT", Op: db.Insert, Service: hist(t), Intended: hist(t)},
			{Name: "INSERT-FAILED", Op: db.Insert, Failed: true, Service: hist(t, insFailed...), Intended: hist(t, plus(insFailed, 100)...)},
			{Name: "CLEANUP", Op: db.Cleanup, Service: hist(t, 1500), Intended: hist(t, 1600)},
		},
		RecordStalls: 7,
		Clamped:      1,
		// Every operation started 100 µs behind schedule.
		ScheduleLag: hist(t, plus(make([]int64, 2005), 100)...),
	}
	s.Status[db.Read][db.OK] = 1000
	s.Status[db.Read][db.NotFound] = 2
	s.Status[db.Read][db.Error] = 1
	s.Status[db.Update][db.OK] = 1000
	s.Status[db.Insert][db.Error] = 2
	s.Status[db.Cleanup][db.OK] = 1
	// Two intervals: the first half of the reads and updates, then the rest.
	iv := func(index int, from, to int64, ops int64, r, u []int64) measure.IntervalStats {
		rs, ri := measure.Summarize(hist(t, r...)), measure.Summarize(hist(t, plus(r, 100)...))
		us, ui := measure.Summarize(hist(t, u...)), measure.Summarize(hist(t, plus(u, 100)...))
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
