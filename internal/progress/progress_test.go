package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// fakeRun stands in for the runner's counter and the run's clock.
type fakeRun struct {
	done    atomic.Int64
	elapsed atomic.Int64 // ns
}

func (f *fakeRun) set(done int64, elapsed time.Duration) {
	f.done.Store(done)
	f.elapsed.Store(int64(elapsed))
}

func (f *fakeRun) display(w *bytes.Buffer, what string, operations int64, maxTime time.Duration) *progressDisplay {
	return newProgressDisplay(w, what, operations, maxTime, f.done.Load, func() time.Duration { return time.Duration(f.elapsed.Load()) })
}

// hist holds n copies of each value (µs) of pairs {value, n}.
func hist(t *testing.T, pairs ...[2]int64) *hdrhistogram.Histogram {
	t.Helper()
	h := measure.NewHistogram()
	for _, p := range pairs {
		if err := h.RecordValues(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// lastFrame is the display as the terminal shows it at the end: the text
// after the last carriage return the bar library draws with.
func lastFrame(s string) string {
	s = strings.TrimRight(s, " \n")
	if i := strings.LastIndex(s, "\r"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// TestProgressRunByOperationCount: a run bounded by operationcount shows
// the operations done of the total, the last interval's ops/s and the worst
// successful operation's p99, and the time left at the mean rate.
func TestProgressRunByOperationCount(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	f := &fakeRun{}
	d := f.display(&buf, "run:", 1000, 0)

	d.update()
	if got := lastFrame(buf.String()); !strings.Contains(got, "run: 0/1000 ops") || strings.Contains(got, "ops/s") {
		t.Errorf("before the first interval: %q", got)
	}

	// Interval 1 lasted 2 s: 2500 operations, 1250 ops/s. READ's p99 is
	// 100 µs (99 of its 100 values), UPDATE's 700 µs; the failed reads'
	// 90 ms do not count.
	d.interval(&measure.Interval{Index: 1, StartNs: 1e9, EndNs: 3e9, Operations: 2500, Measurements: []measure.Measurement{
		{Name: "READ", Op: db.Read, Service: hist(t, [2]int64{100, 99}, [2]int64{5000, 1})},
		{Name: "READ-FAILED", Op: db.Read, Failed: true, Service: hist(t, [2]int64{90000, 50})},
		{Name: "UPDATE", Op: db.Update, Service: hist(t, [2]int64{700, 10})},
	}})
	// 250 of 1000 done in 2 s: 750 more at 125/s is 6 s.
	f.set(250, 2*time.Second)
	d.update()
	got := lastFrame(buf.String())
	if want := "run: 250/1000 ops, 1250 ops/s, p99 700 µs, ETA 6s"; !strings.Contains(got, want) {
		t.Errorf("display %q lacks %q", got, want)
	}
	if !strings.Contains(got, "25%") {
		t.Errorf("display %q: the bar is not at 25%%", got)
	}
}

// TestProgressRunByTime: a run bounded by maxexecutiontime counts time
// against the limit, never past it.
func TestProgressRunByTime(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	f := &fakeRun{}
	d := f.display(&buf, "run:", 0, time.Minute)

	// A 1 s interval with 25 operations and no successful one: no p99.
	d.interval(&measure.Interval{Index: 11, StartNs: 11e9, EndNs: 12e9, Operations: 25})
	f.set(300, 12*time.Second+300*time.Millisecond)
	d.update()
	got := lastFrame(buf.String())
	if want := "run: 300 ops, 12s/1m0s, 25 ops/s"; !strings.Contains(got, want) || strings.Contains(got, "p99") || strings.Contains(got, "ETA") {
		t.Errorf("display %q: want %q, no p99, no ETA", got, want)
	}
	if !strings.Contains(got, "20%") {
		t.Errorf("display %q: 12 s of 60 is not 20%%", got)
	}

	// The workers' grace period runs past the limit.
	f.set(301, 61*time.Second)
	d.update()
	if got := lastFrame(buf.String()); !strings.Contains(got, "1m0s/1m0s") || !strings.Contains(got, "100%") {
		t.Errorf("past the limit: %q", got)
	}
}

// TestProgressLoad: a load shows the records done of the total, the rate
// and the time left, and ends on the full count.
func TestProgressLoad(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	f := &fakeRun{}
	d := f.display(&buf, "load:", 300, 0)

	d.interval(&measure.Interval{Index: 2, StartNs: 2e9, EndNs: 3e9, Operations: 50, Measurements: []measure.Measurement{
		{Name: "INSERT", Op: db.Insert, Service: hist(t, [2]int64{1200, 50})},
	}})
	// 150 of 300 in 3 s: 150 more at 50/s is 3 s.
	f.set(150, 3*time.Second)
	d.update()
	got := lastFrame(buf.String())
	if want := "load: 150/300 records, 50 ops/s, p99 1200 µs, ETA 3s"; !strings.Contains(got, want) || !strings.Contains(got, "50%") {
		t.Errorf("display %q: want %q at 50%%", got, want)
	}

	f.set(300, 6*time.Second)
	go d.run()
	d.finish(&buf)
	got = lastFrame(buf.String())
	if !strings.Contains(got, "load: 300/300 records") || !strings.Contains(got, "100%") || strings.Contains(got, "ETA") {
		t.Errorf("final display %q: want 300/300 at 100%%, no ETA", got)
	}
	if !strings.HasSuffix(buf.String(), "\n") {
		t.Error("the display does not end its line")
	}
}

// TestProgressTerminalCheck: /dev/null is a character device but no
// terminal, and a regular file is neither.
func TestProgressTerminalCheck(t *testing.T) {
	t.Parallel()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer null.Close()
	if fi, err := null.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatalf("%s is not a character device here (%v): the test means nothing", os.DevNull, err)
	}
	if IsTerminal(null) {
		t.Errorf("%s taken for a terminal", os.DevNull)
	}
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if IsTerminal(file) {
		t.Error("a regular file taken for a terminal")
	}
}
