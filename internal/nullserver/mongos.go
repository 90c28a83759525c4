package nullserver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

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
}

type clusterCollection struct {
	key     bson.Raw // nil: not sharded
	dropped bool
	docs    int64
	uuid    bson.Binary
}

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
	return &Cluster{version: v, shards: shards, enabled: map[string]bool{}, collections: map[string]*clusterCollection{}}, nil
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
	case "buildInfo", "buildinfo":
		return appendDoc(dst, bson.D{
			{Key: "version", Value: cl.versionString()},
			{Key: "versionArray", Value: bson.A{int32(cl.version[0]), int32(cl.version[1]), int32(cl.version[2]), int32(cl.version[3])}},
			{Key: "ok", Value: 1.0},
		}), true
	case "listShards":
		var shards bson.A
		for _, id := range cl.shards {
			shards = append(shards, bson.D{{Key: "_id", Value: id}, {Key: "host", Value: id + "/" + id + "-a:27018," + id + "-b:27018"}, {Key: "state", Value: int32(1)}})
		}
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
		cl.mu.Unlock()
		return nil, false
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
	return appendDoc(dst, bson.D{{Key: "collectionsharded", Value: ns}, {Key: "collectionUUID", Value: c.uuid}, {Key: "ok", Value: 1.0}})
}

// findConfig answers reads of config.collections by _id, in the shape of
// the server's version; every other config read finds nothing.
func (cl *Cluster) findConfig(dst []byte, c *command, raw bson.Raw) []byte {
	coll, _ := stringValue(c.arg)
	batch := bson.A{}
	if string(coll) == "collections" {
		if id, ok := raw.Lookup("filter", "_id").StringValueOK(); ok {
			cl.mu.Lock()
			if e, ok := cl.collections[id]; ok && e.key != nil {
				batch = append(batch, cl.collectionEntry(id, e))
			}
			cl.mu.Unlock()
		}
	}
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
