package threshold

import (
	"testing"
)

// TestCheckRun: a TPC-C run's thresholds name its transactions, a YCSB
// run's YCSB's operations.
func TestCheckRun(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		spec string
		tpcc bool
		ok   bool
	}{
		{"NewOrder:p(99)<10ms", true, true},
		{"NewOrder:p(99)<10ms", false, false},
		{"READ:p(99)<10ms", false, true},
		{"READ:p(99)<10ms", true, false},
	} {
		th, err := Parse(tt.spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckRun([]Threshold{th}, tt.tpcc, nil); (err == nil) != tt.ok {
			t.Errorf("%s, TPC-C %v: %v", tt.spec, tt.tpcc, err)
		}
	}
}
