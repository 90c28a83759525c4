package tpcc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// DeliveryParams are a Delivery's inputs (clause 2.7.1).
type DeliveryParams struct {
	W, Carrier int
	Date       time.Time
}

// Delivery delivers the oldest undelivered order of each of a warehouse's
// ten districts (clause 2.7), in one transaction or one per district.
func (e *Executor) Delivery(ctx context.Context, p DeliveryParams) error {
	if !e.opts.DeliveryPerDistrict {
		return e.inTransaction(ctx, Delivery, func(ctx context.Context) error {
			for d := 1; d <= DistrictsPerWarehouse; d++ {
				if err := e.deliver(ctx, p, d); err != nil {
					return err
				}
			}
			return nil
		})
	}
	for d := 1; d <= DistrictsPerWarehouse; d++ {
		if err := e.inTransaction(ctx, Delivery, func(ctx context.Context) error { return e.deliver(ctx, p, d) }); err != nil {
			return err
		}
	}
	return nil
}

type orderLineAmount struct {
	Amount float64 `bson:"OL_AMOUNT"`
}

func (e *Executor) deliver(ctx context.Context, p DeliveryParams, d int) error {
	noFilter := bson.D{{Key: "NO_W_ID", Value: p.W}, {Key: "NO_D_ID", Value: d}}
	noSort := bson.D{{Key: "NO_O_ID", Value: 1}}
	noProj := bson.D{{Key: "_id", Value: 0}, {Key: "NO_O_ID", Value: 1}}
	var no struct {
		OID int `bson:"NO_O_ID"`
	}
	var err error
	if e.opts.FindAndModify {
		err = e.coll(CollNewOrder).FindOneAndDelete(ctx, noFilter, options.FindOneAndDelete().SetSort(noSort)).Decode(&no)
	} else {
		err = e.coll(CollNewOrder).FindOne(ctx, noFilter, options.FindOne().SetSort(noSort).SetProjection(noProj)).Decode(&no)
	}
	if errors.Is(err, mongo.ErrNoDocuments) {
		// No undelivered order in this district: skipped, as clause
		// 2.7.4.2 allows.
		return nil
	}
	if err != nil {
		return fmt.Errorf("Delivery: new order of district %d/%d: %w", p.W, d, err)
	}
	oFilter := bson.D{{Key: "O_W_ID", Value: p.W}, {Key: "O_D_ID", Value: d}, {Key: "O_ID", Value: no.OID}}
	var order struct {
		CID   int               `bson:"O_C_ID"`
		Lines []orderLineAmount `bson:"ORDER_LINE"`
	}
	set := bson.D{{Key: "O_CARRIER_ID", Value: p.Carrier}}
	if !e.opts.Normalized && !e.opts.LinePaths {
		set = append(set, bson.E{Key: "ORDER_LINE.$[].OL_DELIVERY_D", Value: p.Date})
	}
	update := bson.D{{Key: "$set", Value: set}}
	oProj := bson.D{{Key: "_id", Value: 0}, {Key: "O_C_ID", Value: 1}}
	if !e.opts.Normalized {
		oProj = append(oProj, bson.E{Key: "ORDER_LINE.OL_AMOUNT", Value: 1})
	}
	if e.opts.FindAndModify {
		err = e.coll(CollOrders).FindOneAndUpdate(ctx, oFilter, update).Decode(&order)
	} else {
		err = e.coll(CollOrders).FindOne(ctx, oFilter, options.FindOne().SetProjection(oProj)).Decode(&order)
		if err == nil {
			_, err = e.coll(CollOrders).UpdateOne(ctx, oFilter, update)
		}
	}
	if err != nil {
		return fmt.Errorf("Delivery: order %d of district %d/%d: %w", no.OID, p.W, d, err)
	}
	if !e.opts.Normalized && e.opts.LinePaths {
		lines := make(bson.D, len(order.Lines))
		for i := range order.Lines {
			lines[i] = bson.E{Key: "ORDER_LINE." + strconv.Itoa(i) + ".OL_DELIVERY_D", Value: p.Date}
		}
		if _, err := e.coll(CollOrders).UpdateOne(ctx, oFilter, bson.D{{Key: "$set", Value: lines}}); err != nil {
			return fmt.Errorf("Delivery: order lines of order %d of district %d/%d: %w", no.OID, p.W, d, err)
		}
	}
	if e.opts.Normalized {
		olFilter := bson.D{{Key: "OL_W_ID", Value: p.W}, {Key: "OL_D_ID", Value: d}, {Key: "OL_O_ID", Value: no.OID}}
		cur, err := e.coll(CollOrderLine).Find(ctx, olFilter, options.Find().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "OL_AMOUNT", Value: 1}}))
		if err != nil {
			return fmt.Errorf("Delivery: order lines: %w", err)
		}
		if err := cur.All(ctx, &order.Lines); err != nil {
			return fmt.Errorf("Delivery: order lines: %w", err)
		}
		if _, err := e.coll(CollOrderLine).UpdateMany(ctx, olFilter, bson.D{{Key: "$set", Value: bson.D{{Key: "OL_DELIVERY_D", Value: p.Date}}}}); err != nil {
			return fmt.Errorf("Delivery: update order lines: %w", err)
		}
	}
	total := 0.0
	for _, l := range order.Lines {
		total += l.Amount
	}
	if _, err := e.coll(CollCustomer).UpdateOne(ctx, bson.D{{Key: "C_W_ID", Value: p.W}, {Key: "C_D_ID", Value: d}, {Key: "C_ID", Value: order.CID}},
		bson.D{{Key: "$inc", Value: bson.D{{Key: "C_BALANCE", Value: total}, {Key: "C_DELIVERY_CNT", Value: 1}}}}); err != nil {
		return fmt.Errorf("Delivery: update customer: %w", err)
	}
	if !e.opts.FindAndModify {
		if _, err := e.coll(CollNewOrder).DeleteOne(ctx, bson.D{{Key: "NO_W_ID", Value: p.W}, {Key: "NO_D_ID", Value: d}, {Key: "NO_O_ID", Value: no.OID}}); err != nil {
			return fmt.Errorf("Delivery: delete new order: %w", err)
		}
	}
	return nil
}
