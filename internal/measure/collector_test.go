package measure

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct{ ns atomic.Int64 }

func (f *fakeClock) now() int64 { return f.ns.Load() }

// newFakeCollector returns a collector whose time is fc.
func newFakeCollector(opts Options) (*Collector, *fakeClock) {
	c := NewCollector(opts, NewClock())
	fc := &fakeClock{}
	c.now = fc.now
	return c, fc
}

const ms = int64(time.Millisecond)

func TestRingSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		threads, want int
	}{
		{0, 8192},
		{1, 8192},
		{4, 8192}, // 1 MiB / 4 / 32 B = 8192 exactly
		{5, 4096},
		{64, 512},
		{100, 256},  // 327 → 256
		{1000, 32},  // 32.8 → 32
		{1024, 32},  // 32 exactly
		{10000, 32}, // floor
	}
	for _, tt := range tests {
		if got := ringSize(tt.threads); got != tt.want {
			t.Errorf("ringSize(%d) = %d, want %d", tt.threads, got, tt.want)
		}
	}
	if sampleSize != 32 {
		t.Errorf("sampleSize = %d, want 32 (the ring sizing assumes it)", sampleSize)
	}
	// The goal the budget serves: the rings of 1,000 workers in 1 MiB.
	if got := 1000 * ringSize(1000) * sampleSize; got > 1<<20 {
		t.Errorf("rings of 1000 workers take %d bytes, want at most 1 MiB", got)
	}
}

func TestBurstRecorderRingSize(t *testing.T) {
	t.Parallel()
	c := NewCollector(Options{Threads: 1000}, NewClock())
	tests := []struct {
		burst, want int
	}{
		{0, 32},
		{1, 32},
		{32, 32},
		{33, 64},
		{64, 64},
		{65, 128},
		{101, 128}, // a load batch of 100 and its INSERT-BATCH sample
		{1001, 1024},
		{100_000, 8192}, // capped: such a batch waits for the collector
	}
	for _, tt := range tests {
		if got := len(c.NewBurstRecorder(tt.burst).buf); got != tt.want {
			t.Errorf("NewBurstRecorder(%d) ring = %d, want %d", tt.burst, got, tt.want)
		}
	}
	c.Stop()
}

