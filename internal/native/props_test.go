package native

import (
	"slices"
	"testing"
)

// TestPhaseProperties: what each phase stands for as YCSB properties,
// which the command line then overrides.
func TestPhaseProperties(t *testing.T) {
	t.Parallel()
	f := mustParse(t, `
collections:
  c: {documents: 500, document: {_id: {^number: {}}}}
  d: {document: {_id: {^number: {}}}}
operations:
  - {name: props-ins, kind: insertOne, collection: c}
phases:
  load: {threads: 4, count: 500}
  measure: {threads: 8, rate: 250.5, duration: 90s}
`)
	byTime := mustParse(t, `
collections:
  c: {documents: 500, document: {_id: {^number: {}}}}
operations:
  - {name: props-ins, kind: insertOne, collection: c}
phases:
  load: {duration: 10s}
  measure: {count: 40}
`)
	for _, tc := range []struct {
		f       *File
		command string
		want    []Property
	}{
		{f, "load", []Property{{"table", "c"}, {"threadcount", "4"}, {"target", "0"}, {"recordcount", "500"}, {"insertcount", "500"}}},
		{f, "run", []Property{{"table", "c"}, {"threadcount", "8"}, {"target", "250.5"}, {"maxexecutiontime", "1m30s"},
			{"operationcount", "0"}, {"recordcount", "500"}}},
		// A load that runs for a time still gives YCSB a recordcount:
		// the collection's documents.
		{byTime, "load", []Property{{"table", "c"}, {"threadcount", "1"}, {"target", "0"}, {"maxexecutiontime", "10s"},
			{"recordcount", "500"}, {"insertcount", "500"}}},
		{byTime, "run", []Property{{"table", "c"}, {"threadcount", "1"}, {"target", "0"}, {"operationcount", "40"}, {"recordcount", "500"}}},
	} {
		got, err := PhaseProperties(tc.f, tc.command)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, %v; want %v", tc.command, got, err, tc.want)
		}
	}
	noLoad := mustParse(t, `
collections:
  c: {document: {_id: {^number: {}}}}
operations:
  - {name: props-ins, kind: insertOne, collection: c}
phases:
  measure: {count: 40}
`)
	if _, err := PhaseProperties(noLoad, "load"); err == nil || err.Error() != "-P w.yaml: the workload has no load phase for mongobench load; add one under phases" {
		t.Errorf("no load phase: %v", err)
	}
}

// TestWithParameters: a file read again with other values of its
// parameters is the file those values make; a name it does not declare
// is an error.
func TestWithParameters(t *testing.T) {
	t.Parallel()
	f, err := Parse("w.yaml", []byte(good), []Parameter{{Name: "docs", Value: "500"}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := f.WithParameters(map[string]string{"docs": "70"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Collections[0].Documents != 70 || g.Load.Count != 70 || f.Collections[0].Documents != 500 {
		t.Errorf("documents %d, load %d (the original %d); want 70, 70 (500)", g.Collections[0].Documents, g.Load.Count, f.Collections[0].Documents)
	}
	if f.ParameterKey() == g.ParameterKey() {
		t.Errorf("two files of other parameters share the key %q", f.ParameterKey())
	}
	if same, _ := f.WithParameters(nil); same.ParameterKey() != f.ParameterKey() || same.Collections[0].Documents != 500 {
		t.Error("read again with no values, the file loses its -p settings")
	}
	if _, err := f.WithParameters(map[string]string{"doc": "1"}); err == nil || err.Error() != "w.yaml: doc is not a parameter of the workload" {
		t.Errorf("unknown parameter: %v", err)
	}
	if _, err := f.WithParameters(map[string]string{"docs": "many"}); err == nil {
		t.Error("docs=many read as a count")
	}
}
