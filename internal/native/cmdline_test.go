package native

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/workloads"
)

// TestValidate checks validate's outcome per file: a valid file's
// summary, an invalid one's error lines (and failed), an unreadable one
// ends it.
func TestValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good, err := fs.ReadFile(workloads.Files, "insert1k.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	goodPath := write("good.yaml", good)
	badPath := write("bad.yaml", []byte("collections: 3\n"))
	var out bytes.Buffer
	var lines []string
	failed, err := Validate([]string{goodPath, badPath}, nil, &out, func(l string) { lines = append(lines, l) })
	if err != nil || !failed {
		t.Fatalf("failed %v, err %v", failed, err)
	}
	if !strings.HasPrefix(out.String(), goodPath+": valid: ") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("stdout %q", out.String())
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], badPath+":") {
		t.Errorf("error lines %q", lines)
	}
	_, err = Validate([]string{filepath.Join(dir, "missing.yaml")}, nil, &out, func(string) {})
	if err == nil {
		t.Error("a missing file: no error")
	}

	// A built-in workload is validated by its name, as -P finds it; a
	// YCSB property file of that name is no native workload.
	out.Reset()
	failed, err = Validate([]string{"shop.yaml", "tasks.yaml"}, nil, &out, func(l string) { t.Errorf("built-in: %s", l) })
	if err != nil || failed {
		t.Fatalf("built-ins: failed %v, err %v", failed, err)
	}
	if got := out.String(); !strings.HasPrefix(got, "shop.yaml: valid: 3 collections, ") || !strings.Contains(got, "\ntasks.yaml: valid: ") {
		t.Errorf("built-ins: stdout %q", got)
	}
	if _, err := Validate([]string{"workloada"}, nil, &out, func(string) {}); err == nil || err.Error() != "workloada is a built-in YCSB workload; validate checks native workload files (YAML or JSON, such as shop.yaml)" {
		t.Errorf("validate workloada (a YCSB file): %v", err)
	}
}
