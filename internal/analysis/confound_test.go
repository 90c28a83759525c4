package analysis

import (
	"testing"

	"github.com/mongobench/mongobench/internal/metrics"
	"github.com/mongobench/mongobench/internal/results"
)

// TestDataSizeConfounder checks the flag on a data size that changes
// along a sweep that did not mean to change it, on recorded sizes: a
// thread sweep of 40% inserts without --reload (the 976 KiB to
// 1.9 MiB, and one run here of workload A with insertproportion=0.4),
// against sweeps whose data stayed put or that vary the data itself.
func TestDataSizeConfounder(t *testing.T) {
	t.Parallel()
	const kib, mib = 1024.0, 1024 * 1024.0
	threads := func(sizes ...float64) []SizePoint {
		var pts []SizePoint
		for i, s := range sizes {
			x := float64(int(1) << i)
			pts = append(pts, SizePoint{Label: "threadcount=" + formatX(x), X: x, Bytes: s})
		}
		return pts
	}
	tests := []struct {
		name   string
		varied []string
		pts    []SizePoint
		want   string
	}{
		{"the issue's thread sweep", []string{"threadcount"}, threads(976*kib, 1.3*mib, 1.9*mib),
			"the data size at the start changed from 976 KiB at threadcount=1 to 1.9 MiB at threadcount=4 along the sweep (2×) while only threadcount was varied: the points are not comparable in data size; sweep with --reload so that every trial starts from the same data"},
		{"recorded here, out of order", []string{"threadcount"}, []SizePoint{
			{"threadcount=4", 4, 5545984}, {"threadcount=1", 1, 2097152}, {"threadcount=2", 2, 3862528}},
			"the data size at the start changed from 2 MiB at threadcount=1 to 5.29 MiB at threadcount=4 along the sweep (2.6×) while only threadcount was varied: the points are not comparable in data size; sweep with --reload so that every trial starts from the same data"},
		{"grew and came back: the extremes named", []string{"target"}, []SizePoint{
			{"target=50", 50, 1 * mib}, {"target=100", 100, 2 * mib}, {"target=200", 200, 1.05 * mib}},
			"the data size at the start changed from 1 MiB at target=50 to 2 MiB at target=100 along the sweep (2×) while only target was varied: the points are not comparable in data size; sweep with --reload so that every trial starts from the same data"},
		{"within the limit", []string{"threadcount"}, threads(1000*kib, 1050*kib, 1100*kib), ""},
		{"just past the limit", []string{"threadcount"}, threads(1000*kib, 1101*kib),
			"the data size at the start changed from 1000 KiB at threadcount=1 to 1.08 MiB at threadcount=2 along the sweep (1.1×) while only threadcount was varied: the points are not comparable in data size; sweep with --reload so that every trial starts from the same data"},
		{"the data is what varies", []string{"recordcount", "threadcount"}, threads(1*mib, 10*mib), ""},
		{"linked with a data property", []string{"fieldcount,fieldlength"}, threads(1*mib, 10*mib), ""},
		{"sizes not read", []string{"threadcount"}, threads(0, 2*mib), ""},
		{"one point", []string{"threadcount"}, threads(1 * mib), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := DataSizeConfounder(tt.varied, nil, tt.pts); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestDataSizeChanged(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b float64
		want bool
	}{
		{1000, 1100, false},
		{1000, 1101, true},
		{1101, 1000, true},
		{1048576, 1048576 * 1.04, false}, // "1 MiB to 1 MiB"
		{0, 1000, false},
		{-1, 1000, false},
	}
	for _, tt := range tests {
		if got := DataSizeChanged(tt.a, tt.b); got != tt.want {
			t.Errorf("DataSizeChanged(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestPointDataSize checks that a point's size is the mean of its
// trials' sizes at their start, the end standing in where the start was
// not read, the collection's before the database's.
func TestPointDataSize(t *testing.T) {
	t.Parallel()
	run := func(start, end *metrics.SizeStats) *results.Results {
		return &results.Results{Extra: &results.Extra{Sizes: &results.Sizes{Start: start, End: end}}}
	}
	coll := func(v float64) *metrics.SizeStats {
		return &metrics.SizeStats{Coll: metrics.SizeFigures{DataSize: metrics.Known(v)}, DB: metrics.SizeFigures{DataSize: metrics.Known(v * 2)}}
	}
	db := func(v float64) *metrics.SizeStats {
		return &metrics.SizeStats{DB: metrics.SizeFigures{DataSize: metrics.Known(v)}}
	}
	got, ok := PointDataSize([]*results.Results{run(coll(100), coll(500)), run(nil, db(300)), {}, nil})
	if !ok || got != 200 {
		t.Errorf("got %v, %v; want 200 (the mean of 100 and 300)", got, ok)
	}
	if _, ok := PointDataSize([]*results.Results{{}}); ok {
		t.Error("a point without sizes has a size")
	}
}

func formatX(x float64) string { return numText(x) }
