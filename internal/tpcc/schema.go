package tpcc

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// index is one index of a collection; the first of each collection is
// unique, as py-tpcc makes it: it is the row's primary key.
type index struct {
	keys   bson.D
	unique bool
}

func asc(fields ...string) bson.D {
	d := make(bson.D, len(fields))
	for i, f := range fields {
		d[i] = bson.E{Key: f, Value: 1}
	}
	return d
}

// Indexes are py-tpcc's, with two changes: the ORDERS index for
// OrderStatus names O_ENTRY_D (py-tpcc's says O_ENTRY_ID, a field no
// document has), and ORDER_LINE's indexes exist only where order lines
// have a collection of their own.
func indexes(normalized bool) map[string][]index {
	m := map[string][]index{
		CollItem:      {{asc("I_W_ID", "I_ID"), true}},
		CollWarehouse: {{asc("W_ID", "W_TAX"), true}},
		CollDistrict:  {{asc("D_W_ID", "D_ID", "D_NEXT_O_ID", "D_TAX"), true}},
		CollCustomer: {
			{asc("C_W_ID", "C_D_ID", "C_ID"), true},
			{asc("C_W_ID", "C_D_ID", "C_LAST"), false},
		},
		CollStock: {
			{asc("S_W_ID", "S_I_ID", "S_QUANTITY"), true},
			{asc("S_I_ID"), false},
		},
		CollOrders: {
			{asc("O_W_ID", "O_D_ID", "O_ID", "O_C_ID"), true},
			{bson.D{{Key: "O_C_ID", Value: 1}, {Key: "O_D_ID", Value: 1}, {Key: "O_W_ID", Value: 1}, {Key: "O_ID", Value: -1}, {Key: "O_CARRIER_ID", Value: 1}, {Key: "O_ENTRY_D", Value: 1}}, false},
		},
		CollNewOrder: {{asc("NO_W_ID", "NO_D_ID", "NO_O_ID"), true}},
	}
	if normalized {
		m[CollOrderLine] = []index{
			{asc("OL_O_ID", "OL_D_ID", "OL_W_ID", "OL_NUMBER"), true},
			{bson.D{{Key: "OL_O_ID", Value: 1}, {Key: "OL_D_ID", Value: 1}, {Key: "OL_W_ID", Value: 1}, {Key: "OL_I_ID", Value: -1}, {Key: "OL_AMOUNT", Value: 1}}, false},
		}
	}
	return m
}

// Collections are the collections a layout uses: the eight of py-tpcc's
// default (order lines inside their orders), or nine when normalized.
func Collections(normalized bool) []string {
	c := []string{CollItem, CollWarehouse, CollDistrict, CollCustomer, CollStock, CollOrders, CollNewOrder}
	if normalized {
		c = append(c, CollOrderLine)
	}
	return append(c, CollHistory)
}

// CreateSchema creates the layout's indexes (and so its collections).
// Every part of a partitioned load may call it: creating an index that
// exists is a no-op.
func CreateSchema(ctx context.Context, db *mongo.Database, normalized bool) error {
	for coll, idx := range indexes(normalized) {
		models := make([]mongo.IndexModel, len(idx))
		for i, ix := range idx {
			models[i] = mongo.IndexModel{Keys: ix.keys}
			if ix.unique {
				models[i].Options = options.Index().SetUnique(true)
			}
		}
		if _, err := db.Collection(coll).Indexes().CreateMany(ctx, models); err != nil {
			return fmt.Errorf("tpcc: create the indexes of %s: %w", coll, err)
		}
	}
	return nil
}

// Drop removes every collection of both layouts.
func Drop(ctx context.Context, db *mongo.Database) error {
	for _, c := range Collections(true) {
		if err := db.Collection(c).Drop(ctx); err != nil {
			return fmt.Errorf("tpcc: drop %s: %w", c, err)
		}
	}
	return nil
}
