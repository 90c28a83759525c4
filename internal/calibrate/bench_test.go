package calibrate

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/mongobench/mongobench/internal/db/mongo"
)

// benchServer starts the null server for benchmarks: as a child process
// (this test binary in server mode), so that the CPU figures and profiles
// are the client's alone, or in-process where that fails.
func benchServer(b *testing.B) *server {
	b.Helper()
	if exe, err := os.Executable(); err == nil {
		b.Setenv(childEnv, "server")
		if s, err := startChild(context.Background(), []string{exe}); err == nil {
			b.Cleanup(s.close)
			return s
		}
	}
	s, err := startServer(context.Background(), &Options{Server: ServerInProcess})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.close)
	return s
}

// BenchmarkClientPath measures mongobench's whole path (workload, runner,
// binding, recording) and the bare driver loop against the null server,
// b.N operations each, at 1, 16 and 64 threads. cpu-µs/op is the client
// process's user+system CPU time per operation (getrusage), the figure the
// overhead goal is about; ns/op is wall time and depends on the server.
//
//	go test ./internal/calibrate -run XXX -bench ClientPath -benchtime 100000x
func BenchmarkClientPath(b *testing.B) {
	srv := benchServer(b)
	m := &measurer{url: srv.uri, server: srv}
	ctx := context.Background()
	for _, path := range []string{"mongobench", "lean", "bare"} {
		for _, threads := range []int{1, 16, 64} {
			b.Run(path+"/threads="+strconv.Itoa(threads), func(b *testing.B) {
				o := Options{Operations: int64(b.N), Threads: []int{threads}, SkipExtras: true, ServerURI: srv.uri}
				if err := o.Validate(); err != nil {
					b.Fatal(err)
				}
				pt := point{name: o.Workload, threads: threads}
				spec, err := o.spec(pt, threads)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				var f Figures
				switch path {
				case "bare":
					f, err = m.bare(ctx, spec, threads, int64(b.N))
				case "lean":
					f, err = m.mongobench(ctx, spec, pt, mongo.PathLean)
				default:
					f, err = m.mongobench(ctx, spec, pt, mongo.PathDriver)
				}
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				if f.Operations != int64(b.N) || f.Failed != 0 {
					b.Fatalf("%d operations, %d failed; want %d", f.Operations, f.Failed, b.N)
				}
				b.ReportMetric(f.CPUPerOpUs, "cpu-µs/op")
				if f.ServerCPUPerOpUs > 0 {
					b.ReportMetric(f.ServerCPUPerOpUs, "server-cpu-µs/op")
				}
			})
		}
	}
}
