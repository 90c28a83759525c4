package tpcc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
	"github.com/mongobench/mongobench/internal/partition"
	"github.com/mongobench/mongobench/internal/results"
)

// The loader, the non-transactional mode and the checks run against the
// embedded server, a real MongoDB-compatible server; it has no
// multi-document transactions, so the transactional mode is tested
// against the null server (transactions_test.go).
func TestMain(m *testing.M) { embeddedtest.Main(m) }

var dbCounter atomic.Int64

func embeddedDB(t *testing.T) (*mongo.Client, string) {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(embeddedtest.Server().URI()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return client, fmt.Sprintf("tpcc%d", dbCounter.Add(1))
}

// testScale is small enough for the embedded server in a test: two
// warehouses, so that remote lines and payments happen.
var testScale = Scale{Warehouses: 2, Items: 200, Customers: 30}

func countDocs(t *testing.T, db *mongo.Database, coll string) int64 {
	t.Helper()
	n, err := db.Collection(coll).CountDocuments(context.Background(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func loadForTest(t *testing.T, client *mongo.Client, name string, normalized bool) {
	t.Helper()
	ctx := context.Background()
	db := client.Database(name)
	if err := CreateSchema(ctx, db, normalized); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	defer func() { t.Logf("loaded in %v", time.Since(began).Round(time.Millisecond)) }()
	stats, err := Load(ctx, db, LoadConfig{Scale: testScale, Seed: 42, Normalized: normalized, Items: true, Parallel: 2, BatchSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	s := testScale
	districts := int64(s.Warehouses * DistrictsPerWarehouse)
	want := map[string]int64{
		CollItem: int64(s.Items), CollWarehouse: int64(s.Warehouses), CollDistrict: districts,
		CollCustomer: districts * int64(s.Customers), CollHistory: districts * int64(s.Customers),
		CollOrders: districts * int64(s.Customers), CollNewOrder: districts * int64(s.NewOrdersPerDistrict()),
		CollStock: int64(s.Warehouses * s.Items),
	}
	for coll, n := range want {
		if got := countDocs(t, db, coll); got != n {
			t.Errorf("%s holds %d documents, want %d", coll, got, n)
		}
		if stats.Docs[coll] != n {
			t.Errorf("the load counted %d documents of %s, want %d", stats.Docs[coll], coll, n)
		}
	}
}

func checkAll(t *testing.T, db *mongo.Database, normalized bool, when string) {
	t.Helper()
	conds, err := Check(context.Background(), db, normalized, WarehouseRange{1, testScale.Warehouses})
	if err != nil {
		t.Fatal(err)
	}
	if len(conds) != 4 {
		t.Fatalf("%d conditions checked, want 4", len(conds))
	}
	for _, c := range conds {
		wantChecked := testScale.Warehouses * DistrictsPerWarehouse
		if c.Number == 1 {
			wantChecked = testScale.Warehouses
		}
		if !c.OK() || c.Checked != wantChecked {
			t.Errorf("%s: condition %d (%s): checked %d (want %d), failed %d: %v", when, c.Number, c.Text, c.Checked, wantChecked, c.Failed, c.Examples)
		}
	}
}

// TestLoadRunCheck loads, runs the mix on one worker without
// transactions and checks that the consistency conditions hold before and
// after, and that the figures match what the database shows.
func TestLoadRunCheck(t *testing.T) {
	client, name := embeddedDB(t)
	opts := DefaultOptions()
	opts.NoTransactions, opts.LinePaths = true, true
	loadForTest(t, client, name, false)
	db := client.Database(name)
	checkAll(t, db, false, "after the load")
	ordersBefore, historyBefore, newOrdersBefore := countDocs(t, db, CollOrders), countDocs(t, db, CollHistory), countDocs(t, db, CollNewOrder)

	began := time.Now()
	ph, err := NewPhaseRunner(client, name, PhaseSettings{Scale: testScale, LoadSeed: 42, Options: opts, Check: true}, 7)
	if err != nil {
		t.Fatal(err)
	}
	exec := ph.exec
	// Long enough that every type is drawn at this seed (checked below).
	const n = 60
	rec := runPhase(t, ph, 1, n, 7)
	if len(rec.errs) > 0 {
		t.Fatalf("a transaction failed: %v", rec.errs[0])
	}
	if rec.total() != n || rec.parts != 0 {
		t.Errorf("recorded %d transactions and %d parts, want %d and none", rec.total(), rec.parts, n)
	}
	for ty := range NumTypes {
		if rec.ok[OpNames[ty]] == 0 {
			t.Errorf("%s never ran", OpNames[ty])
		}
	}
	// A rolled-back NewOrder is recorded OK; it enters no order.
	rolledBack := exec.Counts(NewOrder).Rollbacks
	committed := rec.ok["NewOrder"] - rolledBack
	if got := countDocs(t, db, CollOrders) - ordersBefore; got != committed {
		t.Errorf("%d orders entered, the run counts %d committed NewOrders", got, committed)
	}
	if got := countDocs(t, db, CollHistory) - historyBefore; got != rec.ok["Payment"] {
		t.Errorf("%d payments in HISTORY, the run counts %d", got, rec.ok["Payment"])
	}
	// Each Delivery takes one new order from each district: all have
	// some left at this length of run.
	delivered := newOrdersBefore + committed - countDocs(t, db, CollNewOrder)
	if want := rec.ok["Delivery"] * DistrictsPerWarehouse; delivered != want {
		t.Errorf("%d new orders delivered, want %d (10 per Delivery)", delivered, want)
	}
	// Finish: tpmC from the results' NewOrders, the counts, the check.
	res := &results.Results{RuntimeMs: 30000, Status: map[string]map[string]int64{"NewOrder": {"OK": rec.ok["NewOrder"]}}}
	if err := ph.Finish(context.Background(), res); err != nil {
		t.Fatal(err)
	}
	sec := res.Extra.TPCC
	if want := float64(committed) * 2; sec.TpmC != want {
		t.Errorf("tpmC %v, want %v (%d committed in 30 s)", sec.TpmC, want, committed)
	}
	if len(sec.Transactions) != int(NumTypes) || sec.Transactions[NewOrder].RolledBack != rolledBack || sec.Warehouses != 2 || sec.Standard {
		t.Errorf("section %+v", sec)
	}
	if len(sec.Check) != 4 {
		t.Errorf("check %+v, want 4 conditions", sec.Check)
	}
	for _, c := range sec.Check {
		if c.Failed != 0 || c.Checked == 0 {
			t.Errorf("condition %d after the run: %+v", c.Number, c)
		}
	}
	// A broken condition is a CheckError, with the section complete.
	if _, err := db.Collection(CollWarehouse).UpdateOne(context.Background(), bson.D{{Key: "W_ID", Value: 2}}, bson.D{{Key: "$inc", Value: bson.D{{Key: "W_YTD", Value: 5.0}}}}); err != nil {
		t.Fatal(err)
	}
	res = &results.Results{RuntimeMs: 1}
	var ce *CheckError
	if err := ph.Finish(context.Background(), res); !errors.As(err, &ce) || !slices.Equal(ce.Broken, []int{1}) || res.Extra.TPCC.Check[0].Failed != 1 {
		t.Errorf("after W_YTD changed: %v, %+v", err, res.Extra.TPCC)
	}
	if _, err := db.Collection(CollWarehouse).UpdateOne(context.Background(), bson.D{{Key: "W_ID", Value: 2}}, bson.D{{Key: "$inc", Value: bson.D{{Key: "W_YTD", Value: -5.0}}}}); err != nil {
		t.Fatal(err)
	}
	// A run told not to check, or cut short, is not checked.
	for _, tc := range []struct {
		check, partial bool
	}{{false, false}, {true, true}} {
		p := *ph
		p.settings.Check = tc.check
		res = &results.Results{RuntimeMs: 1, Partial: tc.partial}
		if err := p.Finish(context.Background(), res); err != nil || res.Extra.TPCC.Check != nil {
			t.Errorf("check %v partial %v: %v, %+v", tc.check, tc.partial, err, res.Extra.TPCC.Check)
		}
	}
	t.Logf("ran in %v", time.Since(began).Round(time.Millisecond))
	checkAll(t, db, false, "after the run")
}

// TestVariants runs each transaction of each layout and option (one by
// one, since the embedded server takes seconds per Delivery) and checks
// what they wrote.
func TestVariants(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts func(*Options)
	}{
		{"find-update-unbatched", func(o *Options) { o.FindAndModify, o.BatchWrites = false, false }},
		{"normalized", func(o *Options) { o.Normalized = true }},
		{"normalized-find-update-unbatched-per-district", func(o *Options) {
			o.Normalized, o.FindAndModify, o.BatchWrites, o.DeliveryPerDistrict = true, false, false, true
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			client, name := embeddedDB(t)
			opts := DefaultOptions()
			opts.NoTransactions, opts.LinePaths = true, true
			tc.opts(&opts)
			loadForTest(t, client, name, opts.Normalized)
			db := client.Database(name)
			exec := NewExecutor(client, name, testScale, opts, 7)
			orders, history, newOrders := countDocs(t, db, CollOrders), countDocs(t, db, CollHistory), countDocs(t, db, CollNewOrder)
			date := LoadDate.Add(time.Hour)
			steps := []struct {
				name string
				run  func() error
			}{
				// The fourth line comes from warehouse 2: the stock is
				// found with $or.
				{"NewOrder", func() error {
					return exec.NewOrder(ctx, NewOrderParams{W: 1, D: 3, C: 7, Items: []int{5, 6, 7, 8, 9}, SupplyW: []int{1, 1, 1, 2, 1}, Quantities: []int{1, 2, 3, 4, 5}, EntryDate: date})
				}},
				{"NewOrder all local", func() error {
					return exec.NewOrder(ctx, NewOrderParams{W: 2, D: 3, C: 8, Items: []int{10, 11, 12, 13, 14}, SupplyW: []int{2, 2, 2, 2, 2}, Quantities: []int{5, 5, 5, 5, 5}, EntryDate: date})
				}},
				{"Payment by id", func() error {
					return exec.Payment(ctx, PaymentParams{W: 1, D: 3, CW: 2, CD: 4, C: 9, Amount: 12.5, Date: date})
				}},
				{"Payment by last name", func() error {
					return exec.Payment(ctx, PaymentParams{W: 1, D: 3, CW: 1, CD: 3, CLast: LastName(2), Amount: 99.99, Date: date})
				}},
				{"OrderStatus by id", func() error { return exec.OrderStatus(ctx, OrderStatusParams{W: 1, D: 3, C: 7}) }},
				{"OrderStatus by last name", func() error { return exec.OrderStatus(ctx, OrderStatusParams{W: 1, D: 2, CLast: LastName(0)}) }},
				{"Delivery", func() error { return exec.Delivery(ctx, DeliveryParams{W: 1, Carrier: 4, Date: date}) }},
				{"StockLevel", func() error { _, err := exec.StockLevel(ctx, StockLevelParams{W: 1, D: 3, Threshold: 15}); return err }},
			}
			for _, s := range steps {
				if err := s.run(); err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
			}
			err := exec.NewOrder(ctx, NewOrderParams{W: 1, D: 3, C: 7, Items: []int{5, testScale.Items + 1}, SupplyW: []int{1, 1}, Quantities: []int{1, 1}, EntryDate: date})
			if !errors.Is(err, ErrRollback) {
				t.Fatalf("NewOrder of an unused item: %v, want the rollback", err)
			}
			if c := exec.Counts(NewOrder); c.Rollbacks != 1 || c.Failures != 0 {
				t.Errorf("NewOrder counts %+v, want 1 rollback and no failure", c)
			}
			if got := countDocs(t, db, CollOrders) - orders; got != 2 {
				t.Errorf("%d orders entered, want 2", got)
			}
			if got := countDocs(t, db, CollHistory) - history; got != 2 {
				t.Errorf("%d payments in HISTORY, want 2", got)
			}
			if got := newOrders + 2 - countDocs(t, db, CollNewOrder); got != DistrictsPerWarehouse {
				t.Errorf("%d new orders delivered, want %d", got, DistrictsPerWarehouse)
			}
			checkDelivered(t, db, opts.Normalized, date)
			checkAll(t, db, opts.Normalized, "after the transactions")
		})
	}
}

// checkDelivered checks that the Delivery set the carrier and the lines'
// delivery date of the oldest new order of warehouse 1's district 1.
func checkDelivered(t *testing.T, db *mongo.Database, normalized bool, date time.Time) {
	t.Helper()
	ctx := context.Background()
	oid := testScale.Customers - testScale.NewOrdersPerDistrict() + 1
	type line struct {
		Number   int        `bson:"OL_NUMBER"`
		Delivery *time.Time `bson:"OL_DELIVERY_D"`
	}
	var order struct {
		Carrier int    `bson:"O_CARRIER_ID"`
		Lines   []line `bson:"ORDER_LINE"`
	}
	if err := db.Collection(CollOrders).FindOne(ctx, bson.D{{Key: "O_W_ID", Value: 1}, {Key: "O_D_ID", Value: 1}, {Key: "O_ID", Value: oid}}).Decode(&order); err != nil {
		t.Fatal(err)
	}
	if order.Carrier != 4 {
		t.Errorf("order %d: O_CARRIER_ID %d, want 4", oid, order.Carrier)
	}
	lines := order.Lines
	if normalized {
		cur, err := db.Collection(CollOrderLine).Find(ctx, bson.D{{Key: "OL_W_ID", Value: 1}, {Key: "OL_D_ID", Value: 1}, {Key: "OL_O_ID", Value: oid}})
		if err != nil {
			t.Fatal(err)
		}
		if err := cur.All(ctx, &lines); err != nil {
			t.Fatal(err)
		}
	}
	if len(lines) < minOrderLines {
		t.Fatalf("order %d has %d lines", oid, len(lines))
	}
	for _, l := range lines {
		if l.Delivery == nil || !l.Delivery.Equal(date) {
			t.Errorf("order %d line %d: OL_DELIVERY_D %v, want %v", oid, l.Number, l.Delivery, date)
		}
	}
}

// TestPartitionedLoadEqualsWhole loads the warehouses in two parts, as two
// client processes would, and in one: the databases hold the same
// documents (but for the _id the server gives each).
func TestPartitionedLoadEqualsWhole(t *testing.T) {
	ctx := context.Background()
	client, whole := embeddedDB(t)
	_, parted := embeddedDB(t)
	scale := Scale{Warehouses: 2, Items: 100, Customers: 10}
	if _, err := Load(ctx, client.Database(whole), LoadConfig{Scale: scale, Seed: 3, Items: true, Parallel: 2}); err != nil {
		t.Fatal(err)
	}
	for part := range 2 {
		rng, err := PartRange(partition.Part{Index: part, Count: 2}, scale.Warehouses)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Load(ctx, client.Database(parted), LoadConfig{Scale: scale, Seed: 3, Range: rng, Items: part == 0, Parallel: 1, BatchSize: 7}); err != nil {
			t.Fatal(err)
		}
	}
	dump := func(name, coll string) []string {
		cur, err := client.Database(name).Collection(coll).Find(ctx, bson.D{}, options.Find().SetProjection(bson.D{{Key: "_id", Value: 0}}))
		if err != nil {
			t.Fatal(err)
		}
		var docs []bson.Raw
		if err := cur.All(ctx, &docs); err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(docs))
		for i, d := range docs {
			out[i] = d.String()
		}
		slices.Sort(out)
		return out
	}
	for _, coll := range Collections(false) {
		a, b := dump(whole, coll), dump(parted, coll)
		if len(a) == 0 || !slices.Equal(a, b) {
			t.Errorf("%s: the whole load wrote %d documents, the two parts %d, not the same", coll, len(a), len(b))
		}
	}
}

// TestCutShortRunsOn: without transactions, a transaction whose phase
// has ended (its context cancelled) runs on to its end rather than leave
// its district half-written, so the conditions still hold.
func TestCutShortRunsOn(t *testing.T) {
	client, name := embeddedDB(t)
	loadForTest(t, client, name, false)
	opts := DefaultOptions()
	opts.NoTransactions, opts.LinePaths = true, true
	ph, err := NewPhaseRunner(client, name, PhaseSettings{Scale: testScale, LoadSeed: 42, Options: opts}, 9)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := newOpRecorder()
	w := ph.NewWorker(0, 9)
	for slot := range 6 {
		w.Do(ctx, int64(slot), rec)
	}
	if len(rec.errs) > 0 || rec.total() != 6 {
		t.Fatalf("%d recorded, errors %v; want 6 that ran to their end", rec.total(), rec.errs)
	}
	checkAll(t, client.Database(name), false, "after transactions ran past their phase's end")
}

// TestConnectURLMinPoolSize: a minPoolSize in the URL above the pool
// mongobench would choose raises the pool's maximum to it, rather than
// having the driver refuse the pair.
func TestConnectURLMinPoolSize(t *testing.T) {
	client, err := Connect(context.Background(), embeddedtest.Server().URI()+"tpccpool?minPoolSize=150", 1)
	if err != nil {
		t.Fatalf("minPoolSize=150 at 1 thread: %v", err)
	}
	_ = client.Disconnect(context.Background())
}
