package threshold

import (
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

func mustParse(t *testing.T, s string) Threshold {
	t.Helper()
	th, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// The synthetic run: 10 s at 100 ops/s, READ latencies 1000..1990 µs in
// steps of 10 (p(99) 1980 µs, mean 1495 µs), UPDATE 2000..3980 µs;
// with Intended, intended latencies twice those. 4 READs failed.
func TestEvaluateOnResults(t *testing.T) {
	t.Parallel()
	closed := resultstest.Results(t, resultstest.Spec{Throughput: 200, LatencyUs: map[string]int64{"READ": 1000, "UPDATE": 2000}, Errors: 4})
	open := resultstest.Results(t, resultstest.Spec{Throughput: 200, LatencyUs: map[string]int64{"READ": 1000, "UPDATE": 2000}, Intended: true})
	tests := []struct {
		name, threshold string
		r               *results.Results
		observed        float64
		latency         Latency
		pass            bool
		text            string
	}{
		{"read p99 passes", "READ:p(99)<2ms", closed, 1980, ServiceLatency, true, "1.98ms"},
		{"read p99 fails", "READ:p(99)<1.5ms", closed, 1980, ServiceLatency, false, "1.98ms"},
		{"open loop judges intended by default", "READ:p(99)<2ms", open, 3961, IntendedLatency, false, "3.961ms"},
		{"service asked for on an open loop", "READ:service p(99)<2ms", open, 1980, ServiceLatency, true, "1.98ms"},
		{"overall merges the operations", "p(50)<=2ms", closed, 1990, ServiceLatency, true, "1.99ms"},
		{"avg", "READ:avg<1.4ms", closed, 1495, ServiceLatency, false, "1.495ms"},
		{"max", "UPDATE:max<4ms", closed, 3981, ServiceLatency, true, "3.981ms"},
		{"overall throughput is the summary's", "throughput>150", closed, 200, DefaultLatency, true, "200 ops/s"},
		{"an operation's throughput counts every status", "READ:throughput>=100.4", closed, 100.4, DefaultLatency, true, "100.4 ops/s"},
		{"error share", "errors<0.1%", closed, 4.0 / 2004, DefaultLatency, false, "0.2%"},
		{"error count", "READ:errors<=4", closed, 4, DefaultLatency, true, "4 operations"},
		{"no errors", "UPDATE:errors<1", closed, 0, DefaultLatency, true, "0 operations"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := DataOf(tt.r)
			if err != nil {
				t.Fatal(err)
			}
			o := Evaluate(mustParse(t, tt.threshold), d)
			if !o.HasData || o.Observed != tt.observed || o.Latency != tt.latency || o.Pass != tt.pass {
				t.Errorf("%s: observed %v (data %v) %s pass %v, want %v %s pass %v", tt.threshold, o.Observed, o.HasData, o.Latency, o.Pass, tt.observed, tt.latency, tt.pass)
			}
			if got := o.ObservedText(); got != tt.text {
				t.Errorf("ObservedText() = %q, want %q", got, tt.text)
			}
		})
	}
}

// A threshold on what the run never measured fails (k6 passes it).
func TestNoDataFails(t *testing.T) {
	t.Parallel()
	closed := resultstest.Results(t, resultstest.Spec{Throughput: 100})
	d, err := DataOf(closed)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"UPDATE:p(99)<1s", "intended p(99)<1s", "SCAN:throughput>0", "INSERT:errors<1%", "DELETE:errors<=10"} {
		o := Evaluate(mustParse(t, s), d)
		if o.HasData || o.Pass {
			t.Errorf("%s: data %v pass %v, want a failure for want of data", s, o.HasData, o.Pass)
		}
		rec := o.Record()
		if rec.Observed != nil || rec.Pass || rec.Reason == "" {
			t.Errorf("%s: record %+v, want no figure, a failure and its reason", s, rec)
		}
	}
	if got := Evaluate(mustParse(t, "UPDATE:p(99)<1s"), d).Sentence(); got != "UPDATE service latency p(99): the run has no data for it, which fails a threshold" {
		t.Errorf("Sentence() = %q", got)
	}
}

