package native

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// Result is what one operation did, beyond its error.
type Result struct {
	// Documents counts the documents the operation returned (find,
	// aggregate: the cursor drained; distinct: the values; countDocuments:
	// the count) or affected (inserted, matched for update, deleted).
	Documents int64
	// Retries counts a transaction's attempts after its first, on
	// TransientTransactionError; CommitRetries its commits tried again on
	// UnknownTransactionCommitResult.
	Retries, CommitRetries int
}

// Executor runs a workload's operations for one worker through the
// official driver. It keeps its buffers from one operation to the next, so
// it belongs to one goroutine.
type Executor struct {
	client *mongo.Client
	colls  map[*Collection]*mongo.Collection
	c      *Ctx
	// arena holds the operation's encoded templates; reset per operation.
	arena []byte
	docs  []any
	// DocBase is the first document number of this phase's inserts, per
	// collection: 0 in the load, the collection's documents in the
	// measure phase, so that a run's inserts add documents after the
	// loaded ones instead of colliding with them.
	DocBase map[*Collection]int64

	jitter *rand.Rand
	// sleep waits between a transaction's attempts; tests replace it.
	sleep func(context.Context, time.Duration) error
	// Now and OnRetry, when set, time each attempt of a transaction (or
	// commit) that is tried again, and say what it failed with: the
	// phase records them as parts of the operation.
	Now     func() int64
	OnRetry func(op *Operation, err error, startNs, endNs int64)
}

// retried tells OnRetry of an attempt that began at start and is tried
// again after err.
func (e *Executor) retried(op *Operation, err error, start int64) {
	if e.OnRetry != nil && e.Now != nil {
		e.OnRetry(op, err, start, e.Now())
	}
}

func (e *Executor) now() int64 {
	if e.Now == nil {
		return 0
	}
	return e.Now()
}

