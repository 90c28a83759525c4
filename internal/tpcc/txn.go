package tpcc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/readpref"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"
)

// ErrRollback is the outcome of the NewOrders that the specification rolls
// back on purpose (clause 2.4.2.3: an unused item number): a success of
// the benchmark, counted apart from errors.
var ErrRollback = errors.New("tpcc: NewOrder rolled back on an invalid item (the 1% the specification asks for)")

// Options are the paper's and py-tpcc's choices of how the transactions
// run.
type Options struct {
	// Normalized: order lines in ORDER_LINE (py-tpcc's denormalize=False).
	Normalized bool
	// NoTransactions runs every transaction's statements one by one,
	// without a multi-document transaction (py-tpcc's notransactions).
	NoTransactions bool
	// FindAndModify reads and changes DISTRICT, WAREHOUSE, NEW_ORDER and
	// ORDERS in one findAndModify where py-tpcc does; otherwise a find
	// then an update or delete. The findAndModify commands carry no
	// projection (py-tpcc's do): the documents are small, and not every
	// MongoDB-compatible server takes one.
	FindAndModify bool
	// BatchWrites sends a NewOrder's stock updates as one bulk write (and,
	// normalized, its order lines as one insert) instead of one each.
	BatchWrites bool
	// DeliveryPerDistrict runs a Delivery as ten transactions, one per
	// district, instead of one for all ten.
	DeliveryPerDistrict bool
	// LinePaths sets a delivered order's lines' OL_DELIVERY_D by their
	// index (ORDER_LINE.0.OL_DELIVERY_D, ...) in an update after the
	// order is read, instead of with ORDER_LINE.$[] in the one update
	// that sets the carrier: for servers without the all-positional
	// operator, such as the embedded one. It costs a Delivery ten more
	// updates.
	LinePaths bool
	// Causal makes each transaction's session causally consistent.
	Causal bool
	// WriteConcern and ReadConcern of the transactions (or, without
	// transactions, of each statement); nil: the server's default.
	WriteConcern *writeconcern.WriteConcern
	ReadConcern  *readconcern.ReadConcern
	// ReadPreference of the reads outside transactions (StockLevel, and
	// every read without transactions); transactions read from the
	// primary, as they must.
	ReadPreference *readpref.ReadPref
	Retry          RetryPolicy
}

// DefaultOptions are py-tpcc's defaults: embedded order lines,
// transactions, findAndModify, batched writes, Delivery in one
// transaction.
func DefaultOptions() Options {
	return Options{FindAndModify: true, BatchWrites: true, Retry: DefaultRetryPolicy()}
}

// Executor runs the five transactions against one database. It is safe
// for concurrent use by the runner's workers.
type Executor struct {
	client *mongo.Client
	db     *mongo.Database
	opts   Options
	scale  Scale
	counts Counters
	float  func() float64
}

// NewExecutor returns an executor of the transactions on database name
// through client. seed seeds the retries' jitter.
func NewExecutor(client *mongo.Client, name string, scale Scale, opts Options, seed uint64) *Executor {
	dbo := options.Database()
	if opts.WriteConcern != nil {
		dbo.SetWriteConcern(opts.WriteConcern)
	}
	if opts.ReadConcern != nil {
		dbo.SetReadConcern(opts.ReadConcern)
	}
	if opts.ReadPreference != nil {
		dbo.SetReadPreference(opts.ReadPreference)
	}
	if opts.Retry.MaxAttempts < 1 {
		opts.Retry.MaxAttempts = 1
	}
	if opts.Retry.Sleep == nil {
		opts.Retry.Sleep = sleepCtx
	}
	f := opts.Retry.Float
	if f == nil {
		f = lockedFloat(seed)
	}
	return &Executor{client: client, db: client.Database(name, dbo), opts: opts, scale: scale, float: f}
}

// Counts returns the retries, aborts, rollbacks and failures of type t
// so far.
func (e *Executor) Counts(t Type) Counts { return e.counts.Of(t) }

func (e *Executor) coll(name string) *mongo.Collection { return e.db.Collection(name) }

// inTransaction runs fn in a multi-document transaction, retrying it
// whole on TransientTransactionError and its commit on
// UnknownTransactionCommitResult within the retry policy; without
// transactions it runs fn once, on a causally consistent session if asked.
func (e *Executor) inTransaction(ctx context.Context, t Type, fn func(context.Context) error) error {
	c := &e.counts.c[t]
	err := e.transaction(ctx, t, fn)
	switch {
	case err == nil:
	case errors.Is(err, ErrRollback):
		c.rollbacks.Add(1)
	default:
		c.failures.Add(1)
	}
	return err
}

