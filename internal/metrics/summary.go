package metrics

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/printable"
)

// NotReported is the value of a summary line for a figure the server does
// not have at all (FerretDB has no WiredTiger cache), as opposed to one
// that is merely missing from this run.
const NotReported = "not reported by this server"

// SummaryLines renders the run's server and host figures for the end of
// the text summary, in YCSB's `[NAME], measurement, value` shape so that
// scripts parsing YCSB's lines read these too: one figure per line, never a
// comma inside a value (a disk's figures are `Disk(vda).IOPS`,
// `Disk(vda).Util(%)`, … each on its own line). Rates and ratios are over
// the whole run, from first to last; gauges (connections, cache fill,
// memory) are as of last. sizes and topo are optional (nil). Lines whose
// figure is absent are left out, except that a section the server does
// not report gets one line saying so.
func SummaryLines(first, last Snapshot, sizes *SizeStats, topo *TopologyInfo) []string {
	w := &lineWriter{}
	d := Delta(first, last)

	if last.Server != nil || topo != nil || sizes != nil {
		serverLines(w, first, last, d.Server, topo)
	}

	if sizes != nil {
		sizeLines(w, sizes)
	}

	if topo != nil {
		topologyLines(w, topo)
	}

	if d.Server != nil {
		shardRateLines(w, d.Server.Shards)
	}

	if d.Host != nil {
		hostLines(w, last.Host, d.Host)
	}

	return w.lines
}

type lineWriter struct{ lines []string }

// add writes one line; text from the server (an error, a name) may hold
// commas, which would split the value for a reader of three fields.
func (w *lineWriter) add(name, measurement, value string) {
	w.lines = append(w.lines, "["+name+"], "+printable.Field(measurement)+", "+printable.Field(value))
}

// num adds the line when v is present.
func (w *lineWriter) num(name, measurement string, v Value, decimals int) {
	if v.OK {
		w.add(name, measurement, fmtNum(v.V, decimals))
	}
}

// figure is one line of a section.
type figure struct {
	measurement string
	v           Value
	decimals    int
}

// section adds the figures of one serverStatus section that are present,
// or, when none is, one line saying the server does not report the
// section: a reader must tell "not reported" from a line left out.
func (w *lineWriter) section(name, section string, figures ...figure) {
	reported := false
	for _, f := range figures {
		if f.v.OK {
			reported = true
			w.num(name, f.measurement, f.v, f.decimals)
		}
	}
	if !reported {
		w.add(name, section, NotReported)
	}
}

