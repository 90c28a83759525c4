package bench

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
)

func int64p(n int64) *int64 { return &n }

// documentsSample has one operation of each way of counting: returned,
// inserted with failures by code (and one without a code), matched and
// modified, deleted, a transaction's affected, a createIndex that counts
// none, and one that never ran.
var documentsSample = []results.OpDocuments{
	{Operation: "find-by-tag", Kind: "find", Counted: "returned", Operations: 400, Documents: 7800, PerOperation: 19.5},
	{Operation: "insert", Kind: "insertOne", Counted: "inserted", Operations: 1000, Documents: 997, PerOperation: 0.997,
		Errors: []results.CodeCount{{Code: 0, Count: 1}, {Code: 11000, Name: "DuplicateKey", Count: 2}}},
	{Operation: "restock", Kind: "updateMany", Counted: "matched", Operations: 3, Documents: 10, Modified: int64p(7), PerOperation: 10.0 / 3},
	{Operation: "remove", Kind: "deleteOne", Counted: "deleted", Operations: 5, Documents: 4, PerOperation: 0.8},
	// Never ran: no lines, as it has no latencies.
	{Operation: "never", Kind: "find", Counted: "returned"},
	{Operation: "checkout", Kind: "transaction", Counted: "affected", Operations: 50, Documents: 150, PerOperation: 3,
		Errors: []results.CodeCount{{Code: 112, Name: "WriteConflict", Count: 4}}},
	{Operation: "build-index", Kind: "createIndex", Counted: "none", Operations: 1},
}

// TestDocumentLines: the summary's lines of documents and errors by code,
// in the text form and through the JSON exporters, whose input they are.
func TestDocumentLines(t *testing.T) {
	t.Parallel()
	text := strings.Join(DocumentLines(documentsSample), "\n") + "\n"
	golden.Check(t, "documents.txt", text)
	for exporter, name := range map[string]string{export.JSONExporter: "documents.json", export.JSONArrayExporter: "documents-array.json"} {
		var b strings.Builder
		w, err := export.NewSummaryWriter(&b, exporter)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, name, b.String())
	}
	if got := DocumentLines(nil); got != nil {
		t.Errorf("a YCSB phase's lines: %q, want none", got)
	}
}

// TestDocumentsReachResults: the outcome's counts are the results
// file's, and its summary lines.
func TestDocumentsReachResults(t *testing.T) {
	t.Parallel()
	o := &Outcome{Summary: &measure.Summary{Operations: 400, EndNs: 1e9}, Documents: documentsSample[:1]}
	res, err := o.Results(results.Meta{Phase: results.PhaseRun}, Observation{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Extra.Documents; len(got) != 1 || got[0].Documents != 7800 {
		t.Errorf("results' documents %+v", got)
	}
	var b strings.Builder
	(&Executed{Outcome: o, Results: res}).WriteSummaryLines(&b, func(string) {})
	if !strings.Contains(b.String(), "[find-by-tag], DocumentsReturned, 7800\n") {
		t.Errorf("summary lines:\n%s", b.String())
	}
}
