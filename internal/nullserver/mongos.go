package nullserver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Options configure StartWith.
type Options struct {
	// Record keeps every command the server receives, except the drivers'
	// handshakes, heartbeats and session bookkeeping, for Commands.
	Record bool
	// Mongos, when not nil, makes the server answer as a mongos in front of
	// this cluster: hello says "isdbgrid", and the sharding commands and
	// config.* reads a benchmark's set-up uses change and read the
	// cluster's state.
	Mongos *Cluster
	// Reply, when not nil, sees every command first: where it returns
	// ok, its reply is sent instead of the server's own (a test's
	// injected error, which a real server cannot be made to give).
	Reply func(Command) (reply bson.Raw, ok bool)
}

// Command is one command a recording server received.
type Command struct {
	DB   string
	Name string
	// Doc is the command document as sent.
	Doc bson.Raw
}

// String is the command as "db.name {arguments}" in relaxed Extended JSON,
// without the fields every driver adds (lsid, $clusterTime, $db,
// $readPreference, ...), so that a recorded sequence reads like the shell
// commands a user would type.
func (c Command) String() string {
	var d bson.D
	if err := bson.Unmarshal(c.Doc, &d); err != nil {
		return c.DB + "." + c.Name + " <invalid: " + err.Error() + ">"
	}
	d = slices.DeleteFunc(d, func(e bson.E) bool {
		return strings.HasPrefix(e.Key, "$") || e.Key == "lsid" || e.Key == "txnNumber" || e.Key == "maxTimeMS"
	})
	b, err := bson.MarshalExtJSON(d, false, false)
	if err != nil {
		return c.DB + "." + c.Name + " <invalid: " + err.Error() + ">"
	}
	return c.DB + "." + c.Name + " " + string(b)
}

// Commands returns the commands received so far, in the order they were
// answered, when the server records; nil otherwise.
func (s *Server) Commands() []Command {
	s.recMu.Lock()
	defer s.recMu.Unlock()
	return slices.Clone(s.recorded)
}

// unrecorded are the commands drivers send on their own, whose number
// depends on timing rather than on what the client was asked to do.
var unrecorded = map[string]bool{
	"hello": true, "isMaster": true, "ismaster": true, "ping": true,
	"endSessions": true, "killCursors": true, "saslStart": true, "saslContinue": true,
}

func (s *Server) keep(c *command) {
	if !s.record || unrecorded[string(c.name)] {
		return
	}
	rec := Command{DB: string(c.db), Name: string(c.name), Doc: slices.Clone(bson.Raw(c.doc))}
	s.recMu.Lock()
	s.recorded = append(s.recorded, rec)
	s.recMu.Unlock()
}

// Cluster is the state behind a mongos-mode server: its shards, which
// databases have sharding enabled, and each collection's shard key and
// document count. Its methods are safe for concurrent use.
//
// It answers as MongoDB does where a benchmark's set-up can tell: before
// 6.0, shardCollection fails unless enableSharding ran first; a collection
// sharded on one key refuses another; before 5.0, config.collections keeps
// a dropped collection's entry, marked dropped.
type Cluster struct {
	version []int
	shards  []string

	mu          sync.Mutex
	enabled     map[string]bool
	collections map[string]*clusterCollection
	nextUUID    byte
	changelog   []bson.D
	now         func() time.Time
	// hosts are the shards' hosts as listShards gives them, by shard.
	hosts map[string]string
	// migrations are to happen once a collection holds as many documents
	// as each one's afterDocs; they outlive drops, as the balancer does.
	migrations map[string][]plannedMigration
}

type clusterCollection struct {
	key     bson.Raw // nil: not sharded
	dropped bool
	docs    int64
	uuid    bson.Binary
	// chunks is how many chunks shardCollection made.
	chunks int
}

type plannedMigration struct {
	afterDocs int64
	from, to  string
}

// fakeDocBytes is the size the fake gives every document in its
// $collStats: a YCSB record of 10 fields of 100 bytes, as BSON.
const fakeDocBytes = 1168

// fakeMigrationMs is how long before its commit the fake's migrations
// start, as config.changelog says.
const fakeMigrationMs = 250

