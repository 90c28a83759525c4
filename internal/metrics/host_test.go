package metrics

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/prometheus/procfs/blockdevice"
)

func TestHostSampleFromRecordedProc(t *testing.T) {
	t.Parallel()

	s := hostFixture(t, "a")

	want := &CPUTimes{
		NumCPU: 2,
		// /proc/stat counts 1/100 s.
		User: 1000, Nice: 50, System: 300, Idle: 8000, Iowait: 100, IRQ: 0, SoftIRQ: 20, Steal: 10,
	}
	if !reflect.DeepEqual(s.CPU, want) {
		t.Errorf("cpu = %+v, want %+v", s.CPU, want)
	}

	if want := (&LoadAvg{Load1: 1.5, Load5: 1.2, Load15: 0.9}); !reflect.DeepEqual(s.Load, want) {
		t.Errorf("load = %+v, want %+v", s.Load, want)
	}

	checkValue(t, "MemTotal", s.Memory.TotalBytes, Known(8000000*1024))
	checkValue(t, "MemAvailable", s.Memory.AvailableBytes, Known(3000000*1024))
	checkValue(t, "Cached", s.Memory.CachedBytes, Known(2500000*1024))
	checkValue(t, "Dirty", s.Memory.DirtyBytes, Known(1024*1024))

	var names []string
	for _, d := range s.Disks {
		names = append(names, d.Name)
	}

	// loop0 is a file, vda1 and nvme0n1p1 are inside their disks, vdb, sr0
	// and loop1 never did any I/O.
	if want := []string{"dm-0", "nvme0n1", "vda"}; !reflect.DeepEqual(names, want) {
		t.Errorf("disks = %v, want %v", names, want)
	}

	wantProc := &ProcessSample{UserSec: 15, SystemSec: 3, RSSBytes: float64(25600 * os.Getpagesize())}
	if !reflect.DeepEqual(s.Process, wantProc) {
		t.Errorf("process = %+v, want %+v", s.Process, wantProc)
	}
}

func TestSamplerReadsProcFSRoot(t *testing.T) {
	t.Parallel()

	s := NewSampler(SamplerOptions{ProcFS: filepath.Join("testdata", "proc", "a"), ServerIsLocal: true, pid: 4242})
	snap := s.Sample(context.Background(), t0)

	want := hostFixture(t, "a")
	want.DescribesServer = true

	if !snap.At.Equal(t0) || snap.Server != nil {
		t.Errorf("snapshot at %v, server %+v", snap.At, snap.Server)
	}

	if !reflect.DeepEqual(snap.Host, want) {
		t.Errorf("host = %+v, want %+v", snap.Host, want)
	}
}

