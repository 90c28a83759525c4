// Package lean is a second wire path for the hot single-document
// operations of YCSB (read, update, insert, delete, batched insert). The
// official driver keeps what it does best: topology discovery, the
// connection pool, TLS, authentication, handshakes and SDAM error
// handling, through its connection layer (go.mongodb.org/mongo-driver/v2's
// x/ packages). Each worker holds one connection the driver checked out,
// encodes the command bodies into its own buffer (the same fields, in the
// same order, as the driver sends), and decodes only what the benchmark
// needs from the reply. Whatever the lean path does not cover goes to the
// driver's path, and Client.Fallbacks names it.
//
// The x/ packages are not covered by the driver's compatibility promise,
// which is why go.mod pins the driver to an exact version and the
// differential test (lean beside driver against the recording null
// server) must pass before the pin moves.
package lean

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/description"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/mnet"
	//lint:ignore SA1019 the lean path is built on the driver's connection layer; go.mod pins the driver and the differential test checks it
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/session"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/topology"

	"github.com/mongobench/mongobench/internal/db"
)

// Config is what the lean path needs from the binding that opened the
// topology.
type Config struct {
	Topology *topology.Topology
	// Clock is the cluster clock the topology's handshakes gossip into;
	// the lean path sends and advances it.
	//lint:ignore SA1019 the topology's handshakes gossip through this clock
	Clock *session.ClusterClock
	// Dialer dialed the topology's connections (nil: every worker uses the
	// driver's Read and Write).
	Dialer *Dialer
	// Options are the client's resolved options: write and read concern,
	// read preference, retryable reads and writes, TLS, compressors.
	Options   *options.ClientOptions
	Database  string
	Upsert    bool
	OpTimeout time.Duration
}

// Client is the lean path shared by the workers.
type Client struct {
	cfg Config
	// off is why the lean path takes no operation at all ("" when it
	// takes some); reads, writes and inserts are why each goes to the
	// driver ("" when lean).
	off, reads, writes, inserts string
	rawIO                       bool
	sel                         selector
	wc, rc                      []byte // writeConcern and readConcern documents, nil when not sent
	retryWrites, retryReads     bool

	// epoch counts the topology's changes: a worker whose connection was
	// chosen in an older epoch chooses again.
	epoch atomic.Uint64
	sub   *driver.Subscription
	done  chan struct{}

	mu   sync.Mutex
	lsid [][]byte // every session a worker used, ended at Close
}

// New judges what the lean path covers under cfg's options and starts
// following the topology.
func New(cfg Config) (*Client, error) {
	c := &Client{cfg: cfg, retryWrites: true, retryReads: true, done: make(chan struct{})}
	o := cfg.Options
	if o.RetryWrites != nil {
		c.retryWrites = *o.RetryWrites
	}
	if o.RetryReads != nil {
		c.retryReads = *o.RetryReads
	}
	switch {
	case o.Timeout != nil:
		c.off = "timeoutMS in the URL (the driver's client-side operation timeout)"
	case len(o.Compressors) > 0:
		c.off = "compressors in the URL"
	case o.LoadBalanced != nil && *o.LoadBalanced:
		c.off = "loadBalanced=true"
	case o.ServerAPIOptions != nil:
		c.off = "a server API version"
	case o.AutoEncryptionOptions != nil:
		c.off = "automatic encryption"
	}
	if o.WriteConcern != nil {
		if !o.WriteConcern.Acknowledged() {
			c.writes = "w=0 (unacknowledged writes)"
		} else {
			_, wc, err := driver.MarshalBSONWriteConcern(o.WriteConcern, 0)
			switch {
			case errors.Is(err, driver.ErrEmptyWriteConcern):
			case err != nil:
				return nil, fmt.Errorf("write concern: %w", err)
			default:
				c.wc = wc
			}
		}
	}
	if o.ReadConcern != nil && o.ReadConcern.Level != "" {
		_, rc, err := driver.MarshalBSONReadConcern(o.ReadConcern)
		if err != nil {
			return nil, fmt.Errorf("read concern: %w", err)
		}
		c.rc = rc
	}
	if rp := o.ReadPreference; rp != nil && rp.Mode() != readpref.PrimaryMode {
		c.reads = "readPreference=" + rp.Mode().String()
	}
	c.inserts = c.writes
	if cfg.Upsert && c.inserts == "" {
		c.inserts = "mongodb.upsert=true (replaceOne and bulk upserts)"
	}
	c.rawIO = cfg.Dialer != nil && o.TLSConfig == nil
	c.sel.threshold = localThreshold(o)
	if c.off != "" {
		return c, nil
	}
	sub, err := cfg.Topology.Subscribe()
	if err != nil {
		return nil, fmt.Errorf("following the topology: %w", err)
	}
	c.sub = sub
	go func() {
		// The first update is the description the workers choose in; the
		// driver then sends one for every heartbeat, every 10 s, and each
		// would make every worker put its connection back and queue for
		// one again, behind the workers still waiting for their first
		// while the pool is dialling (up to 10 s at 1,000 threads).
		var last description.Topology
		seen := false
		for {
			select {
			case td, ok := <-sub.Updates:
				if !ok {
					return
				}
				if seen && !sameChoice(last, td) {
					c.epoch.Add(1)
				}
				last, seen = td, true
			case <-c.done:
				return
			}
		}
	}()
	return c, nil
}