// A burst that fits the ring is recorded without waiting, even while the
// collector drains nothing: Start is not called until it is all in.
func TestBurstRecorderTakesBurstWithoutWaiting(t *testing.T) {
	t.Parallel()
	c, fc := newFakeCollector(Options{Threads: 1000})
	const batch = 100
	r := c.NewBurstRecorder(batch + 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Record(db.InsertBatch, db.OK, 0, ms, 2*ms)
		for range batch {
			r.Record(db.Insert, db.OK, 0, ms, 2*ms)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.Stop() // lets the waiting Record return
		<-done
		t.Fatal("recording the burst was still waiting for room after 10 s")
	}
	c.Start(nil)
	fc.ns.Store(3 * ms)
	s := c.Stop()
	if s.RecordStalls != 0 {
		t.Errorf("RecordStalls = %d, want 0", s.RecordStalls)
	}
	if got := s.Status[db.Insert][db.OK]; got != batch {
		t.Errorf("%d inserts recorded, want %d", got, batch)
	}
}

func TestCollectorCountsAndNames(t *testing.T) {
	t.Parallel()
	c, fc := newFakeCollector(Options{Interval: time.Second, Service: true, Intended: true})
	r := c.NewRecorder()
	c.Start(nil)
	// Reads: two OK, one NOT_FOUND. Updates: all failed. One CLEANUP and
	// one READ inside a READ-MODIFY-WRITE, neither counted as operations.
	r.Record(db.Read, db.OK, 0, 10*ms, 10*ms+100_000)        // 100 µs
	r.Record(db.Read, db.OK, 0, 11*ms, 11*ms+300_000)        // 300 µs service, 11300 intended
	r.Record(db.Read, db.NotFound, 12*ms, 12*ms, 12*ms+7000) // 7 µs
	r.Record(db.Update, db.Error, 13*ms, 13*ms, 13*ms+5000)
	r.Record(db.Update, db.Timeout, 13*ms, 13*ms, 13*ms+9000)
	r.Record(db.Cleanup, db.OK, 14*ms, 14*ms, 14*ms+1000)
	r.RecordPart(db.Read, db.OK, 15*ms, 15*ms, 15*ms+2000)
	r.Record(db.ReadModifyWrite, db.OK, 15*ms, 15*ms, 15*ms+4000)
	fc.ns.Store(20 * ms)
	s := c.Stop()

	if s.Operations != 6 {
		t.Errorf("Operations = %d, want 6 (3 reads, 2 updates, 1 RMW; not CLEANUP nor the nested READ)", s.Operations)
	}
	wantStatus := map[[2]int]int64{
		{int(db.Read), int(db.OK)}:            3,
		{int(db.Read), int(db.NotFound)}:      1,
		{int(db.Update), int(db.Error)}:       1,
		{int(db.Update), int(db.Timeout)}:     1,
		{int(db.Cleanup), int(db.OK)}:         1,
		{int(db.ReadModifyWrite), int(db.OK)}: 1,
	}
	for op := range db.NumOps {
		for st := range db.NumStatuses {
			if got, want := s.Status[op][st], wantStatus[[2]int{op, st}]; got != want {
				t.Errorf("Status[%v][%v] = %d, want %d", db.Op(op), db.Status(st), got, want)
			}
		}
	}

	type row struct {
		name  string
		count int64
		min   int64
		max   int64
	}
	var got []row
	for _, m := range s.Measurements {
		if m.Service == nil || m.Intended == nil {
			t.Fatalf("%s: service %v intended %v, want both recorded", m.Name, m.Service, m.Intended)
		}
		if m.Name != MeasurementName(m.Op, m.Failed) {
			t.Errorf("measurement %q for (%v, failed=%v)", m.Name, m.Op, m.Failed)
		}
		got = append(got, row{m.Name, m.Service.TotalCount(), m.Service.Min(), m.Service.Max()})
	}
	want := []row{
		{"READ", 3, 2, 300},
		{"READ-FAILED", 1, 7, 7},
		// Every update failed: READ-style own section, empty, for the status counts.
		{"UPDATE", 0, 0, 0},
		{"UPDATE-FAILED", 2, 5, 9},
		{"READ-MODIFY-WRITE", 1, 4, 4},
		{"CLEANUP", 1, 1, 1},
	}
	if len(got) != len(want) {
		t.Fatalf("measurements = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("measurement %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// Intended latency counts from the intended start, 0 here for the first
	// two reads: 10.1 ms and 11.3 ms.
	if got := s.Measurements[0].Intended.Max(); got != 11303 && got != 11300 {
		// 11300 µs lies in an 8-wide bucket: Max reports its highest value.
		t.Errorf("READ intended max = %d, want about 11300", got)
	}
	if got := s.Measurements[0].Intended.Min(); got != 2 {
		t.Errorf("READ intended min = %d, want 2 (the nested read started on time)", got)
	}
}

func TestCollectorServiceOnlyByDefault(t *testing.T) {
	t.Parallel()
	c, fc := newFakeCollector(Options{})
	r := c.NewRecorder()
	c.Start(nil)
	r.Record(db.Insert, db.OK, 0, 0, 5000)
	fc.ns.Store(ms)
	s := c.Stop()
	if len(s.Measurements) != 1 || s.Measurements[0].Service == nil || s.Measurements[0].Intended != nil {
		t.Fatalf("measurements = %+v, want one with service latency only", s.Measurements)
	}
}

func TestCollectorIntervals(t *testing.T) {
	t.Parallel()
	c, fc := newFakeCollector(Options{Interval: 10 * time.Millisecond, Service: true})
	r := c.NewRecorder()
	var mu sync.Mutex
	var seen []Interval
	var counts [][]int64
	c.Start(func(iv *Interval) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, *iv)
		var n []int64
		for _, m := range iv.Measurements {
			n = append(n, m.Service.TotalCount())
		}
		counts = append(counts, n)
	})
	// Interval 0 is [0, 10 ms), 1 is [10, 20), 2 is [20, 30); the run
	// stops at 34 ms. Samples belong to the interval of their end time.
	r.Record(db.Read, db.OK, 0, 1*ms, 2*ms)
	r.Record(db.Read, db.OK, 0, 8*ms, 9*ms+999_999) // ends just before 10 ms
	r.Record(db.Read, db.Error, 0, 9*ms, 10*ms)     // ends on the boundary: interval 1
	r.Record(db.Update, db.OK, 0, 25*ms, 26*ms)
	r.Record(db.Update, db.OK, 0, 30*ms, 33*ms)
	fc.ns.Store(34 * ms)
	s := c.Stop()

	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 4 {
		t.Fatalf("got %d intervals, want 4", len(seen))
	}
	wantOps := []int64{2, 1, 1, 1}
	wantBounds := [][2]int64{{0, 10 * ms}, {10 * ms, 20 * ms}, {20 * ms, 30 * ms}, {30 * ms, 34 * ms}}
	wantNames := [][]string{{"READ"}, {"READ-FAILED"}, {"UPDATE"}, {"UPDATE"}}
	for i, iv := range seen {
		if iv.Index != i {
			t.Errorf("interval %d: Index %d", i, iv.Index)
		}
		if iv.Operations != wantOps[i] {
			t.Errorf("interval %d: %d operations, want %d", i, iv.Operations, wantOps[i])
		}
		if iv.StartNs != wantBounds[i][0] || iv.EndNs != wantBounds[i][1] {
			t.Errorf("interval %d: [%d, %d), want %v", i, iv.StartNs, iv.EndNs, wantBounds[i])
		}
		var names []string
		for _, m := range iv.Measurements {
			names = append(names, m.Name)
		}
		if len(names) != len(wantNames[i]) || names[0] != wantNames[i][0] {
			t.Errorf("interval %d: measurements %v, want %v", i, names, wantNames[i])
		}
		if counts[i][0] != iv.Operations {
			t.Errorf("interval %d: histogram holds %d, want %d", i, counts[i][0], iv.Operations)
		}
	}
	if len(s.Intervals) != 4 {
		t.Fatalf("summary has %d intervals, want 4", len(s.Intervals))
	}
	if got := s.Intervals[0].OpsPerSec; got != 200 {
		t.Errorf("interval 0: %v ops/s, want 200 (2 in 10 ms)", got)
	}
	if got := s.Intervals[3].OpsPerSec; got != 250 {
		t.Errorf("last interval: %v ops/s, want 250 (1 in 4 ms)", got)
	}
	if got := s.Intervals[0].Measurements[0].Service; got == nil || got.Count != 2 || got.Max != 1999 {
		t.Errorf("interval 0 READ stats = %+v, want count 2, max 1999", got)
	}
	if s.StartNs != 0 || s.EndNs != 34*ms || s.Runtime() != 34*time.Millisecond {
		t.Errorf("run [%d, %d], want [0, 34 ms]", s.StartNs, s.EndNs)
	}
	// The cumulative histograms add the intervals up.
	if got := s.Measurements[0].Service.TotalCount(); s.Measurements[0].Name != "READ" || got != 2 {
		t.Errorf("cumulative %s = %d, want READ = 2", s.Measurements[0].Name, got)
	}
}

func TestCollectorClamps(t *testing.T) {
	t.Parallel()
	c, fc := newFakeCollector(Options{Interval: time.Hour, Service: true, Intended: true})
	r := c.NewRecorder()
	c.Start(nil)
	twoHours := int64(2 * time.Hour)
	r.Record(db.Read, db.OK, 0, 0, twoHours)                     // above the range: both kinds
	r.Record(db.Read, db.OK, twoHours+ms, twoHours-ms, twoHours) // intended start after the end
	fc.ns.Store(twoHours + 2*ms)
	s := c.Stop()
	if s.Clamped != 3 {
		t.Errorf("Clamped = %d, want 3", s.Clamped)
	}
	m := s.Measurements[0]
	if got := m.Service.Max(); !m.Service.ValuesAreEquivalent(got, HighestTrackableUs) {
		t.Errorf("service max = %d, want the top of the range", got)
	}
	if got := m.Intended.Min(); got != 0 {
		t.Errorf("intended min = %d, want 0", got)
	}
}

func TestCollectorStopWithoutStart(t *testing.T) {
	t.Parallel()
	c, fc := newFakeCollector(Options{Interval: time.Second})
	r := c.NewRecorder()
	fc.ns.Store(5 * ms)
	r.Record(db.Delete, db.NotFound, 0, ms, 2*ms)
	s := c.Stop()
	if s.Status[db.Delete][db.NotFound] != 1 || s.Operations != 1 {
		t.Errorf("status %d, operations %d; want 1 and 1", s.Status[db.Delete][db.NotFound], s.Operations)
	}
	if c.Stop() != s {
		t.Error("second Stop returned a different summary")
	}
}

// TestCollectorLosesNothing records from many goroutines through small
// rings, so that workers stall and intervals close while they record, and
// checks that every figure adds up exactly. Run it with -race too.
func TestCollectorLosesNothing(t *testing.T) {
	t.Parallel()
	const (
		workers = 16
		perOp   = 3000
	)
	clock := NewClock()
	// 4096 threads gives the smallest rings (64 samples).
	c := NewCollector(Options{Interval: 2 * time.Millisecond, Service: true, Intended: true, Threads: 4096}, clock)
	recs := make([]*Recorder, workers)
	for i := range recs {
		recs[i] = c.NewRecorder()
	}
	var ivOps atomic.Int64
	var ivCount int
	c.Start(func(iv *Interval) {
		ivCount++
		ivOps.Add(iv.Operations)
		var sum int64
		for op := range iv.Status {
			if !CountsAsOperation(db.Op(op)) {
				continue
			}
			for _, n := range iv.Status[op] {
				sum += n
			}
		}
		if sum != iv.Operations {
			t.Errorf("interval %d: status counts %d, operations %d", iv.Index, sum, iv.Operations)
		}
	})
	ops := []db.Op{db.Read, db.Update, db.Insert, db.Scan}
	statuses := []db.Status{db.OK, db.OK, db.NotFound, db.Error}
	var wg sync.WaitGroup
	for w, r := range recs {
		wg.Go(func() {
			for i := range perOp * len(ops) {
				start := clock.Now()
				end := clock.Now()
				r.Record(ops[i%len(ops)], statuses[(i+w)%len(statuses)], start, start, end)
			}
		})
	}
	wg.Wait()
	s := c.Stop()

	total := int64(workers * perOp * len(ops))
	if s.Operations != total {
		t.Errorf("Operations = %d, want %d", s.Operations, total)
	}
	if got := ivOps.Load(); got != total {
		t.Errorf("sum over intervals = %d, want %d", got, total)
	}
	var fromStats int64
	for _, iv := range s.Intervals {
		fromStats += iv.Operations
	}
	if fromStats != total || len(s.Intervals) != ivCount {
		t.Errorf("interval stats: %d intervals, %d operations; want %d and %d", len(s.Intervals), fromStats, ivCount, total)
	}
	var hist, status int64
	for _, m := range s.Measurements {
		hist += m.Service.TotalCount()
		if m.Intended.TotalCount() != m.Service.TotalCount() {
			t.Errorf("%s: intended %d, service %d", m.Name, m.Intended.TotalCount(), m.Service.TotalCount())
		}
	}
	for op := range s.Status {
		for _, n := range s.Status[op] {
			status += n
		}
	}
	if hist != total || status != total {
		t.Errorf("histograms hold %d, statuses %d; want %d", hist, status, total)
	}
	for _, op := range ops {
		want := int64(workers * perOp / 2)
		if got := s.Status[op][db.OK]; got != want {
			t.Errorf("%v OK = %d, want %d", op, got, want)
		}
	}
	t.Logf("%d intervals, %d stalls", len(s.Intervals), s.RecordStalls)
}

// The smallest rings, 1,000 of them, fed at 500 samples per second each:
// over three times what a client that fast reaches against a null server,
// since its workers share two to a few dozen CPUs. A 32-slot ring holds
// more than 50 ms of such a worker, ten drain periods: drained every
// drainPeriod, or even 50 ms late, none waits. Decided on the collector's
// own steps, not on the scheduler: each round every worker records a tenth
// of a second of samples on a fake clock, then the rings are drained once,
// as the collector's goroutine does.
func TestSmallRingsKeepPaceAtHighThreadCounts(t *testing.T) {
	t.Parallel()
	const (
		workers = 1000
		every   = 2 * ms // 500 samples per second
		late    = 50 * ms
		perLate = int(late / every)
		rounds  = 6
	)
	c, fc := newFakeCollector(Options{Interval: 50 * time.Millisecond, Threads: workers})
	recs := make([]*Recorder, workers)
	for i := range recs {
		recs[i] = c.NewRecorder()
	}
	if n := len(recs[0].buf); n != minRingSize || n <= perLate {
		t.Fatalf("ring of %d slots at %d threads, want the smallest, %d, over the %d samples of 50 ms", n, workers, minRingSize, perLate)
	}
	if drainPeriod > time.Duration(late) {
		t.Fatalf("drainPeriod %v is longer than the 50 ms a ring holds", drainPeriod)
	}
	var recorded int64
	for round := range rounds {
		var wg sync.WaitGroup
		for _, r := range recs {
			wg.Go(func() {
				for i := range perLate {
					end := int64(round)*late + int64(i)*every
					r.Record(db.Read, db.OK, end, end, end)
				}
			})
		}
		wg.Wait()
		recorded += int64(workers * perLate)
		fc.ns.Store(int64(round+1) * late)
		c.drainAll(fc.now())
	}
	s := c.Stop()
	if s.Operations != recorded {
		t.Errorf("Operations = %d, want %d", s.Operations, recorded)
	}
	if s.RecordStalls != 0 {
		t.Errorf("%d of %d samples waited for room", s.RecordStalls, s.Operations)
	}
}

func TestRecordDoesNotAllocate(t *testing.T) {
	c := NewCollector(Options{Service: true, Intended: true}, NewClock())
	r := c.NewRecorder()
	c.Start(nil)
	defer c.Stop()
	allocs := testing.AllocsPerRun(10000, func() {
		r.Record(db.Read, db.OK, 1, 2, 3)
	})
	if allocs != 0 {
		t.Errorf("Record allocates %v times per call, want 0", allocs)
	}
}

func TestRecordAfterStopDoesNotHang(t *testing.T) {
	t.Parallel()
	c := NewCollector(Options{Threads: 4096}, NewClock())
	r := c.NewRecorder()
	c.Stop()
	for range 2 * len(r.buf) {
		r.Record(db.Read, db.OK, 0, 0, 1)
	}
}

func BenchmarkRecord(b *testing.B) {
	c := NewCollector(Options{Service: true, Intended: true, Threads: 1}, NewClock())
	r := c.NewRecorder()
	c.Start(nil)
	b.ReportAllocs()
	// Timestamps stay in the first interval: a sample ending past the
	// interval's end waits in its ring until the clock gets there.
	for i := int64(0); b.Loop(); i++ {
		r.Record(db.Read, db.OK, 0, 500, 200_000+i&1023)
	}
	b.StopTimer()
	s := c.Stop()
	b.ReportMetric(float64(s.RecordStalls)/float64(b.N), "stalls/op")
}

func BenchmarkRecordParallel(b *testing.B) {
	const recorders = 64
	c := NewCollector(Options{Service: true, Intended: true, Threads: recorders}, NewClock())
	pool := make(chan *Recorder, recorders)
	for range recorders {
		pool <- c.NewRecorder()
	}
	c.Start(nil)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		r := <-pool
		var i int64
		for pb.Next() {
			i++
			r.Record(db.Update, db.OK, 0, 500, 200_000+i&1023)
		}
		pool <- r
	})
	b.StopTimer()
	s := c.Stop()
	b.ReportMetric(float64(s.RecordStalls)/float64(b.N), "stalls/op")
}

