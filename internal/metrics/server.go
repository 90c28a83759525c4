package metrics

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// serverStatusCommand leaves out the sections mongobench does not read and
// that are the largest on a busy mongod; MongoDB documents exactly this form
// (db.serverStatus({repl: 0, metrics: 0, locks: 0})). wiredTiger cannot be
// narrowed to its cache section.
var serverStatusCommand = bson.D{
	{Key: "serverStatus", Value: 1},
	{Key: "repl", Value: 0},
	{Key: "metrics", Value: 0},
	{Key: "locks", Value: 0},
}

// ServerInfo identifies the server process. A Sampler puts it into the
// first snapshot and again whenever it changes, not into every one.
type ServerInfo struct {
	Version string `json:"version,omitempty"`
	// Process is "mongod" or "mongos" (FerretDB reports its executable).
	Process string `json:"process,omitempty"`
	// StorageEngine is storageEngine.name; empty when not reported.
	StorageEngine string `json:"storage_engine,omitempty"`
	// FerretDBVersion is set by FerretDB only.
	FerretDBVersion string `json:"ferretdb_version,omitempty"`
}

// ServerSample is one serverStatus reading: raw counters and gauges as the
// server reported them. Every field the server did not report is absent.
type ServerSample struct {
	// Error is why this sample has no figures (timeout, no permission);
	// empty on success.
	Error string `json:"error,omitempty"`
	// Info is set on the first sample and when the server changes.
	Info *ServerInfo `json:"info,omitempty"`
	// Host and PID identify the process, so that counters from two
	// different processes (a restart, another mongos) are never subtracted.
	Host string `json:"host,omitempty"`
	PID  Value  `json:"pid,omitzero"`
	// UptimeSec is uptime, in seconds.
	UptimeSec Value `json:"uptime_s,omitzero"`

	Opcounters  Opcounters       `json:"opcounters,omitzero"`
	Connections Connections      `json:"connections,omitzero"`
	Network     NetworkCounters  `json:"network,omitzero"`
	OpLatencies *OpLatencies     `json:"op_latencies,omitempty"`
	GlobalLock  GlobalLock       `json:"global_lock,omitzero"`
	Cache       *WiredTigerCache `json:"wiredtiger_cache,omitempty"`

	// Replication is replSetGetStatus's members, states and lag, read
	// beside serverStatus when the server is a replica set member.
	Replication *ReplicaSetStatus `json:"replication,omitempty"`

	// Shards are the serverStatus of each shard's primary, sampled beside
	// a mongos's own when the shards are reachable.
	Shards []ShardSample `json:"shards,omitempty"`
}

// ShardSample is one shard primary's serverStatus.
type ShardSample struct {
	Name   string        `json:"name"`
	Server *ServerSample `json:"server"`
}

// Opcounters are serverStatus.opcounters, operations since start-up.
type Opcounters struct {
	Insert  Value `json:"insert,omitzero"`
	Query   Value `json:"query,omitzero"`
	Update  Value `json:"update,omitzero"`
	Delete  Value `json:"delete,omitzero"`
	Getmore Value `json:"getmore,omitzero"`
	Command Value `json:"command,omitzero"`
}

// Connections are serverStatus.connections gauges.
type Connections struct {
	Current   Value `json:"current,omitzero"`
	Available Value `json:"available,omitzero"`
}

// NetworkCounters are serverStatus.network counters since start-up.
type NetworkCounters struct {
	BytesIn     Value `json:"bytes_in,omitzero"`
	BytesOut    Value `json:"bytes_out,omitzero"`
	NumRequests Value `json:"num_requests,omitzero"`
}

// LatencyCounter is one class of serverStatus.opLatencies: total latency in
// µs and operation count, both since start-up.
type LatencyCounter struct {
	LatencyMicros Value `json:"latency_us,omitzero"`
	Ops           Value `json:"ops,omitzero"`
}

// OpLatencies is serverStatus.opLatencies; nil when the server has none.
type OpLatencies struct {
	Reads    LatencyCounter `json:"reads,omitzero"`
	Writes   LatencyCounter `json:"writes,omitzero"`
	Commands LatencyCounter `json:"commands,omitzero"`
}

