package native

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func mustParse(t *testing.T, src string) *File {
	t.Helper()
	f, err := Parse("w.yaml", []byte(src), nil)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

// docOf generates one value of a single-field template and decodes it.
func valueOf(t *testing.T, gen string, n int64) bson.RawValue {
	t.Helper()
	f := mustParse(t, `
collections:
  c:
    documents: 100
    document: {v: `+gen+`}
operations: [{name: i, kind: insertOne, collection: c}]
phases: {load: {count: 1}}
`)
	b, ty := f.Collections[0].Document.Append(nil, NewCtx(), n)
	if ty != tDocument {
		t.Fatalf("type %#x, want a document", ty)
	}
	if err := bson.Raw(b).Validate(); err != nil {
		t.Fatalf("%s: invalid BSON: %v", gen, err)
	}
	return bson.Raw(b).Lookup("v")
}

func TestGeneratorTypes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		gen   string
		typ   bson.Type
		check func(v bson.RawValue) bool
	}{
		{`{^int32: {min: 5, max: 9}}`, bson.TypeInt32, func(v bson.RawValue) bool { x := v.Int32(); return x >= 5 && x <= 9 }},
		{`{^int64: {min: -3, max: 3, dist: zipfian}}`, bson.TypeInt64, func(v bson.RawValue) bool { x := v.Int64(); return x >= -3 && x <= 3 }},
		{`{^int64: {min: 10, max: 20, dist: normal}}`, bson.TypeInt64, func(v bson.RawValue) bool { x := v.Int64(); return x >= 10 && x <= 20 }},
		// sequence counts with the number: 100 + 37 % 50.
		{`{^int64: {min: 100, max: 149, dist: sequence}}`, bson.TypeInt64, func(v bson.RawValue) bool { return v.Int64() == 137 }},
		{`{^number: {}}`, bson.TypeInt64, func(v bson.RawValue) bool { return v.Int64() == 37 }},
		{`{^double: {min: 1.5, max: 2.5}}`, bson.TypeDouble, func(v bson.RawValue) bool { x := v.Double(); return x >= 1.5 && x <= 2.5 }},
		{`{^double: {min: 0, max: 1, dist: normal, mean: 0.5, stddev: 0.1}}`, bson.TypeDouble, func(v bson.RawValue) bool { x := v.Double(); return x >= 0 && x <= 1 }},
		{`{^decimal: {min: 5, max: 5, scale: 2}}`, bson.TypeDecimal128, func(v bson.RawValue) bool { return v.Decimal128().String() == "5.00" }},
		{`{^decimal: {min: -1.25, max: -1.25, scale: 3}}`, bson.TypeDecimal128, func(v bson.RawValue) bool { return v.Decimal128().String() == "-1.250" }},
		{`{^string: 12}`, bson.TypeString, func(v bson.RawValue) bool { return len(v.StringValue()) == 12 }},
		{`{^string: {length: {min: 3, max: 5}, alphabet: "xy"}}`, bson.TypeString, func(v bson.RawValue) bool {
			s := v.StringValue()
			return len(s) >= 3 && len(s) <= 5 && strings.Trim(s, "xy") == ""
		}},
		{`{^bool: 1}`, bson.TypeBoolean, func(v bson.RawValue) bool { return v.Boolean() }},
		{`{^bool: {p: 0}}`, bson.TypeBoolean, func(v bson.RawValue) bool { return !v.Boolean() }},
		{`{^date: {from: 2024-01-01, to: 2024-01-02}}`, bson.TypeDateTime, func(v bson.RawValue) bool {
			d := v.Time()
			return !d.Before(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) && !d.After(time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC))
		}},
		{`{^objectId: {}}`, bson.TypeObjectID, func(v bson.RawValue) bool {
			return v.ObjectID().Timestamp().Unix() == objectIDEpoch && v.ObjectID()[11] == 37
		}},
		{`{^uuid: {}}`, bson.TypeBinary, func(v bson.RawValue) bool {
			sub, b := v.Binary()
			return sub == 4 && len(b) == 16 && b[6]>>4 == 4 && b[8]>>6 == 2
		}},
		{`{^binary: 33}`, bson.TypeBinary, func(v bson.RawValue) bool { sub, b := v.Binary(); return sub == 0 && len(b) == 33 }},
		{`{^array: {of: {^int32: {min: 1, max: 1}}, length: 11}}`, bson.TypeArray, func(v bson.RawValue) bool {
			vals, err := v.Array().Values()
			return err == nil && len(vals) == 11 && vals[10].Int32() == 1
		}},
		{`{^array: {of: {a: {^string: 2}, b: [1, x]}, length: {min: 2, max: 2}}}`, bson.TypeArray, func(v bson.RawValue) bool {
			vals, _ := v.Array().Values()
			return len(vals) == 2 && len(vals[1].Document().Lookup("a").StringValue()) == 2 && vals[0].Document().Lookup("b", "1").StringValue() == "x"
		}},
		{`{^choice: [red, green]}`, bson.TypeString, func(v bson.RawValue) bool { s := v.StringValue(); return s == "red" || s == "green" }},
		{`{^choice: {from: [1, 2], weights: [0, 1]}}`, bson.TypeInt32, func(v bson.RawValue) bool { return v.Int32() == 2 }},
		{`{^fake: email}`, bson.TypeString, func(v bson.RawValue) bool { return strings.Contains(v.StringValue(), "@") }},
		{`{^ref: c.k}`, bson.TypeInt32, func(v bson.RawValue) bool { return v.Int32() == 7 }},
		{`{nested: {deep: [1, 2.5, true, null, 2024-05-01, 5000000000]}}`, bson.TypeEmbeddedDocument, func(v bson.RawValue) bool {
			a, _ := v.Document().Lookup("nested", "deep").Array().Values()
			return a[0].Type == bson.TypeInt32 && a[1].Double() == 2.5 && a[2].Boolean() && a[3].Type == bson.TypeNull &&
				a[4].Time().Equal(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)) && a[5].Int64() == 5000000000
		}},
	}
	for _, tt := range tests {
		t.Run(tt.gen, func(t *testing.T) {
			t.Parallel()
			// ^ref c.k needs a field k in c: the helper's template has only
			// v, so ref cases get their own file.
			var v bson.RawValue
			if strings.Contains(tt.gen, "^ref") {
				f := mustParse(t, `
collections:
  c:
    documents: 10
    document: {k: 7, v: `+tt.gen+`}
operations: [{name: i, kind: insertOne, collection: c}]
phases: {load: {count: 1}}
`)
				b, _ := f.Collections[0].Document.Append(nil, NewCtx(), 37)
				v = bson.Raw(b).Lookup("v")
			} else {
				v = valueOf(t, tt.gen, 37)
			}
			if v.Type != tt.typ {
				t.Fatalf("type %v, want %v", v.Type, tt.typ)
			}
			if !tt.check(v) {
				t.Errorf("value %v fails its check", v)
			}
		})
	}
}

