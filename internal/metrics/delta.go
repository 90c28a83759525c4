package metrics

import (
	"time"
)

// bytesPerMB is the MB of rMB/s and wMB/s as iostat prints them (sectors /
// 2048), used for every MB/s figure so that they compare with each other.
const bytesPerMB = 1 << 20

// IntervalMetrics are the rates and ratios between two snapshots. Figures
// that cannot be derived are absent, never zero.
type IntervalMetrics struct {
	Start      time.Time       `json:"start"`
	End        time.Time       `json:"end"`
	ElapsedSec float64         `json:"elapsed_s"`
	Server     *ServerInterval `json:"server,omitempty"`
	Host       *HostInterval   `json:"host,omitempty"`
}

// ServerInterval is what the server did in one interval. Counters become
// per-second rates; gauges are the values at the interval's end.
type ServerInterval struct {
	// Error is why the end sample failed; then no other field is set.
	Error string `json:"error,omitempty"`
	// Restarted means the two samples came from different processes (a
	// restart, or another mongos answering): no rate of this interval is
	// known, only the gauges.
	Restarted bool `json:"restarted,omitempty"`

	Opcounters  OpRates          `json:"opcounters_per_s,omitzero"`
	Connections Connections      `json:"connections,omitzero"`
	Network     NetworkRates     `json:"network,omitzero"`
	OpLatencies *LatencyInterval `json:"op_latencies,omitempty"`
	GlobalLock  GlobalLock       `json:"global_lock,omitzero"`
	Cache       *CacheInterval   `json:"wiredtiger_cache,omitempty"`

	// ReplicationLagMaxSec is the largest member's lag at the interval's
	// end, and Replication the members' states and lags then; absent
	// unless the server is a replica set member.
	ReplicationLagMaxSec Value             `json:"replication_lag_max_s,omitzero"`
	Replication          *ReplicaSetStatus `json:"replication,omitempty"`

	// Shards are each shard primary's interval, by shard name, when the
	// mongos's shards were sampled: a hot shard shows in their rates.
	Shards []ShardInterval `json:"shards,omitempty"`
}

// ShardInterval is one shard primary's interval.
type ShardInterval struct {
	Name   string          `json:"name"`
	Server *ServerInterval `json:"server"`
}

// OpRates are serverStatus.opcounters per second.
type OpRates struct {
	Insert  Value `json:"insert,omitzero"`
	Query   Value `json:"query,omitzero"`
	Update  Value `json:"update,omitzero"`
	Delete  Value `json:"delete,omitzero"`
	Getmore Value `json:"getmore,omitzero"`
	Command Value `json:"command,omitzero"`
}

// NetworkRates are serverStatus.network counters per second.
type NetworkRates struct {
	BytesInPerSec  Value `json:"bytes_in_per_s,omitzero"`
	BytesOutPerSec Value `json:"bytes_out_per_s,omitzero"`
	RequestsPerSec Value `json:"requests_per_s,omitzero"`
}

// LatencyInterval is the server's own view of latency: the mean over the
// operations of the interval, and their rate.
type LatencyInterval struct {
	ReadsMeanMicros    Value `json:"reads_mean_us,omitzero"`
	WritesMeanMicros   Value `json:"writes_mean_us,omitzero"`
	CommandsMeanMicros Value `json:"commands_mean_us,omitzero"`
	ReadsPerSec        Value `json:"reads_per_s,omitzero"`
	WritesPerSec       Value `json:"writes_per_s,omitzero"`
	CommandsPerSec     Value `json:"commands_per_s,omitzero"`
}

