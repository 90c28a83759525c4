package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results"
)

func testBaseline(device string, at time.Time) *results.DiskBaseline {
	return &results.DiskBaseline{
		Dir: "/data/db", Device: device, MeasuredAt: at.UTC(), FioVersion: "fio-3.33", SizeBytes: 256 << 20, RuntimeS: 5,
		Tests: []results.DiskTest{
			{Name: "randread-qd32", Pattern: results.RandRead, BlockBytes: 4096, QueueDepth: 32, IOPS: 40000, MBPerS: 156.25, LatP50Us: 700, LatP99Us: 2100},
			{Name: "randwrite-qd32", Pattern: results.RandWrite, BlockBytes: 4096, QueueDepth: 32, IOPS: 9800, MBPerS: 38.3, LatP50Us: 3000, LatP99Us: 9000},
			{Name: "seqread", Pattern: results.SeqRead, BlockBytes: 1 << 20, QueueDepth: 16, IOPS: 1500, MBPerS: 1500},
			{Name: "seqwrite", Pattern: results.SeqWrite, BlockBytes: 1 << 20, QueueDepth: 16, IOPS: 900, MBPerS: 900},
		},
	}
}

func TestDiskBaselines(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	if _, err := s.LatestDiskBaseline(ctx, ""); !errors.Is(err, ErrNotFound) {
		t.Fatalf("empty store: %v, want ErrNotFound", err)
	}
	old := testBaseline("nvme0n1", t0)
	newer := testBaseline("nvme0n1", t0.Add(time.Hour))
	newer.Tests[1].IOPS = 12000
	other := testBaseline("sda", t0.Add(30*time.Minute))
	other.Dir = "/mnt/u:hunter2@x"
	for _, b := range []*results.DiskBaseline{newer, old, other} {
		if _, err := s.SaveDiskBaseline(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.LatestDiskBaseline(ctx, "nvme0n1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, newer) {
		t.Errorf("latest of nvme0n1 %+v, want the newer one %+v", got, newer)
	}
	if got, err := s.LatestDiskBaseline(ctx, ""); err != nil || got.Device != "nvme0n1" || !got.MeasuredAt.Equal(newer.MeasuredAt) {
		t.Errorf("latest of any device: %+v, %v; want nvme0n1's newer", got, err)
	}
	if _, err := s.LatestDiskBaseline(ctx, "sdz"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown device: %v, want ErrNotFound", err)
	}
	all, err := s.DiskBaselines(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Device != "nvme0n1" || all[0].Ceiling().RandWriteIOPS != 12000 || all[1].Device != "sda" {
		t.Errorf("newest per device: %+v", all)
	}
	cs, err := s.DiskCeilings(ctx)
	if err != nil || len(cs) != 2 || cs[0].Device != "nvme0n1" || cs[0].RandWriteIOPS != 12000 || cs[1].Device != "sda" || cs[1].SeqReadMBPerS != 1500 {
		t.Errorf("ceilings %+v, %v: want nvme0n1's newer and sda's", cs, err)
	}
	if all[1].Dir == other.Dir {
		t.Errorf("the directory's secret was kept: %q", all[1].Dir)
	}
	if _, err := s.SaveDiskBaseline(ctx, &results.DiskBaseline{Device: "x"}); err == nil {
		t.Error("a baseline without tests was saved")
	}
}

// TestRunCeilings: a store that cannot read its baselines costs a run
// only the judgement of its disk, said as a warning.
func TestRunCeilings(t *testing.T) {
	t.Parallel()
	s, err := Open(filepath.Join(t.TempDir(), "runs.db"))
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	if cs := s.RunCeilings(context.Background(), func(w string) { warned = append(warned, w) }); len(cs) != 0 || len(warned) != 0 {
		t.Errorf("an empty store: ceilings %v, warnings %q", cs, warned)
	}
	s.Close()
	if cs := s.RunCeilings(context.Background(), func(w string) { warned = append(warned, w) }); cs != nil || len(warned) != 1 ||
		!strings.HasPrefix(warned[0], "the disk baselines could not be read, disks are judged by their utilisation: ") {
		t.Errorf("a closed store: ceilings %v, warnings %q", cs, warned)
	}
}
