package native

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// datasetWorkload is a workload whose collection's document is {v: GEN,
// w: GEN2}; GEN starts on line 5, column 20.
func datasetWorkload(gen, gen2 string) string {
	return `collections:
  c:
    documents: 100
    document:
      v: {x: 1, y: ` + gen + `}
      w: ` + gen2 + `
operations: [{name: i, kind: insertOne, collection: c}]
phases: {load: {count: 1}}
`
}

// datasetDir writes files into a temporary directory, the workload
// file's, and returns it.
func datasetDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// datasetValue is field v.y of document n.
func datasetValue(t *testing.T, f *File, n int64) bson.RawValue {
	t.Helper()
	b, _ := f.Collections[0].Document.Append(nil, NewCtx(), n)
	if err := bson.Raw(b).Validate(); err != nil {
		t.Fatalf("document %d: invalid BSON: %v", n, err)
	}
	return bson.Raw(b).Lookup("v", "y")
}

// TestDatasetErrors: each thing wrong with ^dataset is one error at its
// place in the workload file, naming the dataset file's line where one is
// at fault, and what is accepted.
func TestDatasetErrors(t *testing.T) {
	t.Parallel()
	dir := datasetDir(t, map[string]string{
		"ok.txt":      "a\n",
		"empty.txt":   "",
		"blank.txt":   "\n\n",
		"gap.txt":     "a\n\nb\n",
		"twoends.txt": "a\nb\n\n",
		"latin1.txt":  "ok\ncaf\xe9\n",
		"bad.jsonl":   "{\"a\": 1}\n{\"a\": }\n",
		"two.ndjson":  "1\n1, \"w\": 2\n",
		"close.jsonl": "1\n2}, {\"x\": 3\n",
		"extra.jsonl": "{\"a\": 1}}\n",
		"oid.jsonl":   "{\"$oid\": \"xyz\"}\n",
		"dir.txt/x":   "",
		"cities.csv":  "a\n",
		"many.txt":    strings.Repeat("a\n", MaxDatasetValues+1),
	})
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxDatasetBytes+1); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ gen, want string }{
		{`{^dataset: nope.txt}`, "w.yaml:5:31: collection c: document: ^dataset: dataset file " + filepath.Join(dir, "nope.txt") + " does not exist; accepted: a path relative to the workload file's directory, or absolute"},
		{`{^dataset: dir.txt}`, "w.yaml:5:31: collection c: document: ^dataset: cannot read dataset file " + filepath.Join(dir, "dir.txt") + ": is a directory"},
		{`{^dataset: empty.txt}`, "w.yaml:5:31: collection c: document: ^dataset: dataset file empty.txt is empty; accepted: one value a line, at least one"},
		{`{^dataset: blank.txt}`, "w.yaml:5:31: collection c: document: ^dataset: dataset file blank.txt is empty; accepted: one value a line, at least one"},
		{`{^dataset: gap.txt}`, `w.yaml:5:31: collection c: document: ^dataset: gap.txt:2: a blank line; accepted: one value on every line (an empty string is "" in a .jsonl file)`},
		{`{^dataset: twoends.txt}`, `w.yaml:5:31: collection c: document: ^dataset: twoends.txt:3: a blank line; accepted: one value on every line (an empty string is "" in a .jsonl file)`},
		{`{^dataset: latin1.txt}`, "w.yaml:5:31: collection c: document: ^dataset: latin1.txt:2: not valid UTF-8; accepted: UTF-8 text, as BSON strings are"},
		{`{^dataset: bad.jsonl}`, "w.yaml:5:31: collection c: document: ^dataset: bad.jsonl:2: not one JSON value; accepted: one relaxed Extended JSON value a line"},
		{`{^dataset: two.ndjson}`, "w.yaml:5:31: collection c: document: ^dataset: two.ndjson:2: not one JSON value; accepted: one relaxed Extended JSON value a line"},
		{`{^dataset: close.jsonl}`, "w.yaml:5:31: collection c: document: ^dataset: close.jsonl:2: not one JSON value; accepted: one relaxed Extended JSON value a line"},
		{`{^dataset: extra.jsonl}`, "w.yaml:5:31: collection c: document: ^dataset: extra.jsonl:1: not one JSON value; accepted: one relaxed Extended JSON value a line"},
		{`{^dataset: oid.jsonl}`, "w.yaml:5:31: collection c: document: ^dataset: oid.jsonl:1: not a relaxed Extended JSON value: "},
		{`{^dataset: cities.csv}`, "w.yaml:5:31: collection c: document: ^dataset: cities.csv is not a dataset file by its name; accepted: a name ending .txt (one string a line) or .jsonl or .ndjson (one Extended JSON value a line)"},
		{`{^dataset: big.txt}`, "w.yaml:5:31: collection c: document: ^dataset: dataset file " + big + " is larger than 16 MiB; accepted: at most 16777216 bytes and 1048576 values"},
		{`{^dataset: many.txt}`, "w.yaml:5:31: collection c: document: ^dataset: dataset file many.txt has more than 1048576 values; accepted: at most 1048576 lines"},
		{`{^dataset: ""}`, `w.yaml:5:31: collection c: document: ^dataset: the file name is empty; accepted: a .txt, .jsonl, .ndjson file, relative to the workload file's directory`},
		{`{^dataset: {dist: zipfian}}`, "w.yaml:5:31: collection c: document: ^dataset has no file; give the dataset file as file: (accepted: .txt, .jsonl, .ndjson)"},
		{`{^dataset: {file: ok.txt, dist: skewed}}`, `w.yaml:5:52: collection c: document: ^dataset: dist is "skewed"; accepted: uniform, zipfian, normal, sequence`},
		{`{^dataset: {file: ok.txt, weights: [1]}}`, `w.yaml:5:46: unknown key "weights" in collection c: document: ^dataset; accepted: file, dist`},
		{`{^dataset: [a.txt]}`, `w.yaml:5:31: collection c: document: ^dataset: file is a list; expected a string`},
	} {
		_, err := Parse(filepath.Join(dir, "w.yaml"), []byte(datasetWorkload(tc.gen, "1")), nil)
		errs, ok := err.(*Errors)
		if !ok || len(errs.List) != 1 {
			t.Errorf("%s: %v, want one error %q", tc.gen, err, tc.want)
			continue
		}
		// The workload file's path in the message is the one given to
		// Parse.
		got := strings.TrimPrefix(errs.Lines()[0], dir+string(filepath.Separator))
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.gen, got, tc.want)
		}
	}
}

