package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidate: validate prints every error of a broken file as its own
// FILE:LINE:COL line and exits 2; a valid file gets one line saying what
// it holds and exit 0. The errors themselves are internal/native's tests.
func TestValidate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("collections:\n  c:\n    document: {a: {^int: {}}}\noperations:\n  - {name: q, kind: find, collection: d}\nphases: {measure: {count: 0}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	builtin := filepath.Join("..", "..", "workloads", "insert1k.yaml")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{"broken file", []string{"validate", bad}, ExitBadInput, nil, []string{
			bad + ":3:20: collection c: document: unknown generator ^int; accepted: ^int32,",
			bad + ":5:39: operation q: collection \"d\" is not among the workload's collections; accepted: c",
			bad + ":6:27: phase measure: count is 0; expected an integer from 1 to 9223372036854775807",
		}},
		{"valid file with an override", []string{"validate", builtin, "-p", "documents=5000"}, ExitOK, []string{
			builtin + ": valid: 1 collection, 1 operation, phases load (4 threads, 5000 operations), measure (4 threads, 1m0s)",
		}, nil},
		{"override of no parameter", []string{"validate", builtin, "-p", "docs=5"}, ExitBadInput, nil, []string{
			builtin + ": -p docs: not a parameter of the workload; its parameters are documents, threads",
		}},
		{"no file", []string{"validate"}, ExitBadInput, nil, []string{
			"mongobench: validate: no file given: expected one or more native workload files (YAML or JSON)",
		}},
		{"a directory", []string{"validate", dir}, ExitBadInput, nil, []string{
			"mongobench: validate: open " + dir + ": is a directory, not a regular file",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mongobench(t, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", r.code, tt.code, r.stderr)
			}
			check := func(stream, got string, want []string) {
				lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
				if got == "" {
					lines = nil
				}
				if len(lines) != len(want) {
					t.Fatalf("%s has %d lines, want %d:\n%s", stream, len(lines), len(want), got)
				}
				for i, w := range want {
					if !strings.HasPrefix(lines[i], w) {
						t.Errorf("%s line %d:\n got %s\nwant %s…", stream, i+1, lines[i], w)
					}
				}
			}
			check("stdout", r.stdout, tt.stdout)
			check("stderr", r.stderr, tt.stderr)
		})
	}
}
