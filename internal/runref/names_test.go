package runref

import (
	"slices"
	"testing"
)

// TestNames: a page names a group by what the reference names, not by
// the prefix that told mongobench how to read it.
func TestNames(t *testing.T) {
	t.Parallel()
	got := Names([]string{"label:ssd", "run:12", "dir:out/a", "file:x.json", "sweep:20260101-1", "essd", "label:"})
	want := []string{"ssd", "run 12", "out/a", "x.json", "sweep:20260101-1", "essd", "label:"}
	if !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
}
