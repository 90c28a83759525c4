package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// nativeShop is a small native workload: a load of 30 orders, then a
// measure phase of 40 operations mixing a find by customer, an update
// and an insert.
const nativeShop = `
parameters:
  orders: 30
collections:
  orders:
    documents: ${orders}
    indexes: [{keys: {customer: 1}}]
    document:
      _id: {^number: {}}
      customer: {^int64: {min: 1, max: 5}}
      total: {^double: {min: 1, max: 100}}
operations:
  - {name: insertOrder, kind: insertOne, collection: orders}
  - {name: byCustomer, kind: find, collection: orders, weight: 2, filter: {customer: {^int64: {min: 1, max: 5}}}, limit: 10}
  - {name: touch, kind: updateOne, collection: orders, filter: {_id: {^ref: orders._id}}, update: {$inc: {touched: 1}}}
phases:
  load:
    count: ${orders}
    operations: [insertOrder]
  measure: {count: 40, threads: 2}
`

// TestNativeLoadAndRun: load and run take a native workload through -P,
// its parameters through -p, and print each named operation's section in
// YCSB's summary shape.
func TestNativeLoadAndRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "shop.yaml")
	if err := os.WriteFile(file, []byte(nativeShop), 0o644); err != nil {
		t.Fatal(err)
	}
	url := freshURL(t)
	load := mongobench(t, "load", "mongodb", "-P", file, "-p", "orders=25", "-p", "mongodb.url="+url, "--no-store")
	if load.code != ExitOK {
		t.Fatalf("load: exit %d\n%s", load.code, load.stderr)
	}
	checkThreeFields(t, load.stdout)
	s := parseSummary(t, load.stdout)
	if got := s.int(t, "insertOrder", "Return=OK"); got != 25 {
		t.Errorf("load inserted %d orders, want the -p override's 25:\n%s", got, load.stdout)
	}
	run := mongobench(t, "run", "mongodb", "-P", file, "-p", "orders=25", "-p", "mongodb.url="+url, "--no-store")
	if run.code != ExitOK {
		t.Fatalf("run: exit %d\n%s", run.code, run.stderr)
	}
	s = parseSummary(t, run.stdout)
	total := int64(0)
	for _, op := range []string{"insertOrder", "byCustomer", "touch"} {
		n := s.int(t, op, "Return=OK")
		if n == 0 {
			t.Errorf("run has no successful %s:\n%s", op, run.stdout)
		}
		total += n
	}
	if total != 40 || s.int(t, "OVERALL", "RunTime(ms)") <= 0 {
		t.Errorf("run: %d operations OK, want all 40:\n%s", total, run.stdout)
	}
	if strings.Contains(run.stderr, "unknown property") {
		t.Errorf("the workload's parameter was taken for a YCSB property:\n%s", run.stderr)
	}
}

