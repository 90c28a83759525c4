package native

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/mongobench/mongobench/internal/txnretry"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Result is what one operation did, beyond its error.
type Result struct {
	// Documents counts the documents the operation returned (find,
	// aggregate: the cursor drained; distinct: the values; countDocuments:
	// the count) or affected (inserted, matched for update, deleted).
	Documents int64
	// Modified counts the documents an update or replacement changed.
	Modified int64
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
		sleep:   txnretry.Sleep,
	}
	for _, c := range f.Collections {
		e.colls[c] = d.Collection(c.Name)
	}
	return e
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
	// slotN numbers this step's inserts among all the operation's, before
	// the phase's base for the collection.
	slotN := docN*scale + slot
	switch op.Kind {
	case InsertOne:
		return e.insertOne(ctx, coll, op, slotN)
	case InsertMany:
		return e.insertMany(ctx, coll, op, slotN)
	case Find:
		return e.find(ctx, coll, op, n)
	case Aggregate:
		return e.aggregate(ctx, coll, op, n)
	case UpdateOne, UpdateMany:
		return e.update(ctx, coll, op, n)
	case ReplaceOne:
		return e.replaceOne(ctx, coll, op, n, slotN)
	case FindOneAndUpdate:
		return e.findOneAndUpdate(ctx, coll, op, n)
	case FindOneAndDelete:
		return e.findOneAndDelete(ctx, coll, op, n)
	case DeleteOne, DeleteMany:
		return e.delete(ctx, coll, op, n)
	case CountDocuments:
		return e.countDocuments(ctx, coll, op, n)
	case Distinct:
		return e.distinct(ctx, coll, op, n)
	case BulkWrite:
		return e.bulk(ctx, coll, op, n, docN)
	case CreateIndex:
		return e.createIndex(ctx, coll, op, n)
	}
	return Result{}, fmt.Errorf("operation %s: kind %s cannot run here", op.Name, op.Kind)
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
