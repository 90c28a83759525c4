// Package diagnosis says what limited a run: it reads the metric series a
// results file already holds (the client's CPU and wait, the host's CPU
// and disks, serverStatus's queues, cache and connections) and names the
// resources that were saturated, strongest first, with the figures that
// crossed each threshold. It is pure: results in, a verdict out.
//
// It is a package of its own rather than part of the comparison and report
// analysis because it judges one run from its metrics, while those pair and
// compare runs from their latencies; the sweep, compare and report read its
// verdict from the results.
package diagnosis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/selfmon"
)

// The kinds of limit, as the summary, the sweep table and the report name
// them.
const (
	ClientCPU   = "client CPU"
	ServerCPU   = "server CPU"
	Disk        = "disk"
	Cache       = "WiredTiger cache"
	Queues      = "lock/ticket queues"
	Connections = "connections"
	Network     = "network"
)

// The thresholds. Each figure is the mean over the run's intervals; a
// figure between the borderline value and the threshold makes a borderline
// limit. The README lists them with the figure each is compared with.
const (
	// ClientCPUShare is the client's CPU use plus its wait for a CPU, as a
	// share of the CPUs it may use, at which the client is the limit
	// (selfmon's client-bound rule).
	ClientCPUShare           = selfmon.ClientBoundThreshold
	ClientCPUBorderlineShare = 0.65

	// HostCPUBusyPct is the host's CPU time in user, system and steal at
	// which its CPUs are saturated. Iowait is idle time, not work.
	HostCPUBusyPct           = 90.0
	HostCPUBorderlineBusyPct = 80.0

	// DiskCeilingShare is the share of the disk's measured ceiling
	// (random IOPS, or sequential MB/s, from mongobench disk) at which the
	// disk is the limit.
	DiskCeilingShare           = 0.8
	DiskCeilingBorderlineShare = 0.6

	// Without a measured ceiling: DiskUtilPct of the time with I/O in
	// flight and DiskQueueDepth requests waiting on average. A disk that
	// serves requests in parallel can be 100% busy with room to spare, so
	// utilisation with a short queue is only borderline.
	DiskUtilPct           = 90.0
	DiskUtilBorderlinePct = 75.0
	DiskQueueDepth        = 2.0

	// RunQueueWaitShare is the share of the time the process's threads
	// were ready to run but waited for a CPU (as a share of the CPUs it may
	// use) at which the host's CPUs are saturated, whatever their idle
	// time says: CPUs that are idle while threads wait are out of reach.
	RunQueueWaitShare           = 0.5
	RunQueueWaitBorderlineShare = 0.25

	// CacheFillRatio is WiredTiger's default eviction trigger (95% full):
	// from there application threads help evict. With it, a hit ratio
	// under CacheHitRatio means the working set does not fit.
	CacheFillRatio           = 0.95
	CacheHitRatio            = 0.90
	CacheBorderlineHitRatio  = 0.97
	CacheBorderlineFillRatio = 0.90

	// QueuedOps is the mean number of operations waiting in the global
	// lock's queues (readers plus writers: waiting for a lock or a ticket)
	// at which they are the limit.
	QueuedOps           = 1.0
	QueuedOpsBorderline = 0.5

	// ConnectionsShare is the share of the server's connections in use
	// (current of current plus available).
	ConnectionsShare           = 0.9
	ConnectionsBorderlineShare = 0.8

	// LinkMBPerS is a 1 Gbit/s link in MB/s: the link's speed is not in the
	// metrics, so the network is judged against the slowest common one,
	// and only ever as borderline.
	LinkMBPerS           = 119.2
	NetworkShare         = 0.8
	NetworkBorderlineShr = 0.6

	// TargetKeptShare: an open-loop run whose throughput reached this share
	// of -target, with at most LateStartShare of its operations started
	// late, kept up with its schedule: nothing limited it.
	TargetKeptShare = 0.95
	LateStartShare  = 0.01
)