// GlobalLock holds the queue and active-client gauges of
// serverStatus.globalLock.
type GlobalLock struct {
	QueueReaders  Value `json:"queue_readers,omitzero"`
	QueueWriters  Value `json:"queue_writers,omitzero"`
	ActiveReaders Value `json:"active_readers,omitzero"`
	ActiveWriters Value `json:"active_writers,omitzero"`
}

// WiredTigerCache is the part of serverStatus.wiredTiger.cache that tells
// whether the working set fits in the cache; nil when the server has no
// WiredTiger (mongos, FerretDB, in-memory engines of other vendors).
type WiredTigerCache struct {
	BytesInCache     Value `json:"bytes_in_cache,omitzero"`
	MaxBytes         Value `json:"max_bytes,omitzero"`
	BytesReadInto    Value `json:"bytes_read_into,omitzero"`
	BytesWrittenFrom Value `json:"bytes_written_from,omitzero"`
	PagesReadInto    Value `json:"pages_read_into,omitzero"`
	PagesRequested   Value `json:"pages_requested,omitzero"`
	// AppPageReads and AppPageReadMicros count the pages that application
	// threads had to read from disk themselves, and the time they waited.
	AppPageReads      Value `json:"app_page_reads,omitzero"`
	AppPageReadMicros Value `json:"app_page_read_us,omitzero"`
}

// The WiredTiger statistics' names, as serverStatus spells them.
const (
	wtBytesInCache      = "bytes currently in the cache"
	wtMaxBytes          = "maximum bytes configured"
	wtBytesReadInto     = "bytes read into cache"
	wtBytesWrittenFrom  = "bytes written from cache"
	wtPagesReadInto     = "pages read into cache"
	wtPagesRequested    = "pages requested from the cache"
	wtAppPageReads      = "application threads page read from disk to cache count"
	wtAppPageReadMicros = "application threads page read from disk to cache time (usecs)"
)

// num looks up a number at path; anything else (missing, a string, a
// malformed document) is absent.
func num(doc bson.Raw, path ...string) Value {
	rv, err := doc.LookupErr(path...)
	if err != nil {
		return Value{}
	}

	f, ok := rv.AsFloat64OK()
	if !ok {
		return Value{}
	}

	return Known(f)
}

// str looks up a string at path; "" when missing or not a string.
func str(doc bson.Raw, path ...string) string {
	rv, err := doc.LookupErr(path...)
	if err != nil {
		return ""
	}

	s, _ := rv.StringValueOK()

	return s
}

// has reports whether path leads to an embedded document.
func has(doc bson.Raw, path ...string) bool {
	rv, err := doc.LookupErr(path...)
	if err != nil {
		return false
	}

	_, ok := rv.DocumentOK()

	return ok
}

// parseServerStatus reads the figures of a serverStatus reply: what is
// missing or of an unexpected type is absent. It fails only on a malformed
// document.
func parseServerStatus(doc bson.Raw) (ServerSample, ServerInfo, error) {
	if err := validate(doc); err != nil {
		return ServerSample{}, ServerInfo{}, fmt.Errorf("metrics: malformed serverStatus reply: %w", err)
	}

	s := ServerSample{
		Host:      str(doc, "host"),
		PID:       num(doc, "pid"),
		UptimeSec: num(doc, "uptime"),
		Opcounters: Opcounters{
			Insert:  num(doc, "opcounters", "insert"),
			Query:   num(doc, "opcounters", "query"),
			Update:  num(doc, "opcounters", "update"),
			Delete:  num(doc, "opcounters", "delete"),
			Getmore: num(doc, "opcounters", "getmore"),
			Command: num(doc, "opcounters", "command"),
		},
		Connections: Connections{
			Current:   num(doc, "connections", "current"),
			Available: num(doc, "connections", "available"),
		},
		Network: NetworkCounters{
			BytesIn:     num(doc, "network", "bytesIn"),
			BytesOut:    num(doc, "network", "bytesOut"),
			NumRequests: num(doc, "network", "numRequests"),
		},
		GlobalLock: GlobalLock{
			QueueReaders:  num(doc, "globalLock", "currentQueue", "readers"),
			QueueWriters:  num(doc, "globalLock", "currentQueue", "writers"),
			ActiveReaders: num(doc, "globalLock", "activeClients", "readers"),
			ActiveWriters: num(doc, "globalLock", "activeClients", "writers"),
		},
	}

	if has(doc, "opLatencies") {
		lat := func(class string) LatencyCounter {
			return LatencyCounter{
				LatencyMicros: num(doc, "opLatencies", class, "latency"),
				Ops:           num(doc, "opLatencies", class, "ops"),
			}
		}
		s.OpLatencies = &OpLatencies{Reads: lat("reads"), Writes: lat("writes"), Commands: lat("commands")}
	}

	if has(doc, "wiredTiger", "cache") {
		wt := func(name string) Value { return num(doc, "wiredTiger", "cache", name) }
		s.Cache = &WiredTigerCache{
			BytesInCache:      wt(wtBytesInCache),
			MaxBytes:          wt(wtMaxBytes),
			BytesReadInto:     wt(wtBytesReadInto),
			BytesWrittenFrom:  wt(wtBytesWrittenFrom),
			PagesReadInto:     wt(wtPagesReadInto),
			PagesRequested:    wt(wtPagesRequested),
			AppPageReads:      wt(wtAppPageReads),
			AppPageReadMicros: wt(wtAppPageReadMicros),
		}
	}

	info := ServerInfo{
		Version:         str(doc, "version"),
		Process:         str(doc, "process"),
		StorageEngine:   str(doc, "storageEngine", "name"),
		FerretDBVersion: str(doc, "ferretdbVersion"),
	}

	return s, info, nil
}

