package export

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
)

// recordRun drives a real collector for a few short intervals and hands
// every interval to sinks; it returns the collector's summary.
func recordRun(t *testing.T, sinks func(*measure.Interval), clock measure.Clock) *measure.Summary {
	t.Helper()
	c := measure.NewCollector(measure.Options{Interval: 20 * time.Millisecond, Service: true, Intended: true, Threads: 2}, clock)
	recs := []*measure.Recorder{c.NewRecorder(), c.NewRecorder()}
	c.Start(sinks)
	for i := 0; i < 3000; i++ {
		now := clock.Now()
		st := db.OK
		if i%97 == 0 {
			st = db.NotFound
		}
		op := db.Read
		if i%3 == 0 {
			op = db.Update
		}
		lat := int64(50_000 + (i%500)*1_000)
		recs[i%2].Record(op, st, now-lat-int64(i%7)*1000, now-lat, now)
		if i%300 == 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	return c.Stop()
}

func TestJournalRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.json"+JournalSuffix)
	clock := measure.NewClock()
	meta := Meta{Tool: Tool{Name: "mongobench", Version: "test"}, Phase: PhaseRun, Label: "j", Config: map[string]string{"threadcount": "2"}}
	j, err := CreateJournal(path, meta, clock)
	if err != nil {
		t.Fatal(err)
	}
	var werr error
	sum := recordRun(t, func(iv *measure.Interval) {
		if err := j.Interval(iv, map[string]any{"k": 1}); err != nil && werr == nil {
			werr = err
		}
	}, clock)
	if werr != nil {
		t.Fatal(werr)
	}
	if err := j.Close(false); err != nil {
		t.Fatal(err)
	}
	want, err := NewResults(sum, meta)
	if err != nil {
		t.Fatal(err)
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadJournal(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got.Partial {
		t.Error("a journal with its end line read as partial")
	}
	if got.Operations != want.Operations || got.Operations != 3000 {
		t.Errorf("operations: journal %d, results %d, want 3000", got.Operations, want.Operations)
	}
	if len(got.Intervals) != len(want.Intervals) {
		t.Errorf("intervals: journal %d, results %d", len(got.Intervals), len(want.Intervals))
	}
	compareMeasurements(t, got, want)
	if got.Status["READ"]["NOT_FOUND"] != want.Status["READ"]["NOT_FOUND"] || got.Status["READ"]["NOT_FOUND"] == 0 {
		t.Errorf("status counts: journal %v, results %v", got.Status, want.Status)
	}

	// A killed run: the end line and half of the last interval line are
	// missing. Everything before stays readable and is marked partial.
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	torn := strings.Join(lines[:len(lines)-2], "") + lines[len(lines)-2][:len(lines[len(lines)-2])/2]
	part, err := ReadJournal(strings.NewReader(torn))
	if err != nil {
		t.Fatal(err)
	}
	if !part.Partial {
		t.Error("a journal without its end line is not marked partial")
	}
	if part.Operations >= want.Operations || part.Operations == 0 {
		t.Errorf("killed run: %d operations of %d", part.Operations, want.Operations)
	}
}

func compareMeasurements(t *testing.T, got, want *Results) {
	t.Helper()
	if len(got.Measurements) != len(want.Measurements) {
		t.Fatalf("measurements: got %d, want %d", len(got.Measurements), len(want.Measurements))
	}
	for i := range want.Measurements {
		g, w := got.Measurements[i], want.Measurements[i]
		if g.Name != w.Name {
			t.Errorf("measurement %d: %s, want %s", i, g.Name, w.Name)
			continue
		}
		for _, pair := range [][2]*LatencyResult{{g.Service, w.Service}, {g.Intended, w.Intended}} {
			gh, err1 := decodeHistogram(pair[0])
			wh, err2 := decodeHistogram(pair[1])
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !gh.Equals(wh) {
				t.Errorf("%s: journal histogram (count %d) differs from the run's (count %d)", g.Name, gh.TotalCount(), wh.TotalCount())
			}
		}
	}
}

// TestHdrLogsReadBack writes interval logs and reads them with
// hdrhistogram-go's log reader: the intervals add up to the summary.
func TestHdrLogsReadBack(t *testing.T) {
	t.Parallel()
	prefix := filepath.Join(t.TempDir(), "run-")
	clock := measure.NewClock()
	logs := NewHdrLogs(prefix, clock.StartTime())
	var werr error
	sum := recordRun(t, func(iv *measure.Interval) {
		if err := logs.Interval(iv, clock); err != nil && werr == nil {
			werr = err
		}
	}, clock)
	if err := logs.Close(); err != nil || werr != nil {
		t.Fatal(err, werr)
	}
	for _, m := range sum.Measurements {
		for _, kind := range []struct {
			file string
			h    *hdrhistogram.Histogram
		}{{m.Name, m.Service}, {"Intended-" + m.Name, m.Intended}} {
			f, err := os.Open(prefix + kind.file + ".hdr")
			if err != nil {
				t.Fatal(err)
			}
			r := hdrhistogram.NewHistogramLogReader(f)
			total := measure.NewHistogram()
			n := 0
			for {
				h, err := r.NextIntervalHistogram()
				if err == io.EOF || (err == nil && h == nil) {
					break
				}
				if err != nil {
					t.Fatalf("%s: %v", kind.file, err)
				}
				total.Merge(h)
				n++
			}
			f.Close()
			if n == 0 {
				t.Errorf("%s.hdr holds no interval", kind.file)
			}
			if !total.Equals(kind.h) {
				t.Errorf("%s.hdr: intervals add up to %d values (p99 %d), summary has %d (p99 %d)",
					kind.file, total.TotalCount(), total.ValueAtQuantile(99), kind.h.TotalCount(), kind.h.ValueAtQuantile(99))
			}
		}
	}
}
