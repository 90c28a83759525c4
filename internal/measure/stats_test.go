package measure

import (
	"math"
	"slices"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/db"
)

func histOf(t testing.TB, values ...int64) *hdrhistogram.Histogram {
	t.Helper()
	h := NewHistogram()
	for _, v := range values {
		if err := h.RecordValue(v); err != nil {
			t.Fatalf("RecordValue(%d): %v", v, err)
		}
	}
	return h
}

func seq(from, to int64) []int64 {
	var v []int64
	for i := from; i <= to; i++ {
		v = append(v, i)
	}
	return v
}

func TestMean(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		values []int64
		want   float64
	}{
		// Values below 2048 have buckets of width 1: the mean is exact.
		{"small exact values", []int64{1, 2, 3, 4}, 2.5},
		{"single value", []int64{441}, 441},
		// 3000 lies in the bucket [3000, 3001], whose median is 3001.
		{"median of a wide bucket", []int64{1000, 3000}, (1000 + 3001) / 2.0},
		// 100000 lies in [99968, 100031] (width 64): median 99968+32.
		{"wider bucket", []int64{100000, 100000, 10}, (2*100000.0 + 10) / 3},
		{"zero", []int64{0, 0, 2}, 2.0 / 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Mean(histOf(t, tt.values...)); got != tt.want {
				t.Errorf("Mean(%v) = %v, want %v", tt.values, got, tt.want)
			}
		})
	}
}

// TestMeanEmptyIsZero: YCSB's HdrHistogram (2.1.12, AbstractHistogram.getMean)
// returns 0.0 for a histogram without values.
func TestMeanEmptyIsZero(t *testing.T) {
	t.Parallel()
	if got := Mean(NewHistogram()); got != 0 || math.Signbit(got) {
		t.Errorf("Mean(empty) = %v, want 0", got)
	}
	if got := Mean(nil); got != 0 {
		t.Errorf("Mean(nil) = %v, want 0", got)
	}
}

func TestPercentiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		values []int64
		ps     []float64
		want   []int64
	}{
		{"1..100", seq(1, 100), []float64{50, 90, 95, 99, 99.9, 99.99, 100}, []int64{50, 90, 95, 99, 100, 100, 100}},
		// Rank = round(p/100 × count): 94% of 10 is 9.4, rounded to 9.
		{"round to nearest rank", seq(1, 10), []float64{94, 95, 50, 1}, []int64{9, 10, 5, 1}},
		// The highest value equivalent to the bucket reached is reported:
		// 3000 is in [3000, 3001].
		{"highest equivalent value", []int64{3000}, []float64{50}, []int64{3001}},
		{"empty", nil, []float64{50, 99}, []int64{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Percentiles(histOf(t, tt.values...), tt.ps); !slices.Equal(got, tt.want) {
				t.Errorf("Percentiles(%v) = %v, want %v", tt.ps, got, tt.want)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	got := Summarize(histOf(t, seq(1, 1000)...))
	want := LatencySummary{Count: 1000, Mean: 500.5, Min: 1, Max: 1000, Percentiles: []int64{500, 900, 950, 990, 999, 1000}}
	if got.Count != want.Count || got.Mean != want.Mean || got.Min != want.Min || got.Max != want.Max ||
		!slices.Equal(got.Percentiles, want.Percentiles) {
		t.Errorf("Summarize(1..1000) = %+v, want %+v", got, want)
	}
	empty := Summarize(nil)
	if empty.Count != 0 || empty.Mean != 0 || empty.Min != 0 || empty.Max != 0 || len(empty.Percentiles) != NumStandardPercentiles {
		t.Errorf("Summarize(nil) = %+v, want zeros", empty)
	}
}

func TestMeasurementName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		op     db.Op
		failed bool
		want   string
	}{
		{db.Read, false, "READ"},
		{db.Read, true, "READ-FAILED"},
		{db.ReadModifyWrite, true, "READ-MODIFY-WRITE-FAILED"},
		{db.InsertBatch, false, "INSERT-BATCH"},
	}
	for _, tt := range tests {
		if got := MeasurementName(tt.op, tt.failed); got != tt.want {
			t.Errorf("MeasurementName(%v, %v) = %q, want %q", tt.op, tt.failed, got, tt.want)
		}
	}
}

func TestCountsAsOperation(t *testing.T) {
	t.Parallel()
	for op := range db.Op(db.NumOps) {
		want := op != db.InsertBatch && op != db.Verify && op != db.Cleanup
		if got := CountsAsOperation(op); got != want {
			t.Errorf("CountsAsOperation(%v) = %v, want %v", op, got, want)
		}
	}
}

func TestPercentileKey(t *testing.T) {
	t.Parallel()
	var got []string
	for _, p := range StandardPercentiles {
		got = append(got, PercentileKey(p))
	}
	want := []string{"50", "90", "95", "99", "99.9", "99.99"}
	if !slices.Equal(got, want) {
		t.Errorf("keys = %v, want %v", got, want)
	}
}
