package results

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
)

// recordRun drives a real collector for a few short intervals and hands
// every interval to sinks; it returns the collector's summary. Every 300
// operations it waits for an interval to close, so that the operations
// spread over several intervals however slowly the machine runs.
func recordRun(t *testing.T, sinks func(*measure.Interval), clock measure.Clock) *measure.Summary {
	t.Helper()
	c := measure.NewCollector(measure.Options{Interval: 20 * time.Millisecond, Service: true, Intended: true, Threads: 2}, clock)
	recs := []*measure.Recorder{c.NewRecorder(), c.NewRecorder()}
	closed := make(chan struct{}, 1)
	c.Start(func(iv *measure.Interval) {
		sinks(iv)
		select {
		case closed <- struct{}{}:
		default:
		}
	})
	for i := 0; i < 3000; i++ {
		if i%300 == 0 {
			// An interval that closed earlier does not count.
			select {
			case <-closed:
			default:
			}
			select {
			case <-closed:
			case <-time.After(time.Minute):
				t.Fatal("no interval closed within a minute")
			}
		}
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
		if err := j.Interval(iv); err != nil && werr == nil {
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

	// A killed run: the journal ends halfway through the last interval
	// line that holds operations. Everything before stays readable and is
	// marked partial. (The very last interval line may hold none: on a
	// busy machine the collector can close an empty interval at Stop.)
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	cut := len(lines) - 1
	for cut > 0 && !(strings.Contains(lines[cut], `"type":"interval"`) && strings.Contains(lines[cut], `"operations":`)) {
		cut--
	}
	torn := strings.Join(lines[:cut], "") + lines[cut][:len(lines[cut])/2]
	part, err := ReadJournal(strings.NewReader(torn))
	if err != nil {
		t.Fatal(err)
	}
	if !part.Partial {
		t.Error("a journal without its end line is not marked partial")
	}
	// The torn line was the last interval's that held operations: the
	// journal holds those of all the others, which are not none, since
	// recordRun spreads the operations over several intervals.
	var lost int64
	for _, iv := range want.Intervals {
		if iv.Operations > 0 {
			lost = iv.Operations
		}
	}
	if part.Operations != want.Operations-lost || part.Operations == 0 {
		t.Errorf("killed run: %d operations; want the %d of the run but for the torn interval's %d", part.Operations, want.Operations, lost)
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
	logs := export.NewHdrLogs(prefix, clock.StartTime())
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

// TestJournalMetricsRoundTrip writes a journal with the server and host
// metrics of its intervals, one of them without, and reads it back: the
// metrics come back on their intervals as a results file holds them, and as
// the extra section's time series; a killed run keeps those it had written.
func TestJournalMetricsRoundTrip(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.json"+JournalSuffix)
	clock := measure.NewClock()
	meta := Meta{Tool: Tool{Name: "mongobench", Version: "test"}, Phase: PhaseRun}
	j, err := CreateJournal(path, meta, clock)
	if err != nil {
		t.Fatal(err)
	}
	start := clock.StartTime()
	// metricsFor is what the observer would have sampled over interval i:
	// the same type the results file's intervals hold.
	metricsFor := func(i int) *metrics.IntervalMetrics {
		end := start.Add(time.Duration(i+1)*time.Second + 7*time.Millisecond)
		return &metrics.IntervalMetrics{
			Start: end.Add(-time.Second), End: end, ElapsedSec: 1,
			Server: &metrics.ServerInterval{
				Opcounters: metrics.OpRates{Query: metrics.Known(float64(100 * (i + 1)))},
				Cache:      &metrics.CacheInterval{HitRatio: metrics.Known(0.5)},
			},
			Host: &metrics.HostInterval{DescribesServer: true, CPU: &metrics.CPUInterval{NumCPU: 2, UserPct: metrics.Known(12.5)}},
		}
	}
	// Interval 1 gets no metrics, as when the run is killed between its
	// line and theirs; interval 3's come before its own line, as when the
	// sample is quicker than the collector.
	written := map[int]*metrics.IntervalMetrics{}
	var werr error
	sum := recordRun(t, func(iv *measure.Interval) {
		check := func(err error) {
			if err != nil && werr == nil {
				werr = err
			}
		}
		check(j.Interval(iv))
		for _, i := range map[int][]int{0: {0}, 2: {2, 3}}[iv.Index] {
			written[i] = metricsFor(i)
			check(j.Metrics(i, written[i]))
		}
	}, clock)
	if werr != nil {
		t.Fatal(werr)
	}
	if err := j.Close(false); err != nil {
		t.Fatal(err)
	}
	if len(sum.Intervals) < 4 {
		t.Fatalf("%d intervals: the test needs 4", len(sum.Intervals))
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadJournal(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// Metrics are compared as their JSON: the times read back have lost
	// the monotonic clock reading of those written.
	asRead := func(v any) any {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var out any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if len(got.Intervals) != len(sum.Intervals) {
		t.Fatalf("%d intervals read back, %d written", len(got.Intervals), len(sum.Intervals))
	}
	for _, iv := range got.Intervals {
		w, ok := written[iv.Index]
		switch {
		case !ok && iv.Metrics != nil:
			t.Errorf("interval %d: metrics %v, none written", iv.Index, iv.Metrics)
		case ok && !reflect.DeepEqual(asRead(iv.Metrics), asRead(w)):
			t.Errorf("interval %d metrics:\n got %v\nwant %v", iv.Index, asRead(iv.Metrics), asRead(w))
		}
	}
	// The restored metrics decode into the sampler's type again.
	var back metrics.IntervalMetrics
	if err := json.Unmarshal(mustJSON(t, got.Intervals[0].Metrics), &back); err != nil {
		t.Fatal(err)
	}
	if v, ok := back.Server.Opcounters.Query.Get(); !ok || v != 100 || !back.Host.DescribesServer {
		t.Errorf("interval 0 metrics decode to %+v", back)
	}

	// The time series are those of the written metrics, in interval order,
	// each at its sample's end: 1.007 s after the start for interval 0.
	if got.Extra == nil {
		t.Fatal("no extra section")
	}
	server, host := got.Extra.ServerMetrics, got.Extra.HostMetrics
	if len(server) != len(written) || len(host) != len(written) {
		t.Fatalf("extra: %d server and %d host samples, want %d", len(server), len(host), len(written))
	}
	if first := server[0]; first.T < 1.0069 || first.T > 1.0071 || !reflect.DeepEqual(asRead(first.Server), asRead(written[0].Server)) {
		t.Errorf("first server sample = %+v", first)
	}

	// A killed run: the end line and half of the last interval line are
	// missing; the metrics written before stay.
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	torn := strings.Join(lines[:len(lines)-2], "") + lines[len(lines)-2][:len(lines[len(lines)-2])/2]
	part, err := ReadJournal(strings.NewReader(torn))
	if err != nil {
		t.Fatal(err)
	}
	if !part.Partial || len(part.Intervals) != len(got.Intervals)-1 {
		t.Fatalf("killed run: partial %v, %d intervals of %d", part.Partial, len(part.Intervals), len(got.Intervals))
	}
	if !reflect.DeepEqual(asRead(part.Intervals[0].Metrics), asRead(written[0])) {
		t.Errorf("killed run lost interval 0's metrics: %v", part.Intervals[0].Metrics)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadJournalRefusesDamage gives ReadJournal journals damaged beyond
// what a killed run leaves (a torn last line): each is refused, saying
// what is wrong, rather than read as a run that did little or nothing.
func TestReadJournalRefusesDamage(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "run.json"+JournalSuffix)
	clock := measure.NewClock()
	j, err := CreateJournal(path, Meta{Tool: Tool{Name: "mongobench", Version: "test"}, Phase: PhaseRun}, clock)
	if err != nil {
		t.Fatal(err)
	}
	recordRun(t, func(iv *measure.Interval) {
		if err := j.Interval(iv); err != nil {
			t.Error(err)
		}
	}, clock)
	if err := j.Close(false); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	header, end := lines[0], lines[len(lines)-1]
	// Intervals with measurements: an interval may close empty.
	var intervals []string
	for _, l := range lines {
		if strings.Contains(l, `"type":"interval"`) && strings.Contains(l, `"histogram":"`) {
			intervals = append(intervals, l)
		}
	}
	if len(intervals) < 2 || !strings.Contains(end, `"type":"end"`) {
		t.Fatalf("the journal has %d intervals and ends with %q: too little to damage", len(intervals), end)
	}
	first := intervals[0]
	histogram := regexp.MustCompile(`"histogram":"[^"]*"`)
	for _, tc := range []struct{ name, journal, want string }{
		{"empty", "", "no header line"},
		{"the header only (killed before its first interval)", header, "no interval"},
		{"the header and the end line, no interval", header + end, "no interval"},
		{"the header cut short", header[:len(header)/2], "no header line"},
		{"a header without its start", strings.Replace(header, `"start":`, `"begun":`, 1) + first + end, "no start time"},
		{"an interval before the header", first + header + end, "before the header"},
		{"a line torn in the middle, not at the end", header + first[:len(first)/2] + "\n" + intervals[1] + end, "journal line 2"},
		{"an interval's histogram damaged", header + histogram.ReplaceAllString(first, `"histogram":"HISTFAAAAEV4nJNpmSzMwMDAxgABzFCaEUoz2X-AsQAAAAA="`) + end, "histogram"},
		{"an interval's histogram not base64", header + histogram.ReplaceAllString(first, `"histogram":"!!"`) + end, "decode histogram"},
		{"an unknown operation", header + regexp.MustCompile(`"op":"[A-Z]+"`).ReplaceAllString(first, `"op":"FR OB"`) + end, `unknown operation "FR OB"`},
		{"a newer format", strings.Replace(header, `"format_version":2`, `"format_version":99`, 1) + first + end, "format_version 99"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := ReadJournal(strings.NewReader(tc.journal))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ReadJournal: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
