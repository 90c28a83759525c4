package runref

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// TestSeparate: a run in two groups is refused, each group named by its
// letter and its argument, control characters escaped.
func TestSeparate(t *testing.T) {
	t.Parallel()
	a := analysis.Run{Res: resultstest.Results(t, resultstest.Spec{Throughput: 1000}), ID: 7}
	b := analysis.Run{Res: resultstest.Results(t, resultstest.Spec{Throughput: 1100}), ID: 8}
	s := &Source{}
	err := s.Separate([]string{"x", "y\x1b"}, [][]analysis.Run{{a, b}, {b}})
	if err == nil || !strings.Contains(err.Error(), `groups A (x) and B (y\x1b) both hold run 8`) {
		t.Errorf("a run in two groups: %v", err)
	}
	if err := s.Separate([]string{"x", "y"}, [][]analysis.Run{{a}, {b}}); err != nil {
		t.Errorf("two runs: %v", err)
	}
}
