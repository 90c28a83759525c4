package disk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/fio"
	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
)

func TestArgs(t *testing.T) {
	t.Parallel()
	args := Args(Options{Dir: "/data/db", File: "test", SizeBytes: 256 << 20, Runtime: 5 * time.Second, QueueDepths: []int{1, 8, 32}})
	golden.Check(t, "args.golden", strings.Join(args, "\n")+"\n")
}

func recorded(t *testing.T) *fio.Report {
	t.Helper()
	b, err := os.ReadFile("testdata/fio-3.33.json")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := fio.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestFromReport: a report fio 3.33 wrote for Args' jobs, as the baseline
// table prints it.
func TestFromReport(t *testing.T) {
	t.Parallel()
	b, err := FromReport(recorded(t))
	if err != nil {
		t.Fatal(err)
	}
	b.Dir, b.Device, b.SizeBytes, b.RuntimeS = "/data/fio", "vda", 16<<20, 0.4
	golden.Check(t, "table.golden", Table(b))
	c := b.Ceiling()
	// The best depth of each, as the recorded report has them.
	want := results.DiskCeiling{Device: "vda", Dir: "/data/fio", RandReadIOPS: 15922.693, RandWriteIOPS: 14794.189,
		SeqReadMBPerS: 475949390.0 / (1 << 20), SeqWriteMBPerS: 306539354.0 / (1 << 20)}
	near := func(a, b float64) bool { return a-b < 0.001 && b-a < 0.001 }
	if c.Device != want.Device || !near(c.RandReadIOPS, want.RandReadIOPS) || !near(c.RandWriteIOPS, want.RandWriteIOPS) ||
		!near(c.SeqReadMBPerS, want.SeqReadMBPerS) || !near(c.SeqWriteMBPerS, want.SeqWriteMBPerS) {
		t.Errorf("ceiling %+v, want %+v", *c, want)
	}
}

func TestFromReportRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(j *fio.Job)
		want string
	}{
		{"failed job", func(j *fio.Job) { j.Error = 5 }, "failed with error 5"},
		{"unknown pattern", func(j *fio.Job) { j.Options["rw"] = "randtrim" }, `rw="randtrim" is none of the baseline's`},
		{"bad block size", func(j *fio.Job) { j.Options["bs"] = "4k" }, `bs="4k"`},
		{"bad depth", func(j *fio.Job) { j.Options["iodepth"] = "" }, `iodepth=""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := recorded(t)
			tt.edit(&rep.Jobs[2])
			if _, err := FromReport(rep); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestMissingFio(t *testing.T) {
	t.Parallel()
	_, err := Measure(context.Background(), Options{Dir: t.TempDir(), SizeBytes: MinSizeBytes, Runtime: time.Second, QueueDepths: []int{1}, Fio: "mongobench-no-such-fio"})
	if !errors.Is(err, ErrNoFio) || !strings.Contains(err.Error(), "Debian package fio") {
		t.Errorf("error %v, want ErrNoFio naming the package", err)
	}
}

// TestMeasure runs fio for real, small and short, on the disk the tests
// run on. Only a machine without fio skips it, and never in CI.
func TestMeasure(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("fio"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("fio is not installed in CI (.ci/run installs it)")
		}
		t.Skip("fio is not installed")
	}
	dir := t.TempDir()
	if d, _ := Device(dir); d == "" {
		// A temporary directory in memory: the package's own directory
		// is on a disk.
		var err error
		if dir, err = os.MkdirTemp(".", "measure-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(dir) })
	}
	o := Options{Dir: dir, SizeBytes: 4 << 20, Runtime: 200 * time.Millisecond, QueueDepths: []int{1, 4}}
	b, err := Measure(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if b.Device == "" || b.FioVersion == "" || b.MeasuredAt.IsZero() || len(b.Tests) != 6 {
		t.Fatalf("baseline %+v: want a device, fio's version, a time and 6 tests", b)
	}
	for _, tt := range b.Tests {
		if tt.IOPS <= 0 || tt.MBPerS <= 0 || tt.LatP50Us <= 0 || tt.LatP99Us < tt.LatP50Us {
			t.Errorf("test %+v: want IOPS, MB/s and a p99 no lower than the p50", tt)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, testDirPattern)); len(left) > 0 {
		t.Errorf("fio's test file is left behind: %v", left)
	}
}

func TestMeasureRefusesMemory(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("fio"); err != nil {
		t.Skip("fio is not installed")
	}
	if d, err := Device("/dev/shm"); err != nil || d != "" {
		t.Skip("no tmpfs at /dev/shm")
	}
	_, err := Measure(context.Background(), Options{Dir: "/dev/shm", SizeBytes: MinSizeBytes, Runtime: time.Second, QueueDepths: []int{1}})
	if !errors.Is(err, ErrNoBlockDevice) {
		t.Errorf("error %v, want ErrNoBlockDevice", err)
	}
}

func TestParseSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int64 // 0: refused
	}{
		{"256M", 256 << 20}, {"1G", 1 << 30}, {"1GiB", 1 << 30}, {"1gb", 1 << 30}, {"64k", 0}, {"2048K", 2 << 20},
		{"8388608", 8 << 20}, {"1T", 1 << 40}, {"2T", 0}, {"0", 0}, {"-1M", 0}, {"M", 0}, {"1.5G", 0}, {"", 0}, {"12Q", 0},
		{"9223372036854775807K", 0},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if tt.want == 0 {
			if err == nil || !strings.Contains(err.Error(), SizeAccepted) {
				t.Errorf("ParseSize(%q) = %d, %v: want an error saying what is accepted", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v: want %d", tt.in, got, err, tt.want)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"256M", "1GiB", "8388608", "2T", "-1M", "1.5G"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s)
		if err == nil && (n < MinSizeBytes || n > MaxSizeBytes) {
			t.Fatalf("ParseSize(%q) = %d, outside %d..%d", s, n, MinSizeBytes, MaxSizeBytes)
		}
	})
}

func TestThousands(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 9800.4: "9,800", 1234567: "1,234,567", -2350: "-2,350"} {
		if got := Thousands(in); got != want {
			t.Errorf("Thousands(%v) = %q, want %q", in, got, want)
		}
	}
}

// diskDir is a directory on a disk for a test: the temporary directory
// when it is on one, else one in the package's directory.
func diskDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if d, _ := Device(dir); d != "" {
		return dir
	}
	dir, err := os.MkdirTemp(".", "scratch-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// fakeFio writes a program that does what fio does to its test file (it
// opens the name it is given in the directory it is given, following a
// link, and writes), notes the name in log, and prints a report fio 3.33
// wrote.
func fakeFio(t *testing.T, log string) string {
	t.Helper()
	report, err := filepath.Abs("testdata/fio-3.33.json")
	if err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(t.TempDir(), "fio")
	script := `#!/bin/sh
for a in "$@"; do
  case "$a" in
    --directory=*) dir="${a#--directory=}" ;;
    --filename=*) file="${a#--filename=}" ;;
  esac