// CacheInterval is the WiredTiger cache in one interval.
type CacheInterval struct {
	// BytesInCache and MaxBytes are gauges at the interval's end;
	// FillRatio is their ratio.
	BytesInCache Value `json:"bytes_in_cache,omitzero"`
	MaxBytes     Value `json:"max_bytes,omitzero"`
	FillRatio    Value `json:"fill_ratio,omitzero"`
	// HitRatio is 1 − Δpages read into cache / Δpages requested, kept
	// inside [0, 1]: WiredTiger also reads pages nobody requested
	// (prefetch, checkpoints), which could push it below 0.
	HitRatio             Value `json:"hit_ratio,omitzero"`
	ReadIntoMBPerSec     Value `json:"read_into_mb_per_s,omitzero"`
	WrittenFromMBPerSec  Value `json:"written_from_mb_per_s,omitzero"`
	PagesReadPerSec      Value `json:"pages_read_per_s,omitzero"`
	PagesRequestedPerSec Value `json:"pages_requested_per_s,omitzero"`
	// AppPageReadsPerSec counts pages application threads read from disk
	// themselves; AppPageReadMeanMicros is their mean wait.
	AppPageReadsPerSec    Value `json:"app_page_reads_per_s,omitzero"`
	AppPageReadMeanMicros Value `json:"app_page_read_mean_us,omitzero"`
}

// HostInterval is what the machine did in one interval.
type HostInterval struct {
	DescribesServer bool `json:"describes_server"`
	// CPU percentages are of all CPUs together: 100 is every CPU busy.
	CPU     *CPUInterval     `json:"cpu,omitempty"`
	Load    *LoadAvg         `json:"load,omitempty"`
	Memory  *Memory          `json:"memory,omitempty"`
	Disks   []DiskInterval   `json:"disks,omitempty"`
	Process *ProcessInterval `json:"process,omitempty"`
	// ServerProcess is a local server's own process, apart from
	// mongobench's (HostSample.ServerProcess); nil when it was not seen.
	ServerProcess *ProcessInterval `json:"server_process,omitempty"`
}

// CPUInterval splits the CPU time of an interval the way iostat's CPU
// report does. User includes nice; System includes hard and soft
// interrupts. The five add up to 100.
type CPUInterval struct {
	NumCPU     int   `json:"num_cpu"`
	UserPct    Value `json:"user_pct,omitzero"`
	SystemPct  Value `json:"system_pct,omitzero"`
	IowaitPct  Value `json:"iowait_pct,omitzero"`
	StealPct   Value `json:"steal_pct,omitzero"`
	IdlePct    Value `json:"idle_pct,omitzero"`
	NicePct    Value `json:"nice_pct,omitzero"`
	IRQPct     Value `json:"irq_pct,omitzero"`
	SoftIRQPct Value `json:"softirq_pct,omitzero"`
}

// DiskInterval is one device in one interval, with iostat -x's meanings.
type DiskInterval struct {
	Name        string `json:"name"`
	ReadsPerSec Value  `json:"r_per_s,omitzero"`
	// WritesPerSec and ReadsPerSec add up to IOPS.
	WritesPerSec  Value `json:"w_per_s,omitzero"`
	IOPS          Value `json:"iops,omitzero"`
	ReadMBPerSec  Value `json:"r_mb_per_s,omitzero"`
	WriteMBPerSec Value `json:"w_mb_per_s,omitzero"`
	// ReadAwaitMs, WriteAwaitMs and AwaitMs are the mean time of a request
	// from queueing to completion; absent when no request completed.
	// Discards and flushes are left out.
	ReadAwaitMs  Value `json:"r_await_ms,omitzero"`
	WriteAwaitMs Value `json:"w_await_ms,omitzero"`
	AwaitMs      Value `json:"await_ms,omitzero"`
	// UtilPct is the share of the interval with I/O in flight, at most 100.
	// Devices that serve requests in parallel (SSD, NVMe, RAID) can be at
	// 100 and still have room.
	UtilPct Value `json:"util_pct,omitzero"`
	// AvgQueueSize is iostat's aqu-sz: requests in flight on average.
	AvgQueueSize Value `json:"avg_queue_size,omitzero"`
}

