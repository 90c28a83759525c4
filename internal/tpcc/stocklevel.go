package tpcc

import (
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// StockLevelParams are a StockLevel's inputs (clause 2.8.1).
type StockLevelParams struct {
	W, D, Threshold int
}

// StockLevel counts the recently sold items whose stock is below a
// threshold (clause 2.8). It runs outside a transaction, as in the paper:
// the specification lets it read committed data statement by statement.
func (e *Executor) StockLevel(ctx context.Context, p StockLevelParams) (int64, error) {
	n, err := e.stockLevel(ctx, p)
	if err != nil {
		e.counts.c[StockLevel].failures.Add(1)
	}
	return n, err
}

func (e *Executor) stockLevel(ctx context.Context, p StockLevelParams) (int64, error) {
	var district struct {
		NextID int `bson:"D_NEXT_O_ID"`
	}
	if err := e.coll(CollDistrict).FindOne(ctx, bson.D{{Key: "D_W_ID", Value: p.W}, {Key: "D_ID", Value: p.D}},
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "D_NEXT_O_ID", Value: 1}})).Decode(&district); err != nil {
		return 0, fmt.Errorf("StockLevel: district %d/%d: %w", p.W, p.D, err)
	}
	lo, hi := district.NextID-20, district.NextID
	ids := map[int]bool{}
	type line struct {
		IID int `bson:"OL_I_ID"`
	}
	if e.opts.Normalized {
		cur, err := e.coll(CollOrderLine).Find(ctx, bson.D{{Key: "OL_W_ID", Value: p.W}, {Key: "OL_D_ID", Value: p.D},
			{Key: "OL_O_ID", Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lt", Value: hi}}}},
			options.Find().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "OL_I_ID", Value: 1}}))
		if err != nil {
			return 0, fmt.Errorf("StockLevel: order lines: %w", err)
		}
		var lines []line
		if err := cur.All(ctx, &lines); err != nil {
			return 0, fmt.Errorf("StockLevel: order lines: %w", err)
		}
		for _, l := range lines {
			ids[l.IID] = true
		}
	} else {
		cur, err := e.coll(CollOrders).Find(ctx, bson.D{{Key: "O_W_ID", Value: p.W}, {Key: "O_D_ID", Value: p.D},
			{Key: "O_ID", Value: bson.D{{Key: "$gte", Value: lo}, {Key: "$lt", Value: hi}}}},
			options.Find().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "ORDER_LINE.OL_I_ID", Value: 1}}))
		if err != nil {
			return 0, fmt.Errorf("StockLevel: orders: %w", err)
		}
		var orders []struct {
			Lines []line `bson:"ORDER_LINE"`
		}
		if err := cur.All(ctx, &orders); err != nil {
			return 0, fmt.Errorf("StockLevel: orders: %w", err)
		}
		for _, o := range orders {
			for _, l := range o.Lines {
				ids[l.IID] = true
			}
		}
	}
	list := make([]int, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	slices.Sort(list)
	n, err := e.coll(CollStock).CountDocuments(ctx, bson.D{{Key: "S_W_ID", Value: p.W}, {Key: "S_I_ID", Value: bson.D{{Key: "$in", Value: list}}},
		{Key: "S_QUANTITY", Value: bson.D{{Key: "$lt", Value: p.Threshold}}}})
	if err != nil {
		return 0, fmt.Errorf("StockLevel: count stock: %w", err)
	}
	return n, nil
}