func TestHostDelta(t *testing.T) {
	t.Parallel()

	first, last := recordedRun(t)
	h := Delta(first, last).Host

	if h == nil || h.CPU == nil || h.Process == nil || h.Memory == nil {
		t.Fatalf("host = %+v", h)
	}

	// /proc/stat moved by 2000 ticks in all: user 800, nice 20, system 300,
	// idle 600, iowait 200, softirq 40, steal 40 (guest 100 is inside user).
	for _, c := range []struct {
		name      string
		got, want Value
	}{
		{"user (820 of 2000)", h.CPU.UserPct, Known(41)},
		{"system (300+40)", h.CPU.SystemPct, Known(17)},
		{"iowait", h.CPU.IowaitPct, Known(10)},
		{"steal", h.CPU.StealPct, Known(2)},
		{"idle", h.CPU.IdlePct, Known(30)},
		{"nice", h.CPU.NicePct, Known(1)},
		{"softirq", h.CPU.SoftIRQPct, Known(2)},
		{"irq", h.CPU.IRQPct, Known(0)},
		// mongobench: 600 + 200 ticks = 8 s of CPU in 10 s, of 2 CPUs.
		{"client cpu s", h.Process.CPUSec, Known(8)},
		{"client cores", h.Process.CPUCores, Known(0.8)},
		{"client cpu %", h.Process.CPUPct, Known(40)},
		{"client rss", h.Process.RSSBytes, Known(float64(28160 * os.Getpagesize()))},
		{"available (gauge at end)", h.Memory.AvailableBytes, Known(2900000 * 1024)},
		{"dirty", h.Memory.DirtyBytes, Known(20480 * 1024)},
	} {
		checkValue(t, c.name, c.got, c.want)
	}

	if h.Load.Load1 != 2 {
		t.Errorf("load1 = %v, want the end's 2", h.Load.Load1)
	}

	disks := map[string]DiskInterval{}
	for _, d := range h.Disks {
		disks[d.Name] = d
	}

	// iostat -x over 10 s, from the recorded /proc/diskstats by hand.
	tests := []struct {
		disk string
		want DiskInterval
	}{
		{
			// +5000 reads, +204800 sectors, +10000 ms reading; +2000
			// writes, +40960 sectors, +10000 ms writing; +9000 ms busy,
			// +25000 weighted ms.
			disk: "vda",
			want: DiskInterval{
				Name:          "vda",
				ReadsPerSec:   Known(500),
				WritesPerSec:  Known(200),
				IOPS:          Known(700),
				ReadMBPerSec:  Known(10),
				WriteMBPerSec: Known(2),
				ReadAwaitMs:   Known(2),
				WriteAwaitMs:  Known(5),
				AwaitMs:       Known(20000.0 / 7000),
				UtilPct:       Known(90),
				AvgQueueSize:  Known(2.5),
			},
		},
		{
			// No reads: read await undefined. 10500 busy ms in 10 s (the
			// samples are not taken at exactly the same instant): capped.
			disk: "nvme0n1",
			want: DiskInterval{
				Name:          "nvme0n1",
				ReadsPerSec:   Known(0),
				WritesPerSec:  Known(10),
				IOPS:          Known(10),
				ReadMBPerSec:  Known(0),
				WriteMBPerSec: Known(800 * 512.0 / 10 / (1 << 20)),
				ReadAwaitMs:   absent,
				WriteAwaitMs:  Known(3),
				AwaitMs:       Known(3),
				UtilPct:       Known(100),
				AvgQueueSize:  Known(0.3),
			},
		},
		{
			// The read counters went backwards: every figure built on them
			// is absent, the write figures stand.
			disk: "dm-0",
			want: DiskInterval{
				Name:          "dm-0",
				ReadsPerSec:   absent,
				WritesPerSec:  Known(30),
				IOPS:          absent,
				ReadMBPerSec:  absent,
				WriteMBPerSec: Known(2400 * 512.0 / 10 / (1 << 20)),
				ReadAwaitMs:   absent,
				WriteAwaitMs:  Known(2),
				AwaitMs:       absent,
				UtilPct:       Known(4),
				AvgQueueSize:  Known(0.05),
			},
		},
	}

	for _, tt := range tests {
		got, ok := disks[tt.disk]
		if !ok {
			t.Errorf("disk %s missing", tt.disk)
			continue
		}

		gv, wv := reflect.ValueOf(got), reflect.ValueOf(tt.want)
		for i := range gv.NumField() {
			if v, ok := gv.Field(i).Interface().(Value); ok {
				checkValue(t, tt.disk+"."+gv.Type().Field(i).Name, v, wv.Field(i).Interface().(Value))
			}
		}
	}

	if len(h.Disks) != len(tests) {
		t.Errorf("%d disks, want %d", len(h.Disks), len(tests))
	}
}

func TestHostDeltaEdgeCases(t *testing.T) {
	t.Parallel()

	a, b := hostFixture(t, "a"), hostFixture(t, "b")

	tests := []struct {
		name      string
		prev, cur Snapshot
		check     func(t *testing.T, h *HostInterval)
	}{
		{
			name: "first sample: gauges only",
			prev: Snapshot{},
			cur:  Snapshot{At: t0, Host: a},
			check: func(t *testing.T, h *HostInterval) {
				if h.CPU != nil || h.Disks != nil {
					t.Errorf("rates without a previous sample: cpu %+v, disks %+v", h.CPU, h.Disks)
				}

				checkValue(t, "rss", h.Process.RSSBytes, Known(float64(25600*os.Getpagesize())))
				checkValue(t, "cpu s", h.Process.CPUSec, absent)
			},
		},
		{
			name: "a disk appears",
			prev: Snapshot{At: t0, Host: withDisks(a, a.Disks[:1])},
			cur:  Snapshot{At: t0.Add(10 * time.Second), Host: b},
			check: func(t *testing.T, h *HostInterval) {
				if len(h.Disks) != 1 || h.Disks[0].Name != a.Disks[0].Name {
					t.Errorf("disks = %+v, want only %s", h.Disks, a.Disks[0].Name)
				}
			},
		},
		{
			name: "no time passed",
			prev: Snapshot{At: t0, Host: a},
			cur:  Snapshot{At: t0, Host: b},
			check: func(t *testing.T, h *HostInterval) {
				if h.Disks != nil {
					t.Errorf("disk rates over no time: %+v", h.Disks)
				}

				checkValue(t, "client cores", h.Process.CPUCores, absent)
				// CPU shares are ratios of ticks and need no clock.
				checkValue(t, "user", h.CPU.UserPct, Known(41))
			},
		},
		{
			name: "same counters twice: no CPU time passed",
			prev: Snapshot{At: t0, Host: a},
			cur:  Snapshot{At: t0.Add(time.Second), Host: a},
			check: func(t *testing.T, h *HostInterval) {
				checkValue(t, "user", h.CPU.UserPct, absent)
				checkValue(t, "vda util", h.Disks[len(h.Disks)-1].UtilPct, Known(0))
				checkValue(t, "vda await", h.Disks[len(h.Disks)-1].AwaitMs, absent)
			},
		},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.check(t, Delta(tt.prev, tt.cur).Host)
		})
	}
}