// TestNativeRefused: what cannot run says so in one line, exit 2.
func TestNativeRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "shop.yaml")
	if err := os.WriteFile(file, []byte(strings.Replace(nativeShop, "kind: find", "kind: fnd", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	noLoad := filepath.Join(dir, "noload.yaml")
	if err := os.WriteFile(noLoad, []byte(strings.Replace(nativeShop, "  load:\n    count: ${orders}\n    operations: [insertOrder]\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	validated := filepath.Join(dir, "validated.yaml")
	if err := os.WriteFile(validated, []byte(strings.Replace(nativeShop, "    indexes:", "    validator: {customer: {$exists: true}}\n    indexes:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	sharded := filepath.Join(dir, "sharded.yaml")
	if err := os.WriteFile(sharded, []byte(strings.Replace(nativeShop, "    indexes:", "    shardKey: {customer: hashed}\n    indexes:", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"load", "mongodb", "-P", validated, "--no-store", "-p", "mongodb.url=" + freshURL(t)}, validated + ": the server cannot run collection orders: FerretDB has no validators; accepted: MongoDB, or the collection without validator"},
		{[]string{"load", "mongodb", "-P", sharded, "--no-store", "-p", "mongodb.url=" + freshURL(t)}, sharded + ": collection orders: shardKey customer:hashed needs a mongos; this is a standalone"},
		{[]string{"load", "mongodb", "-P", file}, file + ":14:30: operation byCustomer: kind \"fnd\" is not an operation kind"},
		{[]string{"load", "mongodb", "-P", noLoad}, "-P " + noLoad + ": the workload has no load phase for mongobench load; add one under phases"},
		{[]string{"sweep", "run", "mongodb", "-P", noLoad, "--vary", "order=1,2", "--no-store"}, "sweep: --vary order: unknown property; the native workload's parameters are orders"},
	} {
		r := mongobench(t, tt.args...)
		if r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line with %q", tt.args, r.code, r.stderr, tt.want)
		}
	}
}

// TestNativeUnsupportedRefused: a run whose phase holds an operation the
// server cannot run (a transaction, on the embedded FerretDB) is refused
// before anything is written or measured: one line naming the operation
// and what is accepted, exit 2, no results file.
func TestNativeUnsupportedRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "shop.yaml")
	withTxn := strings.Replace(nativeShop, "phases:\n", "  - name: checkout\n    kind: transaction\n    steps:\n      - {kind: find, collection: orders, filter: {customer: 1}}\n      - {kind: insertOne, collection: orders}\nphases:\n", 1)
	if err := os.WriteFile(file, []byte(withTxn), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run.json")
	r := mongobench(t, "run", "mongodb", "-P", file, "-p", "mongodb.url="+freshURL(t), "--no-store", "--out", out)
	want := "the server cannot run operation checkout: FerretDB has no multi-document transactions; accepted: a MongoDB replica set or sharded cluster"
	if r.code != ExitBadInput || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and one line with %q", r.code, r.stderr, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a results file was written for a refused run")
	}
}

// TestNativeSweepLoad: a load sweep runs a native workload's load phase
// at each point, its table's columns the phase's operations, each trial
// into dropped collections.
func TestNativeSweepLoad(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "shop.yaml")
	if err := os.WriteFile(file, []byte(nativeShop), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mongobench(t, "sweep", "load", "mongodb", "-P", file, "-p", "orders=10", "-p", "mongodb.url="+freshURL(t),
		"--vary", "threadcount=1,2", "--repeat", "2", "--no-store", "--out-dir", filepath.Join(dir, "out"))
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	lines := strings.Split(r.stdout, "\n")
	if !strings.Contains(lines[0], "insertOrder ops") {
		t.Fatalf("the table's head is %q, want the load phase's operation", lines[0])
	}
	rows := 0
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		// threads, trial, runtime, throughput, insertOrder ops, …: every
		// trial inserted all 10 orders, none a duplicate of the last
		// trial's.
		if len(f) > 5 && (f[1] == "1" || f[1] == "2") {
			rows++
			if f[4] != "10" {
				t.Errorf("trial row %q: want 10 orders inserted", l)
			}
		}
	}
	if rows != 4 {
		t.Errorf("%d trial rows, want 4:\n%s", rows, r.stdout)
	}
}

// TestNativeSweepRun: a run sweep varies a parameter of a native
// workload: each point loads its own data with the load phase read with
// its value, and the table's columns are the measure phase's operations.
func TestNativeSweepRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "shop.yaml")
	if err := os.WriteFile(file, []byte(nativeShop), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mongobench(t, "sweep", "run", "mongodb", "-P", file, "-p", "mongodb.url="+freshURL(t),
		"--vary", "orders=10,20", "--no-store", "--out-dir", filepath.Join(dir, "out"))
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, n := range []string{"10", "20"} {
		if !strings.Contains(r.stderr, ": loaded: "+n+" operations of the load phase in ") {
			t.Errorf("no load of %s orders:\n%s", n, r.stderr)
		}
	}
	head := strings.Split(r.stdout, "\n")[0]
	for _, op := range []string{"byCustomer", "insertOrder", "touch"} {
		if !strings.Contains(head, op+" ") {
			t.Errorf("the table's head %q has no column of %s", head, op)
		}
	}
	if strings.Contains(r.stderr, "unknown property") {
		t.Errorf("the workload's parameter was taken for a YCSB property:\n%s", r.stderr)
	}
}

// TestNativeK8s: k8s takes a native workload: the file travels in the
// ConfigMap as YAML, each part's -P names it there; a load phase that
// runs for a duration cannot be split into parts, exit 2.
func TestNativeK8s(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "shop.yaml")
	if err := os.WriteFile(file, []byte(nativeShop), 0o644); err != nil {
		t.Fatal(err)
	}
	k8s := func(command, path string) cmdResult {
		return mongobench(t, "k8s", "--parts", "3", "--image", "mongobench:dev", "--results-claim", "res",
			command, "mongodb", "-P", path, "-p", "orders=300", "-p", "mongodb.url=mongodb://db:27017/ycsb")
	}
	r := k8s("load", file)
	if r.code != ExitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	m := decodeManifest(t, r.stdout)
	if len(m.configMaps) != 1 || !strings.Contains(m.configMaps[0].Data["shop.yaml"], "    documents: ${orders}\n") {
		t.Errorf("the ConfigMap does not hold the workload's YAML: %+v", m.configMaps)
	}
	args := m.jobs[0].Spec.Template.Spec.Containers[0].Args
	if i := slices.Index(args, "-P"); i < 0 || args[i+1] != "/etc/mongobench/workloads/shop.yaml" || !slices.Contains(args, "orders=300") {
		t.Errorf("the parts run %q", args)
	}
	byTime := filepath.Join(dir, "bytime.yaml")
	if err := os.WriteFile(byTime, []byte(strings.Replace(nativeShop, "    count: ${orders}\n", "    duration: 10s\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = k8s("load", byTime)
	want := "mongobench: k8s: -P " + byTime + ": its load phase runs for a duration, which cannot be split into 3 parts inserting disjoint documents; accepted: a load phase with count\n"
	if r.code != ExitBadInput || r.stderr != want {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, want)
	}
}
