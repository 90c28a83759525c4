package threshold

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Threshold
		str  string
	}{
		{"READ:p(99)<5ms", Threshold{Op: "READ", Stat: Percentile, Percentile: 99, Cmp: "<", Limit: 5000}, "READ:p(99)<5ms"},
		{"OVERALL:throughput>2000", Threshold{Op: Overall, Stat: Throughput, Cmp: ">", Limit: 2000}, "OVERALL:throughput>2000"},
		{"throughput >= 1500 ops/s", Threshold{Op: Overall, Stat: Throughput, Cmp: ">=", Limit: 1500}, "OVERALL:throughput>=1500"},
		{"errors<0.1%", Threshold{Op: Overall, Stat: Errors, Cmp: "<", Limit: 0.001, Percent: true}, "OVERALL:errors<0.1%"},
		{"READ:errors<=10", Threshold{Op: "READ", Stat: Errors, Cmp: "<=", Limit: 10}, "READ:errors<=10"},
		{"UPDATE:intended p(99.9)<20ms", Threshold{Op: "UPDATE", Stat: Percentile, Percentile: 99.9, Latency: IntendedLatency, Cmp: "<", Limit: 20000}, "UPDATE:intended p(99.9)<20ms"},
		{"read:Service P(50) < 250us", Threshold{Op: "READ", Stat: Percentile, Percentile: 50, Latency: ServiceLatency, Cmp: "<", Limit: 250}, "READ:service p(50)<250us"},
		{"avg<800µs", Threshold{Op: Overall, Stat: Avg, Cmp: "<", Limit: 800}, "OVERALL:avg<800us"},
		{"SCAN:max<1.5s", Threshold{Op: "SCAN", Stat: Max, Cmp: "<", Limit: 1.5e6}, "SCAN:max<1.5s"},
		{"p(95)<500ns", Threshold{Op: Overall, Stat: Percentile, Percentile: 95, Cmp: "<", Limit: 0.5}, "OVERALL:p(95)<500ns"},
		{"READ-MODIFY-WRITE:p(99)<2s;abortOnFail", Threshold{Op: "READ-MODIFY-WRITE", Stat: Percentile, Percentile: 99, Cmp: "<", Limit: 2e6, AbortOnFail: true}, "READ-MODIFY-WRITE:p(99)<2s;abortOnFail"},
		{"errors < 1 % ; abortonfail", Threshold{Op: Overall, Stat: Errors, Cmp: "<", Limit: 0.01, Percent: true, AbortOnFail: true}, "OVERALL:errors<1%;abortOnFail"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Parse(%q) = %+v, want %+v", tt.in, got, tt.want)
			}
			if s := got.String(); s != tt.str {
				t.Errorf("String() = %q, want %q", s, tt.str)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, says string }{
		{"", "no comparison"},
		{"READ:p(99)", "no comparison"},
		{"READ:p(99)<", "no limit"},
		{"READ:p(99)<5", "with a unit"},
		{"READ:p(99)<5 parsecs", "with a unit"},
		{"READ:p(0)<5ms", "above 0 and at most 100"},
		{"READ:p(101)<5ms", "above 0 and at most 100"},
		{"READ:p(x)<5ms", "above 0 and at most 100"},
		{"FE TCH:p(99)<5ms", `unknown operation "FE TCH"`},
		{"INSERT-BATCH:p(99)<5ms", "is counted under the operations it is made of"},
		{"READ:median<5ms", `unknown statistic "median"`},
		{"intended throughput>5", "intended latency goes with p(N), avg or max"},
		{"errors<150%", "from 0 to 100"},
		{"errors<-1", "error count"},
		{"throughput>NaN", "throughput"},
		{"throughput>fast", "throughput"},
		{"p(99)<-5ms", "latency"},
		{"p(99)<5ms;abortOnFial", `unknown option "abortOnFial"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) accepted it", tt.in)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.says) || !strings.Contains(msg, "accepted:") || strings.Contains(msg, "\n") {
				t.Errorf("Parse(%q): %q, want one line saying %q and what is accepted", tt.in, msg, tt.says)
			}
		})
	}
}

// FuzzParse: whatever the input, Parse never panics, and what it
// accepts prints as a threshold that parses back to the same text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"READ:p(99)<5ms", "OVERALL:throughput>2000", "errors<0.1%", "UPDATE:intended p(99.9)<20ms",
		"avg<=1s;abortOnFail", "SCAN:max>=3µs", "p(50)>1e3ns", "errors<3", "İntended p(9)<1s", "K:p(1)<1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on two lines: %q", err)
			}
			return
		}
		if !(th.Limit >= 0) {
			t.Fatalf("Parse(%q) limit %v", s, th.Limit)
		}
		again, err := Parse(th.String())
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, th.String(), err)
		}
		if again.String() != th.String() {
			t.Fatalf("%q prints as %q, which prints as %q", s, th.String(), again.String())
		}
	})
}

// TestNamedOperations: a native workload's operation is named as written
// (its names are case-sensitive); YCSB's are found whatever their case;
// CheckOperations refuses a name the workload does not have, before the
// run, and a threshold on an operation the run never registered fails
// for want of data.
func TestNamedOperations(t *testing.T) {
	t.Parallel()
	for in, op := range map[string]string{"recentOrders:p(99)<5ms": "recentOrders", "read:p(99)<5ms": "READ", "FETCH:avg<1ms": "FETCH"} {
		th, err := Parse(in)
		if err != nil || th.Op != op {
			t.Errorf("Parse(%q) = %q, %v; want operation %q", in, th.Op, err, op)
		}
	}
	parse := func(s string) Threshold {
		th, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return th
	}
	named := []Threshold{parse("recentOrders:p(99)<5ms"), parse("errors<1%")}
	if err := CheckOperations(named, false, []string{"recentOrders", "checkout"}); err != nil {
		t.Errorf("a native workload's own operation refused: %v", err)
	}
	for _, tc := range []struct {
		ts    []Threshold
		ycsb  bool
		named []string
		says  string
	}{
		{[]Threshold{parse("recentOrder:p(99)<5ms")}, false, []string{"recentOrders"}, `no operation "recentOrder": accepted: OVERALL, recentOrders`},
		{[]Threshold{parse("READ:p(99)<5ms")}, false, []string{"recentOrders"}, `no operation "READ"`},
		{[]Threshold{parse("recentOrders:p(99)<5ms")}, true, nil, "accepted: OVERALL, READ, UPDATE"},
	} {
		if err := CheckOperations(tc.ts, tc.ycsb, tc.named); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("CheckOperations(%v): %v, want %q", tc.ts[0], err, tc.says)
		}
	}
	if err := CheckOperations([]Threshold{parse("READ:p(99)<5ms")}, true, nil); err != nil {
		t.Errorf("YCSB's READ refused on a YCSB workload: %v", err)
	}
	o := Evaluate(parse("neverRegisteredOp:p(99)<5ms"), &Data{Seconds: 1})
	if o.HasData || o.Pass {
		t.Errorf("a threshold on an operation the run never had: %+v, want no data and a failure", o)
	}
}
