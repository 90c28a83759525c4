package analysis

import (
	"reflect"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

// TestNativeKeysShapeWork: the native workload a run ran and its
// parameters' values set runs apart as properties do; a sweep that
// varies a parameter by its name ignores its key, as it ignores a varied
// property.
func TestNativeKeysShapeWork(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"native", "native.text", "native.task"} {
		if !ShapesWork(k) {
			t.Errorf("ShapesWork(%q) = false", k)
		}
	}
	if ShapesWork("nativex") {
		t.Error("ShapesWork(nativex): no key of a native run")
	}
	run := func(conf map[string]string) *results.Results {
		return &results.Results{Phase: results.PhaseRun, Config: conf}
	}
	query := run(map[string]string{"native": "tasks", "native.task": "query", "native.text": "20", "threadcount": "1"})
	del := run(map[string]string{"native": "tasks", "native.task": "delete", "native.text": "20", "threadcount": "1"})
	large := run(map[string]string{"native": "tasks", "native.task": "query", "native.text": "2000", "threadcount": "1"})
	other := run(map[string]string{"native": "insert1k", "threadcount": "1"})
	for _, c := range []struct {
		a, b   *results.Results
		ignore map[string]bool
		want   []Difference
	}{
		{query, del, nil, []Difference{{"native.task", "query", "delete"}}},
		{query, large, nil, []Difference{{"native.text", "20", "2000"}}},
		{query, large, map[string]bool{"text": true}, nil},
		{query, large, map[string]bool{"native.text": true}, nil},
		{query, other, nil, []Difference{{"native", "tasks", "insert1k"}}},
	} {
		if got := Differences(c.a, c.b, c.ignore); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Differences(%v, %v, ignore %v) = %v, want %v", c.a.Config, c.b.Config, c.ignore, got, c.want)
		}
	}
}
