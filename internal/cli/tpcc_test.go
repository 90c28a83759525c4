package cli

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	mongodb "github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/tpcc"
)

// TestTPCCLoadRunCheck runs the three phases on the embedded server (no
// transactions: it has none) and checks each printed figure against the
// others and against the data.
func TestTPCCLoadRunCheck(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	scale := []string{"-p", "mongodb.url=" + url, "-p", "warehouses=1", "-p", "items=100", "-p", "customers=10"}
	load := mongobench(t, append([]string{"tpcc", "load"}, scale...)...)
	if load.code != 0 {
		t.Fatalf("load: exit %d: %s", load.code, load.stderr)
	}
	checkThreeFields(t, load.stdout)
	ls := parseSummary(t, load.stdout)
	want := map[string]int64{"ITEM": 100, "WAREHOUSE": 1, "DISTRICT": 10, "CUSTOMER": 100, "STOCK": 100, "ORDERS": 100, "NEW_ORDER": 30, "HISTORY": 100}
	var total int64
	for c, n := range want {
		if got := ls.int(t, "LOAD", c); got != n {
			t.Errorf("[LOAD], %s = %d, want %d", c, got, n)
		}
		total += n
	}
	if got := ls.int(t, "LOAD", "Documents"); got != total {
		t.Errorf("[LOAD], Documents = %d, want %d", got, total)
	}
	if again := mongobench(t, append([]string{"tpcc", "load"}, scale...)...); again.code != ExitBadInput || !strings.Contains(again.stderr, "--drop") {
		t.Errorf("a second load: exit %d, %q; want 2 naming --drop", again.code, again.stderr)
	}

	out := filepath.Join(t.TempDir(), "tpcc.json")
	run := mongobench(t, append([]string{"tpcc", "run", "-p", "tpcc.transactions=false", "-p", "operationcount=20", "--out", out, "--no-store"}, scale...)...)
	if run.code != 0 {
		t.Fatalf("run: exit %d: %s", run.code, run.stderr)
	}
	checkThreeFields(t, run.stdout)
	rs := parseSummary(t, run.stdout)
	res, err := results.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// The five transactions are the run's operations: in the summary as
	// YCSB's are, and in the results file.
	var ops int64
	for _, typ := range tpcc.OpNames {
		if _, ran := rs[typ]["Operations"]; !ran {
			continue
		}
		n := rs.int(t, typ, "Operations")
		if ok := rs.int(t, typ, "Return=OK"); ok != n || res.Status[typ]["OK"] != n {
			t.Errorf("[%s]: %d operations, %d OK, results %v", typ, n, ok, res.Status[typ])
		}
		ops += n
	}
	if ops != 20 || res.Operations != 20 {
		t.Errorf("operations add up to %d, results say %d, want 20", ops, res.Operations)
	}
	sec := res.Extra.TPCC
	if sec == nil || len(sec.Transactions) != 5 || len(sec.Check) != 4 || sec.Warehouses != 1 || sec.Standard {
		t.Fatalf("results' tpcc section %+v", sec)
	}
	committed := res.Status["NewOrder"]["OK"] - sec.Transactions[0].RolledBack
	if got, want := rs.float(t, "TPCC", "tpmC"), float64(committed)/(float64(res.RuntimeMs)/60000); math.Abs(got-want) > 0.005 || math.Abs(sec.TpmC-want) > 1e-9 {
		t.Errorf("tpmC printed %v, results %v, want %v (committed NewOrders per minute)", got, sec.TpmC, want)
	}
	if got := rs.int(t, "NewOrder", "RolledBack"); got != sec.Transactions[0].RolledBack {
		t.Errorf("[NewOrder], RolledBack %d, results %d", got, sec.Transactions[0].RolledBack)
	}
	for i := 1; i <= 4; i++ {
		if v := rs["CHECK"]["Condition"+string(rune('0'+i))]; !strings.HasPrefix(v, "OK") {
			t.Errorf("after the run, condition %d: %q", i, v)
		}
	}
	if got := res.Config["workload"]; got != "tpcc" {
		t.Errorf("results' workload %q", got)
	}
	// The orders the run entered are in the database.
	client, err := mongo.Connect(options.Client().ApplyURI(url))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	db := client.Database(mongodb.DatabaseFromURL(url))
	n, err := db.Collection("ORDERS").CountDocuments(context.Background(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 100+committed {
		t.Errorf("ORDERS holds %d, want 100 loaded + %d entered", n, committed)
	}

	// A broken condition is loud: exit 1, the condition named.
	if _, err := db.Collection("WAREHOUSE").UpdateOne(context.Background(), bson.D{{Key: "W_ID", Value: 1}}, bson.D{{Key: "$inc", Value: bson.D{{Key: "W_YTD", Value: 5.0}}}}); err != nil {
		t.Fatal(err)
	}
	check := mongobench(t, append([]string{"tpcc", "check"}, scale...)...)
	cs := parseSummary(t, check.stdout)
	if check.code != ExitFailed || !strings.Contains(check.stdout, "[CHECK], Condition1, FAILED (1 checked; 1 failed)\n") || !strings.Contains(check.stderr, "condition(s) 1 broken") {
		t.Errorf("check of a broken W_YTD: exit %d, %q, %q", check.code, check.stdout, check.stderr)
	}
	if !strings.HasPrefix(cs["CHECK"]["Condition2"], "OK") {
		t.Errorf("condition 2 after W_YTD changed: %q", cs["CHECK"]["Condition2"])
	}
	// So is one found after a run: the run's figures are printed and
	// kept, the broken condition in them, and the exit is 1.
	again := mongobench(t, append([]string{"tpcc", "run", "-p", "tpcc.transactions=false", "-p", "operationcount=2", "--no-store"}, scale...)...)
	if again.code != ExitFailed || !strings.Contains(again.stdout, "[CHECK], Condition1, FAILED") || !strings.Contains(again.stdout, "[TPCC], tpmC, ") || !strings.Contains(again.stderr, "condition(s) 1 broken") {
		t.Errorf("run on a broken W_YTD: exit %d, %q, %q", again.code, again.stdout, again.stderr)
	}
	// --no-check: no check, no failure.
	if skip := mongobench(t, append([]string{"tpcc", "run", "-p", "tpcc.transactions=false", "-p", "operationcount=2", "--no-store", "--no-check"}, scale...)...); skip.code != 0 || strings.Contains(skip.stdout, "[CHECK]") {
		t.Errorf("run --no-check on a broken W_YTD: exit %d, %q, %q", skip.code, skip.stdout, skip.stderr)
	}
}

func TestTPCCBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"tpcc"}, "expected a phase, load, run or check"},
		{[]string{"tpcc", "walk"}, `unknown phase "walk"`},
		{[]string{"tpcc", "load", "-p", "warehouse=3"}, `unknown property "warehouse"`},
		{[]string{"tpcc", "run", "-p", "warehouses=0"}, "warehouses=\"0\" is invalid: expected a whole number from 1 to 100000"},
		{[]string{"tpcc", "run", "-p", "tpcc.writeconcern=most"}, "expected majority or a number"},
		{[]string{"tpcc", "run", "-p", "tpcc.readconcern=strong"}, "expected local, majority, snapshot"},
		{[]string{"tpcc", "run", "-p", "tpcc.transactions=maybe"}, "expected true or false"},
		{[]string{"tpcc", "run", "--threshold", "READ:p(99)<1ms"}, `no operation "READ": accepted: OVERALL, NewOrder, Payment, OrderStatus, Delivery, StockLevel`},
		{[]string{"tpcc", "load", "--part", "1/2", "--drop", "-p", "warehouses=4"}, "--drop with --part 1/2 is refused"},
		{[]string{"tpcc", "load", "--part", "2/3", "-p", "warehouses=2"}, "cannot be split over 3 parts"},
		{[]string{"tpcc", "run", "-p", "mongodb.url=mongodb://u:sekrit@h:1/?maxPoolSize=many"}, "mongodb.url"},
	} {
		r := mongobench(t, tc.args...)
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if r.code != ExitBadInput || len(lines) != 1 || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "sekrit") {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestTPCCRunRefusesTransactionsUnsupported: the embedded server has no
// multi-document transactions; a transactional run there is refused
// before anything runs, saying what to give instead.
func TestTPCCRunRefusesTransactionsUnsupported(t *testing.T) {
	t.Parallel()
	r := mongobench(t, "tpcc", "run", "-p", "mongodb.url="+freshURL(t), "-p", "operationcount=1", "--no-store")
	if r.code != ExitBadInput || !strings.Contains(r.stderr, "has no multi-document transactions; accepted: a MongoDB replica set") || !strings.Contains(r.stderr, "tpcc.transactions=false") {
		t.Errorf("exit %d, %q", r.code, r.stderr)
	}
}

// TestTPCCRunHelp: tpcc run's help is tpcc's, which names TPC-C's
// properties, not run's.
func TestTPCCRunHelp(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"-h", "--help"} {
		r := mongobench(t, "tpcc", "run", h)
		if r.code != 0 || !strings.Contains(r.stdout, "tpcc.batchwrites=true") || !strings.Contains(r.stdout, "--no-check") {
			t.Errorf("tpcc run %s: exit %d, %q", h, r.code, r.stdout)
		}
	}
}
