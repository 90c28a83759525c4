// Package ycsbdoc is YCSB's document in BSON, as its MongoDB binding
// writes it: {_id: key, field0: <binary>, ...}. The driver's path and the
// lean wire path both encode and read it here, so that they send and
// read the same bytes.
package ycsbdoc

import (
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongobench/mongobench/internal/db"
)

// AppendFields appends each field as a binary element (subtype 0).
func AppendFields(dst []byte, values []db.Field) []byte {
	for _, f := range values {
		dst = bsoncore.AppendBinaryElement(dst, f.Name, 0, f.Value)
	}
	return dst
}

// AppendRecord appends the document {_id: key, field0: <binary>, ...}.
func AppendRecord(dst []byte, key string, values []db.Field) []byte {
	idx, b := bsoncore.AppendDocumentStart(dst)
	b = bsoncore.AppendStringElement(b, "_id", key)
	b = AppendFields(b, values)
	b, _ = bsoncore.AppendDocumentEnd(b, idx)
	return b
}

// Visit calls visit for each element of doc whose value is binary
// (YCSB's fields) or a string (_id), without allocating.
func Visit(doc []byte, visit db.FieldVisitor) {
	if len(doc) < 5 {
		return
	}
	rem := doc[4 : len(doc)-1]
	for len(rem) > 0 {
		elem, rest, ok := bsoncore.ReadElement(rem)
		if !ok {
			return
		}
		rem = rest
		v := elem.Value()
		switch v.Type {
		case bsoncore.TypeBinary:
			_, data := v.Binary()
			visit(elem.Key(), data)
		case bsoncore.TypeString:
			visit(elem.Key(), []byte(v.StringValue()))
		}
	}
}