// TestDeterministic: a document depends only on (seed, collection, field,
// number): generating others first, or in another Ctx, changes nothing;
// another seed, number or collection changes it.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../workloads/insert1k.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("insert1k.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Collections[0].Document
	fresh, _ := doc.Append(nil, NewCtx(), 42)
	c := NewCtx()
	var buf []byte
	for n := range int64(100) {
		buf, _ = doc.Append(buf[:0], c, n)
	}
	again, _ := doc.Append(nil, c, 42)
	if !bytes.Equal(fresh, again) {
		t.Fatal("document 42 differs after other documents were generated")
	}
	other, _ := doc.Append(nil, c, 43)
	if bytes.Equal(fresh, other) {
		t.Fatal("documents 42 and 43 are the same")
	}
	f2, _ := Parse("insert1k.yaml", bytes.Replace(src, []byte("seed: 1"), []byte("seed: 2"), 1), nil)
	seeded, _ := f2.Collections[0].Document.Append(nil, NewCtx(), 42)
	if bytes.Equal(fresh, seeded[:len(fresh)]) {
		t.Fatal("seed 2 generates seed 1's document")
	}
	if n := len(fresh); n < 900 || n > 1200 {
		t.Errorf("document is %d bytes; the built-in insert benchmark promises about 1 KB", n)
	}
}