// Fallbacks names what goes to the driver's path and why, one entry per
// kind of operation; empty when the lean path takes every operation it
// can (scans always go to the driver, which the first entry says).
func (c *Client) Fallbacks() []string {
	out := []string{"scan: a cursor over several batches is the driver's"}
	if c.off != "" {
		return append(out, "read, update, insert, delete, batched insert: "+c.off)
	}
	if c.reads != "" {
		out = append(out, "read: "+c.reads)
	}
	if c.writes != "" {
		out = append(out, "update, delete: "+c.writes)
	}
	if c.inserts != "" {
		out = append(out, "insert, batched insert: "+c.inserts)
	}
	return out
}

// Close stops following the topology and ends the sessions the workers
// used, through run (an admin command on the driver's client), as the
// driver ends its pooled sessions when it disconnects.
func (c *Client) Close(ctx context.Context, run func(ctx context.Context, cmd bsoncore.Document) error) error {
	select {
	case <-c.done:
		return nil
	default:
		close(c.done)
	}
	if c.sub != nil {
		_ = c.cfg.Topology.Unsubscribe(c.sub)
	}
	c.mu.Lock()
	ids := c.lsid
	c.lsid = nil
	c.mu.Unlock()
	// endSessions takes at most 10,000 sessions per call.
	for len(ids) > 0 && run != nil {
		n := min(len(ids), 10000)
		idx, b := bsoncore.AppendDocumentStart(nil)
		aidx, b := bsoncore.AppendArrayElementStart(b, "endSessions")
		for i, id := range ids[:n] {
			b = bsoncore.AppendDocumentElement(b, itoa(i), id)
		}
		b, _ = bsoncore.AppendArrayEnd(b, aidx)
		b, _ = bsoncore.AppendDocumentEnd(b, idx)
		if err := run(ctx, b); err != nil {
			return err
		}
		ids = ids[n:]
	}
	return nil
}

// newSession returns a new logical session id document, {id: UUID}.
func (c *Client) newSession() []byte {
	var id [16]byte
	_, _ = rand.Read(id[:])
	id[6] = id[6]&0x0f | 0x40 // version 4
	id[8] = id[8]&0x3f | 0x80 // RFC 4122 variant
	idx, b := bsoncore.AppendDocumentStart(nil)
	b = bsoncore.AppendBinaryElement(b, "id", 4, id[:])
	b, _ = bsoncore.AppendDocumentEnd(b, idx)
	c.mu.Lock()
	c.lsid = append(c.lsid, b)
	c.mu.Unlock()
	return b
}

// NewDB returns a worker's binding: lean where it can be, fallback (the
// driver path's worker) for the rest.
func (c *Client) NewDB(fallback db.DB) db.DB {
	if c.off != "" {
		return fallback
	}
	w := &worker{c: c, fb: fallback}
	w.bi, _ = fallback.(db.BatchInserter)
	// The connection is checked out now rather than by the first
	// operation: the pool dials a few connections at a time, and at 1,000
	// threads the last workers waited seconds for theirs, which their
	// first operation's latency counted (the p99 of a 10^5-operation run).
	// The wait is bounded as an operation's is, by the server selection
	// timeout (ensure applies it); a worker that gets no connection in
	// that time tries again on its first operation, which reports why.
	_ = w.ensure(context.Background())
	return w
}

// sameChoice reports whether a worker's connection chosen under a is still
// one it would choose under b: the same kind of topology and the same
// servers, each of the same kind. A new round-trip time alone does not
// move a worker to another mongos; a failover, a server added or removed,
// or a server becoming unknown does.
func sameChoice(a, b description.Topology) bool {
	if a.Kind != b.Kind || len(a.Servers) != len(b.Servers) {
		return false
	}
	kinds := make(map[string]description.ServerKind, len(a.Servers))
	for _, s := range a.Servers {
		kinds[s.Addr.String()] = s.Kind
	}
	for _, s := range b.Servers {
		if k, ok := kinds[s.Addr.String()]; !ok || k != s.Kind {
			return false
		}
	}
	return true
}

// localThreshold is the latency window among mongoses (localThresholdMS),
// the driver's default when the URL sets none.
func localThreshold(o *options.ClientOptions) time.Duration {
	if o.LocalThreshold != nil {
		return *o.LocalThreshold
	}
	return 15 * time.Millisecond
}

// selector chooses the servers a primary read or any write may go to: the
// writable ones, and among mongoses those within the latency window of the
// nearest, as the driver's primary selector does.
type selector struct{ threshold time.Duration }

func (s selector) SelectServer(t description.Topology, cands []description.Server) ([]description.Server, error) {
	var out []description.Server
	switch t.Kind {
	case description.TopologyKindSingle, description.TopologyKindLoadBalanced, description.TopologyKindSharded:
		out = cands
	default:
		for _, srv := range cands {
			if srv.Kind == description.ServerKindRSPrimary {
				out = append(out, srv)
			}
		}
	}
	if len(out) < 2 {
		return out, nil
	}
	least := out[0].AverageRTT
	for _, srv := range out[1:] {
		least = min(least, srv.AverageRTT)
	}
	var kept []description.Server
	for _, srv := range out {
		if srv.AverageRTT <= least+s.threshold {
			kept = append(kept, srv)
		}
	}
	return kept, nil
}

// held is the connection a worker holds and what it knows of its server.
type held struct {
	conn   *mnet.Connection
	tconn  *topology.Connection
	server driver.Server
	raw    *socket // nil: the driver's Read and Write
	desc   description.Server
	single bool // the topology is Single (a direct connection)
	rttMin time.Duration
	epoch  uint64
}

// release gives the connection back to the pool; expire closes it instead.
func (h *held) release(expire bool) {
	if h.conn == nil {
		return
	}
	if expire && h.tconn != nil {
		_ = h.tconn.Expire()
	} else {
		_ = h.conn.Close()
	}
	*h = held{}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}
