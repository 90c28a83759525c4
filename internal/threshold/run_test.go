package threshold

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/bench"
	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

func TestFlagParsesEachAsGiven(t *testing.T) {
	t.Parallel()
	var ts []Threshold
	s := cmdflag.NewSet("run", []cmdflag.Def{Flag(&ts)})
	if err := s.Parse([]string{"--threshold", "READ:p(99)<5ms", "--threshold", "errors<1%"}); err != nil || len(ts) != 2 {
		t.Fatalf("%v, %d thresholds", err, len(ts))
	}
	if err := s.Parse([]string{"--threshold", "READ:p(99)<<"}); err == nil || !strings.HasPrefix(err.Error(), "--threshold: ") {
		t.Errorf("a wrong threshold: %v", err)
	}
}

func TestRecordAndFailure(t *testing.T) {
	t.Parallel()
	r := resultstest.Results(t, resultstest.Spec{Throughput: 200, LatencyUs: map[string]int64{"READ": 1000}})
	pass, fail := mustParse(t, "OVERALL:throughput>100"), mustParse(t, "OVERALL:throughput>1000")
	ts := []Threshold{pass, fail}
	if err := Record(ts, r, nil); err != nil {
		t.Fatal(err)
	}
	if len(r.Extra.Thresholds) != 2 || !r.Extra.Thresholds[0].Pass || r.Extra.Thresholds[1].Pass {
		t.Fatalf("recorded %+v", r.Extra.Thresholds)
	}
	var w bytes.Buffer
	err := Failure(&w, ts, r)
	if err == nil || err.Error() != "1 of 2 thresholds failed" {
		t.Errorf("Failure: %v", err)
	}
	if !strings.HasPrefix(w.String(), "mongobench: threshold OVERALL:throughput>1000 failed: ") || strings.Count(w.String(), "\n") != 1 {
		t.Errorf("said %q", w.String())
	}
	w.Reset()
	if err := Failure(&w, ts[:1], nil); err == nil || err.Error() != "1 thresholds could not be judged: the run has no results" {
		t.Errorf("no results: %v", err)
	}
	if err := Failure(&w, nil, r); err != nil {
		t.Errorf("no thresholds: %v", err)
	}
	if err := Record(nil, r, nil); err != nil {
		t.Errorf("no thresholds: %v", err)
	}
}

func TestWatchArmsAbortOnFail(t *testing.T) {
	t.Parallel()
	var exec bench.Execution
	if Watch([]Threshold{mustParse(t, "errors<1%")}, &exec) != nil || len(exec.Display) != 0 || exec.Limits.Abort != nil {
		t.Error("a threshold without abortOnFail is watched")
	}
	live := Watch([]Threshold{mustParse(t, "errors<1%;abortOnFail")}, &exec)
	if live == nil || len(exec.Display) != 1 || exec.Limits.Abort == nil {
		t.Errorf("abortOnFail not armed: live %v, %d sinks", live, len(exec.Display))
	}
}

func TestCheckWorkload(t *testing.T) {
	t.Parallel()
	read := mustParse(t, "READ:p(99)<5ms")
	if err := CheckWorkload([]Threshold{read}, nil); err != nil {
		t.Errorf("READ on a YCSB workload: %v", err)
	}
	nf := &native.File{Operations: []*native.Operation{{Name: "lookup"}}}
	if err := CheckWorkload([]Threshold{read}, nf); err == nil {
		t.Error("READ accepted on a native workload without it")
	}
	if err := CheckWorkload([]Threshold{mustParse(t, "lookup:p(99)<5ms")}, nf); err != nil {
		t.Errorf("a native workload's own operation: %v", err)
	}
}
