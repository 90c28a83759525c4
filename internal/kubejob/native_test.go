package kubejob

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/workloads"
)

// TestNativeWorkloadManifest: a native workload file travels in the
// ConfigMap as the YAML the parser read, comments left out and secrets
// masked, under the name the pods' -P gives; the manifest is golden. The
// pods read from it the same workload as the command line read here,
// but for the masked values.
func TestNativeWorkloadManifest(t *testing.T) {
	t.Parallel()
	s := valid()
	s.Parts = 4
	name, err := s.AddWorkload("testdata/shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if name != WorkloadDir+"/shop.yaml" {
		t.Errorf("the pods' -P is %s, want %s/shop.yaml", name, WorkloadDir)
	}
	s.Args = append([]string{"run", "mongodb", "-P", name, "-p", "orders=5000"}, s.PartFlags(false)...)
	out, err := s.Manifest(s.Instructions())
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "native-manifest.yaml", out)

	held := s.Workloads["shop.yaml"]
	for _, secret := range []string{"hunter2", "s3cret", "A comment the pods", "popular customers"} {
		if strings.Contains(held, secret) {
			t.Errorf("the ConfigMap holds %q:\n%s", secret, held)
		}
	}
	src, err := os.ReadFile("testdata/shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	here, err := native.Parse("shop.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	there, err := native.Parse("shop.yaml", []byte(held), nil)
	if err != nil {
		t.Fatalf("the pods cannot read the ConfigMap's file: %v\n%s", err, held)
	}
	names := func(f *native.File) []string {
		var out []string
		for _, p := range f.Parameters {
			out = append(out, p.Name)
		}
		for _, op := range f.Operations {
			out = append(out, string(op.Kind)+":"+op.Name)
		}
		return out
	}
	if !slices.Equal(names(here), names(there)) || there.Load.Count != here.Load.Count || there.Measure.Duration != here.Measure.Duration ||
		there.Measure.Threads != here.Measure.Threads || there.Collections[0].Documents != here.Collections[0].Documents {
		t.Errorf("the pods read %v (load %+v, measure %+v), here %v (load %+v, measure %+v)",
			names(there), there.Load, there.Measure, names(here), here.Load, here.Measure)
	}
	// Generated values are the same: the template's seeds are its field
	// paths, which the masking keeps (the note's text holds the masks).
	for _, field := range []string{"customer", "total", "_id"} {
		a, _ := here.Collections[0].Document.Append(nil, native.NewCtx(), 42)
		b, _ := there.Collections[0].Document.Append(nil, native.NewCtx(), 42)
		if av, bv := lookup(a, field), lookup(b, field); av != bv {
			t.Errorf("document 42's %s: %s here, %s in the pods", field, av, bv)
		}
	}
}

