package tpcc

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	"go.mongodb.org/mongo-driver/v2/mongo/readconcern"
	"go.mongodb.org/mongo-driver/v2/mongo/writeconcern"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/nullserver"
)

// The transactional mode is tested against the null server in recording
// mode, behind a proxy that gives its replies a TPC-C shape: no server
// that runs in a test has multi-document transactions (the embedded one
// has none), and what matters here is what the driver is asked to send —
// the session, the transaction number, startTransaction and autocommit,
// the commit or the abort — and what the executor does with a server's
// error labels, which a fake can inject on cue.

const fakeItems = 1000

// fakeTPCC answers the reads of the transactions with documents that
// let them run to the end, and the commands named in fail with the
// errors queued there, one per command, in order.
type fakeTPCC struct {
	mu   sync.Mutex
	fail map[string][]bson.D
}

func field(d bson.D, key string) any {
	for _, e := range d {
		if e.Key == key {
			return e.Value
		}
	}
	return nil
}

func asInt(v any) int {
	switch n := v.(type) {
	case int32:
		return int(n)
	case int64:
		return int(n)
	case float64:
		return int(n)
	}
	return 0
}

func cursorReply(db, coll string, docs bson.A) bson.D {
	return bson.D{{Key: "cursor", Value: bson.D{{Key: "firstBatch", Value: docs}, {Key: "id", Value: int64(0)}, {Key: "ns", Value: db + "." + coll}}}, {Key: "ok", Value: 1.0}}
}

func (f *fakeTPCC) respond(cmd bson.D) bson.D {
	name := cmd[0].Key
	f.mu.Lock()
	if q := f.fail[name]; len(q) > 0 {
		f.fail[name] = q[1:]
		f.mu.Unlock()
		return q[0]
	}
	f.mu.Unlock()
	coll, _ := cmd[0].Value.(string)
	db, _ := field(cmd, "$db").(string)
	filter, _ := field(cmd, "filter").(bson.D)
	if name == "findAndModify" {
		filter, _ = field(cmd, "query").(bson.D)
	}
	switch name {
	case "find":
		var docs bson.A
		switch coll {
		case CollItem:
			in, _ := field(field(filter, "I_ID").(bson.D), "$in").(bson.A)
			for _, v := range in {
				if id := asInt(v); id <= fakeItems {
					docs = append(docs, bson.D{{Key: "I_ID", Value: id}, {Key: "I_NAME", Value: "item"}, {Key: "I_PRICE", Value: 2.5}, {Key: "I_DATA", Value: "xxORIGINALxx"}})
				}
			}
		case CollStock:
			stock := func(w, i int) bson.D {
				return bson.D{{Key: "S_I_ID", Value: i}, {Key: "S_W_ID", Value: w}, {Key: "S_QUANTITY", Value: 12}, {Key: "S_YTD", Value: 0},
					{Key: "S_ORDER_CNT", Value: 0}, {Key: "S_REMOTE_CNT", Value: 0}, {Key: "S_DATA", Value: "ORIGINAL"}, {Key: "S_DIST_03", Value: "dist03"}}
			}
			if or, ok := field(filter, "$or").(bson.A); ok {
				for _, c := range or {
					c := c.(bson.D)
					docs = append(docs, stock(asInt(field(c, "S_W_ID")), asInt(field(c, "S_I_ID"))))
				}
			} else {
				for _, v := range field(field(filter, "S_I_ID").(bson.D), "$in").(bson.A) {
					docs = append(docs, stock(asInt(field(filter, "S_W_ID")), asInt(v)))
				}
			}
		case CollWarehouse:
			docs = bson.A{bson.D{{Key: "W_TAX", Value: 0.05}, {Key: "W_NAME", Value: "wh"}}}
		case CollDistrict:
			docs = bson.A{bson.D{{Key: "D_TAX", Value: 0.1}, {Key: "D_NEXT_O_ID", Value: 3001}, {Key: "D_NAME", Value: "dist"}}}
		case CollCustomer:
			if field(filter, "C_LAST") != nil {
				for c := 1; c <= 3; c++ {
					docs = append(docs, bson.D{{Key: "C_ID", Value: c}, {Key: "C_CREDIT", Value: "GC"}, {Key: "C_DATA", Value: "data"}})
				}
			} else {
				docs = bson.A{bson.D{{Key: "C_ID", Value: asInt(field(filter, "C_ID"))}, {Key: "C_CREDIT", Value: "BC"}, {Key: "C_DATA", Value: "data"}, {Key: "C_DISCOUNT", Value: 0.1}}}
			}
		case CollOrders:
			docs = bson.A{bson.D{{Key: "O_ID", Value: 2990}, {Key: "O_C_ID", Value: 5}, {Key: CollOrderLine, Value: bson.A{bson.D{{Key: "OL_I_ID", Value: 1}, {Key: "OL_AMOUNT", Value: 1.5}}}}}}
		case CollNewOrder:
			docs = bson.A{bson.D{{Key: "NO_O_ID", Value: 2101}}}
		case CollOrderLine:
			docs = bson.A{bson.D{{Key: "OL_I_ID", Value: 1}, {Key: "OL_AMOUNT", Value: 1.5}}}
		}
		return cursorReply(db, coll, docs)
	case "findAndModify":
		var value bson.D
		switch coll {
		case CollDistrict:
			value = bson.D{{Key: "D_TAX", Value: 0.1}, {Key: "D_NEXT_O_ID", Value: 3001}, {Key: "D_NAME", Value: "dist"}}
		case CollWarehouse:
			value = bson.D{{Key: "W_TAX", Value: 0.05}, {Key: "W_NAME", Value: "wh"}}
		case CollNewOrder:
			value = bson.D{{Key: "NO_O_ID", Value: 2101}}
		case CollOrders:
			value = bson.D{{Key: "O_C_ID", Value: 5}, {Key: CollOrderLine, Value: bson.A{bson.D{{Key: "OL_AMOUNT", Value: 1.5}}, bson.D{{Key: "OL_AMOUNT", Value: 2.5}}}}}
		}
		return bson.D{{Key: "lastErrorObject", Value: bson.D{{Key: "n", Value: 1}, {Key: "updatedExisting", Value: true}}}, {Key: "value", Value: value}, {Key: "ok", Value: 1.0}}
	}
	return nil
}

