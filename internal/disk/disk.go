// Package disk measures the disk a directory lives on with fio: random
// 4 KiB reads and writes at several queue depths, sequential reads and
// writes, and their latency percentiles. The result is a disk baseline: the
// ceiling a run's disk figures are judged against.
package disk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/fio"
	"github.com/mongobench/mongobench/internal/results"
)

// ErrNoFio is returned (wrapped) when fio is not installed.
var ErrNoFio = errors.New("fio is not installed: install the Debian package fio (apt-get install fio)")

// ErrNoBlockDevice is returned (wrapped) for a directory on a file system
// without a disk (tmpfs): fio would measure memory.
var ErrNoBlockDevice = errors.New("is on no block device (tmpfs or another file system in memory): choose a directory on the disk to measure")

// Options say what to measure.
type Options struct {
	// Dir is where fio's test file goes: on the disk to measure.
	Dir string
	// SizeBytes is the test file's size; a file larger than the page
	// cache is not needed, since fio reads with O_DIRECT.
	SizeBytes int64
	// Runtime is each test's duration.
	Runtime time.Duration
	// QueueDepths are the depths of the random tests.
	QueueDepths []int
	// Fio is the fio program; "" looks for fio on $PATH.
	Fio string
	// File is the test file's name in Dir, for Args; Measure gives fio
	// a directory of its own making in Dir, and a file there.
	File string
}

// ErrDirNotWritable is returned (wrapped) when Dir takes no new file:
// fio could write nothing there.
var ErrDirNotWritable = errors.New("takes no new files")

// The defaults of mongobench disk.
const (
	DefaultSizeBytes = 256 << 20
	DefaultRuntime   = 5 * time.Second
)

// DefaultQueueDepths go from one request at a time, a single thread's
// view, to the depth at which an SSD or a cloud volume shows its ceiling.
var DefaultQueueDepths = []int{1, 8, 32}

// randomBlock and sequentialBlock are the block sizes of the tests:
// WiredTiger's pages are read 4 KiB at a time at least.
const (
	randomBlock     = 4 << 10
	sequentialBlock = 1 << 20
	sequentialDepth = 16
)

// testDirPattern names the directory Measure makes in Dir for fio's test
// file: os.MkdirTemp makes it new and private (0700), so no name that
// stands in Dir (a file of the user's, a symbolic link to one) is ever
// written through, nobody else can put one in its place while fio runs,
// and fio may unlink and recreate its file there as it likes.
const testDirPattern = "mongobench-disk-*"

// testFileName is fio's test file in that directory.
const testFileName = "test"

// Args are fio's arguments for o: one job per test, each after the one
// before (stonewall), on one shared file.
func Args(o Options) []string {
	args := []string{
		"--output-format=json",
		"--directory=" + o.Dir,
		"--filename=" + o.File,
		"--size=" + strconv.FormatInt(o.SizeBytes, 10),
		"--runtime=" + strconv.FormatInt(max(o.Runtime.Milliseconds(), 1), 10) + "ms",
		"--time_based",
		"--ioengine=libaio",
		"--direct=1",
		"--randrepeat=0",
		"--norandommap",
		"--group_reporting=0",
	}
	job := func(name, rw string, bs, depth int) {
		args = append(args, "--name="+name, "--stonewall", "--rw="+rw,
			"--bs="+strconv.Itoa(bs), "--iodepth="+strconv.Itoa(depth))
	}
	for _, rw := range []string{results.RandRead, results.RandWrite} {
		for _, qd := range o.QueueDepths {
			job(fmt.Sprintf("%s-qd%d", rw, qd), rw, randomBlock, qd)
		}
	}
	job("seq"+results.SeqRead, results.SeqRead, sequentialBlock, sequentialDepth)
	job("seq"+results.SeqWrite, results.SeqWrite, sequentialBlock, sequentialDepth)
	return args
}

// StopGrace is how long fio is given to stop once asked.
const StopGrace = 5 * time.Second

