package workload

import (
	"math"
	"strconv"
	"testing"
	"time"
)

// spinBound separates a set-up that does its work (milliseconds) from one
// that spins in proportion to the key space (hours): generous enough that
// only a real spin trips it on a busy machine.
const spinBound = 2 * time.Minute

// TestSetUpOverLargestKeySpace builds every request distribution, with
// zipfian scan and field lengths, over the largest key space, scan length
// and field length that Resolve accepts, and draws keys from it: none of
// it may take time in proportion to those sizes. Before, a zipfian summed
// zeta over every item (hours for 10^12 keys) and an exponential with a
// tiny percentile drew forever.
func TestSetUpOverLargestKeySpace(t *testing.T) {
	t.Parallel()
	maxInt := strconv.FormatInt(math.MaxInt64, 10)
	base := []string{
		"recordcount", maxInt,
		"operationcount", maxInt, // room for this many inserts, which zipfian keys leave
		"readproportion", "0.5", "insertproportion", "0.5",
		"maxscanlength", strconv.Itoa(math.MaxInt32), "scanlengthdistribution", "zipfian",
		"fieldcount", "1", "fieldlength", "16000000", "fieldlengthdistribution", "zipfian", // near the 16 MiB document limit
	}
	tests := []struct {
		name string
		kv   []string
	}{
		{"uniform", []string{"requestdistribution", "uniform"}},
		{"sequential", []string{"requestdistribution", "sequential"}},
		{"zipfian", []string{"requestdistribution", "zipfian"}},
		{"zipfian ordered", []string{"requestdistribution", "zipfian", "insertorder", "ordered"}},
		// Room for 2^64 new keys beside a thousand: almost no draw exists.
		{"zipfian, far more inserts than records", []string{"requestdistribution", "zipfian", "recordcount", "1000"}},
		{"latest", []string{"requestdistribution", "latest"}},
		{"latest over 10^12", []string{"requestdistribution", "latest", "recordcount", "1000000000000"}},
		{"hotspot", []string{"requestdistribution", "hotspot"}},
		{"hotspot all hot", []string{"requestdistribution", "hotspot", "hotspotdatafraction", "1"}},
		{"exponential", []string{"requestdistribution", "exponential"}},
		{"exponential tiny percentile", []string{"requestdistribution", "exponential", "exponential.percentile", "1e-300", "recordcount", "1000000000000"}},
		{"exponential percentile underflows", []string{"requestdistribution", "exponential", "exponential.percentile", "4.9e-324"}},
		{"exponential tiny fraction", []string{"requestdistribution", "exponential", "exponential.frac", "1e-300"}},
		{"exponential nearly 100", []string{"requestdistribution", "exponential", "exponential.percentile", "99.99999999999"}},
		{"part of the key space", []string{"requestdistribution", "zipfian", "insertstart", "9223372036854775000", "insertcount", "807"}},
		{"uniform field lengths", []string{"fieldlengthdistribution", "uniform"}},
		{"scan lengths up to the largest", []string{"requestdistribution", "latest", "minscanlength", strconv.Itoa(math.MaxInt32)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec, _, err := Resolve(props(append(append([]string(nil), base...), tt.kv...)...), true)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				core, err := NewCore(spec, spec.RecordCount, 1)
				if err != nil {
					done <- err
					return
				}
				w := core.NewWorker(0, 1, 1)
				for range 1000 {
					k := w.nextKeynum()
					if k < 0 || k > core.insertKeys.Last() {
						t.Errorf("key %d outside [0, %d]", k, core.insertKeys.Last())
						break
					}
					if n := core.scanLength.Next(w.r); n < spec.MinScanLength || n > spec.MaxScanLength {
						t.Errorf("scan length %d outside [%d, %d]", n, spec.MinScanLength, spec.MaxScanLength)
						break
					}
					if n := core.fieldLength.Next(w.r); n < 1 || n > spec.FieldLength {
						t.Errorf("field length %d outside [1, %d]", n, spec.FieldLength)
						break
					}
				}
				done <- nil
			}()
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(spinBound):
				t.Fatalf("set-up and 1000 draws still running after %s: it spins", spinBound)
			}
		})
	}
}
