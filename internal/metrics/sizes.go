package metrics

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// SizeStats are the sizes of the benchmark's database and collection, as
// db.stats() and db.collection.stats() show them. A part that could not be
// read is absent, with the reason in DBError or CollectionError.
type SizeStats struct {
	Database   string `json:"database"`
	Collection string `json:"collection"`

	DB      SizeFigures `json:"db,omitzero"`
	DBError string      `json:"db_error,omitempty"`

	Coll SizeFigures `json:"coll,omitzero"`
	// CollectionSource says how the collection's figures were read:
	// "$collStats" or "collStats".
	CollectionSource string `json:"coll_source,omitempty"`
	CollectionError  string `json:"coll_error,omitempty"`

	// Shards is the collection's part on each shard, when $collStats went
	// through a mongos (one document per shard); nil otherwise.
	Shards []ShardSize `json:"shards,omitempty"`
}

// SizeFigures are the figures common to dbStats and collStats, in bytes.
// MongoDB's dataSize is uncompressed; storageSize is what the files take
// on disk.
type SizeFigures struct {
	Documents        Value `json:"documents,omitzero"`
	DataSize         Value `json:"data_size,omitzero"`
	StorageSize      Value `json:"storage_size,omitzero"`
	IndexSize        Value `json:"index_size,omitzero"`
	AvgObjSize       Value `json:"avg_obj_size,omitzero"`
	CompressionRatio Value `json:"compression_ratio,omitzero"`
}

// withRatio fills in CompressionRatio = dataSize / storageSize.
func (s SizeFigures) withRatio() SizeFigures {
	s.CompressionRatio = ratio(s.DataSize, s.StorageSize)
	return s
}

// Sizes reads the sizes of database db and its collection coll. It fails
// only when neither could be read; a collection that does not exist yet is
// a CollectionError, not a failure.
func Sizes(ctx context.Context, client *mongo.Client, db, coll string) (SizeStats, error) {
	out := SizeStats{Database: db, Collection: coll}

	dbErr := error(nil)
	if raw, err := runCommand(ctx, client.Database(db), bson.D{{Key: "dbStats", Value: 1}}); err != nil {
		dbErr = fmt.Errorf("metrics: dbStats on %s: %w", db, err)
		out.DBError = dbErr.Error()
	} else {
		out.DB = parseDBStats(raw)
	}

	sizes, shards, source, collErr := collSizes(ctx, client.Database(db), coll)
	if collErr != nil {
		out.CollectionError = collErr.Error()
	} else {
		out.Coll, out.Shards, out.CollectionSource = sizes, shards, source
	}

	if dbErr != nil && collErr != nil {
		return out, errors.Join(dbErr, collErr)
	}

	return out, nil
}

func parseDBStats(raw bson.Raw) SizeFigures {
	return SizeFigures{
		Documents:   num(raw, "objects"),
		DataSize:    num(raw, "dataSize"),
		StorageSize: num(raw, "storageSize"),
		IndexSize:   num(raw, "indexSize"),
		AvgObjSize:  num(raw, "avgObjSize"),
	}.withRatio()
}

// collSizes tries the $collStats stage first (MongoDB 6.2 deprecates the
// collStats command) and falls back to the command for servers without the
// stage (MongoDB before 3.4) or without its storageStats.
func collSizes(ctx context.Context, db *mongo.Database, coll string) (SizeFigures, []ShardSize, string, error) {
	docs, aggErr := collStatsDocs(ctx, db, coll, bson.D{{Key: "storageStats", Value: bson.D{}}})
	if aggErr == nil {
		if s, ok := sumStorageStats(docs); ok {
			return s, parseShardSizes(docs), "$collStats", nil
		}

		aggErr = errors.New("no storageStats in the reply")
	}

	raw, cmdErr := runCommand(ctx, db, bson.D{{Key: "collStats", Value: coll}})
	if cmdErr != nil {
		return SizeFigures{}, nil, "", fmt.Errorf("metrics: sizes of %s.%s: $collStats: %w; collStats: %w",
			db.Name(), coll, aggErr, cmdErr)
	}

	return parseCollStats(raw), nil, "collStats", nil
}

// collStatsDocs runs an aggregation whose only stage is $collStats with the
// given options; through mongos it returns one document per shard.
func collStatsDocs(ctx context.Context, db *mongo.Database, coll string, opts bson.D) ([]bson.Raw, error) {
	cur, err := db.Collection(coll).Aggregate(ctx, mongo.Pipeline{{{Key: "$collStats", Value: opts}}})
	if err != nil {
		return nil, fmt.Errorf("metrics: $collStats on %s.%s: %w", db.Name(), coll, err)
	}

	defer func() { _ = cur.Close(ctx) }()

	var docs []bson.Raw

	for cur.Next(ctx) {
		if err := validate(cur.Current); err != nil {
			return nil, fmt.Errorf("metrics: $collStats on %s.%s: malformed reply: %w", db.Name(), coll, err)
		}

		docs = append(docs, append(bson.Raw(nil), cur.Current...))
	}

	if err := cur.Err(); err != nil {
		return nil, fmt.Errorf("metrics: $collStats on %s.%s: %w", db.Name(), coll, err)
	}

	return docs, nil
}

// sumStorageStats adds up the storageStats of every shard's document: the
// sizes of a sharded collection are the sums of its shards'.
func sumStorageStats(docs []bson.Raw) (SizeFigures, bool) {
	var s SizeFigures

	found := false

	for _, d := range docs {
		if !has(d, "storageStats") {
			continue
		}

		found = true
		s.Documents = add(s.Documents, num(d, "storageStats", "count"))
		s.DataSize = add(s.DataSize, num(d, "storageStats", "size"))
		s.StorageSize = add(s.StorageSize, num(d, "storageStats", "storageSize"))
		s.IndexSize = add(s.IndexSize, num(d, "storageStats", "totalIndexSize"))

		if len(docs) == 1 {
			s.AvgObjSize = num(d, "storageStats", "avgObjSize")
		}
	}

	if !found {
		return SizeFigures{}, false
	}

	if len(docs) > 1 {
		s.AvgObjSize = ratio(s.DataSize, s.Documents)
	}

	return s.withRatio(), true
}

// add sums what is present: one shard that lacks a figure does not hide
// the others'.
func add(a, b Value) Value {
	switch {
	case !a.OK:
		return b
	case !b.OK:
		return a
	default:
		return Known(a.V + b.V)
	}
}

func parseCollStats(raw bson.Raw) SizeFigures {
	return SizeFigures{
		Documents:   num(raw, "count"),
		DataSize:    num(raw, "size"),
		StorageSize: num(raw, "storageSize"),
		IndexSize:   num(raw, "totalIndexSize"),
		AvgObjSize:  num(raw, "avgObjSize"),
	}.withRatio()
}
