// Package mongo is the MongoDB binding, on the official Go driver. It builds
// YCSB's documents ({_id: key, field0: <binary>, ...}) as raw BSON in
// per-worker buffers, so the only per-operation cost above the driver's own
// is appending bytes.
package mongo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mongobench/mongobench/internal/db/ycsbdoc"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/db/lean"
)

// Config is the binding's resolved configuration.
type Config struct {
	URL            string        // connection string, deprecated options already applied
	Database       string        // from the URL path
	Upsert         bool          // mongodb.upsert: inserts replace with upsert
	Threads        int           // pool size is at least this unless the URL sets maxPoolSize
	ConnectTimeout time.Duration // mongodb.connecttimeout
	OpTimeout      time.Duration // per-operation deadline, unless the URL sets timeoutMS
	// Path is the wire path of the hot operations: PathDriver (the
	// default) or PathLean (internal/db/lean, over the driver's topology).
	Path string
}

// The wire paths (mongodb.path).
const (
	PathDriver = "driver"
	PathLean   = "lean"
)

// Client is the shared connection pool. Workers get their own DB from NewDB.
type Client struct {
	cfg    Config
	client *mongo.Client
	db     *mongo.Database
	// opTimeout bounds each operation; 0 when the URL's timeoutMS does.
	opTimeout time.Duration
	// lean is the lean path when Config.Path is PathLean.
	lean *lean.Client
	// colls holds one *mongo.Collection per table for all workers: a
	// Collection is safe for concurrent use, and at 1,000 workers one each
	// would take half a MiB.
	colls sync.Map
}

var (
	_ db.DB            = (*worker)(nil)
	_ db.BatchInserter = (*worker)(nil)
)

// Path returns the wire path of the hot operations, and what goes to the
// driver's path instead and why (nil on the driver path).
func (c *Client) Path() (string, []string) {
	if c.lean == nil {
		return PathDriver, nil
	}
	return PathLean, c.lean.Fallbacks()
}

// Close ends the lean path's sessions and disconnects.
func (c *Client) Close(ctx context.Context) error {
	if c.lean != nil {
		_ = c.lean.Close(ctx, func(ctx context.Context, cmd bsoncore.Document) error {
			return c.client.Database("admin").RunCommand(ctx, bson.Raw(cmd)).Err()
		})
	}
	return c.client.Disconnect(ctx)
}

// Driver returns the underlying driver client, for metrics and admin
// commands that are not part of the benchmark.
func (c *Client) Driver() *mongo.Client { return c.client }

// Database returns the benchmark database.
func (c *Client) Database() *mongo.Database { return c.db }

// opContext bounds one operation by the per-operation timeout.
func (c *Client) opContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.opTimeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, c.opTimeout)
}

// KeyExists reports whether a document with _id key is in table.
func (c *Client) KeyExists(ctx context.Context, table, key string) (bool, error) {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	err := c.db.Collection(table).FindOne(ctx, bson.D{{Key: "_id", Value: key}}, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 1}})).Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	return err == nil, err
}

// Count returns the number of documents in table from the collection's
// metadata: a count of every document would scan a large collection.
func (c *Client) Count(ctx context.Context, table string) (int64, error) {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	return c.db.Collection(table).EstimatedDocumentCount(ctx)
}

// Drop drops table.
func (c *Client) Drop(ctx context.Context, table string) error {
	ctx, cancel := c.opContext(ctx)
	defer cancel()
	return c.db.Collection(table).Drop(ctx)
}

// collection returns the shared handle of table.
func (c *Client) collection(table string) *mongo.Collection {
	if v, ok := c.colls.Load(table); ok {
		return v.(*mongo.Collection)
	}
	v, _ := c.colls.LoadOrStore(table, c.db.Collection(table))
	return v.(*mongo.Collection)
}

// NewDB returns a worker's binding: its own buffers over the shared pool.
func (c *Client) NewDB() db.DB {
	w := &worker{c: c}
	w.findAll = options.FindOne()
	w.upsert = options.Replace().SetUpsert(true)
	w.insertManyOpts = options.InsertMany().SetOrdered(false)
	if c.lean != nil {
		return c.lean.NewDB(w)
	}
	return w
}

