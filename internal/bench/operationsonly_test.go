package bench

import (
	"context"
	"slices"
	"testing"

	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/results"
)

// TestOperationsOnly runs a phase as a calibration does, against a
// recording null server: the server is sent the phase's operations and
// nothing else (no count, no search for where earlier inserts ended,
// although the workload inserts and the null server says every key
// exists; no topology, sizes or metrics), nothing is observed, and the
// hooks bound the phase itself.
func TestOperationsOnly(t *testing.T) {
	t.Parallel()
	srv, err := nullserver.StartWith("127.0.0.1:0", nullserver.Options{Record: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	url := "mongodb://" + srv.Addr() + "/calib?directConnection=true"
	set := settings(t, "run", "mongodb.url="+url, "recordcount=100", "operationcount=40", "readproportion=0.5", "insertproportion=0.5", "seed=1")

	var order []string
	done, err := Execute(context.Background(), Execution{
		Target: Target{
			Settings:       set,
			OperationsOnly: true,
			BeforePhase: func(context.Context, *Prepared) (*results.Part, error) {
				order = append(order, "before")
				return nil, nil
			},
			AfterPhase: func() { order = append(order, "after") },
		},
		Meta:        func(*Prepared) results.Meta { return results.Meta{Phase: "run"} },
		BeforeClose: func() { order = append(order, "close") },
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"before", "after", "close"}; !slices.Equal(order, want) {
		t.Errorf("hooks called %q, want %q", order, want)
	}
	out := done.Outcome
	if out.Summary.Operations != 40 || out.Observer != nil || out.Usage != nil {
		t.Errorf("%d operations, observer %v, usage %v; want 40 and nothing observed", out.Summary.Operations, out.Observer, out.Usage)
	}
	counts := map[string]int{}
	for _, c := range srv.Commands() {
		counts[c.Name]++
	}
	if counts["find"]+counts["insert"] != 40 || len(counts) != 2 {
		t.Errorf("the server was sent %v; want the 40 finds and inserts alone", counts)
	}
}
