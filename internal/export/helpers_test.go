package export

import (
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/measure/measuretest"
)

// The shared fixture, under the names this package's tests use.
func hist(t testing.TB, values ...int64) *hdrhistogram.Histogram {
	t.Helper()
	return measuretest.Hist(t, values...)
}

func span(from, to, step int64) []int64 { return measuretest.Span(from, to, step) }

func plus(values []int64, d int64) []int64 { return measuretest.Plus(values, d) }

func testSummary(t testing.TB) *measure.Summary {
	t.Helper()
	return measuretest.Summary(t)
}