// TestCollectorScheduleLag: the lag is start − intended of every operation,
// in µs; parts of a composite operation and what is not an operation
// (INSERT-BATCH, VERIFY) are left out, failures are not.
func TestCollectorScheduleLag(t *testing.T) {
	t.Parallel()
	for _, on := range []bool{false, true} {
		c, fc := newFakeCollector(Options{Service: true, Intended: true, ScheduleLag: on})
		r := c.NewRecorder()
		c.Start(nil)
		r.Record(db.Read, db.OK, 1*ms, 1*ms+7_000, 2*ms)            // 7 µs
		r.Record(db.Update, db.Error, 2*ms, 2*ms+30_999, 3*ms)      // 30 µs, truncated
		r.RecordPart(db.Read, db.OK, 3*ms, 3*ms+900_000, 4*ms)      // a part: not counted
		r.Record(db.ReadModifyWrite, db.OK, 3*ms, 3*ms+5_000, 4*ms) // 5 µs
		r.Record(db.InsertBatch, db.OK, 4*ms, 5*ms, 6*ms)           // not an operation
		r.Record(db.Read, db.OK, 6*ms, 8*ms+500_000, 9*ms)          // 2500 µs: late
		fc.ns.Store(10 * ms)
		s := c.Stop()
		if !on {
			if s.ScheduleLag != nil {
				t.Errorf("schedule lag recorded without ScheduleLag: %d values", s.ScheduleLag.TotalCount())
			}
			continue
		}
		h := s.ScheduleLag
		got := Percentiles(h, []float64{0, 50, 75, 100})
		want := []int64{5, 7, 30, 2500}
		for i := range want {
			if !h.ValuesAreEquivalent(got[i], want[i]) {
				t.Errorf("lag %d values, min/p50/p75/max %v µs, want 4 values, %v", h.TotalCount(), got, want)
				break
			}
		}
		if h.TotalCount() != 4 {
			t.Errorf("lag holds %d values, want 4", h.TotalCount())
		}
	}
}

