package native

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
)

var dbCounter atomic.Int64

// connect gives a test a client of the embedded server and a database of
// its own.
func connect(t *testing.T) (*mongo.Client, string) {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(embeddedtest.Server().URI()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return client, fmt.Sprintf("native%d", dbCounter.Add(1))
}

// kindsFile has one operation of every kind that the embedded server
// (FerretDB 1.24) can run, over a collection of ten known documents:
// _id 0…9, k = _id, g = _id % 2, tags = [a, b].
const kindsFile = `
collections:
  items:
    documents: 10
    document:
      _id: {^number: {}}
      k: {^number: {}}
      g: {^int64: {min: 0, max: 1, dist: sequence}}
      tags: [a, b]
operations:
  - {name: insertOne, kind: insertOne, collection: items}
  - {name: insertMany, kind: insertMany, collection: items, batch: 3}
  - {name: find, kind: find, collection: items, filter: {g: 0}, sort: {k: -1}, projection: {k: 1}, limit: 3, skip: 1}
  - {name: findAll, kind: find, collection: items}
  - {name: aggregate, kind: aggregate, collection: items, pipeline: [{$match: {g: 1}}, {$group: {_id: null, n: {$sum: 1}}}]}
  - {name: updateOne, kind: updateOne, collection: items, filter: {k: 3}, update: {$set: {seen: true}}}
  - {name: updateMany, kind: updateMany, collection: items, filter: {g: 1}, update: {$inc: {hits: 1}}}
  - {name: upsert, kind: updateOne, collection: items, filter: {_id: 1000}, update: {$set: {k: 1000}}, upsert: true}
  - {name: replaceOne, kind: replaceOne, collection: items, filter: {k: 4}, document: {k: 4, replaced: true}}
  - {name: findOneAndUpdate, kind: findOneAndUpdate, collection: items, filter: {k: 5}, update: {$set: {f: 1}}, returnNew: true}
  - {name: findOneAndDelete, kind: findOneAndDelete, collection: items, filter: {k: 6}}
  - {name: findNothing, kind: findOneAndDelete, collection: items, filter: {k: -1}}
  - {name: deleteOne, kind: deleteOne, collection: items, filter: {k: 7}}
  - {name: deleteMany, kind: deleteMany, collection: items, filter: {k: {$gte: 8, $lte: 9}}}
  - {name: countDocuments, kind: countDocuments, collection: items, filter: {g: 0}}
  - {name: distinct, kind: distinct, collection: items, field: g}
  - name: bulkWrite
    kind: bulkWrite
    collection: items
    steps:
      - {kind: insertOne}
      - {kind: updateOne, filter: {k: 0}, update: {$set: {b: 1}}}
      - {kind: deleteOne, filter: {k: 1}}
  - {name: createIndex, kind: createIndex, collection: items, keys: {k: 1, g: -1}, indexName: k_g}
phases: {measure: {count: 1}}
`

// TestEveryKindOnTheServer runs each kind against the embedded server,
// one after another on the same ten documents, and checks what it did
// both in its Result and in the collection afterwards.
func TestEveryKindOnTheServer(t *testing.T) {
	t.Parallel()
	f := mustParse(t, kindsFile)
	client, dbName := connect(t)
	ctx := context.Background()
	e := NewExecutor(client, dbName, f, 1)
	items := f.Collections[0]
	coll := client.Database(dbName).Collection("items")
	for n := range int64(10) {
		doc, _ := items.Document.Append(nil, NewCtx(), n)
		if _, err := coll.InsertOne(ctx, bson.Raw(doc)); err != nil {
			t.Fatal(err)
		}
	}
	ops := map[string]*Operation{}
	for _, o := range f.Operations {
		ops[o.Name] = o
	}
	count := func(filter bson.D) int64 {
		c, err := coll.CountDocuments(ctx, filter)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// The measure phase's inserts number their documents after the
	// loaded ones.
	e.DocBase[items] = items.Documents
	steps := []struct {
		op    string
		n     int64
		docs  int64
		after func() bool // the collection shows what the operation did
	}{
		{"insertOne", 0, 1, func() bool { return count(bson.D{{Key: "_id", Value: int64(10)}}) == 1 }},
		// Operation 1 of a batch of 3: documents 10 + 1×3 + 0…2.
		{"insertMany", 1, 3, func() bool {
			return count(bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: bson.A{int64(13), int64(14), int64(15)}}}}}) == 3
		}},
		// g = 0: 0 2 4 6 8 10 14; sorted down 14 10 8 …, skip 1, limit 3.
		{"find", 0, 3, nil},
		{"findAll", 0, 14, nil},
		{"aggregate", 0, 1, nil},
		{"updateOne", 0, 1, func() bool { return count(bson.D{{Key: "seen", Value: true}}) == 1 }},
		{"updateMany", 0, 7, func() bool { return count(bson.D{{Key: "hits", Value: int32(1)}}) == 7 }},
		{"upsert", 0, 1, func() bool { return count(bson.D{{Key: "_id", Value: int32(1000)}}) == 1 }},
		{"replaceOne", 0, 1, func() bool { return count(bson.D{{Key: "replaced", Value: true}, {Key: "_id", Value: int64(4)}}) == 1 }},
		{"findOneAndUpdate", 0, 1, func() bool { return count(bson.D{{Key: "f", Value: int32(1)}}) == 1 }},
		{"findOneAndDelete", 0, 1, func() bool { return count(bson.D{{Key: "k", Value: int64(6)}}) == 0 }},
		{"findNothing", 0, 0, nil},
		{"deleteOne", 0, 1, func() bool { return count(bson.D{{Key: "k", Value: int64(7)}}) == 0 }},
		{"deleteMany", 0, 2, func() bool {
			return count(bson.D{{Key: "k", Value: bson.D{{Key: "$gte", Value: 8}, {Key: "$lte", Value: 9}}}}) == 0
		}},
		// g = 0 left: 0 2 4 (replaced: no g) … so 0 2 10 14 and the upsert has no g.
		{"countDocuments", 0, 4, nil},
		// g takes 0 and 1; the upserted and replaced documents have none.
		{"distinct", 0, 2, nil},
		// Operation 5 of three steps: the insert is document 10 + 5×3 + 0.
		{"bulkWrite", 5, 3, func() bool {
			return count(bson.D{{Key: "_id", Value: int64(25)}}) == 1 && count(bson.D{{Key: "b", Value: int32(1)}}) == 1 && count(bson.D{{Key: "k", Value: int64(1)}}) == 0
		}},
		{"createIndex", 0, 0, func() bool {
			specs, err := coll.Indexes().ListSpecifications(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range specs {
				if s.Name == "k_g" {
					return true
				}
			}
			return false
		}},
	}
	for _, s := range steps {
		res, err := e.Do(ctx, ops[s.op], s.n)
		if err != nil {
			t.Fatalf("%s: %v", s.op, err)
		}
		if res.Documents != s.docs {
			t.Errorf("%s: %d documents, want %d", s.op, res.Documents, s.docs)
		}
		if s.after != nil && !s.after() {
			t.Errorf("%s: the collection does not show its effect", s.op)
		}
	}
}

// TestServerErrorReturned: an operation the server refuses returns its
// error, not a Result that hides it.
func TestServerErrorReturned(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  c: {documents: 1, document: {_id: 1}}
operations: [{name: i, kind: insertOne, collection: c}]
phases: {load: {count: 1}}
`)
	client, dbName := connect(t)
	e := NewExecutor(client, dbName, f, 1)
	if _, err := e.Do(context.Background(), f.Operations[0], 0); err != nil {
		t.Fatal(err)
	}
	res, err := e.Do(context.Background(), f.Operations[0], 1)
	if !mongo.IsDuplicateKeyError(err) || res.Documents != 0 {
		t.Fatalf("second insert of _id 1: %v, %d documents; want a duplicate key error", err, res.Documents)
	}
}
