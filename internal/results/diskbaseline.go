package results

import "time"

// DiskBaseline is what a disk baseline (mongobench disk) measured: fio's
// random 4 KiB reads and writes at several queue depths and its sequential
// reads and writes, on a file in Dir.
type DiskBaseline struct {
	Dir string `json:"dir"`
	// Device is the block device Dir lives on, as the host metrics name
	// it, so that a run's disk figures can be set against it.
	Device     string     `json:"device"`
	MeasuredAt time.Time  `json:"measured_at"`
	FioVersion string     `json:"fio_version"`
	SizeBytes  int64      `json:"size_bytes"`
	RuntimeS   float64    `json:"runtime_s"`
	Tests      []DiskTest `json:"tests"`
}

// The access patterns of a disk test, as fio names them.
const (
	RandRead  = "randread"
	RandWrite = "randwrite"
	SeqRead   = "read"
	SeqWrite  = "write"
)

// DiskTest is one fio job of a baseline.
type DiskTest struct {
	Name       string  `json:"name"`
	Pattern    string  `json:"pattern"`
	BlockBytes int64   `json:"block_bytes"`
	QueueDepth int     `json:"queue_depth"`
	IOPS       float64 `json:"iops"`
	MBPerS     float64 `json:"mb_per_s"`
	// Completion latencies in microseconds.
	LatMeanUs float64 `json:"lat_mean_us"`
	LatP50Us  float64 `json:"lat_p50_us"`
	LatP99Us  float64 `json:"lat_p99_us"`
	LatP999Us float64 `json:"lat_p99_9_us"`
	LatMaxUs  float64 `json:"lat_max_us"`
}

// Ceiling is the most the baseline saw of each kind of I/O: random IOPS at
// the best queue depth, sequential MB/s.
func (b *DiskBaseline) Ceiling() *DiskCeiling {
	c := &DiskCeiling{Device: b.Device, Dir: b.Dir, MeasuredAt: b.MeasuredAt}
	for _, t := range b.Tests {
		switch t.Pattern {
		case RandRead:
			c.RandReadIOPS = max(c.RandReadIOPS, t.IOPS)
		case RandWrite:
			c.RandWriteIOPS = max(c.RandWriteIOPS, t.IOPS)
		case SeqRead:
			c.SeqReadMBPerS = max(c.SeqReadMBPerS, t.MBPerS)
		case SeqWrite:
			c.SeqWriteMBPerS = max(c.SeqWriteMBPerS, t.MBPerS)
		}
	}
	return c
}
