package native

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	dbmongo "github.com/mongobench/mongobench/internal/db/mongo"
)

// namespaceExists is the server's code for creating a collection that
// exists.
const namespaceExists = 48

// Setup creates f's collections as the file describes them, before a
// load: dropped first when drop is set; each with its validator (created
// with it, or given it by collMod when the collection exists); then its
// indexes. Creating an index that exists is no error, so a load into a
// loaded database only adds documents. The shard keys are set up apart,
// through a mongos (SetUpShardKeys).
func Setup(ctx context.Context, f *File, client *mongo.Client, database string, drop bool) error {
	d := client.Database(database)
	c := NewCtx()
	for _, coll := range f.Collections {
		mc := d.Collection(coll.Name)
		if drop {
			if err := mc.Drop(ctx); err != nil {
				return fmt.Errorf("drop %s.%s: %w", database, coll.Name, err)
			}
		}
		if coll.Validator != nil {
			if err := applyValidator(ctx, d, coll, c); err != nil {
				return err
			}
		}
		for _, ix := range coll.Indexes {
			keys, _ := ix.Keys.Append(nil, c, 0)
			m := mongo.IndexModel{Keys: bson.Raw(keys), Options: optionsIndex(ix)}
			if _, err := mc.Indexes().CreateOne(ctx, m); err != nil {
				return fmt.Errorf("create index %v on %s.%s: %w", ix.Name, database, coll.Name, err)
			}
		}
	}
	return nil
}

// applyValidator gives coll its validator: create with it, or, when the
// collection exists (a load without --drop, or a collection that
// shardCollection created), collMod, so that the validator in force is
// the file's either way.
func applyValidator(ctx context.Context, d *mongo.Database, coll *Collection, c *Ctx) error {
	v, _ := coll.Validator.Append(nil, c, 0)
	err := d.RunCommand(ctx, bson.D{{Key: "create", Value: coll.Name}, {Key: "validator", Value: bson.Raw(v)}}).Err()
	var ce mongo.CommandError
	if errors.As(err, &ce) && ce.Code == namespaceExists {
		err = d.RunCommand(ctx, bson.D{{Key: "collMod", Value: coll.Name}, {Key: "validator", Value: bson.Raw(v)}}).Err()
	}
	if err != nil {
		return fmt.Errorf("set the validator of %s.%s: %w", d.Name(), coll.Name, err)
	}
	return nil
}

// shardKeyOf is c's shard key as the sharding set-up takes it; zero when
// the file gives none.
func shardKeyOf(c *Collection) (dbmongo.ShardKey, error) {
	if c.ShardKey == nil {
		return dbmongo.ShardKey{}, nil
	}
	doc, _ := c.ShardKey.Append(nil, NewCtx(), 0)
	k, err := dbmongo.ShardKeyFromDoc(bson.Raw(doc))
	if err != nil {
		return k, fmt.Errorf("%w; accepted: fields of 1 (ranged) or \"hashed\"", err)
	}
	return k, nil
}

// SetUpShardKeys shards, before a load, each collection of f that has a
// shardKey, through the mongos client talks to (the sharding set-up of
// mongodb.shardkey, dbmongo.Client.EnsureSharded: enableSharding where
// the server needs it, then shardCollection), after Setup created it
// with its validator; before any other phase (load false) it checks that
// each is sharded on its key. Each set-up is told to said ("sharded
// ycsb.orders (MongoDB 7.0.12) on customer:hashed"). A server that is no
// mongos is a *dbmongo.NotMongosError, a collection sharded on another
// key (or holding documents, unsharded) a *dbmongo.ShardKeyMismatchError.
func SetUpShardKeys(ctx context.Context, f *File, client *dbmongo.Client, load bool, said func(string)) error {
	for _, coll := range f.Collections {
		key, err := shardKeyOf(coll)
		if err != nil {
			// Parse refuses such a key; a File built otherwise may hold one.
			return fmt.Errorf("collection %s: %w", coll.Name, err)
		}
		if key.IsZero() {
			continue
		}
		if !load {
			if err := client.CheckSharded(ctx, coll.Name, key); err != nil {
				return &ShardKeyError{Collection: coll.Name, Key: key, Err: err}
			}
			continue
		}
		setup, err := client.EnsureSharded(ctx, coll.Name, dbmongo.ShardOptions{Key: key})
		if err != nil {
			return &ShardKeyError{Collection: coll.Name, Key: key, Err: err}
		}
		if said != nil {
			said(fmt.Sprintf("%s on %s", setup, key))
		}
	}
	return nil
}

// ShardKeyError is a collection's shardKey that could not be set up or
// is not in place. Its message speaks of the file's shardKey where the
// sharding set-up's own speaks of mongodb.shardkey; errors.As reaches the
// *dbmongo.NotMongosError or *dbmongo.ShardKeyMismatchError under it.
type ShardKeyError struct {
	Collection string
	Key        dbmongo.ShardKey
	Err        error
}

func (e *ShardKeyError) Error() string {
	var notMongos *dbmongo.NotMongosError
	var mismatch *dbmongo.ShardKeyMismatchError
	switch {
	case errors.As(e.Err, &notMongos):
		return fmt.Sprintf("collection %s: shardKey %s needs a mongos; this is a %s (accepted: a sharded cluster's mongos, or the collection without shardKey)", e.Collection, e.Key, notMongos.Kind)
	case errors.As(e.Err, &mismatch) && mismatch.Have.IsZero():
		return fmt.Sprintf("collection %s: shardKey %s, but %s already holds documents and is not sharded: load it again with --drop to re-create it sharded", e.Collection, e.Key, mismatch.Namespace)
	case errors.As(e.Err, &mismatch):
		return fmt.Sprintf("collection %s: shardKey %s, but %s is already sharded on %s: load it again with --drop to re-shard it, or give shardKey as %s", e.Collection, e.Key, mismatch.Namespace, mismatch.Have, mismatch.Have)
	}
	return fmt.Sprintf("collection %s: shardKey %s: %v", e.Collection, e.Key, e.Err)
}

func (e *ShardKeyError) Unwrap() error { return e.Err }

// UnsupportedCollections says, one reason per collection, what of f's
// collections the server cannot set up: FerretDB takes no validator
// (create refuses the field, and it has no collMod).
func (f *File) UnsupportedCollections(s Server) []string {
	var why []string
	for _, c := range f.Collections {
		if c.Validator != nil && s.FerretDB != "" {
			why = append(why, fmt.Sprintf("collection %s: %s has no validators; accepted: MongoDB, or the collection without validator", c.Name, s.ferretName()))
		}
	}
	return why
}
