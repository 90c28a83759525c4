package results

import (
	"bytes"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/mongobench/mongobench/internal/export"
	"github.com/mongobench/mongobench/internal/measure"
	"github.com/mongobench/mongobench/internal/measure/measuretest"
)

// The shared fixture, under the names this package's tests use.
var testStart = measuretest.Start

func hist(t testing.TB, values ...int64) *hdrhistogram.Histogram {
	t.Helper()
	return measuretest.Hist(t, values...)
}

func span(from, to, step int64) []int64 { return measuretest.Span(from, to, step) }

func testSummary(t testing.TB) *measure.Summary {
	t.Helper()
	return measuretest.Summary(t)
}

// writeText is the text summary of s, to compare a summary read back from
// a results file with the one recorded.
func writeText(t *testing.T, s *measure.Summary, opts export.TextOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := export.WriteText(&b, s, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
