package promsink

import (
	"math"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/mongobench/mongobench/internal/measure"
)

func TestNativeIndex(t *testing.T) {
	t.Parallel()
	step := math.Exp2(1.0 / 16)
	tests := []struct {
		v    float64
		want int
	}{
		{1, 0},                         // a bound belongs to the bucket below it
		{1.0000001, 1},                 // just above: the next one
		{step, 1},                      // bucket 1's upper bound
		{2, 16},                        // 2^(16/16)
		{0.5, -16},                     // 2^(-16/16)
		{1e-6, -318},                   // 1 µs: log2(1e-6)·16 = -318.9…, rounded up
		{math.Exp2(-318.0 / 16), -318}, // that bucket's own bound
		{3600, 190},                    // an hour: log2(3600)·16 = 189.02…, rounded up
	}
	for _, tc := range tests {
		got := nativeIndex(tc.v)
		if got != tc.want {
			t.Errorf("nativeIndex(%v) = %d, want %d", tc.v, got, tc.want)
		}
		// Whatever the index, v lies in its bucket.
		if lo, hi := nativeBound(got-1), nativeBound(got); tc.v <= lo || tc.v > hi {
			t.Errorf("%v is not in bucket %d, (%v, %v]", tc.v, got, lo, hi)
		}
	}
}

// TestExposed: a histogram's count, sum, classic and native buckets, from
// values recorded in µs.
func TestExposed(t *testing.T) {
	t.Parallel()
	h := measure.NewHistogram()
	// 0 µs (under a microsecond), 100 µs exactly on a classic bound,
	// 110 µs above it, 2 ms twice, 90 s beyond the last bound.
	for _, us := range []int64{0, 100, 110, 2000, 2000, 90_000_000} {
		if err := h.RecordValue(us); err != nil {
			t.Fatal(err)
		}
	}
	got := exposed(h)
	if got.GetSampleCount() != 6 {
		t.Errorf("count %d, want 6", got.GetSampleCount())
	}
	if want := h.Mean() * 6 / 1e6; got.GetSampleSum() != want {
		t.Errorf("sum %v s, want %v (the mean times the count)", got.GetSampleSum(), want)
	}
	// Cumulative: ≤100 µs holds 0 and 100; ≤250 µs adds 110; ≤2.5 ms adds
	// the two 2 ms; 90 s is only in +Inf, which the count is.
	wantClassic := map[float64]uint64{0.0001: 2, 0.00025: 3, 0.0005: 3, 0.001: 3, 0.0025: 5, 60: 5}
	for _, b := range got.GetBucket() {
		if want, ok := wantClassic[b.GetUpperBound()]; ok && b.GetCumulativeCount() != want {
			t.Errorf("le=%v: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), want)
		}
	}
	if len(got.GetBucket()) != len(ClassicBounds) {
		t.Errorf("%d classic buckets, want %d", len(got.GetBucket()), len(ClassicBounds))
	}
	if got.GetSchema() != NativeSchema || got.GetZeroCount() != 1 || got.GetZeroThreshold() != 0 {
		t.Errorf("schema %d, zero count %d, threshold %v; want %d, 1, 0", got.GetSchema(), got.GetZeroCount(), got.GetZeroThreshold(), NativeSchema)
	}
	native := decodeNative(got)
	want := map[int]int64{
		nativeIndex(100e-6):                 1,
		nativeIndex(110e-6):                 1,
		nativeIndex(2e-3):                   2,
		nativeIndex(float64(h.Max()) / 1e6): 1, // the HDR bucket of 90 s, at its top
	}
	if len(want) != 4 {
		t.Fatalf("the test's values share native buckets: %v", want)
	}
	if len(native) != len(want) {
		t.Errorf("native buckets %v, want %v", native, want)
	}
	for k, n := range want {
		if native[k] != n {
			t.Errorf("native bucket %d: %d, want %d (all: %v)", k, native[k], n, native)
		}
	}
}

// TestExposedEmpty: an empty histogram still says it is a native one.
func TestExposedEmpty(t *testing.T) {
	t.Parallel()
	got := exposed(measure.NewHistogram())
	if got.GetSampleCount() != 0 || len(got.GetPositiveSpan()) != 1 || got.GetPositiveSpan()[0].GetLength() != 0 {
		t.Errorf("empty histogram exposed as %v", got)
	}
}

// TestSpans: spans and deltas decode back to the buckets, across gaps and
// negative indexes.
func TestSpans(t *testing.T) {
	t.Parallel()
	tests := []map[int]int64{
		{0: 1},
		{-5: 3, -4: 1, 7: 2},
		{-318: 10, 190: 1},
		{1: 1, 2: 2, 3: 3, 10: 1, 11: 5},
	}
	for _, buckets := range tests {
		sp, deltas := spans(buckets)
		got := decodeNative(&dto.Histogram{PositiveSpan: sp, PositiveDelta: deltas})
		if len(got) != len(buckets) {
			t.Errorf("%v decoded as %v", buckets, got)
			continue
		}
		for k, n := range buckets {
			if got[k] != n {
				t.Errorf("%v decoded as %v", buckets, got)
				break
			}
		}
	}
}

// decodeNative reads the positive buckets back as Prometheus does.
func decodeNative(h *dto.Histogram) map[int]int64 {
	out := map[int]int64{}
	idx, count, d := 0, int64(0), 0
	for _, sp := range h.GetPositiveSpan() {
		idx += int(sp.GetOffset())
		for range sp.GetLength() {
			count += h.GetPositiveDelta()[d]
			d++
			if count != 0 {
				out[idx] = count
			}
			idx++
		}
	}
	return out
}