func TestRecordAndSentence(t *testing.T) {
	t.Parallel()
	r := resultstest.Results(t, resultstest.Spec{Throughput: 100, Intended: true})
	recs, err := Judge([]Threshold{mustParse(t, "READ:p(99)<3ms"), mustParse(t, "throughput>50")}, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	a := recs[0]
	if a.Threshold != "READ:p(99)<3ms" || a.Latency != "intended" || a.Unit != "us" || a.Pass || a.Observed == nil || *a.Observed != 3961 ||
		a.Reason != "READ intended latency p(99) was 3.961ms, not <3ms" {
		t.Errorf("record %+v (observed %v)", a, *a.Observed)
	}
	b := recs[1]
	if b.Threshold != "OVERALL:throughput>50" || b.Latency != "" || b.Unit != "ops/s" || !b.Pass || *b.Observed != 100 || b.Reason != "" {
		t.Errorf("record %+v", b)
	}
}

// interval builds one closed interval of a second: n READs at latency
// us, failed of them failed.
func interval(index int, n int64, us int64, failed int64) *measure.Interval {
	iv := &measure.Interval{Index: index, StartNs: int64(index) * int64(time.Second), EndNs: int64(index+1) * int64(time.Second)}
	h := measure.NewHistogram()
	_ = h.RecordValues(us, n-failed)
	iv.Measurements = []measure.Measurement{{Name: "READ", Op: db.Read, Service: h}}
	iv.Status[db.Read][db.OK] = n - failed
	iv.Status[db.Read][db.Error] = failed
	iv.Operations, iv.Failed = n, failed
	return iv
}

func TestLiveAbortsOnTheCumulativeFigure(t *testing.T) {
	t.Parallel()
	live := NewLive([]Threshold{mustParse(t, "READ:p(99)<5ms"), mustParse(t, "READ:p(50)<4ms;abortOnFail")})
	// 100 at 1 ms, then 100 at 10 ms: the median so far is still 1 ms
	// (the 100th of 200 values); a third second at 10 ms moves it.
	steps := []struct {
		iv   *measure.Interval
		trip bool
	}{
		{interval(0, 100, 1000, 0), false},
		{interval(1, 100, 10000, 0), false},
		{interval(2, 100, 10000, 0), true},
		{interval(3, 100, 1000, 0), false}, // already tripped: judged no more
	}
	for i, s := range steps {
		if got := live.Observe(s.iv); got != s.trip {
			t.Fatalf("interval %d: tripped %v, want %v", i, got, s.trip)
		}
	}
	select {
	case <-live.Abort():
	default:
		t.Fatal("Abort() not closed")
	}
	o, at := live.Tripped()
	if o == nil || o.Threshold.String() != "READ:p(50)<4ms;abortOnFail" || at != 3 || o.Observed != 10007 {
		t.Fatalf("tripped %+v at %v", o, at)
	}
	// The end's figures pass (after a fast last second the median is
	// low), yet the threshold that cut the run short fails.
	r := resultstest.Results(t, resultstest.Spec{Throughput: 100})
	recs, err := Judge([]Threshold{mustParse(t, "READ:p(99)<5ms"), mustParse(t, "READ:p(50)<4ms;abortOnFail")}, r, live)
	if err != nil {
		t.Fatal(err)
	}
	if !recs[0].Pass || recs[0].AbortedAtS != 0 {
		t.Errorf("the watched-only-at-the-end threshold: %+v", recs[0])
	}
	if recs[1].Pass || recs[1].AbortedAtS != 3 || recs[1].Reason != "READ service latency p(50) was 10.007ms, not <4ms after 3.0 s, which ended the run (abortOnFail)" {
		t.Errorf("the aborting threshold: %+v", recs[1])
	}
}

func TestLiveErrorsAndNoWatch(t *testing.T) {
	t.Parallel()
	if NewLive([]Threshold{mustParse(t, "errors<1%")}) != nil {
		t.Fatal("a Live without abortOnFail thresholds")
	}
	var none *Live
	if none.Observe(interval(0, 10, 1, 0)) || none.Abort() != nil {
		t.Fatal("a nil Live judged")
	}
	live := NewLive([]Threshold{mustParse(t, "errors<1%;abortOnFail")})
	if live.Observe(interval(0, 1000, 1000, 5)) { // 0.5%
		t.Fatal("tripped at 0.5%")
	}
	if !live.Observe(interval(1, 1000, 1000, 20)) { // 25 of 2000: 1.25%
		t.Fatal("not tripped at 1.25%")
	}
}