func withDisks(s *HostSample, disks []DiskCounters) *HostSample {
	c := *s
	c.Disks = disks

	return &c
}

func TestCPUDeltaCounterStepsBack(t *testing.T) {
	t.Parallel()

	// iowait can step back on tickless kernels; it counts as no time.
	prev := &CPUTimes{NumCPU: 1, User: 10, Idle: 10, Iowait: 5}
	cur := &CPUTimes{NumCPU: 1, User: 11, Idle: 13, Iowait: 4}

	c := cpuDelta(prev, cur)
	checkValue(t, "user", c.UserPct, Known(25))
	checkValue(t, "idle", c.IdlePct, Known(75))
	checkValue(t, "iowait", c.IowaitPct, Known(0))
}

func TestWholeDisk(t *testing.T) {
	t.Parallel()

	tests := []struct {
		name, whole string
		ok          bool
	}{
		{"sda", "", false},
		{"sda1", "sda", true},
		{"sdp12", "sdp", true},
		{"xvda1", "xvda", true},
		{"vda15", "vda", true},
		{"nvme0n1", "nvme0n", true}, // a candidate only: no disk "nvme0n" exists
		{"nvme0n1p2", "nvme0n1", true},
		{"mmcblk0p1", "mmcblk0", true},
		{"md127", "md", true},
		{"dm-0", "dm-", true},
		{"123", "", false},
		{"", "", false},
	}

	for _, tt := range tests {
		whole, ok := wholeDisk(tt.name)
		if whole != tt.whole || ok != tt.ok {
			t.Errorf("wholeDisk(%q) = %q, %v; want %q, %v", tt.name, whole, ok, tt.whole, tt.ok)
		}
	}
}

