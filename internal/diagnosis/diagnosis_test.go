package diagnosis

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

func v(x float64) metrics.Value { return metrics.Known(x) }

// cpu is one interval's host CPU split; idle takes the rest.
func cpu(user, system, steal, iowait float64) *metrics.CPUInterval {
	return &metrics.CPUInterval{NumCPU: 8, UserPct: v(user), SystemPct: v(system), StealPct: v(steal), IowaitPct: v(iowait),
		IdlePct: v(100 - user - system - steal - iowait)}
}

type disk struct{ reads, writes, rMB, wMB, util, queue float64 }

func (d disk) interval(name string) metrics.DiskInterval {
	return metrics.DiskInterval{Name: name, ReadsPerSec: v(d.reads), WritesPerSec: v(d.writes), IOPS: v(d.reads + d.writes),
		ReadMBPerSec: v(d.rMB), WriteMBPerSec: v(d.wMB), UtilPct: v(d.util), AvgQueueSize: v(d.queue), AwaitMs: v(0.5)}
}

// run builds the results of a run from per-interval series: each host
// and server func is called for intervals 0..n-1.
type run struct {
	target, throughput float64
	lateStarts         int64
	threads            int // 0 for 16
	client             *results.Client
	local              bool
	host               func(i int) *metrics.HostInterval
	server             func(i int) *metrics.ServerInterval
}

const intervals = 6

func (r run) results() *results.Results {
	res := &results.Results{
		FormatVersion: results.FormatVersion, Phase: results.PhaseRun,
		Config:     map[string]string{"threadcount": "16", "target": "0"},
		Operations: 60000, ThroughputOpsSec: r.throughput,
		Extra: &results.Extra{Runner: &results.Runner{LateStarts: r.lateStarts}, Client: r.client},
	}
	if r.threads > 0 {
		res.Config["threadcount"] = strconv.Itoa(r.threads)
	}
	if r.target > 0 {
		res.Config["target"] = strconv.FormatFloat(r.target, 'f', -1, 64)
	}
	for i := range intervals {
		t := float64(i + 1)
		if r.host != nil {
			h := r.host(i)
			h.DescribesServer = r.local
			res.Extra.HostMetrics = append(res.Extra.HostMetrics, results.HostSample{T: t, Host: h})
		}
		if r.server != nil {
			res.Extra.ServerMetrics = append(res.Extra.ServerMetrics, results.ServerSample{T: t, Server: r.server(i)})
		}
	}
	return res
}

func quietClient() *results.Client {
	return &results.Client{WallS: 60, Utilization: 0.12, Waiting: 0.01, AllowedCPUs: 8}
}

// busyCPU wobbles around user+system so that the mean, not one interval,
// is judged.
func busyCPU(user, system float64) func(int) *metrics.HostInterval {
	return func(i int) *metrics.HostInterval {
		w := float64(i%2)*2 - 1 // -1, +1, …
		return &metrics.HostInterval{CPU: cpu(user+w, system, 0, 0.5), Process: &metrics.ProcessInterval{CPUPct: v(8)}}
	}
}

func quietServer(i int) *metrics.ServerInterval {
	return &metrics.ServerInterval{
		Connections: metrics.Connections{Current: v(20), Available: v(800)},
		GlobalLock:  metrics.GlobalLock{QueueReaders: v(0), QueueWriters: v(0)},
		Network:     metrics.NetworkRates{BytesInPerSec: v(4 << 20), BytesOutPerSec: v(9 << 20)},
		Cache: &metrics.CacheInterval{FillRatio: v(0.4), HitRatio: v(0.999), ReadIntoMBPerSec: v(0.1),
			MaxBytes: v(1 << 30)},
	}
}

func withServer(edit func(s *metrics.ServerInterval)) func(int) *metrics.ServerInterval {
	return func(i int) *metrics.ServerInterval {
		s := quietServer(i)
		edit(s)
		return s
	}
}

func withDisk(user float64, d disk) func(int) *metrics.HostInterval {
	return func(i int) *metrics.HostInterval {
		return &metrics.HostInterval{CPU: cpu(user, 5, 0, 12), Disks: []metrics.DiskInterval{
			{Name: "sda", IOPS: v(3), UtilPct: v(1), AvgQueueSize: v(0)}, d.interval("nvme0n1")}}
	}
}