// Diagnose judges the run r. ceilings are the disk baselines known, the
// newest of each device; the run's busiest disk is judged against its own,
// or by its utilisation when none was measured.
func Diagnose(r *results.Results, ceilings ...*results.DiskCeiling) *results.Diagnosis {
	f := gather(r)
	d := &results.Diagnosis{}
	j := &judge{d: d, f: f}

	judged := false
	judged = j.client() || judged
	judged = j.hostCPU() || judged
	judged = j.disk(ceilings) || judged
	judged = j.server() || judged

	slices.SortStableFunc(d.Limits, func(a, b results.Limit) int {
		if a.Borderline != b.Borderline {
			if a.Borderline {
				return 1
			}
			return -1
		}
		switch {
		case a.Severity > b.Severity:
			return -1
		case a.Severity < b.Severity:
			return 1
		}
		return 0
	})

	kept := j.targetKept()
	switch {
	case !judged:
		d.Verdict = "cannot judge: the results hold no client, host or server metrics"
		d.Limits = nil
	case kept != "":
		// A run that kept its schedule was not limited, whatever was busy:
		// what would be a limit is said as a note.
		for _, l := range d.Limits {
			d.Notes = append(d.Notes, fmt.Sprintf("%s near its limit though the run kept its target: %s", l.Kind, strings.Join(l.Evidence, "; ")))
		}
		d.Limits = nil
		d.Notes = append([]string{kept}, d.Notes...)
		d.Verdict = results.NoLimitFound
	case len(d.Limits) == 0:
		d.Verdict = results.NoLimitFound
		if f.target == 0 && f.threads > 0 {
			who := fmt.Sprintf("each of the %d threads", f.threads)
			if f.threads == 1 {
				who = "the one thread"
			}
			d.Notes = append(d.Notes, "in a closed loop "+who+" waits for its operation: throughput is threads ÷ latency, so more threads would go faster")
		}
	case d.Limits[0].Borderline:
		d.Verdict = d.Limits[0].Kind + " (borderline)"
	default:
		d.Verdict = d.Limits[0].Kind
	}
	return d
}

// figures are the run's metrics reduced to one value each: the mean over
// the intervals that have it.
type figures struct {
	client      *results.Client
	target      float64
	threads     int
	throughput  float64
	operations  int64
	lateStarts  int64
	hostSamples int
	// serverLocal is whether the host figures describe the server's host.
	serverLocal bool
	cpu         struct{ user, system, steal, iowait, idle, process mean }
	numCPU      int
	disks       []diskFigures
	serverSeen  bool
	serverError string
	conns       struct{ current, available mean }
	queued      mean
	netIn       mean
	netOut      mean
	cache       struct {
		seen                             bool
		fill, hit, readMB, appReads, max mean
	}
}

type diskFigures struct {
	name                                    string
	iops, reads, writes, rMB, wMB, util, aq mean
	await                                   mean
}

// mean accumulates a figure over intervals.
type mean struct {
	sum float64
	n   int
}

func (m *mean) add(v metrics.Value) {
	if v.OK {
		m.sum += v.V
		m.n++
	}
}

func (m mean) ok() bool { return m.n > 0 }

func (m mean) v() float64 {
	if m.n == 0 {
		return 0
	}
	return m.sum / float64(m.n)
}