// TestFieldsIndependent: one field's values are a function of its own key,
// so the same template under another collection name draws other values,
// and two fields with the same generator do not repeat each other.
func TestFieldsIndependent(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  a: {document: {x: {^int64: {}}, y: {^int64: {}}}}
  b: {document: {x: {^int64: {}}, y: {^int64: {}}}}
operations: [{name: i, kind: insertOne, collection: a}]
phases: {load: {count: 1}}
`)
	da, _ := f.Collections[0].Document.Append(nil, NewCtx(), 1)
	db, _ := f.Collections[1].Document.Append(nil, NewCtx(), 1)
	ax, ay := bson.Raw(da).Lookup("x").Int64(), bson.Raw(da).Lookup("y").Int64()
	bx := bson.Raw(db).Lookup("x").Int64()
	if ax == ay || ax == bx {
		t.Errorf("a.x=%d a.y=%d b.x=%d: fields or collections share values", ax, ay, bx)
	}
}

// TestRefFindsExistingKeys: ^ref regenerates the referenced document's
// field, so every referenced _id is one the load inserted.
func TestRefFindsExistingKeys(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  customers:
    documents: 50
    document: {_id: {^uuid: {}}, name: {^fake: name}}
  orders:
    document: {customer: {^ref: {field: customers._id, dist: zipfian}}}
operations: [{name: i, kind: insertOne, collection: orders}]
phases: {load: {count: 1}}
`)
	c := NewCtx()
	ids := map[string]bool{}
	for n := range int64(50) {
		b, _ := f.Collections[0].Document.Append(nil, c, n)
		_, id := bson.Raw(b).Lookup("_id").Binary()
		ids[string(id)] = true
	}
	if len(ids) != 50 {
		t.Fatalf("%d distinct customer ids of 50", len(ids))
	}
	for n := range int64(200) {
		b, _ := f.Collections[1].Document.Append(nil, c, n)
		_, id := bson.Raw(b).Lookup("customer").Binary()
		if !ids[string(id)] {
			t.Fatalf("order %d refers to customer %x, which the load never inserts", n, id)
		}
	}
}

// TestLetSharedAcrossSteps: a let is drawn once per operation and every
// step that names it sees the same value; the next operation draws anew.
func TestLetSharedAcrossSteps(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  c: {document: {a: 1}}
operations:
  - name: tx
    kind: transaction
    collection: c
    let: {who: {^int64: {}}}
    steps:
      - {kind: find, filter: {who: {^let: who}}}
      - {kind: updateOne, filter: {who: {^let: who}}, update: {$inc: {n: 1}}}
phases: {measure: {count: 1}}
`)
	op := f.Operations[0]
	c := NewCtx()
	seen := map[int64]bool{}
	for n := range int64(20) {
		c.BeginOperation(op, n)
		a, _ := op.Steps[0].Filter.Append(nil, c, n)
		b, _ := op.Steps[1].Filter.Append(nil, c, n)
		if !bytes.Equal(a, b) {
			t.Fatalf("operation %d: the steps saw different lets", n)
		}
		seen[bson.Raw(a).Lookup("who").Int64()] = true
	}
	if len(seen) < 19 {
		t.Errorf("20 operations drew %d distinct lets", len(seen))
	}
}

func TestFixedTemplateEncodedOnce(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  c: {document: {a: 1}}
operations:
  - {name: q, kind: find, collection: c, filter: {a: {$gt: 1}}, sort: {a: -1}}
  - {name: r, kind: find, collection: c, filter: {a: {^int32: {}}}}
phases: {measure: {count: 1}}
`)
	if !f.Operations[0].Filter.Fixed() || !f.Operations[0].Sort.Fixed() {
		t.Error("a filter without generators is not fixed")
	}
	if f.Operations[1].Filter.Fixed() {
		t.Error("a filter with a generator is fixed")
	}
	b, _ := f.Operations[0].Filter.Append(nil, NewCtx(), 0)
	want, _ := bson.Marshal(bson.D{{Key: "a", Value: bson.D{{Key: "$gt", Value: int32(1)}}}})
	if !bytes.Equal(b, want) {
		t.Errorf("filter encodes as %v, want %v", bson.Raw(b), bson.Raw(want))
	}
}

func TestDecimal128MatchesDriver(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		coef  int64
		scale int
		want  string
	}{{1999, 2, "19.99"}, {-5, 0, "-5"}, {0, 3, "0.000"}, {math.MaxInt64, 18, "9.223372036854775807"}} {
		h, l := decimal128(tt.coef, tt.scale)
		if got := bson.NewDecimal128(h, l).String(); got != tt.want {
			t.Errorf("decimal128(%d, %d) = %s, want %s", tt.coef, tt.scale, got, tt.want)
		}
	}
}