// ProcessInterval is mongobench's own CPU use in one interval and its
// memory at the end.
type ProcessInterval struct {
	CPUSec Value `json:"cpu_s,omitzero"`
	// CPUCores is CPU seconds per second: 1.5 is one and a half CPUs busy.
	CPUCores Value `json:"cpu_cores,omitzero"`
	// CPUPct is of all CPUs, like the host's figures.
	CPUPct   Value `json:"cpu_pct,omitzero"`
	RSSBytes Value `json:"rss_bytes,omitzero"`
}

// Delta derives the figures of the interval from prev to cur. It never
// fails: whatever either snapshot lacks is absent in the result.
func Delta(prev, cur Snapshot) IntervalMetrics {
	m := IntervalMetrics{Start: prev.At, End: cur.At}
	if !prev.At.IsZero() && !cur.At.IsZero() {
		m.ElapsedSec = cur.At.Sub(prev.At).Seconds()
	}

	if cur.Server != nil {
		m.Server = serverDelta(prev.Server, cur.Server, m.ElapsedSec)
	}

	if cur.Host != nil {
		m.Host = hostDelta(prev.Host, cur.Host, m.ElapsedSec)
	}

	return m
}

// shardDeltas pairs each shard's samples by name; a shard the earlier
// sample lacks gets only its gauges.
func shardDeltas(prev, cur *ServerSample, elapsed float64) []ShardInterval {
	var out []ShardInterval

	for _, sh := range cur.Shards {
		if sh.Server == nil {
			continue
		}

		var before *ServerSample

		if prev != nil {
			for _, p := range prev.Shards {
				if p.Name == sh.Name {
					before = p.Server
				}
			}
		}

		out = append(out, ShardInterval{Name: sh.Name, Server: serverDelta(before, sh.Server, elapsed)})
	}

	return out
}

func serverDelta(prev, cur *ServerSample, elapsed float64) *ServerInterval {
	// A mongos that did not answer says nothing of its shards, which may
	// have.
	shards := shardDeltas(prev, cur, elapsed)

	if cur.Error != "" {
		return &ServerInterval{Error: cur.Error, Shards: shards}
	}

	out := &ServerInterval{
		Connections: cur.Connections,
		GlobalLock:  cur.GlobalLock,
		Replication: cur.Replication,
		Shards:      shards,
	}
	if cur.Replication != nil {
		out.ReplicationLagMaxSec = cur.Replication.MaxLagSec()
	}

	// Without a usable previous sample only the gauges are known; an
	// empty previous sample stands in, so every rate comes out absent.
	comparable := prev != nil && prev.Error == "" && sameProcess(prev, cur)
	if prev != nil && prev.Error == "" && !comparable {
		out.Restarted = true
	}

	p := &ServerSample{}
	if comparable {
		p = prev
	}

	out.Opcounters = OpRates{
		Insert:  rate(p.Opcounters.Insert, cur.Opcounters.Insert, elapsed),
		Query:   rate(p.Opcounters.Query, cur.Opcounters.Query, elapsed),
		Update:  rate(p.Opcounters.Update, cur.Opcounters.Update, elapsed),
		Delete:  rate(p.Opcounters.Delete, cur.Opcounters.Delete, elapsed),
		Getmore: rate(p.Opcounters.Getmore, cur.Opcounters.Getmore, elapsed),
		Command: rate(p.Opcounters.Command, cur.Opcounters.Command, elapsed),
	}
	out.Network = NetworkRates{
		BytesInPerSec:  rate(p.Network.BytesIn, cur.Network.BytesIn, elapsed),
		BytesOutPerSec: rate(p.Network.BytesOut, cur.Network.BytesOut, elapsed),
		RequestsPerSec: rate(p.Network.NumRequests, cur.Network.NumRequests, elapsed),
	}

	if cur.OpLatencies != nil {
		pl := p.OpLatencies
		if pl == nil {
			pl = &OpLatencies{}
		}

		c := cur.OpLatencies
		out.OpLatencies = &LatencyInterval{
			ReadsMeanMicros:    meanOver(pl.Reads.LatencyMicros, c.Reads.LatencyMicros, pl.Reads.Ops, c.Reads.Ops),
			WritesMeanMicros:   meanOver(pl.Writes.LatencyMicros, c.Writes.LatencyMicros, pl.Writes.Ops, c.Writes.Ops),
			CommandsMeanMicros: meanOver(pl.Commands.LatencyMicros, c.Commands.LatencyMicros, pl.Commands.Ops, c.Commands.Ops),
			ReadsPerSec:        rate(pl.Reads.Ops, c.Reads.Ops, elapsed),
			WritesPerSec:       rate(pl.Writes.Ops, c.Writes.Ops, elapsed),
			CommandsPerSec:     rate(pl.Commands.Ops, c.Commands.Ops, elapsed),
		}
	}

	if cur.Cache != nil {
		pc := p.Cache
		if pc == nil {
			pc = &WiredTigerCache{}
		}

		c := cur.Cache
		read := delta(pc.PagesReadInto, c.PagesReadInto)
		requested := delta(pc.PagesRequested, c.PagesRequested)

		hit := Value{}
		if r := ratio(read, requested); r.OK {
			hit = clamp01(Known(1 - r.V))
		}

		out.Cache = &CacheInterval{
			BytesInCache:          c.BytesInCache,
			MaxBytes:              c.MaxBytes,
			FillRatio:             ratio(c.BytesInCache, c.MaxBytes),
			HitRatio:              hit,
			ReadIntoMBPerSec:      scale(rate(pc.BytesReadInto, c.BytesReadInto, elapsed), 1.0/bytesPerMB),
			WrittenFromMBPerSec:   scale(rate(pc.BytesWrittenFrom, c.BytesWrittenFrom, elapsed), 1.0/bytesPerMB),
			PagesReadPerSec:       rate(pc.PagesReadInto, c.PagesReadInto, elapsed),
			PagesRequestedPerSec:  rate(pc.PagesRequested, c.PagesRequested, elapsed),
			AppPageReadsPerSec:    rate(pc.AppPageReads, c.AppPageReads, elapsed),
			AppPageReadMeanMicros: meanOver(pc.AppPageReadMicros, c.AppPageReadMicros, pc.AppPageReads, c.AppPageReads),
		}
	}

	return out
}