var ceiling = &results.DiskCeiling{Device: "nvme0n1", RandReadIOPS: 40000, RandWriteIOPS: 9800, SeqReadMBPerS: 1500, SeqWriteMBPerS: 900}

func TestDiagnose(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		run     run
		ceiling *results.DiskCeiling
		verdict string
		// limits are the kinds found, in order, borderline ones marked.
		limits []string
		// say are pieces of text the evidence, notes or cannot-judge lines
		// must hold.
		say []string
	}{
		{
			// A local server whose host's CPUs are all busy.
			name:    "saturated CPU",
			run:     run{local: true, client: quietClient(), host: busyCPU(80, 15), server: quietServer},
			verdict: ServerCPU, limits: []string{ServerCPU},
			say: []string{"the server's host CPUs were 95.0% busy", "threshold 90.0%", "the client's own process used 8.0%"},
		},
		{
			// Just under the threshold: near saturation, said as such.
			name:    "borderline CPU",
			run:     run{local: true, client: quietClient(), host: busyCPU(70, 15), server: quietServer},
			verdict: ServerCPU + " (borderline)", limits: []string{ServerCPU + "~"},
			say: []string{"85.0% busy"},
		},
		{
			// Writes at 9,000 of the disk's measured 9,800 random-write IOPS.
			name:    "disk at its ceiling",
			run:     run{local: true, client: quietClient(), host: withDisk(20, disk{reads: 500, writes: 9000, wMB: 35, util: 70, queue: 12}), server: quietServer},
			ceiling: ceiling, verdict: Disk, limits: []string{Disk},
			say: []string{"disk nvme0n1 did 500 reads/s and 9000 writes/s of its measured 40000 random-read and 9800 random-write IOPS: 93.1% of its ceiling"},
		},
		{
			// The same disk far from its ceiling, though always busy: a
			// parallel device is not judged by its utilisation when its
			// ceiling is known.
			name:    "disk busy under its ceiling",
			run:     run{local: true, client: quietClient(), host: withDisk(20, disk{reads: 2000, writes: 1000, util: 100, queue: 3}), server: quietServer},
			ceiling: ceiling, verdict: results.NoLimitFound,
			say: []string{"15.2% of its ceiling"},
		},
		{
			// No ceiling: busy all the time with a deep queue.
			name:    "disk saturated by utilisation",
			run:     run{local: true, client: quietClient(), host: withDisk(20, disk{reads: 1144, util: 99.85, queue: 8}), server: quietServer},
			verdict: Disk, limits: []string{Disk},
			say: []string{"disk nvme0n1 was busy 99.9% of the time", "8.00 requests in flight", "the CPUs waited for I/O 12.0%"},
		},
		{
			// Busy all the time but with a short queue: borderline.
			name:    "disk busy with a short queue",
			run:     run{local: true, client: quietClient(), host: withDisk(20, disk{reads: 3000, util: 97, queue: 0.9}), server: quietServer},
			verdict: Disk + " (borderline)", limits: []string{Disk + "~"},
			say: []string{"measure its ceiling with mongobench disk"},
		},
		{
			// The working set does not fit: the cache is full and misses.
			name: "cache eviction",
			run: run{local: true, client: quietClient(), host: busyCPU(30, 5), server: withServer(func(s *metrics.ServerInterval) {
				s.Cache = &metrics.CacheInterval{FillRatio: v(0.96), HitRatio: v(0.62), ReadIntoMBPerSec: v(180), AppPageReadsPerSec: v(2300), MaxBytes: v(1 << 30)}
			})},
			verdict: Cache, limits: []string{Cache},
			say: []string{"the cache was 96.0% full", "62.0% of the pages asked for were in it", "180.0 MB/s were read into the cache", "application threads read 2300 pages/s"},
		},
		{
			// The client, on a host of its own, keeps its CPUs busy.
			name: "client-bound",
			run: run{client: &results.Client{WallS: 60, Utilization: 0.91, Waiting: 0.04, AllowedCPUs: 4}, host: busyCPU(60, 10),
				server: quietServer},
			verdict: ClientCPU, limits: []string{ClientCPU},
			say: []string{"the client used 91.0% of the 4 CPUs it may use", "server CPU and disk: the server is on another host"},
		},
		{
			// Closed loop, nothing busy: the threads wait on latency.
			name:    "nothing saturated",
			run:     run{local: true, client: quietClient(), host: busyCPU(30, 5), server: quietServer},
			verdict: results.NoLimitFound,
			say:     []string{"each of the 16 threads waits for its operation"},
		},
		{
			// The same with one thread: said as one.
			name:    "nothing saturated, one thread",
			run:     run{threads: 1, local: true, client: quietClient(), host: busyCPU(30, 5), server: quietServer},
			verdict: results.NoLimitFound,
			say:     []string{"in a closed loop the one thread waits for its operation"},
		},
		{
			// Throttled by -target, kept up, on a machine others keep busy:
			// nothing limited the run, and the busy CPUs are a note.
			name: "target kept on a busy host",
			run: run{target: 100, throughput: 99.8, lateStarts: 3, local: true, client: quietClient(), host: busyCPU(85, 10),
				server: quietServer},
			verdict: results.NoLimitFound,
			say:     []string{"the run kept its -target of 100 ops/s (99.8 ops/s, 3 of 60000 operations started late)", "server CPU near its limit though the run kept its target"},
		},
		{
			// The same host, but the run fell behind its target.
			name: "target missed on a busy host",
			run: run{target: 2000, throughput: 1400, lateStarts: 9000, local: true, client: quietClient(), host: busyCPU(85, 10),
				server: quietServer},
			verdict: ServerCPU, limits: []string{ServerCPU},
		},
		{
			// Both CPU and disk over: the one further over comes first.
			name: "several limits in order",
			run: run{local: true, client: quietClient(), host: func(i int) *metrics.HostInterval {
				h := withDisk(0, disk{reads: 5000, util: 100, queue: 30})(i)
				h.CPU = cpu(82, 10, 0, 5)
				return h
			}, server: withServer(func(s *metrics.ServerInterval) { s.GlobalLock.QueueReaders = v(0.6) })},
			verdict: Disk, limits: []string{Disk, ServerCPU, Queues + "~"},
		},
		{
			// Operations queue for the global lock's tickets.
			name: "ticket queues",
			run: run{local: true, client: quietClient(), host: busyCPU(40, 10), server: withServer(func(s *metrics.ServerInterval) {
				s.GlobalLock = metrics.GlobalLock{QueueReaders: v(12), QueueWriters: v(30)}
			})},
			verdict: Queues, limits: []string{Queues},
			say: []string{"42.0 operations waited in the global lock's queues"},
		},
		{
			// Nearly every connection the server allows is open.
			name: "connections",
			run: run{local: true, client: quietClient(), host: busyCPU(40, 10), server: withServer(func(s *metrics.ServerInterval) {
				s.Connections = metrics.Connections{Current: v(810), Available: v(9)}
			})},
			verdict: Connections, limits: []string{Connections},
			say: []string{"810 connections of 819 were in use"},
		},
		{
			// A gigabit's worth of replies: only ever borderline, since
			// the link's speed is not known.
			name: "network",
			run: run{client: quietClient(), host: busyCPU(20, 5), server: withServer(func(s *metrics.ServerInterval) {
				s.Network.BytesOutPerSec = v(110 << 20)
			})},
			verdict: Network + " (borderline)", limits: []string{Network + "~"},
			say: []string{"sent 110.0 MB/s", "the link's real speed is not known"},
		},
		{
			// A remote server, serverStatus only, and no host figures.
			name: "remote server with serverStatus only",
			run: run{client: quietClient(), server: withServer(func(s *metrics.ServerInterval) {
				s.Cache = nil
				s.GlobalLock = metrics.GlobalLock{}
			})},
			verdict: results.NoLimitFound,
			say:     []string{"lock queues, WiredTiger cache: not reported by this server"},
		},
		{
			// The remote server and the client's host: what cannot be
			// judged is said.
			name:    "remote server with the client's host",
			run:     run{client: quietClient(), host: busyCPU(20, 5), server: quietServer},
			verdict: results.NoLimitFound,
			say:     []string{"server CPU and disk: the server is on another host and only its serverStatus is read"},
		},
		{
			// serverStatus failed throughout.
			name: "serverStatus failed",
			run: run{local: true, client: quietClient(), host: busyCPU(20, 5), server: func(int) *metrics.ServerInterval {
				return &metrics.ServerInterval{Error: "not authorized on admin to execute command"}
			}},
			verdict: results.NoLimitFound,
			say:     []string{"serverStatus failed: not authorized"},
		},
		{
			name:    "no metrics",
			run:     run{},
			verdict: "cannot judge: the results hold no client, host or server metrics",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := Diagnose(tt.run.results(), tt.ceiling)
			if d.Verdict != tt.verdict {
				t.Errorf("verdict %q, want %q\n%s", d.Verdict, tt.verdict, dump(d))
			}
			var kinds []string
			for _, l := range d.Limits {
				k := l.Kind
				if l.Borderline {
					k += "~"
				}
				kinds = append(kinds, k)
				if len(l.Evidence) == 0 {
					t.Errorf("limit %s has no evidence", l.Kind)
				}
			}
			if strings.Join(kinds, ",") != strings.Join(tt.limits, ",") {
				t.Errorf("limits %v, want %v\n%s", kinds, tt.limits, dump(d))
			}
			text := dump(d)
			for _, s := range tt.say {
				if !strings.Contains(text, s) {
					t.Errorf("the diagnosis does not say %q:\n%s", s, text)
				}
			}
		})
	}
}