// NewExecutor returns an executor of f's operations against database db
// of client. seed makes the transactions' backoff jitter reproducible.
func NewExecutor(client *mongo.Client, database string, f *File, seed uint64) *Executor {
	d := client.Database(database)
	e := &Executor{
		client:  client,
		colls:   map[*Collection]*mongo.Collection{},
		c:       NewCtx(),
		DocBase: map[*Collection]int64{},
		jitter:  rand.New(rand.NewPCG(seed, 0x7a3)),
		sleep:   sleepCtx,
	}
	for _, c := range f.Collections {
		e.colls[c] = d.Collection(c.Name)
	}
	return e
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// rawValue hands the driver an encoded value of any BSON type (an update
// pipeline is an array, which bson.Raw cannot say).
type rawValue struct {
	t byte
	b []byte
}

func (v rawValue) MarshalBSONValue() (byte, []byte, error) { return v.t, v.b, nil }

// encode appends t's value for number n to the arena and returns it.
func (e *Executor) encode(t *Template, n int64) rawValue {
	start := len(e.arena)
	var ty byte
	e.arena, ty = t.Append(e.arena, e.c, n)
	return rawValue{t: ty, b: e.arena[start:len(e.arena):len(e.arena)]}
}

func (e *Executor) doc(t *Template, n int64) bson.Raw {
	return bson.Raw(e.encode(t, n).b)
}

// Do runs operation number n of op.
func (e *Executor) Do(ctx context.Context, op *Operation, n int64) (Result, error) {
	e.arena = e.arena[:0]
	e.c.BeginOperation(op, n)
	if op.Kind == Transaction {
		return e.transaction(ctx, op, n)
	}
	return e.run(ctx, op, n, n, 1, 0)
}

// run runs op (or a step) with template number n; documents it inserts
// are numbered from its base by slot: scale slots per operation number,
// this step's slot among them.
func (e *Executor) run(ctx context.Context, op *Operation, n, docN int64, scale, slot int64) (Result, error) {
	coll := e.colls[op.Collection]
	var res Result
	switch op.Kind {
	case InsertOne:
		_, err := coll.InsertOne(ctx, e.doc(op.Document, e.DocBase[op.Collection]+docN*scale+slot))
		if err == nil {
			res.Documents = 1
		}
		return res, err
	case InsertMany:
		e.docs = e.docs[:0]
		base := e.DocBase[op.Collection] + (docN*scale+slot)*int64(op.Batch)
		for i := range int64(op.Batch) {
			e.docs = append(e.docs, e.doc(op.Document, base+i))
		}
		r, err := coll.InsertMany(ctx, e.docs, options.InsertMany().SetOrdered(op.Ordered))
		if r != nil {
			res.Documents = int64(len(r.InsertedIDs))
		}
		return res, err
	case Find:
		o := options.Find()
		if op.Projection != nil {
			o.SetProjection(e.doc(op.Projection, n))
		}
		if op.Sort != nil {
			o.SetSort(e.doc(op.Sort, n))
		}
		if op.Hint != nil {
			o.SetHint(e.encode(op.Hint, n))
		}
		if op.Limit > 0 {
			o.SetLimit(op.Limit)
		}
		if op.Skip > 0 {
			o.SetSkip(op.Skip)
		}
		cur, err := coll.Find(ctx, e.filter(op, n), o)
		if err != nil {
			return res, err
		}
		return drain(ctx, cur)
	case Aggregate:
		cur, err := coll.Aggregate(ctx, bsoncore.Array(e.encode(op.Pipeline, n).b))
		if err != nil {
			return res, err
		}
		return drain(ctx, cur)
	case UpdateOne, UpdateMany:
		update := e.encode(op.Update, n)
		o := options.UpdateOne().SetUpsert(op.Upsert)
		var r *mongo.UpdateResult
		var err error
		if op.Kind == UpdateOne {
			r, err = coll.UpdateOne(ctx, e.filter(op, n), update, o)
		} else {
			r, err = coll.UpdateMany(ctx, e.filter(op, n), update, options.UpdateMany().SetUpsert(op.Upsert))
		}
		if r != nil {
			res.Documents = r.MatchedCount + r.UpsertedCount
		}
		return res, err
	case ReplaceOne:
		doc := e.doc(op.Document, e.DocBase[op.Collection]+docN*scale+slot)
		r, err := coll.ReplaceOne(ctx, e.filter(op, n), withoutID(doc), options.Replace().SetUpsert(op.Upsert))
		if r != nil {
			res.Documents = r.MatchedCount + r.UpsertedCount
		}
		return res, err
	case FindOneAndUpdate:
		o := options.FindOneAndUpdate().SetUpsert(op.Upsert)
		if op.ReturnNew {
			o.SetReturnDocument(options.After)
		}
		if op.Sort != nil {
			o.SetSort(e.doc(op.Sort, n))
		}
		if op.Projection != nil {
			o.SetProjection(e.doc(op.Projection, n))
		}
		return single(coll.FindOneAndUpdate(ctx, e.filter(op, n), e.encode(op.Update, n), o))
	case FindOneAndDelete:
		o := options.FindOneAndDelete()
		if op.Sort != nil {
			o.SetSort(e.doc(op.Sort, n))
		}
		if op.Projection != nil {
			o.SetProjection(e.doc(op.Projection, n))
		}
		return single(coll.FindOneAndDelete(ctx, e.filter(op, n), o))
	case DeleteOne, DeleteMany:
		var r *mongo.DeleteResult
		var err error
		if op.Kind == DeleteOne {
			r, err = coll.DeleteOne(ctx, e.filter(op, n))
		} else {
			r, err = coll.DeleteMany(ctx, e.filter(op, n))
		}
		if r != nil {
			res.Documents = r.DeletedCount
		}
		return res, err
	case CountDocuments:
		o := options.Count()
		if op.Limit > 0 {
			o.SetLimit(op.Limit)
		}
		if op.Skip > 0 {
			o.SetSkip(op.Skip)
		}
		count, err := coll.CountDocuments(ctx, e.filter(op, n), o)
		res.Documents = count
		return res, err
	case Distinct:
		r := coll.Distinct(ctx, op.Field, e.filter(op, n))
		arr, err := r.Raw()
		if err != nil {
			return res, err
		}
		vals, err := arr.Values()
		res.Documents = int64(len(vals))
		return res, err
	case BulkWrite:
		return e.bulk(ctx, coll, op, n, docN)
	case CreateIndex:
		m := mongo.IndexModel{Keys: e.doc(op.Keys, n), Options: options.Index().SetUnique(op.Unique)}
		if op.IndexName != "" {
			m.Options.SetName(op.IndexName)
		}
		_, err := coll.Indexes().CreateOne(ctx, m)
		return res, err
	}
	return res, fmt.Errorf("operation %s: kind %s cannot run here", op.Name, op.Kind)
}

// filter is op's filter for number n, or the empty document.
func (e *Executor) filter(op *Operation, n int64) bson.Raw {
	if op.Filter == nil {
		return emptyDoc
	}
	return e.doc(op.Filter, n)
}

var emptyDoc = bson.Raw{5, 0, 0, 0, 0}

// withoutID drops a replacement's _id: a replacement may not change it, and
// the template that inserted the document generates one.
func withoutID(doc bson.Raw) bson.Raw {
	if _, err := doc.LookupErr("_id"); err != nil {
		return doc
	}
	elems, err := doc.Elements()
	if err != nil {
		return doc
	}
	out := bson.D{}
	for _, el := range elems {
		if el.Key() != "_id" {
			out = append(out, bson.E{Key: el.Key(), Value: el.Value()})
		}
	}
	b, err := bson.Marshal(out)
	if err != nil {
		return doc
	}
	return b
}

func drain(ctx context.Context, cur *mongo.Cursor) (Result, error) {
	var res Result
	for cur.Next(ctx) {
		res.Documents++
	}
	err := cur.Err()
	if cerr := cur.Close(context.WithoutCancel(ctx)); err == nil {
		err = cerr
	}
	return res, err
}

// single counts the document a findOneAnd… returned; none is not an
// error, it is 0 documents.
func single(r *mongo.SingleResult) (Result, error) {
	err := r.Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return Result{}, nil
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Documents: 1}, nil
}

