package workload

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/workloads"
)

// benchSession is a Session that does nothing, so that a benchmark sees
// only the workload's own cost: choosing the operation, the key, the fields
// and the values. It counts calls and bytes so the work cannot be
// optimised away.
type benchSession struct {
	calls int
	bytes int
}

func (s *benchSession) Read(_ context.Context, _, key string, fields []string, _ db.FieldVisitor) error {
	s.calls++
	s.bytes += len(key) + len(fields)
	return nil
}

func (s *benchSession) Scan(_ context.Context, _, key string, n int, _ []string, _ db.FieldVisitor) error {
	s.calls++
	s.bytes += len(key) + n
	return nil
}

func (s *benchSession) Update(_ context.Context, _, key string, values []db.Field) error {
	s.calls++
	s.bytes += len(key) + len(values)
	return nil
}

func (s *benchSession) Insert(_ context.Context, _, key string, values []db.Field) error {
	s.calls++
	s.bytes += len(key) + len(values)
	return nil
}

func (s *benchSession) Delete(_ context.Context, _, key string) error {
	s.calls++
	s.bytes += len(key)
	return nil
}

func (s *benchSession) InsertBatch(_ context.Context, _ string, keys []string, _ [][]db.Field) error {
	s.calls++
	s.bytes += len(keys)
	return nil
}

func (s *benchSession) Close() error                           { return nil }
func (s *benchSession) Now() int64                             { return int64(s.calls) }
func (s *benchSession) Measure(db.Op, db.Status, int64, int64) { s.calls++ }
func (s *benchSession) Composite(bool)                         {}

// worked fails the benchmark when the workload made no calls.
func (s *benchSession) worked(b *testing.B) {
	b.Helper()
	if s.calls == 0 || s.bytes == 0 {
		b.Fatalf("the workload made %d calls passing %d bytes: it did nothing", s.calls, s.bytes)
	}
}

// benchCore builds a workload from a built-in file and overrides.
func benchCore(b testing.TB, file string, transactions bool, kv ...string) *Core {
	b.Helper()
	data, err := workloads.Files.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	p, err := Parse(strings.NewReader(string(data)), file)
	if err != nil {
		b.Fatal(err)
	}
	p.Set("recordcount", "1000000", "bench")
	p.Set("operationcount", "1000000", "bench")
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1], "bench")
	}
	spec, _, err := Resolve(p, transactions)
	if err != nil {
		b.Fatal(err)
	}
	c, err := NewCore(spec, spec.RecordCount, 1)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkDoTransaction measures choosing one run-phase operation, its
// key, fields and values, for each standard workload.
func BenchmarkDoTransaction(b *testing.B) {
	for _, file := range []string{"workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf"} {
		b.Run(file, func(b *testing.B) {
			w := benchCore(b, file, true).NewWorker(0, 1, 1)
			s := &benchSession{}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				w.DoTransaction(ctx, s)
			}
			s.worked(b)
		})
	}
}

// BenchmarkDoTransactionParallel is workload c with every processor
// drawing from one Core, as a run's workers do.
func BenchmarkDoTransactionParallel(b *testing.B) {
	c := benchCore(b, "workloadc", true)
	var id atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := c.NewWorker(int(id.Add(1)), 1, 1)
		s := &benchSession{}
		ctx := context.Background()
		for pb.Next() {
			w.DoTransaction(ctx, s)
		}
	})
}

// BenchmarkDoInsert measures a load-phase record: key and all field
// values, alone or buffered into batches.
func BenchmarkDoInsert(b *testing.B) {
	for _, batch := range []int{1, 100} {
		b.Run("batchsize="+strconv.Itoa(batch), func(b *testing.B) {
			c := benchCore(b, "workloada", false, "recordcount", "2000000000")
			w := c.NewWorker(0, 1, batch)
			s := &benchSession{}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if err := w.DoInsert(ctx, s); err != nil {
					b.Fatal(err)
				}
			}
			if err := w.Flush(ctx, s); err != nil {
				b.Fatal(err)
			}
			s.worked(b)
		})
	}
}

// BenchmarkNextKey measures the key choosers as the workload uses them:
// a key number that exists, then YCSB's key string for it.
func BenchmarkNextKey(b *testing.B) {
	for _, dist := range []string{"uniform", "zipfian", "latest", "hotspot", "exponential", "sequential"} {
		b.Run(dist, func(b *testing.B) {
			w := benchCore(b, "workloadc", true, "requestdistribution", dist).NewWorker(0, 1, 1)
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				n += len(w.keyString(w.nextKeynum()))
			}
			if n == 0 {
				b.Fatal("no keys")
			}
		})
	}
}