// TestDatasetValues: .txt lines are strings (CRLF, a byte order mark and
// the last newline are not part of them); .jsonl lines are any BSON
// value, a document embedded whole into the generated one; sequence
// walks the lines in order, wrapping.
func TestDatasetValues(t *testing.T) {
	t.Parallel()
	dir := datasetDir(t, map[string]string{
		"data/cities.txt": "\xef\xbb\xbfLisbon\r\nOslo\r\n  Porto Alegre \n",
		"products.jsonl": `{"sku": "A1", "price": {"$numberDecimal": "9.99"}, "tags": ["x", "y"], "at": {"$date": "2024-01-02T00:00:00Z"}}
7
3000000000
1.5
"text"
null
[1, {"k": true}]
{"$oid": "65a1b2c3d4e5f60718293a4b"}
`,
	})
	f, err := Parse(filepath.Join(dir, "w.yaml"), []byte(datasetWorkload(`{^dataset: {file: data/cities.txt, dist: sequence}}`,
		`{^dataset: {file: products.jsonl, dist: sequence}}`)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for n, want := range []string{"Lisbon", "Oslo", "  Porto Alegre ", "Lisbon"} {
		if got := datasetValue(t, f, int64(n)); got.Type != bson.TypeString || got.StringValue() != want {
			t.Errorf("document %d: %v, want the string %q", n, got, want)
		}
	}
	products := []struct {
		typ  bson.Type
		want string // the value as the driver prints it: canonical Extended JSON
	}{
		{bson.TypeEmbeddedDocument, `{"sku": "A1","price": {"$numberDecimal":"9.99"},"tags": ["x","y"],"at": {"$date":{"$numberLong":"1704153600000"}}}`},
		{bson.TypeInt32, `{"$numberInt":"7"}`},
		{bson.TypeInt64, `{"$numberLong":"3000000000"}`},
		{bson.TypeDouble, `{"$numberDouble":"1.5"}`},
		{bson.TypeString, `"text"`},
		{bson.TypeNull, `null`},
		{bson.TypeArray, `[{"$numberInt":"1"},{"k": true}]`},
		{bson.TypeObjectID, `{"$oid":"65a1b2c3d4e5f60718293a4b"}`},
	}
	for n, want := range products {
		b, _ := f.Collections[0].Document.Append(nil, NewCtx(), int64(n))
		doc := bson.Raw(b)
		v := doc.Lookup("w")
		if v.Type != want.typ || v.String() != want.want {
			t.Errorf("document %d: w is %s %s, want %s %s", n, v.Type, v.String(), want.typ, want.want)
		}
		// The generated document around it is whole: its other fields
		// are where they were, and it is valid BSON.
		if x := doc.Lookup("v", "x"); x.Int32() != 1 {
			t.Errorf("document %d: v.x is %v, want 1", n, x)
		}
	}
	b, _ := f.Collections[0].Document.Append(nil, NewCtx(), 0)
	if sku := bson.Raw(b).Lookup("w", "sku"); sku.StringValue() != "A1" {
		t.Errorf("w.sku of the embedded document is %v, want A1", sku)
	}
	if len(f.Datasets) != 2 || f.Datasets[0] != (Dataset{Name: "data/cities.txt", Path: filepath.Join(dir, "data/cities.txt"), Values: 3, Bytes: 33}) ||
		f.Datasets[1].Name != "products.jsonl" || f.Datasets[1].Values != len(products) {
		t.Errorf("Datasets %+v", f.Datasets)
	}
}

// TestDatasetReadOnce: a file two fields name is read once and listed
// once; an absolute path is read as given.
func TestDatasetReadOnce(t *testing.T) {
	t.Parallel()
	dir := datasetDir(t, map[string]string{"a.txt": "x\ny\n"})
	abs := filepath.Join(dir, "a.txt")
	f, err := Parse(filepath.Join(t.TempDir(), "w.yaml"), []byte(datasetWorkload(`{^dataset: `+abs+`}`, `{^dataset: {file: `+abs+`}}`)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Datasets) != 1 || f.Datasets[0].Path != abs {
		t.Errorf("Datasets %+v, want %s once", f.Datasets, abs)
	}
	doc := f.Collections[0].Document.g.(*docGen)
	y := doc.fields[0].g.(*docGen).fields[1].g.(*datasetGen)
	w := doc.fields[1].g.(*datasetGen)
	if y.d != w.d {
		t.Errorf("the two fields hold two copies of the dataset")
	}
}

// TestDatasetDistributions: each dist draws lines within the file, with
// its shape: uniform reaches every line about evenly, zipfian favours the
// first, normal the middle, sequence follows the number.
func TestDatasetDistributions(t *testing.T) {
	t.Parallel()
	const lines = 10
	var content strings.Builder
	for i := range lines {
		content.WriteString(string(rune('a'+i)) + "\n")
	}
	dir := datasetDir(t, map[string]string{"l.txt": content.String()})
	const draws = 20000
	for _, tc := range []struct {
		dist  string
		check func(counts [lines]int) bool
	}{
		{"uniform", func(c [lines]int) bool {
			for _, n := range c {
				if n < draws/lines*8/10 || n > draws/lines*12/10 {
					return false
				}
			}
			return true
		}},
		{"zipfian", func(c [lines]int) bool { return c[0] > c[1] && c[1] > c[9] && c[0] > draws/4 }},
		{"normal", func(c [lines]int) bool { return c[4]+c[5] > 3*(c[0]+c[9]) && c[0] > 0 }},
		{"sequence", func(c [lines]int) bool {
			for _, n := range c {
				if n != draws/lines {
					return false
				}
			}
			return true
		}},
	} {
		f, err := Parse(filepath.Join(dir, "w.yaml"), []byte(datasetWorkload(`{^dataset: {file: l.txt, dist: `+tc.dist+`}}`, "1")), nil)
		if err != nil {
			t.Fatal(err)
		}
		var counts [lines]int
		for n := range int64(draws) {
			v := datasetValue(t, f, n).StringValue()
			if len(v) != 1 || v[0] < 'a' || v[0] >= 'a'+lines {
				t.Fatalf("%s: document %d: %q is not a line of the file", tc.dist, n, v)
			}
			if tc.dist == "sequence" && v[0] != byte('a'+n%lines) {
				t.Fatalf("sequence: document %d is %q, want line %d", n, v, n%lines+1)
			}
			counts[v[0]-'a']++
		}
		if !tc.check(counts) {
			t.Errorf("%s: lines drawn %v times of %d", tc.dist, counts, draws)
		}
	}
}

// TestDatasetDeterministic: a value is a function of (seed, field path,
// number): the same in another parse and another Ctx, whatever was
// generated before; another seed or another field draws other lines.
func TestDatasetDeterministic(t *testing.T) {
	t.Parallel()
	var content strings.Builder
	for i := range 1000 {
		content.WriteString("v" + string(rune('0'+i%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i/100)) + "\n")
	}
	dir := datasetDir(t, map[string]string{"l.txt": content.String()})
	src := datasetWorkload(`{^dataset: l.txt}`, `{^dataset: l.txt}`)
	parse := func(src string) *File {
		f, err := Parse(filepath.Join(dir, "w.yaml"), []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b, seeded := parse(src), parse(src), parse("seed: 7\n"+src)
	ctx := NewCtx()
	same, otherField, otherSeed := 0, 0, 0
	for n := int64(99); n >= 0; n-- { // backwards: order must not matter
		x, _ := a.Collections[0].Document.Append(nil, ctx, n)
		y, _ := b.Collections[0].Document.Append(nil, NewCtx(), n)
		z, _ := seeded.Collections[0].Document.Append(nil, NewCtx(), n)
		if string(x) == string(y) {
			same++
		}
		if bson.Raw(x).Lookup("v", "y").StringValue() != bson.Raw(x).Lookup("w").StringValue() {
			otherField++
		}
		if bson.Raw(x).Lookup("v", "y").StringValue() != bson.Raw(z).Lookup("v", "y").StringValue() {
			otherSeed++
		}
	}
	if same != 100 {
		t.Errorf("%d of 100 documents the same in two parses", same)
	}
	// Two independent draws from 1000 lines agree 1 time in 1000.
	if otherField < 95 || otherSeed < 95 {
		t.Errorf("other field differs %d times, other seed %d, of 100", otherField, otherSeed)
	}
}

// TestDatasetAllocatesNothing: a value is bytes copied from the encoded
// file into the caller's buffer.
func TestDatasetAllocatesNothing(t *testing.T) {
	dir := datasetDir(t, map[string]string{"p.jsonl": `{"a": 1, "b": "two"}` + "\n[1, 2]\n"})
	for _, dist := range distNames {
		f, err := Parse(filepath.Join(dir, "w.yaml"), []byte(datasetWorkload(`{^dataset: {file: p.jsonl, dist: `+dist+`}}`, "1")), nil)
		if err != nil {
			t.Fatal(err)
		}
		doc, c := f.Collections[0].Document, NewCtx()
		buf, _ := doc.Append(nil, c, 0)
		buf = buf[:0]
		n := int64(0)
		if allocs := testing.AllocsPerRun(1000, func() {
			n++
			buf, _ = doc.Append(buf[:0], c, n)
		}); allocs != 0 {
			t.Errorf("%s: %v allocations per document", dist, allocs)
		}
	}
}

// BenchmarkDataset draws one value from a 1,000-line file, zipfian, into
// a reused buffer.
func BenchmarkDataset(b *testing.B) {
	var content strings.Builder
	for range 1000 {
		content.WriteString(`{"name": "a product", "price": 9.5}` + "\n")
	}
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.jsonl"), []byte(content.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	f, err := Parse(filepath.Join(dir, "w.yaml"), []byte(datasetWorkload(`{^dataset: {file: p.jsonl, dist: zipfian}}`, "1")), nil)
	if err != nil {
		b.Fatal(err)
	}
	doc := f.Collections[0].Document.g.(*docGen)
	g := doc.fields[0].g.(*docGen).fields[1].g
	c := NewCtx()
	buf, _ := g.appendValue(nil, c, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		c.n = int64(i)
		buf, _ = g.appendValue(buf[:0], c, 1)
	}
}