// TestCollectorIntervalScheduleLag: each interval carries the lag of the
// operations that ended in it, and the summary's lag adds them up.
func TestCollectorIntervalScheduleLag(t *testing.T) {
	t.Parallel()
	c, fc := newFakeCollector(Options{Interval: 10 * time.Millisecond, Service: true, Intended: true, ScheduleLag: true})
	r := c.NewRecorder()
	var lags [][]int64 // per interval: count, max; nil when the interval had none
	c.Start(func(iv *Interval) {
		if iv.ScheduleLag == nil {
			lags = append(lags, nil)
			return
		}
		lags = append(lags, []int64{iv.ScheduleLag.TotalCount(), iv.ScheduleLag.Max()})
	})
	r.Record(db.Read, db.OK, 1*ms, 1*ms+7_000, 2*ms)  // interval 0: 7 µs
	r.Record(db.Read, db.OK, 2*ms, 2*ms+40_000, 3*ms) // interval 0: 40 µs
	r.Record(db.Update, db.OK, 21*ms, 23*ms, 24*ms)   // interval 2: 2000 µs
	r.RecordPart(db.Read, db.OK, 25*ms, 29*ms, 29*ms) // a part: no lag anywhere
	fc.ns.Store(30 * ms)
	s := c.Stop()

	want := [][]int64{{2, 40}, nil, {1, 2000}, nil}
	if len(lags) != len(want) {
		t.Fatalf("got %d intervals, want %d", len(lags), len(want))
	}
	for i := range want {
		if fmt.Sprint(lags[i]) != fmt.Sprint(want[i]) {
			t.Errorf("interval %d: lag count, max = %v, want %v", i, lags[i], want[i])
		}
	}
	if n := s.ScheduleLag.TotalCount(); n != 3 || s.ScheduleLag.Max() != 2000 {
		t.Errorf("summary lag: %d values, max %d, want 3, max 2000", n, s.ScheduleLag.Max())
	}
}
