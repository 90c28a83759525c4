// Package txnretry holds what every runner of multi-document transactions
// needs to retry them as MongoDB's transactions specification says: the
// error labels that call for a retry, the jittered wait between attempts,
// and a wait that a stop ends. Native workloads' transactions and TPC-C's
// retry through it, so that both wait alike.
package txnretry

import (
	"context"
	"errors"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The labels a server puts on a transaction's errors: the first says the
// whole transaction may succeed if run again, the second that a commit
// may or may not have happened and may be sent again.
const (
	LabelTransient     = "TransientTransactionError"
	LabelUnknownCommit = "UnknownTransactionCommitResult"
)

// HasLabel reports whether err carries a server's error label.
func HasLabel(err error, label string) bool {
	var le mongo.LabeledError
	return errors.As(err, &le) && le.HasErrorLabel(label)
}

// Backoff bounds the wait before a retry: before retry n (1 for the
// first) a wait drawn uniformly from [0, min(Max, Base·2^(n-1)))
// ("full jitter"), so that workers that conflicted do not retry in step.
type Backoff struct{ Base, Max time.Duration }

// Default waits from 0–5 ms before the first retry up to 0–500 ms.
var Default = Backoff{Base: 5 * time.Millisecond, Max: 500 * time.Millisecond}

// Wait is the wait before retry n, for a uniform draw u in [0, 1).
func (b Backoff) Wait(n int, u float64) time.Duration {
	ceil := b.Base
	for i := 1; i < n && ceil < b.Max; i++ {
		ceil *= 2
	}
	return time.Duration(u * float64(min(ceil, b.Max)))
}

// Ceiling is the longest wait before retry n.
func (b Backoff) Ceiling(n int) time.Duration { return b.Wait(n, 1) }

// Sleep waits d, or until ctx ends (its error then).
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
