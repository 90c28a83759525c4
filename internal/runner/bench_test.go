package runner

import (
	"context"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/selfmon"
	"github.com/mongobench/mongobench/internal/workload"
)

// nopDB answers every call at once, so that a benchmark measures the
// runner, the workload and the recording path without a database.
type nopDB struct{ calls *atomic.Int64 }

func (d nopDB) Read(context.Context, string, string, []string, db.FieldVisitor) error {
	d.calls.Add(1)
	return nil
}

func (d nopDB) Scan(context.Context, string, string, int, []string, db.FieldVisitor) error {
	d.calls.Add(1)
	return nil
}

func (d nopDB) Update(context.Context, string, string, []db.Field) error {
	d.calls.Add(1)
	return nil
}

func (d nopDB) Insert(context.Context, string, string, []db.Field) error {
	d.calls.Add(1)
	return nil
}

func (d nopDB) Delete(context.Context, string, string) error {
	d.calls.Add(1)
	return nil
}

func (d nopDB) InsertBatch(_ context.Context, _ string, keys []string, _ [][]db.Field) error {
	d.calls.Add(int64(len(keys)))
	return nil
}

func (d nopDB) Close() error { return nil }

func benchSpec(b testing.TB, transactions bool, threads int, kv ...string) *workload.Spec {
	b.Helper()
	p := workload.NewProperties()
	for k, v := range map[string]string{
		"recordcount": "1000000", "operationcount": "1000000", "threadcount": strconv.Itoa(threads),
		"readproportion": "1", "updateproportion": "0", "requestdistribution": "zipfian",
	} {
		p.Set(k, v, "bench")
	}
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1], "bench")
	}
	spec, _, err := workload.Resolve(p, transactions)
	if err != nil {
		b.Fatal(err)
	}
	return spec
}

// BenchmarkSessionRead is the recording path of one operation: two clock
// reads around the binding's call and one sample into the worker's ring,
// with the collector draining the ring as in a run.
func BenchmarkSessionRead(b *testing.B) {
	clock := measure.NewClock()
	c := measure.NewCollector(measure.Options{Threads: 1}, clock)
	var calls, abandoned atomic.Int64
	s := &session{db: nopDB{&calls}, rec: c.NewRecorder(), clock: SystemClock(clock), runCtx: context.Background(), abandoned: &abandoned}
	c.Start(nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Read(ctx, "usertable", "user1", nil, nil)
	}
	sum := c.Stop()
	if sum.Operations != int64(b.N) || calls.Load() != int64(b.N) {
		b.Fatalf("%d calls, %d operations recorded; want %d", calls.Load(), sum.Operations, b.N)
	}
}

// BenchmarkRunNop is a whole phase against a binding that answers at once:
// workload, workers, sessions, recorders and collector, per operation.
func BenchmarkRunNop(b *testing.B) {
	cases := []struct {
		name         string
		transactions bool
		threads      int
		batch        int
	}{
		{"run/threads=1", true, 1, 1},
		{"run/threads=16", true, 16, 1},
		{"run/threads=1000", true, 1000, 1},
		{"load/threads=16/batchsize=1", false, 16, 1},
		{"load/threads=16/batchsize=100", false, 16, 100},
		{"load/threads=1000/batchsize=100", false, 1000, 100},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			spec := benchSpec(b, c.transactions, c.threads)
			core, err := workload.NewCore(spec, spec.RecordCount, 1)
			if err != nil {
				b.Fatal(err)
			}
			clock := measure.NewClock()
			collector := measure.NewCollector(measure.Options{Threads: c.threads}, clock)
			var calls atomic.Int64
			collector.Start(nil)
			b.ReportAllocs()
			b.ResetTimer()
			_, err = Run(context.Background(), Config{
				Core: core, Transactions: c.transactions, Threads: c.threads, Operations: int64(b.N),
				BatchSize: c.batch, Seed: 1, Clock: SystemClock(clock), Collector: collector,
				NewDB: func() db.DB { return nopDB{&calls} },
			}, nil)
			b.StopTimer()
			sum := collector.Stop()
			if err != nil {
				b.Fatal(err)
			}
			if sum.Operations != int64(b.N) || calls.Load() != int64(b.N) {
				b.Fatalf("%d calls, %d operations recorded; want %d", calls.Load(), sum.Operations, b.N)
			}
			// A binding that answers at once records faster than any
			// server lets it: stalls here bound those of a real run.
			b.ReportMetric(float64(sum.RecordStalls)/float64(b.N), "stalls/op")
		})
	}
}