// worker is one worker's binding. Its buffers are reused by every call;
// the driver copies what it sends, so nothing outlives a call.
type worker struct {
	c      *Client
	filter []byte
	doc    []byte
	update []byte
	docs   []any
	bufs   [][]byte

	// table and collection cache the last table used, nearly always the
	// only one, so that an operation does not look it up in c.colls.
	table      string
	collection *mongo.Collection

	findAll        *options.FindOneOptionsBuilder
	findOne        map[string]*options.FindOneOptionsBuilder // one-field projections, built once per field
	upsert         *options.ReplaceOptionsBuilder
	insertManyOpts *options.InsertManyOptionsBuilder
}

func (w *worker) coll(table string) *mongo.Collection {
	if w.collection == nil || table != w.table {
		w.table, w.collection = table, w.c.collection(table)
	}
	return w.collection
}

func (w *worker) idFilter(key string) bson.Raw {
	idx, b := bsoncore.AppendDocumentStart(w.filter[:0])
	b = bsoncore.AppendStringElement(b, "_id", key)
	b, _ = bsoncore.AppendDocumentEnd(b, idx)
	w.filter = b
	return bson.Raw(b)
}

func appendProjection(dst []byte, fields []string) []byte {
	idx, b := bsoncore.AppendDocumentStart(dst)
	for _, f := range fields {
		b = bsoncore.AppendInt32Element(b, f, 1)
	}
	b, _ = bsoncore.AppendDocumentEnd(b, idx)
	return b
}

func (w *worker) findOptions(fields []string) *options.FindOneOptionsBuilder {
	switch len(fields) {
	case 0:
		return w.findAll
	case 1:
		o, ok := w.findOne[fields[0]]
		if !ok {
			o = options.FindOne().SetProjection(bson.Raw(appendProjection(nil, fields)))
			if w.findOne == nil {
				w.findOne = map[string]*options.FindOneOptionsBuilder{}
			}
			w.findOne[fields[0]] = o
		}
		return o
	}
	return options.FindOne().SetProjection(bson.Raw(appendProjection(nil, fields)))
}

// Read is findOne({_id: key}) with a projection of the requested fields.
func (w *worker) Read(ctx context.Context, table, key string, fields []string, visit db.FieldVisitor) error {
	ctx, cancel := w.c.opContext(ctx)
	defer cancel()
	res := w.coll(table).FindOne(ctx, w.idFilter(key), w.findOptions(fields))
	raw, err := res.Raw()
	if err != nil {
		return classify(err)
	}
	if visit != nil {
		ycsbdoc.Visit(raw, visit)
	}
	return nil
}

// Scan is find({_id: {$gte: startKey}}).sort({_id: 1}).limit(count). An
// empty result is NOT_FOUND, like a read of a missing key: YCSB's binding
// calls it ERROR, but the server did not fail, and an outage should not
// hide among scans that started past the last key. Both count as failed.
// The per-operation timeout covers the whole scan, find and getMores.
func (w *worker) Scan(ctx context.Context, table, startKey string, count int, fields []string, visit db.FieldVisitor) error {
	ctx, cancel := w.c.opContext(ctx)
	defer cancel()
	idx, b := bsoncore.AppendDocumentStart(w.filter[:0])
	var inner int32
	inner, b = bsoncore.AppendDocumentElementStart(b, "_id")
	b = bsoncore.AppendStringElement(b, "$gte", startKey)
	b, _ = bsoncore.AppendDocumentEnd(b, inner)
	b, _ = bsoncore.AppendDocumentEnd(b, idx)
	w.filter = b
	opts := options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}).SetLimit(int64(count)).SetBatchSize(int32(min(count, 1<<20)))
	if len(fields) > 0 {
		opts.SetProjection(bson.Raw(appendProjection(nil, fields)))
	}
	cur, err := w.coll(table).Find(ctx, bson.Raw(b), opts)
	if err != nil {
		return classify(err)
	}
	defer cur.Close(context.WithoutCancel(ctx))
	n := 0
	for cur.Next(ctx) {
		n++
		if visit != nil {
			ycsbdoc.Visit(cur.Current, visit)
		}
	}
	if err := cur.Err(); err != nil {
		return classify(err)
	}
	if n == 0 {
		return fmt.Errorf("scan from %s found nothing: %w", startKey, db.ErrNotFound)
	}
	return nil
}

