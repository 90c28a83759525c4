package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/disk"
	"github.com/mongobench/mongobench/internal/results"
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

// TestReportDiskBaseline: the report sets a run's busiest disk beside the
// store's baseline of that device, and its diagnosis in the runs table.
func TestReportDiskBaseline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	storeFile, out, page := filepath.Join(dir, "runs.db"), filepath.Join(dir, "r.json"), filepath.Join(dir, "report.html")
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=200"); r.code != 0 {
		t.Fatalf("load exit %d: %s", r.code, r.stderr)
	}
	r := mongobench(t, "run", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=200",
		"-p", "operationcount=300", "--out", out, "--store", storeFile)
	if r.code != 0 {
		t.Fatalf("run exit %d: %s", r.code, r.stderr)
	}
	res := readResults(t, out)
	use, ok := diagnosis.BusiestDisk(res)
	if !ok {
		t.Skip("the host metrics show no disk of the server's host")
	}
	st, err := store.Open(storeFile)
	if err != nil {
		t.Fatal(err)
	}
	b := &results.DiskBaseline{Dir: "/data", Device: use.Device, MeasuredAt: res.Start.Add(-time.Hour), FioVersion: "fio-3.33", RuntimeS: 5,
		Tests: []results.DiskTest{{Name: "randwrite-qd32", Pattern: results.RandWrite, BlockBytes: 4096, QueueDepth: 32, IOPS: 98765}}}
	if _, err := st.SaveDiskBaseline(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	_ = st.Close()
	if r := mongobench(t, "report", out, "-o", page, "--store", storeFile); r.code != 0 {
		t.Fatalf("report exit %d: %s", r.code, r.stderr)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"of the disk&#39;s measured 98,765 random-write IOPS",
		"<h3>What limited it: " + res.Extra.Diagnosis.Verdict + "</h3>",
	} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