func (e *Executor) transaction(ctx context.Context, t Type, fn func(context.Context) error) error {
	c := &e.counts.c[t]
	if e.opts.NoTransactions {
		if !e.opts.Causal {
			return fn(ctx)
		}
		sess, err := e.client.StartSession(options.Session().SetCausalConsistency(true))
		if err != nil {
			return fmt.Errorf("tpcc: start a session: %w", err)
		}
		defer sess.EndSession(context.WithoutCancel(ctx))
		return fn(mongo.NewSessionContext(ctx, sess))
	}
	to := options.Transaction().SetReadPreference(readpref.Primary())
	if e.opts.WriteConcern != nil {
		to.SetWriteConcern(e.opts.WriteConcern)
	}
	if e.opts.ReadConcern != nil {
		to.SetReadConcern(e.opts.ReadConcern)
	}
	sess, err := e.client.StartSession(options.Session().SetCausalConsistency(e.opts.Causal).SetDefaultTransactionOptions(to))
	if err != nil {
		return fmt.Errorf("tpcc: start a session: %w", err)
	}
	defer sess.EndSession(context.WithoutCancel(ctx))
	p := e.opts.Retry
	for attempt := 1; ; attempt++ {
		if err := sess.StartTransaction(); err != nil {
			return fmt.Errorf("tpcc: start a transaction: %w", err)
		}
		sc := mongo.NewSessionContext(ctx, sess)
		err := fn(sc)
		if err != nil {
			// The abort's own failure changes nothing: the server drops
			// the transaction when it times out anyway.
			_ = sess.AbortTransaction(context.WithoutCancel(ctx))
			if errors.Is(err, ErrRollback) {
				return err
			}
			c.aborts.Add(1)
			if !hasLabel(err, LabelTransient) || attempt >= p.MaxAttempts {
				return err
			}
			c.retries.Add(1)
			if err := p.Sleep(ctx, p.backoff(attempt, e.float)); err != nil {
				return err
			}
			continue
		}
		err = e.commit(ctx, sess, c)
		if err == nil {
			return nil
		}
		if !hasLabel(err, LabelTransient) || attempt >= p.MaxAttempts {
			return err
		}
		c.retries.Add(1)
		if err := p.Sleep(ctx, p.backoff(attempt, e.float)); err != nil {
			return err
		}
	}
}

