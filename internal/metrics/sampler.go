// Package metrics records what the server and the machine were doing while
// a benchmark ran, on the same interval clock as the latency figures:
// serverStatus counters (operations, network, WiredTiger cache), database
// and collection sizes, the deployment's topology, and the host's CPU,
// memory and disks as iostat shows them.
//
// A Sampler takes Snapshots of raw counters; Delta turns two of them into
// the rates and ratios of one interval, and SummaryLines renders the run's
// figures in the `[NAME], measurement, value` shape of YCSB's summary.
// Whatever a server or machine does not report is absent, never zero: a
// FerretDB server has no WiredTiger cache, and saying its hit ratio is 0
// would be a lie.
package metrics

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// DefaultTimeout bounds a Sample when SamplerOptions sets neither Timeout
// nor Interval: long enough for serverStatus of a loaded server across a
// data centre, short enough not to hold up the run.
const DefaultTimeout = 2 * time.Second

// SamplerOptions configures a Sampler.
type SamplerOptions struct {
	// Client reads server metrics; nil samples the host only.
	Client *mongo.Client
	// ProcFS is the root of the proc file system to read; "" is /proc.
	// A host's /proc mounted into a container can be given here.
	ProcFS string
	// ServerIsLocal records that the server runs on this machine, so the
	// host figures describe it too. It changes nothing else.
	ServerIsLocal bool
	// NoHost turns host sampling off (a machine without /proc).
	NoHost bool
	// Interval is the sampling interval; a Sample then takes at most half
	// of it (and never more than DefaultTimeout).
	Interval time.Duration
	// Timeout, when positive, bounds each Sample instead.
	Timeout time.Duration
	// Shards are clients of a cluster's shard primaries, whose
	// serverStatus each Sample reads beside Client's (a mongos).
	Shards []ShardClient

	// pid is the process whose own figures are read; 0 is this process.
	// Tests set it to read a recorded process.
	pid int
}

// ShardClient is a connection to one shard's primary.
type ShardClient struct {
	Name   string
	Client *mongo.Client
}

// Snapshot is one reading of raw counters. Keep the first and last of a
// run: SummaryLines derives the run's figures from them.
type Snapshot struct {
	At time.Time `json:"at"`
	// Server is nil when there is no client to sample with.
	Server *ServerSample `json:"server,omitempty"`
	// Host is nil when host sampling is off.
	Host *HostSample `json:"host,omitempty"`
}

// Sampler takes snapshots. Its methods are safe for concurrent use.
type Sampler struct {
	client        *mongo.Client
	shards        []ShardClient
	host          *hostReader
	serverIsLocal bool
	timeout       time.Duration

	mu       sync.Mutex
	lastInfo *ServerInfo // what the last snapshot carrying Info said
	// replicaSet is whether the server is a replica set member, whose
	// members' lag each sample reads too; asked of hello once.
	replicaSet *bool
	// serverPID and serverName are a local server's own process, as its
	// last serverStatus reported it, when it is not this process: each
	// host sample reads its CPU time beside mongobench's.
	serverPID  int
	serverName string
}

// NewSampler returns a Sampler. It does not touch the server; a procfs that
// cannot be opened shows up as an error in every host sample.
func NewSampler(opts SamplerOptions) *Sampler {
	s := &Sampler{
		client:        opts.Client,
		shards:        opts.Shards,
		serverIsLocal: opts.ServerIsLocal,
		timeout:       sampleTimeout(opts.Interval, opts.Timeout),
	}

	if !opts.NoHost {
		s.host = newHostReader(opts.ProcFS, opts.pid)
	}

	return s
}

func sampleTimeout(interval, timeout time.Duration) time.Duration {
	switch {
	case timeout > 0:
		return timeout
	case interval > 0:
		return min(interval/2, DefaultTimeout)
	default:
		return DefaultTimeout
	}
}

