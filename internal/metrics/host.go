package metrics

import (
	"fmt"
	"sort"
	"strings"

	"github.com/prometheus/procfs"
	"github.com/prometheus/procfs/blockdevice"
)

// HostSample is one reading of the machine mongobench runs on: raw kernel
// counters from /proc. Each part is nil when it could not be read, with the
// reason in Errors.
type HostSample struct {
	// DescribesServer is true when the server runs on this machine too, so
	// that CPU and disk figures are the server's as well.
	DescribesServer bool `json:"describes_server"`
	// Errors maps a part ("cpu", "load", "memory", "disks", "process") to
	// why it is missing.
	Errors map[string]string `json:"errors,omitempty"`

	CPU     *CPUTimes      `json:"cpu,omitempty"`
	Load    *LoadAvg       `json:"load,omitempty"`
	Memory  *Memory        `json:"memory,omitempty"`
	Disks   []DiskCounters `json:"disks,omitempty"`
	Process *ProcessSample `json:"process,omitempty"`
	// ServerProcess is the server's own process, when it runs on this
	// machine in a process apart from mongobench's: found by the pid its
	// serverStatus reports, and read only when that process has the name
	// the server reports. nil when it is not seen.
	ServerProcess *ProcessSample `json:"server_process,omitempty"`
}

// CPUTimes are the seconds all CPUs together spent in each state since
// boot (/proc/stat's "cpu" line).
type CPUTimes struct {
	// NumCPU is how many CPUs /proc/stat lists.
	NumCPU  int     `json:"num_cpu"`
	User    float64 `json:"user_s"`
	Nice    float64 `json:"nice_s"`
	System  float64 `json:"system_s"`
	Idle    float64 `json:"idle_s"`
	Iowait  float64 `json:"iowait_s"`
	IRQ     float64 `json:"irq_s"`
	SoftIRQ float64 `json:"softirq_s"`
	Steal   float64 `json:"steal_s"`
}

// LoadAvg is /proc/loadavg.
type LoadAvg struct {
	Load1  float64 `json:"load1"`
	Load5  float64 `json:"load5"`
	Load15 float64 `json:"load15"`
}

// Memory is the part of /proc/meminfo that tells how much of the data can
// stay in memory, in bytes. Fields an old kernel lacks are absent.
type Memory struct {
	TotalBytes     Value `json:"total_bytes,omitzero"`
	AvailableBytes Value `json:"available_bytes,omitzero"`
	// CachedBytes is the page cache (Cached): the file-system cache that
	// WiredTiger's compressed files are read through.
	CachedBytes Value `json:"cached_bytes,omitzero"`
	DirtyBytes  Value `json:"dirty_bytes,omitzero"`
}

// DiskCounters are one block device's /proc/diskstats counters since boot.
type DiskCounters struct {
	Name         string `json:"name"`
	ReadIOs      uint64 `json:"read_ios"`
	ReadSectors  uint64 `json:"read_sectors"`
	ReadTicks    uint64 `json:"read_ms"`
	WriteIOs     uint64 `json:"write_ios"`
	WriteSectors uint64 `json:"write_sectors"`
	WriteTicks   uint64 `json:"write_ms"`
	// IOTicks is the time the device had I/O in flight (%util's source).
	IOTicks uint64 `json:"io_ms"`
	// WeightedIOTicks is the in-flight time weighted by the number of I/Os
	// in flight (the average queue size's source).
	WeightedIOTicks uint64 `json:"weighted_io_ms"`
}

// ProcessSample is mongobench's own use of the machine.
type ProcessSample struct {
	UserSec   float64 `json:"user_s"`
	SystemSec float64 `json:"system_s"`
	RSSBytes  float64 `json:"rss_bytes"`
}

// sectorBytes is the unit of /proc/diskstats' sector counts, whatever the
// device's real sector size.
const sectorBytes = 512

// hostReader reads host samples from one procfs root.
type hostReader struct {
	fs      procfs.FS
	blk     blockdevice.FS
	initErr error
	// pid is the process whose CPU and memory are read; 0 is this process.
	pid int
}

func newHostReader(root string, pid int) *hostReader {
	if root == "" {
		root = procfs.DefaultMountPoint
	}

	h := &hostReader{pid: pid}

	fs, err := procfs.NewFS(root)
	if err != nil {
		h.initErr = fmt.Errorf("metrics: procfs at %s: %w", root, err)
		return h
	}

	// The block device FS wants a sysfs root too, but only its /proc reader
	// is used; giving it the proc root spares a dependency on /sys, which
	// some containers lack.
	blk, err := blockdevice.NewFS(root, root)
	if err != nil {
		h.initErr = fmt.Errorf("metrics: procfs at %s: %w", root, err)
		return h
	}

	h.fs, h.blk = fs, blk

	return h
}

