package native

import (
	"context"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

const arrayFiltersFile = `
collections:
  carts:
    documents: 10
    document: {_id: {^number: {}}, items: [{sku: 1, qty: 2}, {sku: 2, qty: 7}]}
operations:
  - name: restock
    kind: updateOne
    collection: carts
    filter: {_id: 3}
    update: {$inc: {"items.$[low].qty": 10}}
    arrayFilters: [{low.qty: {$lt: 5}}]
  - name: restockAll
    kind: updateMany
    collection: carts
    filter: {}
    update: {$set: {"items.$[s].seen": true}}
    arrayFilters: [{s.sku: {^int32: {min: 7, max: 7}}}]
  - name: takeOne
    kind: findOneAndUpdate
    collection: carts
    filter: {_id: 4}
    update: {$inc: {"items.$[e].qty": -1}}
    arrayFilters: [{e.sku: 2}, {x.qty: 0}]
  - name: batch
    kind: bulkWrite
    collection: carts
    steps:
      - {kind: updateOne, filter: {_id: 5}, update: {$set: {"items.$[i].qty": 0}}, arrayFilters: [{i.sku: 1}]}
phases: {measure: {count: 1}}
`

// TestArrayFiltersSent: each update kind sends its arrayFilters as
// written, a template's generators drawn. The recording null server
// shows the commands the driver sends field by field; the embedded
// FerretDB has no arrayFilters, which a run refuses before it starts.
func TestArrayFiltersSent(t *testing.T) {
	t.Parallel()
	srv, client := txnServer(t, nil)
	f := mustParse(t, arrayFiltersFile)
	e := NewExecutor(client, "shop", f, 1)
	for _, op := range f.Operations {
		if _, err := e.Do(context.Background(), op, 0); err != nil {
			t.Fatalf("%s: %v", op.Name, err)
		}
	}
	var got []string
	for _, c := range srv.Commands() {
		var af bson.RawValue
		var err error
		switch c.Name {
		case "update":
			// The driver sends the updates as a document sequence.
			if ups := c.Sequences["updates"]; len(ups) == 1 {
				af, err = ups[0].LookupErr("arrayFilters")
			} else {
				t.Errorf("update with %d updates: %v", len(ups), c.Sequences)
				continue
			}
		case "findAndModify":
			af, err = c.Doc.LookupErr("arrayFilters")
		default:
			continue
		}
		if err != nil {
			t.Errorf("%s without arrayFilters: %s", c.Name, c.Doc)
			continue
		}
		got = append(got, c.Name+" "+af.String())
	}
	want := []string{
		`update [{"low.qty": {"$lt": {"$numberInt":"5"}}}]`,
		`update [{"s.sku": {"$numberInt":"7"}}]`,
		`findAndModify [{"e.sku": {"$numberInt":"2"}},{"x.qty": {"$numberInt":"0"}}]`,
		`update [{"i.sku": {"$numberInt":"1"}}]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("arrayFilters sent:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestArrayFiltersRefused: arrayFilters belong to the update kinds and
// hold documents; FerretDB, which has none, refuses them before a run.
func TestArrayFiltersRefused(t *testing.T) {
	t.Parallel()
	base := "collections: {c: {documents: 1, document: {_id: 1}}}\noperations:\n"
	tests := []struct {
		name, op, want string
	}{
		{"on a find", "  - {name: q, kind: find, collection: c, arrayFilters: [{a.b: 1}]}\n",
			`w.yaml:3:42: operation q: key "arrayFilters" is not an option of find; accepted: name, kind, collection, weight, let, filter,`},
		{"not a document", "  - {name: u, kind: updateOne, collection: c, filter: {}, update: {$set: {x: 1}}, arrayFilters: [1]}\n",
			"w.yaml:3:98: operation u: arrayFilters: an array filter is a document, such as {elem.qty: {$gt: 5}}"},
	}
	for _, tt := range tests {
		_, err := Parse("w.yaml", []byte(base+tt.op+"phases: {measure: {count: 1}}\n"), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}

	f := mustParse(t, arrayFiltersFile)
	why := f.Measure.Unsupported(Server{Topology: Standalone, Version: "7.0.42", FerretDB: "v1.24.0"})
	if len(why) != 4 || why[0] != "operation restock: FerretDB v1.24.0 has no arrayFilters; accepted: an update without arrayFilters, or MongoDB 3.6 or later" ||
		!strings.HasPrefix(why[3], "operation batch/batch.updateOne: FerretDB v1.24.0 has no arrayFilters") {
		t.Errorf("FerretDB: %q", why)
	}
	if why := f.Measure.Unsupported(Server{Topology: ReplicaSet, Version: "8.0.4"}); len(why) != 0 {
		t.Errorf("MongoDB 8.0: %q", why)
	}
}
