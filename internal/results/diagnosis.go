package results

import "time"

// Diagnosis is what limited a run, judged from its own metric series (see
// the diagnosis package): the limits found, strongest first, the figures
// that crossed each threshold, and what could not be judged.
type Diagnosis struct {
	// Verdict is the one-line answer: the first limit's kind, or
	// NoLimitFound, or a sentence starting "cannot judge" when the results
	// hold nothing to judge from.
	Verdict string `json:"verdict"`
	// Limits are the resources found at or near saturation, strongest
	// first; borderline ones after the others.
	Limits []Limit `json:"limits,omitempty"`
	// CannotJudge says which resources the run's metrics could not show,
	// and why (a remote server seen only through serverStatus).
	CannotJudge []string `json:"cannot_judge,omitempty"`
	// Notes are facts that qualify the verdict without being a limit.
	Notes []string `json:"notes,omitempty"`
	// DiskCeiling is the disk baseline the disk figures were judged
	// against, when one was known for the run's disk.
	DiskCeiling *DiskCeiling `json:"disk_ceiling,omitempty"`
}

// NoLimitFound is the verdict of a run in which nothing was saturated.
const NoLimitFound = "none found: the server was not saturated"

// Limit is one resource at or near its limit.
type Limit struct {
	// Kind is one of the diagnosis package's kinds ("server CPU", "disk" …).
	Kind string `json:"kind"`
	// Borderline is true when the figures came near the threshold without
	// crossing it.
	Borderline bool `json:"borderline,omitempty"`
	// Evidence are the figures, each with the threshold it crossed, as
	// sentences for people.
	Evidence []string `json:"evidence"`
	// Severity is the strongest figure over its threshold (1 is at it);
	// limits are ordered by it.
	Severity float64 `json:"severity"`
}

// DiskCeiling is what a disk baseline (mongobench disk) measured as the
// disk's most: the random 4 KiB IOPS at the best queue depth and the
// sequential bandwidth.
type DiskCeiling struct {
	// Device is the block device the measured directory lives on, as the
	// host metrics name it ("nvme0n1", "vda").
	Device         string    `json:"device"`
	Dir            string    `json:"dir,omitempty"`
	MeasuredAt     time.Time `json:"measured_at"`
	RandReadIOPS   float64   `json:"rand_read_iops"`
	RandWriteIOPS  float64   `json:"rand_write_iops"`
	SeqReadMBPerS  float64   `json:"seq_read_mb_per_s"`
	SeqWriteMBPerS float64   `json:"seq_write_mb_per_s"`
}