func fmtNum(v float64, decimals int) string {
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// opcounterLines give a set of operation rates, one line per operation
// the server counted, as name.Insert(ops/sec), name.Query(ops/sec), ….
func opcounterLines(w *lineWriter, section, name string, o OpRates) {
	for _, f := range []figure{
		{"Insert", o.Insert, 1}, {"Query", o.Query, 1}, {"Update", o.Update, 1},
		{"Delete", o.Delete, 1}, {"Getmore", o.Getmore, 1}, {"Command", o.Command, 1},
	} {
		w.num(section, name+"."+f.measurement+"(ops/sec)", f.v, f.decimals)
	}
}

const server, host = "SERVER", "HOST"

func serverLines(w *lineWriter, first, last Snapshot, d *ServerInterval, topo *TopologyInfo) {
	info := ServerInfo{}

	for _, s := range []Snapshot{first, last} {
		if s.Server != nil && s.Server.Info != nil {
			info = *s.Server.Info
		}
	}

	if info.Version == "" && topo != nil {
		info.Version = topo.Version
	}

	if info.StorageEngine == "" && topo != nil {
		info.StorageEngine = topo.StorageEngine
	}

	if info.Version != "" {
		w.add(server, "Version", info.Version)
	}

	if info.FerretDBVersion != "" {
		w.add(server, "FerretDBVersion", info.FerretDBVersion)
	}

	if info.Process != "" {
		w.add(server, "Process", info.Process)
	}

	if info.StorageEngine != "" {
		w.add(server, "StorageEngine", info.StorageEngine)
	} else if info.Version != "" {
		w.add(server, "StorageEngine", NotReported)
	}

	if d == nil {
		return
	}

	switch {
	case first.Server == nil || first.Server.Error != "":
		reason := "no sample at the start of the run"
		if first.Server != nil {
			reason = first.Server.Error
		}

		w.add(server, "ServerStatus", "not available: "+reason)

		return
	case d.Error != "":
		w.add(server, "ServerStatus", "not available: "+d.Error)
		return
	case d.Restarted:
		// Gauges are still right; rates over the run are not.
		w.add(server, "Restarted", "true")
	}

	o := d.Opcounters
	if o != (OpRates{}) {
		opcounterLines(w, server, "Opcounters", o)
	} else if !d.Restarted && last.Server.Opcounters == (Opcounters{}) {
		w.add(server, "Opcounters", NotReported)
	}

	if l := d.OpLatencies; l != nil {
		w.num(server, "ReadLatencyAvg(us)", l.ReadsMeanMicros, 1)
		w.num(server, "WriteLatencyAvg(us)", l.WritesMeanMicros, 1)
		w.num(server, "CommandLatencyAvg(us)", l.CommandsMeanMicros, 1)
	} else {
		w.add(server, "OpLatencies", NotReported)
	}

	network := []figure{
		{"NetworkIn(MB/s)", scale(d.Network.BytesInPerSec, 1.0/bytesPerMB), 3},
		{"NetworkOut(MB/s)", scale(d.Network.BytesOutPerSec, 1.0/bytesPerMB), 3},
		{"Requests(ops/sec)", d.Network.RequestsPerSec, 1},
	}
	if d.Restarted {
		// The counters started again: their rates are unknown, not
		// unreported, and the Restarted line says why they are missing.
		for _, f := range network {
			w.num(server, f.measurement, f.v, f.decimals)
		}
	} else {
		w.section(server, "Network", network...)
	}
	w.section(server, "Connections", figure{"Connections", d.Connections.Current, 0})
	w.section(server, "GlobalLockQueues",
		figure{"QueuedReaders", d.GlobalLock.QueueReaders, 0},
		figure{"QueuedWriters", d.GlobalLock.QueueWriters, 0})

	c := d.Cache
	if c == nil {
		w.add(server, "WiredTigerCache", NotReported)
		return
	}

	w.num(server, "CacheHitRatio", c.HitRatio, 4)
	w.num(server, "CacheFillRatio", c.FillRatio, 4)
	w.num(server, "CacheUsed(MB)", scale(c.BytesInCache, 1.0/bytesPerMB), 1)
	w.num(server, "CacheMax(MB)", scale(c.MaxBytes, 1.0/bytesPerMB), 1)
	w.num(server, "CacheReadInto(MB/s)", c.ReadIntoMBPerSec, 3)
	w.num(server, "CacheWrittenFrom(MB/s)", c.WrittenFromMBPerSec, 3)
	w.num(server, "CachePagesRead(pages/sec)", c.PagesReadPerSec, 1)
	w.num(server, "CachePagesRequested(pages/sec)", c.PagesRequestedPerSec, 1)
	w.num(server, "AppThreadDiskReads(pages/sec)", c.AppPageReadsPerSec, 1)
	w.num(server, "AppThreadDiskReadAvg(us)", c.AppPageReadMeanMicros, 1)
}

func sizeLines(w *lineWriter, s *SizeStats) {
	mb := func(v Value) Value { return scale(v, 1.0/bytesPerMB) }

	w.add(server, "Collection", s.Database+"."+s.Collection)

	if s.CollectionError != "" {
		w.add(server, "CollectionStats", "not available: "+s.CollectionError)
	} else {
		c := s.Coll
		w.num(server, "CollectionDocuments", c.Documents, 0)
		w.num(server, "CollectionDataSize(MB)", mb(c.DataSize), 1)
		w.num(server, "CollectionStorageSize(MB)", mb(c.StorageSize), 1)
		w.num(server, "CollectionIndexSize(MB)", mb(c.IndexSize), 1)
		w.num(server, "CollectionAvgObjSize(bytes)", c.AvgObjSize, 0)
		w.num(server, "CollectionCompressionRatio", c.CompressionRatio, 2)

		for _, sh := range s.Shards {
			name := "ShardSize(" + sh.Shard + ")."
			w.num(server, name+"Documents", sh.Documents, 0)
			w.num(server, name+"DataSize(MB)", mb(sh.DataSize), 1)
			w.num(server, name+"StorageSize(MB)", mb(sh.StorageSize), 1)
			w.num(server, name+"Orphans", sh.Orphans, 0)
		}
	}

	if s.DBError != "" {
		w.add(server, "DatabaseStats", "not available: "+s.DBError)
	} else {
		db := s.DB
		w.num(server, "DatabaseDocuments", db.Documents, 0)
		w.num(server, "DatabaseDataSize(MB)", mb(db.DataSize), 1)
		w.num(server, "DatabaseStorageSize(MB)", mb(db.StorageSize), 1)
		w.num(server, "DatabaseIndexSize(MB)", mb(db.IndexSize), 1)
		w.num(server, "DatabaseCompressionRatio", db.CompressionRatio, 2)
	}
}

func topologyLines(w *lineWriter, t *TopologyInfo) {
	w.add(server, "Topology", t.Kind)

	switch {
	case t.Kind == KindReplicaSet && t.ReplicaSet != nil:
		w.add(server, "ReplicaSet", t.SetName)
		w.add(server, "ReplicaSetMembers", strconv.Itoa(len(t.ReplicaSet.Members)))
	case t.Kind == KindReplicaSet:
		w.add(server, "ReplicaSet", t.SetName)
		w.add(server, "ReplicaSetHosts", strconv.Itoa(len(t.Hosts)))
	case t.Kind == KindSharded && t.Sharding != nil:
		w.add(server, "Shards", strconv.Itoa(len(t.Sharding.Shards)))
	}

	if rs := t.ReplicaSet; rs != nil {
		w.num(server, "ReplicationLagMax(s)", rs.MaxLagSec(), 1)

		for _, m := range rs.Members {
			w.add(server, "Member("+m.Name+").State", m.State)
			w.num(server, "Member("+m.Name+").Lag(s)", m.LagSec, 1)
		}
	}

	if sh := t.Sharding; sh != nil {
		if sh.CollectionSharded != nil {
			w.add(server, "CollectionSharded", strconv.FormatBool(*sh.CollectionSharded))
		}

		for _, s := range sh.Shards {
			w.num(server, "Shard("+s.ID+").Chunks", s.Chunks, 0)
			w.num(server, "Shard("+s.ID+").Documents", s.Documents, 0)
		}
	}

	parts := make([]string, 0, len(t.Absent))
	for part := range t.Absent {
		parts = append(parts, part)
	}

	sort.Strings(parts)

	for _, part := range parts {
		// The unsharded collection is already said above, more briefly.
		if part == "chunks" && strings.Contains(t.Absent[part], errNotSharded.Error()) {
			continue
		}

		w.add(server, "Topology."+part, "not available: "+t.Absent[part])
	}
}

func hostLines(w *lineWriter, last *HostSample, d *HostInterval) {
	w.add(host, "ServerIsLocal", strconv.FormatBool(d.DescribesServer))

	if c := d.CPU; c != nil {
		w.add(host, "CPUs", strconv.Itoa(c.NumCPU))
		w.num(host, "CPUUser(%)", c.UserPct, 1)
		w.num(host, "CPUSystem(%)", c.SystemPct, 1)
		w.num(host, "CPUIowait(%)", c.IowaitPct, 1)
		w.num(host, "CPUSteal(%)", c.StealPct, 1)
		w.num(host, "CPUIdle(%)", c.IdlePct, 1)
	}

	if l := d.Load; l != nil {
		w.add(host, "LoadAvg(1m)", fmtNum(l.Load1, 2))
	}

	if m := d.Memory; m != nil {
		mb := func(v Value) Value { return scale(v, 1.0/bytesPerMB) }
		w.num(host, "MemTotal(MB)", mb(m.TotalBytes), 0)
		w.num(host, "MemAvailable(MB)", mb(m.AvailableBytes), 0)
		w.num(host, "PageCache(MB)", mb(m.CachedBytes), 0)
		w.num(host, "Dirty(MB)", mb(m.DirtyBytes), 0)
	}

	for _, k := range d.Disks {
		// Like iostat -z: a disk idle for the whole run says nothing.
		if !k.IOPS.OK || k.IOPS.V == 0 {
			continue
		}

		// iostat -x's columns, one line each: r/s, w/s, rMB/s, wMB/s,
		// r_await, w_await, await, %util, aqu-sz.
		name := "Disk(" + k.Name + ")."
		for _, f := range []figure{
			{"IOPS", k.IOPS, 1}, {"ReadsPerSec", k.ReadsPerSec, 1}, {"WritesPerSec", k.WritesPerSec, 1},
			{"Read(MB/s)", k.ReadMBPerSec, 2}, {"Write(MB/s)", k.WriteMBPerSec, 2},
			{"ReadAwait(ms)", k.ReadAwaitMs, 2}, {"WriteAwait(ms)", k.WriteAwaitMs, 2}, {"Await(ms)", k.AwaitMs, 2},
			{"Util(%)", k.UtilPct, 1}, {"QueueSize", k.AvgQueueSize, 2},
		} {
			w.num(host, name+f.measurement, f.v, f.decimals)
		}
	}

	if p := d.Process; p != nil {
		w.num(host, "ClientCPU(s)", p.CPUSec, 2)
		w.num(host, "ClientCPU(%)", p.CPUPct, 1)
		w.num(host, "ClientRSS(MB)", scale(p.RSSBytes, 1.0/bytesPerMB), 1)
	}

	parts := make([]string, 0, len(last.Errors))
	for part := range last.Errors {
		parts = append(parts, part)
	}

	sort.Strings(parts)

	for _, part := range parts {
		w.add(host, "Host."+part, "not available: "+last.Errors[part])
	}
}

const shardingSection = "SHARDING"

// ShardingLines renders what happened to a sharded collection's
// distribution during the phase: the balancer's mode, and the chunk
// migrations that committed, each with when (seconds from the phase's
// start, and its status interval, whose latencies it may have raised), how
// long, between which shards and how many documents it moved.
func ShardingLines(r *ShardingRun) []string {
	if r == nil {
		return nil
	}

	w := &lineWriter{}

	switch {
	case r.Balancer != nil:
		w.add(shardingSection, "Balancer", r.Balancer.Mode)

		if r.Balancer.InRound != nil {
			w.add(shardingSection, "BalancerInRound", strconv.FormatBool(*r.Balancer.InRound))
		}
	case r.BalancerError != "":
		w.add(shardingSection, "Balancer", "not available: "+r.BalancerError)
	}

	if r.MigrationsError != "" {
		w.add(shardingSection, "ChunkMigrations", "not available: "+r.MigrationsError)
		return w.lines
	}

	w.add(shardingSection, "ChunkMigrations", strconv.Itoa(len(r.Migrations)))

	if r.MigrationsFailed > 0 {
		w.add(shardingSection, "ChunkMigrationsFailed", strconv.Itoa(r.MigrationsFailed))
	}

	var total Value
	for _, m := range r.Migrations {
		total = add(total, m.DurationMs)
	}

	w.num(shardingSection, "ChunkMigrationTime(ms)", total, 0)

	for i, m := range r.Migrations {
		name := fmt.Sprintf("ChunkMigration(%d).", i+1)
		w.add(shardingSection, name+"T(s)", fmtNum(m.T, 1))
		w.add(shardingSection, name+"Interval", strconv.Itoa(m.Interval))
		w.num(shardingSection, name+"Duration(ms)", m.DurationMs, 0)
		w.add(shardingSection, name+"From", m.From)
		w.add(shardingSection, name+"To", m.To)
		w.num(shardingSection, name+"Documents", m.Documents, 0)
	}

	return w.lines
}

// ReplicationLines render the replica set's lag as sampled over the run,
// one sample per status interval: the largest and the 99th percentile
// (nearest rank) of the intervals' largest member lag, and each member
// whose state changed during the run, with the states in order. nil when
// no interval sampled replSetGetStatus.
func ReplicationLines(intervals []IntervalMetrics) []string {
	var lags []float64

	type seen struct {
		name   string
		states []string
	}

	var members []*seen

	byName := map[string]*seen{}

	for _, iv := range intervals {
		if iv.Server == nil || iv.Server.Replication == nil {
			continue
		}

		if v := iv.Server.ReplicationLagMaxSec; v.OK {
			lags = append(lags, v.V)
		}

		for _, m := range iv.Server.Replication.Members {
			s, ok := byName[m.Name]
			if !ok {
				s = &seen{name: m.Name}
				byName[m.Name] = s
				members = append(members, s)
			}

			if n := len(s.states); n == 0 || s.states[n-1] != m.State {
				s.states = append(s.states, m.State)
			}
		}
	}

	if len(lags) == 0 && len(members) == 0 {
		return nil
	}

	w := &lineWriter{}
	w.add(server, "ReplicationLagSamples", strconv.Itoa(len(lags)))

	if len(lags) > 0 {
		sort.Float64s(lags)
		rank := (99*len(lags) + 99) / 100 // ceil(0.99 n)
		w.add(server, "ReplicationLagSampledMax(s)", fmtNum(lags[len(lags)-1], 1))
		w.add(server, "ReplicationLagSampledP99(s)", fmtNum(lags[rank-1], 1))
	}

	for _, s := range members {
		if len(s.states) > 1 {
			w.add(server, "MemberStates("+s.name+")", strings.Join(s.states, " -> "))
		}
	}

	return w.lines
}

// shardRateLines give each shard primary's operation rates over the run,
// from the serverStatus sampled beside the mongos's: the shard whose rates
// stand out is the hot one.
func shardRateLines(w *lineWriter, shards []ShardInterval) {
	for _, sh := range shards {
		d := sh.Server
		name := "ShardOpcounters(" + sh.Name + ")"

		switch {
		case d == nil:
			continue
		case d.Error != "":
			w.add(server, name, "not available: "+d.Error)
			continue
		case d.Restarted:
			w.add(server, name, "not available: the shard's primary changed or restarted during the run")
			continue
		}

		o := d.Opcounters
		if o == (OpRates{}) {
			w.add(server, name, NotReported)
			continue
		}

		opcounterLines(w, server, name, o)
	}
}
