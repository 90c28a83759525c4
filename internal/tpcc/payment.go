package tpcc

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

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
