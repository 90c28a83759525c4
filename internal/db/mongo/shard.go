package mongo

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/redact"
)

// ShardKey is a collection's shard key: its fields in order, each ranged
// (1) or hashed. MongoDB allows at most one hashed field.
type ShardKey struct {
	Fields []ShardKeyField
}

// ShardKeyField is one field of a shard key.
type ShardKeyField struct {
	Name   string
	Hashed bool
}

// ParseShardKey reads mongodb.shardkey: fields separated by commas, each
// "name:1" (ranged) or "name:hashed", e.g. "_id:hashed" or "field0:1,_id:1".
func ParseShardKey(s string) (ShardKey, error) {
	var k ShardKey
	if strings.TrimSpace(s) == "" {
		return k, errors.New("expected fields such as _id:hashed or field0:1,_id:1")
	}
	seen := map[string]bool{}
	hashed := ""
	for _, part := range strings.Split(s, ",") {
		name, kind, ok := strings.Cut(strings.TrimSpace(part), ":")
		name, kind = strings.TrimSpace(name), strings.TrimSpace(kind)
		if !ok || name == "" {
			return ShardKey{}, fmt.Errorf("%q is not name:1 or name:hashed", strings.TrimSpace(part))
		}
		if err := checkKeyField(name); err != nil {
			return ShardKey{}, err
		}
		if seen[name] {
			return ShardKey{}, fmt.Errorf("field %q is named twice", name)
		}
		seen[name] = true
		f := ShardKeyField{Name: name}
		switch strings.ToLower(kind) {
		case "1":
		case "hashed":
			if hashed != "" {
				return ShardKey{}, fmt.Errorf("%s and %s are both hashed: MongoDB allows one hashed field", hashed, name)
			}
			hashed, f.Hashed = name, true
		default:
			return ShardKey{}, fmt.Errorf("field %q has %q: expected 1 (ranged) or hashed", name, kind)
		}
		k.Fields = append(k.Fields, f)
	}
	return k, nil
}

func checkKeyField(name string) error {
	if strings.HasPrefix(name, "$") {
		return fmt.Errorf("field %q starts with $", name)
	}
	for _, p := range strings.Split(name, ".") {
		if p == "" {
			return fmt.Errorf("field %q has an empty part", name)
		}
	}
	return nil
}

// String is the key as mongodb.shardkey spells it.
func (k ShardKey) String() string {
	if len(k.Fields) == 0 {
		return "none (not sharded)"
	}
	parts := make([]string, len(k.Fields))
	for i, f := range k.Fields {
		v := "1"
		if f.Hashed {
			v = "hashed"
		}
		parts[i] = f.Name + ":" + v
	}
	return strings.Join(parts, ",")
}

// IsZero reports whether k names no field (a collection that is not sharded).
func (k ShardKey) IsZero() bool { return len(k.Fields) == 0 }

// Hashed reports whether one of k's fields is hashed.
func (k ShardKey) Hashed() bool {
	for _, f := range k.Fields {
		if f.Hashed {
			return true
		}
	}
	return false
}

// Equal reports whether k and o are the same key, fields in the same order.
func (k ShardKey) Equal(o ShardKey) bool {
	if len(k.Fields) != len(o.Fields) {
		return false
	}
	for i := range k.Fields {
		if k.Fields[i] != o.Fields[i] {
			return false
		}
	}
	return true
}

// Doc is the key document shardCollection takes: {name: 1 | "hashed", ...}.
func (k ShardKey) Doc() bson.D {
	d := make(bson.D, len(k.Fields))
	for i, f := range k.Fields {
		if f.Hashed {
			d[i] = bson.E{Key: f.Name, Value: "hashed"}
		} else {
			d[i] = bson.E{Key: f.Name, Value: int32(1)}
		}
	}
	return d
}