// commit commits, sending the commit again while its result is unknown.
func (e *Executor) commit(ctx context.Context, sess *mongo.Session, c *typeCounters) error {
	p := e.opts.Retry
	for n := 1; ; n++ {
		err := sess.CommitTransaction(ctx)
		if err == nil || !hasLabel(err, LabelUnknownCommit) || n >= p.MaxAttempts {
			if err != nil && hasLabel(err, LabelTransient) {
				c.aborts.Add(1)
			}
			return err
		}
		c.commitRetries.Add(1)
		if err := p.Sleep(ctx, p.backoff(n, e.float)); err != nil {
			return err
		}
	}
}

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
	cur, err := e.coll(CollItem).Find(ctx, bson.D{{Key: "I_ID", Value: bson.D{{Key: "$in", Value: p.Items}}}, {Key: "I_W_ID", Value: 0}},
		options.Find().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "I_ID", Value: 1}, {Key: "I_PRICE", Value: 1}, {Key: "I_NAME", Value: 1}, {Key: "I_DATA", Value: 1}}))
	if err != nil {
		return fmt.Errorf("NewOrder: find items: %w", err)
	}
	var items []itemRow
	if err := cur.All(ctx, &items); err != nil {
		return fmt.Errorf("NewOrder: read items: %w", err)
	}
	byID := make(map[int]itemRow, len(items))
	for _, it := range items {
		byID[it.ID] = it
	}
	for _, id := range p.Items {
		if _, ok := byID[id]; !ok {
			return ErrRollback
		}
	}

	var district struct {
		Tax    float64 `bson:"D_TAX"`
		NextID int     `bson:"D_NEXT_O_ID"`
	}
	dFilter := bson.D{{Key: "D_W_ID", Value: p.W}, {Key: "D_ID", Value: p.D}}
	dProj := bson.D{{Key: "_id", Value: 0}, {Key: "D_TAX", Value: 1}, {Key: "D_NEXT_O_ID", Value: 1}}
	inc := bson.D{{Key: "$inc", Value: bson.D{{Key: "D_NEXT_O_ID", Value: 1}}}}
	if e.opts.FindAndModify {
		if err := e.coll(CollDistrict).FindOneAndUpdate(ctx, dFilter, inc).Decode(&district); err != nil {
			return fmt.Errorf("NewOrder: district %d/%d: %w", p.W, p.D, err)
		}
	} else {
		if err := e.coll(CollDistrict).FindOne(ctx, dFilter, options.FindOne().SetProjection(dProj)).Decode(&district); err != nil {
			return fmt.Errorf("NewOrder: district %d/%d: %w", p.W, p.D, err)
		}
		// The id read is part of the filter: without a transaction, a
		// concurrent NewOrder that took it makes this one fail rather
		// than enter a second order under the same id.
		res, err := e.coll(CollDistrict).UpdateOne(ctx, append(dFilter, bson.E{Key: "D_NEXT_O_ID", Value: district.NextID}), inc)
		if err != nil {
			return fmt.Errorf("NewOrder: district %d/%d: %w", p.W, p.D, err)
		}
		if res.MatchedCount == 0 {
			return fmt.Errorf("NewOrder: district %d/%d: order id %d taken by a concurrent NewOrder", p.W, p.D, district.NextID)
		}
	}
	oid := district.NextID

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

	if _, err := e.coll(CollNewOrder).InsertOne(ctx, newOrderDoc(p.W, p.D, oid)); err != nil {
		return fmt.Errorf("NewOrder: insert new order: %w", err)
	}

	allLocal := 1
	for _, w := range p.SupplyW {
		if w != p.W {
			allLocal = 0
		}
	}
	distCol := stockDistColumn(p.D)
	sProj := bson.D{{Key: "_id", Value: 0}, {Key: "S_I_ID", Value: 1}, {Key: "S_W_ID", Value: 1}, {Key: "S_QUANTITY", Value: 1},
		{Key: "S_DATA", Value: 1}, {Key: "S_YTD", Value: 1}, {Key: "S_ORDER_CNT", Value: 1}, {Key: "S_REMOTE_CNT", Value: 1}, {Key: distCol, Value: 1}}
	var sFilter bson.D
	if allLocal == 1 {
		sFilter = bson.D{{Key: "S_W_ID", Value: p.W}, {Key: "S_I_ID", Value: bson.D{{Key: "$in", Value: p.Items}}}}
	} else {
		or := make(bson.A, len(p.Items))
		for i := range p.Items {
			or[i] = bson.D{{Key: "S_W_ID", Value: p.SupplyW[i]}, {Key: "S_I_ID", Value: p.Items[i]}}
		}
		sFilter = bson.D{{Key: "$or", Value: or}}
	}
	cur, err = e.coll(CollStock).Find(ctx, sFilter, options.Find().SetProjection(sProj))
	if err != nil {
		return fmt.Errorf("NewOrder: find stock: %w", err)
	}
	stock := map[[2]int]stockRow{}
	for cur.Next(ctx) {
		var s stockRow
		if err := cur.Decode(&s); err != nil {
			return fmt.Errorf("NewOrder: read stock: %w", err)
		}
		stock[[2]int{s.WID, s.IID}] = s
	}
	if err := cur.Err(); err != nil {
		return fmt.Errorf("NewOrder: read stock: %w", err)
	}
	_ = cur.Close(ctx)

	var (
		stockWrites []mongo.WriteModel
		lines       = make(bson.A, 0, len(p.Items))
		lineDocs    []any
	)
	for i, id := range p.Items {
		sw, qty := p.SupplyW[i], p.Quantities[i]
		s, ok := stock[[2]int{sw, id}]
		if !ok {
			return fmt.Errorf("NewOrder: no stock of item %d in warehouse %d", id, sw)
		}
		q := s.Quantity - qty
		if s.Quantity < qty+10 {
			q += 91
		}
		remote := s.RemoteCnt
		if sw != p.W {
			remote++
		}
		filter := bson.D{{Key: "S_W_ID", Value: sw}, {Key: "S_I_ID", Value: id}}
		update := bson.D{{Key: "$set", Value: bson.D{{Key: "S_QUANTITY", Value: q}, {Key: "S_YTD", Value: s.YTD + qty},
			{Key: "S_ORDER_CNT", Value: s.OrderCnt + 1}, {Key: "S_REMOTE_CNT", Value: remote}}}}
		if e.opts.BatchWrites {
			stockWrites = append(stockWrites, mongo.NewUpdateOneModel().SetFilter(filter).SetUpdate(update))
		} else if _, err := e.coll(CollStock).UpdateOne(ctx, filter, update); err != nil {
			return fmt.Errorf("NewOrder: update stock: %w", err)
		}
		amount := float64(qty) * byID[id].Price
		line := bson.D{{Key: "OL_NUMBER", Value: i + 1}, {Key: "OL_I_ID", Value: id}, {Key: "OL_SUPPLY_W_ID", Value: sw},
			{Key: "OL_DELIVERY_D", Value: nil}, {Key: "OL_QUANTITY", Value: qty}, {Key: "OL_AMOUNT", Value: amount},
			{Key: "OL_DIST_INFO", Value: distInfo(s, distCol)}}
		if e.opts.Normalized {
			line = append(bson.D{{Key: "OL_O_ID", Value: oid}, {Key: "OL_D_ID", Value: p.D}, {Key: "OL_W_ID", Value: p.W}}, line...)
			if e.opts.BatchWrites {
				lineDocs = append(lineDocs, line)
			} else if _, err := e.coll(CollOrderLine).InsertOne(ctx, line); err != nil {
				return fmt.Errorf("NewOrder: insert order line: %w", err)
			}
		} else {
			lines = append(lines, line)
		}
	}
	if len(lineDocs) > 0 {
		if _, err := e.coll(CollOrderLine).InsertMany(ctx, lineDocs); err != nil {
			return fmt.Errorf("NewOrder: insert order lines: %w", err)
		}
	}
	if len(stockWrites) > 0 {
		if _, err := e.coll(CollStock).BulkWrite(ctx, stockWrites); err != nil {
			return fmt.Errorf("NewOrder: update stock: %w", err)
		}
	}
	order := bson.D{
		{Key: "O_ID", Value: oid}, {Key: "O_C_ID", Value: p.C}, {Key: "O_D_ID", Value: p.D}, {Key: "O_W_ID", Value: p.W},
		{Key: "O_ENTRY_D", Value: p.EntryDate}, {Key: "O_CARRIER_ID", Value: 0},
		{Key: "O_OL_CNT", Value: len(p.Items)}, {Key: "O_ALL_LOCAL", Value: allLocal},
	}
	if !e.opts.Normalized {
		order = append(order, bson.E{Key: CollOrderLine, Value: lines})
	}
	if _, err := e.coll(CollOrders).InsertOne(ctx, order); err != nil {
		return fmt.Errorf("NewOrder: insert order: %w", err)
	}
	return nil
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

