package workload

import (
	"context"
	"math/rand/v2"
	"testing"
)

// TestPoolMadeOnFirstWrite: a read-only workload never makes the pool of
// random value bytes (a megabyte per phase), a writing one makes it on its
// first write, and its bytes are the seed's whenever it is made.
func TestPoolMadeOnFirstWrite(t *testing.T) {
	t.Parallel()
	read := benchCore(t, "workloadc", true)
	w := read.NewWorker(0, 1, 1)
	s := &benchSession{}
	for range 1000 {
		w.DoTransaction(context.Background(), s)
	}
	if read.randomValues != nil {
		t.Errorf("workload c made the value pool (%d bytes)", len(read.randomValues))
	}

	write := benchCore(t, "workloada", true)
	if write.randomValues != nil {
		t.Fatal("the pool is made before any write")
	}
	w = write.NewWorker(0, 1, 1)
	for range 100 {
		w.DoTransaction(context.Background(), s)
	}
	pool := write.randomValues
	if want := poolSize(write.spec); int64(len(pool)) != want || len(pool) < randomPoolSize {
		t.Fatalf("pool of %d bytes, want %d", len(pool), want)
	}
	r := rand.New(rand.NewPCG(1, 0x9e3779b97f4a7c15))
	for i, b := range pool {
		if want := byte(' ' + r.IntN(95)); b != want {
			t.Fatalf("pool byte %d is %q, want the seed's %q", i, b, want)
		}
	}
}
