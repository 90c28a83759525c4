package native

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBuiltInWorkloads: every built-in workload file reads without an
// error, with its defaults and with the parameter values its
// documentation and examples give it.
func TestBuiltInWorkloads(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../../workloads/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no built-in workloads: %v", err)
	}
	variants := map[string][][]Parameter{
		"tasks.yaml": {
			{{Name: "task", Value: "insert"}}, {{Name: "task", Value: "query"}},
			{{Name: "task", Value: "delete"}, {Name: "text", Value: "2000"}},
		},
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		for _, params := range append([][]Parameter{nil}, variants[name]...) {
			f, err := Parse(name, src, params)
			if err != nil {
				t.Errorf("%s %v: %v", name, params, err)
				continue
			}
			if f.Name == "" || f.Description == "" {
				t.Errorf("%s: no name or description", name)
			}
		}
	}
}