// PaymentParams are a Payment's inputs (clause 2.5.1): the customer by id,
// or by last name when CLast is set.
type PaymentParams struct {
	W, D, CW, CD, C int
	CLast           string
	Amount          float64
	Date            time.Time
}

type customerRow struct {
	ID     int    `bson:"C_ID"`
	Credit string `bson:"C_CREDIT"`
	Data   string `bson:"C_DATA"`
}

// findCustomer finds a customer by id, or by last name the one in the
// middle of those of that name ordered by first name (clause 2.5.2.2).
func (e *Executor) findCustomer(ctx context.Context, w, d, c int, last string, proj bson.D, out any) error {
	filter := bson.D{{Key: "C_W_ID", Value: w}, {Key: "C_D_ID", Value: d}}
	if last == "" {
		filter = append(filter, bson.E{Key: "C_ID", Value: c})
		return e.coll(CollCustomer).FindOne(ctx, filter, options.FindOne().SetProjection(proj)).Decode(out)
	}
	filter = append(filter, bson.E{Key: "C_LAST", Value: last})
	cur, err := e.coll(CollCustomer).Find(ctx, filter, options.Find().SetProjection(proj).SetSort(bson.D{{Key: "C_FIRST", Value: 1}}))
	if err != nil {
		return err
	}
	var all []bson.Raw
	if err := cur.All(ctx, &all); err != nil {
		return err
	}
	if len(all) == 0 {
		return fmt.Errorf("no customer named %s in district %d/%d", last, w, d)
	}
	return bson.Unmarshal(all[(len(all)-1)/2], out)
}