// NewCluster returns a cluster of the given shards behind a mongos of the
// given version ("4.4.29", "7.0.12", "8.0.4").
func NewCluster(version string, shards ...string) (*Cluster, error) {
	var v []int
	for _, p := range strings.Split(version, ".") {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("nullserver: version %q: %w", version, err)
		}
		v = append(v, n)
	}
	for len(v) < 4 {
		v = append(v, 0)
	}
	if len(shards) == 0 {
		return nil, fmt.Errorf("nullserver: a cluster needs at least one shard")
	}
	return &Cluster{version: v, shards: shards, enabled: map[string]bool{}, collections: map[string]*clusterCollection{}, now: time.Now, migrations: map[string][]plannedMigration{}, hosts: map[string]string{}}, nil
}

// Shard records ns as sharded on key and holding docs documents, as if
// an earlier benchmark had set it up.
func (cl *Cluster) Shard(ns string, key bson.D, docs int64) error {
	raw, err := bson.Marshal(key)
	if err != nil {
		return err
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	db, _, _ := strings.Cut(ns, ".")
	cl.enabled[db] = true
	c := cl.collection(ns)
	c.key, c.docs, c.dropped = raw, docs, false
	return nil
}

// MigrateAfter plans a chunk migration of ns from one shard to another,
// to commit when the collection has reached afterDocs documents: it is
// then in config.changelog, as moveChunk.start and moveChunk.commit
// entries, as MongoDB writes them.
func (cl *Cluster) MigrateAfter(ns string, afterDocs int64, from, to string) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	cl.migrations[ns] = append(cl.migrations[ns], plannedMigration{afterDocs: afterDocs, from: from, to: to})
}

// SetShardHost sets the host listShards gives for a shard ("rs/h:p,..."
// or "h:p"); by default "<id>/<id>-a:27018,<id>-b:27018", which resolves
// nowhere.
func (cl *Cluster) SetShardHost(id, host string) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	cl.hosts[id] = host
}

// SetDocuments sets ns's document count, creating it unsharded if needed.
func (cl *Cluster) SetDocuments(ns string, docs int64) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	cl.collection(ns).docs = docs
}

// ShardKey returns ns's shard key as "{...}" Extended JSON, "" when ns is
// not sharded.
func (cl *Cluster) ShardKey(ns string) string {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	c, ok := cl.collections[ns]
	if !ok || c.key == nil || c.dropped {
		return ""
	}
	return c.key.String()
}

// Documents returns ns's document count.
func (cl *Cluster) Documents(ns string) int64 {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if c, ok := cl.collections[ns]; ok {
		return c.docs
	}
	return 0
}

func (cl *Cluster) collection(ns string) *clusterCollection {
	c, ok := cl.collections[ns]
	if !ok {
		cl.nextUUID++
		c = &clusterCollection{uuid: bson.Binary{Subtype: 4, Data: append(make([]byte, 15), cl.nextUUID)}}
		cl.collections[ns] = c
	}
	return c
}

func (cl *Cluster) versionString() string {
	return fmt.Sprintf("%d.%d.%d", cl.version[0], cl.version[1], cl.version[2])
}

