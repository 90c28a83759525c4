package diagnosis

import (
	"fmt"
	"strings"

	"github.com/mongobench/mongobench/internal/results"
)

// disk judges the server host's busiest disk, against its measured
// ceiling when there is one.
func (j *judge) disk(ceilings []*results.DiskCeiling) bool {
	f := j.f
	if !f.serverLocal || len(f.disks) == 0 {
		return false
	}
	busiest := &f.disks[0]
	for i := range f.disks {
		if f.disks[i].util.v() > busiest.util.v() {
			busiest = &f.disks[i]
		}
	}
	var measured []string
	for _, c := range ceilings {
		if c == nil {
			continue
		}
		if c.Device == busiest.name {
			j.d.DiskCeiling = c
			j.diskAgainstCeiling(busiest, c)
			return true
		}
		measured = append(measured, c.Device)
	}
	if len(measured) > 0 {
		j.d.Notes = append(j.d.Notes, fmt.Sprintf("the disk baselines measured %s, not %s, this run's busiest disk: it is judged by its utilisation",
			strings.Join(measured, ", "), busiest.name))
	}
	k := busiest
	util, queue := k.util.v(), k.aq.v()
	lvl := level(util, DiskUtilPct, DiskUtilBorderlinePct)
	if lvl == 2 && queue < DiskQueueDepth {
		lvl = 1
	}
	evidence := []string{fmt.Sprintf("disk %s was busy %s of the time (threshold %s) with %s requests in flight on average (threshold %s), %s IOPS at %s ms each",
		k.name, pct(util), pct(DiskUtilPct), num(queue, 2), num(DiskQueueDepth, 1), num(k.iops.v(), 0), num(k.await.v(), 2))}
	if lvl == 1 {
		evidence = append(evidence, "a disk serving requests in parallel can be busy all the time with room to spare: measure its ceiling with mongobench disk")
	}
	if f.cpu.iowait.ok() && f.cpu.iowait.v() >= 10 {
		evidence = append(evidence, fmt.Sprintf("the CPUs waited for I/O %s of the time", pct(f.cpu.iowait.v())))
	}
	j.add(Disk, lvl, util/DiskUtilPct, evidence...)
	return true
}

func (j *judge) diskAgainstCeiling(k *diskFigures, c *results.DiskCeiling) {
	// Reads and writes share the disk: the shares of each ceiling add up.
	var iopsShare, bwShare float64
	if c.RandReadIOPS > 0 {
		iopsShare += k.reads.v() / c.RandReadIOPS
	}
	if c.RandWriteIOPS > 0 {
		iopsShare += k.writes.v() / c.RandWriteIOPS
	}
	if c.SeqReadMBPerS > 0 {
		bwShare += k.rMB.v() / c.SeqReadMBPerS
	}
	if c.SeqWriteMBPerS > 0 {
		bwShare += k.wMB.v() / c.SeqWriteMBPerS
	}
	share := max(iopsShare, bwShare)
	lvl := level(share, DiskCeilingShare, DiskCeilingBorderlineShare)
	evidence := []string{
		fmt.Sprintf("disk %s did %s reads/s and %s writes/s of its measured %s random-read and %s random-write IOPS: %s of its ceiling, threshold %s",
			k.name, num(k.reads.v(), 0), num(k.writes.v(), 0), num(c.RandReadIOPS, 0), num(c.RandWriteIOPS, 0), pct(100*iopsShare), pct(100*DiskCeilingShare)),
		fmt.Sprintf("disk %s read %s MB/s and wrote %s MB/s of its measured %s and %s MB/s sequential: %s of its bandwidth",
			k.name, num(k.rMB.v(), 1), num(k.wMB.v(), 1), num(c.SeqReadMBPerS, 0), num(c.SeqWriteMBPerS, 0), pct(100*bwShare)),
	}
	if lvl == 0 {
		// Under its ceiling, how far under is still worth knowing.
		j.d.Notes = append(j.d.Notes, evidence...)
		return
	}
	j.add(Disk, lvl, share/DiskCeilingShare, evidence...)
}