func gather(r *results.Results) *figures {
	f := &figures{throughput: r.ThroughputOpsSec, operations: r.Operations}
	f.target, _ = strconv.ParseFloat(r.Config["target"], 64)
	f.threads, _ = strconv.Atoi(r.Config["threadcount"])
	var server []*metrics.ServerInterval
	var host []*metrics.HostInterval
	if e := r.Extra; e != nil {
		f.client = e.Client
		if e.Runner != nil {
			f.lateStarts = e.Runner.LateStarts
		}
		for _, s := range e.ServerMetrics {
			server = append(server, s.Server)
		}
		for _, h := range e.HostMetrics {
			host = append(host, h.Host)
		}
	}
	if len(server) == 0 && len(host) == 0 {
		// Results written before the series were copied into extra.
		for _, iv := range r.Intervals {
			if iv.Metrics != nil {
				server = append(server, iv.Metrics.Server)
				host = append(host, iv.Metrics.Host)
			}
		}
	}
	diskAt := map[string]int{}
	for _, h := range host {
		if h == nil {
			continue
		}
		f.hostSamples++
		f.serverLocal = h.DescribesServer
		if c := h.CPU; c != nil {
			f.numCPU = c.NumCPU
			f.cpu.user.add(c.UserPct)
			f.cpu.system.add(c.SystemPct)
			f.cpu.steal.add(c.StealPct)
			f.cpu.iowait.add(c.IowaitPct)
			f.cpu.idle.add(c.IdlePct)
		}
		if p := h.Process; p != nil {
			f.cpu.process.add(p.CPUPct)
		}
		for _, k := range h.Disks {
			i, ok := diskAt[k.Name]
			if !ok {
				i = len(f.disks)
				diskAt[k.Name] = i
				f.disks = append(f.disks, diskFigures{name: k.Name})
			}
			df := &f.disks[i]
			df.iops.add(k.IOPS)
			df.reads.add(k.ReadsPerSec)
			df.writes.add(k.WritesPerSec)
			df.rMB.add(k.ReadMBPerSec)
			df.wMB.add(k.WriteMBPerSec)
			df.util.add(k.UtilPct)
			df.aq.add(k.AvgQueueSize)
			df.await.add(k.AwaitMs)
		}
	}
	for _, s := range server {
		if s == nil {
			continue
		}
		if s.Error != "" {
			f.serverError = s.Error
			continue
		}
		f.serverSeen = true
		f.conns.current.add(s.Connections.Current)
		f.conns.available.add(s.Connections.Available)
		if s.GlobalLock.QueueReaders.OK || s.GlobalLock.QueueWriters.OK {
			f.queued.add(metrics.Known(s.GlobalLock.QueueReaders.V + s.GlobalLock.QueueWriters.V))
		}
		f.netIn.add(s.Network.BytesInPerSec)
		f.netOut.add(s.Network.BytesOutPerSec)
		if c := s.Cache; c != nil {
			f.cache.seen = true
			f.cache.fill.add(c.FillRatio)
			f.cache.hit.add(c.HitRatio)
			f.cache.readMB.add(c.ReadIntoMBPerSec)
			f.cache.appReads.add(c.AppPageReadsPerSec)
			f.cache.max.add(c.MaxBytes)
		}
	}
	return f
}

type judge struct {
	d *results.Diagnosis
	f *figures
}

// level says how a figure stands against its threshold and borderline
// value (higher is worse): 0 under both, 1 borderline, 2 over.
func level(v, threshold, borderline float64) int {
	switch {
	case v >= threshold:
		return 2
	case v >= borderline:
		return 1
	}
	return 0
}

func (j *judge) add(kind string, lvl int, severity float64, evidence ...string) {
	if lvl == 0 {
		return
	}
	for i := range j.d.Limits {
		l := &j.d.Limits[i]
		if l.Kind == kind {
			l.Evidence = append(l.Evidence, evidence...)
			l.Borderline = l.Borderline && lvl == 1
			l.Severity = max(l.Severity, severity)
			return
		}
	}
	j.d.Limits = append(j.d.Limits, results.Limit{Kind: kind, Borderline: lvl == 1, Severity: severity, Evidence: evidence})
}

func pct(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "%" }

func num(v float64, decimals int) string { return strconv.FormatFloat(v, 'f', decimals, 64) }

// client judges the client's own CPU. A client sharing its process with the
// embedded server is judged with the host's CPU instead.
func (j *judge) client() bool {
	c := j.f.client
	if c == nil || c.WallS <= 0 {
		return false
	}
	share := c.Utilization + c.Waiting
	if c.IncludesEmbeddedServer {
		return true
	}
	lvl := level(share, ClientCPUShare, ClientCPUBorderlineShare)
	j.add(ClientCPU, lvl, share/ClientCPUShare, fmt.Sprintf(
		"the client used %s of the %s CPUs it may use and waited for a CPU %s of the time: %s together, threshold %s",
		pct(100*c.Utilization), num(c.AllowedCPUs, -1), pct(100*c.Waiting), pct(100*share), pct(100*ClientCPUShare)))
	return true
}

