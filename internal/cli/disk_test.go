package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/disk"
	"github.com/mongobench/mongobench/internal/store"
)

// TestDisk runs mongobench disk for real, small and short, and finds its
// baseline in the store. Only a machine without fio skips it, never CI.
func TestDisk(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("fio"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("fio is not installed in CI (.ci/run installs it)")
		}
		t.Skip("fio is not installed")
	}
	dir := t.TempDir()
	if d, _ := disk.Device(dir); d == "" {
		// The temporary directory is in memory; the package's is on a disk.
		var err error
		if dir, err = os.MkdirTemp(".", "disk-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(dir) })
	}
	storeFile := filepath.Join(t.TempDir(), "runs.db")
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
		if k == "PATH" {
			return os.Getenv("PATH")
		}
		return ""
	}}
	code := Main(context.Background(), []string{"disk", "--dir", dir, "--size", "4M", "--runtime", "200ms", "--store", storeFile}, env)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	st, err := store.Open(storeFile)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := st.LatestDiskBaseline(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(dir)
	if b.Dir != abs || len(b.Tests) != 8 || b.RuntimeS != 0.2 || b.SizeBytes != 4<<20 {
		t.Errorf("stored baseline %+v: want %s, 8 tests of 0.2 s on 4 MiB", b, abs)
	}
	// What was printed is what was stored.
	if got := out.String(); got != disk.Table(b) {
		t.Errorf("stdout\n%s\nthe stored baseline's table\n%s", got, disk.Table(b))
	}
	if !strings.Contains(errb.String(), "saved as disk baseline 1 of "+b.Device) {
		t.Errorf("stderr does not say where the baseline went: %s", errb.String())
	}
}
