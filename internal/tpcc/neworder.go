package tpcc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// ErrRollback is the outcome of the NewOrders that the specification rolls
// back on purpose (clause 2.4.2.3: an unused item number): a success of
// the benchmark, counted apart from errors.
var ErrRollback = errors.New("tpcc: NewOrder rolled back on an invalid item (the 1% the specification asks for)")

// NewOrderParams are a NewOrder's inputs (clause 2.4.1).
type NewOrderParams struct {
	W, D, C int
	// Items, SupplyW and Quantities are the order's lines.
	Items, SupplyW, Quantities []int
	EntryDate                  time.Time
}

type itemRow struct {
	ID    int     `bson:"I_ID"`
	Name  string  `bson:"I_NAME"`
	Price float64 `bson:"I_PRICE"`
	Data  string  `bson:"I_DATA"`
}

type stockRow struct {
	IID       int    `bson:"S_I_ID"`
	WID       int    `bson:"S_W_ID"`
	Quantity  int    `bson:"S_QUANTITY"`
	YTD       int    `bson:"S_YTD"`
	OrderCnt  int    `bson:"S_ORDER_CNT"`
	RemoteCnt int    `bson:"S_REMOTE_CNT"`
	Data      string `bson:"S_DATA"`
	Dist      bson.Raw
}

// NewOrder enters an order (clause 2.4). It reads the items first: an
// order with an unused item then writes nothing at all, which keeps the
// consistency conditions true even without transactions (the
// specification reads them after the district, and relies on the
// rollback).
func (e *Executor) NewOrder(ctx context.Context, p NewOrderParams) error {
	return e.inTransaction(ctx, NewOrder, func(ctx context.Context) error { return e.newOrder(ctx, p) })
}

func (e *Executor) newOrder(ctx context.Context, p NewOrderParams) error {
	items, err := e.readItems(ctx, p)
	if err != nil {
		return err
	}
	oid, err := e.takeOrderID(ctx, p)
	if err != nil {
		return err
	}
	if err := e.readWarehouseAndCustomer(ctx, p); err != nil {
		return err
	}
	if _, err := e.coll(CollNewOrder).InsertOne(ctx, newOrderDoc(p.W, p.D, oid)); err != nil {
		return fmt.Errorf("NewOrder: insert new order: %w", err)
	}
	local := allLocal(p)
	distCol := stockDistColumn(p.D)
	stock, err := e.readStock(ctx, p, local, distCol)
	if err != nil {
		return err
	}
	lines, err := e.writeLines(ctx, p, oid, items, stock, distCol)
	if err != nil {
		return err
	}
	order := bson.D{
		{Key: "O_ID", Value: oid}, {Key: "O_C_ID", Value: p.C}, {Key: "O_D_ID", Value: p.D}, {Key: "O_W_ID", Value: p.W},
		{Key: "O_ENTRY_D", Value: p.EntryDate}, {Key: "O_CARRIER_ID", Value: 0},
		{Key: "O_OL_CNT", Value: len(p.Items)}, {Key: "O_ALL_LOCAL", Value: local},
	}
	if !e.opts.Normalized {
		order = append(order, bson.E{Key: CollOrderLine, Value: lines})
	}
	if _, err := e.coll(CollOrders).InsertOne(ctx, order); err != nil {
		return fmt.Errorf("NewOrder: insert order: %w", err)
	}
	return nil
}

// readItems reads the order's items by id, and is ErrRollback when one
// of them is not an item.
func (e *Executor) readItems(ctx context.Context, p NewOrderParams) (map[int]itemRow, error) {
	cur, err := e.coll(CollItem).Find(ctx, bson.D{{Key: "I_ID", Value: bson.D{{Key: "$in", Value: p.Items}}}, {Key: "I_W_ID", Value: 0}},
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "I_ID", Value: 1}, {Key: "I_PRICE", Value: 1}, {Key: "I_NAME", Value: 1}, {Key: "I_DATA", Value: 1}}))
	if err != nil {
		return nil, fmt.Errorf("NewOrder: find items: %w", err)
	}
	var items []itemRow
	if err := cur.All(ctx, &items); err != nil {
		return nil, fmt.Errorf("NewOrder: read items: %w", err)
	}
	byID := make(map[int]itemRow, len(items))
	for _, it := range items {
		byID[it.ID] = it
	}
	for _, id := range p.Items {
		if _, ok := byID[id]; !ok {
			return nil, ErrRollback
		}
	}
	return byID, nil
}