// reply answers c as a mongos would, or returns ok false for the commands
// a mongos answers like any server.
func (cl *Cluster) reply(dst []byte, c *command, h *handler) ([]byte, bool) {
	raw := bson.Raw(c.doc)
	switch string(c.name) {
	case "hello", "isMaster", "ismaster":
		key := "isWritablePrimary"
		if string(c.name) != "hello" {
			key = "ismaster"
		}
		out := h.appendHello(nil, key)
		return appendDoc(dst, insertMsg(out)), true
	case "serverStatus":
		var d bson.D
		_ = bson.Unmarshal(h.appendServerStatus(nil), &d)
		for i := range d {
			switch d[i].Key {
			case "process":
				d[i].Value = "mongos"
			case "version":
				d[i].Value = cl.versionString()
			}
		}
		return appendDoc(dst, d), true
	case "buildInfo", "buildinfo":
		return appendDoc(dst, bson.D{
			{Key: "version", Value: cl.versionString()},
			{Key: "versionArray", Value: bson.A{int32(cl.version[0]), int32(cl.version[1]), int32(cl.version[2]), int32(cl.version[3])}},
			{Key: "ok", Value: 1.0},
		}), true
	case "listShards":
		var shards bson.A
		cl.mu.Lock()
		for _, id := range cl.shards {
			host, ok := cl.hosts[id]
			if !ok {
				host = id + "/" + id + "-a:27018," + id + "-b:27018"
			}
			shards = append(shards, bson.D{{Key: "_id", Value: id}, {Key: "host", Value: host}, {Key: "state", Value: int32(1)}})
		}
		cl.mu.Unlock()
		return appendDoc(dst, bson.D{{Key: "shards", Value: shards}, {Key: "ok", Value: 1.0}}), true
	case "balancerStatus":
		return appendDoc(dst, bson.D{{Key: "mode", Value: "full"}, {Key: "inBalancerRound", Value: false}, {Key: "numBalancerRounds", Value: int64(0)}, {Key: "ok", Value: 1.0}}), true
	case "enableSharding", "enablesharding":
		db, _ := raw.Lookup(string(c.name)).StringValueOK()
		cl.mu.Lock()
		cl.enabled[db] = true
		cl.mu.Unlock()
		return appendDoc(dst, bson.D{{Key: "ok", Value: 1.0}}), true
	case "shardCollection", "shardcollection":
		return cl.shardCollection(dst, raw, string(c.name)), true
	case "drop":
		coll, _ := stringValue(c.arg)
		ns := string(c.db) + "." + string(coll)
		cl.mu.Lock()
		if col, ok := cl.collections[ns]; ok {
			if cl.version[0] < 5 && col.key != nil {
				col.dropped, col.docs = true, 0
			} else {
				delete(cl.collections, ns)
			}
		}
		cl.mu.Unlock()
		return appendDoc(dst, bson.D{{Key: "ns", Value: ns}, {Key: "ok", Value: 1.0}}), true
	case "count":
		coll, _ := stringValue(c.arg)
		return appendDoc(dst, bson.D{{Key: "n", Value: int32(cl.Documents(string(c.db) + "." + string(coll)))}, {Key: "ok", Value: 1.0}}), true
	case "insert":
		coll, _ := stringValue(c.arg)
		ns := string(c.db) + "." + string(coll)
		cl.mu.Lock()
		col := cl.collection(ns)
		col.dropped = false
		col.docs += int64(c.statements)
		cl.migrateDue(ns, col)
		cl.mu.Unlock()
		return nil, false
	case "aggregate":
		coll, _ := stringValue(c.arg)
		stage, ok := raw.Lookup("pipeline", "0").DocumentOK()
		if !ok || len(coll) == 0 {
			return nil, false
		}
		if _, err := stage.LookupErr("$collStats"); err != nil {
			return nil, false
		}
		return cl.collStats(dst, string(c.db)+"."+string(coll)), true
	case "find":
		if string(c.db) != "config" {
			return nil, false
		}
		return cl.findConfig(dst, c, raw), true
	}
	return nil, false
}

// shardCollection answers as a mongos does: 4.x and 5.x refuse a
// database without sharding enabled (IllegalOperation, code 20); a
// collection already sharded on the same key is success, on another key
// AlreadyInitialized (code 23).
func (cl *Cluster) shardCollection(dst []byte, raw bson.Raw, name string) []byte {
	ns, _ := raw.Lookup(name).StringValueOK()
	key, ok := raw.Lookup("key").DocumentOK()
	if !ok {
		return appendError(dst, 9, "FailedToParse", "shardCollection needs a key document")
	}
	db, _, _ := strings.Cut(ns, ".")
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.version[0] < 6 && !cl.enabled[db] {
		return appendError(dst, 20, "IllegalOperation", "sharding not enabled for db "+db)
	}
	c := cl.collection(ns)
	if c.key != nil && !c.dropped {
		if !slices.Equal(c.key, key) {
			return appendError(dst, 23, "AlreadyInitialized", "sharding already enabled for collection "+ns+" with options { key: "+c.key.String()+" }")
		}
	}
	c.key, c.dropped = slices.Clone(key), false
	c.chunks = 1
	if hashedKey(key) {
		// MongoDB's default: two chunks per shard.
		c.chunks = 2 * len(cl.shards)
		if n, ok := raw.Lookup("numInitialChunks").AsInt64OK(); ok && n > 0 {
			c.chunks = int(n)
		}
	}
	return appendDoc(dst, bson.D{{Key: "collectionsharded", Value: ns}, {Key: "collectionUUID", Value: c.uuid}, {Key: "ok", Value: 1.0}})
}