// Update is updateOne({_id: key}, {$set: values}); no match is NOT_FOUND.
func (w *worker) Update(ctx context.Context, table, key string, values []db.Field) error {
	ctx, cancel := w.c.opContext(ctx)
	defer cancel()
	idx, b := bsoncore.AppendDocumentStart(w.update[:0])
	var set int32
	set, b = bsoncore.AppendDocumentElementStart(b, "$set")
	b = ycsbdoc.AppendFields(b, values)
	b, _ = bsoncore.AppendDocumentEnd(b, set)
	b, _ = bsoncore.AppendDocumentEnd(b, idx)
	w.update = b
	res, err := w.coll(table).UpdateOne(ctx, w.idFilter(key), bson.Raw(b))
	if err != nil {
		return classify(err)
	}
	if res.Acknowledged && res.MatchedCount == 0 {
		return db.ErrNotFound
	}
	return nil
}

// Insert is insertOne, or replaceOne with upsert when mongodb.upsert=true.
func (w *worker) Insert(ctx context.Context, table, key string, values []db.Field) error {
	ctx, cancel := w.c.opContext(ctx)
	defer cancel()
	w.doc = ycsbdoc.AppendRecord(w.doc[:0], key, values)
	var err error
	if w.c.cfg.Upsert {
		_, err = w.coll(table).ReplaceOne(ctx, w.idFilter(key), bson.Raw(w.doc), w.upsert)
	} else {
		_, err = w.coll(table).InsertOne(ctx, bson.Raw(w.doc))
	}
	return classify(err)
}

// InsertBatch is an unordered insertMany (YCSB's binding is unordered too,
// so one duplicate does not stop the rest), or a bulk of upserts.
func (w *worker) InsertBatch(ctx context.Context, table string, keys []string, values [][]db.Field) error {
	ctx, cancel := w.c.opContext(ctx)
	defer cancel()
	for len(w.bufs) < len(keys) {
		w.bufs = append(w.bufs, nil)
	}
	w.docs = w.docs[:0]
	for i, key := range keys {
		w.bufs[i] = ycsbdoc.AppendRecord(w.bufs[i][:0], key, values[i])
		w.docs = append(w.docs, bson.Raw(w.bufs[i]))
	}
	var err error
	if w.c.cfg.Upsert {
		models := make([]mongo.WriteModel, len(keys))
		for i, key := range keys {
			models[i] = mongo.NewReplaceOneModel().SetFilter(bson.D{{Key: "_id", Value: key}}).SetReplacement(w.docs[i]).SetUpsert(true)
		}
		_, err = w.coll(table).BulkWrite(ctx, models, options.BulkWrite().SetOrdered(false))
	} else {
		_, err = w.coll(table).InsertMany(ctx, w.docs, w.insertManyOpts)
	}
	if err == nil {
		return nil
	}
	var bwe mongo.BulkWriteException
	if errors.As(err, &bwe) && bwe.WriteConcernError == nil && len(bwe.WriteErrors) > 0 {
		failed := make([]int, 0, len(bwe.WriteErrors))
		for _, we := range bwe.WriteErrors {
			failed = append(failed, we.Index)
		}
		slices.Sort(failed)
		return &db.BatchError{Failed: failed, Err: classify(err)}
	}
	return classify(err)
}

// Delete is deleteOne({_id: key}); no match is NOT_FOUND.
func (w *worker) Delete(ctx context.Context, table, key string) error {
	ctx, cancel := w.c.opContext(ctx)
	defer cancel()
	res, err := w.coll(table).DeleteOne(ctx, w.idFilter(key))
	if err != nil {
		return classify(err)
	}
	if res.Acknowledged && res.DeletedCount == 0 {
		return db.ErrNotFound
	}
	return nil
}

// Close releases nothing: the pool is shared and closed by Client.Close.
func (w *worker) Close() error { return nil }

// classify maps driver errors onto db's sentinels.
func classify(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, mongo.ErrNoDocuments):
		return db.ErrNotFound
	case mongo.IsDuplicateKeyError(err):
		return fmt.Errorf("%w: %w", db.ErrDuplicateKey, err)
	case errors.Is(err, context.Canceled):
		return err
	case mongo.IsTimeout(err):
		return fmt.Errorf("%w: %w", db.ErrTimeout, err)
	}
	return err
}
