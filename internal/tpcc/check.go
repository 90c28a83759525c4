package tpcc

import (
	"context"
	"fmt"
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Condition is the result of one consistency condition of clause 3.3.2
// over the warehouses checked.
type Condition struct {
	Number int
	Text   string
	// Checked is the number of warehouses (condition 1) or districts
	// (2 to 4) it was checked on; Failed how many broke it.
	Checked, Failed int
	// Examples describe the first few that broke it.
	Examples []string
}

// OK reports whether the condition held everywhere it was checked.
func (c Condition) OK() bool { return c.Failed == 0 && c.Checked > 0 }

const maxExamples = 5

func (c *Condition) fail(format string, args ...any) {
	c.Failed++
	if len(c.Examples) < maxExamples {
		c.Examples = append(c.Examples, fmt.Sprintf(format, args...))
	}
}

// moneyTolerance absorbs the rounding of sums of binary floating-point
// amounts; a real inconsistency is a whole payment of at least 1.00.
const moneyTolerance = 0.01

// Check evaluates consistency conditions 1 to 4 on the warehouses of rng
// (clause 3.3.2.1–3.3.2.4). They hold after a load, and after any run
// whose transactions were atomic: a run without transactions keeps them
// only with one worker. An error is a failure to read, not a broken
// condition.
func Check(ctx context.Context, db *mongo.Database, normalized bool, rng WarehouseRange) ([]Condition, error) {
	conds := []Condition{
		{Number: 1, Text: "W_YTD = sum(D_YTD) of the warehouse's districts"},
		{Number: 2, Text: "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) in each district"},
		{Number: 3, Text: "max(NO_O_ID) - min(NO_O_ID) + 1 = number of NEW_ORDER rows in each district"},
		{Number: 4, Text: "sum(O_OL_CNT) = number of order lines in each district"},
	}
	for w := rng.First; w <= rng.Last; w++ {
		var wh struct {
			YTD float64 `bson:"W_YTD"`
		}
		if err := db.Collection(CollWarehouse).FindOne(ctx, bson.D{{Key: "W_ID", Value: w}}).Decode(&wh); err != nil {
			return nil, fmt.Errorf("tpcc check: warehouse %d: %w", w, err)
		}
		cur, err := db.Collection(CollDistrict).Find(ctx, bson.D{{Key: "D_W_ID", Value: w}})
		if err != nil {
			return nil, fmt.Errorf("tpcc check: districts of warehouse %d: %w", w, err)
		}
		var districts []districtRow
		if err := cur.All(ctx, &districts); err != nil {
			return nil, fmt.Errorf("tpcc check: districts of warehouse %d: %w", w, err)
		}
		sum := 0.0
		for _, d := range districts {
			sum += d.YTD
		}
		conds[0].Checked++
		if len(districts) != DistrictsPerWarehouse || math.Abs(wh.YTD-sum) > moneyTolerance {
			conds[0].fail("warehouse %d: W_YTD %.2f, sum of %d districts' D_YTD %.2f", w, wh.YTD, len(districts), sum)
		}
		if err := checkDistricts(ctx, db, normalized, w, districts, conds[1:]); err != nil {
			return nil, err
		}
	}
	return conds, nil
}

// districtFacts are what conditions 2 to 4 compare, for one district.
type districtFacts struct {
	maxOID, maxNO, minNO int
	anyOrder, anyNO      bool
	nNO, olCnt, lines    int64
}

// checkDistricts checks conditions 2 to 4 on a warehouse's districts from
// one read of its orders, new orders and order lines: a server without
// secondary indexes (the embedded one) scans a collection per query, and
// one scan per warehouse is fewer than five per district.
func checkDistricts(ctx context.Context, db *mongo.Database, normalized bool, w int, districts []districtRow, conds []Condition) error {
	facts := map[int]*districtFacts{}
	for _, d := range districts {
		facts[d.ID] = &districtFacts{}
	}
	get := func(d int) *districtFacts {
		f, ok := facts[d]
		if !ok {
			f = &districtFacts{}
			facts[d] = f
		}
		return f
	}
	proj := bson.D{{Key: "_id", Value: 0}, {Key: "O_D_ID", Value: 1}, {Key: "O_ID", Value: 1}, {Key: "O_OL_CNT", Value: 1}}
	if !normalized {
		proj = append(proj, bson.E{Key: "ORDER_LINE.OL_NUMBER", Value: 1})
	}
	err := scan(ctx, db.Collection(CollOrders), bson.D{{Key: "O_W_ID", Value: w}}, proj, func(doc bson.Raw) {
		f := get(intField(doc, "O_D_ID"))
		if o := intField(doc, "O_ID"); !f.anyOrder || o > f.maxOID {
			f.maxOID, f.anyOrder = o, true
		}
		f.olCnt += int64(intField(doc, "O_OL_CNT"))
		if !normalized {
			if arr, ok := doc.Lookup(CollOrderLine).ArrayOK(); ok {
				vals, _ := arr.Values()
				f.lines += int64(len(vals))
			}
		}
	})
	if err != nil {
		return err
	}
	err = scan(ctx, db.Collection(CollNewOrder), bson.D{{Key: "NO_W_ID", Value: w}}, bson.D{{Key: "_id", Value: 0}, {Key: "NO_D_ID", Value: 1}, {Key: "NO_O_ID", Value: 1}}, func(doc bson.Raw) {
		f := get(intField(doc, "NO_D_ID"))
		o := intField(doc, "NO_O_ID")
		if !f.anyNO || o > f.maxNO {
			f.maxNO = o
		}
		if !f.anyNO || o < f.minNO {
			f.minNO = o
		}
		f.anyNO = true
		f.nNO++
	})
	if err != nil {
		return err
	}
	if normalized {
		err = scan(ctx, db.Collection(CollOrderLine), bson.D{{Key: "OL_W_ID", Value: w}}, bson.D{{Key: "_id", Value: 0}, {Key: "OL_D_ID", Value: 1}}, func(doc bson.Raw) {
			get(intField(doc, "OL_D_ID")).lines++
		})
		if err != nil {
			return err
		}
	}
	for _, d := range districts {
		f := facts[d.ID]
		// Condition 2; with every new order delivered, max(NO_O_ID) is
		// undefined and only the first equality is checked.
		conds[0].Checked++
		if d.NextID-1 != f.maxOID || (f.anyNO && f.maxNO != f.maxOID) {
			conds[0].fail("district %d/%d: D_NEXT_O_ID - 1 = %d, max(O_ID) = %d, max(NO_O_ID) = %s", w, d.ID, d.NextID-1, f.maxOID, orNone(f.maxNO, f.anyNO))
		}
		conds[1].Checked++
		if f.anyNO && int64(f.maxNO-f.minNO+1) != f.nNO {
			conds[1].fail("district %d/%d: max(NO_O_ID) - min(NO_O_ID) + 1 = %d, NEW_ORDER rows %d", w, d.ID, f.maxNO-f.minNO+1, f.nNO)
		}
		conds[2].Checked++
		if f.olCnt != f.lines {
			conds[2].fail("district %d/%d: sum(O_OL_CNT) = %d, order lines %d", w, d.ID, f.olCnt, f.lines)
		}
	}
	return nil
}

func intField(doc bson.Raw, name string) int {
	n, _ := doc.Lookup(name).AsInt64OK()
	return int(n)
}

// scan calls fn on each document filter matches.
func scan(ctx context.Context, c *mongo.Collection, filter, proj bson.D, fn func(bson.Raw)) error {
	cur, err := c.Find(ctx, filter, options.Find().SetProjection(proj))
	if err != nil {
		return fmt.Errorf("tpcc check: read %s: %w", c.Name(), err)
	}
	defer cur.Close(ctx)
	for cur.Next(ctx) {
		fn(cur.Current)
	}
	if err := cur.Err(); err != nil {
		return fmt.Errorf("tpcc check: read %s: %w", c.Name(), err)
	}
	return nil
}

func orNone(v int, ok bool) string {
	if !ok {
		return "none"
	}
	return fmt.Sprint(v)
}

type districtRow struct {
	ID     int     `bson:"D_ID"`
	YTD    float64 `bson:"D_YTD"`
	NextID int     `bson:"D_NEXT_O_ID"`
}
