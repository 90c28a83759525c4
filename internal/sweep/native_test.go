package sweep

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/native"
)

// nativeItems is a native workload whose parameter docs sizes its
// collection: a load of docs items, then a measure phase of 30 lookups
// of loaded items (^ref draws only from the documents loaded).
const nativeItems = `
parameters:
  docs: 10
collections:
  items:
    documents: ${docs}
    document:
      _id: {^number: {}}
      price: {^double: {min: 1, max: 100}}
operations:
  - {name: add, kind: insertOne, collection: items}
  - {name: lookup, kind: find, collection: items, filter: {_id: {^ref: items._id}}}
phases:
  load:
    count: ${docs}
    operations: [add]
  measure:
    count: 30
    operations: [lookup]
`

func parseNative(t *testing.T, src string) *native.File {
	t.Helper()
	f, err := native.Parse("items.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestNativeRunSweep: a run sweep of a native workload varies one of its
// parameters and the threads: each value of the parameter loads its own
// data with the file's load phase (read with that value), once, and every
// trial runs the measure phase's operations at the point's threads.
func TestNativeRunSweep(t *testing.T) {
	t.Parallel()
	nf := parseNative(t, nativeItems)
	docs, err := ParseVary("docs=10,20")
	if err != nil || len(docs.Unknown) != 1 {
		t.Fatalf("ParseVary(docs=10,20) = %+v, %v: want docs left for the workload's parameters", docs, err)
	}
	threads, _ := ParseVary("threadcount=1,2")
	url := freshURL()
	p := props(t, "run", "mongodb.url="+url)
	phase, err := native.PhaseProperties(nf, "run")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range phase {
		p.Set(kv.Key, kv.Value, nf.Path)
	}
	plan, err := NewPlanNative(t.Context(), "run", p, "", []Dim{docs, threads}, nf)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.DataDim || len(plan.Points) != 4 {
		t.Fatalf("plan: DataDim %t, %d points; want a parameter that shapes the data, 4 points", plan.DataDim, len(plan.Points))
	}
	for _, pt := range plan.Points {
		if got, want := pt.Native.Collections[0].Documents, pt.Values["docs"]; fmt.Sprint(got) != want {
			t.Errorf("point %s: the workload has %d documents, want the point's %s", pt.Label, got, want)
		}
		if got := pt.Settings.Spec.Threads; fmt.Sprint(got) != pt.Values["threadcount"] {
			t.Errorf("point %s: %d threads", pt.Label, got)
		}
	}
	rec := &recorder{}
	s, err := Start(context.Background(), plan, Config{Repeat: 1, Events: rec, Native: nf, OutDir: t.TempDir() + "/out"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Run(context.Background()); err != nil {
		t.Fatalf("%v\n%s", err, strings.Join(rec.lines, "\n"))
	}
	all := strings.Join(rec.lines, "\n")
	if n := rec.count("info: sweep " + s.ID + ": loading "); n != 2 {
		t.Errorf("%d loads, want one per value of docs:\n%s", n, all)
	}
	for _, n := range []int{10, 20} {
		if c := rec.count(fmt.Sprintf("info: sweep %s: loaded: %d operations of the load phase", s.ID, n)); c != 1 {
			t.Errorf("%d loads of %d documents, want 1:\n%s", c, n, all)
		}
	}
	trials := 0
	for _, done := range rec.done {
		for _, pr := range done {
			for _, tr := range pr.Trials {
				trials++
				res := tr.Results
				if res == nil {
					t.Fatalf("point %s: no results", pr.Point.Label)
				}
				if got := res.Status["lookup"]["OK"]; got != 30 {
					t.Errorf("point %s: %d lookups OK (%v), want the measure phase's 30", pr.Point.Label, got, res.Status)
				}
				if got := res.Config["threadcount"]; got != pr.Point.Values["threadcount"] {
					t.Errorf("point %s: ran with threadcount %s", pr.Point.Label, got)
				}
			}
		}
	}
	if trials != 4 {
		t.Errorf("%d trials, want 4", trials)
	}
	c, err := mongo.Open(t.Context(), mongo.Config{URL: url, Database: mongo.DatabaseFromURL(url), Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if n, err := c.Count(t.Context(), "items"); err != nil || n != 20 {
		t.Errorf("items holds %d documents (%v), want the last load's 20", n, err)
	}
}

// TestNativeVaryUnknown: a varied name that is neither a property nor a
// parameter of the workload is refused when the sweep is planned, naming
// the parameters there are.
func TestNativeVaryUnknown(t *testing.T) {
	t.Parallel()
	nf := parseNative(t, nativeItems)
	for _, tc := range []struct {
		vary string
		nf   *native.File
		want string
	}{
		{"doc=1,2", nf, "sweep: --vary doc: unknown property; the native workload's parameters are docs"},
		{"doc=1,2", nil, "sweep: --vary doc: unknown property"},
		{"requestdistrib=zipfian", nil, "sweep: --vary requestdistrib: unknown property; did you mean requestdistribution?"},
		{"readproportion,nosuch=1:0", nf, "sweep: --vary nosuch: unknown property; the native workload's parameters are docs"},
	} {
		d, err := ParseVary(tc.vary)
		if err != nil {
			t.Fatal(err)
		}
		_, err = NewPlanNative(t.Context(), "run", props(t, "run", "mongodb.url="+freshURL()), "", []Dim{d}, tc.nf)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("--vary %s, native %t: error %v, want %q", tc.vary, tc.nf != nil, err, tc.want)
		}
	}
}