// takeOrderID reads the district's next order id and increments it.
func (e *Executor) takeOrderID(ctx context.Context, p NewOrderParams) (int, error) {
	var district struct {
		Tax    float64 `bson:"D_TAX"`
		NextID int     `bson:"D_NEXT_O_ID"`
	}
	dFilter := bson.D{{Key: "D_W_ID", Value: p.W}, {Key: "D_ID", Value: p.D}}
	dProj := bson.D{{Key: "_id", Value: 0}, {Key: "D_TAX", Value: 1}, {Key: "D_NEXT_O_ID", Value: 1}}
	inc := bson.D{{Key: "$inc", Value: bson.D{{Key: "D_NEXT_O_ID", Value: 1}}}}
	if e.opts.FindAndModify {
		if err := e.coll(CollDistrict).FindOneAndUpdate(ctx, dFilter, inc).Decode(&district); err != nil {
			return 0, fmt.Errorf("NewOrder: district %d/%d: %w", p.W, p.D, err)
		}
		return district.NextID, nil
	}
	if err := e.coll(CollDistrict).FindOne(ctx, dFilter, options.FindOne().SetProjection(dProj)).Decode(&district); err != nil {
		return 0, fmt.Errorf("NewOrder: district %d/%d: %w", p.W, p.D, err)
	}
	// The id read is part of the filter: without a transaction, a
	// concurrent NewOrder that took it makes this one fail rather
	// than enter a second order under the same id.
	res, err := e.coll(CollDistrict).UpdateOne(ctx, append(dFilter, bson.E{Key: "D_NEXT_O_ID", Value: district.NextID}), inc)
	if err != nil {
		return 0, fmt.Errorf("NewOrder: district %d/%d: %w", p.W, p.D, err)
	}
	if res.MatchedCount == 0 {
		return 0, fmt.Errorf("NewOrder: district %d/%d: order id %d taken by a concurrent NewOrder", p.W, p.D, district.NextID)
	}
	return district.NextID, nil
}

// readWarehouseAndCustomer reads the warehouse's tax and the customer's
// discount. Nothing here prices the order, but the specification's
// reads, and their load, are part of the transaction.
func (e *Executor) readWarehouseAndCustomer(ctx context.Context, p NewOrderParams) error {
	var warehouse struct {
		Tax float64 `bson:"W_TAX"`
	}
	if err := e.coll(CollWarehouse).FindOne(ctx, bson.D{{Key: "W_ID", Value: p.W}},
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "W_TAX", Value: 1}})).Decode(&warehouse); err != nil {
		return fmt.Errorf("NewOrder: warehouse %d: %w", p.W, err)
	}
	var customer struct {
		Discount float64 `bson:"C_DISCOUNT"`
	}
	if err := e.coll(CollCustomer).FindOne(ctx, bson.D{{Key: "C_W_ID", Value: p.W}, {Key: "C_D_ID", Value: p.D}, {Key: "C_ID", Value: p.C}},
		options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "C_DISCOUNT", Value: 1}, {Key: "C_LAST", Value: 1}, {Key: "C_CREDIT", Value: 1}})).Decode(&customer); err != nil {
		return fmt.Errorf("NewOrder: customer %d/%d/%d: %w", p.W, p.D, p.C, err)
	}
	return nil
}

// allLocal is the order's O_ALL_LOCAL: 1 when every line is supplied by
// the order's own warehouse.
func allLocal(p NewOrderParams) int {
	local := 1
	for _, w := range p.SupplyW {
		if w != p.W {
			local = 0
		}
	}
	return local
}

// readStock reads the stock of the order's lines, keyed by supplying
// warehouse and item, in one find.
func (e *Executor) readStock(ctx context.Context, p NewOrderParams, local int, distCol string) (map[[2]int]stockRow, error) {
	sProj := bson.D{{Key: "_id", Value: 0}, {Key: "S_I_ID", Value: 1}, {Key: "S_W_ID", Value: 1}, {Key: "S_QUANTITY", Value: 1},
		{Key: "S_DATA", Value: 1}, {Key: "S_YTD", Value: 1}, {Key: "S_ORDER_CNT", Value: 1}, {Key: "S_REMOTE_CNT", Value: 1}, {Key: distCol, Value: 1}}
	var sFilter bson.D
	if local == 1 {
		sFilter = bson.D{{Key: "S_W_ID", Value: p.W}, {Key: "S_I_ID", Value: bson.D{{Key: "$in", Value: p.Items}}}}
	} else {
		or := make(bson.A, len(p.Items))
		for i := range p.Items {
			or[i] = bson.D{{Key: "S_W_ID", Value: p.SupplyW[i]}, {Key: "S_I_ID", Value: p.Items[i]}}
		}
		sFilter = bson.D{{Key: "$or", Value: or}}
	}
	cur, err := e.coll(CollStock).Find(ctx, sFilter, options.Find().SetProjection(sProj))
	if err != nil {
		return nil, fmt.Errorf("NewOrder: find stock: %w", err)
	}
	stock := map[[2]int]stockRow{}
	for cur.Next(ctx) {
		var s stockRow
		if err := cur.Decode(&s); err != nil {
			return nil, fmt.Errorf("NewOrder: read stock: %w", err)
		}
		stock[[2]int{s.WID, s.IID}] = s
	}
	if err := cur.Err(); err != nil {
		return nil, fmt.Errorf("NewOrder: read stock: %w", err)
	}
	_ = cur.Close(ctx)
	return stock, nil
}

