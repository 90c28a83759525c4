package metrics

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// The kinds of deployment Topology tells apart.
const (
	KindStandalone = "standalone"
	KindReplicaSet = "replica_set"
	KindSharded    = "sharded"
	KindUnknown    = "unknown"
)

// TopologyInfo describes the deployment a run talked to. Parts that could
// not be read (a command the server does not have, no permission on admin)
// are nil or empty, with the reason in Absent under the command's name.
type TopologyInfo struct {
	// Kind is one of KindStandalone, KindReplicaSet, KindSharded and
	// KindUnknown (hello failed).
	Kind            string `json:"kind"`
	Version         string `json:"version,omitempty"`
	FerretDBVersion string `json:"ferretdb_version,omitempty"`
	// StorageEngine is empty for mongos, which has none.
	StorageEngine string `json:"storage_engine,omitempty"`
	// IsWritablePrimary is what hello said of the server that answered.
	IsWritablePrimary *bool    `json:"is_writable_primary,omitempty"`
	SetName           string   `json:"set_name,omitempty"`
	Hosts             []string `json:"hosts,omitempty"`
	Primary           string   `json:"primary,omitempty"`
	Me                string   `json:"me,omitempty"`

	ReplicaSet *ReplicaSetStatus `json:"replica_set,omitempty"`
	Sharding   *ShardingStatus   `json:"sharding,omitempty"`

	// Absent maps a command ("hello", "buildInfo", "serverStatus",
	// "replSetGetStatus", "listShards", "chunks", "documents") to why its
	// part is missing.
	Absent map[string]string `json:"absent,omitempty"`
}

// ReplicaSetStatus is the part of replSetGetStatus that says how far each
// member is behind.
type ReplicaSetStatus struct {
	Members []Member `json:"members"`
}

// Member is one replica set member.
type Member struct {
	Name   string `json:"name"`
	State  string `json:"state"`
	Health Value  `json:"health,omitzero"`
	Self   bool   `json:"self,omitempty"`
	// OptimeDate is the time of the member's last applied write; nil for
	// members without one (arbiters, members still starting).
	OptimeDate *time.Time `json:"optime_date,omitempty"`
	// LagSec is the primary's optime minus the member's, in seconds;
	// absent without a primary or an optime.
	LagSec Value `json:"lag_s,omitzero"`
}

// MaxLagSec is the largest replication lag among the members, absent when
// no member's lag is known.
func (r *ReplicaSetStatus) MaxLagSec() Value {
	var out Value

	for _, m := range r.Members {
		if m.LagSec.OK && (!out.OK || m.LagSec.V > out.V) {
			out = m.LagSec
		}
	}

	return out
}

// ShardingStatus lists the shards of a cluster and how the benchmark
// collection is spread over them.
type ShardingStatus struct {
	// Namespace is "db.collection".
	Namespace string `json:"namespace"`
	// CollectionSharded is false when the collection lives whole on its
	// database's primary shard, nil when config.collections could not be
	// read.
	CollectionSharded *bool   `json:"collection_sharded,omitempty"`
	Shards            []Shard `json:"shards"`
}

// Shard is one shard and its part of the benchmark collection.
type Shard struct {
	ID    string `json:"id"`
	Host  string `json:"host,omitempty"`
	State Value  `json:"state,omitzero"`
	// Chunks and Documents are the collection's on this shard.
	Chunks    Value `json:"chunks,omitzero"`
	Documents Value `json:"documents,omitzero"`
	// Draining is true while the shard is being removed: the balancer
	// moves its chunks away.
	Draining bool `json:"draining,omitempty"`
}

// Topology describes the deployment behind client, and the spread of
// db.coll over the shards of a sharded cluster. It never fails: each part
// the server refuses is recorded in Absent, and the run goes on.
func Topology(ctx context.Context, client *mongo.Client, db, coll string) TopologyInfo {
	t := TopologyInfo{Kind: KindUnknown}
	admin := client.Database("admin")

	absent := func(part string, err error) {
		if t.Absent == nil {
			t.Absent = make(map[string]string)
		}

		t.Absent[part] = err.Error()
	}

	hello, err := runHello(ctx, admin)
	if err != nil {
		absent("hello", err)
	} else {
		applyHello(&t, hello)
	}

	if raw, err := runCommand(ctx, admin, bson.D{{Key: "buildInfo", Value: 1}}); err != nil {
		absent("buildInfo", fmt.Errorf("metrics: buildInfo: %w", err))
	} else {
		t.Version = str(raw, "version")
		t.FerretDBVersion = str(raw, "ferretdbVersion")
	}

	if _, info, err := serverStatus(ctx, client); err != nil {
		absent("serverStatus", err)
	} else {
		t.StorageEngine = info.StorageEngine
		if t.Version == "" {
			t.Version = info.Version
		}
	}

	switch t.Kind {
	case KindReplicaSet:
		if raw, err := runCommand(ctx, admin, bson.D{{Key: "replSetGetStatus", Value: 1}}); err != nil {
			absent("replSetGetStatus", fmt.Errorf("metrics: replSetGetStatus: %w", err))
		} else {
			t.ReplicaSet = parseReplSetStatus(raw)
		}
	case KindSharded:
		t.Sharding = sharding(ctx, client, db, coll, absent)
	}

	return t
}

