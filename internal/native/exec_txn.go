package native

import (
	"context"
	"fmt"
	"time"

	"github.com/mongobench/mongobench/internal/txnretry"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
)

// backoff is the wait before attempt+1 of a transaction or of its
// commit, jittered from the executor's seeded source (txnretry.Default:
// from 0–5 ms up to 0–500 ms).
func (e *Executor) backoff(attempt int) time.Duration {
	return txnretry.Default.Wait(attempt+1, e.jitter.Float64())
}

func (e *Executor) transaction(ctx context.Context, op *Operation, n int64) (Result, error) {
	var res Result
	if !op.Atomic {
		// The same commands, none of the guarantees, nothing to retry.
		err := e.steps(ctx, op, n, &res)
		return res, err
	}
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
	for attempt := 0; ; attempt++ {
		start := e.now()
		if err := sess.StartTransaction(o); err != nil {
			return res, err
		}
		res.Documents, res.Modified = 0, 0
		err := e.steps(sctx, op, n, &res)
		if err == nil {
			err = e.commit(sctx, sess, op, &res)
		} else {
			// The abort's own failure changes nothing: the transaction
			// is over either way, and err says why.
			_ = sess.AbortTransaction(context.WithoutCancel(ctx))
		}
		if err == nil || !txnretry.HasLabel(err, txnretry.LabelTransient) || attempt >= op.Retries {
			return res, err
		}
		e.retried(op, err, start)
		res.Retries++
		if werr := e.sleep(ctx, e.backoff(attempt)); werr != nil {
			return res, err
		}
	}
}

// steps runs op's steps in order. A step's inserts are numbered among
// those of the steps on its collection only: steps on different
// collections each insert document n of theirs (a customer, a product
// and an order per operation, each collection numbered without gaps),
// and two steps on one collection take turns.
func (e *Executor) steps(sctx context.Context, op *Operation, n int64, res *Result) error {
	for i, s := range op.Steps {
		scale, slot := int64(0), int64(0)
		for j, o := range op.Steps {
			if o.Collection == s.Collection {
				scale++
				if j < i {
					slot++
				}
			}
		}
		r, err := e.run(sctx, s, n, n, scale, slot)
		res.Documents += r.Documents
		res.Modified += r.Modified
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
		if err == nil || !txnretry.HasLabel(err, txnretry.LabelUnknownCommit) || try >= op.Retries {
			return err
		}
		e.retried(op, err, start)
		res.CommitRetries++
		if werr := e.sleep(sctx, e.backoff(try)); werr != nil {
			return err
		}
	}
}
