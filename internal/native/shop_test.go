package native

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// shopFile reads the built-in shop workload with overrides.
func shopFile(t *testing.T, params ...Parameter) *File {
	t.Helper()
	src, err := os.ReadFile("../../workloads/shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("shop.yaml", src, params)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func opNamed(t *testing.T, f *File, name string) *Operation {
	t.Helper()
	for _, op := range f.Operations {
		if op.Name == name {
			return op
		}
	}
	t.Fatalf("no operation %s", name)
	return nil
}

// TestShopCheckoutTransaction: the shop's checkout against the null
// server in its recording mode (no server here can run a transaction:
// FerretDB has none, and the tests start no replica set), the exact
// command sequence of one transaction: its four steps in order under one
// session and txnNumber, the first starting the transaction with the
// snapshot read concern, each with autocommit false, then the commit with
// the majority write concern.
func TestShopCheckoutTransaction(t *testing.T) {
	t.Parallel()
	srv, client := txnServer(t, nil)
	f := shopFile(t)
	checkout := opNamed(t, f, "checkout")
	if !checkout.Atomic {
		t.Fatal("checkout is not a transaction by default")
	}
	e := NewExecutor(client, "shop", f, 1)
	if _, err := e.Do(context.Background(), checkout, 7); err != nil {
		t.Fatal(err)
	}
	got := steps(t, srv)
	want := []step{
		{name: "find", txn: 1, start: true, autocommit: true, readConcern: "snapshot"},
		{name: "update", txn: 1, autocommit: true},
		{name: "insert", txn: 1, autocommit: true},
		{name: "update", txn: 1, autocommit: true},
		{name: "commitTransaction", txn: 1, autocommit: true, writeConcern: `"majority"`},
	}
	if len(got) != len(want) {
		t.Fatalf("%d commands, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		w.lsid = got[0].lsid
		if got[i] != w {
			t.Errorf("command %d:\n got %+v\nwant %+v", i+1, got[i], w)
		}
	}
	if got[0].lsid == "" {
		t.Error("the transaction's commands carry no lsid")
	}
	// The steps see the operation's let: the product read is the one
	// whose stock is taken, the customer who orders the one counted.
	cmds := srv.Commands()
	product := cmds[0].Doc.Lookup("filter", "_id")
	if upd := cmds[1].Sequences["updates"]; len(upd) != 1 || !upd[0].Lookup("q", "_id").Equal(product) {
		t.Errorf("the stock update is not of the product read (%v)", product)
	}
	ins := cmds[2].Sequences["documents"]
	if len(ins) != 1 || !ins[0].Lookup("product").Equal(product) {
		t.Fatalf("the order is not of the product read: %v", ins)
	}
	customer := ins[0].Lookup("customer")
	if upd := cmds[3].Sequences["updates"]; len(upd) != 1 || !upd[0].Lookup("q", "_id").Equal(customer) {
		t.Errorf("the customer counted is not the one who ordered (%v)", customer)
	}
}

// TestShopCheckoutWithoutTransaction: with -p transactions=false the same
// steps go out on their own: no transaction number, no
// startTransaction, no commit.
func TestShopCheckoutWithoutTransaction(t *testing.T) {
	t.Parallel()
	srv, client := txnServer(t, nil)
	f := shopFile(t, Parameter{Name: "transactions", Value: "false"})
	checkout := opNamed(t, f, "checkout")
	if checkout.Atomic {
		t.Fatal("transactions=false left the checkout a transaction")
	}
	if why := f.Measure.Unsupported(Server{FerretDB: "v1.24.0"}); len(why) != 0 {
		t.Errorf("FerretDB refuses the shop without transactions: %v", why)
	}
	if why := shopFile(t).Measure.Unsupported(Server{FerretDB: "v1.24.0"}); len(why) != 1 || !strings.HasSuffix(why[0], "or atomic: false (the steps run outside a transaction)") {
		t.Errorf("FerretDB's refusals of the transactional shop: %v, want the checkout's, naming atomic: false", why)
	}
	e := NewExecutor(client, "shop", f, 1)
	if _, err := e.Do(context.Background(), checkout, 7); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range steps(t, srv) {
		names = append(names, s.name)
		if s.txn != 0 || s.start || s.autocommit {
			t.Errorf("%s sent as part of a transaction: %+v", s.name, s)
		}
	}
	if want := []string{"find", "update", "insert", "update"}; !slices.Equal(names, want) {
		t.Errorf("commands %v, want %v", names, want)
	}
}

// TestShopLoadNumbering: load operation n inserts customer n, product n
// and orders 10n … 10n+9, each the document its collection's template
// makes for that number, so that the ^refs of the measure phase find
// every customer and product the load inserted.
func TestShopLoadNumbering(t *testing.T) {
	t.Parallel()
	srv, client := txnServer(t, nil)
	f := shopFile(t)
	e := NewExecutor(client, "shop", f, 1)
	const n = 3
	if _, err := e.Do(context.Background(), opNamed(t, f, "load-shop"), n); err != nil {
		t.Fatal(err)
	}
	cmds := srv.Commands()
	if len(cmds) != 3 {
		t.Fatalf("%d commands, want three inserts", len(cmds))
	}
	c := NewCtx()
	for i, want := range []struct {
		coll  string
		first int64
		count int
	}{{"customers", n, 1}, {"products", n, 1}, {"orders", 10 * n, 10}} {
		docs := cmds[i].Sequences["documents"]
		if cmds[i].Doc.Lookup("insert").StringValue() != want.coll || len(docs) != want.count {
			t.Errorf("command %d: %s with %d documents, want %s with %d", i+1, cmds[i].Doc.Lookup("insert"), len(docs), want.coll, want.count)
			continue
		}
		var coll *Collection
		for _, cl := range f.Collections {
			if cl.Name == want.coll {
				coll = cl
			}
		}
		for j, d := range docs {
			b, _ := coll.Document.Append(nil, c, want.first+int64(j))
			if !d.Lookup("_id").Equal(bson.Raw(b).Lookup("_id")) {
				t.Errorf("%s document %d has _id %v, want document %d's %v", want.coll, j, d.Lookup("_id"), want.first+int64(j), bson.Raw(b).Lookup("_id"))
			}
		}
	}
}

// TestShopOnTheEmbeddedServer: loaded small, every operation of the
// shop's measure phase runs on the embedded server with transactions off,
// and each reads or writes what the loaded data promises.
func TestShopOnTheEmbeddedServer(t *testing.T) {
	t.Parallel()
	f := shopFile(t, Parameter{Name: "customers", Value: "30"}, Parameter{Name: "orders", Value: "300"},
		Parameter{Name: "transactions", Value: "false"})
	client, dbName := connect(t)
	ctx := context.Background()
	if err := Setup(ctx, f, client, dbName, false); err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(client, dbName, f, 1)
	for n := range int64(30) {
		if _, err := e.Do(ctx, opNamed(t, f, "load-shop"), n); err != nil {
			t.Fatalf("load %d: %v", n, err)
		}
	}
	for name, want := range map[string]int64{"customers": 30, "products": 30, "orders": 300} {
		if got, err := client.Database(dbName).Collection(name).CountDocuments(ctx, bson.D{}); err != nil || got != want {
			t.Errorf("%s: %d documents (%v), want %d", name, got, err, want)
		}
	}
	for _, c := range f.Collections {
		e.DocBase[c] = c.Documents
	}
	total := map[string]int64{}
	for n := range int64(20) {
		for _, op := range f.Measure.Operations {
			r, err := e.Do(ctx, op, n)
			if err != nil {
				t.Fatalf("%s %d: %v", op.Name, n, err)
			}
			total[op.Name] += r.Documents
		}
	}
	// Every product page finds its product; a checkout reads the
	// product and writes three documents (its stock update matches
	// while stock lasts).
	if total["product-page"] != 20 {
		t.Errorf("product pages found %d products in 20", total["product-page"])
	}
	for _, name := range []string{"browse-category", "order-history", "sales-report"} {
		if total[name] == 0 {
			t.Errorf("%s returned nothing in 20 operations", name)
		}
	}
	if total["checkout"] < 3*20 {
		t.Errorf("20 checkouts affected %d documents, want at least 60", total["checkout"])
	}
	if got, _ := client.Database(dbName).Collection("orders").CountDocuments(ctx, bson.D{}); got != 320 {
		t.Errorf("%d orders after 20 checkouts, want 320", got)
	}
}

// TestStepNumberingPerCollection: steps on one collection take turns in
// its numbers (operation n's two inserts into a are 2n and 2n+1); a step
// alone on its collection inserts document n.
func TestStepNumberingPerCollection(t *testing.T) {
	t.Parallel()
	srv, client := txnServer(t, nil)
	f := mustParse(t, `
collections:
  a: {document: {_id: {^number: {}}}}
  b: {document: {_id: {^number: {}}}}
operations:
  - name: three
    kind: transaction
    atomic: false
    steps: [{kind: insertOne, collection: a}, {kind: insertOne, collection: b}, {kind: insertOne, collection: a}]
phases: {load: {count: 1}}
`)
	e := NewExecutor(client, "d", f, 1)
	if _, err := e.Do(context.Background(), f.Operations[0], 5); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range srv.Commands() {
		for _, d := range c.Sequences["documents"] {
			got = append(got, c.Doc.Lookup("insert").StringValue()+":"+d.Lookup("_id").String())
		}
	}
	want := []string{`a:{"$numberLong":"10"}`, `b:{"$numberLong":"5"}`, `a:{"$numberLong":"11"}`}
	if !slices.Equal(got, want) {
		t.Errorf("inserted %v, want %v", got, want)
	}
}