// runCommand runs a command and checks that the reply is well-formed, so
// that the lookups of the parsers cannot panic on it.
func runCommand(ctx context.Context, db *mongo.Database, cmd bson.D) (bson.Raw, error) {
	raw, err := db.RunCommand(ctx, cmd).Raw()
	if err != nil {
		return nil, err
	}

	if err := validate(raw); err != nil {
		return nil, fmt.Errorf("malformed reply: %w", err)
	}

	return raw, nil
}

// validate checks a document and every document and array inside it. The
// driver's lookups panic on a malformed nested document rather than report
// it, and its own Validate does not look inside nested documents.
func validate(doc bson.Raw) error {
	return validateDepth(doc, 0)
}

// maxDepth is well past the nesting MongoDB allows (100 levels).
const maxDepth = 200

func validateDepth(doc bson.Raw, depth int) error {
	if depth > maxDepth {
		return errors.New("documents nested too deep")
	}

	if err := doc.Validate(); err != nil {
		return err
	}

	elems, err := doc.Elements()
	if err != nil {
		return err
	}

	for _, e := range elems {
		v, err := e.ValueErr()
		if err != nil {
			return err
		}

		var inner bson.Raw

		switch v.Type {
		case bson.TypeEmbeddedDocument:
			d, ok := v.DocumentOK()
			if !ok {
				return fmt.Errorf("field %q: malformed document", e.Key())
			}

			inner = d
		case bson.TypeArray:
			a, ok := v.ArrayOK()
			if !ok {
				return fmt.Errorf("field %q: malformed array", e.Key())
			}

			inner = bson.Raw(a)
		default:
			continue
		}

		if err := validateDepth(inner, depth+1); err != nil {
			return fmt.Errorf("field %q: %w", e.Key(), err)
		}
	}

	return nil
}

// serverStatus runs serverStatus and parses it.
func serverStatus(ctx context.Context, client *mongo.Client) (ServerSample, ServerInfo, error) {
	raw, err := client.Database("admin").RunCommand(ctx, serverStatusCommand).Raw()
	if err != nil {
		return ServerSample{}, ServerInfo{}, fmt.Errorf("metrics: serverStatus: %w", err)
	}

	return parseServerStatus(raw)
}

// sameProcess reports whether two samples come from one process that has
// kept running between them, so that their counters can be subtracted.
// Identity that either sample lacks is not held against them.
func sameProcess(prev, cur *ServerSample) bool {
	if prev.Host != "" && cur.Host != "" && prev.Host != cur.Host {
		return false
	}

	if prev.PID.OK && cur.PID.OK && prev.PID.V != cur.PID.V {
		return false
	}

	if prev.UptimeSec.OK && cur.UptimeSec.OK && cur.UptimeSec.V < prev.UptimeSec.V {
		return false
	}

	return true
}