// ShardKeyFromDoc reads a key document as config.collections keeps it;
// the 1 of a ranged field may be any numeric type.
func ShardKeyFromDoc(doc bson.Raw) (ShardKey, error) {
	elems, err := doc.Elements()
	if err != nil {
		return ShardKey{}, fmt.Errorf("shard key document: %w", err)
	}
	var k ShardKey
	for _, e := range elems {
		f := ShardKeyField{Name: e.Key()}
		v := e.Value()
		if s, ok := v.StringValueOK(); ok {
			if s != "hashed" {
				return ShardKey{}, fmt.Errorf("shard key field %s is %q", f.Name, s)
			}
			f.Hashed = true
		} else if n, ok := v.AsInt64OK(); !ok || n != 1 {
			if d, ok := v.DoubleOK(); !ok || d != 1 {
				return ShardKey{}, fmt.Errorf("shard key field %s is %s", f.Name, v)
			}
		}
		k.Fields = append(k.Fields, f)
	}
	return k, nil
}

// NotMongosError is returned when a shard key is asked of a server that is
// not a mongos: only a mongos can shard a collection.
type NotMongosError struct {
	// Kind says what the server is: "standalone" or "replica set member".
	Kind string
}

func (e *NotMongosError) Error() string {
	return "mongodb.shardkey needs a mongos; this is a " + e.Kind
}

// ShardKeyMismatchError is returned when the collection already exists
// with another shard key than the one asked for, or unsharded with
// documents in it.
type ShardKeyMismatchError struct {
	Namespace string
	Want      ShardKey
	Have      ShardKey // zero: the collection is not sharded
}

func (e *ShardKeyMismatchError) Error() string {
	if e.Have.IsZero() {
		return fmt.Sprintf("mongodb.shardkey=%s, but %s already holds documents and is not sharded: load it again with --drop to re-create it sharded", e.Want, e.Namespace)
	}
	return fmt.Sprintf("mongodb.shardkey=%s, but %s is already sharded on %s: load it again with --drop to re-shard it, or ask for %s", e.Want, e.Namespace, e.Have, e.Have)
}

// ShardOptions is what EnsureSharded sets up.
type ShardOptions struct {
	Key ShardKey
	// InitialChunks is numInitialChunks for a hashed key on an empty
	// collection; 0 leaves it to the server.
	InitialChunks int
}

// ShardSetup says what EnsureSharded found and did.
type ShardSetup struct {
	Namespace string
	// Version is the mongos's version, from buildInfo.
	Version string
	// AlreadySharded is true when the collection was sharded on the key
	// before; nothing was changed.
	AlreadySharded bool
	// EnabledSharding is true when enableSharding ran first (servers
	// before 6.0 need it).
	EnabledSharding bool
}

// String says what happened, for the terminal.
func (s ShardSetup) String() string {
	if s.AlreadySharded {
		return fmt.Sprintf("%s is already sharded", s.Namespace)
	}
	if s.EnabledSharding {
		return fmt.Sprintf("enabled sharding of %s and sharded %s (MongoDB %s)", s.Namespace[:strings.IndexByte(s.Namespace, '.')], s.Namespace, s.Version)
	}
	return fmt.Sprintf("sharded %s (MongoDB %s)", s.Namespace, s.Version)
}