// Measure runs fio in o.Dir and returns the baseline; ctx's error when ctx
// ends first.
func Measure(ctx context.Context, o Options) (*results.DiskBaseline, error) {
	prog := o.Fio
	if prog == "" {
		prog = "fio"
	}
	path, err := exec.LookPath(prog)
	if err != nil {
		return nil, ErrNoFio
	}
	device, err := Device(o.Dir)
	if err != nil {
		return nil, err
	}
	if device == "" && runtime.GOOS == "linux" {
		return nil, fmt.Errorf("%s %w", o.Dir, ErrNoBlockDevice)
	}
	sub, err := makeTestDir(o.Dir)
	if err != nil {
		return nil, err
	}
	fo := o
	fo.Dir, fo.File = sub, testFileName
	start := time.Now()
	cmd := exec.CommandContext(ctx, path, Args(fo)...)
	// A stop asks fio to stop as Ctrl-C does, so that it ends its jobs
	// and its file is left for us to remove; one that ignores it is
	// killed StopGrace later.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = StopGrace
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	// fio leaves its file behind; it is the size of the test.
	removeTestDir(sub)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if runErr != nil {
		return nil, fmt.Errorf("fio failed: %s", firstLine(stderr.String(), string(out), runErr.Error()))
	}
	rep, err := fio.Decode(out)
	if err != nil {
		return nil, err
	}
	b, err := FromReport(rep)
	if err != nil {
		return nil, err
	}
	b.Dir, b.Device, b.MeasuredAt = o.Dir, device, start.UTC()
	b.SizeBytes, b.RuntimeS = o.SizeBytes, o.Runtime.Seconds()
	return b, nil
}

// makeTestDir makes the directory for fio's test file in dir, finding
// on the way whether dir takes new files at all, before fio starts.
func makeTestDir(dir string) (string, error) {
	sub, err := os.MkdirTemp(dir, testDirPattern)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("%s %w (%v)", dir, ErrDirNotWritable, err)
	}
	return sub, nil
}

// removeTestDir removes the test file and its directory, and nothing
// else: a directory holding more than the test file is left.
func removeTestDir(sub string) {
	_ = os.Remove(filepath.Join(sub, testFileName))
	_ = os.Remove(sub)
}

// firstLine is the first non-empty line of the first text that has one.
func firstLine(texts ...string) string {
	for _, t := range texts {
		for l := range strings.SplitSeq(t, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "{") {
				return l
			}
		}
	}
	return "no message"
}

// FromReport turns fio's report of the jobs of Args into a baseline's
// tests.
func FromReport(rep *fio.Report) (*results.DiskBaseline, error) {
	b := &results.DiskBaseline{FioVersion: rep.Version}
	for _, j := range rep.Jobs {
		if j.Error != 0 {
			return nil, fmt.Errorf("fio job %s failed with error %d", j.Name, j.Error)
		}
		rw := j.Options["rw"]
		d := j.Read
		switch rw {
		case results.RandRead, results.SeqRead:
		case results.RandWrite, results.SeqWrite:
			d = j.Write
		default:
			return nil, fmt.Errorf("fio job %s: rw=%q is none of the baseline's", j.Name, rw)
		}
		bs, err := strconv.ParseInt(j.Options["bs"], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("fio job %s: bs=%q: %w", j.Name, j.Options["bs"], err)
		}
		depth, err := strconv.Atoi(j.Options["iodepth"])
		if err != nil {
			return nil, fmt.Errorf("fio job %s: iodepth=%q: %w", j.Name, j.Options["iodepth"], err)
		}
		us := func(p float64) float64 {
			v, _ := d.Clat.At(p)
			return float64(v) / 1e3
		}
		b.Tests = append(b.Tests, results.DiskTest{
			Name: j.Name, Pattern: rw, BlockBytes: bs, QueueDepth: depth,
			IOPS: d.IOPS, MBPerS: d.BWBytes / (1 << 20),
			LatMeanUs: d.Clat.Mean / 1e3, LatP50Us: us(50), LatP99Us: us(99), LatP999Us: us(99.9),
			LatMaxUs: float64(d.Clat.Max) / 1e3,
		})
	}
	return b, nil
}
