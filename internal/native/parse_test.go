package native

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// good is a small valid workload the broken cases are variations of.
const good = `name: shop
parameters:
  docs: 1000
collections:
  orders:
    documents: ${docs}
    indexes:
      - keys: {customer: 1}
    document:
      _id: {^objectId: {}}
      customer: {^int64: {min: 1, max: 100}}
operations:
  - name: insert
    kind: insertOne
    collection: orders
  - name: byCustomer
    kind: find
    collection: orders
    filter: {customer: {^int64: {min: 1, max: 100}}}
    limit: 10
phases:
  load:
    threads: 2
    count: ${docs}
    operations: [insert]
  measure:
    duration: 30s
`

func TestParseGood(t *testing.T) {
	t.Parallel()
	f, err := Parse("w.yaml", []byte(good), []Parameter{{Name: "docs", Value: "500"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Collections[0].Documents; got != 500 {
		t.Errorf("documents = %d, want the -p override 500", got)
	}
	if f.Load.Count != 500 || f.Load.Threads != 2 || len(f.Load.Operations) != 1 {
		t.Errorf("load phase = %+v", f.Load)
	}
	if f.Measure.Duration.Seconds() != 30 || len(f.Measure.Operations) != 2 || f.Measure.Threads != 1 {
		t.Errorf("measure phase = %+v", f.Measure)
	}
	op := f.Operations[1]
	if op.Kind != Find || op.Limit != 10 || op.Collection != f.Collections[0] || op.Filter == nil {
		t.Errorf("find = %+v", op)
	}
	if f.Operations[0].Document != f.Collections[0].Document {
		t.Error("insertOne without document does not insert the collection's template")
	}
	if f.Parameters[0].Value != "500" {
		t.Errorf("parameters = %+v", f.Parameters)
	}
}

// TestParseBroken: each broken file gives one-line errors with the line
// and column of what is wrong, saying what is accepted.
func TestParseBroken(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		src       string // replaces from in good, or a whole file if from is ""
		from      string
		overrides []Parameter
		want      string // the first error line, exactly
	}{
		{name: "shard key of -1", from: "    indexes:\n", src: "    shardKey: {customer: -1}\n    indexes:\n",
			want: `w.yaml:7:15: collection orders: shardKey: shard key field customer is {"$numberInt":"-1"}; accepted: fields of 1 (ranged) or "hashed"`},
		{name: "misspelt section", from: "collections:", src: "colections:",
			want: `w.yaml:4:1: unknown key "colections" in the file; accepted: name, description, seed, parameters, collections, operations, phases`},
		{name: "unknown kind", from: "kind: find", src: "kind: fnd",
			want: `w.yaml:17:11: operation byCustomer: kind "fnd" is not an operation kind; accepted: insertOne, insertMany, find, aggregate, updateOne, updateMany, replaceOne, findOneAndUpdate, findOneAndDelete, deleteOne, deleteMany, countDocuments, distinct, bulkWrite, createIndex, transaction`},
		{name: "option of another kind", from: "limit: 10", src: "upsert: true",
			want: `w.yaml:20:5: operation byCustomer: key "upsert" is not an option of find; accepted: name, kind, collection, weight, let, filter, projection, sort, limit, skip, hint`},
		{name: "bulkWrite step on another collection", src: `collections:
  orders: {document: {a: 1}}
  items: {document: {a: 1}}
operations:
  - name: bulk
    kind: bulkWrite
    collection: orders
    steps: [{kind: insertOne}, {kind: deleteOne, collection: items, filter: {a: 1}}]
phases: {measure: {count: 1}}
`, want: `w.yaml:8:62: operation bulk: step 2: a bulkWrite step writes to the bulkWrite's collection orders, not items; accepted: no collection, or orders (a transaction's steps may each name their own)`},
		{name: "atomic outside a transaction", from: "limit: 10", src: "atomic: false",
			want: `w.yaml:20:5: operation byCustomer: key "atomic" is not an option of find; accepted: name, kind, collection, weight, let, filter, projection, sort, limit, skip, hint`},
		{name: "atomic not a boolean", from: "kind: find\n    collection: orders\n    filter: {customer: {^int64: {min: 1, max: 100}}}\n    limit: 10",
			src:  "kind: transaction\n    atomic: sometimes\n    steps: [{kind: find}]\n    collection: orders",
			want: `w.yaml:18:13: operation byCustomer: atomic is "sometimes"; expected true or false`},
		{name: "unknown collection", from: "collection: orders\n  - name: byCustomer", src: "collection: order\n  - name: byCustomer",
			want: `w.yaml:15:17: operation insert: collection "order" is not among the workload's collections; accepted: orders`},
		{name: "unknown generator", from: "{^int64: {min: 1, max: 100}}}", src: "{^int: {min: 1, max: 100}}}",
			want: `w.yaml:19:25: operation byCustomer: filter: unknown generator ^int; accepted: ^int32, ^int64, ^double, ^decimal, ^string, ^bool, ^date, ^now, ^objectId, ^uuid, ^binary, ^array, ^choice, ^fake, ^ref, ^let, ^number, ^dataset`},
		{name: "min above max", from: "customer: {^int64: {min: 1, max: 100}}", src: "customer: {^int64: {min: 100, max: 1}}",
			want: `w.yaml:11:26: collection orders: document: ^int64: min 100 is above max 1; accepted: min ≤ max`},
		{name: "bad distribution", from: "customer: {^int64: {min: 1, max: 100}}", src: "customer: {^int64: {dist: pareto}}",
			want: `w.yaml:11:33: collection orders: document: ^int64: dist is "pareto"; accepted: uniform, zipfian, normal, sequence`},
		{name: "unknown parameter", from: "count: ${docs}", src: "count: ${doc}",
			want: `w.yaml:24:12: ${doc} names no parameter; declared: docs`},
		{name: "unknown override", overrides: []Parameter{{Name: "records", Value: "5"}},
			want: `w.yaml: -p records: not a parameter of the workload; its parameters are docs`},
		{name: "override of the wrong type", overrides: []Parameter{{Name: "docs", Value: "many"}},
			want: `w.yaml:6:16: collection orders: documents is "many"; expected an integer from 0 to 9223372036854775807`},
		{name: "phase without end", from: "    duration: 30s\n", src: "    threads: 4\n",
			want: `w.yaml:26:3: phase measure has neither count nor duration; give count: N (operations) or duration: 30s`},
		{name: "bad duration", from: "duration: 30s", src: "duration: 30 seconds",
			want: `w.yaml:27:15: phase measure: duration is "30 seconds"; expected a positive duration like 30s, 5m or 1h30m`},
		{name: "unknown phase", from: "  measure:", src: "  run:",
			want: `w.yaml:26:3: unknown key "run" in phases; accepted: load, warmup, measure`},
		{name: "phase names unknown operation", from: "operations: [insert]", src: "operations: [inserts]",
			want: `w.yaml:25:18: phase load: operations: "inserts" is not an operation of the workload; accepted: insert, byCustomer`},
		{name: "zero threads", from: "threads: 2", src: "threads: 0",
			want: `w.yaml:23:14: phase load: threads is 0; expected an integer from 1 to 100000`},
		{name: "duplicate operation", from: "name: byCustomer", src: "name: insert",
			want: `w.yaml:16:5: operation "insert" is named twice; each operation needs a name of its own`},
		{name: "missing required option", from: "    kind: find\n    collection: orders\n    filter: {customer: {^int64: {min: 1, max: 100}}}\n    limit: 10\n", src: "    kind: aggregate\n    collection: orders\n",
			want: `w.yaml:16:5: operation byCustomer: aggregate needs pipeline`},
		{name: "update without update", from: "    kind: find\n    collection: orders\n    filter: {customer: {^int64: {min: 1, max: 100}}}\n    limit: 10\n", src: "    kind: updateOne\n    collection: orders\n    filter: {a: 1}\n",
			want: `w.yaml:16:5: operation byCustomer: updateOne needs update`},
		{name: "let undefined", from: "filter: {customer: {^int64: {min: 1, max: 100}}}", src: "filter: {customer: {^let: who}}",
			want: `w.yaml:19:31: operation byCustomer: filter: ^let: "who" is not a let of this operation; the operation has no let`},
		{name: "ref to missing field", from: "filter: {customer: {^int64: {min: 1, max: 100}}}", src: "filter: {customer: {^ref: orders.cust}}",
			want: `w.yaml:19:31: operation byCustomer: filter: ^ref: collection orders's document has no field cust; accepted: _id, customer`},
		{name: "ref to missing collection", from: "filter: {customer: {^int64: {min: 1, max: 100}}}", src: "filter: {customer: {^ref: users._id}}",
			want: `w.yaml:19:31: operation byCustomer: filter: ^ref: "users" is not a collection of the workload; accepted: orders`},
		{name: "generator beside fields", from: "customer: {^int64: {min: 1, max: 100}}", src: "customer: {^int64: {}, x: 1}",
			want: `w.yaml:11:18: collection orders: document: ^int64 stands beside other keys; a generator is the only key of its mapping`},
		{name: "document not a mapping", from: "    document:\n      _id: {^objectId: {}}\n      customer: {^int64: {min: 1, max: 100}}\n", src: "    document: [1, 2]\n",
			want: `w.yaml:9:15: collection orders: document is a list; expected a document (a mapping)`},
		{name: "unknown fake", from: "customer: {^int64: {min: 1, max: 100}}", src: "customer: {^fake: nickname}",
			want: `w.yaml:11:25: collection orders: document: ^fake is "nickname"; accepted: name, firstName, lastName, email, phone, username, street, city, state, zip, country, company, jobTitle, productName, color, word, noun, sentence, paragraph, url, ipv4, userAgent`},
		{name: "bulkWrite with a read", from: "    kind: find\n    collection: orders\n    filter: {customer: {^int64: {min: 1, max: 100}}}\n    limit: 10\n", src: "    kind: bulkWrite\n    collection: orders\n    steps: [{kind: find}]\n",
			want: `w.yaml:19:20: operation byCustomer: step 1: a bulkWrite step cannot be find; accepted: insertOne, updateOne, updateMany, replaceOne, deleteOne, deleteMany`},
		{name: "transaction in a transaction", from: "    kind: find\n    collection: orders\n    filter: {customer: {^int64: {min: 1, max: 100}}}\n    limit: 10\n", src: "    kind: transaction\n    steps: [{kind: transaction, steps: [{kind: find}]}]\n",
			want: `w.yaml:18:20: operation byCustomer: step 1: a transaction step cannot be transaction; accepted: any other kind`},
		{name: "weight negative", from: "    limit: 10\n", src: "    weight: -1\n",
			want: `w.yaml:20:13: operation byCustomer: weight is -1; expected a number from 0 to 1e+09`},
		// The YAML library gives a syntax error's line, not its column.
		{name: "unclosed list", from: "    limit: 10\n", src: "    limit: [10\n",
			want: `w.yaml:20:1: not valid YAML or JSON: did not find expected ',' or ']'`},
		{name: "bad indentation", src: "name: x\n  phases: 1\n",
			want: `w.yaml:2:1: not valid YAML or JSON: mapping values are not allowed in this context`},
		{name: "unclosed mapping", src: "name: x\nphases: {load: {count: 1}\ncollections: 2\n",
			want: `w.yaml:2:1: not valid YAML or JSON: did not find expected ',' or '}'`},
		{name: "not a mapping", src: "- a\n- b\n",
			want: `w.yaml:1:1: the file is a list; expected a mapping with the keys name, description, seed, parameters, collections, operations, phases`},
		{name: "empty file", src: "",
			want: `w.yaml: the file is empty; expected a workload: a mapping with collections, operations and phases`},
		{name: "json with a mistake", src: `{"collections": {"c": {"document": {"a": 1}}}, "operations": [{"name": "i", "kind": "insertOne", "collection": "c"}], "phases": {"load": {"count": "ten"}}}`,
			want: `w.yaml:1:148: phase load: count is "ten"; expected an integer from 1 to 9223372036854775807`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := tt.src
			if tt.from != "" {
				if !strings.Contains(good, tt.from) {
					t.Fatalf("the good file has no %q", tt.from)
				}
				src = strings.Replace(good, tt.from, tt.src, 1)
			} else if tt.src == "" && tt.overrides != nil {
				src = good
			}
			_, err := Parse("w.yaml", []byte(src), tt.overrides)
			var errs *Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Parse accepted the file (err %v)", err)
			}
			lines := errs.Lines()
			if lines[0] != tt.want {
				t.Errorf("first error:\n got %s\nwant %s\n(all: %q)", lines[0], tt.want, lines)
			}
			seen := map[string]bool{}
			for _, l := range lines {
				if strings.Contains(l, "\n") || !strings.HasPrefix(l, "w.yaml") {
					t.Errorf("error %q is not one line naming the file", l)
				}
				if pos := strings.SplitN(l, ": ", 2)[0]; pos != "w.yaml" && seen[pos] {
					t.Errorf("two errors at %s: %q", pos, lines)
				} else {
					seen[pos] = true
				}
			}
		})
	}
}

// TestBuiltinsParse: the shipped native workloads are valid.
func TestBuiltinsParse(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"../../workloads/insert1k.yaml"} {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !IsNative(src) {
			t.Errorf("%s is not recognised as a native workload", path)
		}
		if _, err := Parse(path, src, nil); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	if IsNative([]byte("recordcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\n")) {
		t.Error("YCSB properties are taken for a native workload")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"collections": {"c": {"document": {"a": {"^array": {"of": {"^ref": "c.a"}}}}}}}`))
	f.Add([]byte("a: &x [*x]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("f.yaml", data, nil)
		if err != nil {
			var errs *Errors
			if !errors.As(err, &errs) || len(errs.List) == 0 {
				t.Fatalf("error %v is not a list of errors", err)
			}
			for _, l := range errs.Lines() {
				if strings.Contains(l, "\n") {
					t.Fatalf("error %q spans lines", l)
				}
			}
			return
		}
		// What parses must generate: every collection's document once.
		c := NewCtx()
		for _, coll := range file.Collections {
			coll.Document.Append(nil, c, 3)
		}
	})
}