// EnsureSharded makes table sharded on opts.Key through the mongos this
// client talks to: a collection sharded on that key is left as it is; an
// empty or missing one is sharded (after enableSharding on servers that
// need it); one sharded on another key, or unsharded and holding
// documents, is a *ShardKeyMismatchError. A server that is not a mongos
// is a *NotMongosError.
func (c *Client) EnsureSharded(ctx context.Context, table string, opts ShardOptions) (ShardSetup, error) {
	ns := c.cfg.Database + "." + table
	setup := ShardSetup{Namespace: ns}
	have, err := c.CurrentShardKey(ctx, table)
	if err != nil {
		return setup, err
	}
	switch {
	case have.Equal(opts.Key):
		setup.AlreadySharded = true
		return setup, nil
	case !have.IsZero():
		return setup, &ShardKeyMismatchError{Namespace: ns, Want: opts.Key, Have: have}
	}
	n, err := c.Count(ctx, table)
	if err != nil {
		return setup, fmt.Errorf("cannot count the documents in %s: %w", ns, err)
	}
	if n > 0 {
		return setup, &ShardKeyMismatchError{Namespace: ns, Want: opts.Key}
	}

	admin := c.client.Database("admin")
	var info struct {
		Version      string  `bson:"version"`
		VersionArray []int32 `bson:"versionArray"`
	}
	if err := c.adminCommand(ctx, admin, bson.D{{Key: "buildInfo", Value: 1}}).Decode(&info); err != nil {
		return setup, fmt.Errorf("cannot read the mongos's version (buildInfo): %w", err)
	}
	setup.Version = info.Version
	if needsEnableSharding(info.Version, info.VersionArray) {
		err := c.adminCommand(ctx, admin, bson.D{{Key: "enableSharding", Value: c.cfg.Database}}).Err()
		var cmdErr mongo.CommandError
		// Servers before 4.0 refuse to enable it twice.
		if err != nil && !(errors.As(err, &cmdErr) && cmdErr.Name == "AlreadyInitialized") {
			return setup, fmt.Errorf("cannot enable sharding of database %s: %w", c.cfg.Database, err)
		}
		setup.EnabledSharding = true
	}
	cmd := bson.D{{Key: "shardCollection", Value: ns}, {Key: "key", Value: opts.Key.Doc()}}
	if opts.InitialChunks > 0 && opts.Key.Hashed() {
		cmd = append(cmd, bson.E{Key: "numInitialChunks", Value: int32(opts.InitialChunks)})
	}
	if err := c.adminCommand(ctx, admin, cmd).Err(); err != nil {
		return setup, fmt.Errorf("cannot shard %s on %s: %w", ns, opts.Key, err)
	}
	return setup, nil
}

// CheckSharded checks, before a run, that table is sharded on key: a
// different key, or none, is a *ShardKeyMismatchError naming both.
func (c *Client) CheckSharded(ctx context.Context, table string, key ShardKey) error {
	have, err := c.CurrentShardKey(ctx, table)
	if err != nil {
		return err
	}
	if !have.Equal(key) {
		return &ShardKeyMismatchError{Namespace: c.cfg.Database + "." + table, Want: key, Have: have}
	}
	return nil
}

// CurrentShardKey returns table's shard key as config.collections has it,
// zero when it is not sharded. A server that is not a mongos is a
// *NotMongosError.
func (c *Client) CurrentShardKey(ctx context.Context, table string) (ShardKey, error) {
	if err := c.checkMongos(ctx); err != nil {
		return ShardKey{}, err
	}
	ns := c.cfg.Database + "." + table
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	var entry bson.Raw
	err := c.client.Database("config").Collection("collections").FindOne(ctx, bson.D{{Key: "_id", Value: ns}}).Decode(&entry)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return ShardKey{}, nil
	}
	if err != nil {
		return ShardKey{}, fmt.Errorf("cannot read the shard key of %s from config.collections: %w", ns, err)
	}
	// Servers before 5.0 keep a dropped collection's entry, marked.
	if dropped, ok := entry.Lookup("dropped").BooleanOK(); ok && dropped {
		return ShardKey{}, nil
	}
	keyDoc, ok := entry.Lookup("key").DocumentOK()
	if !ok {
		return ShardKey{}, fmt.Errorf("config.collections holds %s without a key", ns)
	}
	return ShardKeyFromDoc(keyDoc)
}

