package report

import (
	"testing"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// fixedStart is the start of every synthetic run, so that output is the
// same on every machine and day.
var fixedStart = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// fixedGenerated is the generation time of every report under test.
var fixedGenerated = time.Date(2024, 5, 7, 10, 0, 0, 0, time.UTC)

// runSpec describes a synthetic run.
type runSpec struct {
	label   string
	threads int
	seconds int
	// opsPerSec is the throughput of each interval; readUs and updateUs the
	// typical latencies.
	opsPerSec        int
	readUs, updateUs int64
	// spikeAt, when positive, is an interval whose latencies are 20 times
	// higher, as in a server stall.
	spikeAt  int
	partial  bool
	intended bool
	failures int
	metrics  bool
	url      string
}

// latencies returns n deterministic latencies around base with a tail:
// most within ±50%, one in a hundred 5×, one in a thousand 20×.
func latencies(n int, base int64, seed int) []int64 {
	out := make([]int64, n)
	x := uint32(seed*7919 + 17)
	for i := range out {
		// A small LCG: deterministic everywhere, no dependency on
		// math/rand's algorithms.
		x = x*1664525 + 1013904223
		v := base/2 + int64(x>>8)%base
		switch {
		case (i+seed)%1000 == 999:
			v = base * 20
		case (i+seed)%100 == 99:
			v = base * 5
		}
		out[i] = v
	}
	return out
}

func record(t testing.TB, h *hdrhistogram.Histogram, vs []int64) {
	t.Helper()
	for _, v := range vs {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
}

// synthRun builds the results of a run of READ and UPDATE (95:5) through
// measure's summary and export's results, the path a real run takes.
func synthRun(t testing.TB, spec runSpec) *results.Results {
	t.Helper()
	s := &measure.Summary{
		StartNs: 0,
		EndNs:   int64(spec.seconds) * 1e9,
		Start:   fixedStart,
		End:     fixedStart.Add(time.Duration(spec.seconds) * time.Second),
	}
	type opDef struct {
		op   db.Op
		base int64
		frac int // per 100 operations
	}
	ops := []opDef{{db.Read, spec.readUs, 95}, {db.Update, spec.updateUs, 5}}
	total := map[db.Op]*measure.Measurement{}
	for _, o := range ops {
		m := &measure.Measurement{Name: o.op.String(), Op: o.op, Service: measure.NewHistogram()}
		if spec.intended {
			m.Intended = measure.NewHistogram()
		}
		total[o.op] = m
	}
	for k := range spec.seconds {
		is := measure.IntervalStats{Index: k, StartNs: int64(k) * 1e9, EndNs: int64(k+1) * 1e9}
		// Throughput wobbles a little, and dips during a spike.
		n := spec.opsPerSec + (k%3-1)*spec.opsPerSec/50
		if spec.spikeAt > 0 && k == spec.spikeAt {
			n /= 3
		}
		for oi, o := range ops {
			cnt := n * o.frac / 100
			base := o.base
			if spec.spikeAt > 0 && k == spec.spikeAt {
				base *= 20
			}
			vs := latencies(cnt, base, k*10+oi)
			h := measure.NewHistogram()
			record(t, h, vs)
			record(t, total[o.op].Service, vs)
			ms := measure.MeasurementStats{Name: o.op.String(), Op: o.op}
			sum := measure.Summarize(h)
			ms.Service = &sum
			if spec.intended {
				// Intended latency adds the wait for the operation's turn,
				// long during the spike's backlog.
				wait := int64(50)
				if spec.spikeAt > 0 && (k == spec.spikeAt || k == spec.spikeAt+1) {
					wait = base * 3
				}
				ivs := make([]int64, len(vs))
				for i, v := range vs {
					ivs[i] = v + wait
				}
				hi := measure.NewHistogram()
				record(t, hi, ivs)
				record(t, total[o.op].Intended, ivs)
				isum := measure.Summarize(hi)
				ms.Intended = &isum
			}
			is.Measurements = append(is.Measurements, ms)
			is.Operations += int64(cnt)
			s.Status[o.op][db.OK] += int64(cnt)
		}
		is.OpsPerSec = float64(is.Operations)
		s.Operations += is.Operations
		s.Intervals = append(s.Intervals, is)
	}
	for _, o := range ops {
		s.Measurements = append(s.Measurements, *total[o.op])
	}
	if spec.failures > 0 {
		f := measure.Measurement{Name: "READ-FAILED", Op: db.Read, Failed: true, Service: measure.NewHistogram()}
		record(t, f.Service, latencies(spec.failures, 30000, 99))
		s.Measurements = append(s.Measurements[:1], append([]measure.Measurement{f}, s.Measurements[1:]...)...)
		s.Status[db.Read][db.Timeout] = int64(spec.failures)
	}
	url := spec.url
	if url == "" {
		url = "mongodb://localhost:27017/ycsb?w=1"
	}
	meta := results.Meta{
		Tool:    results.Tool{Name: "mongobench", Version: "0.1.0"},
		Command: []string{"mongobench", "run", "mongodb", "-P", "workloads/workloadb", "-threads", itoa(spec.threads), "-p", "mongodb.url=" + url},
		Label:   spec.label,
		Phase:   results.PhaseRun,
		Config: map[string]string{
			"workload":            "site.ycsb.workloads.CoreWorkload",
			"recordcount":         "100000",
			"operationcount":      "0",
			"readproportion":      "0.95",
			"updateproportion":    "0.05",
			"requestdistribution": "zipfian",
			"threadcount":         itoa(spec.threads),
			"mongodb.url":         url,
		},
		Partial: spec.partial,
	}
	if spec.metrics {
		meta.Extra = &results.Extra{
			ServerMetrics: serverMetrics(spec.seconds, spec.opsPerSec),
			HostMetrics:   hostMetrics(spec.seconds),
		}
	}
	r, err := results.NewResults(s, meta)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func itoa(n int) string { return formatX(float64(n)) }

// serverMetrics returns the series a run writes against a WiredTiger
// server, the metrics package deriving each interval from two readings of
// serverStatus a second apart.
func serverMetrics(seconds, ops int) []results.ServerSample {
	raw := func(k int, query, update, pagesRead float64) *metrics.ServerSample {
		return &metrics.ServerSample{
			Host: "db1:27017", PID: metrics.Known(4242), UptimeSec: metrics.Known(float64(86400 + k)),
			Opcounters:  metrics.Opcounters{Query: metrics.Known(query), Update: metrics.Known(update)},
			Connections: metrics.Connections{Current: metrics.Known(float64(20 + k%2)), Available: metrics.Known(float64(800 - k%2))},
			Cache: &metrics.WiredTigerCache{
				BytesInCache: metrics.Known(float64(3<<30 + k<<22)), MaxBytes: metrics.Known(8 << 30),
				PagesReadInto: metrics.Known(pagesRead), PagesRequested: metrics.Known(query + update),
			},
		}
	}
	var rows []results.ServerSample
	var query, update, pagesRead float64
	prev := metrics.Snapshot{At: fixedStart, Server: raw(0, query, update, pagesRead)}
	for k := 1; k <= seconds; k++ {
		query += float64(ops*95/100 + k%4*10)
		update += float64(ops*5/100 + k%3)
		pagesRead += float64(ops/50 + k%5)
		cur := metrics.Snapshot{At: fixedStart.Add(time.Duration(k) * time.Second), Server: raw(k, query, update, pagesRead)}
		rows = append(rows, results.ServerSample{T: float64(k), Server: metrics.Delta(prev, cur).Server})
		prev = cur
	}
	return rows
}

// hostMetrics returns the series a run writes of its host, derived by the
// metrics package from /proc readings a second apart.
func hostMetrics(seconds int) []results.HostSample {
	var rows []results.HostSample
	cpu := metrics.CPUTimes{NumCPU: 4}
	disk := metrics.DiskCounters{Name: "sda"}
	raw := func(k int) *metrics.HostSample {
		return &metrics.HostSample{
			DescribesServer: true,
			CPU:             &metrics.CPUTimes{NumCPU: cpu.NumCPU, User: cpu.User, System: cpu.System, Iowait: cpu.Iowait, Idle: cpu.Idle},
			Memory:          &metrics.Memory{TotalBytes: metrics.Known(16 << 30), AvailableBytes: metrics.Known(float64(12<<30 - k<<20))},
			Disks:           []metrics.DiskCounters{disk},
		}
	}
	prev := metrics.Snapshot{At: fixedStart, Host: raw(0)}
	for k := 1; k <= seconds; k++ {
		// Four CPUs: four CPU seconds a second, split between states.
		user, system, iowait := 1.6+float64(k%5)*0.04, 0.48+float64(k%3)*0.04, float64(k%2)*0.04
		cpu.User += user
		cpu.System += system
		cpu.Iowait += iowait
		cpu.Idle += 4 - user - system - iowait
		writes := uint64(100 + 10*(k%4))
		disk.WriteIOs += writes
		disk.WriteSectors += writes * 40
		disk.WriteTicks += writes / 2
		disk.IOTicks += 150
		disk.WeightedIOTicks += writes / 2
		cur := metrics.Snapshot{At: fixedStart.Add(time.Duration(k) * time.Second), Host: raw(k)}
		rows = append(rows, results.HostSample{T: float64(k), Host: metrics.Delta(prev, cur).Host})
		prev = cur
	}
	return rows
}

// singleInput is one run with everything a run can have: intended latency,
// failures, a latency spike, server and host metrics.
func singleInput(t testing.TB) *Input {
	r := synthRun(t, runSpec{label: "workloadb", threads: 16, seconds: 20, opsPerSec: 400, readUs: 400, updateUs: 900,
		spikeAt: 12, intended: true, failures: 3, metrics: true, url: "mongodb://admin:s3cret@db1:27017,db2:27017/ycsb?authSource=admin"})
	return &Input{Title: "Workload B on db1", Runs: []*results.Results{r}, Generated: fixedGenerated, Version: "0.1.0",
		DiskBaselines: []*results.DiskBaseline{diskBaseline("sda")}}
}

// diskBaseline is what mongobench disk measured of device.
func diskBaseline(device string) *results.DiskBaseline {
	return &results.DiskBaseline{
		Dir: "/data/db", Device: device, MeasuredAt: fixedStart.Add(-time.Hour), FioVersion: "fio-3.33", SizeBytes: 256 << 20, RuntimeS: 5,
		Tests: []results.DiskTest{
			{Name: "randread-qd1", Pattern: results.RandRead, BlockBytes: 4096, QueueDepth: 1, IOPS: 6279, MBPerS: 24.5, LatP50Us: 34, LatP99Us: 2007, LatP999Us: 15925},
			{Name: "randread-qd32", Pattern: results.RandRead, BlockBytes: 4096, QueueDepth: 32, IOPS: 40000, MBPerS: 156.3, LatP50Us: 477, LatP99Us: 14221, LatP999Us: 16908},
			{Name: "randwrite-qd32", Pattern: results.RandWrite, BlockBytes: 4096, QueueDepth: 32, IOPS: 9800, MBPerS: 38.3, LatP50Us: 831, LatP99Us: 18481, LatP999Us: 23986},
			{Name: "seqread", Pattern: results.SeqRead, BlockBytes: 1 << 20, QueueDepth: 16, IOPS: 454, MBPerS: 454, LatP50Us: 22938, LatP99Us: 74973, LatP999Us: 74973},
			{Name: "seqwrite", Pattern: results.SeqWrite, BlockBytes: 1 << 20, QueueDepth: 16, IOPS: 292, MBPerS: 292, LatP50Us: 39584, LatP99Us: 170918, LatP999Us: 170918},
		},
	}
}

// sweepInput is a thread sweep of three runs whose throughput saturates
// at 8 threads while p99 keeps rising, and a comparison of two groups.
func sweepInput(t testing.TB) *Input {
	var runs []*results.Results
	for i, th := range []int{1, 8, 64} {
		runs = append(runs, synthRun(t, runSpec{label: "threads=" + itoa(th), threads: th, seconds: 6,
			opsPerSec: []int{300, 2000, 2100}[i], readUs: []int64{300, 600, 4000}[i], updateUs: []int64{500, 900, 6000}[i], partial: i == 2}))
	}
	sw := &Sweep{
		Varied: "threadcount",
		Points: []SweepPoint{
			{X: 64, Throughput: 2120, ThroughputLo: 2050, ThroughputHi: 2190, P99us: 20000, P99Lo: 18000, P99Hi: 22000, Trials: 3,
				PerOp: map[string]OpFigures{"READ": {AvgUs: 4100, P99us: 19500}, "UPDATE": {AvgUs: 6200, P99us: 30000}}},
			{X: 1, Throughput: 310, ThroughputLo: 300, ThroughputHi: 320, P99us: 1500, P99Lo: 1400, P99Hi: 1600, Trials: 3,
				PerOp: map[string]OpFigures{"READ": {AvgUs: 310, P99us: 1450}, "UPDATE": {AvgUs: 520, P99us: 2500}}},
			{X: 8, Throughput: 2000, ThroughputLo: 1900, ThroughputHi: 2100, P99us: 6250, P99Lo: 5900, P99Hi: 6600, Trials: 3,
				PerOp: map[string]OpFigures{"READ": {AvgUs: 620, P99us: 6000}, "UPDATE": {AvgUs: 930, P99us: 9000}}},
		},
		Knee:         &KneeMark{X: 8, Throughput: 2000, P99us: 6250},
		KneeSentence: "Throughput stops rising at 8 threads (2,000 ops/s): going to 64 threads adds 6% throughput but multiplies p99 by 3.2.",
	}
	cmp := &Comparison{A: "WiredTiger", B: "WiredTiger+zstd", Rows: []CompareRow{
		{Op: "OVERALL", Figure: "throughput", A: 2000, ALo: 1900, AHi: 2100, B: 2120, BLo: 2050, BHi: 2190, RelDiff: 0.06,
			Verdict: "no significant difference (p=0.12)", HigherIsBetter: true, P: 0.12},
		{Op: "READ", Figure: "p50", A: 450, ALo: 430, AHi: 470, B: 440, BLo: 420, BHi: 460, RelDiff: -0.022,
			Verdict: "no significant difference (p=0.48)", P: 0.48},
		{Op: "READ", Figure: "p99", A: 6000, ALo: 5800, AHi: 6200, B: 4140, BLo: 4000, BHi: 4300, RelDiff: -0.31,
			Verdict: "significant: B is 31.0% better than A (p=0.003)", Significant: true, P: 0.003},
		{Op: "UPDATE", Figure: "p99", A: 9000, ALo: 8500, AHi: 9500, B: 11000, BLo: 10400, BHi: 11600, RelDiff: 0.222,
			Verdict: "significant: B is 22.2% worse than A (p=0.011)", Significant: true, P: 0.011},
	}}
	return &Input{Runs: runs, Sweep: sw, Comparison: cmp, Generated: fixedGenerated, Version: "0.1.0"}
}