// writeLines updates each line's stock and enters the line: in
// ORDER_LINE when normalized, otherwise in the lines it returns for the
// order's document. Batched, the writes go once all lines are built.
func (e *Executor) writeLines(ctx context.Context, p NewOrderParams, oid int, items map[int]itemRow, stock map[[2]int]stockRow, distCol string) (bson.A, error) {
	var (
		stockWrites []mongo.WriteModel
		lines       = make(bson.A, 0, len(p.Items))
		lineDocs    []any
	)
	for i, id := range p.Items {
		sw, qty := p.SupplyW[i], p.Quantities[i]
		s, ok := stock[[2]int{sw, id}]
		if !ok {
			return nil, fmt.Errorf("NewOrder: no stock of item %d in warehouse %d", id, sw)
		}
		filter, update := stockUpdate(p, s, sw, id, qty)
		if e.opts.BatchWrites {
			stockWrites = append(stockWrites, mongo.NewUpdateOneModel().SetFilter(filter).SetUpdate(update))
		} else if _, err := e.coll(CollStock).UpdateOne(ctx, filter, update); err != nil {
			return nil, fmt.Errorf("NewOrder: update stock: %w", err)
		}
		amount := float64(qty) * items[id].Price
		line := bson.D{{Key: "OL_NUMBER", Value: i + 1}, {Key: "OL_I_ID", Value: id}, {Key: "OL_SUPPLY_W_ID", Value: sw},
			{Key: "OL_DELIVERY_D", Value: nil}, {Key: "OL_QUANTITY", Value: qty}, {Key: "OL_AMOUNT", Value: amount},
			{Key: "OL_DIST_INFO", Value: distInfo(s, distCol)}}
		if !e.opts.Normalized {
			lines = append(lines, line)
			continue
		}
		line = append(bson.D{{Key: "OL_O_ID", Value: oid}, {Key: "OL_D_ID", Value: p.D}, {Key: "OL_W_ID", Value: p.W}}, line...)
		if e.opts.BatchWrites {
			lineDocs = append(lineDocs, line)
		} else if _, err := e.coll(CollOrderLine).InsertOne(ctx, line); err != nil {
			return nil, fmt.Errorf("NewOrder: insert order line: %w", err)
		}
	}
	if len(lineDocs) > 0 {
		if _, err := e.coll(CollOrderLine).InsertMany(ctx, lineDocs); err != nil {
			return nil, fmt.Errorf("NewOrder: insert order lines: %w", err)
		}
	}
	if len(stockWrites) > 0 {
		if _, err := e.coll(CollStock).BulkWrite(ctx, stockWrites); err != nil {
			return nil, fmt.Errorf("NewOrder: update stock: %w", err)
		}
	}
	return lines, nil
}

// stockUpdate is the filter and update of a line's stock (clause
// 2.4.2.2): the quantity taken, restocked by 91 when it would fall
// below 10.
func stockUpdate(p NewOrderParams, s stockRow, sw, id, qty int) (filter, update bson.D) {
	q := s.Quantity - qty
	if s.Quantity < qty+10 {
		q += 91
	}
	remote := s.RemoteCnt
	if sw != p.W {
		remote++
	}
	filter = bson.D{{Key: "S_W_ID", Value: sw}, {Key: "S_I_ID", Value: id}}
	update = bson.D{{Key: "$set", Value: bson.D{{Key: "S_QUANTITY", Value: q}, {Key: "S_YTD", Value: s.YTD + qty},
		{Key: "S_ORDER_CNT", Value: s.OrderCnt + 1}, {Key: "S_REMOTE_CNT", Value: remote}}}}
	return filter, update
}

// distInfo is the stock's S_DIST_xx of the order's district.
func distInfo(s stockRow, col string) string {
	if v, err := s.Dist.LookupErr(col); err == nil {
		if str, ok := v.StringValueOK(); ok {
			return str
		}
	}
	return ""
}

// UnmarshalBSON keeps the whole document so that the district's
// S_DIST_xx, whose name varies, can be read from it.
func (s *stockRow) UnmarshalBSON(b []byte) error {
	type plain stockRow
	var p plain
	if err := bson.Unmarshal(b, &p); err != nil {
		return err
	}
	*s = stockRow(p)
	s.Dist = slices.Clone(bson.Raw(b))
	return nil
}