done
echo "$dir/$file" >> '` + log + `'
ls -ld "$dir" | cut -c1-10 >> '` + log + `'
echo "written by fio" > "$dir/$file" || exit 1
cat '` + report + `'
`
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestMeasureScratchFile: fio's test file is a new file of its own in
// Dir. A file or a symbolic link at the name earlier versions used, or at
// any name, is neither written through nor removed; the test file is
// removed afterwards, and only it.
func TestMeasureScratchFile(t *testing.T) {
	t.Parallel()
	dir := diskDir(t)
	outside := t.TempDir()
	precious := filepath.Join(outside, "precious")
	mine := filepath.Join(dir, "mongobench-disk.tmp")
	for p, content := range map[string]string{precious: "the user's data", mine: "the user's own file"} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Links at the old fixed name's neighbours and at a name of the
	// pattern's shape.
	for _, name := range []string{"mongobench-disk-1", "mongobench-disk-test"} {
		if err := os.Symlink(precious, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	before := listDir(t, dir)
	log := filepath.Join(outside, "fio.log")
	o := Options{Dir: dir, SizeBytes: MinSizeBytes, Runtime: time.Second, QueueDepths: []int{1}, Fio: fakeFio(t, log)}
	if _, err := Measure(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(precious); string(b) != "the user's data" {
		t.Errorf("a link's target was written through: %q", b)
	}
	if b, _ := os.ReadFile(mine); string(b) != "the user's own file" {
		t.Errorf("mongobench-disk.tmp, the user's, was changed: %q", b)
	}
	if after := listDir(t, dir); after != before {
		t.Errorf("the directory changed:\nbefore %s\nafter  %s", before, after)
	}
	used, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	// fio's file was in a directory of Measure's own, new and private.
	lines := strings.Split(strings.TrimSpace(string(used)), "\n")
	if len(lines) != 2 || lines[1] != "drwx------" {
		t.Fatalf("fio's file and the mode of its directory: %q", lines)
	}
	sub := filepath.Dir(lines[0])
	if ok, _ := filepath.Match(filepath.Join(dir, testDirPattern), sub); !ok || strings.Contains(before, filepath.Base(sub)) {
		t.Errorf("fio wrote %s: want a new directory %s in %s", lines[0], testDirPattern, dir)
	}
}

// listDir names dir's entries with their kinds and contents.
func listDir(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		fi, err := os.Lstat(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		c, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		fmt.Fprintf(&b, "%s %s %q\n", e.Name(), fi.Mode().Type(), c)
	}
	return b.String()
}