// meanOver is Δtotal / Δcount: the mean of what happened in the interval,
// absent when nothing did.
func meanOver(prevTotal, curTotal, prevCount, curCount Value) Value {
	return ratio(delta(prevTotal, curTotal), delta(prevCount, curCount))
}

func scale(v Value, f float64) Value {
	if !v.OK {
		return v
	}

	return Known(v.V * f)
}

func hostDelta(prev, cur *HostSample, elapsed float64) *HostInterval {
	out := &HostInterval{
		DescribesServer: cur.DescribesServer,
		Load:            cur.Load,
		Memory:          cur.Memory,
	}

	if prev == nil {
		prev = &HostSample{}
	}

	if prev.CPU != nil && cur.CPU != nil {
		out.CPU = cpuDelta(prev.CPU, cur.CPU)
	}

	if elapsed > 0 && len(cur.Disks) > 0 && len(prev.Disks) > 0 {
		before := make(map[string]*DiskCounters, len(prev.Disks))
		for i := range prev.Disks {
			before[prev.Disks[i].Name] = &prev.Disks[i]
		}

		for i := range cur.Disks {
			// A device that appeared in this interval has nothing to
			// subtract from; it shows from the next interval on.
			if p, ok := before[cur.Disks[i].Name]; ok {
				out.Disks = append(out.Disks, diskDelta(p, &cur.Disks[i], elapsed))
			}
		}
	}

	out.Process = processDelta(prev.Process, cur.Process, cur.CPU, elapsed)
	out.ServerProcess = processDelta(prev.ServerProcess, cur.ServerProcess, cur.CPU, elapsed)

	return out
}

