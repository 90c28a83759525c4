package native

import (
	"context"
	"errors"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

func (e *Executor) insertOne(ctx context.Context, coll *mongo.Collection, op *Operation, slotN int64) (Result, error) {
	var res Result
	_, err := coll.InsertOne(ctx, e.doc(op.Document, e.DocBase[op.Collection]+slotN))
	if err == nil {
		res.Documents = 1
	}
	return res, err
}

// insertMany numbers its documents in blocks of a batch, so that every
// call inserts documents of its own.
func (e *Executor) insertMany(ctx context.Context, coll *mongo.Collection, op *Operation, slotN int64) (Result, error) {
	var res Result
	e.docs = e.docs[:0]
	base := e.DocBase[op.Collection] + slotN*int64(op.Batch)
	for i := range int64(op.Batch) {
		e.docs = append(e.docs, e.doc(op.Document, base+i))
	}
	r, err := coll.InsertMany(ctx, e.docs, options.InsertMany().SetOrdered(op.Ordered))
	if r != nil {
		res.Documents = int64(len(r.InsertedIDs))
	}
	return res, err
}

func (e *Executor) find(ctx context.Context, coll *mongo.Collection, op *Operation, n int64) (Result, error) {
	o := options.Find()
	if op.Projection != nil {
		o.SetProjection(e.doc(op.Projection, n))
	}
	if op.Sort != nil {
		o.SetSort(e.doc(op.Sort, n))
	}
	if op.Hint != nil {
		o.SetHint(e.encode(op.Hint, n))
	}
	if op.Limit > 0 {
		o.SetLimit(op.Limit)
	}
	if op.Skip > 0 {
		o.SetSkip(op.Skip)
	}
	cur, err := coll.Find(ctx, e.filter(op, n), o)
	if err != nil {
		return Result{}, err
	}
	return drain(ctx, cur)
}

func (e *Executor) aggregate(ctx context.Context, coll *mongo.Collection, op *Operation, n int64) (Result, error) {
	cur, err := coll.Aggregate(ctx, bsoncore.Array(e.encode(op.Pipeline, n).b))
	if err != nil {
		return Result{}, err
	}
	return drain(ctx, cur)
}

// update runs updateOne or updateMany; an upserted document counts as
// one affected.
func (e *Executor) update(ctx context.Context, coll *mongo.Collection, op *Operation, n int64) (Result, error) {
	var res Result
	update := e.encode(op.Update, n)
	var r *mongo.UpdateResult
	var err error
	if op.Kind == UpdateOne {
		o := options.UpdateOne().SetUpsert(op.Upsert)
		if op.ArrayFilters != nil {
			o.SetArrayFilters(e.arrayFilters(op, n))
		}
		r, err = coll.UpdateOne(ctx, e.filter(op, n), update, o)
	} else {
		o := options.UpdateMany().SetUpsert(op.Upsert)
		if op.ArrayFilters != nil {
			o.SetArrayFilters(e.arrayFilters(op, n))
		}
		r, err = coll.UpdateMany(ctx, e.filter(op, n), update, o)
	}
	if r != nil {
		res.Documents = r.MatchedCount + r.UpsertedCount
		res.Modified = r.ModifiedCount
	}
	return res, err
}

// replaceOne's replacement is a document of the collection's, numbered as
// an insert would be.
func (e *Executor) replaceOne(ctx context.Context, coll *mongo.Collection, op *Operation, n, slotN int64) (Result, error) {
	var res Result
	doc := e.doc(op.Document, e.DocBase[op.Collection]+slotN)
	r, err := coll.ReplaceOne(ctx, e.filter(op, n), withoutID(doc), options.Replace().SetUpsert(op.Upsert))
	if r != nil {
		res.Documents = r.MatchedCount + r.UpsertedCount
		res.Modified = r.ModifiedCount
	}
	return res, err
}

func (e *Executor) findOneAndUpdate(ctx context.Context, coll *mongo.Collection, op *Operation, n int64) (Result, error) {
	o := options.FindOneAndUpdate().SetUpsert(op.Upsert)
	if op.ArrayFilters != nil {
		o.SetArrayFilters(e.arrayFilters(op, n))
	}
	if op.ReturnNew {
		o.SetReturnDocument(options.After)
	}
	if op.Sort != nil {
		o.SetSort(e.doc(op.Sort, n))
	}
	if op.Projection != nil {
		o.SetProjection(e.doc(op.Projection, n))
	}
	return single(coll.FindOneAndUpdate(ctx, e.filter(op, n), e.encode(op.Update, n), o))
}

func (e *Executor) findOneAndDelete(ctx context.Context, coll *mongo.Collection, op *Operation, n int64) (Result, error) {
	o := options.FindOneAndDelete()
	if op.Sort != nil {
		o.SetSort(e.doc(op.Sort, n))
	}
	if op.Projection != nil {
		o.SetProjection(e.doc(op.Projection, n))
	}
	return single(coll.FindOneAndDelete(ctx, e.filter(op, n), o))
}

// delete runs deleteOne or deleteMany.
func (e *Executor) delete(ctx context.Context, coll *mongo.Collection, op *Operation, n int64) (Result, error) {
	var res Result
	var r *mongo.DeleteResult
	var err error
	if op.Kind == DeleteOne {
		r, err = coll.DeleteOne(ctx, e.filter(op, n))
	} else {
		r, err = coll.DeleteMany(ctx, e.filter(op, n))
	}
	if r != nil {
		res.Documents = r.DeletedCount
	}
	return res, err
}

func (e *Executor) countDocuments(ctx context.Context, coll *mongo.Collection, op *Operation, n int64) (Result, error) {
	o := options.Count()
	if op.Limit > 0 {
		o.SetLimit(op.Limit)
	}
	if op.Skip > 0 {
		o.SetSkip(op.Skip)
	}
	count, err := coll.CountDocuments(ctx, e.filter(op, n), o)
	return Result{Documents: count}, err
}

// distinct counts the distinct values, the documents it returns.
func (e *Executor) distinct(ctx context.Context, coll *mongo.Collection, op *Operation, n int64) (Result, error) {
	arr, err := coll.Distinct(ctx, op.Field, e.filter(op, n)).Raw()
	if err != nil {
		return Result{}, err
	}
	vals, err := arr.Values()
	return Result{Documents: int64(len(vals))}, err
}

func (e *Executor) createIndex(ctx context.Context, coll *mongo.Collection, op *Operation, n int64) (Result, error) {
	m := mongo.IndexModel{Keys: e.doc(op.Keys, n), Options: options.Index().SetUnique(op.Unique)}
	if op.IndexName != "" {
		m.Options.SetName(op.IndexName)
	}
	_, err := coll.Indexes().CreateOne(ctx, m)
	return Result{}, err
}

// filter is op's filter for number n, or the empty document.
func (e *Executor) filter(op *Operation, n int64) bson.Raw {
	if op.Filter == nil {
		return emptyDoc
	}
	return e.doc(op.Filter, n)
}

var emptyDoc = bson.Raw{5, 0, 0, 0, 0}

// arrayFilters are op's array filters for operation n, each a document
// the driver sends as it is. The driver takes them as a list of values,
// so this allocates, as only an update with arrayFilters pays.
func (e *Executor) arrayFilters(op *Operation, n int64) []any {
	arr := bsoncore.Array(e.encode(op.ArrayFilters, n).b)
	vals, _ := arr.Values()
	filters := make([]any, 0, len(vals))
	for _, v := range vals {
		if d, ok := v.DocumentOK(); ok {
			filters = append(filters, bson.Raw(d))
		}
	}
	return filters
}

// withoutID drops a replacement's _id: a replacement may not change it, and
// the template that inserted the document generates one.
func withoutID(doc bson.Raw) bson.Raw {
	if _, err := doc.LookupErr("_id"); err != nil {
		return doc
	}
	elems, err := doc.Elements()
	if err != nil {
		return doc
	}
	out := bson.D{}
	for _, el := range elems {
		if el.Key() != "_id" {
			out = append(out, bson.E{Key: el.Key(), Value: el.Value()})
		}
	}
	b, err := bson.Marshal(out)
	if err != nil {
		return doc
	}
	return b
}

func drain(ctx context.Context, cur *mongo.Cursor) (Result, error) {
	var res Result
	for cur.Next(ctx) {
		res.Documents++
	}
	err := cur.Err()
	if cerr := cur.Close(context.WithoutCancel(ctx)); err == nil {
		err = cerr
	}
	return res, err
}

// single counts the document a findOneAnd… returned; none is not an
// error, it is 0 documents.
func single(r *mongo.SingleResult) (Result, error) {
	err := r.Err()
	if errors.Is(err, mongo.ErrNoDocuments) {
		return Result{}, nil
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Documents: 1}, nil
}

func (e *Executor) bulk(ctx context.Context, coll *mongo.Collection, op *Operation, n, docN int64) (Result, error) {
	models := make([]mongo.WriteModel, 0, len(op.Steps))
	scale := int64(len(op.Steps))
	for i, s := range op.Steps {
		docNum := e.DocBase[s.Collection] + docN*scale + int64(i)
		switch s.Kind {
		case InsertOne:
			models = append(models, mongo.NewInsertOneModel().SetDocument(e.doc(s.Document, docNum)))
		case UpdateOne:
			m := mongo.NewUpdateOneModel().SetFilter(e.filter(s, n)).SetUpdate(e.encode(s.Update, n)).SetUpsert(s.Upsert)
			if s.ArrayFilters != nil {
				m.SetArrayFilters(e.arrayFilters(s, n))
			}
			models = append(models, m)
		case UpdateMany:
			m := mongo.NewUpdateManyModel().SetFilter(e.filter(s, n)).SetUpdate(e.encode(s.Update, n)).SetUpsert(s.Upsert)
			if s.ArrayFilters != nil {
				m.SetArrayFilters(e.arrayFilters(s, n))
			}
			models = append(models, m)
		case ReplaceOne:
			models = append(models, mongo.NewReplaceOneModel().SetFilter(e.filter(s, n)).SetReplacement(withoutID(e.doc(s.Document, docNum))).SetUpsert(s.Upsert))
		case DeleteOne:
			models = append(models, mongo.NewDeleteOneModel().SetFilter(e.filter(s, n)))
		case DeleteMany:
			models = append(models, mongo.NewDeleteManyModel().SetFilter(e.filter(s, n)))
		}
	}
	r, err := coll.BulkWrite(ctx, models, options.BulkWrite().SetOrdered(op.Ordered))
	var res Result
	if r != nil {
		res.Documents = r.InsertedCount + r.MatchedCount + r.UpsertedCount + r.DeletedCount
		res.Modified = r.ModifiedCount
	}
	return res, err
}
