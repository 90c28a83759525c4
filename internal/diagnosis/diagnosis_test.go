package diagnosis

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
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
	operations         int64 // 0 for 60000
	lagP50Us, lagP99Us int64 // both 0: no schedule lag recorded
	threads            int   // 0 for 16
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
	if r.operations > 0 {
		res.Operations = r.operations
	}
	if r.lagP50Us > 0 || r.lagP99Us > 0 {
		res.ScheduleLag = &results.LatencyResult{Count: res.Operations, PercentilesUs: map[string]int64{"50": r.lagP50Us, "99": r.lagP99Us}}
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

// othersBusy is a host of n CPUs busy user+system, of which mongobench's
// own process used own (all as percentages of the host).
func othersBusy(n int, user, system, own float64) func(int) *metrics.HostInterval {
	return func(int) *metrics.HostInterval {
		c := cpu(user, system, 0, 0)
		c.NumCPU = n
		return &metrics.HostInterval{CPU: c, Process: &metrics.ProcessInterval{CPUPct: v(own)}}
	}
}

// serverUsed adds a local server's own process, using pct of the host.
func serverUsed(host func(int) *metrics.HostInterval, pct float64) func(int) *metrics.HostInterval {
	return func(i int) *metrics.HostInterval {
		h := host(i)
		h.ServerProcess = &metrics.ProcessInterval{CPUPct: v(pct)}
		return h
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

// diagnoseCase is a run recorded as series and what its diagnosis must
// be.
type diagnoseCase struct {
	name    string
	run     run
	ceiling *results.DiskCeiling
	verdict string
	// limits are the kinds found, in order, borderline ones marked.
	limits []string
	// say are pieces of text the evidence, notes or cannot-judge lines
	// must hold.
	say []string
}

var diagnoseCases = []diagnoseCase{
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
		// the target held the run, and the busy CPUs are a note.
		name: "target kept on a busy host",
		run: run{target: 100, throughput: 99.8, lateStarts: 3, local: true, client: quietClient(), host: busyCPU(85, 10),
			server: quietServer},
		verdict: Target, limits: []string{Target},
		say: []string{"the run held its -target of 100 ops/s: 99.8 ops/s, 99.8% of it (threshold 95.0%); 3 of 60000 operations (0.0%) started over 1 ms late, threshold 50.0%",
			"server CPU near its limit though the run held its target"},
	},
	{
		// The run: -target 20 with one thread against the
		// embedded server on 2 CPUs that two other processes kept
		// busy; scheduling alone started 52 of 300 operations late.
		name: "throttled run held its target on a host busy with others",
		run: run{target: 20, throughput: 20.06, lateStarts: 52, operations: 300, lagP50Us: 9, lagP99Us: 199679, threads: 1, local: true,
			client: &results.Client{WallS: 15, Utilization: 0.024, Waiting: 0.208, AllowedCPUs: 2, HostCPUs: 2, IncludesEmbeddedServer: true},
			host:   othersBusy(2, 59.7, 40.3, 2.5), server: withServer(func(s *metrics.ServerInterval) { s.Cache, s.GlobalLock = nil, metrics.GlobalLock{} })},
		verdict: Target, limits: []string{Target},
		say: []string{"the run held its -target of 20 ops/s: 20.1 ops/s, 100.3% of it",
			"host busy with other processes near its limit though the run held its target: the server's host CPUs were 100.0% busy",
			"other processes used 97.5% of the CPUs, 97.5% of their busy time (threshold 50.0%)",
			"52 of 300 operations started over 1 ms late (schedule lag p99 199.7 ms): the schedule was kept on the whole"},
	},
	{
		// Near the target, nothing else found: borderline.
		name:    "target nearly kept",
		run:     run{target: 100, throughput: 92, lateStarts: 900, local: true, client: quietClient(), host: busyCPU(30, 5), server: quietServer},
		verdict: Target + " (borderline)", limits: []string{Target + "~"},
		say: []string{"the run came near its -target of 100 ops/s: 92.0 ops/s, 92.0% of it (threshold 95.0%)"},
	},
	{
		// Throughput reached the target, but most operations started
		// late: the schedule ran behind, so the target did not hold it.
		name:    "target reached with most starts late",
		run:     run{target: 100, throughput: 97, lateStarts: 40000, local: true, client: quietClient(), host: busyCPU(30, 5), server: quietServer},
		verdict: results.NoLimitFound,
		say:     []string{"the run fell behind its -target of 100 ops/s: 97.0 ops/s", "40000 of 60000 operations (66.7%) started over 1 ms late, threshold 50.0%, and no resource mongobench watches was saturated"},
	},
	{
		// Throughput near the target, but the median operation started
		// 5 steps late (16 threads at 100 ops/s: one step is 160 ms):
		// the schedule ran behind.
		name:    "target reached with the schedule behind",
		run:     run{target: 100, throughput: 96, lateStarts: 50000, lagP50Us: 800000, lagP99Us: 2400000, local: true, client: quietClient(), host: busyCPU(30, 5), server: quietServer},
		verdict: results.NoLimitFound,
		say:     []string{"the run fell behind its -target of 100 ops/s: 96.0 ops/s, 96.0% of it (threshold 95.0%); the median operation started 800.0 ms behind its schedule, threshold 160.0 ms"},
	},
	{
		// The same host, but the run fell behind its target.
		name: "target missed on a busy host",
		run: run{target: 2000, throughput: 1400, lateStarts: 9000, local: true, client: quietClient(), host: busyCPU(85, 10),
			server: quietServer},
		verdict: ServerCPU, limits: []string{ServerCPU},
		say: []string{"the run fell behind its -target of 2000 ops/s"},
	},
	{
		// A closed loop against the embedded server on a host that
		// others keep busy: mongobench's process asked for little and
		// got it late. The host is named, not the server.
		name: "host busy with others, embedded",
		run: run{threads: 1, local: true,
			client: &results.Client{WallS: 60, Utilization: 0.04, Waiting: 0.30, AllowedCPUs: 2, HostCPUs: 2, IncludesEmbeddedServer: true},
			host:   othersBusy(2, 60, 39.6, 4), server: quietServer},
		verdict: HostBusy, limits: []string{HostBusy},
		say: []string{"the server's host CPUs were 99.6% busy", "other processes used 95.6% of the CPUs, 96.0% of their busy time (threshold 50.0%), against 4.0% for mongobench's process, client and server together: most of the load was not the server's"},
	},
	{
		// The banner: a client on the busy host of a remote
		// server used 4% of its 2 CPUs and waited 84% of the time.
		// It was starved by others: the host-busy verdict, not
		// client-bound.
		name: "client starved on a host busy with others",
		run: run{client: &results.Client{WallS: 60, Utilization: 0.04, Waiting: 0.84, AllowedCPUs: 2, HostCPUs: 2},
			host: othersBusy(2, 60, 39.6, 4), server: quietServer},
		verdict: HostBusy, limits: []string{HostBusy},
		say: []string{"the client's host CPUs were 99.6% busy", "the client's threads waited for a CPU 84.0% of the time", "other processes used 95.6% of the client's host CPUs"},
	},
	{
		// The embedded server saturating an otherwise idle host stays
		// the server's CPU.
		name: "embedded server saturates the host",
		run: run{local: true,
			client: &results.Client{WallS: 60, Utilization: 0.93, Waiting: 0.6, AllowedCPUs: 2, HostCPUs: 2, IncludesEmbeddedServer: true},
			host:   othersBusy(2, 70, 28, 93), server: quietServer},
		verdict: ServerCPU, limits: []string{ServerCPU},
		say: []string{"the client and the embedded server, one process, used 93.0% of the 2 CPUs it may use and waited for a CPU 60.0% of the time (threshold 50.0%)"},
	},
	{
		// The embedded server took most of a host others shared: still
		// the server's CPU, with the others named.
		name: "embedded server on a shared host",
		run: run{local: true,
			client: &results.Client{WallS: 60, Utilization: 0.6, Waiting: 0.7, AllowedCPUs: 2, HostCPUs: 2, IncludesEmbeddedServer: true},
			host:   othersBusy(2, 70, 28, 60), server: quietServer},
		verdict: ServerCPU, limits: []string{ServerCPU},
		say: []string{"other processes used 38.0% of the CPUs, 38.8% of their busy time: the machine is shared"},
	},
	{
		// A local mongod, its own CPU read by the pid its serverStatus
		// reports, fills the host: the server's CPU, by its own figure.
		name: "local server saturates the host",
		run: run{local: true, client: &results.Client{WallS: 60, Utilization: 0.1, Waiting: 0.05, AllowedCPUs: 2, HostCPUs: 2},
			host: serverUsed(othersBusy(2, 70, 28, 5), 90), server: quietServer},
		verdict: ServerCPU, limits: []string{ServerCPU},
		say: []string{"of that, the client's own process used 5.0%", "the server's own process used 90.0%"},
	},
	{
		// The banner: a client beside a local server, using 4%
		// of its 2 CPUs and waiting for one 84% of the time, on a host
		// that neither the client nor the server kept busy.
		name: "local server, host busy with others",
		run: run{local: true, client: &results.Client{WallS: 60, Utilization: 0.04, Waiting: 0.84, AllowedCPUs: 2, HostCPUs: 2},
			host: serverUsed(othersBusy(2, 60, 39.6, 4), 6), server: quietServer},
		verdict: HostBusy, limits: []string{HostBusy},
		say: []string{"other processes used 89.6% of the CPUs, 90.0% of their busy time (threshold 50.0%), against 4.0% for the client and 6.0% for the server: most of the load was neither's"},
	},
	{
		// A local server and a client that used more of the host than it.
		name: "local server, client heavier",
		run: run{local: true, client: &results.Client{WallS: 60, Utilization: 0.6, Waiting: 0.2, AllowedCPUs: 2, HostCPUs: 2},
			host: serverUsed(othersBusy(2, 70, 28, 60), 35), server: quietServer},
		verdict: ClientCPU, limits: []string{ClientCPU},
		say: []string{"the client took more of the CPUs it shares with the server than the server did: 60.0% against 35.0%"},
	},
	{
		// A local server beside a client that takes most of the CPUs.
		name: "client takes the shared host",
		run: run{local: true, client: &results.Client{WallS: 60, Utilization: 0.7, Waiting: 0.1, AllowedCPUs: 2, HostCPUs: 2},
			host: othersBusy(2, 70, 28, 70), server: quietServer},
		verdict: ClientCPU + "", limits: []string{ClientCPU},
		say: []string{"the client used 70.0% of the 2 CPUs it may use", "the client took most of the CPUs it shares with the server: 71.4% of their busy time"},
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
	{
		// A held target needs no metrics to be seen.
		name:    "target held, no metrics",
		run:     run{target: 50, throughput: 50, operations: 500},
		verdict: Target, limits: []string{Target},
		say: []string{"the run held its -target of 50 ops/s: 50.0 ops/s, 100.0% of it (threshold 95.0%); 0 of 500 operations (0.0%) started over 1 ms late, threshold 50.0%"},
	},
}

func TestDiagnose(t *testing.T) {
	t.Parallel()
	tests := diagnoseCases
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

// TestDiagnoseWordings keeps every case's [DIAGNOSIS] lines in a golden
// file: each wording the verdict rules can produce, with its figures.
func TestDiagnoseWordings(t *testing.T) {
	t.Parallel()
	var all strings.Builder
	for _, tt := range diagnoseCases {
		all.WriteString("# " + tt.name + "\n")
		for _, l := range SummaryLines(Diagnose(tt.run.results(), tt.ceiling)) {
			all.WriteString(l + "\n")
		}
	}
	golden.Check(t, "verdicts.golden", all.String())
}

func dump(d *results.Diagnosis) string {
	b, _ := json.MarshalIndent(d, "", "  ")
	return string(b)
}

// TestDiagnoseRecorded judges runs of the embedded server recorded on a
// 2-core machine shared with other work: the client and the server in
// one process, the host's CPUs busy.
func TestDiagnoseRecorded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file    string
		verdict string
		say     []string
	}{
		{
			// 8 threads for 4 s; the benchmark's process used 42.4% of the
			// CPUs and others a little more, 44.6% of 89.7% busy.
			file: "embedded_cpu_bound.json", verdict: HostBusy,
			say: []string{"the server's host CPUs were 89.7% busy", "waited for a CPU 72.6% of the time (threshold 50.0%)",
				"the client and the embedded server, one process, used 42.4% of the 2 CPUs",
				"other processes used 47.3% of the CPUs, 52.7% of their busy time (threshold 50.0%), against 42.4% for mongobench's process"},
		},
		{
			// The run: -target 20, one thread, two `yes` loops and
			// other work on the CPUs. It held its target.
			file: "target_held_busy_host.json", verdict: Target,
			say: []string{"the run held its -target of 20 ops/s: 20.1 ops/s, 100.3% of it (threshold 95.0%); the median operation started 0.0 ms behind its schedule, threshold 50.0 ms",
				"44 of 300 operations (14.7%) started over 1 ms late",
				"host busy with other processes near its limit though the run held its target",
				"other processes used 97.5% of the CPUs"},
		},
		{
			// One thread in a closed loop beside the same `yes` loops.
			file: "closed_loop_busy_host.json", verdict: HostBusy,
			say: []string{"the client and the embedded server, one process, used 7.2% of the 2 CPUs", "other processes used 92.8% of the CPUs, 92.9% of their busy time (threshold 50.0%), against 7.1% for mongobench's process"},
		},
		{
			// 16 threads, no target, on the machine when it was quiet: the
			// benchmark's own process filled the CPUs. Server CPU.
			file: "threads16_quiet_host.json", verdict: ServerCPU,
			say: []string{"the server's host CPUs were 93.5% busy", "the client and the embedded server, one process, used 90.7% of the 2 CPUs it may use and waited for a CPU 9.9% of the time"},
		},
		{
			// 16 threads, no target, while other work kept the CPUs busy.
			file: "threads16_busy_host.json", verdict: HostBusy,
			say: []string{"the client and the embedded server, one process, used 33.9% of the 2 CPUs", "other processes used 64.5% of the CPUs, 65.5% of their busy time (threshold 50.0%), against 33.9% for mongobench's process"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile("testdata/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			var r results.Results
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			d := Diagnose(&r)
			if d.Verdict != tt.verdict {
				t.Fatalf("verdict %q, want %q\n%s", d.Verdict, tt.verdict, dump(d))
			}
			text := dump(d)
			if tt.verdict == ServerCPU && strings.Contains(text, "other processes") {
				t.Errorf("a host the benchmark filled names other processes:\n%s", text)
			}
			for _, s := range tt.say {
				if !strings.Contains(text, s) {
					t.Errorf("the diagnosis does not say %q:\n%s", s, text)
				}
			}
		})
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

// A short last interval counts by its length: the means are over time,
// not over intervals. Two 10 s intervals at 20% busy and a 0.5 s one at
// 100% average 21.95%, not the 46.7% of three equal intervals.
func TestDiagnoseWeighsIntervalsByLength(t *testing.T) {
	t.Parallel()
	r := &results.Results{Phase: results.PhaseRun, Config: map[string]string{"threadcount": "4"}, Operations: 1000, ThroughputOpsSec: 50,
		Extra: &results.Extra{Client: quietClient()}}
	for i, iv := range []struct{ t, busy float64 }{{10, 20}, {20, 20}, {20.5, 100}} {
		c := cpu(iv.busy, 0, 0, 0)
		r.Extra.HostMetrics = append(r.Extra.HostMetrics, results.HostSample{T: iv.t, Host: &metrics.HostInterval{DescribesServer: true, CPU: c,
			Process: &metrics.ProcessInterval{CPUPct: v(float64(i + 1))}}})
	}
	f := gather(r)
	if got := f.cpu.user.v(); math.Abs(got-(20*20+100*0.5)/20.5) > 1e-9 {
		t.Errorf("host CPU user %.4f%%, want %.4f%%", got, (20*20+100*0.5)/20.5)
	}
	if got := f.cpu.process.v(); math.Abs(got-(1*10+2*10+3*0.5)/20.5) > 1e-9 {
		t.Errorf("process CPU %.4f%%, want %.4f%%", got, (1*10+2*10+3*0.5)/20.5)
	}
	if d := Diagnose(r); d.Verdict != results.NoLimitFound {
		t.Errorf("verdict %q: 22%% busy over the run is no limit\n%s", d.Verdict, dump(d))
	}
}