// runHello asks hello, or isMaster of servers older than 4.4.2 that lack
// hello (field reports still benchmark 3.x).
func runHello(ctx context.Context, admin *mongo.Database) (bson.Raw, error) {
	raw, err := runCommand(ctx, admin, bson.D{{Key: "hello", Value: 1}})
	if err == nil {
		return raw, nil
	}

	raw, err2 := runCommand(ctx, admin, bson.D{{Key: "isMaster", Value: 1}})
	if err2 != nil {
		return nil, fmt.Errorf("metrics: hello: %w; isMaster: %w", err, err2)
	}

	return raw, nil
}

func applyHello(t *TopologyInfo, raw bson.Raw) {
	for _, key := range []string{"isWritablePrimary", "ismaster"} {
		if rv, err := raw.LookupErr(key); err == nil {
			if b, ok := rv.BooleanOK(); ok {
				t.IsWritablePrimary = &b
				break
			}
		}
	}

	t.SetName = str(raw, "setName")
	t.Hosts = strs(raw, "hosts")
	t.Primary = str(raw, "primary")
	t.Me = str(raw, "me")

	switch {
	case str(raw, "msg") == "isdbgrid":
		t.Kind = KindSharded
	case t.SetName != "":
		t.Kind = KindReplicaSet
	default:
		t.Kind = KindStandalone
	}
}

// strs reads an array of strings, skipping anything else.
func strs(raw bson.Raw, path ...string) []string {
	rv, err := raw.LookupErr(path...)
	if err != nil {
		return nil
	}

	arr, ok := rv.ArrayOK()
	if !ok {
		return nil
	}

	vals, err := arr.Values()
	if err != nil {
		return nil
	}

	var out []string

	for _, v := range vals {
		if s, ok := v.StringValueOK(); ok {
			out = append(out, s)
		}
	}

	return out
}

// docs reads an array of documents, skipping anything else.
func docs(raw bson.Raw, path ...string) []bson.Raw {
	rv, err := raw.LookupErr(path...)
	if err != nil {
		return nil
	}

	arr, ok := rv.ArrayOK()
	if !ok {
		return nil
	}

	vals, err := arr.Values()
	if err != nil {
		return nil
	}

	var out []bson.Raw

	for _, v := range vals {
		if d, ok := v.DocumentOK(); ok {
			out = append(out, d)
		}
	}

	return out
}

func parseReplSetStatus(raw bson.Raw) *ReplicaSetStatus {
	rs := &ReplicaSetStatus{}

	var primary *time.Time

	for _, d := range docs(raw, "members") {
		m := Member{
			Name:   str(d, "name"),
			State:  str(d, "stateStr"),
			Health: num(d, "health"),
		}

		if rv, err := d.LookupErr("self"); err == nil {
			m.Self, _ = rv.BooleanOK()
		}

		if rv, err := d.LookupErr("optimeDate"); err == nil {
			// A member that has applied nothing reports the epoch.
			if tm, ok := rv.TimeOK(); ok && tm.Unix() > 0 {
				tm = tm.UTC()
				m.OptimeDate = &tm
			}
		}

		if m.State == "PRIMARY" && m.OptimeDate != nil {
			primary = m.OptimeDate
		}

		rs.Members = append(rs.Members, m)
	}

	if primary != nil {
		for i := range rs.Members {
			if od := rs.Members[i].OptimeDate; od != nil {
				rs.Members[i].LagSec = Known(primary.Sub(*od).Seconds())
			}
		}
	}

	return rs
}

// sharding reads the shards from listShards, the collection's chunks from
// config.chunks and its documents per shard from $collStats.
func sharding(ctx context.Context, client *mongo.Client, db, coll string, absent func(string, error)) *ShardingStatus {
	ns := db + "." + coll
	st := &ShardingStatus{Namespace: ns}

	raw, err := runCommand(ctx, client.Database("admin"), bson.D{{Key: "listShards", Value: 1}})
	if err != nil {
		absent("listShards", fmt.Errorf("metrics: listShards: %w", err))
	} else {
		st.Shards = parseListShards(raw)
	}

	chunks, sharded, err := chunkCounts(ctx, client.Database("config"), ns)
	st.CollectionSharded = sharded

	if err != nil {
		absent("chunks", err)
	}

	counts, err := shardDocumentCounts(ctx, client.Database(db), coll)
	if err != nil {
		absent("documents", err)
	}

	st.Shards = mergeShardFigures(st.Shards, chunks, counts)

	return st
}

func parseListShards(raw bson.Raw) []Shard {
	var out []Shard

	for _, d := range docs(raw, "shards") {
		sh := Shard{ID: str(d, "_id"), Host: str(d, "host"), State: num(d, "state")}
		sh.Draining, _ = d.Lookup("draining").BooleanOK()
		out = append(out, sh)
	}

	return out
}