// errorReply is a command's failure with error labels, as a server sends
// it.
func errorReply(code int, codeName string, labels ...string) bson.D {
	l := bson.A{}
	for _, s := range labels {
		l = append(l, s)
	}
	return bson.D{{Key: "ok", Value: 0.0}, {Key: "errmsg", Value: "injected " + codeName}, {Key: "code", Value: int32(code)}, {Key: "codeName", Value: codeName}, {Key: "errorLabels", Value: l}}
}

// fakeSleep records the waits asked for and returns at once.
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *fakeSleep) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

type harness struct {
	null  *nullserver.Server
	proxy *proxy
	exec  *Executor
	sleep *fakeSleep
}

func newHarness(t *testing.T, opts Options, fail map[string][]bson.D) *harness {
	t.Helper()
	null, err := nullserver.StartWith("127.0.0.1:0", nullserver.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = null.Close() })
	f := &fakeTPCC{fail: fail}
	p := startProxy(t, null.Addr(), f.respond)
	client, err := mongo.Connect(options.Client().ApplyURI(p.uri()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	s := &fakeSleep{}
	opts.Retry.Sleep = s.sleep
	opts.Retry.Float = func() float64 { return 0.5 }
	scale := Scale{Warehouses: 4, Items: fakeItems, Customers: DefaultCustomers}
	return &harness{null: null, proxy: p, exec: NewExecutor(client, "tpcc", scale, opts, 1), sleep: s}
}

var objectID = regexp.MustCompile(`\{"\$oid":"[0-9a-f]{24}"\}`)

// render writes the commands as the golden files keep them: one a line,
// "db.command {arguments}", the session as "lsid": "session N" in the
// order sessions first appear, without the cluster time the driver
// gossips.
func render(cmds []bson.D) string {
	sessions := map[string]int{}
	var b strings.Builder
	for _, cmd := range cmds {
		db, _ := field(cmd, "$db").(string)
		var out bson.D
		for _, e := range cmd {
			switch e.Key {
			case "$db", "$clusterTime":
				continue
			case "lsid":
				k := fmt.Sprint(e.Value)
				if _, ok := sessions[k]; !ok {
					sessions[k] = len(sessions) + 1
				}
				e.Value = fmt.Sprintf("session %d", sessions[k])
			}
			out = append(out, e)
		}
		j, err := bson.MarshalExtJSON(out, false, false)
		if err != nil {
			j = []byte(err.Error())
		}
		// The driver makes each inserted document's _id: random.
		j = objectID.ReplaceAll(j, []byte(`"ObjectId"`))
		fmt.Fprintf(&b, "%s.%s %s\n", db, cmd[0].Key, j)
	}
	return b.String()
}

// checkRecorded checks that the null server received the commands the
// proxy saw, in the same order: the golden files are what reached the
// server.
func (h *harness) checkRecorded(t *testing.T) []bson.D {
	t.Helper()
	cmds := h.proxy.Commands()
	var names, recorded []string
	for _, c := range cmds {
		names = append(names, c[0].Key)
	}
	for _, c := range h.null.Commands() {
		recorded = append(recorded, c.Name)
	}
	if strings.Join(names, " ") != strings.Join(recorded, " ") {
		t.Errorf("the null server recorded %v, the proxy forwarded %v", recorded, names)
	}
	return cmds
}

var testDate = time.Date(2019, time.March, 1, 12, 0, 0, 0, time.UTC)

func newOrderParams() NewOrderParams {
	// The third line comes from another warehouse.
	return NewOrderParams{W: 1, D: 3, C: 42, Items: []int{11, 22, 33}, SupplyW: []int{1, 1, 2}, Quantities: []int{1, 2, 3}, EntryDate: testDate}
}

func TestTransactionSequences(t *testing.T) {
	stockLevel := func(ctx context.Context, e *Executor) error {
		_, err := e.StockLevel(ctx, StockLevelParams{W: 1, D: 3, Threshold: 15})
		return err
	}
	for _, tc := range []struct {
		name    string
		opts    func(*Options)
		run     func(context.Context, *Executor) error
		wantErr error
	}{
		{"neworder", nil, func(ctx context.Context, e *Executor) error { return e.NewOrder(ctx, newOrderParams()) }, nil},
		{"neworder-rollback", nil, func(ctx context.Context, e *Executor) error {
			p := newOrderParams()
			p.Items[2] = fakeItems + 1
			return e.NewOrder(ctx, p)
		}, ErrRollback},
		{"neworder-find-update-unbatched-normalized", func(o *Options) { o.FindAndModify, o.BatchWrites, o.Normalized = false, false, true },
			func(ctx context.Context, e *Executor) error { return e.NewOrder(ctx, newOrderParams()) }, nil},
		{"payment-by-id", nil, func(ctx context.Context, e *Executor) error {
			return e.Payment(ctx, PaymentParams{W: 1, D: 3, CW: 2, CD: 5, C: 42, Amount: 12.5, Date: testDate})
		}, nil},
		{"payment-by-name-majority-snapshot-causal", func(o *Options) {
			o.WriteConcern, o.ReadConcern, o.Causal = writeconcern.Majority(), readconcern.Snapshot(), true
		}, func(ctx context.Context, e *Executor) error {
			return e.Payment(ctx, PaymentParams{W: 1, D: 3, CW: 1, CD: 3, CLast: "BARBARBAR", Amount: 12.5, Date: testDate})
		}, nil},
		{"orderstatus", nil, func(ctx context.Context, e *Executor) error {
			return e.OrderStatus(ctx, OrderStatusParams{W: 1, D: 3, C: 42})
		}, nil},
		{"delivery", nil, func(ctx context.Context, e *Executor) error {
			return e.Delivery(ctx, DeliveryParams{W: 1, Carrier: 7, Date: testDate})
		}, nil},
		{"delivery-per-district", func(o *Options) { o.DeliveryPerDistrict = true }, func(ctx context.Context, e *Executor) error {
			return e.Delivery(ctx, DeliveryParams{W: 1, Carrier: 7, Date: testDate})
		}, nil},
		{"stocklevel", nil, stockLevel, nil},
		{"neworder-no-transactions", func(o *Options) { o.NoTransactions = true }, func(ctx context.Context, e *Executor) error { return e.NewOrder(ctx, newOrderParams()) }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions()
			if tc.opts != nil {
				tc.opts(&opts)
			}
			h := newHarness(t, opts, nil)
			err := tc.run(context.Background(), h.exec)
			if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Fatalf("got %v, want %v", err, tc.wantErr)
			}
			golden.Check(t, "txn-"+tc.name+".golden", render(h.checkRecorded(t)))
		})
	}
}

