package tpcc

import (
	"context"
	"errors"
	"fmt"

	"github.com/mongobench/mongobench/internal/txnretry"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
)

// Options are the paper's and py-tpcc's choices of how the transactions
// run.
type Options struct {
	// Normalized: order lines in ORDER_LINE (py-tpcc's denormalize=False).
	Normalized bool
	// NoTransactions runs every transaction's statements one by one,
	// without a multi-document transaction (py-tpcc's notransactions).
	NoTransactions bool
	// FindAndModify reads and changes DISTRICT, WAREHOUSE, NEW_ORDER and
	// ORDERS in one findAndModify where py-tpcc does; otherwise a find
	// then an update or delete. The findAndModify commands carry no
	// projection (py-tpcc's do): the documents are small, and not every
	// MongoDB-compatible server takes one.
	FindAndModify bool
	// BatchWrites sends a NewOrder's stock updates as one bulk write (and,
	// normalized, its order lines as one insert) instead of one each.
	BatchWrites bool
	// DeliveryPerDistrict runs a Delivery as ten transactions, one per
	// district, instead of one for all ten.
	DeliveryPerDistrict bool
	// LinePaths sets a delivered order's lines' OL_DELIVERY_D by their
	// index (ORDER_LINE.0.OL_DELIVERY_D, ...) in an update after the
	// order is read, instead of with ORDER_LINE.$[] in the one update
	// that sets the carrier: for servers without the all-positional
	// operator, such as the embedded one. It costs a Delivery ten more
	// updates.
	LinePaths bool
	// Causal makes each transaction's session causally consistent.
	Causal bool
	// WriteConcern and ReadConcern of the transactions (or, without
	// transactions, of each statement); nil: the server's default.
	WriteConcern *writeconcern.WriteConcern
	ReadConcern  *readconcern.ReadConcern
	// ReadPreference of the reads outside transactions (StockLevel, and
	// every read without transactions); transactions read from the
	// primary, as they must.
	ReadPreference *readpref.ReadPref
	Retry          RetryPolicy
}

// DefaultOptions are py-tpcc's defaults: embedded order lines,
// transactions, findAndModify, batched writes, Delivery in one
// transaction.
func DefaultOptions() Options {
	return Options{FindAndModify: true, BatchWrites: true, Retry: DefaultRetryPolicy()}
}

// Executor runs the five transactions against one database. It is safe
// for concurrent use by the runner's workers.
type Executor struct {
	client *mongo.Client
	db     *mongo.Database
	opts   Options
	scale  Scale
	counts Counters
	float  func() float64
}

// NewExecutor returns an executor of the transactions on database name
// through client. seed seeds the retries' jitter.
func NewExecutor(client *mongo.Client, name string, scale Scale, opts Options, seed uint64) *Executor {
	dbo := options.Database()
	if opts.WriteConcern != nil {
		dbo.SetWriteConcern(opts.WriteConcern)
	}
	if opts.ReadConcern != nil {
		dbo.SetReadConcern(opts.ReadConcern)
	}
	if opts.ReadPreference != nil {
		dbo.SetReadPreference(opts.ReadPreference)
	}
	if opts.Retry.MaxAttempts < 1 {
		opts.Retry.MaxAttempts = 1
	}
	if opts.Retry.Sleep == nil {
		opts.Retry.Sleep = txnretry.Sleep
	}
	f := opts.Retry.Float
	if f == nil {
		f = lockedFloat(seed)
	}
	return &Executor{client: client, db: client.Database(name, dbo), opts: opts, scale: scale, float: f}
}

// Counts returns the retries, aborts, rollbacks and failures of type t
// so far.
func (e *Executor) Counts(t Type) Counts { return e.counts.Of(t) }

func (e *Executor) coll(name string) *mongo.Collection { return e.db.Collection(name) }

// inTransaction runs fn in a multi-document transaction, retrying it
// whole on TransientTransactionError and its commit on
// UnknownTransactionCommitResult within the retry policy; without
// transactions it runs fn once, on a causally consistent session if asked.
func (e *Executor) inTransaction(ctx context.Context, t Type, fn func(context.Context) error) error {
	c := &e.counts.c[t]
	err := e.transaction(ctx, t, fn)
	switch {
	case err == nil:
	case errors.Is(err, ErrRollback):
		c.rollbacks.Add(1)
	default:
		c.failures.Add(1)
	}
	return err
}

func (e *Executor) transaction(ctx context.Context, t Type, fn func(context.Context) error) error {
	c := &e.counts.c[t]
	if e.opts.NoTransactions {
		if !e.opts.Causal {
			return fn(ctx)
		}
		sess, err := e.client.StartSession(options.Session().SetCausalConsistency(true))
		if err != nil {
			return fmt.Errorf("tpcc: start a session: %w", err)
		}
		defer sess.EndSession(context.WithoutCancel(ctx))
		return fn(mongo.NewSessionContext(ctx, sess))
	}
	to := options.Transaction().SetReadPreference(readpref.Primary())
	if e.opts.WriteConcern != nil {
		to.SetWriteConcern(e.opts.WriteConcern)
	}
	if e.opts.ReadConcern != nil {
		to.SetReadConcern(e.opts.ReadConcern)
	}
	sess, err := e.client.StartSession(options.Session().SetCausalConsistency(e.opts.Causal).SetDefaultTransactionOptions(to))
	if err != nil {
		return fmt.Errorf("tpcc: start a session: %w", err)
	}
	defer sess.EndSession(context.WithoutCancel(ctx))
	p := e.opts.Retry
	for attempt := 1; ; attempt++ {
		if err := sess.StartTransaction(); err != nil {
			return fmt.Errorf("tpcc: start a transaction: %w", err)
		}
		sc := mongo.NewSessionContext(ctx, sess)
		err := fn(sc)
		if err != nil {
			// The abort's own failure changes nothing: the server drops
			// the transaction when it times out anyway.
			_ = sess.AbortTransaction(context.WithoutCancel(ctx))
			if errors.Is(err, ErrRollback) {
				return err
			}
			c.aborts.Add(1)
			if !txnretry.HasLabel(err, LabelTransient) || attempt >= p.MaxAttempts {
				return err
			}
			c.retries.Add(1)
			if err := p.Sleep(ctx, p.backoff(attempt, e.float)); err != nil {
				return err
			}
			continue
		}
		err = e.commit(ctx, sess, c)
		if err == nil {
			return nil
		}
		if !txnretry.HasLabel(err, LabelTransient) || attempt >= p.MaxAttempts {
			return err
		}
		c.retries.Add(1)
		if err := p.Sleep(ctx, p.backoff(attempt, e.float)); err != nil {
			return err
		}
	}
}

// commit commits, sending the commit again while its result is unknown.
func (e *Executor) commit(ctx context.Context, sess *mongo.Session, c *typeCounters) error {
	p := e.opts.Retry
	for n := 1; ; n++ {
		err := sess.CommitTransaction(ctx)
		if err == nil || !txnretry.HasLabel(err, LabelUnknownCommit) || n >= p.MaxAttempts {
			if err != nil && txnretry.HasLabel(err, LabelTransient) {
				c.aborts.Add(1)
			}
			return err
		}
		c.commitRetries.Add(1)
		if err := p.Sleep(ctx, p.backoff(n, e.float)); err != nil {
			return err
		}
	}
}