// Sample reads the server and the host, stamping the snapshot with at (the
// caller's interval clock, so that server figures line up with latency
// figures). It returns within the sampler's timeout even when the server
// does not answer; a failed part is recorded in the snapshot, not returned.
func (s *Sampler) Sample(ctx context.Context, at time.Time) Snapshot {
	snap := Snapshot{At: at}

	// Host counters first: reading /proc takes microseconds, while the
	// server's answer may take up to the timeout, and the host figures
	// should belong to the moment the caller named.
	if s.host != nil {
		snap.Host = s.host.sample(s.serverIsLocal)
		if pid, name := s.serverProcess(); pid > 0 {
			snap.Host.ServerProcess = s.host.serverProcess(pid, name)
		}
	}

	if s.client != nil {
		ctx, cancel := context.WithTimeout(ctx, s.timeout)
		defer cancel()

		ss, info, err := serverStatus(ctx, s.client)
		if err != nil {
			ss = ServerSample{Error: err.Error()}
		} else {
			s.noteServer(ss.PID, info.Process)
			if pid, name := s.serverProcess(); pid > 0 && snap.Host != nil && snap.Host.ServerProcess == nil {
				// Learnt only now (the first sample): read it a moment
				// after the host rather than leave the first interval
				// without it.
				snap.Host.ServerProcess = s.host.serverProcess(pid, name)
			}
			ss.Info = s.infoIfChanged(info)
			if s.isReplicaSet(ctx) {
				// A refused replSetGetStatus (no clusterMonitor role)
				// leaves the lag absent; serverStatus's figures stand.
				if raw, err := runCommand(ctx, s.client.Database("admin"), bson.D{{Key: "replSetGetStatus", Value: 1}}); err == nil {
					ss.Replication = parseReplSetStatus(raw)
				}
			}
		}

		ss.Shards = s.sampleShards(ctx)
		snap.Server = &ss
	}

	return snap
}

// sampleShards reads each shard primary's serverStatus, all at once: the
// sample's timeout bounds them together.
func (s *Sampler) sampleShards(ctx context.Context) []ShardSample {
	if len(s.shards) == 0 {
		return nil
	}

	out := make([]ShardSample, len(s.shards))

	var wg sync.WaitGroup

	for i, sh := range s.shards {
		wg.Add(1)

		go func() {
			defer wg.Done()

			ss, _, err := serverStatus(ctx, sh.Client)
			if err != nil {
				ss = ServerSample{Error: err.Error()}
			}

			out[i] = ShardSample{Name: sh.Name, Server: &ss}
		}()
	}

	wg.Wait()

	return out
}

// noteServer keeps the server's process, from its serverStatus, for the
// next host sample: only a local server's, and only when it is not this
// process (the embedded server's figures are this process's already).
func (s *Sampler) noteServer(pid Value, process string) {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.serverPID, s.serverName = 0, ""

	self := os.Getpid()
	if s.host != nil && s.host.pid != 0 {
		self = s.host.pid
	}

	if !s.serverIsLocal || !pid.OK || pid.V <= 0 || int(pid.V) == self || process == "" {
		return
	}

	s.serverPID, s.serverName = int(pid.V), filepath.Base(process)
}

func (s *Sampler) serverProcess() (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()

	return s.serverPID, s.serverName
}

func (s *Sampler) infoIfChanged(info ServerInfo) *ServerInfo {
	s.mu.Lock()
	defer s.mu.Unlock()

	if s.lastInfo != nil && *s.lastInfo == info {
		return nil
	}

	s.lastInfo = &info
	out := info

	return &out
}

// isReplicaSet asks hello, once, whether the server is a replica set
// member (a mongos, whose shards are replica sets, is not one); a hello
// that fails is asked again at the next sample.
func (s *Sampler) isReplicaSet(ctx context.Context) bool {
	s.mu.Lock()
	known := s.replicaSet
	s.mu.Unlock()

	if known != nil {
		return *known
	}

	raw, err := runHello(ctx, s.client.Database("admin"))
	if err != nil {
		return false
	}

	var t TopologyInfo
	applyHello(&t, raw)
	yes := t.Kind == KindReplicaSet

	s.mu.Lock()
	s.replicaSet = &yes
	s.mu.Unlock()

	return yes
}
