package bench

import (
	"context"
	"errors"
	"sync"
	"time"

	driver "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/workload"
)

// Shard is mongodb.shardkey and mongodb.shardkey.chunks, resolved.
type Shard struct {
	Key           mongo.ShardKey // zero: no shard key asked for
	InitialChunks int
}

// maxInitialChunks is MongoDB's limit on numInitialChunks (8192 per
// shard) for a cluster of 1000 shards; the server refuses more per shard.
const maxInitialChunks = 8192 * 1000

// resolveShard reads the shard-key properties. The chunk count is
// numInitialChunks, which MongoDB takes for hashed keys only.
func resolveShard(props *workload.Properties) (Shard, error) {
	var sc Shard
	if v, ok := props.Get("mongodb.shardkey"); ok {
		k, err := mongo.ParseShardKey(v)
		if err != nil {
			return sc, inputErrorf("mongodb.shardkey=%q is invalid: %v", v, err)
		}
		sc.Key = k
	}
	if c, ok := props.Get("mongodb.shardkey.chunks"); ok {
		n, err := workload.ParseInt(c, 1, maxInitialChunks)
		if err != nil {
			return sc, inputErrorf("mongodb.shardkey.chunks=%q is invalid: expected %s", c, workload.IntRange(1, maxInitialChunks))
		}
		if !sc.Key.Hashed() {
			return sc, inputErrorf("mongodb.shardkey.chunks=%s needs a hashed mongodb.shardkey (such as _id:hashed): a ranged key starts as one chunk", c)
		}
		sc.InitialChunks = int(n)
	}
	return sc, nil
}

// setUpShardKey shards the collection before a load, or checks before a
// run that it is sharded on the key asked for, and says what it did. A
// server that is not a mongos, or a collection on another key, is an
// InputError: nothing has been measured, and the fix is in the command
// line.
func (p *Prepared) setUpShardKey(ctx context.Context) error {
	sc, table := p.t.Shard, p.t.Spec.Table
	if sc.Key.IsZero() {
		return nil
	}
	var err error
	if p.t.Command == "load" {
		var setup mongo.ShardSetup
		setup, err = p.Client.EnsureSharded(ctx, table, mongo.ShardOptions{Key: sc.Key, InitialChunks: sc.InitialChunks})
		if err == nil {
			p.t.notify(Info, "%s on %s", setup, sc.Key)
		}
	} else {
		err = p.Client.CheckSharded(ctx, table, sc.Key)
	}
	var notMongos *mongo.NotMongosError
	var mismatch *mongo.ShardKeyMismatchError
	if errors.As(err, &notMongos) || errors.As(err, &mismatch) {
		return InputError{err}
	}
	return err
}

// readShardingRun reads, after a phase on a sharded collection, the
// balancer's state and the chunk migrations of the phase; nil for any
// other collection.
func readShardingRun(ctx context.Context, monitor *driver.Client, topo *metrics.TopologyInfo, sum *measure.Summary, interval time.Duration) *metrics.ShardingRun {
	sh := topo.Sharding
	if topo.Kind != metrics.KindSharded || sh == nil || sh.CollectionSharded == nil || !*sh.CollectionSharded || sum == nil {
		return nil
	}
	return metrics.Sharding(ctx, monitor, sh.Namespace, sum.Start, sum.End, interval)
}

// openShardMonitors connects to each shard's primary of a sharded
// cluster, with the mongos URL's credentials and options, so that the
// phase samples their serverStatus too. A shard that does not answer
// within the connect timeout (another network, a user that exists only on
// the mongos) is left out, and a notice says so: the run does not depend
// on it.
func (p *Prepared) openShardMonitors(ctx context.Context, topo *metrics.TopologyInfo) []metrics.ShardClient {
	if topo.Kind != metrics.KindSharded || topo.Sharding == nil {
		return nil
	}
	uri, connect := p.URL, p.t.Connect
	shards := topo.Sharding.Shards
	clients := make([]*driver.Client, len(shards))
	errs := make([]error, len(shards))
	var wg sync.WaitGroup
	// All at once: unreachable shards cost one connect timeout, not one each.
	for i, sh := range shards {
		if sh.Host == "" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			shardURL, err := mongo.ShardURL(uri, sh.Host)
			if err != nil {
				errs[i] = err
				return
			}
			c, err := mongo.OpenMonitor(mongo.Config{URL: shardURL, ConnectTimeout: connect})
			if err != nil {
				errs[i] = err
				return
			}
			pingCtx, cancel := context.WithTimeout(ctx, connect)
			defer cancel()
			if err := c.Ping(pingCtx, nil); err != nil {
				errs[i] = errors.New(redact.Error(err.Error(), shardURL))
				go func() { _ = c.Disconnect(context.Background()) }()
				return
			}
			clients[i] = c
		}()
	}
	wg.Wait()
	var out []metrics.ShardClient
	for i, sh := range shards {
		switch {
		case clients[i] != nil:
			out = append(out, metrics.ShardClient{Name: sh.ID, Client: clients[i]})
		case errs[i] != nil:
			p.t.notify(Info, "shard %s (%s) does not answer with the URL's credentials: its serverStatus is left out (%v)", sh.ID, sh.Host, errs[i])
		}
	}
	return out
}