func (e *Executor) bulk(ctx context.Context, coll *mongo.Collection, op *Operation, n, docN int64) (Result, error) {
	models := make([]mongo.WriteModel, 0, len(op.Steps))
	scale := int64(len(op.Steps))
	for i, s := range op.Steps {
		docNum := e.DocBase[s.Collection] + docN*scale + int64(i)
		switch s.Kind {
		case InsertOne:
			models = append(models, mongo.NewInsertOneModel().SetDocument(e.doc(s.Document, docNum)))
		case UpdateOne:
			models = append(models, mongo.NewUpdateOneModel().SetFilter(e.filter(s, n)).SetUpdate(e.encode(s.Update, n)).SetUpsert(s.Upsert))
		case UpdateMany:
			models = append(models, mongo.NewUpdateManyModel().SetFilter(e.filter(s, n)).SetUpdate(e.encode(s.Update, n)).SetUpsert(s.Upsert))
		case ReplaceOne:
			models = append(models, mongo.NewReplaceOneModel().SetFilter(e.filter(s, n)).SetReplacement(withoutID(e.doc(s.Document, docNum))).SetUpsert(s.Upsert))
		case DeleteOne:
			models = append(models, mongo.NewDeleteOneModel().SetFilter(e.filter(s, n)))
		case DeleteMany:
			models = append(models, mongo.NewDeleteManyModel().SetFilter(e.filter(s, n)))
		}
	}
	r, err := coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(op.Ordered))
	var res Result
	if r != nil {
		res.Documents = r.InsertedCount + r.MatchedCount + r.UpsertedCount + r.DeletedCount
	}
	return res, err
}

