package tpcc

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mongobench/mongobench/internal/txnretry"
)

// The labels a server puts on a transaction's errors (txnretry's).
const (
	LabelTransient     = txnretry.LabelTransient
	LabelUnknownCommit = txnretry.LabelUnknownCommit
)

// RetryPolicy bounds the retries of one transaction: at most MaxAttempts
// runs of it, and as many commits of one run; before each retry a wait
// drawn uniformly from [0, min(Max, Base·2^(n-1))) ("full jitter"), so
// that workers that conflicted do not retry in step. py-tpcc retries
// forever, sleeping 0.1 s more after each failure, in step.
type RetryPolicy struct {
	MaxAttempts int
	Base, Max   time.Duration
	// Sleep waits d or until ctx ends; nil is a real timer. Tests pass a
	// fake that records the waits.
	Sleep func(ctx context.Context, d time.Duration) error
	// Float returns a number in [0, 1) for the jitter; nil is a source
	// seeded from the run's seed.
	Float func() float64
}

// DefaultRetryPolicy: 10 attempts, waits from 0–5 ms up to 0–500 ms.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxAttempts: 10, Base: txnretry.Default.Base, Max: txnretry.Default.Max}
}

// backoff is the wait before retry n (1 for the first retry).
func (p RetryPolicy) backoff(n int, float func() float64) time.Duration {
	return txnretry.Backoff{Base: p.Base, Max: p.Max}.Wait(n, float())
}

// Counts are what happened to the transactions of one type beyond their
// outcome: Retries are whole transactions run again after a
// TransientTransactionError, CommitRetries commits sent again after an
// UnknownTransactionCommitResult, Aborts transactions aborted on an error
// (retried or not), Rollbacks the NewOrders rolled back on purpose (the
// 1% with an invalid item), Failures transactions that ended in an error.
type Counts struct {
	Retries, CommitRetries, Aborts, Rollbacks, Failures int64
}

// Counters hold Counts per transaction type, safe for concurrent use.
type Counters struct {
	c [NumTypes]typeCounters
}

type typeCounters struct {
	retries, commitRetries, aborts, rollbacks, failures atomic.Int64
}

// Of returns the counts of type t so far.
func (c *Counters) Of(t Type) Counts {
	x := &c.c[t]
	return Counts{x.retries.Load(), x.commitRetries.Load(), x.aborts.Load(), x.rollbacks.Load(), x.failures.Load()}
}

// lockedFloat makes a shared source safe for concurrent workers.
func lockedFloat(seed uint64) func() float64 {
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(seed, splitmix64(seed)))
	return func() float64 {
		mu.Lock()
		defer mu.Unlock()
		return r.Float64()
	}
}
