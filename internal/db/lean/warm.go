package lean

import (
	"context"
	"sync"

	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/mnet"
)

// Warm opens up to n connections in the pools of the servers a primary
// operation may go to, before a phase starts: it checks them all out at
// once, as n workers would, and gives them back together.
//
// Left to itself, the driver's pool dials a connection only while an
// operation waits for one, two at a time, and a connection given back
// serves a waiting operation before a new one is ready: at 1,000 threads
// against a server that answers at once, the pool took 20 seconds to reach
// 1,000 connections, so the first seconds of a run measured dials and the
// client's memory grew all along the run. (minPoolSize does not help: the
// pool opens at most 10 connections every 10 seconds to reach it.) It
// returns how many connections it held at once: fewer than n when
// maxPoolSize is lower, or when ctx ended first, which is no error: the
// pool keeps what was opened, and grows as it did before.
func Warm(ctx context.Context, cfg Config, n int) int {
	if n <= 0 {
		return 0
	}
	t, sel := cfg.Topology, selector{threshold: localThreshold(cfg.Options)}
	var (
		mu    sync.Mutex
		conns []*mnet.Connection
		wg    sync.WaitGroup
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv, err := t.SelectServer(ctx, sel)
			if err != nil {
				return
			}
			conn, err := srv.Connection(ctx)
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, c := range conns {
		_ = c.Close()
	}
	return len(conns)
}