// checkMongos asks hello whether the server is a mongos (msg: "isdbgrid").
func (c *Client) checkMongos(ctx context.Context) error {
	var hello struct {
		Msg     string `bson:"msg"`
		SetName string `bson:"setName"`
	}
	admin := c.client.Database("admin")
	res := c.adminCommand(ctx, admin, bson.D{{Key: "hello", Value: 1}})
	if res.Err() != nil {
		// Servers before 4.4.2 know only isMaster.
		res = c.adminCommand(ctx, admin, bson.D{{Key: "isMaster", Value: 1}})
	}
	if err := res.Decode(&hello); err != nil {
		return fmt.Errorf("cannot ask the server what it is (hello): %w", err)
	}
	switch {
	case hello.Msg == "isdbgrid":
		return nil
	case hello.SetName != "":
		return &NotMongosError{Kind: "replica set member (" + hello.SetName + ")"}
	default:
		return &NotMongosError{Kind: "standalone"}
	}
}

func (c *Client) adminCommand(ctx context.Context, admin *mongo.Database, cmd bson.D) *mongo.SingleResult {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	res := admin.RunCommand(ctx, cmd)
	// Decode reads the reply later, after cancel: it is already in memory.
	return res
}

// needsEnableSharding reports whether a mongos of this version needs
// enableSharding before shardCollection: from 6.0, shardCollection
// enables it itself.
func needsEnableSharding(version string, parts []int32) bool {
	if len(parts) > 0 {
		return parts[0] < 6
	}
	major, _, _ := strings.Cut(version, ".")
	n, err := strconv.Atoi(major)
	return err != nil || n < 6
}

// shardURLDropped are the options of a mongos URL that do not carry over
// to a shard's: they name the mongos deployment or how to read from it.
var shardURLDropped = []string{
	"replicaset", "directconnection", "loadbalanced", "srvservicename", "srvmaxhosts",
	"readpreference", "readpreferencetags", "maxstalenessseconds",
}

// ShardURL is the URL of one shard, from the mongos URL uri and the shard's
// host as listShards gives it: "rs1/h1:27018,h2:27018" (a replica set,
// read at its primary) or "h1:27018". The user, password and every other
// option of uri carry over: a shard is reached with the mongos's
// credentials, so its user must exist on the shards too (a cluster-wide
// user does). A mongodb+srv:// URI becomes mongodb:// with tls=true, as
// SRV implies.
func ShardURL(uri, shardHost string) (string, error) {
	scheme, rest, ok := strings.Cut(uri, "://")
	if !ok || (scheme != "mongodb" && scheme != "mongodb+srv") {
		return "", fmt.Errorf("%s is not a mongodb:// URL", redact.URL(uri))
	}
	setName, hosts, hasSet := strings.Cut(shardHost, "/")
	if !hasSet {
		hosts, setName = setName, ""
	}
	if hosts == "" {
		return "", fmt.Errorf("listShards host %q names no server", shardHost)
	}
	authEnd := strings.IndexAny(rest, "/?")
	if authEnd < 0 {
		authEnd = len(rest)
	}
	authority, tail := rest[:authEnd], rest[authEnd:]
	userinfo := ""
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		userinfo = authority[:at+1]
	}
	path, query, _ := strings.Cut(tail, "?")
	var opts []string
	for _, kv := range strings.Split(query, "&") {
		k, _, _ := strings.Cut(kv, "=")
		if kv == "" || slices.Contains(shardURLDropped, strings.ToLower(k)) {
			continue
		}
		opts = append(opts, kv)
	}
	out := "mongodb://" + userinfo + hosts + path
	if path == "" {
		out += "/"
	}
	if scheme == "mongodb+srv" && !hasOption(uri, "tls") && !hasOption(uri, "ssl") {
		opts = append(opts, "tls=true")
	}
	if setName != "" {
		opts = append(opts, "replicaSet="+url.QueryEscape(setName), "readPreference=primary")
	} else {
		opts = append(opts, "directConnection=true")
	}
	return out + "?" + strings.Join(opts, "&"), nil
}
