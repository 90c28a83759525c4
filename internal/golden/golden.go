// Package golden compares test output with files kept under testdata, the
// reviewed record of every output format, and rewrites them when the tests
// run with -update. Only tests import it.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Updating reports whether the tests run with -update, for tests that keep
// a golden section inside a larger file.
func Updating() bool { return *update }

// Check compares got with testdata/name, or writes got there when the
// tests run with -update. A difference is reported at its first line and
// column, since most golden files are too long to print whole.
func Check[T string | []byte](t testing.TB, name string, got T) {
	t.Helper()
	CheckFile(t, filepath.Join("testdata", name), got)
}

// CheckFile is Check for a file outside testdata: a generated document
// the repository keeps where its readers look for it (docs/reference).
func CheckFile[T string | []byte](t testing.TB, path string, got T) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -run '%s' -update writes it)", err, t.Name())
	}
	if msg := diff([]byte(got), want); msg != "" {
		t.Errorf("the output differs from %s (go test -run '%s' -update rewrites it; review the diff) %s", path, t.Name(), msg)
	}
}

// diff describes where got first parts from want, or returns "" when they
// are equal.
func diff(got, want []byte) string {
	if bytes.Equal(got, want) {
		return ""
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	i := 0
	for i < min(len(gl), len(wl)) && gl[i] == wl[i] {
		i++
	}
	var g, w string
	if i < len(gl) {
		g = gl[i]
	}
	if i < len(wl) {
		w = wl[i]
	}
	c := 0
	for c < min(len(g), len(w)) && g[c] == w[c] {
		c++
	}
	// Long lines (SVG, JSON) are shown from shortly before where they part.
	from := max(0, c-80)
	return fmt.Sprintf("at line %d, column %d (the output has %d lines, the file %d):\ngot:  %.240q\nwant: %.240q",
		i+1, c+1, len(gl), len(wl), g[from:], w[from:])
}
