package tpcc

import (
	"context"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// OrderStatusParams are an OrderStatus's inputs (clause 2.6.1).
type OrderStatusParams struct {
	W, D, C int
	CLast   string
}

// OrderStatus reads a customer's last order (clause 2.6), once: py-tpcc
// runs it in a transaction and then again outside one, and times both.
func (e *Executor) OrderStatus(ctx context.Context, p OrderStatusParams) error {
	return e.inTransaction(ctx, OrderStatus, func(ctx context.Context) error { return e.orderStatus(ctx, p) })
}

func (e *Executor) orderStatus(ctx context.Context, p OrderStatusParams) error {
	var c customerRow
	proj := bson.D{{Key: "_id", Value: 0}, {Key: "C_ID", Value: 1}, {Key: "C_FIRST", Value: 1}, {Key: "C_MIDDLE", Value: 1}, {Key: "C_LAST", Value: 1}, {Key: "C_BALANCE", Value: 1}}
	if err := e.findCustomer(ctx, p.W, p.D, p.C, p.CLast, proj, &c); err != nil {
		return fmt.Errorf("OrderStatus: customer: %w", err)
	}
	oProj := bson.D{{Key: "_id", Value: 0}, {Key: "O_ID", Value: 1}, {Key: "O_CARRIER_ID", Value: 1}, {Key: "O_ENTRY_D", Value: 1}}
	if !e.opts.Normalized {
		oProj = append(oProj, bson.E{Key: CollOrderLine, Value: 1})
	}
	var order struct {
		ID int `bson:"O_ID"`
	}
	err := e.coll(CollOrders).FindOne(ctx, bson.D{{Key: "O_W_ID", Value: p.W}, {Key: "O_D_ID", Value: p.D}, {Key: "O_C_ID", Value: c.ID}},
		options.FindOne().SetProjection(oProj).SetSort(bson.D{{Key: "O_ID", Value: -1}})).Decode(&order)
	if err != nil {
		return fmt.Errorf("OrderStatus: last order of customer %d/%d/%d: %w", p.W, p.D, c.ID, err)
	}
	if e.opts.Normalized {
		cur, err := e.coll(CollOrderLine).Find(ctx, bson.D{{Key: "OL_W_ID", Value: p.W}, {Key: "OL_D_ID", Value: p.D}, {Key: "OL_O_ID", Value: order.ID}},
			options.Find().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "OL_SUPPLY_W_ID", Value: 1}, {Key: "OL_I_ID", Value: 1}, {Key: "OL_QUANTITY", Value: 1}, {Key: "OL_AMOUNT", Value: 1}, {Key: "OL_DELIVERY_D", Value: 1}}))
		if err != nil {
			return fmt.Errorf("OrderStatus: order lines: %w", err)
		}
		var lines []bson.Raw
		if err := cur.All(ctx, &lines); err != nil {
			return fmt.Errorf("OrderStatus: order lines: %w", err)
		}
	}
	return nil
}