// hostCPU judges the CPUs of the host mongobench ran on: the server's when
// it is local, else the client's.
func (j *judge) hostCPU() bool {
	f := j.f
	if !f.cpu.user.ok() {
		if f.hostSamples > 0 || f.serverSeen {
			j.d.CannotJudge = append(j.d.CannotJudge, "host CPU: the host's CPU times could not be read")
		}
		return false
	}
	busy := f.cpu.user.v() + f.cpu.system.v() + f.cpu.steal.v()
	lvl := level(busy, HostCPUBusyPct, HostCPUBorderlineBusyPct)
	split := fmt.Sprintf("user %s, system %s, steal %s; iowait %s and idle %s",
		pct(f.cpu.user.v()), pct(f.cpu.system.v()), pct(f.cpu.steal.v()), pct(f.cpu.iowait.v()), pct(f.cpu.idle.v()))
	if !f.serverLocal {
		j.d.CannotJudge = append(j.d.CannotJudge,
			"server CPU and disk: the server is on another host and only its serverStatus is read; watch its host (top, iostat) or run mongobench there")
		// The host figures are the client's machine: busy CPUs there
		// limit the client.
		j.add(ClientCPU, lvl, busy/HostCPUBusyPct, fmt.Sprintf("the client's host CPUs were %s busy (%s), threshold %s",
			pct(busy), split, pct(HostCPUBusyPct)))
		return true
	}
	severity := busy / HostCPUBusyPct
	evidence := []string{fmt.Sprintf("the server's host CPUs were %s busy (%s), threshold %s", pct(busy), split, pct(HostCPUBusyPct))}
	if c := f.client; c != nil && c.WallS > 0 {
		if wl := level(c.Waiting, RunQueueWaitShare, RunQueueWaitBorderlineShare); wl > 0 {
			lvl = max(lvl, wl)
			severity = max(severity, c.Waiting/RunQueueWaitShare)
			if !c.IncludesEmbeddedServer {
				evidence = append(evidence, fmt.Sprintf("the client's threads waited for a CPU %s of the time, threshold %s: more work was ready than the CPUs could run",
					pct(100*c.Waiting), pct(100*RunQueueWaitShare)))
			}
		}
	}
	if f.cpu.steal.v() >= 10 {
		evidence = append(evidence, fmt.Sprintf("the hypervisor took %s of the CPU time (steal): the machine gets less CPU than it shows", pct(f.cpu.steal.v())))
	}
	if c := f.client; c != nil && c.IncludesEmbeddedServer && c.WallS > 0 {
		evidence = append(evidence, fmt.Sprintf(
			"the client and the embedded server, one process, used %s of the %s CPUs it may use and waited for a CPU %s of the time (threshold %s)",
			pct(100*c.Utilization), num(c.AllowedCPUs, -1), pct(100*c.Waiting), pct(100*RunQueueWaitShare)))
	} else if f.cpu.process.ok() {
		evidence = append(evidence, fmt.Sprintf("of that, the client's own process used %s", pct(f.cpu.process.v())))
	}
	if lvl > 0 && f.cpu.process.ok() && busy > 0 && f.cpu.process.v() < busy/2 {
		// Only worth saying when most of the load is someone else's.
		if c := f.client; c != nil && c.IncludesEmbeddedServer {
			evidence = append(evidence, fmt.Sprintf("other processes used %s of the CPUs: the machine is shared", pct(busy-f.cpu.process.v())))
		}
	}
	j.add(ServerCPU, lvl, severity, evidence...)
	return true
}

