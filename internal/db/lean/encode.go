package lean

import (
	"encoding/binary"

	"github.com/mongobench/mongobench/internal/db/ycsbdoc"

	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/description"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"

	"github.com/mongobench/mongobench/internal/db"
)

// encode writes the whole OP_MSG of one command into w.out: the body with
// the fields the driver puts there, in the driver's order, then the
// statements as a document sequence, as the driver sends them.
func (w *worker) encode(k kind, table, key string, fields []string, values []db.Field, b *batch, op writeOp, retryWrite bool, maxTime int64) error {
	out := w.out[:0]
	out = binary.LittleEndian.AppendUint32(out, 0) // length, set below
	out = binary.LittleEndian.AppendUint32(out, uint32(wiremessage.NextRequestID()))
	out = binary.LittleEndian.AppendUint32(out, 0)
	out = binary.LittleEndian.AppendUint32(out, uint32(wiremessage.OpMsg))
	out = binary.LittleEndian.AppendUint32(out, 0) // flags
	out = append(out, byte(wiremessage.SingleDocument))

	idx, out := bsoncore.AppendDocumentStart(out)
	var seq string
	switch {
	case k == find:
		out = bsoncore.AppendStringElement(out, "find", table)
		var f int32
		f, out = bsoncore.AppendDocumentElementStart(out, "filter")
		out = bsoncore.AppendStringElement(out, "_id", key)
		out, _ = bsoncore.AppendDocumentEnd(out, f)
		out = bsoncore.AppendInt64Element(out, "limit", 1)
		if len(fields) > 0 {
			var p int32
			p, out = bsoncore.AppendDocumentElementStart(out, "projection")
			for _, name := range fields {
				out = bsoncore.AppendInt32Element(out, name, 1)
			}
			out, _ = bsoncore.AppendDocumentEnd(out, p)
		}
		out = bsoncore.AppendBooleanElement(out, "singleBatch", true)
		if w.c.rc != nil {
			out = bsoncore.AppendDocumentElement(out, "readConcern", w.c.rc)
		}
	default:
		switch op {
		case opUpdate:
			out, seq = bsoncore.AppendStringElement(out, "update", table), "updates"
		case opDelete:
			out, seq = bsoncore.AppendStringElement(out, "delete", table), "deletes"
		default:
			out, seq = bsoncore.AppendStringElement(out, "insert", table), "documents"
		}
		out = bsoncore.AppendBooleanElement(out, "ordered", op != opInsertMany)
		if w.c.wc != nil {
			out = bsoncore.AppendDocumentElement(out, "writeConcern", w.c.wc)
		}
	}
	d := w.h.desc
	if sessionsSupported(d) {
		out = bsoncore.AppendDocumentElement(out, "lsid", w.lsid)
		if retryWrite {
			out = bsoncore.AppendInt64Element(out, "txnNumber", w.txn)
		}
	}
	// The driver gossips the cluster time to every server recent enough
	// to know it, with sessions or without.
	if d.WireVersion != nil && d.WireVersion.Max >= 6 {
		if ct := w.c.cfg.Clock.GetClusterTime(); ct != nil {
			if v, err := ct.LookupErr("$clusterTime"); err == nil {
				out = bsoncore.AppendHeader(out, bsoncore.Type(v.Type), "$clusterTime")
				out = append(out, v.Value...)
			}
		}
	}
	if maxTime > 0 {
		out = bsoncore.AppendInt64Element(out, "maxTimeMS", maxTime)
	}
	out = bsoncore.AppendStringElement(out, "$db", w.c.cfg.Database)
	if k == find && w.h.single && d.Kind != description.ServerKindMongos && d.Kind != description.ServerKindStandalone {
		// A direct connection to a replica set member reads with
		// primaryPreferred, so that a secondary answers, as the driver
		// does; a standalone and a mongos get no read preference for
		// primary.
		var rp int32
		rp, out = bsoncore.AppendDocumentElementStart(out, "$readPreference")
		out = bsoncore.AppendStringElement(out, "mode", "primaryPreferred")
		out, _ = bsoncore.AppendDocumentEnd(out, rp)
	}
	out, _ = bsoncore.AppendDocumentEnd(out, idx)

	if seq != "" {
		out = append(out, byte(wiremessage.DocumentSequence))
		start := len(out)
		out = binary.LittleEndian.AppendUint32(out, 0)
		out = append(out, seq...)
		out = append(out, 0)
		switch op {
		case opUpdate:
			var s, u, set int32
			s, out = bsoncore.AppendDocumentStart(out)
			var q int32
			q, out = bsoncore.AppendDocumentElementStart(out, "q")
			out = bsoncore.AppendStringElement(out, "_id", key)
			out, _ = bsoncore.AppendDocumentEnd(out, q)
			u, out = bsoncore.AppendDocumentElementStart(out, "u")
			set, out = bsoncore.AppendDocumentElementStart(out, "$set")
			out = ycsbdoc.AppendFields(out, values)
			out, _ = bsoncore.AppendDocumentEnd(out, set)
			out, _ = bsoncore.AppendDocumentEnd(out, u)
			out, _ = bsoncore.AppendDocumentEnd(out, s)
		case opDelete:
			var s, q int32
			s, out = bsoncore.AppendDocumentStart(out)
			q, out = bsoncore.AppendDocumentElementStart(out, "q")
			out = bsoncore.AppendStringElement(out, "_id", key)
			out, _ = bsoncore.AppendDocumentEnd(out, q)
			out = bsoncore.AppendInt32Element(out, "limit", 1)
			out, _ = bsoncore.AppendDocumentEnd(out, s)
		case opInsert:
			out = ycsbdoc.AppendRecord(out, key, values)
		case opInsertMany:
			if len(b.keys) > int(max(d.MaxBatchCount, 1)) {
				return errTooLarge
			}
			for i, k := range b.keys {
				out = ycsbdoc.AppendRecord(out, k, b.values[i])
			}
		}
		binary.LittleEndian.PutUint32(out[start:], uint32(len(out)-start))
	}
	if max := d.MaxMessageSize; max > 0 && uint32(len(out)) > max {
		if op == opInsertMany {
			w.out = out
			return errTooLarge
		}
	}
	binary.LittleEndian.PutUint32(out, uint32(len(out)))
	w.out = out
	return nil
}
