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

// cpu judges the CPUs: the client's own use of those it may use, then the
// host's, and names whose work kept them busy. The host's CPU time is
// split into mongobench's own process (the client, and the embedded server
// when there is one) and the rest; the server's own process is not seen
// when it runs apart (serverStatus does not report its CPU time), so a
// local server's share is never told apart from other processes'. The
// docs/explanation/diagnosis.md states the rules.
func (j *judge) cpu() bool {
	f := j.f
	c := f.client
	if c != nil && c.WallS <= 0 {
		c = nil
	}
	embedded := c != nil && c.IncludesEmbeddedServer
	judged := c != nil
	if c != nil && !embedded {
		j.add(ClientCPU, level(c.Utilization, ClientCPUShare, ClientCPUBorderlineShare), c.Utilization/ClientCPUShare, fmt.Sprintf(
			"the client used %s of the %s CPUs it may use, threshold %s",
			pct(100*c.Utilization), num(c.AllowedCPUs, -1), pct(100*ClientCPUShare)))
	}

	hostOK := f.cpu.user.ok()
	if !hostOK && (f.hostSamples > 0 || f.serverSeen) {
		j.d.CannotJudge = append(j.d.CannotJudge, "host CPU: the host's CPU times could not be read")
	}
	if hostOK && !f.serverLocal {
		j.d.CannotJudge = append(j.d.CannotJudge,
			"server CPU and disk: the server is on another host and only its serverStatus is read; watch its host (top, iostat) or run mongobench there")
	}
	judged = judged || hostOK

	// Saturation: the CPUs busy, or mongobench's threads waiting for one
	// (CPUs that idle while threads wait are out of reach all the same).
	var lvl int
	var severity, busy float64
	var evidence []string
	if hostOK {
		busy = f.cpu.user.v() + f.cpu.system.v() + f.cpu.steal.v()
		lvl, severity = level(busy, HostCPUBusyPct, HostCPUBorderlineBusyPct), busy/HostCPUBusyPct
		whose := "the server's host CPUs"
		if !f.serverLocal {
			whose = "the client's host CPUs"
		}
		evidence = append(evidence, fmt.Sprintf("%s were %s busy (user %s, system %s, steal %s; iowait %s and idle %s), threshold %s",
			whose, pct(busy), pct(f.cpu.user.v()), pct(f.cpu.system.v()), pct(f.cpu.steal.v()), pct(f.cpu.iowait.v()), pct(f.cpu.idle.v()), pct(HostCPUBusyPct)))
	}
	if c != nil {
		if wl := level(c.Waiting, RunQueueWaitShare, RunQueueWaitBorderlineShare); wl > 0 {
			lvl, severity = max(lvl, wl), max(severity, c.Waiting/RunQueueWaitShare)
			if !embedded {
				evidence = append(evidence, fmt.Sprintf("the client's threads waited for a CPU %s of the time, threshold %s: more work was ready than the CPUs could run",
					pct(100*c.Waiting), pct(100*RunQueueWaitShare)))
			}
		}
	}
	if lvl == 0 {
		return judged
	}
	if f.cpu.steal.v() >= 10 {
		evidence = append(evidence, fmt.Sprintf("the hypervisor took %s of the CPU time (steal): the machine gets less CPU than it shows", pct(f.cpu.steal.v())))
	}

	// Whose work: mongobench's own process, and the rest of the busy time.
	own, ownOK := f.cpu.process.v(), f.cpu.process.ok()
	if !ownOK && c != nil && c.HostCPUs > 0 {
		own, ownOK = 100*c.Utilization*c.AllowedCPUs/float64(c.HostCPUs), true
	}
	var others, othersShare float64
	split := hostOK && ownOK && busy > 0
	if split {
		others = max(busy-own, 0)
		othersShare = others / busy
	}
	kind := ServerCPU
	switch {
	case embedded:
		// One process holds the client and the server: the rest of the
		// busy time is other processes'.
		evidence = append(evidence, fmt.Sprintf(
			"the client and the embedded server, one process, used %s of the %s CPUs it may use and waited for a CPU %s of the time (threshold %s)",
			pct(100*c.Utilization), num(c.AllowedCPUs, -1), pct(100*c.Waiting), pct(100*RunQueueWaitShare)))
		switch {
		case split && othersShare >= OthersShare:
			kind = HostBusy
			evidence = append(evidence, fmt.Sprintf(
				"other processes used %s of the CPUs, %s of their busy time (threshold %s), against %s for mongobench's process, client and server together: most of the load was not the server's",
				pct(others), pct(100*othersShare), pct(100*OthersShare), pct(own)))
		case split && othersShare >= OthersNoteShare:
			evidence = append(evidence, fmt.Sprintf("other processes used %s of the CPUs, %s of their busy time: the machine is shared, and alone it would have gone faster",
				pct(others), pct(100*othersShare)))
		}
	case !f.serverLocal:
		// The host figures are the client's machine.
		kind = ClientCPU
		if split {
			evidence = append(evidence, fmt.Sprintf("of that, the client's own process used %s", pct(own)))
			if othersShare >= OthersShare {
				kind = HostBusy
				evidence = append(evidence, fmt.Sprintf("other processes used %s of the client's host CPUs, %s of their busy time (threshold %s): most of the load was not the client's",
					pct(others), pct(100*othersShare), pct(100*OthersShare)))
			}
		}
	default:
		// A local server in a process of its own.
		if !split {
			break
		}
		evidence = append(evidence, fmt.Sprintf("of that, the client's own process used %s", pct(own)))
		if !f.cpu.server.ok() {
			// Its share and other processes' cannot be told apart.
			if othersShare < 1-OthersShare {
				kind = ClientCPU
				evidence = append(evidence, fmt.Sprintf("the client took most of the CPUs it shares with the server: %s of their busy time", pct(100*(1-othersShare))))
			} else {
				evidence = append(evidence, fmt.Sprintf("the server's own CPU time is not reported: the other %s is the server's and any other processes' together", pct(others)))
			}
			break
		}
		server := f.cpu.server.v()
		others = max(busy-own-server, 0)
		othersShare = others / busy
		evidence = append(evidence, fmt.Sprintf("the server's own process used %s", pct(server)))
		switch {
		case othersShare >= OthersShare:
			kind = HostBusy
			evidence = append(evidence, fmt.Sprintf("other processes used %s of the CPUs, %s of their busy time (threshold %s), against %s for the client and %s for the server: most of the load was neither's",
				pct(others), pct(100*othersShare), pct(100*OthersShare), pct(own), pct(server)))
		case own > server:
			kind = ClientCPU
			evidence = append(evidence, fmt.Sprintf("the client took more of the CPUs it shares with the server than the server did: %s against %s", pct(own), pct(server)))
		case othersShare >= OthersNoteShare:
			evidence = append(evidence, fmt.Sprintf("other processes used %s of the CPUs, %s of their busy time: the machine is shared", pct(others), pct(100*othersShare)))
		}
	}
	j.add(kind, lvl, severity, evidence...)
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