// findConfig answers reads of config.collections by _id, in the shape of
// the server's version; every other config read finds nothing.
func (cl *Cluster) findConfig(dst []byte, c *command, raw bson.Raw) []byte {
	coll, _ := stringValue(c.arg)
	batch := bson.A{}
	cl.mu.Lock()
	switch string(coll) {
	case "collections":
		if id, ok := raw.Lookup("filter", "_id").StringValueOK(); ok {
			if e, ok := cl.collections[id]; ok && e.key != nil {
				batch = append(batch, cl.collectionEntry(id, e))
			}
		}
	case "chunks":
		// mongobench asks for {$or: [{ns}, {uuid}]}: the fake answers
		// with every collection's chunks, as 4.4 (by ns) or 5.0 and later
		// (by uuid) keep them, and the client must pick its own.
		for ns, e := range cl.collections {
			if e.key != nil && !e.dropped {
				batch = append(batch, cl.chunkDocs(ns, e)...)
			}
		}
	case "changelog":
		ns, _ := raw.Lookup("filter", "ns").StringValueOK()
		from, hasFrom := raw.Lookup("filter", "time", "$gte").TimeOK()
		to, hasTo := raw.Lookup("filter", "time", "$lte").TimeOK()
		for _, e := range cl.changelog {
			var entryNS string
			var at time.Time
			for _, f := range e {
				switch f.Key {
				case "ns":
					entryNS, _ = f.Value.(string)
				case "time":
					at = f.Value.(bson.DateTime).Time()
				}
			}
			if entryNS == ns && (!hasFrom || !at.Before(from)) && (!hasTo || !at.After(to)) {
				batch = append(batch, e)
			}
		}
	}
	cl.mu.Unlock()
	return appendDoc(dst, bson.D{
		{Key: "cursor", Value: bson.D{{Key: "firstBatch", Value: batch}, {Key: "id", Value: int64(0)}, {Key: "ns", Value: "config." + string(coll)}}},
		{Key: "ok", Value: 1.0},
	})
}

// collectionEntry is a config.collections document. 4.4's (MongoDB 4.4
// manual, "Config Database": config.collections) has dropped and no
// timestamp; 5.0 and later drop "dropped" and add timestamp and noBalance.
func (cl *Cluster) collectionEntry(ns string, e *clusterCollection) bson.D {
	epoch := bson.ObjectID{0x5f, 1}
	if cl.version[0] < 5 {
		return bson.D{
			{Key: "_id", Value: ns}, {Key: "lastmodEpoch", Value: epoch},
			{Key: "lastmod", Value: bson.DateTime(1600000000000)}, {Key: "dropped", Value: e.dropped},
			{Key: "key", Value: e.key}, {Key: "unique", Value: false}, {Key: "uuid", Value: e.uuid},
		}
	}
	return bson.D{
		{Key: "_id", Value: ns}, {Key: "lastmodEpoch", Value: epoch},
		{Key: "lastmod", Value: bson.DateTime(1700000000000)}, {Key: "timestamp", Value: bson.Timestamp{T: 1700000000, I: 1}},
		{Key: "uuid", Value: e.uuid}, {Key: "key", Value: e.key}, {Key: "unique", Value: false}, {Key: "noBalance", Value: false},
	}
}

// insertMsg adds msg: "isdbgrid" to a hello reply, which is what tells
// drivers and tools that they talk to a mongos.
func insertMsg(hello []byte) bson.D {
	var d bson.D
	_ = bson.Unmarshal(hello, &d)
	return append(bson.D{{Key: "msg", Value: "isdbgrid"}}, d...)
}

// appendDoc appends v marshalled; the mongos mode's replies are built
// from values, not bytes, since their speed does not matter.
func appendDoc(dst []byte, v any) []byte {
	b, err := bson.Marshal(v)
	if err != nil {
		return appendError(dst, 1, "InternalError", err.Error())
	}
	return append(dst, b...)
}

func hashedKey(key bson.Raw) bool {
	elems, _ := key.Elements()
	for _, e := range elems {
		if v, ok := e.Value().StringValueOK(); ok && v == "hashed" {
			return true
		}
	}
	return false
}