func dump(d *results.Diagnosis) string {
	b, _ := json.MarshalIndent(d, "", "  ")
	return string(b)
}

// A run of the embedded server recorded on a 2-core machine: the client
// and the server in one process, the host's CPUs busy.
func TestDiagnoseRecordedEmbeddedRun(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/embedded_cpu_bound.json")
	if err != nil {
		t.Fatal(err)
	}
	var r results.Results
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	d := Diagnose(&r)
	if d.Verdict != ServerCPU {
		t.Fatalf("verdict %q, want %q\n%s", d.Verdict, ServerCPU, dump(d))
	}
	text := dump(d)
	for _, s := range []string{"the server's host CPUs were 89.7% busy", "waited for a CPU 72.6% of the time (threshold 50.0%)", "the client and the embedded server, one process, used 42.4% of the 2 CPUs"} {
		if !strings.Contains(text, s) {
			t.Errorf("the diagnosis does not say %q:\n%s", s, text)
		}
	}
}

// A ceiling measured on another device leaves the disks to utilisation,
// and says so.
func TestDiagnoseCeilingOfAnotherDisk(t *testing.T) {
	t.Parallel()
	r := run{local: true, client: quietClient(), host: withDisk(20, disk{reads: 1144, util: 99.85, queue: 8}), server: quietServer}
	other := *ceiling
	other.Device = "sdb"
	d := Diagnose(r.results(), &other)
	if d.Verdict != Disk || d.DiskCeiling != nil {
		t.Fatalf("verdict %q, ceiling %v: want %q judged without the ceiling", d.Verdict, d.DiskCeiling, Disk)
	}
	if !strings.Contains(dump(d), "the disk baselines measured sdb, not nvme0n1") {
		t.Errorf("the diagnosis does not say the baseline was of another disk:\n%s", dump(d))
	}
}

func TestBusiestDisk(t *testing.T) {
	t.Parallel()
	r := run{local: true, client: quietClient(), host: withDisk(20, disk{reads: 500, writes: 2350, rMB: 2, wMB: 9.2, util: 70, queue: 1})}
	u, ok := BusiestDisk(r.results())
	if !ok || u.Device != "nvme0n1" || u.ReadsPerSec != 500 || u.WritesPerSec != 2350 || math.Abs(u.WriteMBPerSec-9.2) > 1e-9 || u.UtilPct != 70 {
		t.Errorf("busiest disk %+v, %v: want nvme0n1 with its figures", u, ok)
	}
	r.local = false
	if _, ok := BusiestDisk(r.results()); ok {
		t.Error("the client's host's disk was taken for the server's")
	}
}