// sample reads every part it can; parts that fail are recorded in Errors.
func (h *hostReader) sample(describesServer bool) *HostSample {
	s := &HostSample{DescribesServer: describesServer}

	fail := func(part string, err error) {
		if s.Errors == nil {
			s.Errors = make(map[string]string)
		}

		s.Errors[part] = err.Error()
	}

	if h.initErr != nil {
		fail("procfs", h.initErr)
		return s
	}

	if st, err := h.fs.Stat(); err != nil {
		fail("cpu", err)
	} else {
		c := st.CPUTotal
		s.CPU = &CPUTimes{
			NumCPU: len(st.CPU),
			User:   c.User, Nice: c.Nice, System: c.System, Idle: c.Idle,
			Iowait: c.Iowait, IRQ: c.IRQ, SoftIRQ: c.SoftIRQ, Steal: c.Steal,
		}
	}

	if la, err := h.fs.LoadAvg(); err != nil {
		fail("load", err)
	} else {
		s.Load = &LoadAvg{Load1: la.Load1, Load5: la.Load5, Load15: la.Load15}
	}

	if mi, err := h.fs.Meminfo(); err != nil {
		fail("memory", err)
	} else {
		s.Memory = &Memory{
			TotalBytes:     optBytes(mi.MemTotalBytes),
			AvailableBytes: optBytes(mi.MemAvailableBytes),
			CachedBytes:    optBytes(mi.CachedBytes),
			DirtyBytes:     optBytes(mi.DirtyBytes),
		}
	}

	if ds, err := h.blk.ProcDiskstats(); err != nil {
		fail("disks", err)
	} else {
		s.Disks = selectDisks(ds)
	}

	if p, err := h.process(); err != nil {
		fail("process", err)
	} else {
		s.Process = p
	}

	return s
}

func (h *hostReader) process() (*ProcessSample, error) {
	var (
		p   procfs.Proc
		err error
	)

	if h.pid == 0 {
		p, err = h.fs.Self()
	} else {
		p, err = h.fs.Proc(h.pid)
	}

	if err != nil {
		return nil, err
	}

	st, err := p.Stat()
	if err != nil {
		return nil, err
	}

	return processSample(st), nil
}

// commLen is how much of a process's name /proc/<pid>/stat keeps.
const commLen = 15

// serverProcess reads process pid when its name is name (the server's
// executable, as serverStatus's process reports it), else nil. The pid is
// the server's in its own PID namespace: in a container it names another
// process of this host, or none, and the name tells them apart.
func (h *hostReader) serverProcess(pid int, name string) *ProcessSample {
	if h.initErr != nil || pid <= 0 || name == "" {
		return nil
	}

	p, err := h.fs.Proc(pid)
	if err != nil {
		return nil
	}

	st, err := p.Stat()
	if err != nil {
		return nil
	}

	if len(name) > commLen {
		name = name[:commLen]
	}

	if st.Comm != name {
		return nil
	}

	return processSample(st)
}

func processSample(st procfs.ProcStat) *ProcessSample {
	// /proc/<pid>/stat counts in clock ticks, which Linux fixes at 100 per
	// second for user space (procfs assumes the same in CPUTime).
	const userHZ = 100

	return &ProcessSample{
		UserSec:   float64(st.UTime) / userHZ,
		SystemSec: float64(st.STime) / userHZ,
		RSSBytes:  float64(st.ResidentMemory()),
	}
}

func optBytes(p *uint64) Value {
	if p == nil {
		return Value{}
	}

	return Known(float64(*p))
}

// selectDisks keeps the devices whose figures mean something the way
// iostat's do, in name order:
//   - loop, ram and zram devices are memory or files, not disks: dropped;
//   - a partition is dropped when its whole disk is listed, because the
//     disk's counters already include it (sda1 of sda, nvme0n1p2 of
//     nvme0n1, mmcblk0p1 of mmcblk0);
//   - device-mapper and md devices are kept: they are what a file system
//     on LVM or RAID sees, and their latency differs from their members';
//   - a device that has never done any I/O since boot (an empty CD drive)
//     is dropped.
func selectDisks(ds []blockdevice.Diskstats) []DiskCounters {
	names := make(map[string]bool, len(ds))
	for _, d := range ds {
		names[d.DeviceName] = true
	}

	var out []DiskCounters

	for _, d := range ds {
		name := d.DeviceName
		if isVirtualDevice(name) {
			continue
		}

		if whole, ok := wholeDisk(name); ok && names[whole] {
			continue
		}

		if d.ReadIOs == 0 && d.WriteIOs == 0 && d.IOsTotalTicks == 0 {
			continue
		}

		out = append(out, DiskCounters{
			Name:            name,
			ReadIOs:         d.ReadIOs,
			ReadSectors:     d.ReadSectors,
			ReadTicks:       d.ReadTicks,
			WriteIOs:        d.WriteIOs,
			WriteSectors:    d.WriteSectors,
			WriteTicks:      d.WriteTicks,
			IOTicks:         d.IOsTotalTicks,
			WeightedIOTicks: d.WeightedIOTicks,
		})
	}

	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })

	return out
}

func isVirtualDevice(name string) bool {
	for _, p := range []string{"loop", "ram", "zram"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}

	return false
}

// wholeDisk returns the disk a partition name belongs to by the kernel's
// naming rule: the disk name plus digits, with a "p" in between when the
// disk name itself ends in a digit (nvme0n1p1, mmcblk0p1, loop0p1).
func wholeDisk(name string) (string, bool) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}

	if i == len(name) || i == 0 {
		return "", false
	}

	base := name[:i]
	if base[len(base)-1] == 'p' && len(base) >= 2 && base[len(base)-2] >= '0' && base[len(base)-2] <= '9' {
		return base[:len(base)-1], true
	}

	return base, true
}