// disk judges the server host's busiest disk, against its measured
// ceiling when there is one.
func (j *judge) disk(ceilings []*results.DiskCeiling) bool {
	f := j.f
	if !f.serverLocal || len(f.disks) == 0 {
		return false
	}
	busiest := &f.disks[0]
	for i := range f.disks {
		if f.disks[i].util.v() > busiest.util.v() {
			busiest = &f.disks[i]
		}
	}
	var measured []string
	for _, c := range ceilings {
		if c == nil {
			continue
		}
		if c.Device == busiest.name {
			j.d.DiskCeiling = c
			j.diskAgainstCeiling(busiest, c)
			return true
		}
		measured = append(measured, c.Device)
	}
	if len(measured) > 0 {
		j.d.Notes = append(j.d.Notes, fmt.Sprintf("the disk baselines measured %s, not %s, this run's busiest disk: it is judged by its utilisation",
			strings.Join(measured, ", "), busiest.name))
	}
	k := busiest
	util, queue := k.util.v(), k.aq.v()
	lvl := level(util, DiskUtilPct, DiskUtilBorderlinePct)
	if lvl == 2 && queue < DiskQueueDepth {
		lvl = 1
	}
	evidence := []string{fmt.Sprintf("disk %s was busy %s of the time (threshold %s) with %s requests in flight on average (threshold %s), %s IOPS at %s ms each",
		k.name, pct(util), pct(DiskUtilPct), num(queue, 2), num(DiskQueueDepth, 1), num(k.iops.v(), 0), num(k.await.v(), 2))}
	if lvl == 1 {
		evidence = append(evidence, "a disk serving requests in parallel can be busy all the time with room to spare: measure its ceiling with mongobench disk")
	}
	if f.cpu.iowait.ok() && f.cpu.iowait.v() >= 10 {
		evidence = append(evidence, fmt.Sprintf("the CPUs waited for I/O %s of the time", pct(f.cpu.iowait.v())))
	}
	j.add(Disk, lvl, util/DiskUtilPct, evidence...)
	return true
}

func (j *judge) diskAgainstCeiling(k *diskFigures, c *results.DiskCeiling) {
	// Reads and writes share the disk: the shares of each ceiling add up.
	var iopsShare, bwShare float64
	if c.RandReadIOPS > 0 {
		iopsShare += k.reads.v() / c.RandReadIOPS
	}
	if c.RandWriteIOPS > 0 {
		iopsShare += k.writes.v() / c.RandWriteIOPS
	}
	if c.SeqReadMBPerS > 0 {
		bwShare += k.rMB.v() / c.SeqReadMBPerS
	}
	if c.SeqWriteMBPerS > 0 {
		bwShare += k.wMB.v() / c.SeqWriteMBPerS
	}
	share := max(iopsShare, bwShare)
	lvl := level(share, DiskCeilingShare, DiskCeilingBorderlineShare)
	evidence := []string{
		fmt.Sprintf("disk %s did %s reads/s and %s writes/s of its measured %s random-read and %s random-write IOPS: %s of its ceiling, threshold %s",
			k.name, num(k.reads.v(), 0), num(k.writes.v(), 0), num(c.RandReadIOPS, 0), num(c.RandWriteIOPS, 0), pct(100*iopsShare), pct(100*DiskCeilingShare)),
		fmt.Sprintf("disk %s read %s MB/s and wrote %s MB/s of its measured %s and %s MB/s sequential: %s of its bandwidth",
			k.name, num(k.rMB.v(), 1), num(k.wMB.v(), 1), num(c.SeqReadMBPerS, 0), num(c.SeqWriteMBPerS, 0), pct(100*bwShare)),
	}
	if lvl == 0 {
		// Under its ceiling, how far under is still worth knowing.
		j.d.Notes = append(j.d.Notes, evidence...)
		return
	}
	j.add(Disk, lvl, share/DiskCeilingShare, evidence...)
}