// Transaction error labels (MongoDB's drivers specification).
const (
	labelTransient     = "TransientTransactionError"
	labelUnknownCommit = "UnknownTransactionCommitResult"
)

// Backoff bounds between a transaction's attempts: the wait before
// attempt k is drawn uniformly from [0, min(backoffMax, backoffBase×2^k)),
// so workers that conflicted do not retry in step.
const (
	backoffBase = 5 * time.Millisecond
	backoffMax  = 500 * time.Millisecond
)

func (e *Executor) backoff(attempt int) time.Duration {
	d := backoffBase << min(attempt, 16)
	d = min(d, backoffMax)
	return time.Duration(e.jitter.Int64N(int64(d)) + 1)
}

func hasLabel(err error, label string) bool {
	var le mongo.LabeledError
	return errors.As(err, &le) && le.HasErrorLabel(label)
}

func (e *Executor) transaction(ctx context.Context, op *Operation, n int64) (Result, error) {
	var res Result
	sess, err := e.client.StartSession()
	if err != nil {
		return res, err
	}
	defer sess.EndSession(context.WithoutCancel(ctx))
	sctx := mongo.NewSessionContext(ctx, sess)
	o := options.Transaction()
	switch op.ReadConcern {
	case "local":
		o.SetReadConcern(readconcern.Local())
	case "majority":
		o.SetReadConcern(readconcern.Majority())
	case "snapshot":
		o.SetReadConcern(readconcern.Snapshot())
	}
	switch op.WriteConcern {
	case "majority":
		o.SetWriteConcern(writeconcern.Majority())
	case "1":
		o.SetWriteConcern(writeconcern.W1())
	case "0":
		o.SetWriteConcern(writeconcern.Unacknowledged())
	}
	scale := int64(len(op.Steps))
	for attempt := 0; ; attempt++ {
		start := e.now()
		if err := sess.StartTransaction(o); err != nil {
			return res, err
		}
		res.Documents = 0
		err := e.steps(sctx, op, n, scale, &res)
		if err == nil {
			err = e.commit(sctx, sess, op, &res)
		} else {
			// The abort's own failure changes nothing: the transaction
			// is over either way, and err says why.
			_ = sess.AbortTransaction(context.WithoutCancel(ctx))
		}
		if err == nil || !hasLabel(err, labelTransient) || attempt >= op.Retries {
			return res, err
		}
		e.retried(op, err, start)
		res.Retries++
		if werr := e.sleep(ctx, e.backoff(attempt)); werr != nil {
			return res, err
		}
	}
}

func (e *Executor) steps(sctx context.Context, op *Operation, n, scale int64, res *Result) error {
	for i, s := range op.Steps {
		r, err := e.run(sctx, s, n, n, scale, int64(i))
		res.Documents += r.Documents
		if err != nil {
			return fmt.Errorf("step %d (%s): %w", i+1, s.Name, err)
		}
	}
	return nil
}

// commit commits, trying again while the outcome is unknown (the
// specification lets a commit be repeated), within the same bound as the
// attempts.
func (e *Executor) commit(sctx context.Context, sess *mongo.Session, op *Operation, res *Result) error {
	for try := 0; ; try++ {
		start := e.now()
		err := sess.CommitTransaction(sctx)
		if err == nil || !hasLabel(err, labelUnknownCommit) || try >= op.Retries {
			return err
		}
		e.retried(op, err, start)
		res.CommitRetries++
		if werr := e.sleep(sctx, e.backoff(try)); werr != nil {
			return err
		}
	}
}

func optionsIndex(ix Index) *options.IndexOptionsBuilder {
	o := options.Index()
	if ix.Name != "" {
		o.SetName(ix.Name)
	}
	if ix.Unique {
		o.SetUnique(true)
	}
	if ix.Sparse {
		o.SetSparse(true)
	}
	if ix.ExpireAfterSeconds > 0 {
		o.SetExpireAfterSeconds(ix.ExpireAfterSeconds)
	}
	return o
}