func TestSelectDisks(t *testing.T) {
	t.Parallel()

	dev := func(name string, reads uint64) blockdevice.Diskstats {
		return blockdevice.Diskstats{Info: blockdevice.Info{DeviceName: name}, IOStats: blockdevice.IOStats{ReadIOs: reads}}
	}

	tests := []struct {
		name string
		in   []blockdevice.Diskstats
		want []string
	}{
		{
			name: "partitions of listed disks go",
			in:   []blockdevice.Diskstats{dev("sda", 5), dev("sda1", 4), dev("sda2", 1), dev("nvme0n1", 3), dev("nvme0n1p1", 3)},
			want: []string{"nvme0n1", "sda"},
		},
		{
			// Some containers list a partition without its disk: it is
			// then the only view of that disk and stays.
			name: "partition without its disk stays",
			in:   []blockdevice.Diskstats{dev("vda1", 5)},
			want: []string{"vda1"},
		},
		{
			name: "memory and file devices go, LVM and RAID stay",
			in:   []blockdevice.Diskstats{dev("loop0", 9), dev("ram0", 9), dev("zram0", 9), dev("dm-0", 1), dev("md0", 1)},
			want: []string{"dm-0", "md0"},
		},
		{
			name: "never used goes",
			in:   []blockdevice.Diskstats{dev("sr0", 0), dev("fd0", 0)},
			want: nil,
		},
	}

	for _, tt := range tests {
		var got []string
		for _, d := range selectDisks(tt.in) {
			got = append(got, d.Name)
		}

		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestHostSampleMissingParts(t *testing.T) {
	t.Parallel()

	// A root without the files: every part is recorded as missing, and
	// nothing fails.
	h := newHostReader(t.TempDir(), 4242)
	s := h.sample(true)

	for _, part := range []string{"cpu", "load", "memory", "disks", "process"} {
		if s.Errors[part] == "" {
			t.Errorf("no error for %s: %+v", part, s.Errors)
		}
	}

	if !s.DescribesServer || s.CPU != nil || s.Disks != nil {
		t.Errorf("sample = %+v", s)
	}

	bad := newHostReader("/nonexistent-procfs-root", 0).sample(false)
	if bad.Errors["procfs"] == "" {
		t.Errorf("missing root gave %+v", bad)
	}
}

func TestSampleThisHost(t *testing.T) {
	t.Parallel()

	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc on this system")
	}

	s := NewSampler(SamplerOptions{ServerIsLocal: true})
	first := s.Sample(context.Background(), time.Now())

	// Burn a little CPU so the process's counters have a chance to move;
	// the test checks only what must hold whether they do or not.
	x := 0
	for i := range 1_000_000 {
		x += i % 7
	}

	_ = x
	last := s.Sample(context.Background(), time.Now())

	if first.Server != nil {
		t.Errorf("server sample without a client: %+v", first.Server)
	}

	h := last.Host
	if h == nil || h.CPU == nil || h.Process == nil || h.Memory == nil || h.Load == nil {
		t.Fatalf("host sample = %+v", h)
	}

	if h.Process.RSSBytes <= 0 || h.CPU.NumCPU < 1 || !h.DescribesServer {
		t.Errorf("host sample = %+v, process %+v", h, h.Process)
	}

	d := Delta(first, last).Host
	if d.Process == nil || !d.Process.CPUSec.OK || d.Process.CPUSec.V < 0 {
		t.Errorf("process interval = %+v", d.Process)
	}
}

// TestServerProcess: a local server's own process is read by the pid its
// serverStatus reports, only when the process there has the server's name
// and is not mongobench's own.
func TestServerProcess(t *testing.T) {
	t.Parallel()

	mongod := &ProcessSample{UserSec: 40, SystemSec: 10, RSSBytes: float64(131072 * os.Getpagesize())}
	tests := []struct {
		name    string
		local   bool
		pid     Value
		process string
		want    *ProcessSample
	}{
		{"local mongod", true, Known(5151), "/usr/bin/mongod", mongod},
		{"another name at that pid", true, Known(5151), "ferretdb", nil},
		{"no such process", true, Known(6161), "mongod", nil},
		{"the embedded server, in this process", true, Known(4242), "mongobench", nil},
		{"a remote server", false, Known(5151), "mongod", nil},
		{"no pid reported", true, Value{}, "mongod", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := NewSampler(SamplerOptions{ProcFS: filepath.Join("testdata", "proc", "a"), ServerIsLocal: tc.local, pid: 4242})
			s.noteServer(tc.pid, tc.process)
			snap := s.Sample(context.Background(), t0)
			if !reflect.DeepEqual(snap.Host.ServerProcess, tc.want) {
				t.Errorf("server process %+v, want %+v", snap.Host.ServerProcess, tc.want)
			}
		})
	}

	// Over the 10 s from a to b the server used 18 CPU-seconds: 1.8 of
	// the 2 CPUs, 90%.
	s := NewSampler(SamplerOptions{ProcFS: filepath.Join("testdata", "proc", "a"), ServerIsLocal: true, pid: 4242})
	s.noteServer(Known(5151), "mongod")
	a := s.Sample(context.Background(), t0)
	b := NewSampler(SamplerOptions{ProcFS: filepath.Join("testdata", "proc", "b"), ServerIsLocal: true, pid: 4242})
	b.noteServer(Known(5151), "mongod")
	m := Delta(a, b.Sample(context.Background(), t0.Add(10*time.Second)))
	sp := m.Host.ServerProcess
	if sp == nil {
		t.Fatal("no server process in the interval")
	}
	checkValue(t, "server CPU s", sp.CPUSec, Known(18))
	checkValue(t, "server CPU cores", sp.CPUCores, Known(1.8))
	checkValue(t, "server CPU %", sp.CPUPct, Known(90))
}