// server judges what serverStatus shows: queues, cache, connections,
// network.
func (j *judge) server() bool {
	f := j.f
	if !f.serverSeen {
		if f.serverError != "" {
			j.d.CannotJudge = append(j.d.CannotJudge, "lock queues, cache, connections and network: serverStatus failed: "+f.serverError)
		}
		return false
	}
	var missing []string
	if f.queued.ok() {
		q := f.queued.v()
		j.add(Queues, level(q, QueuedOps, QueuedOpsBorderline), q/QueuedOps,
			fmt.Sprintf("%s operations waited in the global lock's queues on average, threshold %s", num(q, 1), num(QueuedOps, 1)))
	} else {
		missing = append(missing, "lock queues")
	}
	if f.cache.seen && f.cache.fill.ok() {
		fill, hit := f.cache.fill.v(), f.cache.hit.v()
		lvl := 0
		if fill >= CacheBorderlineFillRatio && f.cache.hit.ok() {
			lvl = level(1-hit, 1-CacheHitRatio, 1-CacheBorderlineHitRatio)
			if lvl == 2 && fill < CacheFillRatio {
				lvl = 1
			}
		}
		severity := 0.0
		if hit < 1 {
			severity = (1 - hit) / (1 - CacheHitRatio)
		}
		evidence := []string{fmt.Sprintf("the cache was %s full (eviction starts at %s) and %s of the pages asked for were in it (threshold %s)",
			pct(100*fill), pct(100*CacheFillRatio), pct(100*hit), pct(100*CacheHitRatio))}
		if f.cache.readMB.ok() {
			evidence = append(evidence, fmt.Sprintf("%s MB/s were read into the cache", num(f.cache.readMB.v(), 1)))
		}
		if f.cache.appReads.ok() && f.cache.appReads.v() > 0 {
			evidence = append(evidence, fmt.Sprintf("application threads read %s pages/s from disk themselves", num(f.cache.appReads.v(), 0)))
		}
		j.add(Cache, lvl, severity, evidence...)
	} else {
		missing = append(missing, "WiredTiger cache")
	}
	if f.conns.current.ok() && f.conns.available.ok() && f.conns.current.v()+f.conns.available.v() > 0 {
		cur, avail := f.conns.current.v(), f.conns.available.v()
		share := cur / (cur + avail)
		j.add(Connections, level(share, ConnectionsShare, ConnectionsBorderlineShare), share/ConnectionsShare,
			fmt.Sprintf("%s connections of %s were in use: %s, threshold %s", num(cur, 0), num(cur+avail, 0), pct(100*share), pct(100*ConnectionsShare)))
	} else {
		missing = append(missing, "connections")
	}
	if f.netIn.ok() || f.netOut.ok() {
		mb := max(f.netIn.v(), f.netOut.v()) / (1 << 20)
		share := mb / LinkMBPerS
		lvl := min(level(share, NetworkShare, NetworkBorderlineShr), 1)
		j.add(Network, lvl, share/NetworkShare, fmt.Sprintf(
			"the server received %s MB/s and sent %s MB/s: %s of a 1 Gbit/s link (%s MB/s), threshold %s; the link's real speed is not known",
			num(f.netIn.v()/(1<<20), 1), num(f.netOut.v()/(1<<20), 1), pct(100*share), num(LinkMBPerS, 1), pct(100*NetworkShare)))
	} else {
		missing = append(missing, "network")
	}
	if len(missing) > 0 {
		j.d.CannotJudge = append(j.d.CannotJudge, strings.Join(missing, ", ")+": not reported by this server")
	}
	return true
}

// targetKept returns the note for an open-loop run that kept up with its
// target, or "".
func (j *judge) targetKept() string {
	f := j.f
	if f.target <= 0 || f.operations <= 0 {
		return ""
	}
	if f.throughput < TargetKeptShare*f.target || float64(f.lateStarts) > LateStartShare*float64(f.operations) {
		return ""
	}
	return fmt.Sprintf("the run kept its -target of %s ops/s (%s ops/s, %d of %d operations started late)",
		num(f.target, -1), num(f.throughput, 1), f.lateStarts, f.operations)
}

// DiskUse is what a run asked of one disk, as means over its intervals.
type DiskUse struct {
	Device                      string
	ReadsPerSec, WritesPerSec   float64
	ReadMBPerSec, WriteMBPerSec float64
	UtilPct                     float64
}

// BusiestDisk is the server host's busiest disk in run r (by %util), or
// false when the host figures are not the server's or show no disk.
func BusiestDisk(r *results.Results) (DiskUse, bool) {
	f := gather(r)
	if !f.serverLocal || len(f.disks) == 0 {
		return DiskUse{}, false
	}
	b := &f.disks[0]
	for i := range f.disks {
		if f.disks[i].util.v() > b.util.v() {
			b = &f.disks[i]
		}
	}
	return DiskUse{Device: b.name, ReadsPerSec: b.reads.v(), WritesPerSec: b.writes.v(),
		ReadMBPerSec: b.rMB.v(), WriteMBPerSec: b.wMB.v(), UtilPct: b.util.v()}, true
}
