package native

import (
	"context"
	"strings"
	"testing"
)

const supportFile = `
name: shop
seed: 1
collections:
  carts:
    documents: 10
    document: {_id: {^number: {}}, customer: {^int64: {min: 1, max: 10}}}
  orders:
    documents: 0
    document: {_id: {^objectId: {}}}
operations:
  - name: recent
    kind: find
    collection: carts
    filter: {customer: 1}
  - name: report
    kind: aggregate
    collection: carts
    pipeline: [{$match: {customer: 1}}, {$lookup: {from: orders, localField: customer, foreignField: customer, as: o}}]
  - name: checkout
    kind: transaction
    steps:
      - {kind: find, collection: carts, filter: {customer: 1}}
      - {kind: insertOne, collection: orders}
phases:
  measure:
    threads: 1
    count: 10
`

// TestUnsupported: what each kind of server cannot run is named, one
// reason per operation, with what is accepted; what it can run is not.
func TestUnsupported(t *testing.T) {
	t.Parallel()
	f := mustParse(t, supportFile)
	if got := f.Operations[1].Stages; strings.Join(got, ",") != "$match,$lookup" {
		t.Fatalf("stages %v, want $match,$lookup", got)
	}
	tests := []struct {
		name string
		s    Server
		want []string
	}{
		{"FerretDB", Server{Topology: Standalone, Version: "7.0.42", FerretDB: "v1.24.0"}, []string{
			"operation report: FerretDB v1.24.0 has no aggregation stage $lookup; accepted: $addFields",
			"operation checkout: FerretDB v1.24.0 has no multi-document transactions; accepted: a MongoDB replica set or sharded cluster",
		}},
		{"standalone", Server{Topology: Standalone, Version: "7.0.12"}, []string{
			"operation checkout: a standalone server has no multi-document transactions",
		}},
		{"replica set 3.6", Server{Topology: ReplicaSet, Version: "3.6.23"}, []string{
			"operation checkout: MongoDB 3.6.23 has no multi-document transactions; accepted: 4.0 or later",
		}},
		{"sharded 4.0", Server{Topology: Sharded, Version: "4.0.28"}, []string{
			"operation checkout: MongoDB 4.0.28 has no transactions across shards",
		}},
		{"FerretDB of unknown version", Server{Topology: Standalone, FerretDB: "unknown"}, []string{
			"operation report: FerretDB has no aggregation stage $lookup",
			"operation checkout: FerretDB has no multi-document transactions",
		}},
		{"replica set 8.0", Server{Topology: ReplicaSet, Version: "8.0.4"}, nil},
		{"sharded 7.0", Server{Topology: Sharded, Version: "7.0.12"}, nil},
		{"a version it cannot read", Server{Topology: ReplicaSet, Version: "dev"}, nil},
	}
	for _, tt := range tests {
		got := f.Measure.Unsupported(tt.s)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %q, want %d reasons", tt.name, got, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if !strings.HasPrefix(got[i], w) {
				t.Errorf("%s: reason %d %q, want it to start %q", tt.name, i, got[i], w)
			}
		}
	}
}

// TestServerOfEmbedded: the embedded server says it is FerretDB, a
// standalone, answering as some MongoDB version.
func TestServerOfEmbedded(t *testing.T) {
	t.Parallel()
	client, _ := connect(t)
	s, err := ServerOf(context.Background(), client)
	if err != nil {
		t.Fatal(err)
	}
	if s.FerretDB == "" || s.Topology != Standalone || s.Version == "" {
		t.Errorf("the embedded server says %+v, want FerretDB, a standalone, a version", s)
	}
}