// processDelta is one process's use of the interval from prev to cur:
// nil when cur was not read, its CPU absent when prev was not (or the
// process started again, its counters lower).
func processDelta(prev, cur *ProcessSample, cpu *CPUTimes, elapsed float64) *ProcessInterval {
	if cur == nil {
		return nil
	}

	pi := &ProcessInterval{RSSBytes: Known(cur.RSSBytes)}

	if prev != nil && elapsed > 0 {
		pi.CPUSec = delta(Known(prev.UserSec+prev.SystemSec), Known(cur.UserSec+cur.SystemSec))
		pi.CPUCores = scale(pi.CPUSec, 1/elapsed)

		if cpu != nil && cpu.NumCPU > 0 {
			pi.CPUPct = scale(pi.CPUCores, 100/float64(cpu.NumCPU))
		}
	}

	return pi
}

// cpuDelta splits the CPU time between two readings. A state's counter can
// step back on some kernels (iowait, with tickless idle); such a step counts
// as no time rather than a negative share.
func cpuDelta(prev, cur *CPUTimes) *CPUInterval {
	d := func(p, c float64) float64 { return max(c-p, 0) }

	user := d(prev.User, cur.User)
	nice := d(prev.Nice, cur.Nice)
	system := d(prev.System, cur.System)
	idle := d(prev.Idle, cur.Idle)
	iowait := d(prev.Iowait, cur.Iowait)
	irq := d(prev.IRQ, cur.IRQ)
	softirq := d(prev.SoftIRQ, cur.SoftIRQ)
	steal := d(prev.Steal, cur.Steal)

	// Guest time is already inside user and nice, so it is not added.
	total := user + nice + system + idle + iowait + irq + softirq + steal

	out := &CPUInterval{NumCPU: cur.NumCPU}
	if total <= 0 {
		return out
	}

	pct := func(x float64) Value { return Known(100 * x / total) }

	out.UserPct = pct(user + nice)
	out.SystemPct = pct(system + irq + softirq)
	out.IowaitPct = pct(iowait)
	out.StealPct = pct(steal)
	out.IdlePct = pct(idle)
	out.NicePct = pct(nice)
	out.IRQPct = pct(irq)
	out.SoftIRQPct = pct(softirq)

	return out
}

// diskDelta applies iostat -x's formulas. A counter that went backwards
// (the device was replaced, or a 32-bit counter wrapped) leaves the figures
// built on it absent.
func diskDelta(prev, cur *DiskCounters, elapsed float64) DiskInterval {
	d := func(p, c uint64) Value {
		if c < p {
			return Value{}
		}

		return Known(float64(c - p))
	}

	reads := d(prev.ReadIOs, cur.ReadIOs)
	writes := d(prev.WriteIOs, cur.WriteIOs)
	rsect := d(prev.ReadSectors, cur.ReadSectors)
	wsect := d(prev.WriteSectors, cur.WriteSectors)
	rticks := d(prev.ReadTicks, cur.ReadTicks)
	wticks := d(prev.WriteTicks, cur.WriteTicks)
	ioticks := d(prev.IOTicks, cur.IOTicks)
	weighted := d(prev.WeightedIOTicks, cur.WeightedIOTicks)

	perSec := func(v Value) Value { return scale(v, 1/elapsed) }
	elapsedMs := elapsed * 1000

	out := DiskInterval{
		Name:          cur.Name,
		ReadsPerSec:   perSec(reads),
		WritesPerSec:  perSec(writes),
		IOPS:          perSec(sum(reads, writes)),
		ReadMBPerSec:  scale(perSec(rsect), sectorBytes/float64(bytesPerMB)),
		WriteMBPerSec: scale(perSec(wsect), sectorBytes/float64(bytesPerMB)),
		ReadAwaitMs:   ratio(rticks, reads),
		WriteAwaitMs:  ratio(wticks, writes),
		AwaitMs:       ratio(sum(rticks, wticks), sum(reads, writes)),
		AvgQueueSize:  scale(weighted, 1/elapsedMs),
	}

	if ioticks.OK {
		out.UtilPct = Known(min(100*ioticks.V/elapsedMs, 100))
	}

	return out
}

func sum(a, b Value) Value {
	if !a.OK || !b.OK {
		return Value{}
	}

	return Known(a.V + b.V)
}
