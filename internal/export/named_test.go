package export

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/measure/measuretest"
	"github.com/mongobench/mongobench/internal/results"
)

// TestNamedOperationSummary: a native workload's named operation gets its
// own sections in YCSB's summary shape, and reaches the results file and
// back unchanged, also in a process that meets its name only in the file.
func TestNamedOperationSummary(t *testing.T) {
	t.Parallel()
	op, err := db.NamedOp("export-checkout")
	if err != nil {
		t.Fatal(err)
	}
	s := &measure.Summary{
		EndNs: 2 * int64(time.Second), Start: measuretest.Start, End: measuretest.Start.Add(2 * time.Second),
		Operations: 4,
		Measurements: []measure.Measurement{
			{Name: "export-checkout", Op: op, Service: measuretest.Hist(t, 100, 200, 300)},
			{Name: "export-checkout-FAILED", Op: op, Failed: true, Service: measuretest.Hist(t, 900)},
		},
	}
	s.Status[op][db.OK] = 3
	s.Status[op][db.Error] = 1
	var b bytes.Buffer
	if err := WriteText(&b, s, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"[OVERALL], Throughput(ops/sec), 2.0\n",
		"[export-checkout], Operations, 3\n",
		"[export-checkout], MaxLatency(us), 300\n",
		"[export-checkout], Return=OK, 3\n",
		"[export-checkout], Return=ERROR, 1\n",
		"[export-checkout-FAILED], Operations, 1\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	r, err := results.NewResults(s, results.Meta{Phase: results.PhaseRun})
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if err := results.WriteJSON(&file, r); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, json string }{
		{"export-checkout", file.String()},
		// A name this process has not registered: reading registers it.
		{"export-fresh", strings.ReplaceAll(file.String(), "export-checkout", "export-fresh")},
	} {
		back, err := results.ReadJSON(strings.NewReader(tt.json))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		bs, err := back.Summary()
		if err != nil {
			t.Fatal(err)
		}
		var again bytes.Buffer
		if err := WriteText(&again, bs, TextOptions{}); err != nil {
			t.Fatal(err)
		}
		if want := strings.ReplaceAll(b.String(), "export-checkout", tt.name); again.String() != want {
			t.Errorf("%s: the results file's summary differs:\n%s\nwant\n%s", tt.name, again.String(), want)
		}
	}
}
