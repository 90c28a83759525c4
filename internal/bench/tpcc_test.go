package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded/embeddedtest"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/tpcc"
	"github.com/mongobench/mongobench/internal/workload"
)

// TestTPCCSettings: workload=tpcc resolves TPC-C's properties for a run,
// needs no recordcount, reports the sizes of ORDERS, and is refused for
// a load or with a wrong property, as bad input.
func TestTPCCSettings(t *testing.T) {
	t.Parallel()
	s := settings(t, "run", "workload=tpcc", "operationcount=5", "warehouses=3", "tpcc.batchwrites=false")
	if s.TPCC == nil || s.TPCC.Scale.Warehouses != 3 || s.TPCC.Options.BatchWrites || !s.TPCC.Check || !s.Spec.TPCC || s.Spec.Table != "ORDERS" {
		t.Fatalf("settings %+v, tpcc %+v", s, s.TPCC)
	}
	if s := settings(t, "run", "recordcount=5", "operationcount=5"); s.TPCC != nil || s.Spec.TPCC {
		t.Errorf("a YCSB run has TPC-C settings: %+v", s.TPCC)
	}
	for _, tc := range []struct {
		command string
		props   []string
		want    string
	}{
		{"load", []string{"workload=tpcc", "recordcount=5"}, "TPC-C's data is loaded by mongobench tpcc load"},
		{"run", []string{"workload=tpcc", "operationcount=5", "tpcc.readconcern=strong"}, "tpcc.readconcern=\"strong\" is invalid"},
		{"run", []string{"workload=tpcc", "operationcount=5", "customers=5"}, `customers="5" is invalid`},
		// Checked without workload=tpcc too, as every known property is.
		{"run", []string{"recordcount=5", "operationcount=5", "warehouses=NaN"}, `warehouses="NaN" is invalid`},
	} {
		p, err := workload.Parse(strings.NewReader(strings.Join(tc.props, "\n")), "test")
		if err != nil {
			t.Fatal(err)
		}
		spec, _, err := ResolveSpec(tc.command, p)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = ResolveSettings(tc.command, p, spec, "")
		var ie InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: %v, want an InputError saying %q", tc.command, tc.props, err, tc.want)
		}
	}
}

// TestTPCCExecute runs TPC-C through the one pipeline on the embedded
// server (statement by statement: it has no transactions): the empty
// database loaded first, the five transactions measured as operations,
// and the results given tpmC, the counts and the check by the Finisher.
// A transactional run there is refused before anything runs.
func TestTPCCExecute(t *testing.T) {
	t.Parallel()
	url := fmt.Sprintf("%stpcc%d", embeddedtest.Server().URI(), dbCounter.Add(1))
	scale := []string{"mongodb.url=" + url, "workload=tpcc", "warehouses=1", "items=100", "customers=10", "operationcount=12"}
	var said notices
	done, err := Execute(context.Background(), Execution{
		Target: Target{Settings: settings(t, "run", append(scale, "tpcc.transactions=false", "seed=5")...), Notify: said.add},
		Meta:   func(*Prepared) results.Meta { return results.Meta{Phase: "run"} },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !said.find(Info, "the embedded server is empty: loading 1 TPC-C warehouse(s) first") {
		t.Errorf("notices %v", said)
	}
	res := done.Results
	if done.ResultsErr != nil || res == nil || res.Operations != 12 {
		t.Fatalf("results %+v, %v", res, done.ResultsErr)
	}
	var ops int64
	for _, name := range tpcc.OpNames {
		ops += res.Status[name]["OK"]
	}
	if ops != 12 {
		t.Errorf("the five transactions' OK add up to %d, want 12: %v", ops, res.Status)
	}
	sec := res.Extra.TPCC
	if sec == nil || len(sec.Check) != 4 || len(sec.Transactions) != 5 {
		t.Fatalf("tpcc section %+v", sec)
	}
	if want := tpcc.TpmC(res.Status["NewOrder"]["OK"], sec.Transactions[0].RolledBack, res.RuntimeMs); sec.TpmC != want {
		t.Errorf("tpmC %v, want %v", sec.TpmC, want)
	}
	if err := done.Outcome.Failure(); err != nil {
		t.Errorf("a consistent run fails: %v", err)
	}
	var buf bytes.Buffer
	done.WriteSummaryLines(&buf, func(string) {})
	if !strings.Contains(buf.String(), "[TPCC], tpmC, ") || !strings.Contains(buf.String(), "[CHECK], Condition4, OK") {
		t.Errorf("summary lines:\n%s", buf.String())
	}

	_, err = Execute(context.Background(), Execution{
		Target: Target{Settings: settings(t, "run", scale...)},
		Meta:   func(*Prepared) results.Meta { return results.Meta{Phase: "run"} },
	})
	var ie InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "no multi-document transactions") || !strings.Contains(err.Error(), "tpcc.transactions=false") {
		t.Errorf("a transactional run on FerretDB: %v", err)
	}
}

// TestFinishFailure: the Finisher's verdict fails the phase.
func TestFinishFailure(t *testing.T) {
	t.Parallel()
	broken := &tpcc.CheckError{Broken: []int{2}, Range: tpcc.WarehouseRange{First: 1, Last: 1}}
	o := &Outcome{finishErr: broken}
	if err := o.Failure(); !errors.Is(err, broken) {
		t.Errorf("Failure %v, want the check's error", err)
	}
}
