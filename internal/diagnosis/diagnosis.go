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
	// HostBusy: the CPUs were saturated by processes other than the
	// benchmark's, not by the server or the client.
	HostBusy = "host busy with other processes"
	// Target: an open-loop run that held its -target was held by it.
	Target = "target"
)

// The thresholds. Each figure is the mean over the run's intervals; a
// figure between the borderline value and the threshold makes a borderline
// limit. docs/explanation/diagnosis.md lists them with the figure each is compared with.
const (
	// ClientCPUShare is the client's own CPU use, as a share of the CPUs
	// it may use (GOMAXPROCS and a cgroup quota included), at which the
	// client is the limit: it is client-bound. Its wait for a CPU is not
	// added in: who kept the CPUs from it is judged with the host's CPUs
	// (OthersShare).
	ClientCPUShare           = 0.8
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

	// OthersShare: when the CPUs are saturated and processes other than
	// mongobench's own took at least this share of their busy time, the
	// host was busy with other processes. From OthersNoteShare up they are
	// named in the evidence of a CPU limit that is still the server's.
	// Against a local server in a process of its own, the rest is the
	// server's and the others' together: its client takes the CPUs when
	// its own share is over 1 - OthersShare, else the server is named,
	// with that caveat.
	OthersShare     = 0.5
	OthersNoteShare = 0.25

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
	// of -target held its target, and was limited by it, whatever was busy
	// meanwhile; from TargetBorderlineShare it came near (a borderline
	// limit when nothing else is found). Its median operation must also
	// have started less than ScheduleLagSteps schedule steps late (a step
	// is threads ÷ target, the time between one thread's operations): a
	// busy host delays many starts past the 1 ms that counts as late by
	// scheduling alone, while a schedule that runs behind delays the
	// median operation by many steps. Results without the schedule lag are
	// held to at most LateStartShare of operations started late. Over
	// LateStartNoteShare late, a note says so.
	TargetKeptShare       = 0.95
	TargetBorderlineShare = 0.90
	ScheduleLagSteps      = 1.0
	LateStartShare        = 0.5
	LateStartNoteShare    = 0.01
)

