package ycsbdoc

import (
	"testing"

	"github.com/mongobench/mongobench/internal/db"
)

// TestRoundTrip: a record reads back as written, _id first, each field's
// bytes as given; a document cut short is read as far as it is whole;
// appending into a buffer that fits costs nothing. (Not parallel: it
// counts allocations.)
func TestRoundTrip(t *testing.T) {
	doc := AppendRecord(nil, "user1", []db.Field{{Name: "field0", Value: []byte("abc")}, {Name: "field1", Value: []byte{}}})
	var got []string
	Visit(doc, func(name string, value []byte) { got = append(got, name+"="+string(value)) })
	want := []string{"_id=user1", "field0=abc", "field1="}
	if len(got) != len(want) {
		t.Fatalf("read %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("element %d: %q, want %q", i, got[i], want[i])
		}
	}
	Visit(doc[:3], func(string, []byte) { t.Error("a document shorter than its header was read") })
	if allocs := testing.AllocsPerRun(100, func() { doc = AppendRecord(doc[:0], "user1", []db.Field{{Name: "f", Value: []byte("x")}}) }); allocs > 1 {
		t.Errorf("%v allocations to append a record into a buffer that fits it", allocs)
	}
}
