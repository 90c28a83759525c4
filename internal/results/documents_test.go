package results

import (
	"encoding/json"
	"reflect"
	"testing"
)

func ptr(n int64) *int64 { return &n }

// TestAddDocuments: the parts' counts add up operation by operation and
// code by code, the mean is computed from the sums (not averaged), and
// the parts' own values are left as they were.
func TestAddDocuments(t *testing.T) {
	t.Parallel()
	a := []OpDocuments{
		{Operation: "find", Kind: "find", Counted: "returned", Operations: 10, Documents: 100, PerOperation: 10},
		{Operation: "upd", Kind: "updateOne", Counted: "matched", Operations: 4, Documents: 4, Modified: ptr(3), PerOperation: 1,
			Errors: []CodeCount{{Code: 112, Name: "WriteConflict", Count: 2}}},
	}
	b := []OpDocuments{
		{Operation: "upd", Kind: "updateOne", Counted: "matched", Operations: 6, Documents: 2, Modified: ptr(1), PerOperation: 1.0 / 3,
			Errors: []CodeCount{{Code: 11000, Name: "DuplicateKey", Count: 1}, {Code: 112, Name: "WriteConflict", Count: 1}, {Code: 0, Count: 5}}},
		{Operation: "find", Kind: "find", Counted: "returned", Operations: 30, Documents: 0},
		{Operation: "ins", Kind: "insertOne", Counted: "inserted", Operations: 2, Documents: 2},
	}
	got := AddDocuments(AddDocuments(nil, a), b)
	want := []OpDocuments{
		{Operation: "find", Kind: "find", Counted: "returned", Operations: 40, Documents: 100, PerOperation: 2.5},
		{Operation: "upd", Kind: "updateOne", Counted: "matched", Operations: 10, Documents: 6, Modified: ptr(4), PerOperation: 0.6,
			Errors: []CodeCount{{Code: 0, Count: 5}, {Code: 112, Name: "WriteConflict", Count: 3}, {Code: 11000, Name: "DuplicateKey", Count: 1}}},
		{Operation: "ins", Kind: "insertOne", Counted: "inserted", Operations: 2, Documents: 2, PerOperation: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged\n%+v\nwant\n%+v", got, want)
	}
	if *a[1].Modified != 3 || a[1].Errors[0].Count != 2 || a[0].Operations != 10 {
		t.Errorf("the first part changed: %+v", a)
	}
}

// TestDocumentsJSON: the section's keys as the reference names them, and
// a read gives back what was written.
func TestDocumentsJSON(t *testing.T) {
	t.Parallel()
	e := Extra{Documents: []OpDocuments{{Operation: "upd", Kind: "updateOne", Counted: "matched", Operations: 2, Documents: 3,
		Modified: ptr(1), PerOperation: 1.5, Errors: []CodeCount{{Code: 11000, Name: "DuplicateKey", Count: 1}}}}}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"documents":[{"operation":"upd","kind":"updateOne","counted":"matched","operations":2,"documents":3,"modified":1,"per_operation":1.5,"errors_by_code":[{"code":11000,"name":"DuplicateKey","count":1}]}]}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
	var back Extra
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back.Documents, e.Documents) {
		t.Errorf("read back %+v (%v)", back.Documents, err)
	}
}

// TestMergeAddsDocuments: merging a run's parts adds up their documents
// through AddDocuments.
func TestMergeAddsDocuments(t *testing.T) {
	t.Parallel()
	a := partResults(t, 0, 2, testStart, map[string]string{"threadcount": "8"}, span(1, 9, 2))
	b := partResults(t, 1, 2, testStart, map[string]string{"threadcount": "8"}, span(2, 10, 2))
	a.Extra.Documents = []OpDocuments{{Operation: "find", Kind: "find", Counted: "returned", Operations: 5, Documents: 50, PerOperation: 10}}
	b.Extra.Documents = []OpDocuments{{Operation: "find", Kind: "find", Counted: "returned", Operations: 5, Documents: 0}}
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []OpDocuments{{Operation: "find", Kind: "find", Counted: "returned", Operations: 10, Documents: 50, PerOperation: 5}}
	if !reflect.DeepEqual(m.Extra.Documents, want) {
		t.Errorf("merged documents %+v, want %+v", m.Extra.Documents, want)
	}
}