func TestRetries(t *testing.T) {
	transient := errorReply(112, "WriteConflict", LabelTransient)
	unknown := errorReply(50, "MaxTimeMSExpired", LabelUnknownCommit)
	payment := func(ctx context.Context, e *Executor) error {
		return e.Payment(ctx, PaymentParams{W: 1, D: 3, CW: 1, CD: 3, C: 42, Amount: 12.5, Date: testDate})
	}
	for _, tc := range []struct {
		name       string
		fail       map[string][]bson.D
		maxAttempt int
		want       Counts
		wantWaits  []time.Duration
		wantErr    bool
	}{
		{"transient-statement", map[string][]bson.D{"findAndModify": {transient}}, 10,
			Counts{Retries: 1, Aborts: 1}, []time.Duration{2500 * time.Microsecond}, false},
		{"transient-commit", map[string][]bson.D{"commitTransaction": {transient}}, 10,
			Counts{Retries: 1, Aborts: 1}, []time.Duration{2500 * time.Microsecond}, false},
		{"unknown-commit", map[string][]bson.D{"commitTransaction": {unknown, unknown}}, 10,
			Counts{CommitRetries: 2}, []time.Duration{2500 * time.Microsecond, 5 * time.Millisecond}, false},
		// Transient every time: three attempts, waits doubling, then the
		// error.
		{"transient-bounded", map[string][]bson.D{"findAndModify": {transient, transient, transient, transient}}, 3,
			Counts{Retries: 2, Aborts: 3, Failures: 1}, []time.Duration{2500 * time.Microsecond, 5 * time.Millisecond}, true},
		// An error without a label is not retried.
		{"unlabelled", map[string][]bson.D{"findAndModify": {errorReply(2, "BadValue")}}, 10,
			Counts{Aborts: 1, Failures: 1}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.Retry.MaxAttempts = tc.maxAttempt
			h := newHarness(t, opts, tc.fail)
			err := payment(context.Background(), h.exec)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, tc.wantErr)
			}
			if got := h.exec.Counts(Payment); got != tc.want {
				t.Errorf("counts %+v, want %+v", got, tc.want)
			}
			if fmt.Sprint(h.sleep.waits) != fmt.Sprint(tc.wantWaits) {
				t.Errorf("waits %v, want %v", h.sleep.waits, tc.wantWaits)
			}
			golden.Check(t, "retry-"+tc.name+".golden", render(h.checkRecorded(t)))
		})
	}
}