// TestCheckNative: a load split into parts by count is accepted; one
// that runs for a duration is refused, as its parts would insert the same
// documents; one part, or a run, need no split of the load.
func TestCheckNative(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("testdata/shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	byCount, err := native.Parse("shop.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	byTime, err := native.Parse("shop.yaml", []byte(strings.Replace(string(src), "    count: ${orders}\n", "    duration: 30s\n", 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		f       *native.File
		command string
		parts   int
		want    string
	}{
		{byCount, "load", 4, ""},
		{byTime, "load", 1, ""},
		{byTime, "run", 4, ""},
		{byTime, "load", 4, "-P shop.yaml: its load phase runs for a duration, which cannot be split into 4 parts inserting disjoint documents; accepted: a load phase with count"},
	} {
		s := valid()
		s.Parts = tc.parts
		err := s.CheckNative(tc.f, tc.command)
		if got := errString(err); got != tc.want {
			t.Errorf("%s of %d parts, load %+v: %q, want %q", tc.command, tc.parts, tc.f.Load, got, tc.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// lookup is a document's field as Extended JSON.
func lookup(doc []byte, field string) string {
	return bson.Raw(doc).Lookup(field).String()
}

// TestNativeConfigMapRoundTrip: every built-in native workload, held as
// the ConfigMap holds it, generates the same documents in the pods as
// here: the re-encoded YAML keeps every value's type (dates, numbers,
// quoted strings).
func TestNativeConfigMapRoundTrip(t *testing.T) {
	t.Parallel()
	entries, err := workloads.Files.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, e := range entries {
		src, err := workloads.Files.ReadFile(e.Name())
		if err != nil || !native.IsNative(src) {
			continue
		}
		tried++
		held, _, err := nativeConfigMapWorkload(e.Name(), src)
		if err != nil {
			t.Fatal(err)
		}
		here, err := native.Parse(e.Name(), src, nil)
		if err != nil {
			t.Fatal(err)
		}
		there, err := native.Parse(e.Name(), []byte(held), nil)
		if err != nil {
			t.Fatalf("%s: the pods cannot read the ConfigMap's file: %v\n%s", e.Name(), err, held)
		}
		for i, c := range here.Collections {
			for _, n := range []int64{0, 42, 99999} {
				a, _ := c.Document.Append(nil, native.NewCtx(), n)
				b, _ := there.Collections[i].Document.Append(nil, native.NewCtx(), n)
				if !bytes.Equal(a, b) {
					t.Errorf("%s: collection %s, document %d: %s here, %s in the pods", e.Name(), c.Name, n, bson.Raw(a), bson.Raw(b))
				}
			}
		}
	}
	if tried == 0 {
		t.Fatal("no built-in native workload to try")
	}
}

// TestDatasetManifest: the dataset files a native workload names travel
// in the ConfigMap beside it, as they are, under their base names, which
// the workload file in the ConfigMap names them by; the manifest is
// golden. The pods, reading the ConfigMap's files in one directory,
// generate the same documents as the command line here.
func TestDatasetManifest(t *testing.T) {
	t.Parallel()
	s := valid()
	name, err := s.AddWorkload("testdata/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s.Args = append([]string{"run", "mongodb", "-P", name}, s.PartFlags(false)...)
	out, err := s.Manifest(s.Instructions())
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "dataset-manifest.yaml", out)

	keys := slices.Sorted(maps.Keys(s.Workloads))
	if want := []string{"catalog.yaml", "cities.txt", "products.jsonl"}; !slices.Equal(keys, want) {
		t.Errorf("the ConfigMap holds %v, want %v", keys, want)
	}
	for key, path := range map[string]string{"cities.txt": "testdata/data/cities.txt", "products.jsonl": "testdata/products.jsonl"} {
		if src, err := os.ReadFile(path); err != nil || s.Workloads[key] != string(src) {
			t.Errorf("the ConfigMap's %s is not %s as it is (%v)", key, path, err)
		}
	}
	mounted := t.TempDir()
	for key, content := range s.Workloads {
		if err := os.WriteFile(filepath.Join(mounted, key), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile("testdata/catalog.yaml")
	if err != nil {
		t.Fatal(err)
	}
	here, err := native.Parse("testdata/catalog.yaml", src, nil)
	if err != nil {
		t.Fatal(err)
	}
	there, err := native.Parse(filepath.Join(mounted, "catalog.yaml"), []byte(s.Workloads["catalog.yaml"]), nil)
	if err != nil {
		t.Fatalf("the pods cannot read the ConfigMap's files: %v", err)
	}
	if len(there.Datasets) != 2 || there.Datasets[0].Path != filepath.Join(mounted, "cities.txt") {
		t.Errorf("the pods read the datasets %+v", there.Datasets)
	}
	for n := range int64(50) {
		a, _ := here.Collections[0].Document.Append(nil, native.NewCtx(), n)
		b, _ := there.Collections[0].Document.Append(nil, native.NewCtx(), n)
		if !bytes.Equal(a, b) {
			t.Fatalf("document %d: %s here, %s in the pods", n, bson.Raw(a), bson.Raw(b))
		}
	}
}

// TestDatasetRefused: what the pods could not read, or the ConfigMap not
// hold, is refused before any manifest, in one line.
func TestDatasetRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	workload := func(name string, gens ...string) string {
		doc := ""
		for i, g := range gens {
			doc += fmt.Sprintf("      f%d: %s\n", i, g)
		}
		return write(name, "collections:\n  c:\n    document:\n"+doc+"operations: [{name: i, kind: insertOne, collection: c}]\nphases: {load: {count: 1}}\n")
	}
	write("a.txt", "x\n")
	write("other/a.txt", "y\n")
	write("big.txt", strings.Repeat("0123456789abcde\n", MaxConfigMapBytes/16+1))
	write("half.txt", strings.Repeat("0123456789abcde\n", MaxConfigMapBytes/16/2+1))
	write("half.jsonl", strings.Repeat("\"0123456789abcd\"\n", MaxConfigMapBytes/17/2+1))
	for _, tc := range []struct {
		file, want string
	}{
		{workload("param.yaml", "{^dataset: {file: \"${cities}\"}}"), "param.yaml:4:29: the ^dataset file ${cities} is named by a parameter, which the pods cannot follow to a file here; accepted: the file's name written out"},
		{workload("missing.yaml", "{^dataset: nope.txt}"), "missing.yaml:4:22: cannot read dataset file nope.txt: no such file or directory"},
		{workload("clash.yaml", "{^dataset: a.txt}", "{^dataset: other/a.txt}"), "clash.yaml:5:22: two dataset files are named a.txt: the pods find them by name in one directory; rename one"},
		{workload("big.yaml", "{^dataset: big.txt}"), fmt.Sprintf("big.yaml: its workload and dataset files come to %d bytes or more, which no ConfigMap holds; accepted: at most %d bytes in all (Kubernetes' 1 MiB limit less room for the ConfigMap's own fields): a smaller dataset file", (MaxConfigMapBytes/16+1)*16, MaxConfigMapBytes)},
		{workload("halves.yaml", "{^dataset: half.txt}", "{^dataset: half.jsonl}"), "halves.yaml: its workload and dataset files come to "},
	} {
		s := valid()
		_, err := s.AddWorkload(tc.file)
		got := strings.ReplaceAll(errString(err), dir+string(filepath.Separator), "")
		if !strings.HasPrefix(got, "-P "+tc.want) || strings.Contains(got, "\n") {
			t.Errorf("%s:\n got %s\nwant -P %s", tc.file, got, tc.want)
		}
		if len(s.Workloads) != 0 {
			t.Errorf("%s: the ConfigMap holds %d files after the refusal", tc.file, len(s.Workloads))
		}
	}
}

// TestDatasetNameClash: a dataset file and another -P or dataset file of
// one name cannot share the pods' directory; the same file twice can.
func TestDatasetNameClash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	workload := func(name, file string) string {
		return write(name, "collections:\n  c:\n    document: {f: {^dataset: "+file+"}}\noperations: [{name: i, kind: insertOne, collection: c}]\nphases: {load: {count: 1}}\n")
	}
	write("a/cities.txt", "x\n")
	write("b/cities.txt", "y\n")
	first, again, other := workload("a/w1.yaml", "cities.txt"), workload("a/w2.yaml", "cities.txt"), workload("b/w3.yaml", "cities.txt")
	s := valid()
	for _, f := range []string{first, again} {
		if _, err := s.AddWorkload(f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	_, err := s.AddWorkload(other)
	want := "-P " + other + ": its dataset file cities.txt has the name of another -P or dataset file: the pods find them by name in one directory; rename one"
	if got := errString(err); got != want {
		t.Errorf("a second cities.txt: %q, want %q", got, want)
	}
	if s.Workloads["cities.txt"] != "x\n" || len(s.Workloads) != 3 {
		t.Errorf("the ConfigMap holds %v after the refusal", slices.Sorted(maps.Keys(s.Workloads)))
	}
	self := write("c/d.txt", "collections:\n  c:\n    document: {f: {^dataset: d.txt}}\noperations: [{name: i, kind: insertOne, collection: c}]\nphases: {load: {count: 1}}\n")
	v := valid()
	if _, err := v.AddWorkload(self); errString(err) != "-P "+self+" names a dataset file d.txt, the workload file's own name: the pods find both by name in one directory; rename one" {
		t.Errorf("a workload that is its own dataset: %v", err)
	}
}
