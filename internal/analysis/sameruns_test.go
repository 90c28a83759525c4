package analysis

import (
	"errors"
	"strings"
	"testing"
)

// TestSeparateRuns: a run in two groups is refused, naming it; a run read
// twice in one group counts once; two runs alike but for their figures
// are two runs.
func TestSeparateRuns(t *testing.T) {
	t.Parallel()
	a, b := runOf(t, "run", 100), runOf(t, "run", 101)
	a.ID, b.ID = 1, 2
	copyOfA := Run{Res: a.Res, Source: "a.json"}
	names := []string{"A (x)", "B (y)"}
	err := SeparateRuns(names, [][]Run{{a, b}, {b}})
	var same *SameRunError
	if !errors.As(err, &same) || !strings.Contains(err.Error(), "groups A (x) and B (y) both hold run 2") {
		t.Errorf("a run in two groups: %v", err)
	}
	if err := SeparateRuns(names, [][]Run{{a}, {b}}); err != nil {
		t.Errorf("two runs: %v", err)
	}
	if err := SeparateRuns(names, [][]Run{{a}, {copyOfA}}); err == nil || !strings.Contains(err.Error(), "run 1 (also read as a.json)") {
		t.Errorf("a run and its copy in two groups: %v", err)
	}
	if got := OnceEach([]Run{a, copyOfA, b, a}); len(got) != 2 || got[0].ID != 1 || got[1].ID != 2 {
		t.Errorf("OnceEach kept %d runs, want run 1 and run 2", len(got))
	}
}