func TestBackoff(t *testing.T) {
	p := RetryPolicy{Base: 5 * time.Millisecond, Max: 30 * time.Millisecond}
	for _, tc := range []struct {
		n    int
		f    float64
		want time.Duration
	}{
		{1, 0.5, 2500 * time.Microsecond},
		{2, 0.5, 5 * time.Millisecond},
		{3, 0.999, 19980 * time.Microsecond},
		{4, 1.0, 30 * time.Millisecond}, // capped: 40 ms > Max
		{9, 0.0, 0},
	} {
		if got := p.backoff(tc.n, func() float64 { return tc.f }); got != tc.want {
			t.Errorf("backoff(%d) at %v = %v, want %v", tc.n, tc.f, got, tc.want)
		}
	}
}

// TestRunTransactional runs the mix on several workers in transactions
// against the fake: every transaction ends, is recorded once, and none
// fails.
func TestRunTransactional(t *testing.T) {
	h := newHarness(t, DefaultOptions(), nil)
	scale := Scale{Warehouses: 4, Items: fakeItems, Customers: DefaultCustomers}
	p := testPhase(t, h.exec, PhaseSettings{Scale: scale, LoadSeed: 1, Options: DefaultOptions()})
	rec := runPhase(t, p, 4, 75, 2)
	if len(rec.errs) > 0 {
		t.Fatalf("a transaction failed: %v", rec.errs[0])
	}
	if rec.total() != 300 {
		t.Errorf("recorded %d, want 300", rec.total())
	}
	var starts, commits, aborts int
	for _, c := range h.proxy.Commands() {
		if v, _ := field(c, "startTransaction").(bool); v {
			starts++
		}
		switch c[0].Key {
		case "commitTransaction":
			commits++
		case "abortTransaction":
			aborts++
		}
	}
	if starts == 0 || starts != commits+aborts {
		t.Errorf("%d transactions started, %d committed, %d aborted", starts, commits, aborts)
	}
}
