package report

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

// TestDiskBeside: a run's busiest disk beside its device's baseline, with
// the run's mean writes and reads against the measured ceiling; another
// device's baseline shows nothing.
func TestDiskBeside(t *testing.T) {
	t.Parallel()
	in := singleInput(t)
	page := render(t, in)
	// hostMetrics writes 110, 120, 130, 100 … per second: 115 on average.
	for _, want := range []string{
		"This run used 115 of the disk&#39;s measured 9,800 random-write IOPS and 0 of its 40,000 random-read IOPS (sda, means over the run).",
		"The baseline of sda, measured 2024-05-06 06:08 UTC in /data/db by mongobench disk with fio-3.33, 5 s per test.",
		"<td class=\"text\">randwrite-qd32</td><td>4 KiB</td><td>32</td><td>9,800</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	in.DiskBaselines = []*results.DiskBaseline{diskBaseline("nvme0n1")}
	if page := render(t, in); strings.Contains(page, "The disk&#39;s measured ceiling") {
		t.Error("another device's baseline was shown beside the run")
	}
}
