package native

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecimalRefusedOnFerretDB: FerretDB 1.24 has no decimal128 (an
// insert of one ends the connection), so an operation that may send one,
// from ^decimal, a let, or a dataset's value at any depth, is refused
// before the run; MongoDB runs them, and operations without one run
// anywhere.
func TestDecimalRefusedOnFerretDB(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "prices.jsonl"), []byte("{\"p\": {\"amount\": {\"$numberDecimal\": \"9.99\"}}}\n{\"p\": 1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain.jsonl"), []byte("{\"p\": 1.5}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := `
collections:
  items: {documents: 10, document: {_id: {^number: {}}, price: {^decimal: {}}}}
  plain: {documents: 10, document: {_id: {^number: {}}, price: {^double: {}}}}
operations:
  - {name: addItem, kind: insertOne, collection: items}
  - {name: addPlain, kind: insertOne, collection: plain}
  - name: reprice
    kind: updateOne
    collection: plain
    let: {p: {^decimal: {min: 1, max: 2}}}
    filter: {_id: 1}
    update: {$set: {price: {^let: p}}}
  - {name: fromFile, kind: updateOne, collection: plain, filter: {_id: 2}, update: {$set: {^dataset: prices.jsonl}}}
  - {name: fromPlainFile, kind: updateOne, collection: plain, filter: {_id: 3}, update: {$set: {^dataset: plain.jsonl}}}
  - {name: find, kind: find, collection: items, filter: {_id: 4}}
phases: {measure: {count: 1}}
`
	path := filepath.Join(dir, "w.yaml")
	f, err := Parse(path, []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	why := f.Measure.Unsupported(Server{Topology: Standalone, Version: "7.0.42", FerretDB: "v1.24.0"})
	var refused []string
	for _, w := range why {
		name, reason, _ := strings.Cut(w, ": ")
		refused = append(refused, strings.TrimPrefix(name, "operation "))
		if !strings.HasPrefix(reason, "FerretDB v1.24.0 has no decimal128; accepted: ^double or ^int64 in place of ^decimal") {
			t.Errorf("reason %q", w)
		}
	}
	if got, want := strings.Join(refused, ","), "addItem,reprice,fromFile"; got != want {
		t.Errorf("refused %s, want %s", got, want)
	}
	if why := f.Measure.Unsupported(Server{Topology: ReplicaSet, Version: "8.0.4"}); len(why) != 0 {
		t.Errorf("MongoDB 8.0: %q", why)
	}
}