// errNotSharded explains the absence of chunk counts for a collection that
// is not sharded.
var errNotSharded = errors.New("the collection is not sharded")

// chunkCounts counts the collection's chunks per shard, and says whether
// the collection is sharded (nil: unknown). config.chunks names the
// collection by ns up to MongoDB 4.4 and by the collection's uuid from 5.0,
// so the match accepts either.
func chunkCounts(ctx context.Context, config *mongo.Database, ns string) (map[string]float64, *bool, error) {
	yes, no := true, false

	var entry bson.Raw

	err := config.Collection("collections").FindOne(ctx, bson.D{{Key: "_id", Value: ns}}).Decode(&entry)
	if err == nil {
		err = validate(entry)
	}

	if errors.Is(err, mongo.ErrNoDocuments) {
		return nil, &no, fmt.Errorf("metrics: chunks of %s: %w", ns, errNotSharded)
	}

	if err != nil {
		return nil, nil, fmt.Errorf("metrics: config.collections: %w", err)
	}

	if rv, err := entry.LookupErr("dropped"); err == nil {
		if b, ok := rv.BooleanOK(); ok && b {
			return nil, &no, fmt.Errorf("metrics: chunks of %s: %w", ns, errNotSharded)
		}
	}

	match := bson.A{bson.D{{Key: "ns", Value: ns}}}
	if rv, err := entry.LookupErr("uuid"); err == nil {
		match = append(match, bson.D{{Key: "uuid", Value: rv}})
	}

	// Only the fields countChunks reads: a collection has at most some
	// thousands of chunks, and their bounds can be large.
	cur, err := config.Collection("chunks").Find(ctx, bson.D{{Key: "$or", Value: match}},
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "ns", Value: 1}, {Key: "uuid", Value: 1}, {Key: "shard", Value: 1}}))
	if err != nil {
		return nil, &yes, fmt.Errorf("metrics: config.chunks: %w", err)
	}

	defer func() { _ = cur.Close(ctx) }()

	var chunks []bson.Raw

	for cur.Next(ctx) {
		if validate(cur.Current) == nil {
			chunks = append(chunks, append(bson.Raw(nil), cur.Current...))
		}
	}

	if err := cur.Err(); err != nil {
		return nil, &yes, fmt.Errorf("metrics: config.chunks: %w", err)
	}

	return countChunks(entry, chunks), &yes, nil
}

// countChunks counts, per shard, the chunks of the collection whose
// config.collections entry is given. A chunk names its collection by ns up
// to MongoDB 4.4 and by the collection's uuid from 5.0 (MongoDB manual,
// "Config Database", config.chunks, of each version); a chunk of another
// collection is not counted.
func countChunks(entry bson.Raw, chunks []bson.Raw) map[string]float64 {
	ns := str(entry, "_id")
	uuidSub, uuid, hasUUID := entry.Lookup("uuid").BinaryOK()
	out := make(map[string]float64)

	for _, c := range chunks {
		mine := ns != "" && str(c, "ns") == ns
		if !mine && hasUUID {
			sub, data, ok := c.Lookup("uuid").BinaryOK()
			mine = ok && sub == uuidSub && string(data) == string(uuid)
		}

		if id := str(c, "shard"); mine && id != "" {
			out[id]++
		}
	}

	return out
}

// shardDocumentCounts reads the collection's document count on each shard
// from $collStats, which mongos answers with one document per shard.
func shardDocumentCounts(ctx context.Context, db *mongo.Database, coll string) (map[string]float64, error) {
	ds, err := collStatsDocs(ctx, db, coll, bson.D{{Key: "count", Value: bson.D{}}})
	if err != nil {
		return nil, err
	}

	out := make(map[string]float64)

	for _, d := range ds {
		if n := num(d, "count"); n.OK {
			out[str(d, "shard")] += n.V
		}
	}

	return out, nil
}

// mergeShardFigures puts chunk and document counts on the shards, adding
// shards listShards did not name (it may have been refused), sorted by id.
func mergeShardFigures(shards []Shard, chunks, counts map[string]float64) []Shard {
	index := make(map[string]int, len(shards))
	for i, s := range shards {
		index[s.ID] = i
	}

	at := func(id string) *Shard {
		if i, ok := index[id]; ok {
			return &shards[i]
		}

		index[id] = len(shards)
		shards = append(shards, Shard{ID: id})

		return &shards[len(shards)-1]
	}

	for id, n := range chunks {
		at(id).Chunks = Known(n)
	}

	for id, n := range counts {
		at(id).Documents = Known(n)
	}

	// A shard that holds none of a sharded collection's chunks has 0, not
	// an unknown number.
	if chunks != nil {
		for i := range shards {
			if !shards[i].Chunks.OK {
				shards[i].Chunks = Known(0)
			}
		}
	}

	sort.Slice(shards, func(i, j int) bool { return shards[i].ID < shards[j].ID })

	return shards
}