func TestObjectIDsIncrease(t *testing.T) {
	t.Parallel()
	c := NewCtx()
	g := &objectIDGen{epoch: objectIDEpoch}
	var prev []byte
	for _, n := range []int64{0, 1, 255, 256, 1 << 24, 1<<24 + 1, 1 << 40} {
		c.n = n
		b, _ := g.appendValue(nil, c, 99)
		if prev != nil && bytes.Compare(prev, b) >= 0 {
			t.Fatalf("ObjectId of %d is not above the one before it", n)
		}
		prev = b
	}
}

func TestNowUsesClock(t *testing.T) {
	t.Parallel()
	c := NewCtx()
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	c.now = func() time.Time { return at }
	b, ty := (&dateGen{now: true}).appendValue(nil, c, 0)
	v := bson.RawValue{Type: bson.TypeDateTime, Value: b}
	if ty != tDate || v.Time().UnixMilli() != at.UnixMilli() {
		t.Error("^now does not take the Ctx's clock")
	}
}

// TestStringCharacters: every character of the alphabet is drawn, each
// about equally often.
func TestStringCharacters(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  c: {document: {s: {^string: {length: 1000, alphabet: "abcdefg"}}}}
operations: [{name: i, kind: insertOne, collection: c}]
phases: {load: {count: 1}}
`)
	counts := map[rune]int{}
	c := NewCtx()
	for n := range int64(100) {
		b, _ := f.Collections[0].Document.Append(nil, c, n)
		for _, r := range bson.Raw(b).Lookup("s").StringValue() {
			counts[r]++
		}
	}
	if len(counts) != 7 {
		t.Fatalf("characters drawn: %v", counts)
	}
	for r, n := range counts {
		// 100,000 draws of 7: about 14,286 each, sd about 111.
		if n < 13800 || n > 14800 {
			t.Errorf("%c drawn %d times of 100000, want about 14286", r, n)
		}
	}
}

// TestSharedTemplate: workers share compiled templates, each with its own
// Ctx, and get the same bytes as one alone (go test -race checks the
// sharing).
func TestSharedTemplate(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("../../workloads/insert1k.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("insert1k.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Collections[0].Document
	want, _ := doc.Append(nil, NewCtx(), 5)
	done := make(chan []byte, 4)
	for range 4 {
		go func() {
			c := NewCtx()
			var b []byte
			for n := range int64(50) {
				b, _ = doc.Append(b[:0], c, n)
			}
			b, _ = doc.Append(b[:0], c, 5)
			done <- b
		}()
	}
	for range 4 {
		if got := <-done; !bytes.Equal(got, want) {
			t.Fatal("a worker generated document 5 otherwise")
		}
	}
}

// TestRefSequenceVisitsEachOnce: ^ref with dist sequence gives operation
// n document n's field, so N operations visit each loaded document once
// (a delete of every document, in the order of its key's values rather
// than of its insertion when the key is random), then wrap.
func TestRefSequenceVisitsEachOnce(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  posts:
    documents: 20
    document: {_id: {^uuid: {}}}
operations:
  - {name: del, kind: deleteOne, collection: posts, filter: {_id: {^ref: {field: posts._id, dist: sequence}}}}
phases: {measure: {count: 20}}
`)
	c := NewCtx()
	seen := map[string]bool{}
	var first string
	for n := range int64(21) {
		b, _ := f.Collections[0].Document.Append(nil, c, n%20)
		_, want := bson.Raw(b).Lookup("_id").Binary()
		op := f.Operations[0]
		c.BeginOperation(op, n)
		fb, _ := op.Filter.Append(nil, c, n)
		_, got := bson.Raw(fb).Lookup("_id").Binary()
		if string(got) != string(want) {
			t.Fatalf("operation %d refers to %x, want document %d's %x", n, got, n%20, want)
		}
		if n == 0 {
			first = string(got)
		}
		if n < 20 {
			seen[string(got)] = true
		} else if string(got) != first {
			t.Errorf("operation 20 does not wrap to document 0")
		}
	}
	if len(seen) != 20 {
		t.Errorf("%d distinct documents in 20 operations", len(seen))
	}
}