// runtimeTimers is the system clock waiting on Go's own timers only, the
// wait of last resort, to compare with the precise one.
type runtimeTimers struct{ systemClock }

func (r runtimeTimers) NewTimer(maxSpin time.Duration) Timer { return newGoTimer(r.c, maxSpin) }

// BenchmarkScheduleLag measures how long after its due time an operation
// starts at -target 2000 with 4 workers, against a binding that answers at
// once: the client's own share of every intended latency. ns/op is the
// schedule's period; lag-p50-us and lag-p99-us are the figures, cpu-us/op
// what the whole process spent per operation (waits and yields included).
func BenchmarkScheduleLag(b *testing.B) {
	for _, c := range []struct {
		name  string
		clock func(measure.Clock) Clock
	}{
		{"timer=precise", SystemClock},
		{"timer=runtime", func(c measure.Clock) Clock { return runtimeTimers{systemClock{c}} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			const threads = 4
			spec := benchSpec(b, true, threads)
			core, err := workload.NewCore(spec, spec.RecordCount, 1)
			if err != nil {
				b.Fatal(err)
			}
			clock := measure.NewClock()
			collector := measure.NewCollector(measure.Options{Threads: threads, ScheduleLag: true}, clock)
			var calls atomic.Int64
			collector.Start(nil)
			b.ReportAllocs()
			cpu0, cpuErr := selfmon.ProcessCPU(os.Getpid())
			b.ResetTimer()
			_, err = Run(context.Background(), Config{
				Core: core, Transactions: true, Threads: threads, Operations: int64(b.N), Target: 2000,
				Seed: 1, Clock: c.clock(clock), Collector: collector,
				NewDB: func() db.DB { return nopDB{&calls} },
			}, nil)
			b.StopTimer()
			sum := collector.Stop()
			if err != nil {
				b.Fatal(err)
			}
			lag := sum.ScheduleLag
			if lag.TotalCount() != int64(b.N) {
				b.Fatalf("%d lags for %d operations", lag.TotalCount(), b.N)
			}
			b.ReportMetric(float64(lag.ValueAtQuantile(50)), "lag-p50-us")
			b.ReportMetric(float64(lag.ValueAtQuantile(99)), "lag-p99-us")
			if cpu1, err := selfmon.ProcessCPU(os.Getpid()); err == nil && cpuErr == nil {
				b.ReportMetric(float64(cpu1-cpu0)/1e3/float64(b.N), "cpu-us/op")
			}
		})
	}
}

// deadlineDB bounds every call by a per-operation deadline on the context
// it is given, as the mongo binding does for optimeout, and then answers at
// once: what is left is the cost of that deadline on the worker's context.
type deadlineDB struct {
	nopDB
	timeout time.Duration
}

func (d deadlineDB) Read(ctx context.Context, table, key string, fields []string, visit db.FieldVisitor) error {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	return d.nopDB.Read(ctx, table, key, fields, visit)
}

// BenchmarkOpDeadline is a whole run phase whose every operation sets and
// removes a deadline on the context the runner hands the binding, at 1, 16
// and 64 workers: the per-operation context path of a run with optimeout.
// Where that context's lock is shared, the workers' wait for it shows in a
// mutex profile (context.propagateCancel, context.removeChild):
//
//	go test ./internal/runner -run XXX -bench OpDeadline -mutexprofile mutex.out -mutexprofilefraction 1
func BenchmarkOpDeadline(b *testing.B) {
	for _, threads := range []int{1, 16, 64} {
		b.Run("threads="+strconv.Itoa(threads), func(b *testing.B) {
			spec := benchSpec(b, true, threads)
			core, err := workload.NewCore(spec, spec.RecordCount, 1)
			if err != nil {
				b.Fatal(err)
			}
			clock := measure.NewClock()
			collector := measure.NewCollector(measure.Options{Threads: threads}, clock)
			var calls atomic.Int64
			collector.Start(nil)
			b.ReportAllocs()
			b.ResetTimer()
			_, err = Run(context.Background(), Config{
				Core: core, Transactions: true, Threads: threads, Operations: int64(b.N),
				Seed: 1, Clock: SystemClock(clock), Collector: collector,
				NewDB: func() db.DB { return deadlineDB{nopDB{&calls}, time.Minute} },
			}, nil)
			b.StopTimer()
			sum := collector.Stop()
			if err != nil {
				b.Fatal(err)
			}
			if sum.Operations != int64(b.N) || calls.Load() != int64(b.N) {
				b.Fatalf("%d calls, %d operations recorded; want %d", calls.Load(), sum.Operations, b.N)
			}
		})
	}
}
