package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/results"
)

// diagnosisView says what limited a run, and how much of its disk's
// measured ceiling it used.
type diagnosisView struct {
	Verdict     string
	Limits      []limitView
	CannotJudge []string
	Notes       []string
	Disk        *diskView
}

type limitView struct {
	Name     string
	Evidence []string
}

// diskView is the disk baseline beside a run.
type diskView struct {
	Sentences []string
	Caption   string
	Rows      []diskRow
}

type diskRow struct {
	Name, Block, Depth, IOPS, MBPerS, P50, P99, P999 string
}

// runDiagnosis is the run's diagnosis: the one its results carry, or one
// made now for results written before runs were diagnosed.
func runDiagnosis(r *results.Results, baselines []*results.DiskBaseline) *results.Diagnosis {
	ceilings := make([]*results.DiskCeiling, 0, len(baselines))
	for _, b := range baselines {
		ceilings = append(ceilings, b.Ceiling())
	}
	return diagnosis.Of(r, ceilings...)
}

func buildDiagnosis(r *results.Results, d *results.Diagnosis, baselines []*results.DiskBaseline) *diagnosisView {
	v := &diagnosisView{Verdict: d.Verdict}
	for _, c := range d.CannotJudge {
		v.CannotJudge = append(v.CannotJudge, "Cannot judge "+c+".")
	}
	for _, n := range d.Notes {
		v.Notes = append(v.Notes, capitalize(n)+".")
	}
	for _, l := range d.Limits {
		name := l.Kind
		if l.Borderline {
			name += " (borderline)"
		}
		v.Limits = append(v.Limits, limitView{Name: name, Evidence: l.Evidence})
	}
	v.Disk = buildDisk(r, d, baselines)
	return v
}

// buildDisk sets the run's busiest disk beside the newest baseline of
// that device: the store's, else the ceiling the run was judged against.
func buildDisk(r *results.Results, d *results.Diagnosis, baselines []*results.DiskBaseline) *diskView {
	use, ok := diagnosis.BusiestDisk(r)
	if !ok {
		return nil
	}
	var base *results.DiskBaseline
	for _, b := range baselines {
		if b.Device == use.Device && (base == nil || b.MeasuredAt.After(base.MeasuredAt)) {
			base = b
		}
	}
	c := d.DiskCeiling
	if base != nil {
		c = base.Ceiling()
	}
	if c == nil || c.Device != use.Device {
		return nil
	}
	v := &diskView{Sentences: []string{
		fmt.Sprintf("This run used %s of the disk's measured %s random-write IOPS and %s of its %s random-read IOPS (%s, means over the run).",
			formatNum(use.WritesPerSec), formatNum(c.RandWriteIOPS), formatNum(use.ReadsPerSec), formatNum(c.RandReadIOPS), use.Device),
		fmt.Sprintf("It wrote %s of the disk's %s MB/s sequential write bandwidth and read %s of its %s MB/s.",
			formatNum(use.WriteMBPerSec), formatNum(c.SeqWriteMBPerS), formatNum(use.ReadMBPerSec), formatNum(c.SeqReadMBPerS)),
	}}
	v.Caption = fmt.Sprintf("The baseline of %s, measured %s UTC", c.Device, c.MeasuredAt.UTC().Format("2006-01-02 15:04"))
	if c.Dir != "" {
		v.Caption += " in " + c.Dir
	}
	if base == nil {
		v.Caption += " (as recorded with the run)."
		return v
	}
	v.Caption += fmt.Sprintf(" by mongobench disk with %s, %s per test.", base.FioVersion, strconv.FormatFloat(base.RuntimeS, 'f', -1, 64)+" s")
	for _, t := range base.Tests {
		v.Rows = append(v.Rows, diskRow{
			Name: t.Name, Block: blockSize(t.BlockBytes), Depth: strconv.Itoa(t.QueueDepth),
			IOPS: formatNum(t.IOPS), MBPerS: formatNum(t.MBPerS),
			P50: formatNum(t.LatP50Us), P99: formatNum(t.LatP99Us), P999: formatNum(t.LatP999Us),
		})
	}
	return v
}

func blockSize(b int64) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return strconv.FormatInt(b>>20, 10) + " MiB"
	case b >= 1<<10 && b%(1<<10) == 0:
		return strconv.FormatInt(b>>10, 10) + " KiB"
	}
	return strconv.FormatInt(b, 10) + " B"
}

// limitCell is a run's verdict for the table of runs: the limits in
// order, or the verdict.
func limitCell(d *results.Diagnosis) string {
	if len(d.Limits) == 0 {
		return d.Verdict
	}
	names := make([]string, len(d.Limits))
	for i, l := range d.Limits {
		names[i] = l.Kind
		if l.Borderline {
			names[i] += " (borderline)"
		}
	}
	return strings.Join(names, ", then ")
}
