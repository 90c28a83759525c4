package calibrate

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/native"
)

// nativeCalibration is YCSB's record and its read and insert as a native
// workload: a 23-character string _id (as long as YCSB's user… keys), ten
// 100-character fields, a find by a zipfian-chosen existing _id (limit 1,
// all fields: YCSB's read with readallfields) and an insertOne.
const nativeCalibration = `
name: calibrate
collections:
  usertable:
    documents: 20000
    document:
      _id: {^string: 23}
      field0: {^string: 100}
      field1: {^string: 100}
      field2: {^string: 100}
      field3: {^string: 100}
      field4: {^string: 100}
      field5: {^string: 100}
      field6: {^string: 100}
      field7: {^string: 100}
      field8: {^string: 100}
      field9: {^string: 100}
operations:
  - {name: native-insert, kind: insertOne, collection: usertable}
  - name: native-read
    kind: find
    collection: usertable
    filter: {_id: {^ref: {field: usertable._id, dist: zipfian}}}
    limit: 1
phases:
  load: {count: 20000, operations: [native-insert]}
  measure: {count: 20000, operations: [native-read]}
`

// BenchmarkNativeAgainstYCSB measures, against the null server (a child
// process, so that the figures are the client's alone), the client CPU
// per operation of a native workload's find by _id and insertOne beside
// YCSB's read and insert through the same path, at 1 and 16 threads.
// Each sub-benchmark runs the two in turn, five times, the order
// alternating, and reports each one's median CPU per operation and the
// native one's as a share of YCSB's (native/ycsb; the goal is at most
// 1.10). b.N is the operations of each measurement.
//
//	go test ./internal/calibrate -run XXX -bench NativeAgainstYCSB -benchtime 20000x
func BenchmarkNativeAgainstYCSB(b *testing.B) {
	srv := benchServer(b)
	m := &measurer{url: srv.uri, server: srv}
	ctx := context.Background()
	for _, kind := range []struct {
		name string
		load bool
	}{{"read", false}, {"insert", true}} {
		for _, threads := range []int{1, 16} {
			b.Run(kind.name+"/threads="+strconv.Itoa(threads), func(b *testing.B) {
				o := Options{Operations: int64(b.N), Threads: []int{threads}, SkipExtras: true, ServerURI: srv.uri}
				if err := o.Validate(); err != nil {
					b.Fatal(err)
				}
				pt := point{name: o.Workload, threads: threads, load: kind.load}
				spec, err := o.spec(pt, threads)
				if err != nil {
					b.Fatal(err)
				}
				spec.Seed, spec.SeedSet = calibrationSeed, true
				src := []byte(nativeCalibration)
				f, err := native.Parse("calibrate.yaml", src, nil)
				if err != nil {
					b.Fatal(err)
				}
				// The same point, its operations the native workload's.
				nativePt := pt
				nativePt.native = f
				const repeats = 5
				var ycsb, nat []float64
				b.ResetTimer()
				for i := range repeats {
					steps := []func() error{
						func() error {
							fig, err := m.mongobench(ctx, spec, pt, mongo.PathDriver)
							ycsb = append(ycsb, fig.CPUPerOpUs)
							return checked(fig, err, int64(b.N))
						},
						func() error {
							fig, err := m.mongobench(ctx, spec, nativePt, mongo.PathDriver)
							nat = append(nat, fig.CPUPerOpUs)
							return checked(fig, err, int64(b.N))
						},
					}
					for j := range steps {
						if err := steps[(i+j)%2](); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.StopTimer()
				y, n := median(ycsb), median(nat)
				b.ReportMetric(y, "ycsb-cpu-µs/op")
				b.ReportMetric(n, "native-cpu-µs/op")
				b.ReportMetric(n/y, "native/ycsb")
				if os.Getenv("MONGOBENCH_CALIBRATE_TRIALS") != "" {
					b.Logf("ycsb %v native %v", ycsb, nat)
				}
			})
		}
	}
}

func checked(f Figures, err error, want int64) error {
	if err != nil {
		return err
	}
	if f.Operations != want || f.Failed != 0 {
		return fmt.Errorf("%d operations, %d failed; want %d", f.Operations, f.Failed, want)
	}
	return nil
}