// Diagnose judges the run r. ceilings are the disk baselines known, the
// newest of each device; the run's busiest disk is judged against its own,
// or by its utilisation when none was measured.
func Diagnose(r *results.Results, ceilings ...*results.DiskCeiling) *results.Diagnosis {
	f := gather(r)
	d := &results.Diagnosis{}
	j := &judge{d: d, f: f}

	judged := false
	judged = j.cpu() || judged
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

	tl, held := j.target()
	switch {
	case tl == 2:
		// A run that held its schedule was limited by it, whatever was
		// busy: what would otherwise be a limit is said as a note. Its
		// throughput says so without any metrics.
		var notes []string
		for _, l := range d.Limits {
			notes = append(notes, fmt.Sprintf("%s near its limit though the run held its target: %s", LimitName(l), strings.Join(l.Evidence, "; ")))
		}
		if n := j.lateNote(); n != "" {
			notes = append(notes, n)
		}
		d.Notes = append(notes, d.Notes...)
		d.Limits = []results.Limit{{Kind: Target, Severity: f.throughput / f.target / TargetKeptShare, Evidence: []string{held}}}
		d.Verdict = Target
	case !judged:
		d.Verdict = "cannot judge: the results hold no client, host or server metrics"
		d.Limits = nil
	case len(d.Limits) == 0 && tl == 1:
		d.Limits = []results.Limit{{Kind: Target, Borderline: true, Severity: f.throughput / f.target / TargetKeptShare, Evidence: []string{held}}}
		d.Verdict = Target + " (borderline)"
	case len(d.Limits) == 0:
		d.Verdict = results.NoLimitFound
		switch {
		case held != "":
			d.Notes = append([]string{held + ", and no resource mongobench watches was saturated"}, d.Notes...)
		case f.threads > 0:
			who := fmt.Sprintf("each of the %d threads", f.threads)
			if f.threads == 1 {
				who = "the one thread"
			}
			d.Notes = append(d.Notes, "in a closed loop "+who+" waits for its operation: throughput is threads ÷ latency, so more threads would go faster")
		}
	default:
		if held != "" {
			d.Notes = append([]string{held}, d.Notes...)
		}
		d.Verdict = LimitName(d.Limits[0])
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
	lagP50Us    int64
	lagP99Us    int64
	lagOK       bool
	hostSamples int
	// serverLocal is whether the host figures describe the server's host.
	serverLocal bool
	// process is mongobench's own process; server a local server's own,
	// when it runs apart and was seen.
	cpu         struct{ user, system, steal, iowait, idle, process, server mean }
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

// mean accumulates a figure over intervals, each weighted by its length
// in seconds.
type mean struct {
	sum, weight float64
	n           int
}

func (m *mean) add(v metrics.Value, w float64) {
	if !v.OK {
		return
	}
	if w <= 0 {
		// An interval of no length (a clock that did not move, a file
		// without times) counts as one second rather than not at all.
		w = 1
	}
	m.sum += v.V * w
	m.weight += w
	m.n++
}

func (m mean) ok() bool { return m.n > 0 }

func (m mean) v() float64 {
	if m.n == 0 {
		return 0
	}
	return m.sum / m.weight
}

func gather(r *results.Results) *figures {
	f := &figures{throughput: r.ThroughputOpsSec, operations: r.Operations}
	f.target, _ = strconv.ParseFloat(r.Config["target"], 64)
	f.threads, _ = strconv.Atoi(r.Config["threadcount"])
	if l := r.ScheduleLag; l != nil && l.Count > 0 {
		f.lagP50Us, f.lagOK = l.PercentilesUs["50"]
		f.lagP99Us = l.PercentilesUs["99"]
	}
	// Each interval counts by its length: the last one of a run is often
	// a fraction of the others, and must not weigh as much.
	var server []*metrics.ServerInterval
	var host []*metrics.HostInterval
	var serverW, hostW []float64
	if e := r.Extra; e != nil {
		f.client = e.Client
		if e.Runner != nil {
			f.lateStarts = e.Runner.LateStarts
		}
		prev := 0.0
		for _, s := range e.ServerMetrics {
			server, serverW = append(server, s.Server), append(serverW, s.T-prev)
			prev = s.T
		}
		prev = 0
		for _, h := range e.HostMetrics {
			host, hostW = append(host, h.Host), append(hostW, h.T-prev)
			prev = h.T
		}
	}
	if len(server) == 0 && len(host) == 0 {
		// Results written before the series were copied into extra.
		for _, iv := range r.Intervals {
			if iv.Metrics != nil {
				server, serverW = append(server, iv.Metrics.Server), append(serverW, iv.EndS-iv.StartS)
				host, hostW = append(host, iv.Metrics.Host), append(hostW, iv.EndS-iv.StartS)
			}
		}
	}
	diskAt := map[string]int{}
	for i, h := range host {
		if h == nil {
			continue
		}
		w := hostW[i]
		f.hostSamples++
		f.serverLocal = h.DescribesServer
		if c := h.CPU; c != nil {
			f.numCPU = c.NumCPU
			f.cpu.user.add(c.UserPct, w)
			f.cpu.system.add(c.SystemPct, w)
			f.cpu.steal.add(c.StealPct, w)
			f.cpu.iowait.add(c.IowaitPct, w)
			f.cpu.idle.add(c.IdlePct, w)
		}
		if p := h.Process; p != nil {
			f.cpu.process.add(p.CPUPct, w)
		}
		if p := h.ServerProcess; p != nil {
			f.cpu.server.add(p.CPUPct, w)
		}
		for _, k := range h.Disks {
			i, ok := diskAt[k.Name]
			if !ok {
				i = len(f.disks)
				diskAt[k.Name] = i
				f.disks = append(f.disks, diskFigures{name: k.Name})
			}
			df := &f.disks[i]
			df.iops.add(k.IOPS, w)
			df.reads.add(k.ReadsPerSec, w)
			df.writes.add(k.WritesPerSec, w)
			df.rMB.add(k.ReadMBPerSec, w)
			df.wMB.add(k.WriteMBPerSec, w)
			df.util.add(k.UtilPct, w)
			df.aq.add(k.AvgQueueSize, w)
			df.await.add(k.AwaitMs, w)
		}
	}
	for i, s := range server {
		if s == nil {
			continue
		}
		w := serverW[i]
		if s.Error != "" {
			f.serverError = s.Error
			continue
		}
		f.serverSeen = true
		f.conns.current.add(s.Connections.Current, w)
		f.conns.available.add(s.Connections.Available, w)
		if s.GlobalLock.QueueReaders.OK || s.GlobalLock.QueueWriters.OK {
			f.queued.add(metrics.Known(s.GlobalLock.QueueReaders.V+s.GlobalLock.QueueWriters.V), w)
		}
		f.netIn.add(s.Network.BytesInPerSec, w)
		f.netOut.add(s.Network.BytesOutPerSec, w)
		if c := s.Cache; c != nil {
			f.cache.seen = true
			f.cache.fill.add(c.FillRatio, w)
			f.cache.hit.add(c.HitRatio, w)
			f.cache.readMB.add(c.ReadIntoMBPerSec, w)
			f.cache.appReads.add(c.AppPageReadsPerSec, w)
			f.cache.max.add(c.MaxBytes, w)
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

// target judges an open-loop run against its -target: 2 when it held it,
// 1 when it came near, 0 when it fell behind or had none; with the
// sentence that says so.
func (j *judge) target() (int, string) {
	f := j.f
	if f.target <= 0 || f.operations <= 0 {
		return 0, ""
	}
	share := f.throughput / f.target
	lvl := level(share, TargetKeptShare, TargetBorderlineShare)
	late := float64(f.lateStarts) / float64(f.operations)
	var schedule string
	if f.lagOK {
		step := float64(max(f.threads, 1)) / f.target * 1e3 // ms
		lag := float64(f.lagP50Us) / 1e3
		if lag >= ScheduleLagSteps*step {
			lvl = 0
		}
		schedule = fmt.Sprintf("the median operation started %s ms behind its schedule, threshold %s ms (the time between one thread's operations: threads ÷ target); %d of %d operations (%s) started over 1 ms late",
			num(lag, 1), num(ScheduleLagSteps*step, 1), f.lateStarts, f.operations, pct(100*late))
	} else {
		if late > LateStartShare {
			lvl = 0
		}
		schedule = fmt.Sprintf("%d of %d operations (%s) started over 1 ms late, threshold %s", f.lateStarts, f.operations, pct(100*late), pct(100*LateStartShare))
	}
	how := [...]string{"fell behind", "came near", "held"}[lvl]
	return lvl, fmt.Sprintf("the run %s its -target of %s ops/s: %s ops/s, %s of it (threshold %s); %s",
		how, num(f.target, -1), num(f.throughput, 1), pct(100*share), pct(100*TargetKeptShare), schedule)
}

// lateNote is the note for a run that held its target though some of its
// operations started late, or "".
func (j *judge) lateNote() string {
	f := j.f
	if f.operations <= 0 || float64(f.lateStarts) <= LateStartNoteShare*float64(f.operations) {
		return ""
	}
	lag := ""
	if f.lagP99Us > 0 {
		lag = " (schedule lag p99 " + num(float64(f.lagP99Us)/1000, 1) + " ms)"
	}
	return fmt.Sprintf("%d of %d operations started over 1 ms late%s: the schedule was kept on the whole, and those operations' intended latencies include the delay",
		f.lateStarts, f.operations, lag)
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