// Payment records a customer's payment (clause 2.5).
func (e *Executor) Payment(ctx context.Context, p PaymentParams) error {
	return e.inTransaction(ctx, Payment, func(ctx context.Context) error { return e.payment(ctx, p) })
}

func (e *Executor) payment(ctx context.Context, p PaymentParams) error {
	var district struct {
		Name string `bson:"D_NAME"`
	}
	dFilter := bson.D{{Key: "D_W_ID", Value: p.W}, {Key: "D_ID", Value: p.D}}
	addr := func(prefix string) bson.D {
		d := bson.D{{Key: "_id", Value: 0}, {Key: prefix + "NAME", Value: 1}}
		for _, f := range []string{"STREET_1", "STREET_2", "CITY", "STATE", "ZIP"} {
			d = append(d, bson.E{Key: prefix + f, Value: 1})
		}
		return d
	}
	if err := e.findAndInc(ctx, CollDistrict, dFilter, "D_YTD", p.Amount, addr("D_"), &district); err != nil {
		return fmt.Errorf("Payment: district %d/%d: %w", p.W, p.D, err)
	}
	var warehouse struct {
		Name string `bson:"W_NAME"`
	}
	if err := e.findAndInc(ctx, CollWarehouse, bson.D{{Key: "W_ID", Value: p.W}}, "W_YTD", p.Amount, addr("W_"), &warehouse); err != nil {
		return fmt.Errorf("Payment: warehouse %d: %w", p.W, err)
	}
	var c customerRow
	proj := bson.D{{Key: "_id", Value: 0}, {Key: "C_ID", Value: 1}, {Key: "C_FIRST", Value: 1}, {Key: "C_CREDIT", Value: 1}, {Key: "C_DATA", Value: 1}, {Key: "C_BALANCE", Value: 1}}
	if err := e.findCustomer(ctx, p.CW, p.CD, p.C, p.CLast, proj, &c); err != nil {
		return fmt.Errorf("Payment: customer: %w", err)
	}
	update := bson.D{{Key: "$inc", Value: bson.D{{Key: "C_BALANCE", Value: -p.Amount}, {Key: "C_YTD_PAYMENT", Value: p.Amount}, {Key: "C_PAYMENT_CNT", Value: 1}}}}
	if c.Credit == badCredit {
		data := fmt.Sprintf("%d %d %d %d %d %.2f|%s", c.ID, p.CD, p.CW, p.D, p.W, p.Amount, c.Data)
		if len(data) > maxCustomerData {
			data = data[:maxCustomerData]
		}
		update = append(update, bson.E{Key: "$set", Value: bson.D{{Key: "C_DATA", Value: data}}})
	}
	if _, err := e.coll(CollCustomer).UpdateOne(ctx, bson.D{{Key: "C_W_ID", Value: p.CW}, {Key: "C_D_ID", Value: p.CD}, {Key: "C_ID", Value: c.ID}}, update); err != nil {
		return fmt.Errorf("Payment: update customer: %w", err)
	}
	h := bson.D{
		{Key: "H_C_ID", Value: c.ID}, {Key: "H_C_D_ID", Value: p.CD}, {Key: "H_C_W_ID", Value: p.CW},
		{Key: "H_D_ID", Value: p.D}, {Key: "H_W_ID", Value: p.W}, {Key: "H_DATE", Value: p.Date},
		{Key: "H_AMOUNT", Value: p.Amount}, {Key: "H_DATA", Value: warehouse.Name + "    " + district.Name},
	}
	if _, err := e.coll(CollHistory).InsertOne(ctx, h); err != nil {
		return fmt.Errorf("Payment: insert history: %w", err)
	}
	return nil
}

// findAndInc reads a document and adds amount to one of its fields, in
// one findAndModify or as a find then an update.
func (e *Executor) findAndInc(ctx context.Context, coll string, filter bson.D, field string, amount float64, proj bson.D, out any) error {
	inc := bson.D{{Key: "$inc", Value: bson.D{{Key: field, Value: amount}}}}
	if e.opts.FindAndModify {
		return e.coll(coll).FindOneAndUpdate(ctx, filter, inc).Decode(out)
	}
	if err := e.coll(coll).FindOne(ctx, filter, options.FindOne().SetProjection(proj)).Decode(out); err != nil {
		return err
	}
	_, err := e.coll(coll).UpdateOne(ctx, filter, inc)
	return err
}

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