// chunkDocs are ns's config.chunks documents, spread round-robin over the
// shards; only the fields a reader of chunk counts needs.
func (cl *Cluster) chunkDocs(ns string, e *clusterCollection) bson.A {
	var out bson.A
	for i := 0; i < e.chunks; i++ {
		d := bson.D{{Key: "shard", Value: cl.shards[i%len(cl.shards)]}}
		if cl.version[0] < 5 {
			d = append(bson.D{{Key: "ns", Value: ns}}, d...)
		} else {
			d = append(bson.D{{Key: "uuid", Value: e.uuid}}, d...)
		}
		out = append(out, d)
	}
	return out
}

// collStats answers $collStats through a mongos: one document per shard
// holding part of ns. A sharded collection's documents are spread evenly
// over the shards its chunks are on, an unsharded one's are all on the
// first shard (its database's primary shard).
func (cl *Cluster) collStats(dst []byte, ns string) []byte {
	cl.mu.Lock()
	e, ok := cl.collections[ns]
	if !ok {
		cl.mu.Unlock()
		return appendError(dst, 26, "NamespaceNotFound", "Unable to retrieve storageStats in $collStats stage :: caused by :: Collection ["+ns+"] not found.")
	}
	shards := cl.shards[:1]
	if e.key != nil && !e.dropped {
		shards = cl.shards[:min(len(cl.shards), max(e.chunks, 1))]
	}
	docs := e.docs
	cl.mu.Unlock()

	batch := bson.A{}
	for i, id := range shards {
		n := docs / int64(len(shards))
		if int64(i) < docs%int64(len(shards)) {
			n++
		}
		batch = append(batch, bson.D{
			{Key: "ns", Value: ns}, {Key: "shard", Value: id}, {Key: "host", Value: id + "-a:27018"},
			{Key: "localTime", Value: bson.NewDateTimeFromTime(cl.now())},
			{Key: "count", Value: n},
			{Key: "storageStats", Value: bson.D{
				{Key: "size", Value: n * fakeDocBytes}, {Key: "count", Value: n}, {Key: "avgObjSize", Value: int32(fakeDocBytes)},
				{Key: "storageSize", Value: n * fakeDocBytes / 2}, {Key: "totalIndexSize", Value: n * 40},
			}},
		})
	}
	return appendDoc(dst, bson.D{
		{Key: "cursor", Value: bson.D{{Key: "firstBatch", Value: batch}, {Key: "id", Value: int64(0)}, {Key: "ns", Value: ns}}},
		{Key: "ok", Value: 1.0},
	})
}

// migrateDue writes the changelog entries of the migrations of ns that the
// collection's growth has made due. The caller holds cl.mu.
func (cl *Cluster) migrateDue(ns string, e *clusterCollection) {
	var kept []plannedMigration
	for _, m := range cl.migrations[ns] {
		if e.docs < m.afterDocs {
			kept = append(kept, m)
			continue
		}
		commit := cl.now()
		start := commit.Add(-fakeMigrationMs * time.Millisecond)
		lower := bson.D{{Key: "_id", Value: int64(len(cl.changelog))}}
		details := bson.D{{Key: "min", Value: lower}, {Key: "from", Value: m.from}, {Key: "to", Value: m.to}}
		entry := func(what string, at time.Time, details bson.D) bson.D {
			return bson.D{
				{Key: "_id", Value: fmt.Sprintf("%s-a:27018-%s-%d", m.from, at.UTC().Format(time.RFC3339Nano), len(cl.changelog))},
				{Key: "server", Value: m.from + "-a:27018"}, {Key: "shard", Value: m.from}, {Key: "clientAddr", Value: ""},
				{Key: "time", Value: bson.NewDateTimeFromTime(at)}, {Key: "what", Value: what}, {Key: "ns", Value: ns},
				{Key: "details", Value: details},
			}
		}
		cloned := e.docs / int64(max(e.chunks, 1))
		cl.changelog = append(cl.changelog,
			entry("moveChunk.start", start, details),
			entry("moveChunk.commit", commit, append(slices.Clone(details), bson.E{Key: "counts", Value: bson.D{
				{Key: "cloned", Value: cloned}, {Key: "clonedBytes", Value: cloned * fakeDocBytes},
				{Key: "catchup", Value: int64(0)}, {Key: "steady", Value: int64(0)},
			}})))
	}
	cl.migrations[ns] = kept
}
